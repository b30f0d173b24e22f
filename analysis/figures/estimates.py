"""The summary page's headline chart and its table of headline estimates
(`analysis.report.estimates.headline`)."""

from __future__ import annotations

import altair as alt
import polars as pl
from great_tables import GT

from analysis.figures import theme

NUMBERS = ["value", "ci90_low", "ci90_high"]
FACTOR_UNIT = "factor per year (price falls)"


def headline_chart(headline: pl.DataFrame, labels: dict[str, str]) -> alt.LayerChart:
    """How fast each price falls: every headline estimate measured as a factor per year, with its
    90% interval, on one log axis; `labels` gives each estimate's short name on the chart (the
    estimates without a label are left out)."""
    rows = (
        headline.filter(pl.col("unit") == FACTOR_UNIT)
        .filter(pl.col("estimate_id").is_in(list(labels)))
        .with_columns(pl.col("estimate_id").replace_strict(labels).alias("label"))
        .select(
            "estimate_id",
            "label",
            "description",
            "value",
            "ci90_low",
            "ci90_high",
            *(["sources"] if "sources" in headline.columns else []),  # the rows' sources
        )
    )
    order = [labels[key] for key in labels if key in rows["estimate_id"].to_list()]
    y = alt.Y("label:N", sort=order, title=None, axis=alt.Axis(labelLimit=260))
    x_scale = alt.Scale(type="log")
    base = alt.Chart(rows)
    intervals = base.mark_rule(strokeWidth=2, color=theme.PALETTE[0]).encode(
        x=alt.X("ci90_low:Q", scale=x_scale, title="Factor by which the price falls per year"),
        x2="ci90_high:Q",
        y=y,
    )
    points = base.mark_point(filled=True, size=70, color=theme.PALETTE[0]).encode(
        x=alt.X("value:Q", scale=x_scale),
        y=y,
        tooltip=[
            alt.Tooltip("description:N", title="Estimate"),
            alt.Tooltip("value:Q", title="Factor per year", format=".3~g"),
            alt.Tooltip("ci90_low:Q", title="90% CI low", format=".3~g"),
            alt.Tooltip("ci90_high:Q", title="90% CI high", format=".3~g"),
        ],
    )
    return (intervals + points).properties(
        height=34 * len(order),
        title=alt.Title(
            "How fast prices fall: factor per year, with 90% intervals",
            subtitle="1x is no change; 10x is a price divided by ten every year",
        ),
        description="Each headline decline factor per year as a dot, its 90% interval as a line, "
        "on a log scale.",
    )


def estimates_gt(headline: pl.DataFrame, chapter_titles: dict[str, str] | None = None) -> GT:
    """Every headline estimate with its value, unit, 90% interval, n, window and chapter, named
    by its title where `chapter_titles` ({slug: title}) has it. The ids and methods are in the
    CSV and JSON export (`python -m analysis estimates`), not on the page, which states the data
    version."""
    if chapter_titles:
        headline = headline.with_columns(pl.col("chapter").replace(chapter_titles))
    return (
        GT(headline)
        .cols_hide(["estimate_id", "method", "data_version"])
        .cols_move("unit", after="value")
        .fmt_number(NUMBERS, n_sigfig=3)
        .sub_missing(missing_text="")
        .cols_label(
            description="What it is",
            value="Value",
            unit="Unit",
            ci90_low="90% CI low",
            ci90_high="90% CI high",
            n="n",
            window_start="From",
            window_end="To",
            chapter="Chapter",
        )
    )
