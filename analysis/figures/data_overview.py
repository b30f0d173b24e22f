"""The data chapter's tables and charts: the tables of a release, their sources, coverage over
time and the released versions. They draw frames that `analysis.chapters.data` prepares."""

from __future__ import annotations

import altair as alt
import polars as pl
from great_tables import GT

from analysis.figures import theme


def tables_gt(summary: pl.DataFrame) -> GT:
    """One row per table: what a row is, rows, first and last date, number of sources."""
    return (
        GT(summary)
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


SOURCE_LABEL_CHARS = 26


def coverage_chart(coverage: pl.DataFrame, what: str) -> alt.Chart:
    """A heat strip per source: how many rows of `what` each source gives in each month
    (`coverage`: month, source_id, rows)."""
    # A source id longer than the axis can show (a hand-entered page's) is cut with an ellipsis;
    # the tooltip and the figure kit's CSV keep it whole.
    label = (
        pl.when(pl.col("source_id").str.len_chars() > SOURCE_LABEL_CHARS)
        .then(pl.col("source_id").str.slice(0, SOURCE_LABEL_CHARS - 1) + "…")
        .otherwise(pl.col("source_id"))
    )
    return (
        alt.Chart(
            coverage.with_columns(label.alias("source")),
            description=f"Rows of {what} per month, one strip per source; darker means more rows",
        )
        .mark_rect()
        .encode(
            x=alt.X("yearmonth(month):T", title="Month"),
            y=alt.Y(
                "source:N", title=None, sort="-x", axis=alt.Axis(labelFontSize=11, labelLimit=140)
            ),
            color=alt.Color("rows:Q", scale=alt.Scale(type="log", scheme="blues"), title="Rows"),
            tooltip=["source_id:N", alt.Tooltip("yearmonth(month):T", title="month"), "rows:Q"],
        )
        .properties(title=f"Coverage of {what} by source", height=alt.Step(18))
    )


def sources_gt(sources: pl.DataFrame) -> GT:
    """One row per source: title, licence, retrieval date, the tables it feeds and its rows."""
    return (
        GT(sources)
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


def releases_gt(releases: pl.DataFrame) -> GT:
    """One row per released data version."""
    return GT(releases.with_columns(theme.reader_text("description"))).cols_label(
        version="Version",
        released="Released",
        description="What changed",
        datapackage_sha256="sha256 of datapackage.json",
    )
