"""No command ends in a traceback (issue 21, item 5).

A closed stdout (`... | head`) ends quietly with exit 0; a reader's mistake is one located line
on stderr and exit 1; an unexpected internal error is one line naming the file that holds the
traceback, exit 2. Closed pipes need a real child process writing into a real pipe whose reader
is gone; the mistakes run `main` in-process. Every test checks that `data/` is as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.__main__ import main
from analysis.data import paths

DATA = paths.DATA_DIR
LATEST = json.loads((DATA / "versions.json").read_text())["releases"][-1]["version"]
ROW = (
    "Claude Sonnet 5,anthropic,2026-09-23,2,10,0.20,pricing table,aimeter: Pricing,"
    "https://github.com/wangyufeng0615/aimeter/blob/005ad25/docs/pricing.md,2026-12-01,tester"
)
HEADER = (
    "model,provider,date,input_usd_per_mtok,output_usd_per_mtok,cached_input_usd_per_mtok,"
    "source_locator,source_title,source_url,accessed,entered_by"
)


def listing(root: Path) -> dict[str, str]:
    """Every file under `root` (hidden ones too: a staged version left behind) and its sha256."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    } | {str(p.relative_to(root)) + "/": "" for p in root.rglob("*") if p.is_dir()}


@pytest.fixture(scope="module")
def data_before():
    return listing(DATA)


@pytest.fixture
def unchanged(data_before):
    yield
    assert listing(DATA) == data_before, "data/ changed"


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


# ---------------------------------------------------------------------------------------------
# a closed stdout


CLOSED_PIPE = [
    ["-h"],
    ["data", "-h"],
    ["data", "export", "token_prices"],
    ["data", "export", "models", "--version", "2026-11-30"],
    ["data", "info"],
    ["data", "info", "--json"],
    ["data", "diff", "2026-11-30", "2026-12-01"],
    ["data", "validate", "--data-dir", "/nonexistent-data-folder"],
    ["data", "add", "--template", "token_prices"],
    ["chapters", "lint"],
]
# Commands whose cost is computing what they print (every estimate of every release, the claims
# ledger, every reproducer) run against a data root holding only the first and smallest release:
# the closed pipe is met at their first write to stdout, whatever was computed before it.
# `reproduce epoch`, `ai-index`, `hardware` and `gundlach` are not run one by one: `reproduce
# all` runs each of them (report.published.published_vs_reproduced) and writes through the same
# `_print_csv`; `reproduce a16z` stays, as it writes through its own report text. Plain
# `estimates` is not run either: `estimates --vintages` computes `estimates.headline` of each
# release and writes through the same `_print_csv` in the same `_estimates`; `--json` prints.
SMALL = "2026-11-30"
CLOSED_PIPE_SMALL_ROOT = [
    ["estimates", "--json"],
    ["estimates", "--vintages"],
    ["reproduce", "a16z"],
    ["reproduce", "all"],
    ["claims"],
]


@pytest.fixture(scope="module")
def small_root(tmp_path_factory) -> Path:
    """A data root (for BOOK_DATA_DIR) holding a copy of the first release only."""
    return one_release_root(tmp_path_factory.mktemp("data"), SMALL)


def one_release_root(root: Path, version: str, copy: bool = True) -> Path:
    """A data root whose index lists `version` alone, with a copy of that release (or, with
    `copy=False`, an empty folder for it)."""
    if copy:
        shutil.copytree(DATA / version, root / version)
    else:
        (root / version).mkdir(parents=True)
    index = json.loads((DATA / "versions.json").read_text())
    index["releases"] = [r for r in index["releases"] if r["version"] == version]
    (root / "versions.json").write_text(json.dumps(index))
    return root


def _child(argv: list[str], stdout, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "analysis", *argv],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        cwd=paths.ROOT,
        env=env,
        timeout=300,
    )


def assert_quiet(p: subprocess.CompletedProcess) -> None:
    assert p.returncode == 0, p.stderr
    for bad in ("Traceback", "Exception ignored", "BrokenPipe", "Broken pipe", "internal error"):
        assert bad not in p.stderr


def closed_pipe_run(argv: list[str], env=None) -> subprocess.CompletedProcess:
    """`argv` in a child whose stdout is a pipe with its reader gone: its first write fails."""
    read, write = os.pipe()
    os.close(read)
    try:
        return _child(argv, write, env)
    finally:
        os.close(write)


@pytest.mark.parametrize("argv", CLOSED_PIPE, ids=" ".join)
def test_closed_pipe_ends_quietly(argv, unchanged):
    assert_quiet(closed_pipe_run(argv))


@pytest.mark.parametrize("argv", CLOSED_PIPE_SMALL_ROOT, ids=" ".join)
def test_closed_pipe_ends_quietly_after_computing(argv, small_root, unchanged):
    """The same, for the commands that compute a while before writing (on the small root)."""
    if argv == ["reproduce", "all"] and not paths.SHARED_SOURCES.is_dir():
        pytest.skip("needs the raw sources beside the clone")
    p = closed_pipe_run(argv, {**os.environ, "BOOK_DATA_DIR": str(small_root)})
    assert_quiet(p)


def test_head_one_line(unchanged):
    """`data export token_prices | head -1`: the reader takes one line, then closes."""
    child = subprocess.Popen(
        [sys.executable, "-m", "analysis", "data", "export", "token_prices"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=paths.ROOT,
    )
    first = child.stdout.readline()
    child.stdout.close()
    err = child.stderr.read().decode()
    child.wait(timeout=300)
    header = (DATA / LATEST / "token_prices.csv").open("rb").readline()
    assert first == header
    assert_quiet(subprocess.CompletedProcess(child.args, child.returncode, None, err))


def test_data_add_closed_pipe_writes_the_version(tmp_path):
    """`data add FILE | head`: the version is cut (in a root holding a copy of the latest
    release, all `data add` reads) and the exit is 0."""
    root = one_release_root(tmp_path / "data", LATEST)
    csv = tmp_path / "new.csv"
    csv.write_text(f"{HEADER}\n{ROW}\n", encoding="utf-8")
    p = closed_pipe_run(["data", "add", str(csv), "--data-dir", str(root)])
    assert_quiet(p)
    released = [r["version"] for r in json.loads((root / "versions.json").read_text())["releases"]]
    assert len(released) == 2 and released[0] == LATEST


# ---------------------------------------------------------------------------------------------
# a reader's mistakes: one located line, exit 1


def test_missing_file(capsys, unchanged):
    code, _, err = run(["data", "add", "nosuch.csv"], capsys)
    assert code == 1
    assert one_line(err) == "nosuch.csv: no such file"


def test_folder_for_file(tmp_path, capsys, unchanged):
    code, _, err = run(["data", "add", str(tmp_path)], capsys)
    assert code == 1
    assert one_line(err) == f"{tmp_path}: is a folder, not a CSV file"


def test_unknown_table_names_the_closest(capsys, unchanged):
    code, _, err = run(["data", "export", "tokn_prices"], capsys)
    assert code == 1
    line = one_line(err)
    assert line.startswith(
        "data export, column 'TABLE': value 'tokn_prices': unknown table; closest: token_prices; "
        "tables are sources, models, token_prices,"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["data", "export", "token_prices", "--version", "1999-01-01"],
        ["estimates", "--version", "1999-01-01"],
        ["data", "info", "--version", "1999-01-01"],
        ["data", "diff", "2026-11-30", "1999-01-01"],
        ["reproduce", "epoch", "--version", "1999-01-01"],
    ],
    ids=" ".join,
)
def test_unknown_version(argv, capsys, unchanged):
    code, _, err = run(argv, capsys)
    assert code == 1
    assert re.fullmatch(
        r".*versions\.json, column 'version': value '1999-01-01': unknown data version; "
        r"released versions are 2026-11-30, .*" + re.escape(LATEST),
        one_line(err),
    )


def test_utf16_file(tmp_path, capsys, unchanged):
    f = tmp_path / "prices.csv"
    f.write_text(f"{HEADER}\n{ROW}\n", encoding="utf-16")
    code, _, err = run(["data", "add", str(f)], capsys)
    assert code == 1
    line = one_line(err)
    assert line.startswith(f"{f}: encoding: the file is UTF-16")
    assert "not UTF-8" in line and "save it as 'CSV UTF-8'" in line and "iconv" in line


def test_latin1_file_names_the_row(tmp_path, capsys, unchanged):
    f = tmp_path / "prices.csv"
    accented = ROW.replace("tester", "Jos\xe9")
    f.write_bytes(f"{HEADER}\n{ROW}\n{accented}\n".encode("latin-1"))
    code, _, err = run(["data", "add", str(f)], capsys)
    assert code == 1
    offset = f.read_bytes().index(b"\xe9")
    assert one_line(err).startswith(
        f"{f}, row 2: value '0xe9': byte {offset}: encoding: not valid UTF-8"
    )


def test_semicolons(tmp_path, capsys, unchanged):
    f = tmp_path / "prices.csv"
    f.write_text(f"{HEADER}\n{ROW}\n".replace(",", ";"), encoding="utf-8")
    code, _, err = run(["data", "add", str(f)], capsys)
    assert code == 1
    assert one_line(err) == (
        f"{f}: value 'model;provider;date;input_usd_per_mtok;output_usd_per_mtok;c': "
        "delimiter: the header is separated by semicolons, not commas: save the file with ',' "
        "as the separator (a spreadsheet's 'CSV UTF-8')"
    )


@pytest.mark.parametrize("extra", [["colour"], ["colour", "size"]], ids=",".join)
def test_extra_columns_are_named(extra, tmp_path, capsys, unchanged):
    f = tmp_path / "prices.csv"
    cells = ",".join("x" for _ in extra)
    f.write_text(f"{HEADER},{','.join(extra)}\n{ROW},{cells}\n", encoding="utf-8")
    code, _, err = run(["data", "add", str(f)], capsys)
    assert code == 1
    assert one_line(err) == (
        f"{f}: value '{','.join(extra)}': header has {len(extra)} column(s) no template knows: "
        f"{', '.join(extra)}; remove them, or compare with `data add --template TABLE`"
    )


def test_duplicate_key_prints_an_empty_value_as_empty(tmp_path, capsys, unchanged):
    """The same row twice: refused at the staged version's check, which is then removed."""
    f = tmp_path / "prices.csv"
    f.write_text(f"{HEADER}\n{ROW}\n{ROW}\n", encoding="utf-8")
    code, _, err = run(["data", "add", str(f)], capsys)
    assert code == 1
    line = one_line(err)
    assert line.startswith(f"{f}, row 2: value 'model_id=claude-sonnet-5, provider=anthropic, ")
    assert "context_tier=(empty)," in line and "None" not in line
    assert line.endswith(
        "primary-key: duplicate key (model_id, provider, date, price_kind, context_tier, "
        "currency, source_id, source_model_name); first at row 1"
    )


@pytest.mark.parametrize(
    "argv, message",
    [
        (["nosuch"], "python -m analysis: argument command: invalid choice: 'nosuch'"),
        (["data", "export"], "python -m analysis data export: the following arguments are "),
        (["data", "add", "--template", "x"], "python -m analysis data add: argument --template"),
        (
            ["data", "add", "p.csv", "--accept-outlier"],
            "python -m analysis data add: argument --accept-outlier: expected one argument",
        ),
        (
            ["data", "add", "p.csv", "--confirm-conflict=yes"],
            "python -m analysis data add: argument --confirm-conflict: ignored explicit argument",
        ),
    ],
    ids=lambda a: " ".join(a) if isinstance(a, list) else "",
)
def test_usage_mistake(argv, message, capsys, unchanged):
    code, _, err = run(argv, capsys)
    assert code == 1
    line = one_line(err)
    assert line.startswith(message) and line.endswith("-h)")


# ---------------------------------------------------------------------------------------------
# an internal error: one line, the traceback in a file outside the repository, exit 2


def test_internal_error_writes_the_traceback_elsewhere(tmp_path, capsys, unchanged):
    """A data root whose datapackage.json is a JSON list (not an object) is a case the loader
    does not foresee: it fails inside the code, not at a located check."""
    root = one_release_root(tmp_path / "broken", "2026-12-01", copy=False)
    (root / "2026-12-01" / "datapackage.json").write_text("[]")
    f = tmp_path / "prices.csv"
    f.write_text(f"{HEADER}\n{ROW}\n", encoding="utf-8")
    code, _, err = run(["data", "add", str(f), "--data-dir", str(root)], capsys)
    assert code == 2
    m = re.fullmatch(
        r"python -m analysis: internal error \((\w+): .*\); the full traceback is in (\S+)",
        one_line(err),
    )
    assert m, err
    trace = Path(m.group(2))
    assert trace.read_text().startswith("Traceback") and m.group(1) in trace.read_text()
    assert not trace.resolve().is_relative_to(paths.ROOT)
    trace.unlink()


def test_data_add_without_a_file(capsys, unchanged):
    code, _, err = run(["data", "add"], capsys)
    assert code == 1
    assert one_line(err) == "data add: give FILE.csv, or --template TABLE for an empty one"


def test_data_update_unknown_source(capsys, unchanged):
    code, _, err = run(["data", "update", "--only", "nosuch"], capsys)
    assert code == 1
    assert one_line(err).startswith("data update: unknown source 'nosuch'; sources: ")


def test_data_update_from_a_folder_that_does_not_exist(tmp_path, capsys, unchanged):
    """It ended as an internal error (FileNotFoundError writing the view inside the folder)."""
    code, _, err = run(["data", "update", "--from", str(tmp_path / "nosuch")], capsys)
    assert code == 1
    assert one_line(err).startswith(f"{tmp_path / 'nosuch'}: no such folder (--from takes a raw")
    assert not (tmp_path / "nosuch").exists()
