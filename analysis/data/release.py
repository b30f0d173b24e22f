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
from pathlib import Path

import polars as pl

from analysis.data import files, paths, reads, rules, titles
from analysis.data.descriptor import descriptor_problems
from analysis.data.errors import DataError, Problem, fail
from analysis.data.reads import memo
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
    """Every released version, oldest first (recorded as read: see analysis.data.reads)."""
    out = _releases(root)
    reads.record("releases", **_releases_fields(out))
    return out


def _releases_fields(rels: list[Release]) -> dict:
    return {"sha256": reads.digest([r.__dict__ for r in rels])}


def _releases(root: Path | None = None) -> list[Release]:
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
    """The newest release (recorded as a read of the list of releases)."""
    latest = _latest_version(root)
    releases(root)
    return latest


def _latest_version(root: Path | None = None) -> str:
    rels = _releases(root)
    if not rels:
        raise fail(
            data_dir(root) / "versions.json", None, None, None, "no data version released yet"
        )
    return rels[-1].version


def current_version(version: str | None = None, root: Path | None = None) -> str:
    """The version to use: the argument, else $BOOK_DATA_VERSION, else the latest release."""
    chosen = version or os.environ.get(VERSION_ENV) or _latest_version(root)
    known = [r.version for r in _releases(root)]
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


@memo
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
    _record(f"table:{table}", v, root)
    return _load_cached(table, v, str(data_dir(root)))


def select_rows(
    table: str,
    key: str,
    values: list,
    columns: list[str],
    version: str | None = None,
    root: Path | None = None,
) -> pl.DataFrame:
    """The rows of `table` whose `key` is one of `values`, with `key` and `columns` only.

    Recorded as a read of those rows alone, not of the table: a chapter that looks up the
    publishers of its figures' sources does not depend on sources it does not name.
    """
    v = current_version(version, root)
    _resource(table, v, root)  # a version without the table is refused, as by `load`
    _record(f"rows:{table}:{key}:{','.join(columns)}:{reads.digest(sorted(set(values)))[:16]}",
            v, root, values=sorted({str(x) for x in values}))  # fmt: skip
    return _rows(table, key, values, columns, v, root)


def sources_of(*frames: pl.DataFrame) -> list[str]:
    """The source ids of the rows in `frames`, in order of first appearance: their `source_id`
    column, `source_ids` (';'-separated, the curated tables), and the `source`, `sources` and
    `*_source` columns a method keeps on its rows. A page passes the rows a figure was computed
    from to `show(..., sources=...)`, so the figure names the sources that fed it.

    A frame with no such column (an aggregate, which no longer says where its rows came from) is
    refused: its sources must be taken from the rows before aggregating.
    """
    ids: list[str] = []
    for number, frame in enumerate(frames, start=1):
        columns = [c for c in frame.columns if SOURCE_COLUMN.match(c)]
        if not columns:
            raise ValueError(
                f"sources_of: frame {number} of {len(frames)} has no source column "
                f"(source_id, source_ids, source, sources or *_source; it has "
                f"{', '.join(frame.columns)}): pass the rows the figure was computed from, "
                "before they were aggregated"
            )
        for column in columns:
            for cell in frame.get_column(column).drop_nulls().cast(pl.String).to_list():
                ids += split_source_ids(cell)
    return list(dict.fromkeys(ids))


# The columns that name a row's sources, in the tables and in what methods keep of them; one
# cell may list several ids (the curated tables join them with ';').
SOURCE_COLUMN = re.compile(r"^(source_id|source_ids|source|sources|.+_source)$")


def split_source_ids(cell: str) -> list[str]:
    """The source ids one cell lists (ids are slugs: ';', ',', '|' or spaces separate them)."""
    return [part for part in re.split(r"[;,|\s]+", cell) if part]


def _rows(table, key, values, columns, v, root) -> pl.DataFrame:
    frame = _load_cached(table, v, str(data_dir(root)))
    wanted = [str(x) for x in values]
    return frame.filter(pl.col(key).cast(pl.String).is_in(wanted)).select(key, *columns).sort(key)


def tables(version: str | None = None, root: Path | None = None) -> list[str]:
    """The tables a data version holds, as its datapackage.json declares them (an older
    release may predate newer tables), in the schema's order."""
    v = current_version(version, root)
    _record("tables", v, root)
    return _tables(v, root)


def fields(table: str, version: str | None = None, root: Path | None = None) -> list[str]:
    """The columns a version's descriptor gives `table` (recorded as a read of the table)."""
    v = current_version(version, root)
    _record(f"table:{table}", v, root)
    return [f["name"] for f in _resource(table, v, root)["schema"]["fields"]]


def _tables(v: str, root: Path | None) -> list[str]:
    names = {r.get("name") for r in _datapackage(v, root).get("resources", [])}
    return [t for t in TABLE_ORDER if t in names]


def _resource(table: str, v: str, root: Path | None) -> dict:
    for r in _datapackage(v, root).get("resources", []):
        if r.get("name") == table:
            return r
    raise fail(
        version_dir(v, root) / "datapackage.json",
        None,
        "resources",
        table,
        f"data version {v} has no table {table!r} (it predates it); its tables are "
        + ", ".join(_tables(v, root)),
    )


def datapackage(version: str | None = None, root: Path | None = None) -> dict:
    """A version's descriptor (recorded as a read of all of it: prefer `load`, `tables`)."""
    v = current_version(version, root)
    _record("datapackage", v, root)
    return _datapackage(v, root)


def _datapackage(v: str, root: Path | None) -> dict:
    return files.read_json(version_dir(v, root) / "datapackage.json")


# ---------------------------------------------------------------------------------------------
# Reads, recorded (analysis.data.reads) and checked again (analysis.book.deps)


def _record(key: str, v: str, root: Path | None, **extra) -> None:
    """Record the read `key` of version `v`: keyed without the version when `v` is the current
    one (so the next release is compared with it), else as `kind@v:...`."""
    if v != current_version(None, root):
        kind, _, rest = key.partition(":")
        key = f"{kind}@{v}:{rest}" if rest else f"{kind}@{v}"
    reads.record(key, version=v, **extra, **_fields(key, v, root, extra))


def _fields(key: str, v: str, root: Path | None, extra: dict) -> dict:
    """What identifies the read `key` in version `v`: checksums or the value read."""
    kind, _, rest = key.partition(":")
    kind = kind.partition("@")[0]
    if kind == "table":
        res = _resource(rest, v, root)
        return {
            "sha256": str(res.get("hash", "")).removeprefix("sha256:"),
            "schema_sha256": reads.digest(res.get("schema")),
        }
    if kind == "rows":
        table, key_column, columns = rest.split(":")[:3]
        rows = _rows(table, key_column, extra["values"], columns.split(","), v, root)
        return {"sha256": reads.digest(rows.write_csv())}
    if kind == "tables":
        return {"value": _tables(v, root)}
    if kind == "datapackage":
        return {"sha256": reads.digest(_datapackage(v, root))}
    if kind == "citation":
        return {"value": _citation(v, root)}
    if kind == "release_date":
        return {"value": version_date(v).isoformat()}
    raise KeyError(f"unknown kind of read {key!r}")


def read_now(key: str, fields: dict, root: Path | None = None) -> dict | None:
    """What the read `key` (recorded with `fields`) would record now, or None when it cannot be
    read any more (its version is gone, or the version has no such table)."""
    with reads.paused():
        kind = key.partition(":")[0]
        pinned = kind.partition("@")[2]
        try:
            if kind == "releases":
                return _releases_fields(_releases(root))
            if kind == "folder":
                return {"sha256": reads.folder_digest(Path(key.partition(":")[2]))}
            if kind == "title":
                return {"value": titles.page_title(Path(key.partition(":")[2]))}
            v = current_version(pinned or None, root)
            extra = {"values": fields["values"]} if "values" in fields else {}
            return {"version": v, **extra, **_fields(key, v, root, extra)}
        except (ValueError, KeyError, TypeError, OSError):  # gone, or a malformed record
            return None


def release_date(version: str | None = None, root: Path | None = None) -> date:
    """The date a release is named by (recorded as read: results that run up to the release
    date depend on it, while a further release of the same day leaves it as it was)."""
    v = current_version(version, root)
    _record("release_date", v, root)
    return version_date(v)


def citation(version: str | None = None, root: Path | None = None) -> str:
    """A ready citation of a data version."""
    v = current_version(version, root)
    _record("citation", v, root)
    return _citation(v, root)


def _citation(v: str, root: Path | None) -> str:
    pkg = _datapackage(v, root)
    return (
        f"{pkg['title']}, data version {pkg['version']} (released {str(pkg['created'])[:10]}). "
        f"{pkg['homepage']} (data/{pkg['version']}/)."
    )
