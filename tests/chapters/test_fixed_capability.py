"""The chapter on the price of a fixed capability: what its prose prints.

Each quote is checked against an independent derivation where one is cheap: the method called
directly on the released tables, a hand calculation, or the figure Epoch AI or a16z published.
Then the page itself: every `{python} ...` in the .qmd names a quote the chapter computes, every
quote is printed, the setup cell is a few lines, and a few quotes read as the page prints them.
"""

from __future__ import annotations

import itertools
from datetime import date
from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest

from analysis.chapters import fixed_capability as chapter
from analysis.methods import fixed_capability as fc
from analysis.methods import llmflation, sensitivity, trends
from analysis.report import estimates, results

# The release the exact-text examples were read from: they stay true of it.
PINNED = "2026-11-30"
# What an inline expression may read: a quote, or one of an Estimate's own quotes.


@pytest.fixture(scope="module")
def c() -> chapter.FixedCapability:
    return chapter.compute()


@pytest.fixture(scope="module")
def tables() -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    return results.token_tables()


# --- the page -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def page(tables) -> SimpleNamespace:
    """The frames the page's folded cells draw, made by the same calls."""
    token_prices, scores, models = tables
    v = results.version()
    epoch = results.epoch(v, bootstrap=True)
    gpqa = results.trend_row(epoch, chapter.BENCHMARK, chapter.THRESHOLD_MODEL)
    obs = fc.epoch_observations(token_prices, scores, models, chapter.BENCHMARK)
    steps, fit = fc.staircase_fit(obs, gpqa["threshold_score"])
    series, fits = results.a16z(v)
    series_2026 = chapter.series_2026(v)
    return SimpleNamespace(
        epoch=epoch,
        gpqa=gpqa,
        gpqa_above=fc.at_or_above(obs, gpqa["threshold_score"]),
        gpqa_steps=steps,
        gpqa_fit=fit,
        a16z_series=series,
        a16z_line=llmflation.trend_line(series, fits["a16z_window"]),
        extension=results.extension(v),
        sensitivity=sensitivity.sensitivity(
            token_prices, scores, models, chapter.BENCHMARK, chapter.THRESHOLD_MODEL
        ),
        series_2026=series_2026,
        window_2026=fc.window_comparisons(series_2026, fc.epoch_window_end(token_prices)),
    )


def test_compute_is_cached_per_version(c):
    assert chapter.compute() is c
    assert chapter.compute(results.version()) is c


# --- the method's settings ----------------------------------------------------------------------


def test_settings_the_prose_states_are_the_code_s(c):
    q = c.q
    assert q.min_threshold.value == fc.MIN_THRESHOLD["mmlu"] == fc.MIN_THRESHOLD["gpqa-diamond"]
    assert q.min_threshold_benchmarks.text == "MMLU and GPQA Diamond"
    assert q.min_points.value == fc.MIN_POINTS
    # The bootstrap the trends table runs is the interval function with its default draws.
    assert q.n_boot.text == "2,000"
    assert q.a16z_threshold.value == llmflation.A16Z_THRESHOLD


# --- Epoch's table ------------------------------------------------------------------------------


def test_gpt4_level_gpqa_trend_is_the_registry_estimate_and_the_method_run_directly(
    c, tables, page
):
    q = c.q
    assert q.epoch_gpqa == estimates.estimate("epoch-gpqa-gpt4-level")
    obs = fc.epoch_observations(*tables, "gpqa-diamond")
    score = obs.filter(pl.col("model") == "GPT-4-0314")["score"].unique().item()
    direct = fc.trend(obs, "gpqa-diamond", "GPT-4-0314", score)
    assert q.gpqa_threshold.value == score
    assert q.epoch_gpqa.value == pytest.approx(direct["factor_per_year"], rel=1e-12)
    assert (q.epoch_gpqa.low, q.epoch_gpqa.high) == pytest.approx(
        (direct["ci90_low"], direct["ci90_high"]), rel=1e-12
    )
    assert q.epoch_gpqa.n == direct["n"] == page.gpqa_steps.height == page.gpqa_fit.n
    # Epoch's page states about 40x per year: the reproduction is close to it.
    assert q.stated_gpqa.value == 40
    assert 30 < q.epoch_gpqa.value < 55


def test_bootstrap_interval_is_the_pairs_bootstrap_of_the_staircase(c, page):
    steps = page.gpqa_steps
    low, high = trends.bootstrap_factor_interval(steps["date"].to_list(), steps["price"].to_list())
    assert c.q.gpqa_boot.value == pytest.approx((low, high), rel=1e-12)


def test_staircase_is_the_cheapest_so_far_above_the_threshold(c, page):
    threshold = page.gpqa["threshold_score"]
    assert (page.gpqa_above["score"] >= threshold).all()
    prices = page.gpqa_steps.sort("date")["price"].to_list()
    assert all(a > b for a, b in itertools.pairwise(prices))
    # Each step is the cheapest model at or above the threshold so far.
    for row in page.gpqa_steps.iter_rows(named=True):
        so_far = page.gpqa_above.filter(pl.col("date") <= row["date"])["price"].min()
        assert row["price"] == so_far


def test_epoch_table_range_and_median(c, page):
    factors = page.epoch["factor_per_year"].to_numpy()
    assert c.q.n_epoch_trends.value == len(factors) == page.epoch.height
    assert c.q.our_range.value == (factors.min(), factors.max())
    assert c.q.median_epoch.value == pytest.approx(np.median(factors))
    # Epoch's page says about 9x to 900x: the reproduction spans about the same.
    assert c.q.stated_range.value == (9, 900)
    low, high = c.q.our_range.value
    assert 5 < low < 15 and 500 < high < 1500


def test_most_trends_rest_on_few_points_and_the_fastest_on_the_fewest(c, page):
    fewest, most = c.q.epoch_n_most.value
    n = page.epoch["n"]
    assert fewest == n.min() >= fc.MIN_POINTS
    assert n.is_between(fewest, most).sum() >= chapter.MOST * n.len()
    assert n.is_between(fewest, most - 1).sum() < chapter.MOST * n.len()
    fastest = page.epoch.sort("factor_per_year").row(-1, named=True)
    assert fastest["n"] == fewest


# --- a16z ---------------------------------------------------------------------------------------


def test_a16z_window_starts_at_the_price_a16z_published(c, tables, page):
    q = c.q
    # a16z: GPT-3 at $60 per million tokens in November 2021.
    assert q.a16z_first_price.value == 60.0
    assert q.a16z_stated.value == 10
    models = tables[2]
    first_id = page.a16z_series.filter(pl.col("month") == llmflation.A16Z_START)["model_id"].item()
    assert q.a16z_first_model.text == models.filter(pl.col("model_id") == first_id)["name"].item()
    assert q.a16z_first_model.text != first_id  # a name, not an id


def test_a16z_endpoint_factor_by_hand(c, page):
    window = page.a16z_series.filter(
        pl.col("month").is_between(llmflation.A16Z_START, llmflation.A16Z_END)
    ).sort("month")
    first, last = window.row(0, named=True), window.row(-1, named=True)
    years = (last["month"] - first["month"]).days / 365
    assert c.q.a16z_endpoints.value == pytest.approx(
        (first["price"] / last["price"]) ** (1 / years)
    )
    assert c.q.a16z_last_price.value == last["price"]
    # November 2021 to November 2024 is 37 months; each month with a price is one point.
    assert c.q.a16z_window.n == window.height <= 37


def test_a16z_estimates_are_the_registry_s(c, page):
    assert c.q.a16z_window == estimates.estimate("a16z-a16z-window")
    assert c.q.a16z_full == estimates.estimate("a16z-full-window")
    assert c.q.a16z_full.window_end == page.a16z_series["month"].max()


def test_a16z_line_is_the_ols_fit_through_the_window(c, page):
    window = page.a16z_series.filter(
        pl.col("month").is_between(llmflation.A16Z_START, llmflation.A16Z_END)
    )
    fit = trends.fit_log_trend(window["month"].to_list(), window["price"].to_list())
    assert page.a16z_line["month"].to_list() == [llmflation.A16Z_START, llmflation.A16Z_END]
    assert page.a16z_line["price"].to_list() == pytest.approx(
        fit.line()["price"].to_list(), rel=1e-9
    )


# --- the full data, the sensitivity runs and the claim ------------------------------------------


def test_full_data_quotes(c, tables, page):
    q, factors = c.q, page.extension["factor_per_year"]
    assert q.ext_median == estimates.estimate("full-data-median-factor")
    assert q.n_extension.value == page.extension.height
    assert q.ext_median.value == pytest.approx(np.median(factors.to_numpy()))
    assert q.ext_median.window_end == page.extension["end_date"].max()
    # The middle half: its ends are the quartiles, an order statistic either side of the 25th
    # and 75th percentile positions.
    low, high = q.ext_iqr.value
    f = factors.to_numpy()
    for end, p in ((low, 0.25), (high, 0.75)):
        assert np.quantile(f, p, method="lower") <= end <= np.quantile(f, p, method="higher")
    assert q.ext_gpqa == estimates.estimate("full-data-gpqa-gpt4-level")
    with_reasoning = fc.extension_trends(*tables, include_reasoning=True)
    assert q.ext_reasoning_median.value == pytest.approx(with_reasoning["factor_per_year"].median())


def test_sensitivity_base_variant_is_the_full_data_trend(c, page):
    base = page.sensitivity.row(0, named=True)
    assert base["variant"] == "blend 3:1 input:output"
    assert base["factor_per_year"] == pytest.approx(c.q.ext_gpqa.value, rel=1e-12)
    fitted = [f for f in page.sensitivity["factor_per_year"].to_list() if f is not None]
    assert c.q.sens_range.value == (min(fitted), max(fitted))


def test_claim_is_checked_against_every_one_snapshot_interval(c):
    claims = results.table("claims")
    claim = claims.filter(pl.col("claim_id") == chapter.CLAIM_ID).row(0, named=True)
    assert c.q.claimed.value == claim["value"] and f"{claim['value']:g}x" in claim["claim"]
    assert c.q.claim_text.text == claim["claim"]
    inside = sum(
        r["ci90_low"] <= claim["value"] <= r["ci90_high"]
        for r in c.extension_2026.iter_rows(named=True)
    )
    assert c.q.n_contain.value == inside


# --- as the page prints them --------------------------------------------------------------------


def test_factors_read_in_the_house_format_on_the_pinned_release():
    q = chapter.compute(PINNED).q
    # The examples: the lower bound 4.40 printed "4x", and "11146x" with no separator.
    assert q.epoch_gpqa.ci.text == "4.40x to 401x"
    assert q.gpqa_boot.text == "15.5x to 11,146x"
    assert q.epoch_gpqa.text == "42.0x"
    # A source's own figures as it states them, and dollars in the house format.
    assert q.stated_range.text == "9x to 900x"
    assert q.claimed.text == "13x"
    assert q.a16z_first_price.text == "$60.00"
    assert q.a16z_last_price.text == "$0.055"
    assert q.n_boot.text == "2,000"
    assert q.epoch_n_most.text == "4 to 7"
    assert q.ext_median.end.text == "July 2026"


def test_model_names_reach_the_prose_escaped():
    q = chapter.compute(PINNED).q
    assert q.a16z_first_model.text == "GPT-3 175B (davinci)"
    assert q.a16z_first_model._repr_markdown_() == r"GPT-3 175B \(davinci\)"


# --- the 2026 extension: one score snapshot per series -----------------------------------------


def _export_scores_by_hand(scores: pl.DataFrame, benchmark: str, source: str) -> dict:
    """model_id -> highest score among the rows whose sources include `source`."""
    out: dict = {}
    for r in scores.filter(pl.col("benchmark") == benchmark).iter_rows(named=True):
        ids = (r["source_ids"] or r["source_id"]).split(";")
        if source in ids:
            out[r["model_id"]] = max(out.get(r["model_id"], float("-inf")), r["score"])
    return out


def test_one_snapshot_series_take_every_score_from_one_snapshot(c, tables, page):
    _, scores, _ = tables
    assert set(page.series_2026) == {
        ("aa-intelligence-index", fc.AA_SOURCE),
        ("eci", fc.HUB_2026_SOURCE),
        ("gpqa-diamond", fc.HUB_2026_SOURCE),
    }
    # The AA series: the latest snapshot's index, each model's highest setting.
    aa = results.table("aa_snapshots")
    latest = aa.filter(pl.col("snapshot_date") == aa["snapshot_date"].max())
    by_hand = {}
    for r in latest.iter_rows(named=True):
        if r["intelligence_index"] is not None:
            by_hand[r["model_id"]] = max(by_hand.get(r["model_id"], -1.0), r["intelligence_index"])
    obs = page.series_2026[("aa-intelligence-index", fc.AA_SOURCE)]
    for r in obs.unique("model").iter_rows(named=True):
        assert r["score"] == by_hand[r["model"]]
    hub = _export_scores_by_hand(scores, "gpqa-diamond", fc.HUB_2026_SOURCE)
    obs = page.series_2026[("gpqa-diamond", fc.HUB_2026_SOURCE)]
    for r in obs.unique("model").iter_rows(named=True):
        assert r["score"] == hub[r["model"]]
    # No price after the release date enters (a scheduled future price is not yet a price).
    for obs in page.series_2026.values():
        assert obs["date"].max() <= results.release_date()


def test_2026_trends_are_the_method_on_each_series(c, page):
    for (benchmark, source), obs in page.series_2026.items():
        direct = fc.trends(obs, benchmark)
        mine = c.extension_2026.filter(pl.col("score_source") == source).filter(
            pl.col("benchmark") == benchmark
        )
        assert mine["factor_per_year"].to_list() == pytest.approx(
            direct["factor_per_year"].to_list(), rel=1e-12
        )
    f = c.extension_2026["factor_per_year"].to_numpy()
    assert c.q.n_2026.value == len(f)
    assert c.q.ext26_median.value == pytest.approx(np.median(f))
    # The quartiles are order statistics (polars' nearest), as test_full_data_quotes reads them.
    for end, p in zip(c.q.ext26_iqr.value, (0.25, 0.75), strict=True):
        assert np.quantile(f, p, method="lower") <= end <= np.quantile(f, p, method="higher")


def test_epoch_table_is_untouched_by_the_new_sources(c, page):
    """The reproduction of Epoch's table reads Epoch's rows only: the same on the release before
    the new sources and on this one."""
    before = results.epoch("2026-12-01", bootstrap=True)
    assert page.epoch.select(fc.RESULT_COLUMNS).equals(before.select(fc.RESULT_COLUMNS))


def test_window_comparison_cuts_the_same_observations_at_epoch_s_last_price_date(c, tables, page):
    token_prices = tables[0]
    cutoff = token_prices.filter(pl.col("source_id") == fc.EPOCH_SOURCE)["date"].max()
    assert c.q.cutoff.value == cutoff
    w = page.window_2026
    assert (w["end_short"] <= cutoff).all() and (w["n_full"] >= w["n_short"]).all()
    row = w.filter(
        (pl.col("benchmark") == "gpqa-diamond") & (pl.col("threshold_model") == chapter.GPT4)
    ).row(0, named=True)
    obs = page.series_2026[("gpqa-diamond", fc.HUB_2026_SOURCE)]
    short = fc.trend(
        obs.filter(pl.col("date") <= cutoff), "gpqa-diamond", "x", row["threshold_score"]
    )
    assert row["factor_short"] == pytest.approx(short["factor_per_year"], rel=1e-12)
    assert c.q.n_slower.value == (w["factor_full"] < w["factor_short"]).sum()
    assert c.q.window_short_median.value == pytest.approx(w["factor_short"].median())


def test_claim_evidence_gives_each_assigned_claim_from_the_release_rows(c, tables, page):
    from analysis.methods.claims import Evidence

    ev = chapter.claim_evidence()
    assert (
        set(ev)
        == set(chapter.CLAIM_IDS)
        == {
            "epoch-fixed-capability-decline",
            "gpt-4-equivalent-price-2022",
            "gpt-4-equivalent-price-now",
        }
    )
    assert all(
        isinstance(e, Evidence) and e.section.startswith("chapters/fixed-capability.qmd#sec-")
        for e in ev.values()
    )
    # The decline: the book's headline (median of every full-data trend, by hand from the
    # trends) and the middle half of those trends as its spread; the same estimate id.
    f = np.sort(results.extension()["factor_per_year"].to_numpy())
    d = ev["epoch-fixed-capability-decline"]
    assert d.value == pytest.approx(np.median(f))
    assert d.estimate_id == "full-data-median-factor" and d.interval == "spread"
    for end, p in ((d.low, 0.25), (d.high, 0.75)):  # order statistics, as the quote's
        assert np.quantile(f, p, method="lower") <= end <= np.quantile(f, p, method="higher")
    assert d.n == len(f)
    # GPT-4-level prices, by hand from the GPQA Diamond series: GPT-4's own score is the level.
    obs = page.series_2026[("gpqa-diamond", fc.HUB_2026_SOURCE)]
    level = obs.filter(pl.col("model") == chapter.GPT4)["score"].unique().item()
    at_level = obs.filter(pl.col("score") >= level)
    first_day = at_level["date"].min()
    first = at_level.filter(pl.col("date") == first_day)["price"].min()
    claim_now = results.table("claims").filter(pl.col("claim_id") == "gpt-4-equivalent-price-now")
    by = min(claim_now["claim_date"].item(), results.release_date())
    cheapest = at_level.filter(pl.col("date") <= by)["price"].min()
    assert ev["gpt-4-equivalent-price-2022"].value == first
    # GPT-4 itself at launch, 3:1 blend of $30 in and $60 out (OpenAI's March 2023 price).
    assert first == pytest.approx((3 * 30 + 60) / 4)
    assert first_day > date(2022, 12, 31)
    assert ev["gpt-4-equivalent-price-now"].value == cheapest
    assert ev["gpt-4-equivalent-price-now"].low <= cheapest <= ev["gpt-4-equivalent-price-now"].high


@pytest.mark.parametrize(
    ("value", "claimed", "phrase"),
    [
        (45.9, 13.0, "well above it"),
        (15.0, 13.0, "above it"),
        (13.5, 13.0, "close to it"),
        (8.0, 13.0, "below it"),
        (0.058, 0.40, "6.90 times below it"),
    ],
)
def test_against_places_a_value_against_the_claim(value, claimed, phrase):
    assert chapter.against(value, claimed) == phrase


def test_window_reading_follows_the_count_of_slower_trends():
    assert chapter.window_reading(14, 15).startswith("the steep rates of Epoch's window do not")
    assert chapter.window_reading(0, 15) == "the later prices steepen every one of those trends"
    assert chapter.window_reading(5, 15) == "the later prices slow some trends and steepen others"
