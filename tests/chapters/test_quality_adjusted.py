"""The chapter on quality-adjusted prices and the outlook: what its prose prints.

First the phrases chosen by a comparison, on hand-made values; then `quality_adjusted.compute`
on the released data, each quote checked against what `analysis.methods.hedonic`,
`analysis.methods.fixed_capability` and `analysis.methods.outlook` return when called directly;
then the page itself: every `{python} ...` names a quote, every quote is printed, and a few read
as the page prints them.
"""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analysis.chapters import quality_adjusted as qa
from analysis.figures.outlook import benchmark_name
from analysis.methods import fixed_capability as fc
from analysis.methods import hedonic, outlook
from analysis.report import estimates, results

PINNED = "2026-11-30"  # the release the exact-text examples were read from


# --- phrases ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ratio", "phrase"),
    [
        (4.58, "about 5 times the index"),
        (1.5, "about 2 times the index"),
        (1.2, "close to the index"),
        (0.7, "close to the index"),
        (0.2, "5 times below the index"),
    ],
)
def test_index_vs_real_says_how_far_the_real_model_is_from_the_index(ratio, phrase):
    assert qa.index_vs_real(ratio) == phrase


@pytest.mark.parametrize(
    ("low", "high", "phrase"),
    [
        (3.7, 8.9, "between the hedonic all-models fit and the hedonic frontier fit"),
        (3.0, 8.9, "below the hedonic frontier fit and overlapping the all-models fit"),
        (3.7, 30.0, "overlapping the hedonic frontier fit"),
    ],
)
def test_epoch_position_places_the_staircase_span_against_the_hedonic_fits(low, high, phrase):
    assert qa.epoch_position(3.4, 27.2, low, high) == phrase


def test_release_effect_only_claims_a_speed_up_when_every_fit_speeds_up():
    assert qa.release_effect(True) == "speeds up every all-models fit"
    assert qa.release_effect(False) == "moves the all-models fits too"


def test_break_model_phrase_gives_the_size_of_open_weights_models_only():
    open_model = {"name": "Phi-4", "open_weights": True, "parameters_b": 14.0}
    assert qa.break_model_phrase(open_model) == (
        "Phi-4, an open-weights model of 14 billion parameters,"
    )
    assert qa.break_model_phrase({**open_model, "parameters_b": None}) == "Phi-4"
    assert qa.break_model_phrase({**open_model, "open_weights": False}) == "Phi-4"


def test_boot_reading_counts_the_replicates_that_reached_the_statistic():
    assert qa.boot_reading(0, 999).startswith("the smallest p-value the bootstrap can give")
    assert qa.boot_reading(5, 999) == "5 of the 999 replicates reached the observed statistic"
    assert qa.boot_reading(12, 1999) == "12 of the 1,999 replicates reached the observed statistic"


def test_deepseek_check_depends_on_whether_the_data_reach_the_claim_date():
    claim = date(2026, 9, 25)
    before = qa.deepseek_check(date(2026, 8, 21), claim)
    after = qa.deepseek_check(date(2026, 10, 1), claim)
    assert "August 21, 2026" in before and "price-war chapter tests the rise" in before
    assert "neither confirm nor refute" not in before  # the ledger gives the verdict
    assert "October 1, 2026" in after and "compare them with the claim" in after


def test_n_boot_is_the_outlook_default_the_chapter_says_it_uses():
    assert qa.N_BOOT == outlook.N_BOOT


# --- the released data --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def version() -> str:
    return results.version()


@pytest.fixture(scope="module")
def tables(version) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    return results.token_tables(version)


@pytest.fixture(scope="module")
def c(version) -> qa.QualityAdjusted:
    return qa.compute(version)


@pytest.fixture(scope="module")
def page(version, tables) -> SimpleNamespace:
    """The frames the page's folded cells draw, made by the same calls."""
    obs = hedonic.observations(*tables, qa.BENCHMARK)
    return SimpleNamespace(
        hedonic_fits=results.hedonic_fits(version),
        by_rule=qa.by_rule(version),
        index=hedonic.reference_index(obs, qa.BENCHMARK, qa.INDEX_SAMPLES),
        extension_2026=qa.extension_2026(version),
    )


@pytest.fixture(scope="module")
def b(version, tables) -> outlook.Breaks:
    """The break tests the page's folded cell runs, by the same calls."""
    models = tables[2]
    obs = fc.full_observations(*tables, qa.BENCHMARK)
    named = outlook.release_date(models, qa.NAMED_BREAK_MODEL)
    return outlook.staircase_breaks(obs, qa.BENCHMARK, named, data_version=version)


def test_compute_is_cached_per_version(c):
    assert qa.compute() is c


def test_settings_the_prose_states_are_the_method_s(c):
    q = c.q
    assert q.day_zero.value == hedonic.DAY_ZERO
    assert (q.clip_low.value, q.clip_high.value) == hedonic.SCORE_CLIP
    assert q.level.value == hedonic.LEVEL
    assert q.level.text == "90%"
    assert q.trim.value == outlook.TRIM and q.min_segment.value == outlook.MIN_SEGMENT
    assert f"{outlook.N_BOOT} replicates" in q.boot_method.text
    assert q.until.value == outlook.FORECAST_UNTIL


def test_hedonic_fits_are_the_hedonic_tables_run_directly(c, tables, version, page):
    assert_frame_equal(page.hedonic_fits, hedonic.hedonic_table(*tables, data_version=version))
    for rule in hedonic.DATE_RULES:
        assert_frame_equal(
            page.by_rule.filter(pl.col("date_from") == rule),
            hedonic.hedonic_table(*tables, date_from=rule, data_version=version),
        )
    assert c.q.n_benchmarks.value == len(hedonic.BENCHMARKS)
    assert c.q.n_samples.value == len(hedonic.SAMPLES)


def test_gpqa_fits_quote_the_hedonic_rows_and_their_intervals_contain_them(c, page):
    q, fits = c.q, page.hedonic_fits
    assert q.gpqa_frontier == estimates.estimate("hedonic-gpqa-frontier")
    for sample, factor, ci, n in [
        ("frontier", q.gpqa_frontier, q.gpqa_frontier.ci, q.gpqa_frontier.n),
        ("all", q.gpqa_all_factor, q.gpqa_all_ci, q.gpqa_all_n.value),
    ]:
        row = fits.filter((pl.col("benchmark") == qa.BENCHMARK) & (pl.col("sample") == sample))
        row = row.row(0, named=True)
        assert factor.value == row["factor_per_year"]
        assert n == row["n"]
        low, high = ci.value
        assert low < row["factor_per_year"] < high
    # The frontier falls faster than all models, as the prose says.
    assert q.gpqa_frontier.value > q.gpqa_all_factor.value


def test_sample_spans_cover_every_fit_of_the_sample(c, page):
    fits = page.hedonic_fits.filter(pl.col("factor_per_year").is_not_null())
    for quote, sample in [(c.q.frontier_span, "frontier"), (c.q.all_span, "all")]:
        factors = fits.filter(pl.col("sample") == sample)["factor_per_year"]
        assert quote.value == (factors.min(), factors.max())
    low, high = c.q.frontier_span.value
    assert low <= c.q.gpqa_frontier.value <= high


def test_date_rule_quotes(c, page):
    frontier = page.by_rule.filter(pl.col("sample") == "frontier")
    ratios = {
        b: max(g["factor_per_year"]) / min(g["factor_per_year"])
        for (b,), g in frontier.group_by("benchmark")
    }
    widest = max(ratios, key=ratios.get)
    assert c.q.max_rule_ratio.value == pytest.approx(ratios[widest])
    assert c.q.widest_rule_benchmark.text == benchmark_name(widest)
    release = page.by_rule.filter((pl.col("sample") == "all") & (pl.col("date_from") == "release"))
    assert c.q.all_release_span.value == (
        release["factor_per_year"].min(),
        release["factor_per_year"].max(),
    )


def test_index_band_contains_the_index_and_the_real_model_reached_the_reference(c, tables, page):
    q = c.q
    frontier = hedonic.sample(page.index.observations, "frontier")
    assert q.reference_score.value == frontier["score"].median()
    price, month = q.index_to_price.value, q.index_last_month.value
    low, high = q.index_band.value
    assert low < price < high
    real = fc.full_observations(*tables, qa.BENCHMARK, include_reasoning=True).filter(
        (pl.col("score") >= q.reference_score.value) & (pl.col("date") <= month)
    )
    assert q.cheapest_real_price.value == real["price"].min()
    ratio = q.cheapest_real_price.value / price
    assert q.index_vs_real.text == qa.index_vs_real(ratio)
    reached = page.index.observations.filter(pl.col("score") >= q.reference_score.value)
    assert q.first_at_reference.value == reached["date"].min()


def test_staircase_quotes_are_the_full_data_estimates(c):
    q = c.q
    assert q.epoch_gpt4 == estimates.estimate("full-data-gpqa-gpt4-level")
    assert q.epoch_median == estimates.estimate("full-data-median-factor")
    gpqa = results.extension().filter(pl.col("benchmark") == qa.BENCHMARK)
    assert q.epoch_gpqa_n.value == gpqa.height
    low, high = q.epoch_gpqa_span.value
    assert low <= q.epoch_gpt4.value <= high
    assert q.n_extension.value == results.extension().height


def test_break_search_runs_on_the_richest_staircase(c, b, tables):
    q = c.q
    obs = fc.full_observations(*tables, qa.BENCHMARK)
    assert_frame_equal(b.series, outlook.richest_threshold(obs, qa.BENCHMARK)["staircase"])
    assert q.n_series.value == b.series.height
    assert q.dsv3_n_before.value + q.dsv3_n_after.value == q.n_series.value
    assert q.before_n.value + q.after_n.value == q.n_series.value
    assert q.dsv3_df_denom.value == q.n_series.value - 2 * q.dsv3_df_num.value
    assert q.candidates_from.value <= q.break_date.value <= q.candidates_to.value
    # The segments meet at the break, and DeepSeek-V3 came after it by the days quoted.
    assert q.before_window.value[1] < q.break_date.value == q.after_window.value[0]
    assert (q.dsv3_date.value - q.break_date.value).days == q.dsv3_gap.value > 0
    # The bootstrap p-value is (1 + replicates that reached the statistic) / (replicates + 1).
    assert q.boot_p.value == pytest.approx((1 + b.replicates_reached(qa.N_BOOT)) / (qa.N_BOOT + 1))
    assert q.plain_p.value < q.boot_p.value


def test_segment_and_forecast_intervals_contain_their_estimates(c):
    q = c.q
    for factor, ci in [
        (q.before_factor, q.before_ci),
        (q.after_factor, q.after_ci),
        (q.whole_factor, q.whole_ci),
    ]:
        low, high = ci.value
        assert low < factor.value < high
    for price, pi in [(q.whole_price, q.whole_pi), (q.since_price, q.since_pi)]:
        low, high = pi.value
        assert low < price.value < high
    assert q.forecast_gap.value == pytest.approx(q.since_price.value / q.whole_price.value)
    assert q.whole_first_month.value > q.series_to.value
    assert q.whole_first_ratio.value == pytest.approx(
        q.last_price.value / q.whole_first_price.value
    )


def test_charts_draw_the_fits_of_the_series_they_show(c, b):
    # The whole-series trend drawn up to the first forecast month is the forecast's median there:
    # the chart's line and statsmodels' prediction agree.
    first = b.result["forecast"].sort("date").row(0, named=True)
    line = b.fitted["whole series"]
    assert line["date"].to_list() == [b.series["date"].min(), first["date"]]
    assert line["price"][-1] == pytest.approx(first["mean"], rel=1e-9)
    since = b.fitted["since the break"]
    assert since["date"][0] == b.break_date
    # Each segment's line is its own fit: its factor is the segment's.
    for seg in b.segments.iter_rows(named=True):
        ends = b.lines.filter(pl.col("segment") == seg["segment"]).sort("date")
        years = (ends["date"][1] - ends["date"][0]).days / 365
        assert (ends["price"][0] / ends["price"][1]) ** (1 / years) == pytest.approx(
            seg["factor_per_year"], rel=1e-9
        )
    assert b.points.height == b.series.height
    assert b.whole_fit.factor_per_year == pytest.approx(c.q.whole_factor.value, rel=1e-12)


def test_forecasts_and_tests_feed_the_figures(b):
    assert b.forecasts["since the break"] is b.result["forecast_since_break"]
    assert b.tests(qa.NAMED_TEST)[0]["test"] == "Chow test at DeepSeek-V3's release"
    assert [t.get("break_date", t.get("best_date")) for t in b.tests(qa.NAMED_TEST)] == [
        b.named_date,
        b.break_date,
        b.break_date,
    ]


def test_claim_quotes_read_the_claims_table(c):
    claim = results.table("claims").filter(pl.col("claim_id") == qa.CLAIM_ID).row(0, named=True)
    assert c.q.claim_text.text == claim["claim"]
    assert c.q.claim_date.value == claim["claim_date"]


# --- the page -----------------------------------------------------------------------------------


def test_quotes_read_as_the_page_prints_them_on_the_pinned_release():
    q = qa.compute(PINNED).q
    assert q.gpqa_frontier.text == "27.2x"
    assert q.gpqa_frontier.ci.text == "17.7x to 41.7x"
    assert q.whole_pi.text == "$0.000054 to $0.017"
    assert q.index_band.text == "$0.0085 to $0.020"
    assert q.plain_p.text == "0.0000025"
    assert q.before_window.text == "November 2023 to December 2024"
    assert q.dsv3_date.text == "December 24, 2024"
    assert q.drop_at_break.text == "7.35"
    # A name from the data reaches the Markdown escaped.
    assert q.threshold_name._repr_markdown_() == r"GPT-4 Turbo \(moving alias\)"
    assert q.whole_price._repr_markdown_() == r"\$0.00095"


# --- the 2026 extension: one score snapshot per series -----------------------------------------


@pytest.mark.parametrize(
    ("slower", "n", "falling", "start"),
    [
        (4, 4, True, "the quality-adjusted price keeps falling into 2026, but more slowly"),
        (4, 4, False, "the later models slow every fit, some to no fall at all"),
        (0, 4, True, "the later models speed every fit up"),
        (2, 4, True, "the later models move the fits both ways"),
    ],
)
def test_extension_reading_says_only_what_the_fits_show(slower, n, falling, start):
    assert qa.extension_reading(slower, n, falling).startswith(start)


def test_one_snapshot_all_models_fit_by_hand(page):
    """The all-models fit on the latest Artificial Analysis snapshot, refitted here with
    statsmodels from the release rows: each model's earliest 3:1 list price against its index."""
    import numpy as np
    import statsmodels.api as sm

    c = qa.compute()
    token_prices, scores, models = results.token_tables()
    aa = results.table("aa_snapshots")
    latest = aa.filter(pl.col("snapshot_date") == aa["snapshot_date"].max())
    by_model = latest.group_by("model_id").agg(pl.col("intelligence_index").max().alias("score"))
    priced = token_prices.filter(pl.col("date") <= results.release_date())
    obs = hedonic.observations_from_scores(priced, by_model.drop_nulls(), models)
    days = np.array([(d - hedonic.DAY_ZERO).days for d in obs["date"]], dtype=float)
    p = np.clip(obs["score"].to_numpy(), 0.5, 99.5) / 100
    X = np.column_stack([days, np.log(p / (1 - p)), np.ones(obs.height)])
    res = sm.OLS(np.log(obs["price"].to_numpy()), X).fit(cov_type="HC3", use_t=True)
    row = page.extension_2026.filter(
        (pl.col("benchmark") == "aa-intelligence-index") & (pl.col("sample") == "all")
    ).row(0, named=True)
    assert row["n"] == obs.height
    assert row["factor_per_year"] == pytest.approx(np.exp(-365 * res.params[0]), rel=1e-9)
    assert c.q.aa_all_2026.value == row["factor_per_year"]
    # The short window: the same models dated up to the last date of the paper's own scores.
    cutoff = scores.filter(pl.col("source_id") == "gundlach-inference")["date"].max()
    assert c.q.paper_end.value == cutoff
    assert row["n_short"] == obs.filter(pl.col("date") <= cutoff).height
    slower = page.extension_2026.filter(pl.col("factor_per_year") < pl.col("factor_short")).height
    assert c.q.n_2026_slower.value == slower


def test_the_aa_index_fits_read_one_source():
    tp, scores, models = results.token_tables()
    obs = hedonic.observations(tp, scores, models, "aa-intelligence-index")
    assert obs["score_source"].unique().to_list() == ["gundlach-inference"]
