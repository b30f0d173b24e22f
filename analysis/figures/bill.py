"""Charts and tables of "What a workload costs".

Every builder takes a frame `analysis.methods.bill` makes (`bills_frame`, a
`FixedCapabilityBill`'s steps) and only selects, labels and formats.
"""

from __future__ import annotations

import altair as alt
import polars as pl
from great_tables import GT

BUCKET_NAMES = {
    "input_per_day": "uncached input",
    "cached_input_per_day": "cached input",
    "cache_write_per_day": "cache write",
    "output_per_day": "output",
    "reasoning_per_day": "reasoning",
}


def buckets_chart(bills: pl.DataFrame) -> alt.Chart:
    """Each offer's bill per 30 days, split by token bucket, one row of bars per workload."""
    long = (
        bills.with_columns(
            # a seller with two offers of one model (e.g. a quantisation) gets two bars
            pl.when(pl.col("offer") == "")
            .then(pl.format("{} ({})", "model_id", "provider"))
            .otherwise(pl.format("{} ({}, {})", "model_id", "provider", "offer"))
            .alias("offer_name")
        )
        .unpivot(
            index=["workload", "offer_name"],
            on=list(BUCKET_NAMES),
            variable_name="bucket",
            value_name="bucket_per_day",
        )
        .with_columns(
            pl.col("bucket").replace_strict(BUCKET_NAMES),
            (pl.col("bucket_per_day") * 30).alias("per_30_days"),
        )
        .filter(pl.col("per_30_days") > 0)
    )
    present = [b for b in BUCKET_NAMES.values() if b in set(long["bucket"])]
    return (
        alt.Chart(
            long,
            description="Each offer's bill per 30 days for three workloads, split by token bucket",
        )
        .mark_bar()
        .encode(
            y=alt.Y("offer_name:N", title=None, sort="-x"),
            x=alt.X("sum(per_30_days):Q", title="USD per 30 days"),
            color=alt.Color(
                "bucket:N",
                title="Token bucket",
                scale=alt.Scale(domain=present),
            ),
            row=alt.Row(
                "workload:N", title=None, header=alt.Header(labelAngle=0, labelAlign="left")
            ),
            tooltip=["offer_name:N", "bucket:N", alt.Tooltip("per_30_days:Q", format=",.0f")],
        )
        .resolve_scale(x="independent", y="independent")
        .properties(width=420, title="What each workload costs a month, by token bucket")
    )


def fixed_capability_chart(steps: pl.DataFrame, workload: str, threshold_model: str) -> alt.Chart:
    """The workload's bill per 30 days on the cheapest model reaching a fixed score, log scale."""
    df = steps.with_columns((pl.col("per_day") * 30).alias("per_30_days"))
    return (
        alt.Chart(
            df,
            description=f"The {workload} workload's monthly bill at {threshold_model}'s GPQA Diamond score, log scale",
        )
        .mark_line(point=True, interpolate="step-after")
        .encode(
            x=alt.X("date:T", title=None),
            y=alt.Y("per_30_days:Q", scale=alt.Scale(type="log"), title="USD per 30 days (log)"),
            tooltip=["model:N", "date:T", alt.Tooltip("per_30_days:Q", format=",.2f")],
        )
        .properties(width=520, title=f"The {workload} at fixed capability")
    )


def bills_gt(bills: pl.DataFrame) -> GT:
    """One row per workload and offer: bill per 30 days and the output-and-reasoning share."""
    df = bills.select(
        "workload",
        "model_id",
        "provider",
        "per_30_days",
        "output_and_reasoning_share",
        "price_kinds",
    )
    return (
        GT(df, groupname_col="workload")
        .cols_label(
            model_id="Model",
            provider="Seller",
            per_30_days="Per 30 days",
            output_and_reasoning_share="Output and reasoning",
            price_kinds="Price kinds",
        )
        .fmt_currency(["per_30_days"], decimals=0)
        .fmt_percent(["output_and_reasoning_share"], decimals=0)
    )
