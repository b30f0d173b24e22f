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
import os
import re
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path

import polars as pl

from analysis.data import files, paths, rules
from analysis.data.descriptor import descriptor_problems
from analysis.data.errors import DataError, Problem, fail
from analysis.data.schema import TABLE_ORDER, TABLES

VERSION_ENV = "BOOK_DATA_VERSION"


@dataclass(frozen=True)
class Release:
    version: str
    released: str
    datapackage_sha256: str
    description: str


def data_dir(root: Path | None = None) -> Path:
    return Path(root) if root is not None else paths.DATA_DIR


VERSION_NAME = r"^\d{4}-\d{2}-\d{2}(\.\d+)?$"


def version_date(version: str) -> date:
    """The release date a version is named by: `YYYY-MM-DD`, or `YYYY-MM-DD.N` for the N-th
    release on one day."""
    if not re.fullmatch(VERSION_NAME, version):
        raise fail("versions.json", None, "version", version, "must be YYYY-MM-DD or YYYY-MM-DD.N")
    try:
        return date.fromisoformat(version.split(".", 1)[0])
    except ValueError:
        raise fail("versions.json", None, "version", version, "no such day") from None


def releases(root: Path | None = None) -> list[Release]:
    index = data_dir(root) / "versions.json"
    if not index.exists():
        return []
    doc = files.read_json(index)
    entries = doc.get("releases") if isinstance(doc, dict) else None
    if not isinstance(entries, list):
        raise fail(
            index, None, "releases", None, "versions.json must be an object with a list 'releases'"
        )
    out, problems = [], []
    for i, r in enumerate(entries, start=1):
        try:
            out.append(Release(**r))
            version_date(r["version"])
        except (TypeError, KeyError) as e:
            problems.append(Problem(str(index), i, None, str(r)[:120], f"release entry: {e}"))
        except DataError as e:
            problems.extend(Problem(str(index), i, p.column, p.value, p.rule) for p in e.problems)
    if problems:
        raise DataError(problems)
    return out


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


def read_table_csv(
    path: Path, table: str, *, refs: dict[str, list[str]] | None = None
) -> pl.DataFrame:
    """Read one table's CSV with the dtypes its schema declares, refusing it, with every problem
    located, unless it passes the same rules as `data validate` (`analysis.data.rules`).

    The columns the file must have are its descriptor's, where a `datapackage.json` sits beside
    it (a release may predate newer columns, which then load as nulls), else the schema's.
    `refs`: key values of the tables its foreign keys point at, to check those too.
    """
    path = Path(path)
    columns, version = _described(path, table)
    checked = rules.check_csv(path, table, columns=columns, version=version, refs=refs, frame=True)
    if checked.problems:
        raise DataError(checked.problems)
    assert checked.frame is not None
    spec = TABLES[table]
    columns = columns or spec.column_names
    return checked.frame.with_columns(
        pl.lit(None, dtype).alias(c) for c, dtype in spec.polars_schema.items() if c not in columns
    ).select([pl.col(c).cast(t) for c, t in spec.polars_schema.items()])


def _described(path: Path, table: str) -> tuple[list[str] | None, str | None]:
    """The columns and data version a sibling datapackage.json gives the file, if any."""
    desc_path = path.parent / "datapackage.json"
    if not desc_path.exists():
        return None, None
    desc = files.read_json(desc_path)
    problems = descriptor_problems(desc_path, desc, [])
    if problems:
        raise DataError(problems)
    res = next(
        (
            r
            for r in desc.get("resources", [])
            if r.get("path") == path.name and r.get("name") == table
        ),
        None,
    )
    columns = [f["name"] for f in res["schema"]["fields"]] if res else None
    return columns, desc.get("version")


@cache
def _load_cached(table: str, version: str, root: str) -> pl.DataFrame:
    refs = {}
    for _cols, target, (key,) in TABLES[table].foreign_keys:
        if target != table:
            refs[target] = _load_cached(target, version, root)[key].unique().to_list()
    return read_table_csv(Path(root) / version / f"{table}.csv", table, refs=refs)


def load(table: str, version: str | None = None, root: Path | None = None) -> pl.DataFrame:
    """One table of one data version (default: the current version)."""
    if table not in TABLES:
        raise KeyError(f"unknown table {table!r}; tables are {', '.join(TABLES)}")
    v = current_version(version, root)
    declared = tables(v, root)
    if table not in declared:
        raise fail(
            version_dir(v, root) / "datapackage.json",
            None,
            "resources",
            table,
            f"data version {v} has no table {table!r} (it predates it); its tables are "
            + ", ".join(declared),
        )
    return _load_cached(table, v, str(data_dir(root)))


def tables(version: str | None = None, root: Path | None = None) -> list[str]:
    """The tables a data version holds, as its datapackage.json declares them (an older
    release may predate newer tables), in the schema's order."""
    names = {r.get("name") for r in datapackage(version, root).get("resources", [])}
    return [t for t in TABLE_ORDER if t in names]


def datapackage(version: str | None = None, root: Path | None = None) -> dict:
    return files.read_json(version_dir(version, root) / "datapackage.json")


def citation(version: str | None = None, root: Path | None = None) -> str:
    """A ready citation of a data version."""
    pkg = datapackage(version, root)
    return (
        f"{pkg['title']}, data version {pkg['version']} (released {str(pkg['created'])[:10]}). "
        f"{pkg['homepage']} (data/{pkg['version']}/)."
    )
