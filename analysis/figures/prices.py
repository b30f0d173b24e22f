"""The token-prices chapter's charts and tables. They draw prepared frames and compute nothing:
the frames come from `analysis.methods.list_prices` and `analysis.methods.dispersion`."""

from __future__ import annotations

import altair as alt
import polars as pl
from great_tables import GT

from analysis.figures.theme import PALETTE, named

BLENDED = "blended_3to1_usd_per_mtok"
FOREIGN_AMOUNTS = [
    "input_original_per_mtok",
    "output_original_per_mtok",
    "blended_original_per_mtok",
]


def price_history_chart(history: pl.DataFrame, developers: list[str]) -> alt.Chart:
    """Blended first-party list price per model over time (log scale), coloured by developer
    (legend in the order of `developers`)."""
    return (
        alt.Chart(
            # the model by its display name (the models table's `name` is only the id of some)
            history.with_columns(
                named("provider", "provider").alias("seller"),
                named("model_id", "model").alias("model"),
            ),
            description="Blended (3:1) first-party list price per million tokens over time, by developer, log scale",
        )
        .mark_point(filled=True, opacity=0.7)
        .encode(
            x=alt.X("date:T", title="Date of price observation"),
            y=alt.Y(
                f"{BLENDED}:Q",
                scale=alt.Scale(type="log"),
                title="USD per 1M tokens (3:1 blend, log scale)",
            ),
            color=alt.Color("developer:N", sort=list(developers), title="Developer"),
            tooltip=[
                alt.Tooltip("model:N", title="Model"),
                alt.Tooltip("seller:N", title="Sold by"),
                alt.Tooltip("date:T"),
                "input_usd_per_mtok:Q",
                "output_usd_per_mtok:Q",
                "sources:N",
            ],
        )
        .properties(title="First-party list prices of language models")
    )


def latest_gt(picks: pl.DataFrame) -> GT:
    """The cheapest and dearest current models of each main developer
    (`list_prices.main_developer_picks`), grouped by developer."""
    usd = ["input_usd_per_mtok", "output_usd_per_mtok", BLENDED]
    return (
        GT(
            picks.with_columns(named("provider", "provider")),
            groupname_col="developer",
        )
        .cols_label(
            name="Model",
            provider="Sold by",
            date="Price seen",
            input_usd_per_mtok="Input",
            output_usd_per_mtok="Output",
            blended_3to1_usd_per_mtok="Blended 3:1",
        )
        .fmt_number(usd, decimals=3, drop_trailing_zeros=True)
        .tab_spanner("USD per 1M tokens", usd)
    )


def ratio_chart(ratios: pl.DataFrame) -> alt.LayerChart:
    """Median (line) and interquartile range (band) of the output-to-input price ratio by quarter
    (`list_prices.ratio_by_quarter`)."""
    band = (
        alt.Chart(ratios)
        .mark_area(opacity=0.25, color=PALETTE[0])
        .encode(
            x=alt.X("quarter:T", title="Quarter"),
            y=alt.Y("q25:Q", title="Output price / input price"),
            y2="q75:Q",
        )
    )
    line = (
        alt.Chart(ratios)
        .mark_line(point=True, color=PALETTE[0])
        .encode(
            x="quarter:T", y="median:Q", tooltip=["quarter:T", "median:Q", "q25:Q", "q75:Q", "n:Q"]
        )
    )
    return (band + line).properties(
        title="How much more output tokens cost than input tokens",
        description="Median and interquartile range of the output-to-input price ratio of first-party list prices, by quarter",
    )


def discounts_gt(discounts: pl.DataFrame) -> GT:
    """Cached and batch prices as a share of the standard input price, grouped by kind of
    discount (`list_prices.top_discounts`)."""
    return (
        GT(discounts.with_columns(named("provider", "provider")), groupname_col="discount")
        .cols_label(
            provider="Provider",
            median_share="Price as a share of the standard input price (median)",
            models="Models",
        )
        .fmt_percent("median_share", decimals=0)
    )


def non_usd_gt(foreign: pl.DataFrame) -> GT:
    """Prices quoted in another currency beside their USD conversion (`list_prices.non_usd_prices`)."""
    usd = [f"{c}_usd" for c in FOREIGN_AMOUNTS]
    return (
        GT(foreign.with_columns(named("provider", "provider")))
        .cols_hide("source_id")
        .cols_label(
            name="Model",
            provider="Provider",
            date="Date",
            price_kind="Kind",
            currency="Currency",
            input_original_per_mtok="Input",
            output_original_per_mtok="Output",
            blended_original_per_mtok="Unspecified",
            fx_month="Rate of",
            fx_per_usd="Per USD",
            input_original_per_mtok_usd="Input",
            output_original_per_mtok_usd="Output",
            blended_original_per_mtok_usd="Unspecified",
        )
        .tab_spanner("Quoted, per 1M tokens", FOREIGN_AMOUNTS)
        .tab_spanner("USD per 1M tokens", usd)
        .fmt_number([*FOREIGN_AMOUNTS, *usd, "fx_per_usd"], n_sigfig=3)
        .fmt(lambda month: "" if month is None else f"{month:%Y-%m}", columns="fx_month")
        .cols_align("left", columns="fx_month")
        .sub_missing(missing_text="")
    )


def dispersion_gt(by_selection: pl.DataFrame) -> GT:
    """How often one open model's dearest provider charges at least the claimed multiple of its
    cheapest, under each selection of prices (`dispersion.by_selection`)."""
    return (
        GT(by_selection)
        .cols_label(
            selection="Prices counted",
            n_model_months="Model-months",
            n_models="Models",
            n_model_months_reaching="Reaching the claim",
            share_reaching="Share",
            n_models_reaching="Models reaching it",
            ratio_median="Median",
            ratio_p90="90th pct",
            ratio_max="Max",
        )
        .tab_spanner("Dearest / cheapest provider", ["ratio_median", "ratio_p90", "ratio_max"])
        .fmt_percent("share_reaching", decimals=0)
        .fmt_number(["ratio_median", "ratio_p90", "ratio_max"], n_sigfig=3)
    )


def nominal_real_chart(long: pl.DataFrame, title: str) -> alt.Chart:
    """A price series in nominal and in constant dollars (`list_prices.nominal_and_real`)."""
    return (
        alt.Chart(long, description=f"{title}, in nominal and in constant dollars, log scale")
        .mark_line(interpolate="step-after")
        .encode(
            x=alt.X("date:T", title="Month"),
            y=alt.Y("price:Q", scale=alt.Scale(type="log"), title="USD per 1M tokens (log scale)"),
            color=alt.Color("dollars:N", title=None),
            strokeDash=alt.StrokeDash("dollars:N", legend=None),
            tooltip=["date:T", "dollars:N", "price:Q"],
        )
        .properties(title=title)
    )


def provider_chart(one: pl.DataFrame, model_name: str, kinds: list[str]) -> alt.Chart:
    """Blended price of one model at each provider (log scale), cheapest at the top, coloured by
    `kind` (`dispersion.with_provider_kind`; `kinds` fixes the legend, present or not)."""
    month = one["month"][0]
    ratio = one["x_cheapest"].max()
    return (
        alt.Chart(
            one.with_columns(named("provider", "provider").alias("seller")),
            description=f"Blended 3:1 list price of {model_name} at each provider in {month:%B %Y}, "
            f"log scale; the dearest is {ratio:.1f} times the cheapest",
        )
        .mark_point(filled=True, size=90)
        .encode(
            x=alt.X(
                f"{BLENDED}:Q",
                scale=alt.Scale(type="log"),
                title="USD per 1M tokens (3 input : 1 output, log scale)",
            ),
            y=alt.Y("seller:N", sort=None, title=None),
            color=alt.Color(
                "kind:N",
                title=None,
                scale=alt.Scale(domain=list(kinds)),
                legend=alt.Legend(orient="bottom"),  # beside the points it leaves the column
            ),
            tooltip=[
                alt.Tooltip("seller:N", title="Provider"),
                alt.Tooltip("input_usd_per_mtok:Q", format=".3f"),
                alt.Tooltip("output_usd_per_mtok:Q", format=".3f"),
                alt.Tooltip(f"{BLENDED}:Q", format=".3f"),
                alt.Tooltip("x_cheapest:Q", format=".2f", title="x cheapest"),
                "sources:N",
            ],
        )
        .properties(
            title={
                "text": f"{model_name}: one open model, {one.height} providers",
                "subtitle": f"{month:%B %Y}; dearest / cheapest = {ratio:.1f}",
            }
        )
    )
