"""Provider dispersion: what one open-weights model costs at different inference providers.

For each open-weights model (`models.open_weights`) and month: how many providers price it, the
cheapest and dearest, their ratio and the quartiles, of the output price and of the 3:1 blended
price (`prices.blend()`). It tests the digests' claim that "the same open model can cost 9x more
on one inference provider than another" (claim `open-model-provider-spread`: its value is read
from the `claims` table, never typed).

Every function takes polars frames shaped like the data tables. Choices, stated once:

- Prices in force in a month. A `token_prices` row is in force from `date` through `last_seen`
  (sources sampled monthly give the first and last date they saw the same price); a row without
  `last_seen` is in force in the month of its date only. For each endpoint (provider id x
  source x source model name x price kind) the latest row in force in the month is its price.
- USD list prices by default (`price_kind == "list"`, `currency == "USD"`, base context tier).
  Promotional prices (OpenRouter endpoints with a discount) are a separate variant, never mixed
  in silently; off-peak and "reported" rows are never used. Price 0 rows and `:free` endpoints are
  dropped (a ratio to zero means nothing). Rows with no named provider (`unspecified`) are
  dropped.
- One price per provider, the seller. The build gives every seller one id whichever source
  spelled it (`moonshot-ai`, `moonshotai` -> `moonshot`) and folds OpenRouter's regional and
  duplicate routes into it (`analysis/data/providers.py`). A seller's separate tiers keep ids of
  their own in the data (`deepinfra-turbo`, `fireworks-fast`); here `provider_company` maps them
  to their seller (`providers.seller`, which also reads the raw slugs of data built before the
  mapping). A provider's price is its cheapest endpoint in each source (picked on the blended
  price, else the output price, so output and blend come from one endpoint), then the median
  across sources.
- Aggregators. OpenRouter's own listing (`provider == "openrouter"`) and Vercel's AI Gateway
  resell upstream providers' prices: they are dropped from a model-month where at least one
  upstream provider is priced, so no price counts twice (a variant keeps them). The Hugging Face
  router names its upstream (`huggingface-novita`, a separate offer in the data): it counts as
  that provider.
- Quantised endpoints. Where the source states the endpoint's precision (`quantization`, from
  OpenRouter's endpoint list), an endpoint is quantised when that precision is below 16 bits
  (fp8, int8, fp4, mxfp4, int4, ...; not fp32, fp16, bf16). Where it does not (every other
  source, and OpenRouter's `unknown`), the name decides: FP8/FP4/INT4/INT8/AWQ/GPTQ in the model
  name, and Together's and DeepInfra's `-Instruct-Turbo` (FP8) and `-Instruct-Lite` (INT4)
  builds. A stated 8- or 4-bit precision can be the model's own (DeepSeek V3 ships in FP8,
  gpt-oss in MXFP4): "quantised" means served below 16 bits, not necessarily cut down. Most
  endpoints state nothing, so the baseline keeps every precision and the variant without the
  quantised endpoints shows how much they matter.
- First party. The developer's own API (DeepSeek for DeepSeek V3) is one of the providers in the
  baseline; a variant counts third-party providers only.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

import polars as pl

from analysis.data import providers
from analysis.methods import prices

CLAIM_ID = "open-model-provider-spread"
PRICES = {"output": "output_usd_per_mtok", "blended": "blended_3to1_usd_per_mtok"}
NO_PROVIDER = "unspecified"

AGGREGATORS = ["openrouter", "vercel"]
# Stated precisions that are not quantised; any other stated precision is (fp8, fp4, int4, ...).
FULL_PRECISION = ["fp32", "fp16", "bf16"]
# Names that say the build is quantised, for endpoints whose source states no precision.
QUANTISED_NAME = (
    r"(?i)((^|[^a-z0-9])(fp8|fp4|nvfp4|mxfp4|int4|int8|awq|gptq|w4a16|w8a8)([^a-z0-9]|$))"
    r"|instruct-(turbo|lite)([^a-z0-9]|$)"
)

PROVIDER_PRICE_SCHEMA = {
    "model_id": pl.String,
    "month": pl.Date,
    "provider": pl.String,
    "input_usd_per_mtok": pl.Float64,
    "output_usd_per_mtok": pl.Float64,
    "blended_3to1_usd_per_mtok": pl.Float64,
    "endpoint": pl.String,
    "n_sources": pl.UInt32,
    "sources": pl.String,
    "first_party": pl.Boolean,
    "aggregator": pl.Boolean,
    "quantised": pl.Boolean,
    "promotional": pl.Boolean,
}


@dataclass(frozen=True)
class Selection:
    """Which rows count. The default is the baseline: USD list prices, every precision, first
    party included, aggregators dropped where upstream providers are priced."""

    label: str = "baseline: list prices"
    price_kinds: tuple[str, ...] = ("list",)
    quantised: bool = True
    first_party: bool = True
    aggregators: bool = False
    sources: tuple[str, ...] | None = None


BASELINE = Selection()
WITH_PROMOTIONAL = replace(
    BASELINE, label="with promotional prices", price_kinds=("list", "promotional")
)
WITHOUT_QUANTISED = replace(BASELINE, label="without quantised endpoints", quantised=False)
# The one live marketplace snapshot: OpenRouter's endpoint list.
OPENROUTER_ONLY = replace(
    BASELINE, label="OpenRouter endpoint scrape only", sources=("openrouter-sui414",)
)
VARIANTS = [
    BASELINE,
    WITH_PROMOTIONAL,
    WITHOUT_QUANTISED,
    replace(WITH_PROMOTIONAL, label="promotional in, quantised out", quantised=False),
    replace(BASELINE, label="third-party providers only", first_party=False),
    replace(BASELINE, label="aggregator listings kept", aggregators=True),
    OPENROUTER_ONLY,
]


# --- expressions -------------------------------------------------------------------------------


def provider_company() -> pl.Expr:
    """The seller behind a provider id: a separate tier's seller (`deepinfra-turbo` ->
    `deepinfra`), else the canonical id (`analysis.data.providers.seller`)."""
    return providers.seller_expr("provider").alias("company")


def is_aggregator() -> pl.Expr:
    return pl.col("provider").is_in(AGGREGATORS).alias("aggregator")


def is_quantised() -> pl.Expr:
    """True where the source states a precision below 16 bits; where it states none, where the
    endpoint's name says it serves a quantised build."""
    stated = pl.col("quantization")
    named = pl.col("source_model_name").str.contains(QUANTISED_NAME)
    below_16_bits = ~stated.str.to_lowercase().is_in(FULL_PRECISION)
    return pl.when(stated.is_not_null()).then(below_16_bits).otherwise(named).alias("quantised")


def months_in_force() -> pl.Expr:
    """The first day of every month from `date` through `last_seen` (or the date's month)."""
    start = prices.month_of("date")
    end = pl.coalesce("last_seen", "date").dt.truncate("1mo")
    return pl.date_ranges(start, pl.max_horizontal(start, end), "1mo").alias("month")


def spread_stats(price: str) -> list[pl.Expr]:
    """Aggregations over providers of one price column (e.g. "output", "blended")."""
    col = pl.col(PRICES[price])
    return [
        col.count().alias(f"{price}_n_providers"),
        col.min().alias(f"{price}_min"),
        col.quantile(0.25, interpolation="linear").alias(f"{price}_q25"),
        col.median().alias(f"{price}_median"),
        col.quantile(0.75, interpolation="linear").alias(f"{price}_q75"),
        col.max().alias(f"{price}_max"),
        (col.max() / col.min()).alias(f"{price}_ratio"),
        pl.col("provider").get(col.arg_min()).alias(f"{price}_cheapest"),
        pl.col("provider").get(col.arg_max()).alias(f"{price}_priciest"),
    ]


# --- frames ------------------------------------------------------------------------------------


def open_weights_rows(
    token_prices: pl.DataFrame, models: pl.DataFrame, selection: Selection = BASELINE
) -> pl.DataFrame:
    """Priced rows of open-weights models that `selection` counts, with company, flags, blend."""
    open_ids = models.filter(pl.col("open_weights").fill_null(False)).select("model_id")
    rows = token_prices.join(open_ids, on="model_id", how="semi").filter(
        pl.col("price_kind").is_in(list(selection.price_kinds)),
        pl.col("currency") == "USD",
        pl.col("context_tier").fill_null("") == "",
        pl.col("provider") != NO_PROVIDER,
        pl.col("output_usd_per_mtok") > 0,
        ~pl.col("source_model_name").str.ends_with(":free"),
    )
    rows = rows.with_columns(
        provider_company(),
        is_aggregator(),
        is_quantised(),
        prices.blend().alias(PRICES["blended"]),
    )
    if not selection.quantised:
        rows = rows.filter(~pl.col("quantised"))
    if not selection.first_party:
        rows = rows.filter(~pl.col("first_party"))
    if selection.sources is not None:
        rows = rows.filter(pl.col("source_id").is_in(list(selection.sources)))
    return rows


def provider_prices(
    token_prices: pl.DataFrame, models: pl.DataFrame, selection: Selection = BASELINE
) -> pl.DataFrame:
    """One price per open-weights model x month x provider (columns: `PROVIDER_PRICE_SCHEMA`).

    `endpoint` is the provider slug and model name of the cheapest endpoint in the first source
    (alphabetically); `sources` lists every source that priced the provider that month.
    """
    rows = open_weights_rows(token_prices, models, selection)
    endpoint = ["model_id", "month", "provider", "source_id", "source_model_name", "price_kind"]
    latest = (
        rows.with_columns(months_in_force())
        .explode("month")
        .sort("date")
        .group_by(endpoint, maintain_order=True)
        .last()
        .with_columns(
            pl.format("{} {}", "provider", "source_model_name").alias("endpoint"),
            (pl.col("price_kind") == "promotional").alias("promotional"),
        )
    )
    # Cheapest endpoint of each provider in each source: blend first, output where no blend.
    order = [pl.col(PRICES["blended"]).fill_null(float("inf")), PRICES["output"], "endpoint"]
    cols = ["input_usd_per_mtok", *PRICES.values(), "endpoint", "quantised", "promotional"]
    per_source = (
        latest.sort(order)
        .group_by("model_id", "month", "company", "source_id", maintain_order=True)
        .agg(
            *[pl.col(c).first() for c in cols],
            pl.col("first_party").any(),
            pl.col("aggregator").all(),
        )
    )
    per_provider = (
        per_source.sort("source_id")
        .group_by("model_id", "month", "company")
        .agg(
            *[pl.col(c).median() for c in ["input_usd_per_mtok", *PRICES.values()]],
            pl.col("endpoint").first(),
            pl.len().alias("n_sources"),
            pl.col("source_id").str.join(";").alias("sources"),
            pl.col("first_party").any(),
            pl.col("aggregator").all(),
            pl.col("quantised").any(),
            pl.col("promotional").any(),
        )
        .rename({"company": "provider"})
    )
    if not selection.aggregators:
        upstream = (~pl.col("aggregator")).any().over("model_id", "month")
        per_provider = per_provider.filter(~pl.col("aggregator") | ~upstream)
    return (
        per_provider.select(list(PROVIDER_PRICE_SCHEMA))
        .cast(PROVIDER_PRICE_SCHEMA)
        .sort("model_id", "month", "provider")
    )


def spreads(provider_prices: pl.DataFrame) -> pl.DataFrame:
    """Per model and month: providers, min, quartiles, max, max/min ratio, cheapest and priciest
    provider, of the output price and of the 3:1 blend. Quartiles interpolate linearly."""
    return (
        provider_prices.sort("provider")
        .group_by("model_id", "month")
        .agg(
            pl.len().alias("n_providers"),
            *spread_stats("output"),
            *spread_stats("blended"),
        )
        .sort("model_id", "month")
    )


# --- the claim ---------------------------------------------------------------------------------


def claim_value(claims: pl.DataFrame, claim_id: str = CLAIM_ID) -> float:
    row = claims.filter(pl.col("claim_id") == claim_id)
    if row.height != 1:
        raise KeyError(f"claim {claim_id!r} not found in the claims table")
    return float(row["value"][0])


def comparable(spreads: pl.DataFrame, price: str) -> pl.DataFrame:
    """Model-months where at least two providers price `price`: the only ones with a spread."""
    return spreads.filter(pl.col(f"{price}_n_providers") >= 2)


def claim_check(
    spreads: pl.DataFrame,
    threshold: float,
    price: str = "blended",
    *,
    label: str = BASELINE.label,
    data_version: str | None = None,
) -> dict:
    """How often the max/min ratio across providers reaches `threshold`, and for which models."""
    ratio = f"{price}_ratio"
    both = comparable(spreads, price)
    hits = both.filter(pl.col(ratio) >= threshold)
    top = both.sort(ratio, descending=True).head(1)
    quantiles = {
        f"ratio_{name}": (
            float(both[ratio].quantile(q, interpolation="linear")) if both.height else None
        )
        for name, q in [("median", 0.5), ("p75", 0.75), ("p90", 0.9)]
    }
    return {
        "selection": label,
        "price": price,
        "threshold": threshold,
        "n_model_months": both.height,
        "n_models": both["model_id"].n_unique(),
        "n_model_months_reaching": hits.height,
        "share_reaching": hits.height / both.height if both.height else None,
        "n_models_reaching": hits["model_id"].n_unique(),
        "models_reaching": sorted(hits["model_id"].unique().to_list()),
        **quantiles,
        "ratio_max": float(top[ratio][0]) if top.height else None,
        "ratio_max_model": top["model_id"][0] if top.height else None,
        "ratio_max_month": top["month"][0] if top.height else None,
        "first_month": both["month"].min(),
        "last_month": both["month"].max(),
        "data_version": data_version,
    }


def sensitivity(
    token_prices: pl.DataFrame,
    models: pl.DataFrame,
    claims: pl.DataFrame,
    variants: list[Selection] = VARIANTS,
    *,
    data_version: str | None = None,
) -> pl.DataFrame:
    """The claim check under every selection, for output and blended prices: one row each."""
    threshold = claim_value(claims)
    rows = []
    for sel in variants:
        s = spreads(provider_prices(token_prices, models, sel))
        for price in PRICES:
            check = claim_check(s, threshold, price, label=sel.label, data_version=data_version)
            check["models_reaching"] = "; ".join(check["models_reaching"])
            rows.append(check)
    return pl.DataFrame(rows)


def ratio_distribution(
    spreads: pl.DataFrame, threshold: float, price: str = "blended"
) -> pl.DataFrame:
    """Model-months by ratio band, each band [low, high) (the claim's value is one edge):
    band, n, share, in band order."""
    edges = sorted({1.5, 2.0, 3.0, 5.0, threshold})
    labels = [f"< {edges[0]:g}"] + [f"{lo:g} to {hi:g}" for lo, hi in itertools.pairwise(edges)]
    labels.append(f">= {edges[-1]:g}")
    both = comparable(spreads, price)
    ratio = pl.col(f"{price}_ratio")
    # The band's index is the number of edges at or below the ratio.
    index = pl.sum_horizontal([(ratio >= e).cast(pl.Int64) for e in edges]).alias("index")
    counts = both.select(index).group_by("index").agg(pl.len().alias("n"))
    bands = pl.DataFrame({"index": range(len(labels)), "band": labels})
    return (
        bands.join(counts, on="index", how="left")
        .sort("index")
        .select("band", pl.col("n").fill_null(0))
        .with_columns((pl.col("n") / max(both.height, 1)).alias("share"))
    )


def by_month(spreads: pl.DataFrame, threshold: float, price: str = "blended") -> pl.DataFrame:
    """Per month: models with two or more providers, the median ratio, and how many reach
    `threshold`."""
    ratio = pl.col(f"{price}_ratio")
    return (
        comparable(spreads, price)
        .group_by("month")
        .agg(
            pl.len().alias("n_models"),
            ratio.median().alias("median_ratio"),
            ratio.max().alias("max_ratio"),
            (ratio >= threshold).sum().alias("n_reaching"),
        )
        .sort("month")
    )


def summary(
    token_prices: pl.DataFrame,
    models: pl.DataFrame,
    claims: pl.DataFrame,
    *,
    data_version: str | None = None,
) -> dict:
    """The headline numbers of the baseline, for prose: the claim and both price measures."""
    threshold = claim_value(claims)
    s = spreads(provider_prices(token_prices, models))
    return {
        "claim_id": CLAIM_ID,
        "claim_value": threshold,
        "output": claim_check(s, threshold, "output", data_version=data_version),
        "blended": claim_check(s, threshold, "blended", data_version=data_version),
        "data_version": data_version,
    }


# --- one model across providers ----------------------------------------------------------------


def most_served(provider_prices: pl.DataFrame, month=None) -> tuple[str, object]:
    """(model_id, month) of the open model with the most providers in `month` (default: the
    newest month); ties go to the alphabetically first model."""
    month = month or provider_prices["month"].max()
    counts = (
        provider_prices.filter(pl.col("month") == month)
        .group_by("model_id")
        .agg(pl.len().alias("n"))
        .sort(["n", "model_id"], descending=[True, False])
    )
    if counts.height == 0:
        raise ValueError(f"no provider prices in {month}")
    return counts["model_id"][0], month


def one_model(
    provider_prices: pl.DataFrame, model_id: str | None = None, month=None
) -> pl.DataFrame:
    """Chart-ready: one row per provider of one model in one month, cheapest first, with each
    price as a multiple of the cheapest (`x_cheapest`). Defaults: the most served open model in
    the newest month."""
    if model_id is None:
        model_id, month = most_served(provider_prices, month)
    month = month or provider_prices.filter(pl.col("model_id") == model_id)["month"].max()
    df = provider_prices.filter((pl.col("model_id") == model_id) & (pl.col("month") == month))
    blended = pl.col(PRICES["blended"])
    return df.sort(blended, nulls_last=True).with_columns(
        (blended / blended.min()).alias("x_cheapest")
    )


PROVIDER_KINDS = ["developer's own API", "third-party provider", "quantised build"]


def with_provider_kind(one: pl.DataFrame) -> pl.DataFrame:
    """`one_model`'s rows with `kind`, one of `PROVIDER_KINDS`: the developer's own API, a
    quantised build, else a third-party provider."""
    return one.with_columns(
        pl.when(pl.col("first_party"))
        .then(pl.lit(PROVIDER_KINDS[0]))
        .when(pl.col("quantised"))
        .then(pl.lit(PROVIDER_KINDS[2]))
        .otherwise(pl.lit(PROVIDER_KINDS[1]))
        .alias("kind")
    )


SENSITIVITY_COLUMNS = [
    "selection",
    "n_model_months",
    "n_models",
    "n_model_months_reaching",
    "share_reaching",
    "n_models_reaching",
    "ratio_median",
    "ratio_p90",
    "ratio_max",
]


def by_selection(sensitivity: pl.DataFrame, price: str = "blended") -> pl.DataFrame:
    """`sensitivity`'s rows of one price measure, one per selection: the dispersion table."""
    return sensitivity.filter(pl.col("price") == price).select(SENSITIVITY_COLUMNS)


def selection_row(sensitivity: pl.DataFrame, selection: Selection, price: str = "blended") -> dict:
    """The claim check of one selection and price measure, from `sensitivity`."""
    rows = sensitivity.filter((pl.col("price") == price) & (pl.col("selection") == selection.label))
    if rows.height != 1:
        raise LookupError(f"expected one {price} row for {selection.label!r}, found {rows.height}")
    return rows.row(0, named=True)
