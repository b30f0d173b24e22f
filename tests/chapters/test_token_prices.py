"""The token-prices chapter: what its prose prints.

Each quote is checked against an independent derivation where one is cheap: the registry's
estimate, the dispersion method run directly under the selection the prose names, a hand
calculation on the released tables (CPI, exchange rates, the latest prices). Then the page itself:
every `{python} ...` in the .qmd names a quote, every quote is printed, the setup cell is a few
lines, and a few quotes read as the page prints them.
"""

from __future__ import annotations

from datetime import timedelta

import polars as pl
import pytest

from analysis.chapters import token_prices as chapter
from analysis.methods import dispersion, llmflation
from analysis.methods import list_prices as lp
from analysis.report import estimates, results

PINNED = "2026-11-30"  # the release the exact-text examples were read from


@pytest.fixture(scope="module")
def c() -> chapter.TokenPrices:
    return chapter.compute()


@pytest.fixture(scope="module")
def tables() -> dict[str, pl.DataFrame]:
    names = ["token_prices", "models", "claims", "fx_rates", "cpi"]
    return {name: results.table(name) for name in names}


# The frames the page's folded cells draw, made by the same method calls.


@pytest.fixture(scope="module")
def history(tables) -> pl.DataFrame:
    through = results.release_date()
    return lp.first_party_list_prices(tables["token_prices"], tables["models"], through=through)


@pytest.fixture(scope="module")
def one(tables) -> tuple[pl.DataFrame, str]:
    pp = dispersion.provider_prices(tables["token_prices"], tables["models"])
    model_id, month = dispersion.most_served(pp)
    frame = dispersion.with_provider_kind(dispersion.one_model(pp, model_id, month))
    return frame, lp.model_name(tables["models"], model_id)


# --- the page -----------------------------------------------------------------------------------


def test_compute_is_cached_per_version(c):
    assert chapter.compute() is c
    assert chapter.compute(results.version()) is c


# --- first-party list prices --------------------------------------------------------------------


def test_observations_and_the_cheapest_and_dearest_current_models(c, history):
    h = history
    assert (c.q.n_observations.value, c.q.n_models.value) == (h.height, h["model_id"].n_unique())
    assert (c.q.first_seen.value, c.q.last_seen.value) == (h["date"].min(), h["date"].max())
    # On sale at the end: priced within the window before the newest observation.
    recent = h.filter(pl.col("date") >= h["date"].max() - timedelta(days=lp.LATEST_WINDOW_DAYS))
    newest = recent.sort("date").group_by("model_id").last()
    # Ties go to the alphabetically first id at either end.
    cheapest = newest.sort(lp.BLENDED, "model_id").row(0, named=True)
    dearest = newest.sort(lp.BLENDED, "model_id", descending=[True, False]).row(0, named=True)
    assert (c.q.cheapest_name.value, c.q.cheapest_price.value) == (
        cheapest["name"],
        cheapest[lp.BLENDED],
    )
    assert (c.q.dearest_name.value, c.q.dearest_price.value) == (
        dearest["name"],
        dearest[lp.BLENDED],
    )
    assert c.q.latest_ratio.value == pytest.approx(dearest[lp.BLENDED] / cheapest[lp.BLENDED])


def test_history_rows_are_first_party_usd_list_prices(history, tables):
    tp = tables["token_prices"]
    kept = tp.filter(
        pl.col("first_party"),
        pl.col("price_kind") == "list",
        pl.col("currency") == "USD",
        pl.col("input_usd_per_mtok") > 0,  # a zero list price is a free route, not a price
        pl.col("output_usd_per_mtok") > 0,
        pl.col("date") <= results.release_date(),  # scheduled prices are not yet in force
    )
    assert history.height == kept.select("model_id", "provider", "date").n_unique()
    assert set(history["developer"]) <= set(lp.DEVELOPERS)


# --- one open model, many prices ----------------------------------------------------------------


def test_the_widest_served_model_and_its_spread(c, tables, one):
    frame, one_name = one
    pp = dispersion.provider_prices(tables["token_prices"], tables["models"])
    newest = pp.filter(pl.col("month") == pp["month"].max())
    counts = newest.group_by("model_id").len().sort(["len", "model_id"], descending=[True, False])
    model_id, n = counts.row(0)
    assert c.q.one_month.value == pp["month"].max()
    assert c.q.one_n.value == n == frame.height
    names = tables["models"].filter(pl.col("model_id") == model_id)["name"]
    assert c.q.one_model.value == one_name == names[0]  # a name from the models table
    prices = newest.filter(pl.col("model_id") == model_id)[lp.BLENDED]
    assert c.q.one_ratio.value == pytest.approx(prices.max() / prices.min())
    assert set(frame["kind"]) <= set(dispersion.PROVIDER_KINDS)


def test_the_page_says_which_sellers_of_the_one_model_no_source_names(c, one):
    """The chart labels each seller by name (provider_names.csv, developers.csv); a seller with no
    row there is shown by its id, and the page names each such one: in the latest release
    nscale and hyperbolic (seen as ids in the chart's screenshot, issue 24)."""
    from analysis.data import lookup, providers

    frame, _ = one
    listed = {r["provider"] for r in lookup.read("provider_names")}
    listed |= {r["developer"] for r in lookup.read("developers")}
    listed |= {offer for offer, seller in providers.SELLERS.items() if seller in listed}
    by_id = sorted(set(frame["provider"]) - listed)
    assert by_id, "every seller is named: the note says so instead"
    text = c.q.one_unnamed.text
    assert text.startswith("No source the book reads names the provider")
    assert all(f" {p}" in text for p in by_id), (by_id, text)


def test_spread_share_is_the_registry_estimate(c):
    e = estimates.estimate("open-model-spread-share")
    assert c.q.spread_share == e
    assert c.q.spread_n.value == e.n


def test_spread_numbers_are_the_baseline_claim_check(c, tables):
    tp, models, claims = tables["token_prices"], tables["models"], tables["claims"]
    threshold = claims.filter(pl.col("claim_id") == dispersion.CLAIM_ID)["value"][0]
    assert c.q.spread_claim.value == threshold
    claim_text = claims.filter(pl.col("claim_id") == dispersion.CLAIM_ID)["claim"][0]
    assert c.q.spread_claim_text.value == claim_text
    s = dispersion.spreads(dispersion.provider_prices(tp, models))
    both = s.filter(pl.col("blended_n_providers") >= 2)
    hits = both.filter(pl.col("blended_ratio") >= threshold)
    assert c.q.spread_share.n == both.height
    assert c.q.spread_models.value == both["model_id"].n_unique()
    assert c.q.spread_hits.value == hits.height
    assert c.q.spread_hit_models.value == hits["model_id"].n_unique()
    assert c.q.spread_share.value == pytest.approx(hits.height / both.height)
    assert c.q.spread_median.value == pytest.approx(both["blended_ratio"].median())


def test_openrouter_numbers_are_that_selection_run_directly(c, tables):
    tp, models, claims = tables["token_prices"], tables["models"], tables["claims"]
    pp = dispersion.provider_prices(tp, models, dispersion.OPENROUTER_ONLY)
    assert set(pp["sources"].str.split(";").explode()) == {"openrouter-sui414"}
    check = dispersion.claim_check(dispersion.spreads(pp), dispersion.claim_value(claims))
    assert c.q.or_n.value == check["n_model_months"]
    assert c.q.or_hits.value == check["n_model_months_reaching"]
    assert c.q.or_median.value == pytest.approx(check["ratio_median"])
    assert c.q.or_month.value == check["last_month"]
    sensitivity = dispersion.sensitivity(tp, models, claims, data_version=results.version())
    by_selection = dispersion.by_selection(sensitivity)
    assert by_selection["selection"].to_list() == [v.label for v in dispersion.VARIANTS]


# --- ratios, discounts, currencies, constant dollars --------------------------------------------


def test_first_and_last_quarters_of_the_output_input_ratio(c, history):
    h = history.with_columns(
        (pl.col("output_usd_per_mtok") / pl.col("input_usd_per_mtok")).alias("r"),
        pl.col("date").dt.truncate("3mo").alias("quarter"),
    ).filter(pl.col("r").is_finite())
    first, last = h["quarter"].min(), h["quarter"].max()
    assert (c.q.first_quarter.value, c.q.last_quarter.value) == (first, last)
    assert c.q.first_ratio.value == h.filter(pl.col("quarter") == first)["r"].median()
    assert c.q.last_ratio.value == h.filter(pl.col("quarter") == last)["r"].median()


def test_discount_medians_are_over_providers_with_enough_models(c, tables):
    tp = tables["token_prices"].filter(
        pl.col("price_kind") == "list",
        pl.col("currency") == "USD",
        pl.col("input_usd_per_mtok") > 0,
        pl.col("batch_input_usd_per_mtok").is_not_null(),
    )
    per_provider = (
        tp.with_columns(
            (pl.col("batch_input_usd_per_mtok") / pl.col("input_usd_per_mtok")).alias("s")
        )
        .group_by("provider")
        .agg(pl.col("s").median(), pl.col("model_id").n_unique().alias("models"))
        .filter(pl.col("models") >= lp.MIN_DISCOUNT_MODELS)
    )
    assert c.q.n_batch_providers.value == per_provider.height
    assert c.q.batch_median.value == pytest.approx(per_provider["s"].median())
    discounts = lp.discounts(tables["token_prices"])
    cached = discounts.filter(pl.col("discount") == "cached input")
    assert c.q.n_cached_providers.value == cached.height
    top = lp.top_discounts(discounts)
    assert top.group_by("discount").len()["len"].max() <= lp.DISCOUNTS_PER_KIND


def test_foreign_prices_and_the_end_of_the_rate_series(c, tables):
    tp, fx = tables["token_prices"], tables["fx_rates"]
    foreign = tp.filter(pl.col("currency") != "USD")
    assert c.q.n_foreign.value == foreign.height
    assert set(foreign["currency"]) == {chapter.FOREIGN_CURRENCY}  # the prose names the yuan
    assert c.q.latest_fx.value == fx.filter(pl.col("currency") == "CNY")["month"].max()
    converted = lp.non_usd_prices(tp, fx, tables["models"])
    assert converted.height == foreign.height
    assert (converted["fx_month"] <= c.q.latest_fx.value).all()
    # "n from DeepSeek's rate cards and m reported by the news digests": the digests' quotes
    # name no token kind; the cards price input and output separately.
    digest = foreign.filter(pl.col("source_id").str.starts_with("digest-"))
    cards = foreign.filter(~pl.col("source_id").str.starts_with("digest-"))
    assert (c.q.n_foreign_digest.value, c.q.n_foreign_cards.value) == (digest.height, cards.height)
    assert digest["input_original_per_mtok"].null_count() == digest.height
    assert cards["input_original_per_mtok"].null_count() == 0
    assert cards["output_original_per_mtok"].null_count() == 0


def test_inflation_is_the_cpi_ratio_over_a16zs_months(c, tables):
    cpi = tables["cpi"]
    series, _ = results.a16z()
    start, base = series["month"].min(), cpi["month"].max()
    value = {m: v for m, v in zip(cpi["month"], cpi["cpi_u"], strict=True)}
    assert (c.q.first_month.value, c.q.cpi_base.value) == (start, base)
    assert c.q.inflation.value == pytest.approx(value[base] / value[start] - 1)
    assert f"Cheapest model with MMLU >= {llmflation.A16Z_THRESHOLD:g}" == chapter.REAL_TITLE


# --- as the page prints them --------------------------------------------------------------------


def test_quotes_read_in_the_house_format_on_the_pinned_release():
    q = chapter.compute(PINNED).q
    assert (q.cheapest_name.text, q.cheapest_price.text) == ("Ministral 3B", "$0.040")
    assert (q.dearest_name.text, q.dearest_price.text) == ("o1-pro", "$262")
    assert q.latest_ratio.text == "6,562"
    assert (q.one_ratio.text, q.spread_median.text, q.spread_p90.text) == ("6.92", "2.80", "17.0")
    assert (q.spread_claim.text, q.spread_share.text, q.spread_n.text) == ("9x", "21%", "1,519")
    assert (q.first_quarter.text, q.first_ratio.text) == ("2024 Q1", "2.00")
    assert (q.batch_median.text, q.inflation.text) == ("50%", "21%")
    assert (q.first_month.text, q.cpi_base.text) == ("November 2021", "May 2026")
    assert q.cheapest_price._repr_markdown_() == r"\$0.040"
