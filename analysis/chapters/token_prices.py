"""What the "Token prices" chapter shows: first-party list prices and what follows from them, the
spread of one open model's price across providers, and every value the prose quotes.

The computations are `analysis.methods.list_prices` and `analysis.methods.dispersion`; the
provider spread's headline share is the registry's `open-model-spread-share`, and its baseline
numbers come from the same cached result (`analysis.report.results.spread`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import polars as pl

from analysis.data.cache import cached
from analysis.methods import dispersion, list_prices, llmflation
from analysis.report import estimates, results
from analysis.report.quote import Quote, Quotes

SLUG = "token-prices"
FOREIGN_CURRENCY = "CNY"  # the prose names the one foreign currency the data hold: Chinese yuan


@dataclass(frozen=True)
class TokenPrices:
    version: str
    history: pl.DataFrame  # list_prices.first_party_list_prices: the price-history figure
    developers: list[str]  # the developers in legend order
    latest: pl.DataFrame  # list_prices.latest_prices
    picks: pl.DataFrame  # list_prices.main_developer_picks: the latest-prices table
    one: pl.DataFrame  # one model at every provider, with its kind: the providers figure
    one_name: str  # that model's name
    provider_kinds: list[str]
    sensitivity: pl.DataFrame  # dispersion.sensitivity
    by_selection: pl.DataFrame  # dispersion.by_selection: the dispersion table
    ratios: pl.DataFrame  # list_prices.ratio_by_quarter: the ratio figure
    discounts: pl.DataFrame  # list_prices.discounts (every provider counted)
    top_discounts: pl.DataFrame  # list_prices.top_discounts: the discounts table
    foreign: pl.DataFrame  # list_prices.non_usd_prices: the other-currencies table
    nominal_real: pl.DataFrame  # list_prices.nominal_and_real of a16z's series: the real figure
    real_title: str  # that figure's title
    q: Quotes


def model_name(models: pl.DataFrame, model_id: str) -> str:
    """A model's name from the `models` table (its id where the table has no name)."""
    rows = models.filter(pl.col("model_id") == model_id)
    if rows.height != 1:
        raise LookupError(f"models has {rows.height} rows for {model_id!r}, expected one")
    return rows["name"][0] or model_id


def compute(version: str | None = None) -> TokenPrices:
    """The chapter on data version `version` (None: the current one)."""
    return _compute(results.version(version))


@cache
@cached  # on disk too: the second output format, and later renders, reuse the result
def _compute(v: str) -> TokenPrices:
    token_prices, _, models = results.token_tables(v)
    claims, fx_rates, cpi = (results.table(t, v) for t in ("claims", "fx_rates", "cpi"))
    q = Quotes(SLUG)
    q["version"] = Quote(v, "text")

    # First-party list prices.
    history = list_prices.first_party_list_prices(
        token_prices, models, through=results.release_date(v)
    )
    latest = list_prices.latest_prices(history)
    cheapest, dearest = latest.row(0, named=True), latest.row(-1, named=True)
    price = list_prices.BLENDED
    q.update(
        {
            "n_observations": Quote(history.height, "count"),
            "n_models": Quote(history["model_id"].n_unique(), "count"),
            "first_seen": Quote(history["date"].min(), "month"),
            "last_seen": Quote(history["date"].max(), "month"),
            "cheapest_name": Quote(cheapest["name"], "text"),
            "cheapest_price": Quote(cheapest[price], "usd"),
            "dearest_name": Quote(dearest["name"], "text"),
            "dearest_price": Quote(dearest[price], "usd"),
            "latest_ratio": Quote(dearest[price] / cheapest[price], "number"),
        }
    )

    # One open model at many providers, and the digest's claim.
    provider_prices = dispersion.provider_prices(token_prices, models)
    widest_model, widest_month = dispersion.most_served(provider_prices)
    one = dispersion.one_model(provider_prices, widest_model, widest_month)
    one_name = model_name(models, widest_model)
    spread = results.spread(v)["blended"]
    share = estimates.estimate("open-model-spread-share", v)
    sensitivity = dispersion.sensitivity(token_prices, models, claims, data_version=v)
    openrouter = dispersion.selection_row(sensitivity, dispersion.OPENROUTER_ONLY)
    claim = claims.filter(pl.col("claim_id") == dispersion.CLAIM_ID)["claim"][0]
    q.update(
        {
            "one_month": Quote(widest_month, "month"),
            "one_model": Quote(one_name, "text"),
            "one_n": Quote(one.height, "count"),
            "one_ratio": Quote(one["x_cheapest"].max(), "number"),
            "spread_claim_text": Quote(claim, "text"),
            "spread_claim": Quote(dispersion.claim_value(claims), "stated_factor"),
            "spread_share": share,
            "spread_n": share.n_text,
            "spread_models": Quote(spread["n_models"], "count"),
            "spread_hits": Quote(spread["n_model_months_reaching"], "count"),
            "spread_hit_models": Quote(spread["n_models_reaching"], "count"),
            "spread_median": Quote(spread["ratio_median"], "number"),
            "spread_p90": Quote(spread["ratio_p90"], "number"),
            "or_month": Quote(openrouter["last_month"], "month"),
            "or_n": Quote(openrouter["n_model_months"], "count"),
            "or_hits": Quote(openrouter["n_model_months_reaching"], "count"),
            "or_median": Quote(openrouter["ratio_median"], "number"),
        }
    )

    # Output against input, discounts, other currencies.
    ratios = list_prices.ratio_by_quarter(history)
    discounts = list_prices.discounts(token_prices)
    by_kind = list_prices.discount_summary(discounts)
    foreign = list_prices.non_usd_prices(token_prices, fx_rates, models)
    q.update(
        {
            "first_ratio": Quote(ratios["median"][0], "number"),
            "first_quarter": Quote(ratios["quarter"][0], "quarter"),
            "last_ratio": Quote(ratios["median"][-1], "number"),
            "last_quarter": Quote(ratios["quarter"][-1], "quarter"),
            "batch_median": Quote(by_kind["batch input"]["median_share"], "share"),
            "n_batch_providers": Quote(by_kind["batch input"]["n_providers"], "count"),
            "cached_median": Quote(by_kind["cached input"]["median_share"], "share"),
            "n_cached_providers": Quote(by_kind["cached input"]["n_providers"], "count"),
            "n_foreign": Quote(foreign.height, "count"),
            # Which of them are the digests' own quotes (claims) and which published rate cards.
            "n_foreign_digest": Quote(
                foreign.filter(pl.col("source_id").str.starts_with("digest-")).height, "count"
            ),
            "n_foreign_cards": Quote(
                foreign.filter(~pl.col("source_id").str.starts_with("digest-")).height, "count"
            ),
            "latest_fx": Quote(list_prices.last_rate_month(fx_rates, FOREIGN_CURRENCY), "month"),
        }
    )

    # Nominal and constant dollars, on a16z's series (the next chapter's).
    series, _ = results.a16z(v)
    nominal_real, cpi_base = list_prices.nominal_and_real(series, cpi)
    first_month = series["month"].min()
    q.update(
        {
            "inflation": Quote(list_prices.cpi_change(cpi, first_month, cpi_base), "percent"),
            "first_month": Quote(first_month, "month"),
            "cpi_base": Quote(cpi_base, "month"),
        }
    )

    # The rows the anomaly rules took out of the tables this page reads (issue 9).
    q["spread_share_with_placeholders"] = Quote(
        results.spread(v, keep=("placeholder_price",))["blended"]["share_reaching"], "share"
    )
    q["removed"] = Quote(results.removed_text(("token_prices", "benchmark_scores"), v))
    return TokenPrices(
        version=v,
        history=history,
        developers=list_prices.DEVELOPERS,
        latest=latest,
        picks=list_prices.main_developer_picks(latest),
        one=dispersion.with_provider_kind(one),
        one_name=one_name,
        provider_kinds=dispersion.PROVIDER_KINDS,
        sensitivity=sensitivity,
        by_selection=dispersion.by_selection(sensitivity),
        ratios=ratios,
        discounts=discounts,
        top_discounts=list_prices.top_discounts(discounts),
        foreign=foreign,
        nominal_real=nominal_real,
        real_title=f"Cheapest model with MMLU >= {llmflation.A16Z_THRESHOLD:g}",
        q=q,
    )
