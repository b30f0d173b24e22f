"""Token-price views for the chapters: first-party list prices, latest prices, their charts."""

from __future__ import annotations

from datetime import date, timedelta

import altair as alt
import polars as pl
from great_tables import GT

from analysis.figures.theme import PALETTE
from analysis.methods import prices

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


def ratio_by_quarter(history: pl.DataFrame) -> pl.DataFrame:
    """Output-to-input price ratio of first-party list prices: median and quartiles per quarter."""
    return (
        history.with_columns(
            (pl.col("output_usd_per_mtok") / pl.col("input_usd_per_mtok")).alias("ratio"),
            pl.col("date").dt.truncate("3mo").alias("quarter"),
        )
        .filter(pl.col("ratio").is_finite())
        .group_by("quarter")
        .agg(
            pl.col("ratio").median().alias("median"),
            pl.col("ratio").quantile(0.25).alias("q25"),
            pl.col("ratio").quantile(0.75).alias("q75"),
            pl.len().alias("n"),
        )
        .sort("quarter")
    )


def ratio_chart(ratios: pl.DataFrame) -> alt.LayerChart:
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


def discounts(token_prices: pl.DataFrame) -> pl.DataFrame:
    """Cached-input and batch prices as a share of the standard price, by provider.

    One row per provider with the median share and the number of priced models, over list-price
    rows that carry both prices (USD).
    """
    tp = token_prices.filter(
        (pl.col("price_kind") == "list")
        & (pl.col("currency") == "USD")
        & (pl.col("input_usd_per_mtok") > 0)
    )
    cached = tp.filter(pl.col("cached_input_usd_per_mtok").is_not_null()).with_columns(
        (pl.col("cached_input_usd_per_mtok") / pl.col("input_usd_per_mtok")).alias("share")
    )
    batch = tp.filter(pl.col("batch_input_usd_per_mtok").is_not_null()).with_columns(
        (pl.col("batch_input_usd_per_mtok") / pl.col("input_usd_per_mtok")).alias("share")
    )

    def summarise(df: pl.DataFrame, kind: str) -> pl.DataFrame:
        return df.group_by("provider").agg(
            pl.lit(kind).alias("discount"),
            pl.col("share").median().alias("median_share"),
            pl.col("model_id").n_unique().alias("models"),
        )

    out = pl.concat([summarise(cached, "cached input"), summarise(batch, "batch input")])
    return out.filter(pl.col("models") >= 3).sort("discount", "models", descending=[False, True])


def discounts_table(df: pl.DataFrame, per_kind: int = 8) -> GT:
    top = df.group_by("discount", maintain_order=True).head(per_kind)
    return (
        GT(top, groupname_col="discount")
        .cols_label(
            provider="Provider",
            median_share="Price as a share of the standard input price (median)",
            models="Models",
        )
        .fmt_percent("median_share", decimals=0)
    )


def non_usd_prices(
    token_prices: pl.DataFrame,
    fx_rates: pl.DataFrame,
    models: pl.DataFrame,
    max_carry_months: int = 6,
) -> pl.DataFrame:
    """Prices quoted in another currency, converted to USD at the month's rate (or the latest
    earlier rate, at most `max_carry_months` old, stated in `fx_month`)."""
    from analysis.methods import prices as prices_mod

    foreign = token_prices.filter(pl.col("currency") != "USD")
    amounts = ["input_original_per_mtok", "output_original_per_mtok", "blended_original_per_mtok"]
    out = prices_mod.to_usd(foreign, fx_rates, amounts, max_carry_months=max_carry_months)
    return out.join(models.select("model_id", "name"), on="model_id", how="left").select(
        "name",
        "provider",
        "date",
        "price_kind",
        "currency",
        *amounts,
        "fx_month",
        "fx_per_usd",
        *[f"{c}_usd" for c in amounts],
        "source_id",
    )


def non_usd_table(df: pl.DataFrame) -> GT:
    amounts = ["input_original_per_mtok", "output_original_per_mtok", "blended_original_per_mtok"]
    usd = [f"{c}_usd" for c in amounts]
    return (
        GT(df.drop("source_id").with_columns(pl.col("fx_month").dt.strftime("%Y-%m")))
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
        .tab_spanner("Quoted, per 1M tokens", amounts)
        .tab_spanner("USD per 1M tokens", usd)
        .fmt_number([*amounts, *usd, "fx_per_usd"], n_sigfig=3)
        .sub_missing(missing_text="")
    )


def dispersion_table(sensitivity: pl.DataFrame) -> GT:
    """How often one open model's dearest provider charges at least the claimed multiple of its
    cheapest, under each selection of prices (blended 3:1)."""
    df = sensitivity.filter(pl.col("price") == "blended").select(
        "selection",
        "n_model_months",
        "n_models",
        "n_model_months_reaching",
        "share_reaching",
        "n_models_reaching",
        "ratio_median",
        "ratio_p90",
        "ratio_max",
    )
    return (
        GT(df)
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


def nominal_and_real(
    series: pl.DataFrame, cpi: pl.DataFrame, price_col: str = "price", date_col: str = "month"
) -> tuple[pl.DataFrame, object]:
    """A price series in nominal dollars and in constant dollars of the latest CPI month.

    Returns the long frame (date, dollars, price) for a chart and the base month used.
    """
    from analysis.methods import prices as prices_mod

    base = cpi["month"].max()
    real = prices_mod.constant_dollars(series, cpi, [price_col], base_month=base, date_col=date_col)
    long = pl.concat(
        [
            real.select(
                pl.col(date_col).alias("date"),
                pl.lit("nominal").alias("dollars"),
                pl.col(price_col).alias("price"),
            ),
            real.select(
                pl.col(date_col).alias("date"),
                pl.lit(f"constant {base:%B %Y} dollars").alias("dollars"),
                pl.col(f"{price_col}_real").alias("price"),
            ),
        ]
    )
    return long, base


def nominal_real_chart(long: pl.DataFrame, title: str) -> alt.Chart:
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
