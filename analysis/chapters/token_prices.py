"""What the "Token prices" chapter's prose quotes: first-party list prices and what follows from
them, the spread of one open model's price across providers.

The page itself shows, in folded cells, how it loads the prices and draws each figure and table
(the same method calls this module makes for its quotes). The computations are `analysis.methods.list_prices` and `analysis.methods.dispersion`; the
provider spread's headline share is the registry's `open-model-spread-share`, and its baseline
numbers come from the same cached result (`analysis.report.results.spread`).
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analysis.data.cache import cached
from analysis.data.reads import memo
from analysis.methods import dispersion, list_prices, llmflation
from analysis.report import estimates, names, results
from analysis.report.quote import Quote, Quotes

SLUG = "token-prices"
FOREIGN_CURRENCY = "CNY"  # the prose names the one foreign currency the data hold: Chinese yuan


# The constant-dollar figure's title: a16z's threshold, the next chapter's series.
REAL_TITLE = f"Cheapest model with MMLU >= {llmflation.A16Z_THRESHOLD:g}"


@dataclass(frozen=True)
class TokenPrices:
    """The data version the page draws its figures and tables from, and what its prose quotes."""

    version: str
    q: Quotes


def compute(version: str | None = None) -> TokenPrices:
    """The chapter on data version `version` (None: the current one)."""
    return _compute(results.version(version))


@memo
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
    one_name = list_prices.model_name(models, widest_model)
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
            # the chart labels each seller by name; one no source names is shown by its id
            "one_unnamed": Quote(names.unnamed_note("provider", one["provider"], v), "text"),
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
    _, cpi_base = list_prices.nominal_and_real(series, cpi)
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
    return TokenPrices(version=v, q=q)
