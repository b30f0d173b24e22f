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


def source_label() -> str:
    """The axis's `labelExpr` for a source id: whole, on two lines where it is longer than
    `SOURCE_LABEL_CHARS`, broken after its last hyphen within them (a hand-entered page's id,
    "hand-github.com-laisky-one-api-blob-6bf9cc9e36346ab28", reads "hand-github.com-laisky-" over
    "one-api-blob-6bf9cc9e36346ab28"): a cut id names no source."""
    return f"{_breaks()} ? [substring(datum.label, 0, {_cut()} + 1), substring(datum.label, {_cut()} + 1)] : datum.label"


def _cut() -> str:
    return f"lastindexof(substring(datum.label, 0, {SOURCE_LABEL_CHARS}), '-')"


def _breaks() -> str:
    return f"length(datum.label) > {SOURCE_LABEL_CHARS} && {_cut()} > 0"


def coverage_chart(coverage: pl.DataFrame, what: str) -> alt.Chart:
    """A heat strip per source: how many rows of `what` each source gives in each month
    (`coverage`: month, source_id, rows)."""
    return (
        alt.Chart(
            coverage,
            description=f"Rows of {what} per month, one strip per source; darker means more rows",
        )
        .mark_rect()
        .encode(
            x=alt.X("yearmonth(month):T", title="Month"),
            y=alt.Y(
                "source_id:N",
                title=None,
                sort="-x",
                # 150 px: room for 26 characters of 11 px text in a font wider than Helvetica
                axis=alt.Axis(
                    labelFontSize=11,
                    labelLimit=0,
                    labelExpr=source_label(),
                    minExtent=150,
                    # a two-line id centred on its row (Vega puts the first line on it)
                    labelOffset={"condition": {"test": _breaks(), "value": -6.5}, "value": 0},
                ),
            ),
            color=alt.Color("rows:Q", scale=alt.Scale(type="log", scheme="blues"), title="Rows"),
            tooltip=["source_id:N", alt.Tooltip("yearmonth(month):T", title="month"), "rows:Q"],
        )
        # a row holds a two-line id
        .properties(title=f"Coverage of {what} by source", height=alt.Step(24))
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
