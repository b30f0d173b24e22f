"""What changed between two releases: rows added, changed and removed per table and source, and the
models and providers that are new.

Rows are matched by the primary key each release's own descriptor declares (a release describes
itself, so a newer schema does not reinterpret an older release); only the columns both releases
have are compared. A row counts against the source that reports it: added and changed rows under
the newer release's `source_id`, removed rows under the older one's.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis.data import release as data
from analysis.data.schema import TABLE_ORDER

CHANGE_SCHEMA = {
    "table": pl.String,
    "source_id": pl.String,
    "added": pl.Int64,
    "changed": pl.Int64,
    "removed": pl.Int64,
}


def primary_key(version: str, table: str, root: Path | None = None) -> list[str]:
    """The primary key of `table` as release `version` declares it."""
    for resource in data.datapackage(version, root)["resources"]:
        if resource["name"] == table:
            key = resource["schema"].get("primaryKey", [])
            return [key] if isinstance(key, str) else list(key)
    raise KeyError(f"release {version} has no table {table!r}")


def _by_source(frame: pl.DataFrame, what: str) -> pl.DataFrame:
    if "source_id" not in frame.columns:
        frame = frame.with_columns(pl.lit(None, dtype=pl.String).alias("source_id"))
    return frame.group_by("source_id").agg(pl.len().cast(pl.Int64).alias(what))


def table_changes(old: str, new: str, table: str, root: Path | None = None) -> pl.DataFrame:
    """Rows of `table` added, changed and removed from release `old` to `new`, per source."""
    a, b = data.load(table, old, root), data.load(table, new, root)
    key = [c for c in primary_key(new, table, root) if c in a.columns] or [
        c for c in a.columns if c in b.columns
    ]
    shared = [c for c in a.columns if c in b.columns and c not in key]
    added = b.join(a.select(key), on=key, how="anti", nulls_equal=True)
    removed = a.join(b.select(key), on=key, how="anti", nulls_equal=True)
    both = b.join(a.select(key + shared), on=key, how="inner", suffix="__old", nulls_equal=True)
    changed = (
        both.filter(pl.any_horizontal([~pl.col(c).eq_missing(pl.col(f"{c}__old")) for c in shared]))
        if shared
        else both.clear()
    )
    counts = [
        _by_source(added, "added"),
        _by_source(changed, "changed"),
        _by_source(removed, "removed"),
    ]
    out = counts[0].join(counts[1], on="source_id", how="full", coalesce=True, nulls_equal=True)
    out = out.join(counts[2], on="source_id", how="full", coalesce=True, nulls_equal=True)
    return (
        out.with_columns(pl.lit(table).alias("table"))
        .with_columns(pl.col("added", "changed", "removed").fill_null(0))
        .select(list(CHANGE_SCHEMA))
        .cast(CHANGE_SCHEMA)
        .filter(pl.sum_horizontal("added", "changed", "removed") > 0)
        .sort("source_id", nulls_last=True)
    )


def changes(old: str, new: str, root: Path | None = None) -> pl.DataFrame:
    """`table_changes` for every table the new release holds, in the book's table order; a
    table the old release predates counts every row as added."""
    frames = [
        table_changes(old, new, t, root) if _has(old, t, root) else _all_added(new, t, root)
        for t in TABLE_ORDER
        if _has(new, t, root)
    ]
    return pl.concat(frames) if frames else pl.DataFrame(schema=CHANGE_SCHEMA)


def _all_added(version: str, table: str, root: Path | None) -> pl.DataFrame:
    return (
        _by_source(data.load(table, version, root), "added")
        .with_columns(
            pl.lit(table).alias("table"), pl.lit(0).alias("changed"), pl.lit(0).alias("removed")
        )
        .select(list(CHANGE_SCHEMA))
        .cast(CHANGE_SCHEMA)
        .sort("source_id", nulls_last=True)
    )


def _has(version: str, table: str, root: Path | None) -> bool:
    return any(r["name"] == table for r in data.datapackage(version, root)["resources"])


def new_ids(old: str, new: str, column: str, table: str = "token_prices", root=None) -> list[str]:
    """Values of `column` (model_id, provider) in `table` of release `new` but not of `old`."""
    before = set(data.load(table, old, root)[column].drop_nulls())
    return sorted(set(data.load(table, new, root)[column].drop_nulls()) - before)


def previous_release(version: str, root: Path | None = None) -> str | None:
    """The release before `version` in `data/versions.json`, or None for the first."""
    names = [r.version for r in data.releases(root)]
    at = names.index(data.current_version(version, root))
    return names[at - 1] if at else None
