"""`make book` runs a chapter again only when its source, its code or what it read changed.

Real data throughout: a temporary data root holds a copy of the released versions, and the new
releases are cut from it with the project's own `data add` (analysis.data.add), so every
checksum is the one the release machinery writes. The expected checksums are read from the
releases' datapackage.json files here, not from the code under test.

1. The real book's index, token-prices and gpu-hour-prices pages, run once by the preview: a
   GPU-hour-only release re-runs exactly the pages whose record lists gpu_hour_prices (index
   and gpu-hour-prices), not token-prices; an edited .qmd, an edited module, a missing or
   corrupt record and a new release date each re-run what they should.
2. A small book whose pages read the real tables, built by the preview three times: the second
   build reuses every page (same bytes), the third, after a GPU-only release, runs exactly the
   pages that read GPU-hour prices.
3. The same book through `make book`'s Quarto path, with a stand-in `quarto` that does what
   Quarto's `freeze: auto` does on a real `_freeze/` tree (`_freeze/<path>/execute-results/
   html.json` with the md5 of the source; run the chapter's code with QUARTO_EXECUTE_INFO set
   when that file is absent or stale): only the entries of the chapters that must run go.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from analysis.book import build as book
from analysis.book import deps
from analysis.data import add, paths, workloads
from analysis.data.paths import ROOT

BASE = "2026-12-01.4"  # the release the temporary data root starts from (its latest; the newest
# built one, so an add on it rewrites no table for a column added since)
BASE_DAY = BASE[:10]  # the day it was released
SAME_DAY = "2026-12-01.5"  # a GPU-only release on the same day
NEXT_DAY = "2026-12-02"  # a GPU-only release on the next day

# One GPU-hour price as `data add` takes it, a test input named as such: an A10 at Oracle on a
# day no released row states (a row stating a released fact would merge into it, not be added).
GPU_ROW = (
    "gpu,provider,date,pricing,usd_per_gpu_hour,statistic,gpus_per_instance,source_locator,"
    "source_title,source_url,accessed,entered_by\n"
    "NVIDIA A10 PCIe,oracle-cloud,2023-10-{day},on-demand,2.0,quote,{n},"
    "row {row},Test input of tests/book/test_deps.py,"
    "https://example.org/test-deps,2026-12-01,tests/book/test_deps.py\n"
)

pytestmark = pytest.mark.skipif(
    not (paths.DATA_DIR / BASE / "datapackage.json").exists(),
    reason=f"needs the released data version {BASE} in {paths.DATA_DIR}",
)


def copy_releases(dest: Path) -> Path:
    """A data root holding the project's releases up to BASE."""
    dest.mkdir(parents=True)
    index = json.loads((paths.DATA_DIR / "versions.json").read_text())
    index["releases"] = [r for r in index["releases"] if r["version"] <= BASE]
    for r in index["releases"]:
        shutil.copytree(paths.DATA_DIR / r["version"], dest / r["version"])
    (dest / "versions.json").write_text(json.dumps(index, indent=2) + "\n")
    return dest


def cut_gpu_release(data_root: Path, version: str, n: int, row: int) -> None:
    csv = data_root.parent / f"gpu-{version}.csv"
    csv.write_text(GPU_ROW.format(n=n, row=row, day=23 + n))
    added = add.add(csv, root=data_root, version=version)
    assert (added.table, added.rows) == ("gpu_hour_prices", 1)


def table_sha(data_root: Path, version: str, table: str) -> str:
    desc = json.loads((data_root / version / "datapackage.json").read_text())
    (res,) = [r for r in desc["resources"] if r["name"] == table]
    return res["hash"].removeprefix("sha256:")


def changed_tables(data_root: Path, old: str, new: str) -> set[str]:
    tables = [r["name"] for r in json.loads((data_root / new / "datapackage.json").read_text())["resources"]]  # fmt: skip
    return {t for t in tables if table_sha(data_root, old, t) != table_sha(data_root, new, t)}


@pytest.fixture
def data_root_env(monkeypatch):
    """Point this process and the kernels it starts at a data root (BOOK_DATA_DIR)."""

    def use(data_root: Path, version: str | None = None) -> None:
        monkeypatch.setenv("BOOK_DATA_DIR", str(data_root))
        monkeypatch.setattr(paths, "DATA_DIR", data_root)
        if version:
            monkeypatch.setenv("BOOK_DATA_VERSION", version)
        else:
            monkeypatch.delenv("BOOK_DATA_VERSION", raising=False)

    return use


# ---------------------------------------------------------------------------------------------
# 1. The real book's pages


REAL_PAGES = ["index.qmd", "chapters/token-prices.qmd", "chapters/gpu-hour-prices.qmd"]


@pytest.fixture(scope="module")
def real_run(tmp_path_factory) -> tuple[Path, Path]:
    """The three real pages in a book of their own, run once by the preview on release BASE of a
    temporary data root, which then gets a GPU-only release on the same day and one the next."""
    work = tmp_path_factory.mktemp("real-book")
    data_root = copy_releases(work / "data")
    root = work / "book"
    (root / "chapters").mkdir(parents=True)
    config = yaml.safe_load((ROOT / "_quarto.yml").read_text())
    config["book"]["chapters"] = REAL_PAGES
    config["book"].pop("appendices", None)
    (root / "_quarto.yml").write_text(yaml.safe_dump(config, sort_keys=False))
    for page in REAL_PAGES:
        shutil.copyfile(ROOT / page, root / page)
    shutil.copyfile(ROOT / "references.bib", root / "references.bib")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BOOK_DATA_DIR", str(data_root))
        mp.setattr(paths, "DATA_DIR", data_root)
        mp.delenv("BOOK_DATA_VERSION", raising=False)
        assert book.build_preview(root) == 0
        cut_gpu_release(data_root, SAME_DAY, n=1, row=337)
        cut_gpu_release(data_root, NEXT_DAY, n=2, row=340)
    return root, data_root


def plan(root: Path) -> dict[str, deps.Verdict]:
    store = deps.Store(root, deps.PREVIEW)
    qmds = [root / page for page in REAL_PAGES]
    verdicts, _ = deps.plan(root, qmds, store, deps.preview_missing(store))
    return {v.chapter: v for v in verdicts}


def manifest(root: Path, page: str) -> dict:
    return deps.Store(root, deps.PREVIEW).manifest(page)


def test_each_page_records_the_tables_it_read_with_their_checksums(real_run):
    root, data_root = real_run
    gpu, tokens, index = (manifest(root, p) for p in REAL_PAGES[::-1])
    for record in (gpu, tokens, index):
        assert record["data_version"] == BASE
        assert record["source_sha256"] == hashlib.sha256((root / record["chapter"]).read_bytes()).hexdigest()  # fmt: skip
    for table in ("gpu_hour_prices", "gpu_specs", "mlperf_results"):
        read = gpu["reads"][f"table:{table}"]
        assert read["sha256"] == table_sha(data_root, BASE, table)
    assert (
        "table:token_prices" in tokens["reads"] and "table:gpu_hour_prices" not in tokens["reads"]
    )
    assert {"table:token_prices", "table:gpu_hour_prices"} <= set(index["reads"])
    # Each page imports its own chapter module; the token page's code does not include the GPU one.
    assert "chapters/gpu_hour_prices.py" in gpu["code"]
    assert "chapters/gpu_hour_prices.py" not in tokens["code"]
    # The summary and token-prices quote the spread claim's ledger verdict through the report
    # layer (analysis.report.verdicts), so each depends on its own chapter module only, never on
    # every chapter (analysis.evidence), nor on the sources or time-of-use tables it reads.
    for record, own in ((index, "chapters/index.py"), (tokens, "chapters/token_prices.py")):
        assert "report/verdicts.py" in record["code"] and "evidence.py" not in record["code"]
        assert {m for m in record["code"] if m.startswith("chapters/")} == {
            "chapters/__init__.py",
            own,
        }
        assert not {"table:sources", "table:tou_windows"} & set(record["reads"])


def test_a_gpu_only_release_reruns_exactly_the_pages_that_read_gpu_hour_prices(
    real_run, data_root_env
):
    root, data_root = real_run
    assert changed_tables(data_root, BASE, SAME_DAY) == {
        "gpu_hour_prices",
        "sources",
        "observations",
    }
    data_root_env(data_root, SAME_DAY)
    verdicts = plan(root)
    readers = {p for p in REAL_PAGES if "table:gpu_hour_prices" in manifest(root, p)["reads"]}
    assert readers == {"index.qmd", "chapters/gpu-hour-prices.qmd"}
    assert {p for p, v in verdicts.items() if v.rerun} == readers
    old, new = (table_sha(data_root, v, "gpu_hour_prices") for v in (BASE, SAME_DAY))
    line = verdicts["chapters/gpu-hour-prices.qmd"].line()
    assert f"table gpu_hour_prices changed (sha256 {old[:8]}… → {new[:8]}…)" in line
    assert line.startswith("chapters/gpu-hour-prices.qmd: re-run, ")
    # The release added a sources row too; the token page looks up only its figures' sources.
    assert verdicts["chapters/token-prices.qmd"].line() == (
        "chapters/token-prices.qmd: reused, nothing it reads changed "
        f"(it ran on data version {BASE}; what it reads is the same in {SAME_DAY})"
    )


def test_a_release_on_a_later_day_reruns_pages_that_run_up_to_the_release_date(
    real_run, data_root_env
):
    """The token page keeps prices dated up to the release date, so a later date is an input."""
    root, data_root = real_run
    data_root_env(data_root, NEXT_DAY)
    verdicts = plan(root)
    assert manifest(root, "chapters/token-prices.qmd")["reads"]["release_date"]["value"] == BASE_DAY
    assert verdicts["chapters/token-prices.qmd"].reasons == [
        f"the release date changed ({BASE_DAY} → {NEXT_DAY})"
    ]


def copy_book(real_run, tmp_path) -> Path:
    root = tmp_path / "book"
    shutil.copytree(real_run[0], root, ignore=shutil.ignore_patterns("_preview"))
    return root


def test_an_edited_qmd_reruns_only_that_page(real_run, data_root_env, tmp_path):
    root = copy_book(real_run, tmp_path)
    data_root_env(real_run[1], BASE)
    assert not any(v.rerun for v in plan(root).values())
    with (root / "chapters/token-prices.qmd").open("a") as f:
        f.write("\nOne more sentence.\n")
    verdicts = plan(root)
    assert {p for p, v in verdicts.items() if v.rerun} == {"chapters/token-prices.qmd"}
    assert verdicts["chapters/token-prices.qmd"].reasons == ["its source changed"]


def test_an_edited_module_reruns_the_pages_that_import_it(real_run, data_root_env, tmp_path):
    """The records say what each module was when the page ran; a module whose file differs now
    (here: the records are given the sha256 of an earlier text of the GPU chapter's module)."""
    root = copy_book(real_run, tmp_path)
    data_root_env(real_run[1], BASE)
    module = "chapters/gpu_hour_prices.py"
    earlier = (ROOT / "analysis" / module).read_text().rsplit("\n", 2)[0]
    store = deps.Store(root, deps.PREVIEW)
    importers = []
    for page in REAL_PAGES:
        record = store.manifest(page)
        if module in record["code"]:
            record["code"][module] = hashlib.sha256(earlier.encode()).hexdigest()
            store.write_manifest(page, record)
            importers.append(page)
    assert importers == ["chapters/gpu-hour-prices.qmd"]
    verdicts = plan(root)
    assert {p for p, v in verdicts.items() if v.rerun} == set(importers)
    assert verdicts[importers[0]].reasons == [f"code changed: analysis/{module}"]


def test_a_missing_or_corrupt_record_means_rerun(real_run, data_root_env, tmp_path):
    root = copy_book(real_run, tmp_path)
    data_root_env(real_run[1], BASE)
    store = deps.Store(root, deps.PREVIEW)
    store.path("chapters/token-prices.qmd", ".json").unlink()
    index = store.path("index.qmd", ".json")
    index.write_text(index.read_text()[:100])  # truncated
    verdicts = plan(root)
    assert verdicts["chapters/token-prices.qmd"].reasons == ["no record of an earlier run"]
    (reason,) = verdicts["index.qmd"].reasons
    assert reason.startswith("its record _deps/preview/index.json cannot be read (")
    assert not verdicts["chapters/gpu-hour-prices.qmd"].rerun


# ---------------------------------------------------------------------------------------------
# 2 and 3. A small book whose pages read the real tables

QUARTO_YML = """\
project:
  type: book
book:
  title: "Small book"
  chapters:
    - index.qmd
    - chapters/tokens.qmd
    - chapters/gpus.qmd
    - chapters/notes.qmd
execute:
  echo: false
"""

INDEX = """\
---
title: "Summary"
---

```{python}
from analysis import data
n_tokens, n_gpus = data.load("token_prices").height, data.load("gpu_hour_prices").height
```

`{python} n_tokens` token prices and `{python} n_gpus` GPU-hour prices.
"""

TOKENS = """\
# Tokens

```{python}
from analysis import data
n = data.load("token_prices").height
```

There are `{python} n` token prices.
"""

GPUS = """\
# GPUs

```{python}
import altair as alt
import polars as pl
from analysis import data
from analysis.book.show import show
prices = data.load("gpu_hour_prices")
by_pricing = prices.group_by("pricing").agg(pl.len().alias("rows")).sort("pricing")
```

There are `{python} prices.height` GPU-hour prices.

```{python}
#| label: fig-gpus-rows
#| fig-cap: "Rows by pricing type"
#| fig-alt: "Bars of rows by pricing type"
show(alt.Chart(by_pricing).mark_bar().encode(x="pricing", y="rows"), "rows")
```
"""

NOTES = "# Notes\n\nNo code here.\n"


def small_book(root: Path) -> Path:
    (root / "chapters").mkdir(parents=True)
    (root / "_quarto.yml").write_text(QUARTO_YML)
    for name, text in {
        "index.qmd": INDEX,
        "chapters/tokens.qmd": TOKENS,
        "chapters/gpus.qmd": GPUS,
        "chapters/notes.qmd": NOTES,
    }.items():
        (root / name).write_text(text)
    return root


def run_book(root: Path, data_root: Path, path_dirs: list[Path], *args: str, **extra_env: str):
    """`build_book` in a fresh process (as `make book` runs it) on `data_root`."""
    code = (
        "import sys; from analysis.book.build import build_book; "
        f"sys.exit(build_book({str(root)!r}, {', '.join(args)}))"
    )
    env = {**os.environ, "PATH": os.pathsep.join(map(str, path_dirs)), "BOOK_DATA_DIR": str(data_root), **extra_env}  # fmt: skip
    env.pop("BOOK_DATA_VERSION", None)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env
    )


def verdict_lines(stderr: str) -> dict[str, str]:
    out = {}
    for line in stderr.splitlines():
        chapter, _, rest = line.partition(": ")
        if chapter.endswith(".qmd") and rest.startswith(("re-run", "reused")):
            out[chapter] = rest
    return out


def gpu_rows(data_root: Path, version: str) -> int:
    with (data_root / version / "gpu_hour_prices.csv").open(newline="") as f:
        return sum(1 for _ in csv.reader(f)) - 1


def test_the_preview_reuses_pages_and_reruns_those_a_gpu_release_touches(tmp_path):
    data_root = copy_releases(tmp_path / "data")
    root = small_book(tmp_path / "book")
    no_quarto = tmp_path / "empty-bin"
    no_quarto.mkdir()
    if (Path(sys.executable).parent / "quarto").exists():
        pytest.skip("a quarto executable sits beside this Python; the preview path cannot run")

    first = run_book(root, data_root, [no_quarto], "try_install=False")
    assert first.returncode == 0, first.stderr
    assert set(verdict_lines(first.stderr).values()) == {"re-run, no record of an earlier run"}
    pages = {p: p.read_bytes() for p in (root / "_preview").rglob("*") if p.is_file()}
    assert root / "_preview/figures/gpus/rows.png" in pages
    gpus = pages[root / "_preview/chapters/gpus.html"].decode()
    assert f"There are {gpu_rows(data_root, BASE)} GPU-hour prices." in gpus

    second = run_book(root, data_root, [no_quarto], "try_install=False")
    assert second.returncode == 0, second.stderr
    assert set(verdict_lines(second.stderr).values()) == {"reused, nothing it reads changed"}
    again = {p: p.read_bytes() for p in (root / "_preview").rglob("*") if p.is_file()}
    assert again == pages  # the same preview, byte for byte, figure kit included

    cut_gpu_release(data_root, SAME_DAY, n=1, row=337)
    third = run_book(root, data_root, [no_quarto], "try_install=False")
    assert third.returncode == 0, third.stderr
    lines = verdict_lines(third.stderr)
    old, new = (table_sha(data_root, v, "gpu_hour_prices") for v in (BASE, SAME_DAY))
    changed = f"re-run, table gpu_hour_prices changed (sha256 {old[:8]}… → {new[:8]}…)"
    assert lines == {
        "index.qmd": changed,
        "chapters/tokens.qmd": "reused, nothing it reads changed "
        f"(it ran on data version {BASE}; what it reads is the same in {SAME_DAY})",
        "chapters/gpus.qmd": changed,
        "chapters/notes.qmd": "reused, nothing it reads changed "
        f"(it ran on data version {BASE}; what it reads is the same in {SAME_DAY})",
    }
    assert "2 of 4 chapters to run, 2 reused" in third.stderr
    gpus = (root / "_preview/chapters/gpus.html").read_text()
    assert gpu_rows(data_root, SAME_DAY) == gpu_rows(data_root, BASE) + 1
    assert f"There are {gpu_rows(data_root, SAME_DAY)} GPU-hour prices." in gpus
    assert (root / "_preview/chapters/tokens.html").read_bytes() == pages[
        root / "_preview/chapters/tokens.html"
    ]
    assert (root / "_preview/figures/gpus/rows.json").is_file()


# A stand-in for `quarto render` that does, on disk, what Quarto's `freeze: auto` does: a page
# with code whose `_freeze/<path>/execute-results/html.json` is absent or holds another source's
# md5 is executed (its code cells, in a fresh Python, with Quarto's environment variables) and
# frozen (html.json and a figure-html/ file); the others are left alone. It logs what it ran,
# and each render in `<log>.renders`; it writes `_book/index.html` (its one output), and fails
# when FAKE_QUARTO_FAIL is set.
FAKE_QUARTO = """\
#!{python}
import hashlib, json, os, re, subprocess, sys
from pathlib import Path
import yaml
if sys.argv[1:] != ["render"]:
    print("1.10.18")  # `quarto --version`
    sys.exit(0)
root = Path.cwd()
log = Path({log!r})
with open(str(log) + ".renders", "a") as f:
    f.write("render\\n")
if os.environ.get("FAKE_QUARTO_FAIL"):
    sys.exit(1)
config = yaml.safe_load((root / "_quarto.yml").read_text())
site_lib = root / "_freeze" / "site_libs" / "quarto.js"
if not site_lib.exists():
    site_lib.parent.mkdir(parents=True)
    site_lib.write_text("// site lib")
for page in config["book"]["chapters"]:
    source = (root / page).read_text()
    cells = re.findall(r"```\\{{python\\}}\\n(.*?)```", source, re.S)
    if not cells:
        continue
    frozen = root / "_freeze" / Path(page).with_suffix("") / "execute-results" / "html.json"
    md5 = hashlib.md5(source.encode()).hexdigest()
    if frozen.exists() and json.loads(frozen.read_text())["hash"] == md5:
        continue
    info = root / ".quarto-execute-info.json"
    info.write_text(json.dumps({{"document-path": str(root / page),
                                "format": {{"identifier": {{"base-format": "html"}}}}}}))
    env = {{**os.environ, "QUARTO_EXECUTE_INFO": str(info), "QUARTO_PROJECT_ROOT": str(root),
           "QUARTO_DOCUMENT_PATH": str((root / page).parent),
           "QUARTO_DOCUMENT_FILE": Path(page).name}}
    done = subprocess.run([sys.executable, "-c", "\\n".join(cells)], cwd=root, env=env)
    if done.returncode:
        sys.exit(done.returncode)
    frozen.parent.mkdir(parents=True, exist_ok=True)
    frozen.write_text(json.dumps({{"hash": md5, "result": {{"markdown": page, "supporting": []}}}}))
    figures = frozen.parent.parent / "figure-html"
    figures.mkdir(exist_ok=True)
    (figures / "cell-1-output-1.svg").write_text("<svg/>")
    with log.open("a") as f:
        f.write(page + "\\n")
(root / "_book").mkdir(exist_ok=True)
(root / "_book" / "index.html").write_text("<p>" + " ".join(config["book"]["chapters"]) + "</p>")
"""


def fake_quarto(tmp_path: Path) -> tuple[list[Path], Path]:
    """A PATH whose `quarto` is FAKE_QUARTO, and the log of the pages it executed."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "executed.txt"
    quarto = bin_dir / "quarto"
    quarto.write_text(FAKE_QUARTO.format(python=sys.executable, log=str(log)))
    quarto.chmod(0o755)
    return [bin_dir, Path("/usr/bin"), Path("/bin")], log


def test_quarto_path_clears_the_frozen_results_of_exactly_the_pages_that_must_run(tmp_path):
    data_root = copy_releases(tmp_path / "data")
    root = small_book(tmp_path / "book")
    path, log = fake_quarto(tmp_path)

    def render() -> tuple[dict[str, str], list[str]]:
        log.write_text("")
        done = run_book(root, data_root, path)
        assert done.returncode == 0, done.stderr
        return verdict_lines(done.stderr), log.read_text().split()

    lines, ran = render()
    everything = ["index.qmd", "chapters/tokens.qmd", "chapters/gpus.qmd"]
    assert ran == everything  # no records yet: every page with code runs; the notes page has none
    assert set(lines) == set(everything)
    store = deps.Store(root, deps.QUARTO)
    gpus = store.manifest("chapters/gpus.qmd")  # written from the reads its kernel recorded
    assert gpus["reads"]["table:gpu_hour_prices"]["sha256"] == table_sha(data_root, BASE, "gpu_hour_prices")  # fmt: skip
    assert gpus["figures"] == ["rows.csv", "rows.json", "rows.png", "rows.svg", "rows.vl.json"]
    assert "table:gpu_hour_prices" not in store.manifest("chapters/tokens.qmd")["reads"]

    lines, ran = render()
    assert ran == [] and set(lines.values()) == {"reused, nothing it reads changed"}

    freeze = root / "_freeze"
    kept = {
        p: (p.read_bytes(), p.stat().st_mtime_ns)
        for p in [freeze / "chapters/tokens/execute-results/html.json",
                  freeze / "chapters/tokens/figure-html/cell-1-output-1.svg",
                  freeze / "site_libs/quarto.js"]
    }  # fmt: skip
    cut_gpu_release(data_root, SAME_DAY, n=1, row=337)
    lines, ran = render()
    assert ran == ["index.qmd", "chapters/gpus.qmd"]
    old, new = (table_sha(data_root, v, "gpu_hour_prices") for v in (BASE, SAME_DAY))
    assert lines["chapters/gpus.qmd"] == (
        f"re-run, table gpu_hour_prices changed (sha256 {old[:8]}… → {new[:8]}…)"
    )
    assert lines["chapters/tokens.qmd"].startswith("reused, nothing it reads changed")
    assert all(p.read_bytes() == b and p.stat().st_mtime_ns == t for p, (b, t) in kept.items())
    assert store.manifest("chapters/gpus.qmd")["data_version"] == SAME_DAY

    # A figure kit without the page's files: that page runs again (and writes them).
    shutil.rmtree(root / book.KIT_DIR / "gpus")
    lines, ran = render()
    assert ran == ["chapters/gpus.qmd"]
    assert lines["chapters/gpus.qmd"] == "re-run, its figure-kit files are missing"
    assert (root / book.KIT_DIR / "gpus" / "rows.png").is_file()


def test_an_unchanged_book_is_not_rendered_again(tmp_path):
    """`quarto render` runs pandoc and Typst on every page even when every chapter is frozen, so
    `make book` skips it when nothing the render reads changed and `_book/` is as the last
    successful render left it; any change to a book file (a page without code too), a missing
    output or a failed render means a render."""
    data_root = copy_releases(tmp_path / "data")
    root = small_book(tmp_path / "book")
    path, log = fake_quarto(tmp_path)
    renders = Path(f"{log}.renders")

    def make_book(**env) -> tuple[int, str]:
        renders.write_text("")
        done = run_book(root, data_root, path, **env)
        return len(renders.read_text().split()), done.stderr

    count, _ = make_book()
    assert count == 1 and (root / "_book/index.html").is_file()
    count, stderr = make_book()
    assert count == 0 and "`quarto render` did not run" in " ".join(stderr.split()), stderr

    notes = root / "chapters/notes.qmd"  # a page with no code: no chapter record covers it
    notes.write_text(notes.read_text() + "\nOne more sentence.\n")
    assert make_book()[0] == 1
    assert make_book()[0] == 0

    (root / "_book/index.html").unlink()
    assert make_book()[0] == 1
    assert make_book()[0] == 0

    (root / "references.bib").write_text("@misc{x, title={X}}\n")  # a file no chapter reads
    count, _ = make_book(FAKE_QUARTO_FAIL="1")
    assert count == 1
    assert make_book()[0] == 1  # the failed render left no record: it renders again
    assert make_book()[0] == 0


def test_every_folder_gitignore_lists_is_not_an_input_of_the_render():
    """deps.NOT_INPUTS names the folders of outputs, caches and environments that a render does
    not read; a folder .gitignore adds must be named there too (or a glob deps handles)."""
    handled_globs = {"*.egg-info/", ".preview-build-*/"}
    for line in (ROOT / ".gitignore").read_text().splitlines():
        if line.endswith("/") and line not in handled_globs:
            assert line.strip("/") in deps.NOT_INPUTS, line


def test_an_edited_workload_preset_reruns_the_pages_that_price_presets(tmp_path, monkeypatch):
    """The workload-costs page prices the presets in workloads/: its record keeps each preset's
    sha256 (a file outside the package, so not among the code's), and an edited preset reruns
    it; a page whose code does not read the presets keeps no such record."""
    presets = tmp_path / "workloads"
    shutil.copytree(ROOT / "workloads", presets)
    monkeypatch.setattr(workloads, "WORKLOADS_DIR", presets)
    root = tmp_path / "book"
    (root / "chapters").mkdir(parents=True)
    pages = {
        "chapters/bills.qmd": "from analysis.chapters import workload_costs",
        "chapters/prices.qmd": "from analysis.chapters import token_prices",
    }
    for page, code in pages.items():
        (root / page).write_text(f"# A page\n\n```{{python}}\n{code}\n```\n")
    store = deps.Store(root, deps.PREVIEW)
    states = {page: deps.chapter_state(root / page, root) for page in pages}
    preset = "workloads/coding-agent.yaml"
    assert preset in states["chapters/bills.qmd"].inputs
    assert states["chapters/prices.qmd"].inputs == {}
    for page, state in states.items():
        store.write_manifest(page, state.manifest({}, None, []))

    def verdict(page):
        return deps.verdict(deps.chapter_state(root / page, root), store, lambda *_: None)

    assert not verdict("chapters/bills.qmd").rerun
    with (presets / "coding-agent.yaml").open("a") as f:
        f.write("# one more comment\n")
    assert verdict("chapters/bills.qmd").reasons == [f"changed: {preset}"]
    assert not verdict("chapters/prices.qmd").rerun
