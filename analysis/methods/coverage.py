"""What a release holds, source by source: the rows each source gives to each table, the months it
covers, and the first and last date of its rows (the data chapter's tables and charts)."""

from __future__ import annotations

from datetime import date

import polars as pl


def monthly_coverage(df: pl.DataFrame, date_col: str = "date") -> pl.DataFrame:
    """Rows per calendar month and source (rows without a date are left out)."""
    return (
        df.filter(pl.col(date_col).is_not_null())
        .with_columns(pl.col(date_col).dt.truncate("1mo").alias("month"))
        .group_by("month", "source_id")
        .len("rows")
        .sort("month", "source_id")
    )


def source_rows(sources: pl.DataFrame, tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """One row per source: title, licence, retrieval date, the tables it feeds and its rows in
    them (`tables`: every table with a `source_id`, by name)."""
    counts = pl.concat(
        [
            df.group_by("source_id").len("rows").with_columns(pl.lit(name).alias("table"))
            for name, df in tables.items()
        ]
    )
    used = counts.group_by("source_id").agg(
        pl.col("rows").sum(), pl.col("table").unique().sort().str.join(", ").alias("tables")
    )
    return (
        sources.join(used, on="source_id", how="left")
        .select("source_id", "title", "licence", "retrieved", "tables", "rows")
        .sort("source_id")
    )


def source_span(df: pl.DataFrame, source_id: str) -> tuple[date, date]:
    """(first, last) date of the rows of one source; raises LookupError naming it if it has none."""
    dates = df.filter(pl.col("source_id") == source_id)["date"]
    if dates.is_empty():
        raise LookupError(f"no rows from source {source_id!r}")
    return dates.min(), dates.max()
