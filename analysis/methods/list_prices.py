"""First-party list prices: each model's price at its developer's own API, and what follows from it.

The token-prices chapter's computations: the history of first-party list prices (3:1 blend, one
row per model, provider and date), the models on sale at the end of the data, the output-to-input
price ratio by quarter, cached and batch discounts, prices quoted in other currencies, and a price
series in nominal and constant dollars. Every function takes frames shaped like the data tables
and returns frames; nothing here loads data or draws.
"""

from __future__ import annotations

from datetime import date, timedelta

import polars as pl

from analysis.methods import prices

# Developers shown by name; the rest are grouped as OTHER.
MAIN_ORGANIZATIONS = ["OpenAI", "Anthropic", "Google", "Meta", "Mistral AI", "DeepSeek"]
OTHER = "Other"
DEVELOPERS = [*MAIN_ORGANIZATIONS, OTHER]  # the order charts list them in

LATEST_WINDOW_DAYS = 120  # "on sale in the last months of the data": priced this close to the end
PICKS_PER_DEVELOPER = 2  # the latest-prices table: cheapest and dearest models of each developer
MIN_DISCOUNT_MODELS = 3  # discounts: providers with at least this many priced models
DISCOUNTS_PER_KIND = 8  # discounts table: providers listed per kind of discount
DISCOUNT_KINDS = ("cached input", "batch input")
MAX_FX_CARRY_MONTHS = 6  # a foreign price may use an exchange rate at most this many months old
FOREIGN_AMOUNTS = [
    "input_original_per_mtok",
    "output_original_per_mtok",
    "blended_original_per_mtok",
]
BLENDED = "blended_3to1_usd_per_mtok"


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
        .otherwise(pl.lit(OTHER))
    )
    return folded.alias("developer")


def first_party_list_prices(
    token_prices: pl.DataFrame, models: pl.DataFrame, through: date | None = None
) -> pl.DataFrame:
    """First-party list prices in USD with both input and output known, one row per observation.

    `through` (the release date) drops prices dated later: a source that lists a scheduled price
    (Gemini's 2027 tariff) gives a price not yet in force.

    Columns: model_id, name, developer, provider, date, input, output, blended 3:1 price, source.
    Sources that sampled the same price on the same day are collapsed to one row per model,
    provider and date (the median, which is the common value when they agree).
    """
    fp = token_prices.filter(
        pl.col("first_party")
        & (pl.col("price_kind") == "list")
        & (pl.col("currency") == "USD")
        # A zero list price is a free route (OpenRouter's "Free Models Router"), not a price of
        # tokens: ratios and log scales need positive prices.
        & (pl.col("input_usd_per_mtok") > 0)
        & (pl.col("output_usd_per_mtok") > 0)
    )
    if through is not None:
        fp = fp.filter(pl.col("date") <= through)
    fp = fp.join(models.select("model_id", "name", "organization"), on="model_id", how="left")
    return (
        fp.with_columns(organization_label(), prices.blend().alias(BLENDED))
        .group_by("model_id", "name", "developer", "provider", "date")
        .agg(
            pl.col("input_usd_per_mtok").median(),
            pl.col("output_usd_per_mtok").median(),
            pl.col(BLENDED).median(),
            pl.col("source_id").unique().sort().str.join(";").alias("sources"),
        )
        .sort("date", "model_id", "provider")
    )


def latest_prices(history: pl.DataFrame, window_days: int = LATEST_WINDOW_DAYS) -> pl.DataFrame:
    """Each model's most recent first-party price, among models priced within `window_days` of
    the newest observation (so retired models drop out), cheapest first."""
    newest = history["date"].max()
    recent = history.filter(pl.col("date") >= newest - timedelta(days=window_days))
    # model_id breaks ties: group_by returns groups in no fixed order.
    return recent.sort("date").group_by("model_id").last().sort(BLENDED, "model_id")


def main_developer_picks(
    latest: pl.DataFrame, per_developer: int = PICKS_PER_DEVELOPER
) -> pl.DataFrame:
    """The `per_developer` cheapest and dearest current models of each main developer (a model in
    both counts once; of equally priced models, the first ids alphabetically), by developer and
    price: the latest-prices table's rows."""
    main = latest.filter(pl.col("developer") != OTHER)
    cheapest = main.sort(BLENDED, "model_id").group_by("developer", maintain_order=True)
    dearest = main.sort(BLENDED, "model_id", descending=[True, False]).group_by(
        "developer", maintain_order=True
    )
    picks = pl.concat([cheapest.head(per_developer), dearest.head(per_developer)]).unique(
        ["model_id"], maintain_order=True
    )
    return picks.sort("developer", BLENDED, "name").select(
        "developer",
        "name",
        "provider",
        "date",
        "input_usd_per_mtok",
        "output_usd_per_mtok",
        BLENDED,
    )


def ratio_by_quarter(history: pl.DataFrame) -> pl.DataFrame:
    """Output-to-input price ratio of first-party list prices: median and quartiles per quarter,
    with the `sources` of the rows that have both prices (the ones counted)."""
    counted = history.with_columns(
        (pl.col("output_usd_per_mtok") / pl.col("input_usd_per_mtok")).alias("ratio"),
        pl.col("date").dt.truncate("3mo").alias("quarter"),
    ).filter(pl.col("ratio").is_finite())
    return (
        counted.group_by("quarter")
        .agg(
            pl.col("ratio").median().alias("median"),
            pl.col("ratio").quantile(0.25).alias("q25"),
            pl.col("ratio").quantile(0.75).alias("q75"),
            pl.len().alias("n"),
            *prices.joined_sources(counted),
        )
        .sort("quarter")
    )


def discounts(token_prices: pl.DataFrame, min_models: int = MIN_DISCOUNT_MODELS) -> pl.DataFrame:
    """Cached-input and batch prices as a share of the standard price, by provider.

    One row per provider and kind of discount with the median share and the number of priced
    models, over USD list-price rows that carry both prices; providers with fewer than
    `min_models` priced models are left out.
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
    return out.filter(pl.col("models") >= min_models).sort(
        "discount", "models", "provider", descending=[False, True, False]
    )


def top_discounts(discounts: pl.DataFrame, per_kind: int = DISCOUNTS_PER_KIND) -> pl.DataFrame:
    """The `per_kind` providers with the most priced models for each kind of discount (ties: the
    first alphabetically)."""
    return discounts.group_by("discount", maintain_order=True).head(per_kind)


def discount_summary(discounts: pl.DataFrame) -> dict[str, dict]:
    """Per kind of discount: the median over providers of their median share, and the number of
    providers."""
    out = {}
    for kind in DISCOUNT_KINDS:
        rows = discounts.filter(pl.col("discount") == kind)
        out[kind] = {"median_share": rows["median_share"].median(), "n_providers": rows.height}
    return out


def non_usd_prices(
    token_prices: pl.DataFrame,
    fx_rates: pl.DataFrame,
    models: pl.DataFrame,
    max_carry_months: int = MAX_FX_CARRY_MONTHS,
) -> pl.DataFrame:
    """Prices quoted in another currency, converted to USD at the month's rate (or the latest
    earlier rate, at most `max_carry_months` old, stated in `fx_month`)."""
    foreign = token_prices.filter(pl.col("currency") != "USD")
    out = prices.to_usd(foreign, fx_rates, FOREIGN_AMOUNTS, max_carry_months=max_carry_months)
    return out.join(models.select("model_id", "name"), on="model_id", how="left").select(
        "name",
        "provider",
        "date",
        "price_kind",
        "currency",
        *FOREIGN_AMOUNTS,
        "fx_month",
        "fx_per_usd",
        *[f"{c}_usd" for c in FOREIGN_AMOUNTS],
        "source_id",
    )


def last_rate_month(fx_rates: pl.DataFrame, currency: str) -> date:
    """The last month the exchange-rate series of `currency` covers."""
    months = fx_rates.filter(pl.col("currency") == currency)["month"]
    if months.is_empty():
        raise LookupError(f"fx_rates has no rate for {currency!r}")
    return months.max()


def nominal_and_real(
    series: pl.DataFrame, cpi: pl.DataFrame, price_col: str = "price", date_col: str = "month"
) -> tuple[pl.DataFrame, date]:
    """A price series in nominal dollars and in constant dollars of the latest CPI month.

    Returns the long frame (date, dollars, price) for a chart and the base month used.
    """
    base = cpi["month"].max()
    real = prices.constant_dollars(series, cpi, [price_col], base_month=base, date_col=date_col)
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


def cpi_change(cpi: pl.DataFrame, start: date, end: date) -> float:
    """How much consumer prices (CPI-U) rose from month `start` to month `end`, as a fraction."""

    def at(month: date) -> float:
        row = cpi.filter(pl.col("month") == month)
        if row.height != 1:
            raise LookupError(f"CPI has no single value for {month:%Y-%m} (found {row.height})")
        return row["cpi_u"][0]

    return at(end) / at(start) - 1


def model_name(models: pl.DataFrame, model_id: str) -> str:
    """A model's name from the `models` table (its id where the table has no name)."""
    rows = models.filter(pl.col("model_id") == model_id)
    if rows.height != 1:
        raise LookupError(f"models has {rows.height} rows for {model_id!r}, expected one")
    return rows["name"][0] or model_id
