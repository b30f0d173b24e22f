"""Views of the data itself for the data chapter: table summaries, coverage over time, versions."""

from __future__ import annotations

import altair as alt
import polars as pl
from great_tables import GT

from analysis.data import info as datainfo
from analysis.data import release as data
from analysis.data.schema import TABLE_ORDER, TABLES


def tables_summary(version: str | None = None) -> pl.DataFrame:
    """One row per table: rows, first and last date, number of sources, description."""
    report = datainfo.info(version)
    rows = [
        {
            "table": t["table"],
            "rows": t["rows"],
            "first_date": t["first_date"],
            "last_date": t["last_date"],
            "sources": len(t["sources"]),
            "holds": TABLES[t["table"]].description,
        }
        for t in report["tables"]
    ]
    return pl.DataFrame(rows).select("table", "holds", "rows", "first_date", "last_date", "sources")


def tables_summary_table(version: str | None = None) -> GT:
    return (
        GT(tables_summary(version))
        .cols_label(
            table="Table",
            holds="What a row is",
            rows="Rows",
            first_date="From",
            last_date="To",
            sources="Sources",
        )
        .fmt_integer("rows")
        .sub_missing(missing_text="")
    )


def monthly_coverage(df: pl.DataFrame, date_col: str = "date") -> pl.DataFrame:
    """Rows per calendar month and source."""
    return (
        df.filter(pl.col(date_col).is_not_null())
        .with_columns(pl.col(date_col).dt.truncate("1mo").alias("month"))
        .group_by("month", "source_id")
        .len("rows")
        .sort("month", "source_id")
    )


def coverage_chart(df: pl.DataFrame, what: str, date_col: str = "date") -> alt.Chart:
    """A heat strip per source: how many rows each source gives in each month."""
    cov = monthly_coverage(df, date_col)
    return (
        alt.Chart(
            cov,
            description=f"Rows of {what} per month, one strip per source; darker means more rows",
        )
        .mark_rect()
        .encode(
            x=alt.X("yearmonth(month):T", title="Month"),
            y=alt.Y("source_id:N", title=None, sort="-x"),
            color=alt.Color("rows:Q", scale=alt.Scale(type="log", scheme="blues"), title="Rows"),
            tooltip=["source_id:N", alt.Tooltip("yearmonth(month):T", title="month"), "rows:Q"],
        )
        .properties(title=f"Coverage of {what} by source", height=alt.Step(18))
    )


def sources_table(version: str | None = None) -> GT:
    src = data.load("sources", version)
    counts = pl.concat(
        [
            data.load(t, version)
            .group_by("source_id")
            .len("rows")
            .with_columns(pl.lit(t).alias("table"))
            for t in TABLE_ORDER
            if "source_id" in TABLES[t].column_names and t != "sources"
        ]
    )
    used = counts.group_by("source_id").agg(
        pl.col("rows").sum(), pl.col("table").unique().sort().str.join(", ").alias("tables")
    )
    df = (
        src.join(used, on="source_id", how="left")
        .select("source_id", "title", "licence", "retrieved", "tables", "rows")
        .sort("source_id")
    )
    return (
        GT(df)
        .cols_label(
            source_id="Source id",
            title="Source",
            licence="Licence",
            retrieved="Retrieved",
            tables="Tables",
            rows="Rows",
        )
        .fmt_integer("rows")
        .sub_missing(missing_text="")
    )


def releases_table() -> GT:
    rel = pl.DataFrame([r.__dict__ for r in data.releases()])
    return GT(rel.select("version", "released", "description", "datapackage_sha256")).cols_label(
        version="Version",
        released="Released",
        description="What changed",
        datapackage_sha256="sha256 of datapackage.json",
    )
