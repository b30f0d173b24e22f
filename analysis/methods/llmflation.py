"""a16z's "LLMflation" (Appenzeller, November 2024): the cheapest capable model, month by month.

For each month, the cheapest model scoring at least 42 on MMLU, its price blended 1:1 (input and
output tokens weighted equally); then a log-linear trend through the monthly minima. a16z
reported about 10x per year: $60 per million tokens for GPT-3 in November 2021 to $0.06 for
Llama 3.2 3B in November 2024.

Rules used here (each is a choice the chapter states):

- Prices: `token_prices` list prices in USD at the base context tier, above zero (free tiers are
  not a price). tokencost-yaml is left out by default: it rounds prices to $0.10 per 1M tokens,
  as coarse as the minima being measured (its one snapshot, January 2024, would set that month's
  minimum at a rounded $0.10). The 1:1 blend comes from input and output where both are known,
  else from the source's blend when that is 1:1 (`prices.blended_price`).
- Rows with only another blend (Epoch's 2021-2025 rows are 3:1 blends only) follow
  `other_blends`: "single-price" (default) keeps them only for models the data shows at one price
  for input and output (every row of the model with both prices has them equal), for which every
  blend equals the 1:1 price, e.g. GPT-3 davinci; "stand-in" keeps them all as an approximation
  of the 1:1 price (a 3:1 blend is below the 1:1 blend whenever output costs more than input);
  "drop" leaves them out.
- MMLU: a model qualifies if any source gives it MMLU >= threshold; the highest score wins when
  sources disagree, and its source is reported.
- In force: a row counts for a month if it began on or before the month's last day and was still
  in force on or after its first day. A row is in force from `date` to `last_seen` where the
  source gives it; else to the day before the next row of the same model, provider, source and
  price kind (a later price change is a new observation); else to the last date its source covers.
- The cheapest row wins a month across all providers and sources (a16z's $0.06 Llama 3.2 3B was
  a third-party host's price); ties go to the model id, then the source id, alphabetically.
"""

from __future__ import annotations

import sys
from datetime import date
from typing import TextIO

import polars as pl

from analysis.methods import prices
from analysis.methods.trends import fit_log_trend

A16Z_THRESHOLD = 42.0
A16Z_START = date(2021, 11, 1)
A16Z_END = date(2024, 11, 1)
# What a16z published, for comparison next to our estimates.
A16Z_STATED = {
    "factor_per_year": 10.0,
    "start": "GPT-3, November 2021, $60 per 1M tokens",
    "end": "Llama 3.2 3B, November 2024, $0.06 per 1M tokens",
}
OTHER_BLENDS = ("single-price", "stand-in", "drop")
# Sources whose price resolution is too coarse for a minimum (see the module docstring).
COARSE_SOURCES = ("tokencost-yaml",)
# A price row is one quote of one model by one seller in one source.
QUOTE_KEY = [
    "model_id",
    "provider",
    "source_id",
    "price_kind",
    "context_tier",
    "source_model_name",
]
SERIES_COLUMNS = [
    "month",
    "model_id",
    "price",
    "source",
    "provider",
    "basis",
    "observed",
    "in_force_until",
    "mmlu",
    "mmlu_source",
]


def qualifying_models(
    benchmark_scores: pl.DataFrame, threshold: float = A16Z_THRESHOLD, benchmark: str = "mmlu"
) -> pl.DataFrame:
    """Models with `benchmark` >= threshold in any source: (model_id, mmlu, mmlu_source).

    The highest score across sources is kept with the source that gives it (ties: source id
    order), so a model qualifies whenever any source puts it at or above the threshold.
    """
    return (
        benchmark_scores.filter(pl.col("benchmark") == benchmark)
        .sort(["model_id", "score", "source_id"], descending=[False, True, False])
        .group_by("model_id", maintain_order=True)
        .first()
        .filter(pl.col("score") >= threshold)
        .select("model_id", pl.col("score").alias("mmlu"), pl.col("source_id").alias("mmlu_source"))
    )


def single_priced_models(token_prices: pl.DataFrame) -> pl.Series:
    """Models whose every row with both prices has input == output (and there is such a row)."""
    both = token_prices.filter(
        pl.col("input_usd_per_mtok").is_not_null() & pl.col("output_usd_per_mtok").is_not_null()
    )
    return (
        both.group_by("model_id")
        .agg((pl.col("input_usd_per_mtok") == pl.col("output_usd_per_mtok")).all().alias("one"))
        .filter("one")["model_id"]
        .sort()
    )


def in_force_until() -> pl.Expr:
    """Last day a row's price is taken to hold: last_seen, else the day before the next row of
    the same quote, else the last date its source covers."""
    next_row = pl.col("date").shift(-1).over(QUOTE_KEY, order_by="date")
    source_end = pl.coalesce("last_seen", "date").max().over("source_id")
    return pl.coalesce(pl.col("last_seen"), next_row - pl.duration(days=1), source_end).alias(
        "in_force_until"
    )


def quoted_prices(
    token_prices: pl.DataFrame,
    ratio: tuple[float, float] = prices.A16Z_BLEND,
    other_blends: str = "single-price",
    exclude_sources: tuple[str, ...] = COARSE_SOURCES,
) -> pl.DataFrame:
    """One blended USD price per list-price row, with the span it was in force and its basis."""
    if other_blends not in OTHER_BLENDS:
        raise ValueError(f"other_blends must be one of {OTHER_BLENDS}, got {other_blends!r}")
    label = f"{ratio[0]:g}:{ratio[1]:g}"
    direct = prices.blended_price(ratio)
    other = pl.col("blended_usd_per_mtok").is_not_null() & pl.col("blend").is_in(
        [b for b in ("3:1", "1:1") if b != label]
    )
    one_price = pl.col("model_id").is_in(single_priced_models(token_prices).implode())
    keep_other = {
        "single-price": other & one_price,
        "stand-in": other,
        "drop": pl.lit(False),
    }[other_blends]
    basis = (
        pl.when(direct.is_not_null())
        .then(pl.lit(f"{label} blend"))
        .when(keep_other & one_price)
        .then(pl.format("{} blend of a single-priced model (= {})", pl.col("blend"), pl.lit(label)))
        .when(keep_other)
        .then(pl.format("{} blend as stand-in for {}", pl.col("blend"), pl.lit(label)))
    )
    base = token_prices.filter(
        (pl.col("price_kind") == "list")
        & pl.col("context_tier").fill_null("").eq("")
        & ~pl.col("source_id").is_in(list(exclude_sources))
    )
    return (
        base.with_columns(in_force_until())
        .with_columns(
            pl.coalesce(direct, pl.when(keep_other).then(pl.col("blended_usd_per_mtok"))).alias(
                "price"
            ),
            basis.alias("basis"),
        )
        .filter(pl.col("price") > 0)
        .select("model_id", "provider", "source_id", "date", "in_force_until", "price", "basis")
    )


def monthly_minimum(
    token_prices: pl.DataFrame,
    benchmark_scores: pl.DataFrame,
    threshold: float = A16Z_THRESHOLD,
    ratio: tuple[float, float] = prices.A16Z_BLEND,
    *,
    other_blends: str = "single-price",
    exclude_sources: tuple[str, ...] = COARSE_SOURCES,
    through: date | None = None,
) -> pl.DataFrame:
    """For each month, the cheapest price in force of a model with MMLU >= threshold.

    Columns: month, model_id, price (USD per 1M tokens, blended `ratio`), source (source id),
    then provider, basis (how the price was blended), observed (the row's date), in_force_until,
    mmlu and mmlu_source. Months with no qualifying price in force are absent; months after
    `through` (e.g. the data version's date: some sources list scheduled prices) are dropped.
    """
    quotes = quoted_prices(token_prices, ratio, other_blends, exclude_sources).join(
        qualifying_models(benchmark_scores, threshold), on="model_id", how="inner"
    )
    by_month = quotes.with_columns(
        pl.date_ranges(prices.month_of("date"), prices.month_of("in_force_until"), "1mo").alias(
            "month"
        )
    ).explode("month")
    # A row whose last day precedes its first (a source error) spans no month.
    by_month = by_month.drop_nulls("month")
    if through is not None:
        by_month = by_month.filter(pl.col("month") <= through)
    return (
        by_month.sort(
            ["month", "price", "model_id", "source_id", "provider", "date"], maintain_order=True
        )
        .group_by("month", maintain_order=True)
        .first()
        .rename({"source_id": "source", "date": "observed"})
        .select(SERIES_COLUMNS)
    )


def a16z_fit(
    series: pl.DataFrame,
    start: date | None = A16Z_START,
    end: date | None = A16Z_END,
    *,
    window: str | None = None,
) -> dict:
    """Log-linear trend through the monthly minima from `start` to `end` months (inclusive; None
    = the series' own ends), as a decline factor per year with a 90% t-interval.

    Also the endpoint factor, (first price / last price) ** (1 / years), which is how a16z's
    "10x per year" reads ($60 to $0.06 over three years). The minima form a step series (one
    price holds for months), so residuals are autocorrelated and the OLS interval is narrower
    than the data warrant: it describes the fit, not the uncertainty of the trend.
    """
    s = series.sort("month")
    if start is not None:
        s = s.filter(pl.col("month") >= start)
    if end is not None:
        s = s.filter(pl.col("month") <= end)
    label = window or f"{start or 'first'}..{end or 'last'}"
    fit = fit_log_trend(
        s["month"].to_list(),
        s["price"].to_list(),
        method=f"a16z LLMflation trend ({label})",
    )
    first, last = s.row(0, named=True), s.row(-1, named=True)
    years = (last["month"] - first["month"]).days / 365
    months_spanned = (last["month"].year - first["month"].year) * 12 + (
        last["month"].month - first["month"].month
    )
    return {
        "window": label,
        "start_month": first["month"],
        "end_month": last["month"],
        "n": fit.n,
        "months_without_price": months_spanned + 1 - fit.n,
        "factor_per_year": fit.factor_per_year,
        "ci90_low": fit.ci90_low,
        "ci90_high": fit.ci90_high,
        "r_squared": fit.r_squared,
        "first_model": first["model_id"],
        "first_price": first["price"],
        "last_model": last["model_id"],
        "last_price": last["price"],
        "endpoint_factor_per_year": (first["price"] / last["price"]) ** (1 / years),
    }


def reproduce_a16z(
    token_prices: pl.DataFrame,
    scores: pl.DataFrame,
    *,
    through: date,
    data_version: str | None = None,
) -> tuple[pl.DataFrame, dict]:
    """a16z's method on one release's tables (prices up to `through`, the release date).

    Returns the monthly series (default rule: other blends only for single-priced models) and a
    dict with the data version, the fits on a16z's window (2021-11..2024-11) and on the full data
    window, the same two fits with Epoch's 3:1 rows as stand-ins for the 1:1 price (the
    sensitivity of the 2021-2023 months), and a16z's stated figures.
    """
    series = monthly_minimum(token_prices, scores, through=through)
    stand_in = monthly_minimum(token_prices, scores, other_blends="stand-in", through=through)
    fits = {
        "data_version": data_version,
        "a16z_window": a16z_fit(series, A16Z_START, A16Z_END, window="a16z window"),
        "full_window": a16z_fit(series, None, None, window="full data"),
        "a16z_window_stand_in": a16z_fit(
            stand_in, A16Z_START, A16Z_END, window="a16z window, 3:1 stand-ins"
        ),
        "full_window_stand_in": a16z_fit(stand_in, None, None, window="full data, 3:1 stand-ins"),
        "a16z_stated": A16Z_STATED,
    }
    return series, fits


def fits_table(fits: dict) -> pl.DataFrame:
    """The fits of `reproduce_a16z` as one row each, with the data version (for a table)."""
    rows = [f for f in fits.values() if isinstance(f, dict) and "factor_per_year" in f]
    rows = [r for r in rows if "window" in r]
    return pl.DataFrame(rows).with_columns(pl.lit(fits["data_version"]).alias("data_version"))


def write_reproduction(
    series: pl.DataFrame, fits: dict, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """CLI body: the monthly series as CSV on `out`, one summary line per fit on `err` (by
    default the streams current at the call, so a redirect or capture of them holds)."""
    out, err = out or sys.stdout, err or sys.stderr
    series.write_csv(out, date_format="%Y-%m-%d")
    stated = fits["a16z_stated"]["factor_per_year"]
    print(f"data version {fits['data_version']}; a16z stated about {stated:g}x per year", file=err)
    for f in fits_table(fits).iter_rows(named=True):
        print(
            f"{f['window']}: {f['start_month']:%Y-%m}..{f['end_month']:%Y-%m}, n={f['n']} months, "
            f"{f['factor_per_year']:.2f}x per year (90% CI {f['ci90_low']:.2f}-"
            f"{f['ci90_high']:.2f}); endpoints {f['endpoint_factor_per_year']:.2f}x per year",
            file=err,
        )
    return 0


def trend_line(series: pl.DataFrame, fit: dict) -> pl.DataFrame:
    """The fitted trend of `a16z_fit` over its window, as two points (month, price).

    The fit keeps the factor, not the intercept: an OLS line passes through the means, so the
    fitted slope is anchored at the window's mean date and mean log price.
    """
    start, end = fit["start_month"], fit["end_month"]
    slope = pl.Series([fit["factor_per_year"]]).log(10)[0] / 365
    window = series.filter(pl.col("month").is_between(start, end))
    centre_day = sum(d.toordinal() for d in window["month"]) / window.height
    centre_log = window["price"].log(10).mean()
    return pl.DataFrame({"month": [start, end]}).with_columns(
        pl.col("month")
        .map_elements(
            lambda d: 10 ** (centre_log - slope * (d.toordinal() - centre_day)),
            return_dtype=pl.Float64,
        )
        .alias("price")
    )
