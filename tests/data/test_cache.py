"""The result cache: a hit when data, code and arguments are the same; a miss when any differs;
a corrupt file ignored. Every test has its own cache folder."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import polars as pl
import pytest

from analysis.data import cache, paths
from analysis.data.paths import ROOT

# Each test gets a result cache of its own, turned on (tests/conftest.py: cache_folder).
pytestmark = pytest.mark.usefixtures("cache_folder")


CALLS: list[tuple] = []


@cache.cached
def slow_sum(frame: pl.DataFrame, column: str, scale: float = 1.0) -> float:
    CALLS.append((column, scale))
    return float(frame[column].sum()) * scale


FRAME = pl.DataFrame({"a": [1, 2, 3], "b": [0.5, 0.25, 0.125]})


@pytest.fixture(autouse=True)
def no_calls():
    CALLS.clear()


def test_the_same_call_is_computed_once(cache_folder):
    assert slow_sum(FRAME, "a") == 6.0
    assert slow_sum(FRAME.clone(), "a", scale=1.0) == 6.0  # equal frame, default spelled out
    assert CALLS == [("a", 1.0)]
    assert len(list(cache_folder.rglob("*.pickle"))) == 1


def test_other_arguments_are_a_miss():
    slow_sum(FRAME, "a")
    slow_sum(FRAME, "b")
    slow_sum(FRAME, "a", scale=2.0)
    slow_sum(FRAME.with_columns(pl.col("a") + 1), "a")  # same shape, other values
    assert len(CALLS) == 4


def test_a_corrupt_cache_file_is_ignored_and_rewritten(cache_folder):
    slow_sum(FRAME, "a")
    (path,) = cache_folder.rglob("*.pickle")
    path.write_bytes(b"\x80\x05not a pickle")
    assert slow_sum(FRAME, "a") == 6.0
    assert len(CALLS) == 2, "recomputed"
    assert slow_sum(FRAME, "a") == 6.0 and len(CALLS) == 2, "and the rewritten file is read"
    path.write_bytes(b"")  # truncated to nothing
    assert slow_sum(FRAME, "a") == 6.0 and len(CALLS) == 3


def test_the_cache_can_be_turned_off(monkeypatch, cache_folder):
    monkeypatch.setenv(cache.DISABLE_ENV, "1")
    slow_sum(FRAME, "a")
    slow_sum(FRAME, "a")
    assert len(CALLS) == 2 and not cache_folder.exists()


def test_an_argument_it_cannot_key_is_computed_uncached():
    @cache.cached
    def first(items) -> object:
        CALLS.append(items)
        return items[0]

    thing = object()
    with pytest.warns(UserWarning, match="not cached: .*first: an argument of type object"):
        assert first([thing]) is thing


def test_another_data_version_is_a_miss(monkeypatch, tmp_path):
    """Two releases whose descriptors differ: a result of one is not found for the other."""
    data = tmp_path / "data"
    real = json.loads((ROOT / "data" / "versions.json").read_text())["releases"][-1]
    releases = []
    for version in (real["version"], "2099-01-31"):
        (data / version).mkdir(parents=True)
        descriptor = (ROOT / "data" / real["version"] / "datapackage.json").read_text()
        (data / version / "datapackage.json").write_text(
            descriptor.replace(real["version"], version)
        )
        releases.append({**real, "version": version, "released": version})
    (data / "versions.json").write_text(json.dumps({"releases": releases}))
    monkeypatch.setattr(paths, "DATA_DIR", data)
    for version in (real["version"], "2099-01-31", real["version"]):
        monkeypatch.setenv("BOOK_DATA_VERSION", version)
        slow_sum(FRAME, "a")
    assert len(CALLS) == 2, "computed once per data version"


MODULE = """\
from analysis import helper_for_cache_test as helper
from analysis.data.cache import cached


@cached
def work(x):
    with open({calls!r}, "a") as f:
        f.write("called\\n")
    return helper.FACTOR * x
"""


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def stand_in(monkeypatch, tmp_path):
    """A package standing in for `analysis` (cache.PACKAGE_DIR) with MODULE and its helper; yields
    (package folder, MODULE loaded, the file its calls are counted in)."""
    package = tmp_path / "analysis"
    (package / "data" / "tables").mkdir(parents=True)
    calls = tmp_path / "calls.txt"
    (package / "work_for_cache_test.py").write_text(MODULE.format(calls=str(calls)))
    (package / "helper_for_cache_test.py").write_text("FACTOR = 2\n")
    monkeypatch.setattr(cache, "PACKAGE_DIR", package)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(
        sys.modules["analysis"], "__path__", [str(package), *sys.modules["analysis"].__path__]
    )
    yield (
        package,
        load_module(package / "work_for_cache_test.py", "analysis.work_for_cache_test"),
        calls,
    )
    for name in ("analysis.work_for_cache_test", "analysis.helper_for_cache_test"):
        sys.modules.pop(name, None)


def edit(path: Path, text: str) -> None:
    """Rewrite a file with a later modification time (the cache keeps file hashes by it)."""
    path.write_text(text)
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 10**9))


def assert_an_edit_is_a_miss(module, calls: Path, path: Path, before: str, after: str, why: str):
    """`module.work` computes once with `path` holding `before` (the second call is a hit) and
    again once `path` is edited to hold `after`."""
    path.write_text(before)
    assert module.work(3) == module.work(3) == 6
    assert calls.read_text().count("called") == 1
    edit(path, after)
    assert module.work(3) == 6
    assert calls.read_text().count("called") == 2, why


def test_a_change_in_the_code_it_depends_on_is_a_miss(stand_in):
    """The key holds the source of the function's module and of the `analysis` modules it
    imports: editing the imported helper makes the next call compute again."""
    package, module, calls = stand_in
    helper = package / "helper_for_cache_test.py"
    edited = "FACTOR = 2  # an edit of the source alone\n"
    assert_an_edit_is_a_miss(module, calls, helper, "FACTOR = 2\n", edited, "the helper changed")


def test_an_edited_curated_table_is_a_miss(stand_in):
    """The package's curated tables (analysis/data/tables, e.g. the display names) are read by the
    code like its source: a result computed before one is edited is computed again."""
    package, module, calls = stand_in
    names = package / "data" / "tables" / "model_names.csv"
    before, after = "model_id,name\nkimi-k3,Kimi K3\n", "model_id,name\nkimi-k3,Kimi K3 (edited)\n"
    assert_an_edit_is_a_miss(module, calls, names, before, after, "the curated table changed")


def test_an_edited_package_init_is_a_miss(stand_in):
    """Importing a module runs its packages' __init__.py (analysis/__init__.py pins the BLAS
    threads, which move a fit's last bits): a result computed before it is edited is computed
    again."""
    package, module, calls = stand_in
    after = "import os\nos.environ.setdefault('OPENBLAS_NUM_THREADS', '1')\n"
    init = package / "__init__.py"
    assert_an_edit_is_a_miss(module, calls, init, "import os\n", after, "the __init__.py changed")


def test_another_number_of_blas_threads_is_a_miss(stand_in, monkeypatch):
    """A reader who sets OPENBLAS_NUM_THREADS gets fits whose last bits may differ: a result
    computed with another setting is not theirs."""
    _, module, calls = stand_in
    assert module.work(3) == module.work(3) == 6
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    assert module.work(3) == module.work(3) == 6
    assert calls.read_text().count("called") == 2


def test_a_kept_page_run_depends_on_the_curated_tables():
    """A kept page run (analysis.book.deps) is rerun when a curated table changes: its state's
    `code` names the tables beside the modules."""
    from analysis.book import deps

    state = deps.chapter_state(ROOT / "index.qmd", ROOT)
    assert {"data/tables/model_names.csv", "data/tables/provider_names.csv"} <= set(state.code)
    assert "__init__.py" in state.code  # the package's own, run by every import of it


def test_a_fresh_process_finds_the_result(cache_folder, tmp_path):
    """As Quarto's second format does: a new kernel, the same call, no computation."""
    module = tmp_path / "cached_job.py"
    calls = tmp_path / "calls.txt"
    module.write_text(
        textwrap.dedent(
            f"""\
            import polars as pl
            from analysis.data.cache import cached

            @cached
            def job(frame):
                with open({str(calls)!r}, "a") as f:
                    f.write("called\\n")
                return frame.select(pl.col("a").sum()).item()

            print(job(pl.DataFrame({{"a": [1, 2, 3]}})))
            """
        )
    )
    env = {**os.environ, cache.CACHE_DIR_ENV: str(cache_folder), "PYTHONPATH": str(ROOT)}
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, str(module)], capture_output=True, text=True, env=env, timeout=120
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "6"
    assert calls.read_text().count("called") == 1
    shutil.rmtree(cache_folder)


def test_a_stored_result_carries_its_own_reads_and_the_memoised_ones_it_used(cache_folder):
    """A result stored on disk replays the reads its call made, including a read memoised
    before the call (reads.memo records it again on a hit), but not the reads the process made
    for something else first (another chapter's tables)."""
    from analysis.data import reads

    @reads.memo
    def memoised_table() -> str:
        reads.record("table:memoised", sha256="m")
        return "m"

    @cache.cached
    def uses_the_memo(x: int) -> str:
        return memoised_table() * x

    reads.clear()
    reads.record("table:other-page", sha256="o")  # read before, for something else
    memoised_table()  # memoised before the cached call
    reads.clear()  # a fresh record: what the call itself depends on
    reads.record("table:other-page", sha256="o")
    assert uses_the_memo(2) == "mm"
    stored = next(cache_folder.rglob("*.pickle"))
    reads.clear()
    assert uses_the_memo(2) == "mm"  # served from disk
    assert set(reads.snapshot()) == {"table:memoised"}, stored
    reads.clear()


def test_the_line_scan_of_imports_finds_every_import_the_parser_finds():
    """The package's files are scanned by their lines (cheaper than parsing): in every module of
    the package it finds every `analysis` module the parser finds, and in the forms it cannot
    read by lines (after `;` or `:`, a backslash) the file is parsed instead."""
    for file in sorted(cache.PACKAGE_DIR.rglob("*.py")):
        parsed = set(cache._imports_in(file.read_text(encoding="utf-8")))
        scanned = set(cache._imports(file, file.stat().st_mtime_ns))
        assert parsed <= scanned, f"{file}: the line scan misses {parsed - scanned}"
    grouped = (
        "def f():\n"
        "    from analysis.methods import (  # the methods (one per line)\n"
        "        hedonic,  # a comment with ) in it\n"
        "        outlook as o,\n"
        "    )\n"
        "import os, analysis.report.results as r\n"
    )
    names = cache._import_lines(grouped)
    assert {"analysis.methods.hedonic", "analysis.methods.outlook"} <= set(names)
    assert "analysis.report.results" in names
    for unusual in (
        "x = 1; import analysis.report.results\n",
        "if True: from analysis.report import results\n",
        "from analysis.report import \\\n    results\n",
    ):
        assert cache._UNUSUAL_IMPORT.search(unusual), unusual
