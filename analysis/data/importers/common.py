"""Helpers shared by the importers: provenance lookup, locators, slugs, tidy frames, and the
parsing every importer needs (numbers, ISO dates, CSV records, unique keys), each failing with
the file, row, column, value and rule."""

from __future__ import annotations

import csv
import datetime as dt
import math
import re
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.reads import memo
from analysis.data.schema import TABLES

# What an importer may say about a model (see analysis/importers/__init__.py); nulls where silent.
MODEL_INFO_SCHEMA: dict[str, pl.DataType] = {
    "source_id": pl.String(),
    "source_model_name": pl.String(),
    "model_hint": pl.String(),
    "name": pl.String(),
    "organization": pl.String(),
    "release_date": pl.Date(),
    "open_weights": pl.Boolean(),
    "parameters_b": pl.Float64(),
    "active_parameters_b": pl.Float64(),
    "reasoning": pl.Boolean(),
    "source_locator": pl.String(),
}


@dataclass(frozen=True)
class Provenance:
    file: str  # path relative to the sources dir, e.g. "cpi-us/2026-07-01_HEAD/data/cpiai.csv"
    repo: str
    commit: str
    commit_date: str
    path_in_repo: str
    sha256: str


@memo
def _provenance_table(sources_dir: Path, folder: str) -> dict[str, Provenance]:
    tsv = sources_dir / folder / "_PROVENANCE.tsv"
    if not tsv.exists():
        raise fail(tsv, None, None, None, "every source folder needs a _PROVENANCE.tsv")
    out: dict[str, Provenance] = {}
    with tsv.open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            out[row["file"]] = Provenance(
                row["file"],
                row["repo"],
                row["commit"],
                row["commit_date"],
                row["path_in_repo"],
                row["sha256"],
            )
    return out


def provenance(sources_dir: Path, path: Path) -> Provenance:
    """Provenance record of one raw file (path inside `sources_dir`)."""
    rel = path.resolve().relative_to(sources_dir.resolve()).as_posix()
    folder = rel.split("/", 1)[0]
    table = _provenance_table(sources_dir.resolve(), folder)
    if rel not in table:
        raise fail(
            sources_dir / folder / "_PROVENANCE.tsv", None, "file", rel, "raw file is not listed"
        )
    return table[rel]


def locator(sources_dir: Path, path: Path, where: str) -> str:
    """`<file>@<commit12>#<where>`: enough to find the value again in the public repository."""
    p = provenance(sources_dir, path)
    return f"{p.file}@{p.commit[:12]}#{where}"


def slug(text: str) -> str:
    """Lowercase slug: letters, digits, '.', '+', '-' (everything else becomes '-')."""
    s = re.sub(r"[^a-z0-9.+]+", "-", text.strip().lower()).strip("-.")
    return re.sub(r"-{2,}", "-", s)


def frame(table: str, rows: list[dict], drop: tuple[str, ...] = ()) -> pl.DataFrame:
    """Rows -> frame with the table's columns and dtypes (minus `drop`), extra columns kept last.

    Dates may be given as `datetime.date` or ISO strings.
    """
    schema = {k: v for k, v in TABLES[table].polars_schema.items() if k not in drop}
    extra = [k for k in (rows[0] if rows else {}) if k not in schema]
    out = {}
    for k in extra:  # e.g. model_hint: dtype inferred from the values
        out[k] = pl.Series(k, [r.get(k) for r in rows])
    for k, dtype in schema.items():
        values = [r.get(k) for r in rows]
        if dtype == pl.Date() and any(isinstance(v, str) for v in values):
            out[k] = pl.Series(k, values, dtype=pl.String).str.to_date("%Y-%m-%d", strict=True)
        else:
            out[k] = pl.Series(k, values, dtype=dtype, strict=True)
    return pl.DataFrame(out).select([*schema, *extra])


def number(
    path: Path | str,
    row: int | None,
    column: str,
    value: object,
    *,
    strip: str = "",
    minimum: float | None = None,
    rule: str = "must be a number",
) -> float | None:
    """A number from a cell, or None for an empty one (NaN is empty too).

    `strip` removes characters first (`"$,"` for "$1,234.5"); `minimum` is inclusive.
    """
    if value is None or (isinstance(value, str) and value.strip() == ""):
        return None
    if isinstance(value, bool):
        raise fail(path, row, column, value, rule)
    text = value.strip() if isinstance(value, str) else value
    if isinstance(text, str):
        for ch in strip:
            text = text.replace(ch, "")
    try:
        out = float(text)
    except (TypeError, ValueError):
        raise fail(path, row, column, value, rule) from None
    if math.isnan(out):
        return None
    if minimum is not None and out < minimum:
        bound = "must not be negative" if minimum == 0 else f"must be >= {minimum:g}"
        raise fail(path, row, column, value, bound)
    return out


def iso_date(
    path: Path | str,
    row: int | None,
    column: str,
    value: str | None,
    *,
    required: bool = False,
    rule: str = "must be an ISO date YYYY-MM-DD",
) -> dt.date | None:
    """An ISO date (YYYY-MM-DD) from a cell; None for an empty one unless `required`."""
    text = (value or "").strip()
    if not text and not required:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise fail(path, row, column, value, rule) from None


def read_csv_records(
    path: Path, required: list[str], *, rule: str = "required column missing"
) -> list[dict[str, str]]:
    """Records of a CSV file (quoted cells may span lines; a BOM is allowed), after checking
    that every `required` column is in the header."""
    with path.open(newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in required if c not in (reader.fieldnames or [])]
        if missing:
            raise fail(path, None, ",".join(missing), None, rule)
        return list(reader)


def check_unique(rows: list[dict], key: tuple[str, ...], table: str) -> None:
    """Raise on the first two rows sharing `key`, naming both locators."""
    seen: dict[tuple, str] = {}
    for r in rows:
        k = tuple(r[c] for c in key)
        if k in seen:
            raise fail(
                r["source_locator"],
                None,
                ", ".join(key),
                k,
                f"duplicate {table} key; first at {seen[k]}",
            )
        seen[k] = r["source_locator"]
