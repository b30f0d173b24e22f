"""Charts and tables of "The autumn-2026 price war".

Every builder takes a frame that `analysis.chapters.price_war` prepares (from
`analysis.methods.price_war` and `analysis.methods.time_of_use`) and only selects, labels and
formats. Each chart's data carries the source ids of its rows (`source_id`), which the
figure kit prints as the chart's source line.
"""

from __future__ import annotations

import altair as alt
import polars as pl
from great_tables import GT

from analysis.figures.theme import named

DAY_NAMES = {
    "mon": "Mon",
    "tue": "Tue",
    "wed": "Wed",
    "thu": "Thu",
    "fri": "Fri",
    "sat": "Sat",
    "sun": "Sun",
}


def cuts_chart(cuts: pl.DataFrame) -> alt.LayerChart:
    """Each new model's blended price beside its predecessor's (`price_war.cuts` with names),
    log scale: a line from the old price to the new one."""
    cuts = cuts.with_columns(named("name", "model"), named("previous_name", "model"))
    old = cuts.select(
        "name",
        pl.col("previous_blended").alias("usd"),
        pl.lit("previous model").alias("price"),
        pl.col("previous_name").alias("model"),
        pl.col("previous_source_id").alias("source_id"),  # the figure kit's source line
    )
    new = cuts.select(
        "name",
        pl.col("blended").alias("usd"),
        pl.lit("new model").alias("price"),
        pl.col("name").alias("model"),
        "source_id",
    )
    long = pl.concat([old, new])
    order = cuts.sort("blended", descending=True)["name"].to_list()
    base = alt.Chart(
        long,
        description="Blended 3:1 list price of each autumn-2026 model and of the model it replaced, log scale",
    ).encode(
        y=alt.Y("name:N", sort=order, title=None),
        x=alt.X(
            "usd:Q",
            scale=alt.Scale(type="log"),
            title="USD per 1M tokens (3 input : 1 output, log scale)",
        ),
    )
    line = base.mark_line(color="#999999").encode(detail="name:N")
    points = base.mark_point(filled=True, size=90).encode(
        color=alt.Color(
            "price:N", title=None, scale=alt.Scale(domain=["previous model", "new model"])
        ),
        tooltip=["model:N", "price:N", alt.Tooltip("usd:Q", format=".3f")],
    )
    return (line + points).properties(title="New price against the price it replaced")


def cuts_gt(cuts: pl.DataFrame) -> GT:
    """The cuts table: new and previous blended price, the factor, its span, per year, what the
    trend would have cut over the span, and the verdict."""
    df = cuts.with_columns(named("name", "model"), named("previous_name", "model")).select(
        "name",
        "date",
        "blended",
        "previous_name",
        "previous_since",
        "previous_blended",
        "factor",
        "days",
        "factor_per_year",
        "trend_factor_over_span",
        "verdict",
    )
    return (
        GT(df)
        .cols_label(
            name="Model",
            date="Priced",
            blended="Price",
            previous_name="Replaces",
            previous_since="Its price since",
            previous_blended="Its price",
            factor="Cut",
            days="Days",
            factor_per_year="Cut per year",
            trend_factor_over_span="Trend over the days",
            verdict="Verdict",
        )
        .tab_spanner("New", ["name", "date", "blended"])
        .tab_spanner("Previous", ["previous_name", "previous_since", "previous_blended"])
        .fmt_currency(["blended", "previous_blended"], decimals=2)
        .fmt_number(
            ["factor", "factor_per_year", "trend_factor_over_span"], n_sigfig=3, pattern="{x}x"
        )
        .fmt_date(["date", "previous_since"], date_style="iso")
    )


def tou_heatmap_chart(hourly: pl.DataFrame, model_name: str, source: str) -> alt.Chart:
    """Effective price per 1M tokens of the workload by UTC hour and weekday
    (`time_of_use.hourly_prices`); `source` (the rate card's source id) names it on the figure
    kit's source line."""
    df = hourly.with_columns(
        pl.col("day").replace_strict(DAY_NAMES).alias("weekday_name"),
        pl.lit(source).alias("source_id"),
    )
    return (
        alt.Chart(
            df,
            description=f"{model_name}: price per 1M tokens of the workload by hour (UTC) and weekday",
        )
        .mark_rect()
        .encode(
            x=alt.X("hour_utc:O", title="Hour of day (UTC)"),
            y=alt.Y("weekday_name:N", sort=list(DAY_NAMES.values()), title=None),
            color=alt.Color(
                "price_per_mtok:Q",
                title="USD per 1M tokens",
                scale=alt.Scale(scheme="oranges", zero=False),
            ),
            tooltip=[
                "weekday_name:N",
                "hour_utc:O",
                "peak:N",
                alt.Tooltip("price_per_mtok:Q", format=".3f"),
            ],
        )
        .properties(title=f"{model_name}, time-of-use price of the workload")
    )


def rises_gt(rises: pl.DataFrame) -> GT:
    """Each time-of-use rate over the flat card's (`time_of_use.rate_ratios`, CNY)."""
    return (
        GT(rises.with_columns(named("model_id", "model")))
        .cols_label(
            model_id="Model",
            card="Card",
            bucket="Tokens",
            old="Flat card",
            new="Time-of-use",
            ratio="Ratio",
        )
        .fmt_number(["old", "new"], n_sigfig=3)
        .fmt_number("ratio", n_sigfig=3, pattern="{x}x")
    )


def cny_gt(cards: pl.DataFrame) -> GT:
    """CNY rate cards converted at the month's rate, beside the USD card published with them."""
    cny = ["input_original_per_mtok", "output_original_per_mtok"]
    conv = [f"{c}_usd" for c in cny]
    pub = ["published_input_usd", "published_output_usd"]
    return (
        GT(cards)
        .cols_label(
            name="Model",
            card="Card",
            valid_from="From",
            valid_to="To",
            input_original_per_mtok="Input",
            output_original_per_mtok="Output",
            fx_month="Rate of",
            fx_per_usd="CNY per USD",
            input_original_per_mtok_usd="Input",
            output_original_per_mtok_usd="Output",
            published_input_usd="Input",
            published_output_usd="Output",
        )
        .tab_spanner("CNY per 1M tokens", cny)
        .tab_spanner("Converted, USD", conv)
        .tab_spanner("Published USD card", pub)
        .fmt_number([*cny, *conv, *pub, "fx_per_usd"], n_sigfig=3)
        .fmt(lambda m: "" if m is None else f"{m:%Y-%m}", columns="fx_month")
        .fmt_date(["valid_from", "valid_to"], date_style="iso")
        .sub_missing(missing_text="")
    )
