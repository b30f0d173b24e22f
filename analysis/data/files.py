"""Reading the bytes of data files strictly, with every problem located.

Two kinds of file: JSON (`datapackage.json`, `data/versions.json`), where a truncated or broken
file is reported with its line, column and character position; and a table's CSV, read as raw
text (every cell a string, an empty cell null) for `analysis.data.rules` to judge. For a CSV this
module owns everything that is about the file rather than a value: empty file, byte-order marks
and UTF-16 exports, the header (missing, extra, renamed, duplicated, blank or misordered
columns, another delimiter), bytes that are not UTF-8 (each with its byte offset and row; the
rest of the file is still read), rows with too few or too many fields and unterminated quotes.

The fast path is one polars scan. Only a file polars cannot read (bad bytes, ragged rows, a
broken quote) takes the slow path, which finds every such place and still hands the readable
rows on, so one bad byte does not hide the problems after it.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from analysis.data.errors import DataError, Problem

ROW = "__row"  # 1-based data row, the header not counted (what Problem.row means)
CHUNK = 1 << 24
UTF8_BOM = b"\xef\xbb\xbf"
# A spreadsheet's export in another encoding: what a bad byte most likely means.
ENCODING_HINT = (
    "not valid UTF-8 (the file was probably saved as Windows-1252 / Latin-1 by a spreadsheet): "
    "save it as 'CSV UTF-8'"
)


def read_json(path: Path) -> object:
    """Parse a JSON file; a missing, empty, truncated or broken file raises a located DataError."""
    path = Path(path)
    if not path.exists():
        raise DataError(Problem(str(path), None, None, None, "file is missing"))
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise DataError(
            Problem(
                str(path),
                None,
                None,
                repr(data[e.start : e.end]),
                f"json: byte offset {e.start} (line {line}) is {ENCODING_HINT}",
            )
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        # A cut inside a string is reported where the string starts, not at the end.
        truncated = e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated string")
        what = f"file ends early (truncated?): {e.msg}" if truncated else e.msg
        raise DataError(
            Problem(
                str(path),
                None,
                None,
                text[max(0, e.pos - 20) : e.pos + 20] or None,
                f"json: {what} at line {e.lineno}, column {e.colno} (character {e.pos} of "
                f"{len(text)})",
            )
        ) from None


@dataclass
class RawTable:
    """A table's CSV as raw text: `frame` (LazyFrame or DataFrame) has the row number `ROW` and
    one String column per header name, nulls for empty cells; `problems` are the file's own."""

    path: Path
    columns: list[str]
    frame: pl.LazyFrame | pl.DataFrame | None
    problems: list[Problem] = field(default_factory=list)
    # Rows whose cells must not be judged (wrong number of fields: the cells are shifted).
    skip_rows: set[int] = field(default_factory=set)
    # (row, column) cells already reported as bad bytes.
    bad_bytes: set[tuple[int, str]] = field(default_factory=set)
    # Read by the slow path (`recover`): lines may have more fields than the header.
    recovered: bool = False

    def lazy(self) -> pl.LazyFrame:
        assert self.frame is not None
        return self.frame.lazy()


def _problem(path: Path, rule: str, row=None, column=None, value=None) -> Problem:
    return Problem(str(path), row, column, value, rule)


def read_header(path: Path, expected: list[str]) -> tuple[list[str] | None, list[Problem]]:
    """The header's names, or the problems that make the file unreadable by column name."""
    path = Path(path)
    if not path.exists():
        return None, [_problem(path, "file is missing")]
    with path.open("rb") as fh:
        head = fh.read(1 << 16)
    if not head:
        return None, [_problem(path, "file is empty (no header row)")]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in head.split(b"\n", 1)[0]:
        return None, [
            _problem(
                path,
                "encoding: the file is UTF-16 (a spreadsheet's 'Unicode text' export); "
                "save it as 'CSV UTF-8'",
                value=repr(head[:8]),
            )
        ]
    # A UTF-8 byte-order mark (Excel's 'CSV UTF-8') changes no value: it is skipped, as polars does.
    line = head.removeprefix(UTF8_BOM).split(b"\n", 1)[0].removesuffix(b"\r")
    if not line.strip():
        return None, [_problem(path, "the first line is blank: the header must be the first line")]
    if b"\r" in line:
        return None, [
            _problem(path, "lines end with a bare carriage return (old Mac line endings): use LF")
        ]
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as e:
        return None, [
            _problem(
                path,
                f"encoding: header byte offset {e.start} is {ENCODING_HINT}",
                value=repr(line[e.start : e.end]),
            )
        ]
    header = next(csv.reader([text]))
    return header, header_problems(path, header, expected)


def header_problems(path: Path, header: list[str], expected: list[str]) -> list[Problem]:
    """Columns by name: delimiter, blank, duplicated, missing, unknown, misordered."""
    if header == expected:
        return []
    if len(header) == 1 and len(expected) > 1:
        for sep, name in ((";", "semicolons"), ("\t", "tabs"), ("|", "pipes")):
            if sep in header[0]:
                return [
                    _problem(
                        path,
                        f"delimiter: the header is separated by {name}, not commas (a "
                        "spreadsheet in a European locale?): save with ',' as the separator",
                        value=header[0][:80],
                    )
                ]
    problems = []
    blank = [i + 1 for i, c in enumerate(header) if not c.strip()]
    if blank:
        trailing = blank == list(range(len(header) - len(blank) + 1, len(header) + 1))
        problems.append(
            _problem(
                path,
                "blank-label: "
                + (
                    f"{len(blank)} empty column name(s) at the end of the header (a "
                    "spreadsheet's trailing empty columns): delete those columns"
                    if trailing
                    else f"empty column name at position(s) {', '.join(map(str, blank))}"
                ),
            )
        )
    named = [c for c in header if c.strip()]
    seen: dict[str, int] = {}
    for i, c in enumerate(header, start=1):
        if c.strip() and c in seen:
            problems.append(
                _problem(
                    path,
                    f"duplicate-label: column appears twice (positions {seen[c]} and {i})",
                    column=c,
                    value=c,
                )
            )
        seen.setdefault(c, i)
    near = {_norm(c): c for c in expected}
    for c in dict.fromkeys(named):
        if c in expected:
            continue
        if _norm(c) in near:
            problems.append(
                _problem(
                    path,
                    f"incorrect-label: column name must be written exactly {near[_norm(c)]!r}",
                    column=c,
                    value=c,
                )
            )
            continue
        unit = re.search(r"(?:^|_)([a-z]+)_per_", c)
        units = {m.group(1) for e in expected if (m := re.search(r"(?:^|_)([a-z]+)_per_", e))}
        hint = (
            f"; unit {unit.group(1)!r} is not one the schema uses"
            if unit and unit.group(1) not in units
            else ""
        )
        problems.append(_problem(path, f"extra-label: unknown column{hint}", column=c, value=c))
    normed = {_norm(c) for c in named}
    for c in expected:
        if c not in named and _norm(c) not in normed:
            problems.append(_problem(path, "missing-label: required column is missing", column=c))
    if not problems:
        problems.append(
            _problem(
                path,
                "incorrect-label: columns must be in schema order: " + ",".join(expected),
                value=",".join(header),
            )
        )
    return problems


def _norm(name: str) -> str:
    return re.sub(r"[\s_\-]+", "_", name.strip().lower())


def scan_csv(path: Path, expected: list[str]) -> RawTable:
    """The CSV as raw text, after the header check. Structure is checked by `check_structure`."""
    path = Path(path)
    header, problems = read_header(path, expected)
    if header is None or problems:
        return RawTable(path, expected, None, problems)
    lf = pl.scan_csv(
        path,
        schema={c: pl.String for c in expected},
        has_header=False,
        skip_rows=1,
        row_index_name=ROW,
        row_index_offset=1,
    )
    return RawTable(path, expected, lf)


def structure_error(err: Exception) -> bool:
    """Errors polars raises for a file it cannot split into rows and fields."""
    return isinstance(
        err, pl.exceptions.ComputeError | pl.exceptions.NoDataError | pl.exceptions.SchemaError
    )


def _odd_lines(
    path: Path, width: int, longer: bool = True
) -> tuple[int, list[tuple[int, int, str | None]]]:
    """(lines in the file, and every line that is not `width` comma-separated fields or holds a
    quote or is blank: (line number, 0 = the header; fields counted as commas + 1; its text
    where it holds a quote or is blank, for the csv module)). Counted with numpy a block at a
    time, so the file is never held (a polars scan of it as lines holds most of it).

    `longer=False`: no line has more than `width` fields (polars read the file as it is, and
    it refuses such a line). Then a block whose lines without quotes hold `width - 1` commas
    each on average holds exactly that many on each: only its commas are counted, and only its
    quoted lines are looked at one by one."""
    total, odd = 0, []
    for block, last in _line_blocks(path):
        buf = np.frombuffer(block, dtype=np.uint8)
        ends = np.flatnonzero(buf == 10)
        if last and (len(ends) == 0 or ends[-1] != len(buf) - 1):
            ends = np.append(ends, len(buf))  # a last line without a newline
        quotes = np.flatnonzero(buf == 34)
        if not longer and width > 1:
            lines = np.unique(np.searchsorted(ends, quotes))
            firsts = np.where(lines > 0, ends[lines - 1] + 1, 0)
            commas = [
                int(np.count_nonzero(buf[a:b] == 44))
                for a, b in zip(firsts, ends[lines], strict=True)
            ]
            plain = len(ends) - len(lines)
            if np.count_nonzero(buf == 44) - sum(commas) == (width - 1) * plain:
                for i, a, n in zip(lines, firsts, commas, strict=True):
                    text = bytes(block[a : ends[i]]).decode("utf-8", "replace")
                    odd.append((total + int(i), n + 1, text))
                total += len(ends)
                continue
        starts = np.concatenate([[0], ends[:-1] + 1])
        size = ends - starts
        cr = buf[np.clip(ends - 1, 0, len(buf) - 1)] == 13
        # commas of a line: those before its end less those before the line before's end
        commas = np.diff(np.searchsorted(np.flatnonzero(buf == 44), ends), prepend=0)
        quoted = np.zeros(len(ends), dtype=bool)
        quoted[np.searchsorted(ends, quotes)] = True
        text = quoted | (size == 0) | ((size == 1) & cr)
        for i in np.flatnonzero(text | (commas + 1 != width)):
            line = bytes(block[starts[i] : ends[i]]).decode("utf-8", "replace") if text[i] else None
            odd.append((total + int(i), int(commas[i]) + 1, line))
        total += len(ends)
    return total, odd


def short_rows(path: Path, rows, width: int, n_rows: int, longer: bool = True) -> dict[int, int]:
    """Field counts of the given rows (1-based; a list or a polars Series) where they differ
    from `width`.

    Only a row whose last cell is empty can be short, so only those rows are looked at (a
    release's last column, `flags`, is mostly empty: that can be most rows). When every row is
    one line (no quoted line breaks: the file has a line per row), a line without quotes has
    one field more than it has commas; the csv module splits the quoted and blank ones.
    Otherwise the csv module walks the file. `longer=False`: no line has more fields than
    `width` (the file was read as it is), which lets most lines be counted in bulk.
    """
    if len(rows) == 0:
        return {}
    wanted = pl.Series("n", rows, dtype=pl.UInt32).sort()
    total, odd = _odd_lines(path, width, longer)
    counts = {}
    if total == n_rows + 1:
        # of the odd lines, the rows asked for (`wanted` ascends: a binary search)
        n = pl.Series([o[0] for o in odd], dtype=pl.UInt32)
        at = wanted.search_sorted(n).clip(0, len(wanted) - 1)
        asked = (wanted.gather(at) == n).to_list()
        for (r, fields, text), ok in zip(odd, asked, strict=True):
            if ok:
                counts[r] = fields if text is None else len(next(csv.reader([text])))
    else:
        wanted_rows = set(wanted.to_list())
        with Path(path).open(newline="", encoding="utf-8", errors="replace") as fh:
            reader = csv.reader(fh)
            next(reader, None)
            for i, rec in enumerate(reader, start=1):
                if i in wanted_rows:
                    counts[i] = len(rec)
    return {r: n for r, n in counts.items() if n != width}


def bad_bytes(path: Path) -> list[tuple[int, int, bytes]]:
    """Every byte sequence that is not UTF-8: (byte offset, line, bytes), in file order."""
    found: list[tuple[int, int, bytes]] = []
    offset, line = 0, 1
    for block, _ in _line_blocks(path):
        piece = bytes(block)
        start = 0
        while True:
            try:
                piece[start:].decode("utf-8")
                break
            except UnicodeDecodeError as e:
                at = start + e.start
                found.append(
                    (offset + at, line + piece.count(b"\n", 0, at), piece[at : start + e.end])
                )
                start += e.end
        offset += len(piece)
        line += piece.count(b"\n")
    return found


def _line_blocks(path: Path) -> Iterator[tuple[memoryview, bool]]:
    """The file in blocks of about CHUNK bytes, each cut after its last newline (so no line, and
    no UTF-8 sequence, spans two blocks: 0x0A is never inside one), and whether the block is the
    file's last. A block is a view of the bytes read: no copy."""
    carry = b""
    with Path(path).open("rb") as fh:
        while True:
            chunk = fh.read(CHUNK)
            data = carry + chunk
            if not data:
                return
            cut = data.rfind(b"\n") + 1 if chunk else len(data)
            block, carry = memoryview(data)[:cut], data[cut:]
            if block:
                yield block, not chunk
            if not chunk:
                return


def slow_rows(path: Path, columns: list[str]) -> tuple[pl.DataFrame, list[Problem], set[int]]:
    """Walk the file with the csv module: rows of the right width as raw text, plus a problem
    for every row of another width and for a quote that never closes."""
    problems: list[Problem] = []
    width = len(columns)
    good: list[list[str]] = []
    rows: list[int] = []
    skip: set[int] = set()
    with Path(path).open("rb") as fh:
        text = io.TextIOWrapper(fh, encoding="utf-8", errors="replace", newline="")
        reader = csv.reader(text, strict=True)
        next(reader, None)
        i = 0
        while True:
            try:
                rec = next(reader)
            except StopIteration:
                break
            except csv.Error as e:
                i += 1
                problems.append(
                    _problem(
                        path,
                        f"csv: {e} (near line {reader.line_num}): an unterminated or stray quote "
                        "'\"'; rows after it cannot be read",
                        row=i,
                    )
                )
                skip.add(i)
                break
            i += 1
            if len(rec) != width:
                problems.append(width_problem(path, i, len(rec), width, rec))
                skip.add(i)
                continue
            good.append(rec)
            rows.append(i)
    frame = pl.DataFrame(
        {ROW: pl.Series(rows, dtype=pl.UInt32)}
        | {c: pl.Series([r[j] for r in good], dtype=pl.String) for j, c in enumerate(columns)}
    ).with_columns(pl.when(pl.col(c) != "").then(pl.col(c)).alias(c) for c in columns)
    return frame, problems, skip


def width_problem(
    path: Path, row: int, n: int, width: int, rec: list[str] | None = None
) -> Problem:
    if n == 0 or (n == 1 and rec is not None and not rec[0]):
        return _problem(path, "row is empty (a blank line)", row=row)
    more = "more" if n > width else "fewer"
    hint = (
        " (an unquoted comma inside a value, e.g. a decimal comma '2,5'?)"
        if n > width
        else " (a missing comma, or the file was cut short?)"
    )
    value = ",".join(rec)[:120] if rec is not None else None
    return _problem(
        path, f"row has {n} fields, {more} than the header's {width}{hint}", row=row, value=value
    )


def encoding_problems(
    path: Path, frame: pl.DataFrame, columns: list[str]
) -> tuple[list[Problem], set[tuple[int, str]]]:
    """A problem per bad byte sequence, with its byte offset, row and (where one cell holds it)
    column, from a lossy read of the file (`frame`, where bad bytes read as U+FFFD)."""
    found = bad_bytes(path)
    marked = (
        frame.lazy()
        .select(
            ROW, *[pl.col(c).str.count_matches("\ufffd", literal=True).alias(c) for c in columns]
        )
        .unpivot(index=ROW, variable_name="column", value_name="n")
        .filter(pl.col("n") > 0)
        .sort(ROW)
        .collect()
    )
    # Order the marked cells as they appear in the file (row, then column order).
    order = {c: i for i, c in enumerate(columns)}
    cells = sorted(
        ((r, c) for r, c, n in marked.iter_rows() for _ in range(n)),
        key=lambda x: (x[0], order[x[1]]),
    )
    paired = len(cells) == len(found)
    problems, bad = [], set()
    for k, (off, line, raw) in enumerate(found):
        row, col = cells[k] if paired else (line - 1, None)
        if col is not None:
            bad.add((row, col))
        problems.append(
            _problem(
                path,
                f"encoding: byte offset {off} (line {line}) is {ENCODING_HINT}",
                row=row,
                column=col,
                value=repr(raw),
            )
        )
    return problems, bad


def read_lossy(path: Path, columns: list[str]) -> pl.DataFrame:
    return pl.read_csv(
        path,
        schema={c: pl.String for c in columns},
        has_header=False,
        skip_rows=1,
        row_index_name=ROW,
        row_index_offset=1,
        encoding="utf8-lossy",
    )


def recover(path: Path, columns: list[str]) -> RawTable:
    """The slow path, for a file polars cannot read as it is: bad bytes are read as U+FFFD and
    each reported; rows of the wrong width (or after a broken quote) are reported and set aside.
    Every readable row is still returned, to be checked like any other."""
    problems: list[Problem] = []
    skip: set[int] = set()
    try:
        frame = read_lossy(path, columns)
    except Exception as err:
        if not structure_error(err):
            raise
        frame, problems, skip = slow_rows(path, columns)
    enc, cells = encoding_problems(path, frame, columns)
    return RawTable(Path(path), columns, frame, enc + problems, skip, cells, recovered=True)


# --- raw public files, before a build reads them ---------------------------------------------

RAW_CHECKED = (".csv", ".tsv", ".json", ".jsonl")


def check_raw_file(path: Path) -> list[Problem]:
    """An empty or cut-short raw file, located, before an importer trips over it.

    Only what is certainly damage is reported: an empty file, JSON that does not parse, and a CSV
    whose last line ends without a newline inside a quote or with fewer fields than the header.
    (A raw file may be ragged or in another encoding by its publisher's choice; importers judge.)
    """
    path = Path(path)
    if path.stat().st_size == 0:
        return [_problem(path, "raw file is empty (0 bytes): re-download it")]
    if path.suffix == ".json":
        try:
            read_json(path)
        except DataError as err:
            return err.problems
        return []
    if path.suffix == ".jsonl":
        problems = []
        with path.open("rb") as fh:
            for i, line in enumerate(fh, start=1):
                if line.strip():
                    try:
                        json.loads(line)
                    except ValueError as e:
                        problems.append(
                            _problem(path, f"json: line {i} does not parse: {e}", row=i)
                        )
        return problems[:20]
    data = path.read_bytes()
    if data.endswith(b"\n"):
        return []
    delimiter = "\t" if path.suffix == ".tsv" else ","
    text = data.decode("utf-8", errors="replace")
    try:
        recs = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    except csv.Error as e:
        return [
            _problem(path, f"raw file is cut short inside a quoted value ({e}): re-download it")
        ]
    if len(recs) >= 2 and 0 < len(recs[-1]) < len(recs[0]):
        return [
            _problem(
                path,
                f"raw file is cut short: the last row has {len(recs[-1])} fields, the header "
                f"{len(recs[0])}, and no line end: re-download it",
                row=len(recs) - 1,
                value=delimiter.join(recs[-1])[:120],
            )
        ]
    return []


def check_raw_sources(sources_dir: Path) -> list[Problem]:
    """`check_raw_file` on every file a source folder's `_PROVENANCE.tsv` lists."""
    problems = []
    for prov in sorted(Path(sources_dir).glob("*/_PROVENANCE.tsv")):
        with prov.open(newline="", encoding="utf-8") as fh:
            listed = [r.get("file", "") for r in csv.DictReader(fh, delimiter="\t")]
        for rel in listed:
            path = Path(sources_dir) / rel
            if path.suffix in RAW_CHECKED and path.is_file():
                problems.extend(check_raw_file(path))
    return problems
