"""Vintages of the headline estimates: each estimate in every release, beside the one before.

Like ALFRED's vintages of an economic series: a reader sees how the book's conclusions moved when
the data did. `python -m analysis estimates --vintages` prints `vintages()` as CSV.
"""

from __future__ import annotations

import polars as pl

from analysis import data
from analysis.data import cache
from analysis.report import estimates

VINTAGE_COLUMNS = [
    "estimate_id",
    "description",
    "unit",
    "data_version",
    "value",
    "ci90_low",
    "ci90_high",
    "n",
    "window_end",
    "previous_version",
    "previous_value",
    "change_ratio",
]


def with_previous(table: pl.DataFrame, versions: list[str]) -> pl.DataFrame:
    """Estimate rows of several releases (`versions` oldest first), each with the previous
    release's value of the same estimate and the ratio new / previous; release order, then the
    registry's order of estimates."""
    version_rank = {v: i for i, v in enumerate(versions)}
    estimate_rank = {e: i for i, e in enumerate(estimates.REGISTRY)}
    ranked = table.with_columns(
        pl.col("data_version").replace_strict(version_rank, return_dtype=pl.Int64).alias("_v"),
        pl.col("estimate_id")
        .replace_strict(estimate_rank, default=len(estimate_rank), return_dtype=pl.Int64)
        .alias("_e"),
    ).sort("_e", "_v")
    return (
        ranked.with_columns(
            pl.col("data_version").shift(1).over("estimate_id").alias("previous_version"),
            pl.col("value").shift(1).over("estimate_id").alias("previous_value"),
        )
        .with_columns((pl.col("value") / pl.col("previous_value")).alias("change_ratio"))
        .sort("_v", "_e")
        .select(VINTAGE_COLUMNS)
    )


def vintages(versions: list[str] | None = None) -> pl.DataFrame:
    """Every headline estimate of each release (default: every release, oldest first)."""
    names = list(versions or [r.version for r in data.releases()])
    return _vintages(names, cache.releases_fingerprint(names))


@cache.cached  # the registry on every release: the data-versions page's slowest cell, once
def _vintages(names: list[str], _descriptors: dict[str, str]) -> pl.DataFrame:
    """`vintages(names)`; `_descriptors` (each release's descriptor checksum) keys the cached
    result to every release it reads, and the key's code part to the registry's code."""
    table = pl.concat([estimates.headline(v) for v in names], how="vertical_relaxed")
    return with_previous(table, names)
