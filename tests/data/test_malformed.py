"""Malformed inputs, as hand edits and spreadsheet programs make them: each gets a located message.

Every case breaks one file of a small valid data folder in one way and checks the problem
`data validate` reports (file, row, column, value, rule), and that the loader refuses the same
file with the same problems (validate and load apply one definition). A second set are edits that
change no value (a byte-order mark, CRLF line ends, quoted numbers): both accept them, and the
loaded table is the same as the clean one.

    .venv/bin/python tests/data/test_malformed.py    # prints every case: input -> message
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

from analysis.data import build, rules
from analysis.data.errors import DataError
from analysis.data.release import read_table_csv, releases
from analysis.data.schema import TABLE_ORDER
from analysis.data.validate import FK_TARGETS, validate_folder


def load_fixture():
    """tests/data/valid_fixture.py, loaded by path (the tests are not a package)."""
    spec = importlib.util.spec_from_file_location(
        "valid_fixture", Path(__file__).with_name("valid_fixture.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fx = load_fixture()


@dataclass(frozen=True)
class Case:
    id: str
    what: str  # the input, as a person would describe it
    table: str  # the file that is broken (the one the problem names)
    edit: Callable[[Path], None]
    row: int | None
    column: str | None
    value: str | None  # the reported value must contain this (None: not checked)
    rule: str  # the reported rule must contain this
    released: bool = False  # the edit needs a released version (descriptor, checksums)


def cell(table: str, row: int, column: str, value: str) -> Callable[[Path], None]:
    return lambda folder: fx.replace_cell(folder, table, row, column, value)


def raw(table: str, row: int, column: str, text: str) -> Callable[[Path], None]:
    return lambda folder: fx.replace_raw(folder, table, row, column, text)


def text_edit(table: str, change: Callable[[str], str]) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / f"{table}.csv"
        path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")

    return edit


def bytes_edit(table: str, change: Callable[[bytes], bytes]) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / f"{table}.csv"
        path.write_bytes(change(path.read_bytes()))

    return edit


def lines_edit(table: str, change: Callable[[list[str]], list[str]]) -> Callable[[Path], None]:
    return text_edit(table, lambda t: "\n".join(change(t.rstrip("\n").split("\n"))) + "\n")


def columns_edit(table: str, change: Callable[[list[list[str]]], list[list[str]]]):
    """Edit the file as a grid of cells (no cell of the fixture holds a comma or a quote)."""

    def grid(text: str) -> str:
        cells = [line.split(",") for line in text.rstrip("\n").split("\n")]
        return "\n".join(",".join(r) for r in change(cells)) + "\n"

    return text_edit(table, grid)


TP, GPU, SC = "token_prices", "gpu_hour_prices", "benchmark_scores"
IN, OUT = "input_usd_per_mtok", "output_usd_per_mtok"
# The fixture's token_prices header, counted from the fixture's own text (the schema grows).
W = len(next(csv.reader(io.StringIO(fx.csv_text(TP, fx.rows(TP))))))

# fmt: off
VALUE_CASES = [
    Case("padded-number", "' 3.5 ' (spaces around a number)", TP, cell(TP, 1, IN, " 3.5 "), 1, IN, " 3.5 ", "type-error: must be a number (it has leading or trailing whitespace)"),
    Case("nbsp-number", "'3.5' + non-breaking space (pasted from a web page)", TP, cell(TP, 1, IN, "3.5\u00a0"), 1, IN, "3.5\u00a0", "must be a number (it has a non-breaking space)"),
    Case("underscore-number", "'1_000' (Python digit separator)", TP, cell(TP, 1, OUT, "1_000"), 1, OUT, "1_000", "'_' digit separators are not allowed"),
    Case("padded-integer", "' 8' (a space before an integer)", GPU, cell(GPU, 1, "gpus_per_instance", " 8"), 1, "gpus_per_instance", " 8", "type-error: must be an integer"),
    Case("integer-with-decimals", "'8.0' in an integer column (spreadsheet number format)", GPU, cell(GPU, 1, "gpus_per_instance", "8.0"), 1, "gpus_per_instance", "8.0", "a whole number, without decimals"),
    Case("inf-price", "'inf' as a price", TP, cell(TP, 1, IN, "inf"), 1, IN, "inf", "not a finite number"),
    Case("minus-inf-price", "'-inf' as a price", TP, cell(TP, 2, OUT, "-inf"), 2, OUT, "-inf", "not a finite number"),
    Case("nan-price", "'NaN' as a price (pandas' missing value written out)", TP, cell(TP, 1, OUT, "NaN"), 1, OUT, "NaN", "not a finite number"),
    Case("infinity-score", "'Infinity' as a score", SC, cell(SC, 1, "score", "Infinity"), 1, "score", "Infinity", "not a finite number"),
    Case("na-in-number", "'#N/A' in a number column (failed spreadsheet lookup)", TP, cell(TP, 1, IN, "#N/A"), 1, IN, "#N/A", "it is a spreadsheet error value"),
    Case("na-in-text", "'#N/A' in a text column", TP, cell(TP, 1, "source_model_name", "#N/A"), 1, "source_model_name", "#N/A", "spreadsheet-error"),
    Case("div0", "'#DIV/0!' in a number column", "cpi", cell("cpi", 1, "cpi_u", "#DIV/0!"), 1, "cpi_u", "#DIV/0!", "spreadsheet error value"),
    Case("decimal-comma", "'2,5' (European decimal comma, quoted)", TP, cell(TP, 1, IN, "2,5"), 1, IN, "2,5", "decimal comma: write 2.5"),
    Case("thousands-separator", "'24,525' (thousands separator, quoted)", "mlperf_results", cell("mlperf_results", 1, "tokens_per_s", "24,525"), 1, "tokens_per_s", "24,525", "24525 with a thousands separator or 24.525 with a decimal comma?"),
    Case("currency-symbol", "'$2.49' (currency symbol)", GPU, cell(GPU, 1, "usd_per_gpu_hour", "$2.49"), 1, "usd_per_gpu_hour", "$2.49", "no currency or percent signs"),
    Case("percent-sign", "'88.7%' (percent sign)", SC, cell(SC, 1, "score", "88.7%"), 1, "score", "88.7%", "no currency or percent signs"),
    Case("unicode-minus", "'−2.85' (Unicode minus from a word processor)", "claims", cell("claims", 1, "value", "\u22122.85"), 1, "value", "\u22122.85", "a Unicode minus sign"),
    Case("excel-text-prefix", "\"'2.5\" (Excel's text apostrophe)", TP, cell(TP, 1, IN, "'2.5"), 1, IN, "'2.5", "a leading apostrophe"),
    Case("half-exponent", "'1.5e' (exponent cut off)", TP, cell(TP, 1, IN, "1.5e"), 1, IN, "1.5e", "type-error: must be a number"),
    Case("negative-price", "'-2.5' as a price", TP, cell(TP, 1, IN, "-2.5"), 1, IN, "-2.5", "minimum: must be >= 0"),
    Case("excel-date-serial", "'45292' (Excel date serial)", TP, cell(TP, 1, "date", "45292"), 1, "date", "45292", "an Excel date serial, meaning 2024-01-01"),
    Case("slash-date", "'15/01/2025' (day/month/year)", TP, cell(TP, 2, "date", "15/01/2025"), 2, "date", "15/01/2025", "day/month order is ambiguous"),
    Case("date-time", "'2024-08-06T00:00:00' (a date-time)", TP, cell(TP, 1, "date", "2024-08-06T00:00:00"), 1, "date", "2024-08-06T00:00:00", "a date-time: write the date only"),
    Case("impossible-date", "'2025-02-30' (no such day)", TP, cell(TP, 1, "date", "2025-02-30"), 1, "date", "2025-02-30", "no such date"),
    Case("month-13", "'2025-13-01' (month 13)", "fx_rates", cell("fx_rates", 1, "month", "2025-13-01"), 1, "month", "2025-13-01", "must be an ISO date"),
    Case("two-digit-year", "'24-08-06' (two-digit year)", TP, cell(TP, 1, "date", "24-08-06"), 1, "date", "24-08-06", "must be an ISO date"),
    Case("unpadded-date", "'2024-8-6' (no leading zeros)", TP, cell(TP, 1, "date", "2024-8-6"), 1, "date", "2024-8-6", "must be an ISO date"),
    Case("date-before-2000", "'1999-12-31' (before the data can start)", TP, cell(TP, 1, "date", "1999-12-31"), 1, "date", "1999-12-31", "minimum: must be >= 2000-01-01"),
    Case("far-future-date", "'2062-01-01' (years in the future)", GPU, cell(GPU, 1, "date", "2062-01-01"), 1, "date", "2062-01-01", "future: more than a year after today"),
    Case("uppercase-boolean", "'TRUE' (spreadsheet boolean)", TP, cell(TP, 1, "first_party", "TRUE"), 1, "first_party", "TRUE", "must be true or false (lowercase only"),
    Case("yes-boolean", "'yes' as a boolean", "models", cell("models", 2, "open_weights", "yes"), 2, "open_weights", "yes", "must be true or false"),
    Case("lowercase-code", "'usd' (currency code in lowercase)", TP, cell(TP, 2, "currency", "usd"), 2, "currency", "usd", "enum: must be one of USD"),
    Case("padded-code", "'USD ' (trailing space on a code)", TP, cell(TP, 2, "currency", "USD "), 2, "currency", "USD ", "must not start or end with whitespace"),
    Case("unknown-code", "'flash-sale' as a price kind", TP, cell(TP, 1, "price_kind", "flash-sale"), 1, "price_kind", "flash-sale", "enum: must be one of list"),
    Case("percent-over-100", "a percentage score of 101", SC, cell(SC, 1, "score", "101"), 1, "score", "101", "percent: a score in percent must be within 0-100"),
    Case("percent-below-0", "a percentage score of -1", SC, cell(SC, 1, "score", "-1"), 1, "score", "-1", "within 0-100"),
    Case("zero-gpu-hour", "a GPU-hour at $0.00", GPU, cell(GPU, 1, "usd_per_gpu_hour", "0.00"), 1, "usd_per_gpu_hour", "0.00", "exclusiveMinimum: a GPU-hour price must be above $0.00"),
    Case("required-empty", "an empty required cell", TP, cell(TP, 2, "price_kind", ""), 2, "price_kind", None, "required: a value is required"),
    Case("id-not-slug", "'Open AI' as a provider id", TP, cell(TP, 1, "provider", "Open AI"), 1, "provider", "Open AI", "pattern: must match"),
    Case("unicode-hyphen-id", "'open\u2010ai' (Unicode hyphen from a word processor)", TP, cell(TP, 1, "provider", "open\u2010ai"), 1, "provider", "open\u2010ai", "pattern"),
    Case("unknown-model", "a model id that is not in models", TP, cell(TP, 2, "model_id", "llama-9-1t"), 2, "model_id", "llama-9-1t", "foreign-key: not a model_id in table 'models'"),
    Case("unknown-source", "a source id that is not in sources", GPU, cell(GPU, 1, "source_id", "my-notes"), 1, "source_id", "my-notes", "foreign-key: not a source_id in table 'sources'"),
    Case("duplicate-row", "a row pasted twice", "sources", lines_edit("sources", lambda ls: [*ls, ls[1]]), 3, None, "source_id=epoch-llm-price-trends", "primary-key: duplicate key (source_id); first at row 1"),
]

FILE_CASES = [
    Case("unquoted-decimal-comma", "'2,5' typed without quotes (splits the cell)", TP, raw(TP, 1, IN, "2,5"), 1, None, None, f"row has {W + 1} fields, more than the header's {W}"),
    Case("missing-comma", "a row with one comma deleted", TP, lines_edit(TP, lambda ls: [ls[0], ls[1].replace(",,", ",", 1), *ls[2:]]), 1, None, None, f"row has {W - 1} fields, fewer than the header's {W}"),
    Case("blank-line", "a blank line between rows", "cpi", lines_edit("cpi", lambda ls: [ls[0], ls[1], "", ls[2]]), 2, None, None, "row is empty (a blank line)"),
    Case("row-of-commas", "a spreadsheet's empty row (only commas)", "cpi", lines_edit("cpi", lambda ls: [ls[0], ls[1], ",,,", ls[2]]), 2, None, None, "row is empty (every cell blank"),
    Case("header-repeated", "the header repeated as a row (two files pasted together)", "cpi", lines_edit("cpi", lambda ls: [ls[0], ls[1], ls[0], ls[2]]), 2, None, None, "row repeats the header"),
    Case("truncated-csv", "the file cut off in the middle of its last row", TP, text_edit(TP, lambda t: t.rstrip("\n")[:-40]), 2, None, None, f"fewer than the header's {W} (a missing comma, or the file was cut short?)"),
    Case("unterminated-quote", "a quote opened and never closed", "claims", raw("claims", 1, "claim", '"H100 at $2.85'), 1, None, None, "unterminated or stray quote"),
    Case("latin1-byte", "'é' saved as Latin-1 (byte 0xe9)", TP, bytes_edit(TP, lambda b: b.replace(b"GPT-4o,epoch", b"GPT-4\xe9,epoch")), 1, "source_model_name", "\\xe9", "encoding: byte offset"),
    Case("cp1252-quote", "a Windows-1252 curly apostrophe (byte 0x92)", "claims", bytes_edit("claims", lambda b: b.replace(b"H100 at", b"H100\x92s at")), 1, "claim", "\\x92", "not valid UTF-8"),
    Case("utf16-file", "the file saved as UTF-16 ('Unicode text')", "cpi", bytes_edit("cpi", lambda b: b.decode().encode("utf-16")), None, None, "\\xff\\xfe", "the file is UTF-16"),
    Case("semicolon-file", "semicolon-separated (European spreadsheet)", "cpi", text_edit("cpi", lambda t: t.replace(",", ";")), None, None, "month;cpi_u", "separated by semicolons"),
    Case("tab-file", "tab-separated", "cpi", text_edit("cpi", lambda t: t.replace(",", "\t")), None, None, "month\tcpi_u", "separated by tabs"),
    Case("trailing-empty-columns", "a spreadsheet's trailing empty columns (',,,' on every line)", "cpi", lines_edit("cpi", lambda ls: [x + ",," for x in ls]), None, None, None, "2 empty column name(s) at the end of the header"),
    Case("duplicated-column", "a column name twice in the header", "cpi", columns_edit("cpi", lambda g: [[*r, r[1]] for r in g]), None, "cpi_u", "cpi_u", "duplicate-label: column appears twice (positions 2 and 5)"),
    Case("renamed-column-case", "'Model_ID' for model_id", SC, text_edit(SC, lambda t: t.replace("model_id", "Model_ID", 1)), None, "Model_ID", "Model_ID", "must be written exactly 'model_id'"),
    Case("unit-in-name", "a price column renamed to another unit", GPU, text_edit(GPU, lambda t: t.replace("usd_per_gpu_hour", "eur_per_gpu_hour")), None, "eur_per_gpu_hour", "eur_per_gpu_hour", "unit 'eur' is not one the schema uses"),
    Case("missing-column", "a column deleted", "fx_rates", columns_edit("fx_rates", lambda g: [r[:2] + r[3:] for r in g]), None, "per_usd", None, "missing-label: required column is missing"),
    Case("reordered-columns", "two columns swapped", "fx_rates", columns_edit("fx_rates", lambda g: [[r[1], r[0], *r[2:]] for r in g]), None, None, "month,currency", "columns must be in schema order"),
    Case("empty-file", "an empty file (0 bytes)", "claims", text_edit("claims", lambda t: ""), None, None, None, "file is empty (no header row)"),
    Case("header-only-prices", "a price table with its header only", TP, lines_edit(TP, lambda ls: ls[:1]), None, None, None, "table has no rows (header only)"),
    Case("blank-first-line", "a blank line before the header", "cpi", text_edit("cpi", lambda t: "\n" + t), None, None, None, "the first line is blank"),
    Case("cr-line-ends", "old Mac line ends (CR only)", "cpi", text_edit("cpi", lambda t: t.replace("\n", "\r")), None, None, None, "bare carriage return"),
    Case("missing-file", "a table's file deleted from a release", "cpi", lambda f: (f / "cpi.csv").unlink(), None, None, None, "file is missing", released=True),
]


def _json_cut(name: str, keep: float) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / name
        data = path.read_bytes()
        path.write_bytes(data[: int(len(data) * keep)])

    return edit


def _descriptor(change: Callable[[dict], None]) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / "datapackage.json"
        desc = json.loads(path.read_text())
        change(desc)
        path.write_text(json.dumps(desc, indent=2))

    return edit


def _set_field_type(desc: dict) -> None:
    desc["resources"][TABLE_ORDER.index("cpi")]["schema"]["fields"][1]["type"] = "string"


def _edit_released_value(folder: Path) -> None:
    # An edit by mistake: a checksum mismatch AND the bad value it brought in.
    fx.replace_cell(folder, "cpi", 2, "cpi_u", "319,082")


RELEASE_CASES = [
    Case("truncated-datapackage", "datapackage.json cut short", "datapackage", _json_cut("datapackage.json", 0.6), None, None, None, "json: file ends early (truncated?): ", released=True),
    Case("broken-datapackage", "datapackage.json with a trailing comma", "datapackage", lambda f: (f / "datapackage.json").write_text('{"name": "x", "resources": [],}'), None, None, None, "json: Expecting property name enclosed in double quotes at line 1, column 31", released=True),
    Case("descriptor-type", "a column's type changed in datapackage.json", "datapackage", _descriptor(_set_field_type), None, "cpi.cpi_u", "string", "descriptor: type must be 'number'", released=True),
    Case("descriptor-created", "'created' not an RFC 3339 date-time in a new release", "datapackage", _descriptor(lambda d: d.update(created="2026-01-15")), None, "created", "2026-01-15", "must be an RFC 3339 date-time", released=True),
    Case("checksum-and-value", "a released file edited (checksum) with a decimal comma", "cpi", _edit_released_value, 2, "cpi_u", "319,082", "or 319.082 with a decimal comma?", released=True),
    Case("checksum-only", "a released file edited to another valid value", "cpi", text_edit("cpi", lambda t: t.replace("317.671", "317.672")), None, None, None, "checksum differs from the recorded sha256", released=True),
]

ROOT_CASES = [
    Case("truncated-versions-json", "data/versions.json cut short", "versions", _json_cut("../versions.json", 0.5), None, None, None, "json: file ends early (truncated?)", released=True),
]

# fmt: on

REFUSED = VALUE_CASES + FILE_CASES + RELEASE_CASES + ROOT_CASES

ACCEPTED = [
    (
        "utf8-bom",
        "a UTF-8 byte-order mark (Excel's 'CSV UTF-8')",
        bytes_edit(TP, lambda b: b"\xef\xbb\xbf" + b),
    ),
    ("crlf", "Windows line ends (CRLF)", text_edit(TP, lambda t: t.replace("\n", "\r\n"))),
    (
        "quoted-numbers",
        'numbers in quotes ("2.5")',
        text_edit(TP, lambda t: t.replace(",2.5,", ',"2.5",')),
    ),
    ("no-final-newline", "no line end after the last row", text_edit(TP, lambda t: t.rstrip("\n"))),
    (
        "exponent",
        "a price written as 2.5e0",
        text_edit(TP, lambda t: t.replace(",2.5,", ",2.5e0,", 1)),
    ),
]


VERSION = "2026-12-15"  # after 2026-11-30, so every rule applies (see schema.Check)


def released(tmp_path: Path) -> Path:
    """A released version written by the real build code from the valid fixture."""
    folder = fx.write_valid(tmp_path / "fixture")
    tables = {t: read_table_csv(folder / f"{t}.csv", t) for t in TABLE_ORDER}
    build.write_version(tables, tmp_path / "data", VERSION, "fixture")
    return tmp_path / "data" / VERSION


def prepare(case: Case, tmp_path: Path) -> Path:
    folder = released(tmp_path) if case.released else fx.write_valid(tmp_path / "data")
    case.edit(folder)
    return folder.parent if case.id == "truncated-versions-json" else folder


def loader_problems(folder: Path, case: Case) -> list[str]:
    """What the loader says about the same file (with the foreign keys the validator uses)."""
    try:
        if case.table == "versions":
            releases(folder)
            return []
        table = "cpi" if case.table == "datapackage" else case.table
        refs = {}
        for t in FK_TARGETS:
            if t != table and (keys := rules.key_values(folder / f"{t}.csv", t)) is not None:
                refs[t] = keys
        read_table_csv(folder / f"{table}.csv", table, refs=refs)
    except DataError as err:
        return [str(p) for p in err.problems]
    return []


def matches(p, case: Case) -> bool:
    name = Path(p.file).name
    return (
        name.startswith(case.table)
        and p.row == case.row
        and p.column == case.column
        and (case.value is None or case.value in (p.value or ""))
        and case.rule in p.rule
    )


@pytest.mark.parametrize("case", REFUSED, ids=lambda c: c.id)
def test_malformed_input_gets_a_located_message(case: Case, tmp_path: Path):
    folder = prepare(case, tmp_path)
    problems = validate_folder(folder)
    assert any(matches(p, case) for p in problems), "\n".join(map(str, problems)) or "no problem"
    # Nothing else breaks: every problem is in the file that was edited (the checksum case also
    # names its file's checksum; a file that is gone also breaks nothing else).
    assert {Path(p.file).name.split(".")[0] for p in problems} <= {case.table, "data"}, problems
    # The loader refuses the same file with the same problems.
    loaded = loader_problems(folder, case)
    expected = [
        str(p)
        for p in problems
        if Path(p.file).name.startswith(case.table) and "checksum" not in p.rule
    ]
    assert set(expected) <= set(loaded), f"validate: {expected}\nload: {loaded}"


def test_a_bad_byte_hides_nothing_after_it(tmp_path: Path):
    """A non-UTF-8 byte gets its byte offset and row, and a bad value further on is still found."""
    folder = fx.write_valid(tmp_path / "data")
    fx.replace_cell(folder, TP, 2, OUT, "inf")
    path = folder / f"{TP}.csv"
    data = path.read_bytes().replace(b"GPT-4o,epoch", b"GPT-4\xe9,epoch")
    path.write_bytes(data)
    problems = validate_folder(folder)
    assert [(p.row, p.column) for p in problems] == [(1, "source_model_name"), (2, OUT)], problems
    offset = data.index(b"\xe9")
    assert f"byte offset {offset} (line 2)" in problems[0].rule


def test_checksum_mismatch_does_not_hide_the_bad_value(tmp_path: Path):
    folder = released(tmp_path)
    _edit_released_value(folder)
    rules_seen = [p.rule for p in validate_folder(folder)]
    assert any("checksum differs" in r for r in rules_seen), rules_seen
    assert any("319.082 with a decimal comma" in r for r in rules_seen), rules_seen


@pytest.mark.parametrize("name,what,edit", ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_edits_that_change_no_value_are_accepted_by_both(name, what, edit, tmp_path: Path):
    clean = fx.write_valid(tmp_path / "clean")
    folder = fx.write_valid(tmp_path / "data")
    edit(folder)
    assert validate_folder(folder) == []
    assert_frame_equal(
        read_table_csv(folder / f"{TP}.csv", TP), read_table_csv(clean / f"{TP}.csv", TP)
    )


def listing(tmp: Path) -> list[tuple[str, str, str]]:
    """(case, input, message) for every case: the table in the issue's report."""
    out = []
    for i, case in enumerate(REFUSED):
        folder = prepare(case, tmp / str(i))
        found = [p for p in validate_folder(folder) if matches(p, case)]
        out.append((case.id, case.what, str(found[0]) if found else "(no located problem!)"))
    for i, (name, what, edit) in enumerate(ACCEPTED):
        folder = fx.write_valid(tmp / f"a{i}")
        edit(folder)
        problems = validate_folder(folder)
        out.append(
            (
                name,
                what,
                "accepted by validate and load alike" if not problems else str(problems[0]),
            )
        )
    return out


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        rows = listing(Path(d))
        shutil.rmtree(d, ignore_errors=True)
    print("| # | case | input | message |\n|---|---|---|---|")
    for i, (cid, what, msg) in enumerate(rows, start=1):
        msg = msg.replace(d, "…").replace("|", "\\|")
        print(f"| {i} | {cid} | {what} | {msg} |")
