"""Token-price views for the chapters: first-party list prices, latest prices, their charts."""

from __future__ import annotations

from datetime import date, timedelta

import altair as alt
import polars as pl
from great_tables import GT

from analysis import prices

# Organisations shown by name in charts; the rest are grouped as "Other".
MAIN_ORGANIZATIONS = ["OpenAI", "Anthropic", "Google", "Meta", "Mistral AI", "DeepSeek"]


def organization_label() -> pl.Expr:
    """Organisation names as the sources spell them, folded to one label per developer."""
    org = pl.col("organization").fill_null("")
    folded = (
        pl.when(org.str.contains("(?i)google|deepmind"))
        .then(pl.lit("Google"))
        .when(org.str.contains("(?i)^meta"))
        .then(pl.lit("Meta"))
        .when(org.str.contains("(?i)mistral"))
        .then(pl.lit("Mistral AI"))
        .when(org.str.contains("(?i)openai"))
        .then(pl.lit("OpenAI"))
        .when(org.str.contains("(?i)anthropic"))
        .then(pl.lit("Anthropic"))
        .when(org.str.contains("(?i)deepseek"))
        .then(pl.lit("DeepSeek"))
        .otherwise(pl.lit("Other"))
    )
    return folded.alias("developer")


def first_party_list_prices(token_prices: pl.DataFrame, models: pl.DataFrame) -> pl.DataFrame:
    """First-party list prices in USD with both input and output known, one row per observation.

    Columns: model_id, name, developer, provider, date, input, output, blended 3:1 price, source.
    Sources that sampled the same price on the same day are collapsed to one row per model,
    provider and date (the median, which is the common value when they agree).
    """
    fp = token_prices.filter(
        pl.col("first_party")
        & (pl.col("price_kind") == "list")
        & (pl.col("currency") == "USD")
        & pl.col("input_usd_per_mtok").is_not_null()
        & pl.col("output_usd_per_mtok").is_not_null()
    )
    fp = fp.join(models.select("model_id", "name", "organization"), on="model_id", how="left")
    return (
        fp.with_columns(organization_label(), prices.blend().alias("blended_3to1_usd_per_mtok"))
        .group_by("model_id", "name", "developer", "provider", "date")
        .agg(
            pl.col("input_usd_per_mtok").median(),
            pl.col("output_usd_per_mtok").median(),
            pl.col("blended_3to1_usd_per_mtok").median(),
            pl.col("source_id").unique().sort().str.join(";").alias("sources"),
        )
        .sort("date", "model_id", "provider")
    )


def latest_prices(history: pl.DataFrame, window_days: int = 120) -> pl.DataFrame:
    """Each model's most recent first-party price, among models priced within `window_days` of
    the newest observation (so retired models drop out)."""
    newest = history["date"].max()
    recent = history.filter(pl.col("date") >= newest - timedelta(days=window_days))
    return recent.sort("date").group_by("model_id").last().sort("blended_3to1_usd_per_mtok")


def price_history_chart(history: pl.DataFrame, since: date | None = None) -> alt.Chart:
    """Blended first-party list price per model over time (log scale), coloured by developer."""
    df = history if since is None else history.filter(pl.col("date") >= since)
    return (
        alt.Chart(
            df,
            description="Blended (3:1) first-party list price per million tokens over time, by developer, log scale",
        )
        .mark_point(filled=True, opacity=0.7)
        .encode(
            x=alt.X("date:T", title="Date of price observation"),
            y=alt.Y(
                "blended_3to1_usd_per_mtok:Q",
                scale=alt.Scale(type="log"),
                title="USD per 1M tokens (3:1 blend, log scale)",
            ),
            color=alt.Color("developer:N", sort=[*MAIN_ORGANIZATIONS, "Other"], title="Developer"),
            tooltip=[
                "name:N",
                "provider:N",
                alt.Tooltip("date:T"),
                "input_usd_per_mtok:Q",
                "output_usd_per_mtok:Q",
                "sources:N",
            ],
        )
        .properties(title="First-party list prices of language models")
    )


def price_table(latest: pl.DataFrame, per_developer: int = 2) -> GT:
    """The cheapest and dearest current models of each main developer."""
    main = latest.filter(pl.col("developer") != "Other").sort("blended_3to1_usd_per_mtok")
    picks = pl.concat(
        [
            main.group_by("developer", maintain_order=True).head(per_developer),
            main.group_by("developer", maintain_order=True).tail(per_developer),
        ]
    ).unique(["model_id"], maintain_order=True)
    table = picks.sort("developer", "blended_3to1_usd_per_mtok").select(
        "developer",
        "name",
        "provider",
        "date",
        "input_usd_per_mtok",
        "output_usd_per_mtok",
        "blended_3to1_usd_per_mtok",
    )
    return (
        GT(table, groupname_col="developer")
        .cols_label(
            name="Model",
            provider="Sold by",
            date="Price seen",
            input_usd_per_mtok="Input",
            output_usd_per_mtok="Output",
            blended_3to1_usd_per_mtok="Blended 3:1",
        )
        .fmt_number(
            ["input_usd_per_mtok", "output_usd_per_mtok", "blended_3to1_usd_per_mtok"],
            decimals=3,
            drop_trailing_zeros=True,
        )
        .tab_spanner(
            "USD per 1M tokens",
            ["input_usd_per_mtok", "output_usd_per_mtok", "blended_3to1_usd_per_mtok"],
        )
    )


def output_input_ratio(history: pl.DataFrame) -> pl.Expr:
    return (pl.col("output_usd_per_mtok") / pl.col("input_usd_per_mtok")).alias(
        "output_input_ratio"
    )
