"""One definition of a valid table, as polars expressions: used by `data validate` and the loader.

`check_csv` reads a table's CSV as raw text (`analysis.data.files`), parses every column into its
schema type and evaluates every rule as a vectorised expression over whole columns: types,
required values, minimum and maximum (numbers and dates), enums, patterns, dates too far in the
future, the cross-column checks of `schema.CHECKS`, empty and repeated-header rows, the primary
key and foreign keys. A table is a few streaming passes over its columns, never a Python loop
over rows; only the rows that break a rule are brought back to Python, to name the problem.

What a value must look like (strict on purpose: a spreadsheet's or a hand edit's variant is
refused with a message, never silently read as something else):

- number: what polars reads as a finite float, and nothing around it: `2.5`, `-0.5`, `1e-05`,
  `.5` pass; ` 3.5 `, `3.5` + non-breaking space, `1_000`, `1,000`, `2,5`, `$2.50`, `inf`,
  `NaN`, `#N/A` are refused.
- integer: digits only (`8`; not ` 8`, `8.0`).
- date: `YYYY-MM-DD` exactly, a day that exists (not `2025-02-30`, `45292`, `15/01/2025`).
- boolean: `true` or `false`, lowercase.
- string: no leading or trailing whitespace, and not a spreadsheet error value (`#N/A`, ...).
- empty means missing (Table Schema's `missingValues: [""]`).

The loader raises a DataError carrying every problem where the validator reports them, so a
table that validates always loads, and one that loads has validated.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

import numpy as np
import polars as pl

from analysis.data import files
from analysis.data.errors import Problem
from analysis.data.files import ROW
from analysis.data.schema import FUTURE_DAYS, TABLES, Column, Table, checks_for

DATE_RE = r"^\d{4}-\d{2}-\d{2}$"
EXCEL_ERRORS = [
    "#N/A",
    "#N/A N/A",
    "#NA",
    "#VALUE!",
    "#REF!",
    "#DIV/0!",
    "#NUM!",
    "#NAME?",
    "#NULL!",
    "#SPILL!",
    "#CALC!",
    "#GETTING_DATA",
]
EXPECTED = {
    "number": "a number",
    "integer": "an integer",
    "date": "an ISO date YYYY-MM-DD that exists",
    "boolean": "true or false",
}


def raw(name: str) -> str:
    """Name of a column's raw text inside the checking query (the typed value keeps the name)."""
    return f"\x00{name}"


def parse(col: Column) -> pl.Expr:
    """The typed value of a column from its raw text; null where the text is not valid."""
    r = pl.col(raw(col.name))
    if col.type == "number":
        x = r.cast(pl.Float64, strict=False)
        return pl.when(x.is_finite()).then(x).alias(col.name)
    if col.type == "integer":
        return r.cast(pl.Int64, strict=False).alias(col.name)
    if col.type == "boolean":
        return pl.when(r == "true").then(True).when(r == "false").then(False).alias(col.name)
    if col.type == "date":
        return (
            pl.when(r.str.contains(DATE_RE))
            .then(r.str.to_date("%Y-%m-%d", strict=False))
            .alias(col.name)
        )
    return r.alias(col.name)


@dataclass(frozen=True)
class Rule:
    column: str | None  # None: the row as a whole
    rule: str
    bad: pl.Expr  # True where the row breaks the rule
    note_only: bool = False  # a rule newer than the version being read (see schema.Check)
    # What the pass over every row evaluates: a cheaper expression that is True wherever `bad`
    # is (the flagged rows are then judged exactly), or None where other rules already flag
    # every row this one would (whitespace in a code fails its enum). Default: `bad` itself.
    quick: pl.Expr | bool | None = True

    @property
    def flag(self) -> pl.Expr | None:
        return self.bad if self.quick is True else self.quick


def _limit(value: float | str, typ: str) -> pl.Expr:
    return pl.lit(date.fromisoformat(value)) if typ == "date" else pl.lit(value)


def cell_rules(col: Column, today: date, implied_by_key: bool = False) -> list[Rule]:
    """The rules of one column, most basic first (a cell reports only the first it breaks)."""
    r, t, n = pl.col(raw(col.name)), pl.col(col.name), col.name
    present = r.is_not_null()
    rules = []
    if col.type == "string":
        # A code or id (enum, pattern, foreign key) with such a value fails those rules too.
        implied = None if (col.enum or col.pattern or implied_by_key) else True
        rules.append(
            Rule(
                n,
                "spreadsheet-error: a spreadsheet's error value, not data",
                r.is_in(EXCEL_ERRORS),
                quick=implied,
            )
        )
        rules.append(
            Rule(
                n,
                "type-error: must not start or end with whitespace (spaces, tabs, non-breaking "
                "spaces)",
                r.str.strip_chars() != r,
                quick=implied,
            )
        )
    else:
        rules.append(Rule(n, f"type-error: must be {EXPECTED[col.type]}", present & t.is_null()))
    if col.required:
        rules.append(Rule(n, "constraint-error: required: a value is required", ~present))
    if col.minimum is not None:
        rules.append(
            Rule(
                n,
                f"constraint-error: minimum: must be >= {col.minimum}",
                t < _limit(col.minimum, col.type),
            )
        )
    if col.maximum is not None:
        rules.append(
            Rule(
                n,
                f"constraint-error: maximum: must be <= {col.maximum}",
                t > _limit(col.maximum, col.type),
            )
        )
    if col.enum is not None:
        rules.append(
            Rule(
                n,
                "constraint-error: enum: must be one of " + ", ".join(col.enum),
                present & ~r.is_in(col.enum),
            )
        )
    if col.pattern is not None:
        anchored = col.pattern if col.pattern.startswith("^") else f"^(?:{col.pattern})$"
        slug = " (lowercase slug)" if "a-z0-9" in col.pattern else ""
        rules.append(
            Rule(
                n,
                f"constraint-error: pattern: must match {col.pattern}{slug}",
                present & ~r.str.contains(anchored),
                quick=None if implied_by_key else True,
            )
        )
    if col.type == "date":
        latest = today + timedelta(days=FUTURE_DAYS)
        rules.append(
            Rule(
                n,
                f"constraint-error: future: more than a year after today ({today}): a typo?",
                t > pl.lit(latest),
            )
        )
    return rules


def table_rules(
    spec: Table,
    columns: list[str],
    *,
    version: str | None,
    today: date,
    refs: dict[str, list[str]] | None,
) -> list[Rule]:
    """Every row rule of a table read with `columns` (a release may predate newer columns)."""
    rules: list[Rule] = []
    # A foreign key whose every target is a valid slug already flags a bad id: its pattern and
    # whitespace rules need not run over every row (they still name the problem).
    keyed = set()
    for (c,), target, _ in spec.foreign_keys:
        col = spec.column(c) if c in columns else None
        targets = (refs or {}).get(target)
        pattern = col.pattern if col is not None else None
        if pattern and targets is not None and all(re.fullmatch(pattern, v) for v in targets):
            keyed.add(c)
    for c in columns:
        rules.extend(cell_rules(spec.column(c), today, implied_by_key=c in keyed))
    for fk_cols, target, target_cols in spec.foreign_keys:
        (c,), (tc,) = fk_cols, target_cols
        if c in columns and refs is not None and target in refs:
            rules.append(
                Rule(
                    c,
                    f"foreign-key: not a {tc} in table {target!r}",
                    pl.col(raw(c)).is_not_null()
                    & ~pl.col(raw(c)).is_in(pl.Series(refs[target], dtype=pl.String).implode()),
                )
            )
    for chk in checks_for(spec.name):
        # A column the release predates reads as null, as it loads (see `_typed`).
        if chk.column in columns:
            older = (
                version is not None
                and chk.after_version is not None
                and version <= chk.after_version
            )
            rules.append(Rule(chk.column, chk.rule, chk.bad().fill_null(False), note_only=older))
    return rules


def row_rules(columns: list[str]) -> list[Rule]:
    """Whole-row problems, which replace the cell problems of their row."""
    cells = [pl.col(raw(c)) for c in columns]
    return [
        Rule(
            None,
            "row is empty (every cell blank: a spreadsheet's empty row)",
            pl.all_horizontal([c.is_null() for c in cells]),
            quick=cells[0].is_null(),
        ),
        Rule(
            None,
            "row repeats the header (two files pasted together?)",
            pl.all_horizontal(
                [c == name for c, name in zip(cells, columns, strict=True)]
            ).fill_null(False),
            quick=(cells[0] == columns[0]).fill_null(False),
        ),
    ]


@dataclass
class Checked:
    """The outcome of checking one table: its problems, notes about rules newer than the data,
    and (when asked) the typed frame of its valid rows."""

    path: Path
    table: str
    rows: int = 0
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    frame: pl.DataFrame | None = None
    lazy: pl.LazyFrame | None = None  # with `parquet`: the valid rows, read from the files


def check_csv(
    path: Path,
    table: str,
    *,
    columns: list[str] | None = None,
    version: str | None = None,
    refs: dict[str, list[str]] | None = None,
    today: date | None = None,
    frame: bool = False,
    keep: list[str] | None = None,
    parquet: Path | None = None,
) -> Checked:
    """Check one table's CSV; with `frame`, also return the typed frame of its valid rows.

    `columns`: the header the file must have (default: the schema's; a release's descriptor
    names its own). `version`: the data version (rules newer than it become notes). `refs`:
    the key values of the tables foreign keys point at (None: foreign keys not checked).
    `keep`: the columns of the returned frame (default: all; every column is checked anyway).
    `parquet`: a folder to write the typed valid rows to as the pass goes (one file a batch)
    instead of holding them: `Checked.lazy` then reads them back, and `frame` stays None. For
    tables larger than memory holds comfortably; the rows are the same as `frame`'s.
    """
    spec = TABLES[table]
    columns = list(columns or spec.column_names)
    today = today or date.today()
    path = Path(path)
    out = Checked(path, table)
    scanned = files.scan_csv(path, columns)
    out.problems.extend(scanned.problems)
    if scanned.frame is None:
        return out
    rules = table_rules(spec, columns, version=version, today=today, refs=refs)
    rows = row_rules(columns)
    frame = frame or parquet is not None
    kept = [c for c in (keep or columns) if c in columns] if frame else None
    sink = _Sink(Path(parquet)) if parquet is not None else None
    try:
        seen = _scan(scanned.lazy(), spec, columns, rules, rows, kept, sink)
    except Exception as err:
        if not files.structure_error(err):
            raise
        scanned = files.recover(path, columns)
        out.problems.extend(scanned.problems)
        sink = _Sink(Path(parquet)) if parquet is not None else None
        seen = _scan(scanned.lazy(), spec, columns, rules, rows, kept, sink)
    out.rows = seen.rows
    if out.rows == 0:
        out.problems.append(Problem(str(path), None, None, None, "table has no rows (header only)"))
    found = _problems(scanned, seen, spec, columns, rules, rows)
    out.problems.extend(found.problems)
    out.notes.extend(found.notes)
    if frame:
        dropped = pl.col(ROW).is_in(pl.Series(found.bad_rows, dtype=pl.UInt32).implode())
        # A row the quick pass flagged that no rule names (cannot happen with the rules as they
        # are; see Rule.quick) is data all the same: it goes back in its place.
        named = pl.Series(
            sorted({p.row for p in out.problems if p.row is not None}), dtype=pl.UInt32
        )
        if sink is not None:  # every row was written, with its quick flag
            flagged = pl.col(FLAGGED)
            valid = sink.scan().filter(
                (~flagged & ~dropped) | (flagged & ~pl.col(ROW).is_in(named.implode()))
            )
            out.lazy = valid.select(kept)
        else:
            assert seen.typed is not None and seen.typed_flagged is not None
            valid = seen.typed.lazy().filter(~dropped)
            spared = seen.typed_flagged.filter(~pl.col(ROW).is_in(named.implode()))
            if not spared.is_empty():
                valid = pl.concat([valid, spared.lazy()]).sort(ROW)
            out.frame = valid.select(kept).collect()
    return out


class _Sink:
    """The typed rows of a pass, written to a folder of Parquet files, one per batch."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("part-*.parquet"):
            old.unlink()
        self.parts = 0

    def write(self, df: pl.DataFrame) -> None:
        df.write_parquet(
            self.folder / f"part-{self.parts:06d}.parquet", statistics=False, compression="lz4"
        )
        self.parts += 1

    def scan(self) -> pl.LazyFrame:
        return pl.scan_parquet(self.folder / "part-*.parquet")


def key_values(path: Path, table: str, columns: list[str] | None = None) -> list[str] | None:
    """Every key a table's rows give (raw text, valid or not): what foreign keys may point at.
    None where the file cannot be read by column (its own problems say why)."""
    (key,) = TABLES[table].primary_key
    columns = list(columns or TABLES[table].column_names)
    scanned = files.scan_csv(Path(path), columns)
    if scanned.frame is None or key not in columns:
        return None
    try:
        values = scanned.lazy().select(pl.col(key).unique()).collect()
    except Exception as err:
        if not files.structure_error(err):
            raise
        values = files.recover(Path(path), columns).lazy().select(pl.col(key).unique()).collect()
    return values[key].drop_nulls().to_list()


def _typed(lf: pl.LazyFrame, spec: Table, columns: list[str]) -> pl.LazyFrame:
    # Columns a cross-column check reads that this release predates: null, as they load.
    absent = {c for chk in checks_for(spec.name) for c in chk.needs if c not in columns}
    return (
        lf.select(ROW, *[pl.col(c).alias(raw(c)) for c in columns])
        .with_columns(parse(spec.column(c)) for c in columns)
        .with_columns(pl.lit(None, spec.column(c).polars_dtype).alias(c) for c in sorted(absent))
    )


FLAGGED = "\x00bad"  # a row some rule (in its quick form) flags
# Rows per batch of the one pass over a table: big enough for polars to work in parallel on,
# small enough that a batch's raw text, typed values and rule flags stay well under 1 GB.
BATCH_ROWS = 250_000
SLOTS = 1 << 26  # key-hash slots (64 MB): about 1 row in 7 kept needlessly at 10M rows


@dataclass
class _Seen:
    rows: int
    flagged: pl.DataFrame  # rows that broke a rule (or may): raw text and one flag per rule
    keys: pl.DataFrame  # every row: its key's hash (duplicates), whether its last cell is empty
    keytext: pl.DataFrame  # the key cells of every row whose key may repeat an earlier one
    typed: pl.DataFrame | None  # with `frame`: the typed values of the rows that broke no rule
    typed_flagged: pl.DataFrame | None = None  # ... and of the flagged rows (most are bad)


def _scan(
    lf: pl.LazyFrame,
    spec: Table,
    columns: list[str],
    rules: list[Rule],
    rows: list[Rule],
    keep: list[str] | None,
    sink: _Sink | None = None,
) -> _Seen:
    """The one pass over every row, batch by batch as polars streams the file: each batch is
    parsed, typed and judged by every rule at once (one fused, parallel expression per batch);
    only the rows that break a rule are kept, as text, plus one key hash per row."""
    every = [r for r in [*rows, *rules] if r.flag is not None]
    names = [f"\x00r{i}" for i in range(len(every))]
    hard = [n for r, n in zip(every, names, strict=True) if not r.note_only]
    key = [c for c in spec.primary_key if c in columns]
    # Each rule once, as a column of the batch; then the row flags from those columns.
    judged = [r.flag.fill_null(False).alias(n) for r, n in zip(every, names, strict=True)]
    checks = [
        pl.any_horizontal(hard).alias("\x00bad"),
        pl.any_horizontal(names).alias("\x00any"),
        pl.col(raw(columns[-1])).is_null().alias("\x00short"),
        (
            pl.struct([pl.col(raw(c)) for c in key]).hash(seed=14) if key else pl.lit(0, pl.UInt64)
        ).alias("\x00key"),
    ]
    flags = ["\x00bad", "\x00any", "\x00short", "\x00key"]
    flagged, keys, typed, keytext, typed_flagged = [], [], [], [], []
    # Which key hashes were met before: a row whose hash lands on a marked slot may repeat an
    # earlier key, so its key cells are kept (for the message) -- one pass, no second read.
    met = np.zeros(SLOTS, dtype=bool)
    n = 0
    # The streaming engine reads, types and judges the rows as one pipeline, a batch at a time.
    query = (
        _typed(lf, spec, columns)
        .with_columns(judged)
        .with_columns(checks)
        .select(ROW, *flags, *[raw(c) for c in columns], *(keep or []))
    )
    for out in query.collect_batches(chunk_size=BATCH_ROWS):
        n += out.height
        # Flagged rows are kept as the file gave them; their rules are told apart later.
        # (Columns are picked before rows are: a filter copies every column it is given.)
        text = out.select(ROW, *[pl.col(raw(c)).alias(c) for c in columns])
        flagged.append(_own(text.filter(out["\x00any"])))
        keys.append(out.select(ROW, "\x00key", "\x00short"))
        slot = (out["\x00key"].to_numpy() & (SLOTS - 1)).astype(np.int64)
        maybe = met[slot] | out["\x00key"].is_duplicated().to_numpy()
        met[slot] = True
        if maybe.any():
            keytext.append(_own(text.select(ROW, *key).filter(pl.Series(maybe))))
        if sink is not None:
            # Every row, with its flag: the rows to leave out are known after the pass, and
            # reading them back filters them out (no copy of the batch here).
            sink.write(out.select(ROW, *keep, FLAGGED))
        elif keep is not None:
            kept = out.select(ROW, *keep)
            # Own text buffers: the batch's buffers also hold the columns not kept.
            typed.append(_own(kept.filter(~out[FLAGGED])))
            typed_flagged.append(_own(kept.filter(out[FLAGGED])))
    text = pl.DataFrame(schema={ROW: pl.UInt32, **{c: pl.String for c in columns}})
    no_keys = pl.DataFrame(schema={ROW: pl.UInt32, "\x00key": pl.UInt64, "\x00short": pl.Boolean})
    if keep is not None:
        nothing = _typed(text.lazy(), spec, columns).select(ROW, *keep).collect()
        typed.append(nothing)
        typed_flagged.append(nothing)
        if sink is not None and sink.parts == 0:
            sink.write(nothing.with_columns(pl.lit(False).alias(FLAGGED)))
    return _Seen(
        n,
        pl.concat([text, *flagged]),
        pl.concat(keys) if keys else no_keys,
        pl.concat([text.select(ROW, *key), *keytext]),
        pl.concat(typed, rechunk=False) if keep is not None else None,
        pl.concat(typed_flagged) if keep is not None else None,
    )


def _own(df: pl.DataFrame) -> pl.DataFrame:
    """A few rows picked out of a batch, with strings of their own: a filtered string column
    still holds the whole batch's text buffers, which would keep the file's text alive."""
    return df.with_columns(pl.col(pl.String) + "")


@dataclass
class _Found:
    problems: list[Problem]
    notes: list[str]
    bad_rows: list[int]  # rows to leave out of a loaded frame (duplicates past the first)


def _repeated_keys(keys: pl.DataFrame) -> pl.DataFrame:
    """Rows whose key hash an earlier row has (`ROW`), and that earlier row's number (`first`),
    by a sort of the hashes: rows in file order, a stable sort keeps each key's rows in order,
    so the first of a run is its first row (cheaper than a hash table of every key)."""
    keys = keys.select(ROW, "\x00key")
    if not keys[ROW].is_sorted():  # (the streaming engine gives batches in order; be safe)
        keys = keys.sort(ROW)
    by_key = keys.sort("\x00key", maintain_order=True)
    repeat = (by_key["\x00key"] == by_key["\x00key"].shift(1)).fill_null(False)
    return (
        by_key.with_columns(pl.when(~repeat).then(pl.col(ROW)).forward_fill().alias("first"))
        .filter(repeat)
        .select(ROW, "first")
        .sort(ROW)
    )


def _problems(
    scanned: files.RawTable,
    seen: _Seen,
    spec: Table,
    columns: list[str],
    rules: list[Rule],
    rows: list[Rule],
) -> _Found:
    """From the flagged rows: which rules each broke, with the raw values.

    A row that is broken as a whole (wrong number of fields, empty, a repeated header) reports
    only that; a cell reports the first rule it breaks (a bad type hides its range); a duplicate
    key is reported only where the key's cells are themselves valid.
    """
    path = scanned.path
    short = seen.keys.filter(pl.col("\x00short"))[ROW]
    every = [*rows, *rules]
    names = [f"\x00r{i}" for i in range(len(every))]
    key = [c for c in spec.primary_key if c in columns]
    # The short rows' fields are counted from the file (numpy, a core of its own) while polars
    # finds the repeated keys and the rules each flagged row broke.
    with ThreadPoolExecutor(max_workers=1) as pool:
        counting = (
            pool.submit(
                files.short_rows, path, short, len(columns), seen.rows, longer=scanned.recovered
            )
            if len(short)
            else None
        )
        dups = _repeated_keys(seen.keys)
        if not seen.flagged.is_empty() or not dups.is_empty():
            hits = (
                _typed(seen.flagged.lazy(), spec, columns)
                .with_columns(
                    r.bad.fill_null(False).alias(nm) for r, nm in zip(every, names, strict=True)
                )
                .select(ROW, *[raw(c) for c in columns], *names)
                .collect()
            )
            catalogue = pl.DataFrame(
                {
                    "rule_id": names,
                    "priority": list(range(len(every))),
                    "column": [r.column or "" for r in every],
                    "rule": [r.rule for r in every],
                    "note_only": [r.note_only for r in every],
                    "whole_row": [r.column is None for r in every],
                }
            )
            broken = (
                hits.select(ROW, *names)
                .unpivot(index=ROW, variable_name="rule_id", value_name="hit")
                .filter(pl.col("hit"))
                .join(catalogue, on="rule_id")
            )
        width = counting.result() if counting is not None else {}
    problems = [files.width_problem(path, r, n, len(columns)) for r, n in sorted(width.items())]
    skip = set(scanned.skip_rows) | set(width)
    if seen.flagged.is_empty() and dups.is_empty():
        return _Found(problems, [], sorted(width))
    keytext = seen.keytext
    missing = dups[ROW].filter(~dups[ROW].is_in(keytext[ROW].implode()))
    if not missing.is_empty():  # cannot happen (every repeat lands on a marked slot); be safe
        more = (
            scanned.lazy()
            .select(ROW, *key)
            .filter(pl.col(ROW).is_in(missing.implode()))
            .collect(engine="streaming")
        )
        keytext = pl.concat([keytext, more])
    whole = broken.filter(pl.col("whole_row")).select(ROW).unique()
    skipped = pl.concat([whole[ROW], pl.Series(sorted(skip), dtype=pl.UInt32)])
    bad_cells = pl.DataFrame(
        [(r, c) for r, c in scanned.bad_bytes],
        schema={ROW: pl.UInt32, "column": pl.String},
        orient="row",
    )
    cells = (
        broken.filter(~pl.col("whole_row") & ~pl.col(ROW).is_in(skipped.implode()))
        .join(bad_cells, on=[ROW, "column"], how="anti")
        .sort(ROW, "priority")
        .unique([ROW, "column"], keep="first", maintain_order=True)
        .with_row_index("\x00n")
    )
    # Each cell's raw value, looked up column by column (not every cell of every flagged row).
    looked = [
        part.join(hits.select(ROW, pl.col(raw(c)).alias("value")), on=ROW, how="left")
        for (c,), part in cells.partition_by("column", as_dict=True).items()
    ]
    cells = (
        pl.concat(looked).sort("\x00n").drop("\x00n")
        if looked
        else cells.drop("\x00n").with_columns(pl.lit(None, pl.String).alias("value"))
    )
    notes = [
        f"{path}: {n} row(s) break a rule that applies only to versions released after this one "
        f"(released versions are immutable): {rule}"
        for rule, n in cells.filter(pl.col("note_only"))
        .group_by("rule", maintain_order=True)
        .len()
        .iter_rows()
    ]
    cells = cells.filter(~pl.col("note_only"))
    hints: dict[tuple[str, str | None], str] = {}  # bad values repeat: each is explained once
    for r, col, value, rule in cells.select(ROW, "column", "value", "rule").iter_rows():
        if rule.startswith("type-error"):
            why = hints.get((col, value))
            if why is None:
                why = hints[(col, value)] = hint(spec.column(col), value)
        else:
            why = ""
        problems.append(Problem(str(path), r, col, value, rule + why))
    for r, rule in broken.filter(pl.col("whole_row")).select(ROW, "rule").iter_rows():
        if r not in skip:
            problems.append(Problem(str(path), r, None, None, rule))
    pk = key
    bad_key = cells.filter(pl.col("column").is_in(pk)).select(ROW).unique()[ROW]
    reported = (
        dups.filter(
            ~pl.col(ROW).is_in(skipped.implode())
            & ~pl.col(ROW).is_in(bad_key.implode())
            & ~pl.col("first").is_in(bad_key.implode())
        )
        .join(keytext.unique(ROW), on=ROW)
        .sort(ROW)
    )
    for rec in reported.iter_rows(named=True):
        value = ", ".join(f"{c}={'(empty)' if rec[c] in (None, '') else rec[c]}" for c in pk)
        problems.append(
            Problem(
                str(path),
                rec[ROW],
                None,
                value,
                f"primary-key: duplicate key ({', '.join(pk)}); first at row {rec['first']}",
            )
        )
    order = {c: i for i, c in enumerate(columns)}
    problems.sort(key=lambda p: (p.row or 0, order.get(p.column, -1)))
    return _Found(problems, notes, sorted(set(dups[ROW].to_list()) | set(width)))


def hint(col: Column, value: str | None) -> str:
    """Why a refused value is refused, in the words of the edit that usually made it."""
    if value is None:
        return ""
    v = value
    notes = []
    if v != v.strip() and col.type != "string":
        kind = "a non-breaking space" if "\u00a0" in v else "leading or trailing whitespace"
        notes.append(f"it has {kind}")
    s = v.strip()
    if s in EXCEL_ERRORS:
        notes.append("it is a spreadsheet error value")
    elif col.type in ("number", "integer"):
        if "_" in s:
            notes.append("'_' digit separators are not allowed")
        elif re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", s):
            either = f" or {s.replace(',', '.')} with a decimal comma" if s.count(",") == 1 else ""
            notes.append(
                f"a comma: {s.replace(',', '')} with a thousands separator{either}? Write digits "
                "only, '.' for decimals"
            )
        elif re.fullmatch(r"-?\d+,\d+", s):
            notes.append(f"decimal comma: write {s.replace(',', '.')}")
        elif s.lower().lstrip("+-") in ("inf", "infinity", "nan"):
            notes.append("not a finite number")
        elif re.search(r"^[$€£¥]|%$", s):
            notes.append("no currency or percent signs: the unit is in the column name")
        elif "\u2212" in s:
            notes.append("a Unicode minus sign: use '-'")
        elif s.startswith("'"):
            notes.append("a leading apostrophe (a spreadsheet's text marker)")
        elif col.type == "integer" and re.fullmatch(r"-?\d+\.\d*", s):
            notes.append("a whole number, without decimals")
    elif col.type == "date":
        if re.fullmatch(r"\d{5}", s) and 20000 <= int(s) <= 80000:
            serial = date(1899, 12, 30) + timedelta(days=int(s))
            notes.append(f"an Excel date serial, meaning {serial}: format the cells as text")
        elif re.fullmatch(r"\d{1,2}[/.]\d{1,2}[/.]\d{2,4}", s):
            notes.append("day/month order is ambiguous: write YYYY-MM-DD")
        elif re.fullmatch(r"\d{4}-\d{2}-\d{2}[T ].+", s):
            notes.append("a date-time: write the date only")
        elif re.fullmatch(DATE_RE.strip("^$"), s):
            notes.append("no such date")
    elif col.type == "boolean" and s.lower() in ("true", "false"):
        notes.append("lowercase only; spreadsheets write TRUE")
    return f" ({'; '.join(notes)})" if notes else ""
