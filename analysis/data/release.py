"""Load the book's data: released, immutable versions of every table.

Layout (one folder per released version, Frictionless Data Package inside):

    data/versions.json               index of releases, oldest first; the last is the latest
    data/<version>/datapackage.json  Table Schemas, sources, sha256 of every CSV
    data/<version>/<table>.csv

The latest version is the default. Pin another for a whole render with the environment
variable `BOOK_DATA_VERSION` (e.g. `BOOK_DATA_VERSION=2026-11-30 make book`), or per call.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import polars as pl

from analysis.data import paths
from analysis.data.errors import fail
from analysis.data.schema import TABLES

VERSION_ENV = "BOOK_DATA_VERSION"


@dataclass(frozen=True)
class Release:
    version: str
    released: str
    datapackage_sha256: str
    description: str


def data_dir(root: Path | None = None) -> Path:
    return Path(root) if root is not None else paths.DATA_DIR


def releases(root: Path | None = None) -> list[Release]:
    index = data_dir(root) / "versions.json"
    if not index.exists():
        return []
    return [Release(**r) for r in json.loads(index.read_text(encoding="utf-8"))["releases"]]


def latest_version(root: Path | None = None) -> str:
    rels = releases(root)
    if not rels:
        raise fail(
            data_dir(root) / "versions.json", None, None, None, "no data version released yet"
        )
    return rels[-1].version


def current_version(version: str | None = None, root: Path | None = None) -> str:
    """The version to use: the argument, else $BOOK_DATA_VERSION, else the latest release."""
    chosen = version or os.environ.get(VERSION_ENV) or latest_version(root)
    known = [r.version for r in releases(root)]
    if chosen not in known:
        raise fail(
            data_dir(root) / "versions.json",
            None,
            "version",
            chosen,
            f"unknown data version; released versions are {', '.join(known) or 'none'}",
        )
    return chosen


def version_dir(version: str | None = None, root: Path | None = None) -> Path:
    return data_dir(root) / current_version(version, root)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_table_csv(path: Path, table: str) -> pl.DataFrame:
    """Read one table's CSV with the dtypes its schema declares (dates as ISO dates)."""
    spec = TABLES[table]
    raw = pl.read_csv(path, infer_schema=False)
    out = []
    for col in spec.columns:
        s = raw[col.name] if col.name in raw.columns else pl.Series(col.name, [None] * raw.height)
        s = s.cast(pl.String)
        if col.type == "date":
            s = s.str.to_date("%Y-%m-%d", strict=True)
        elif col.type == "boolean":
            s = s.replace_strict(
                {"true": True, "false": False}, default=None, return_dtype=pl.Boolean
            )
        else:
            s = s.cast(col.polars_dtype, strict=True)
        out.append(s.alias(col.name))
    return pl.DataFrame(out)


@cache
def _load_cached(table: str, version: str, root: str) -> pl.DataFrame:
    return read_table_csv(Path(root) / version / f"{table}.csv", table)


def load(table: str, version: str | None = None, root: Path | None = None) -> pl.DataFrame:
    """One table of one data version (default: the current version)."""
    if table not in TABLES:
        raise KeyError(f"unknown table {table!r}; tables are {', '.join(TABLES)}")
    v = current_version(version, root)
    return _load_cached(table, v, str(data_dir(root)))


def datapackage(version: str | None = None, root: Path | None = None) -> dict:
    return json.loads((version_dir(version, root) / "datapackage.json").read_text(encoding="utf-8"))


def citation(version: str | None = None, root: Path | None = None) -> str:
    """A ready citation of a data version."""
    pkg = datapackage(version, root)
    return (
        f"{pkg['title']}, data version {pkg['version']} (released {pkg['created']}). "
        f"{pkg['homepage']} (data/{pkg['version']}/)."
    )
