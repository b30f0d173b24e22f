"""The chapter on quality-adjusted prices: the numbers its prose quotes.

First the formatters and the phrases chosen by a comparison, on hand-made values; then
`quality_adjusted.compute` on the released data, checked against what `analysis.methods.hedonic`,
`analysis.methods.fixed_capability` and `analysis.methods.outlook` return, and against the chapter's prose.
"""

from __future__ import annotations

import inspect
import re
from datetime import date

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analysis.chapters import quality_adjusted as qa
from analysis.data import release as data
from analysis.data.paths import ROOT
from analysis.methods import fixed_capability as fc
from analysis.methods import hedonic, outlook

CHAPTER = ROOT / "chapters" / "quality-adjusted.qmd"


# --- formatting ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "shown"),
    [(3.4512, "3.45"), (9.994, "9.99"), (27.24, "27.2"), (155.3, "155"), (1234.4, "1,234")],
)
def test_factor_keeps_about_three_significant_figures(x, shown):
    assert qa.factor(x) == shown


def test_factor_range_reads_low_to_high():
    assert qa.factor_range((17.69, 41.71)) == "17.7x to 41.7x"


@pytest.mark.parametrize(
    ("p", "shown"),
    [(0.0000025072, "0.0000025"), (0.0031, "0.0031"), (0.002996, "0.003"), (0.5, "0.5")],
)
def test_p_value_has_two_significant_figures_and_no_exponent(p, shown):
    assert qa.p_value(p) == shown


@pytest.mark.parametrize(
    ("x", "shown"),
    [
        (155.33, "$155"),
        (1234.0, "$1,234"),
        (0.0131, "$0.013"),
        (0.06, "$0.060"),
        (5.4e-5, "$0.000054"),
    ],
)
def test_usd_has_two_significant_figures_and_no_exponent(x, shown):
    assert qa.usd(x) == shown


def test_composite_formats():
    assert qa.usd_range((0.00847, 0.0202)) == "$0.0085 to $0.020"
    assert qa.usd_in_month((155.3, date(2023, 3, 1))) == "$155 in March 2023"
    assert (
        qa.month_range((date(2023, 11, 6), date(2024, 12, 1))) == "November 2023 to December 2024"
    )
    assert qa.day(date(2024, 12, 4)) == "December 4, 2024"
    assert qa.percent(0.15) == "15%"
    assert qa.score(56.0) == "56" and qa.score(61.7) == "61.7"


def test_quote_formats_its_value_and_defaults_to_str():
    assert qa.Quote(27.166, qa.factor).text == "27.2"
    assert qa.Quote(69).text == "69"


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
    assert qa.replicates_reached(1 / 1000, 999) == 0
    assert qa.replicates_reached(6 / 1000, 999) == 5
    assert qa.boot_reading(0, 999).startswith("the smallest p-value the bootstrap can give")
    assert qa.boot_reading(5, 999) == "5 of the 999 replicates reached the observed statistic"


def test_deepseek_check_depends_on_whether_the_data_reach_the_claim_date():
    claim = date(2026, 9, 25)
    before = qa.deepseek_check(date(2026, 8, 21), claim)
    after = qa.deepseek_check(date(2026, 10, 1), claim)
    assert "August 21, 2026" in before and "neither confirm nor refute" in before
    assert "October 1, 2026" in after and "compare them with the claim" in after


def test_n_boot_is_the_outlook_default_the_chapter_says_it_uses():
    default = inspect.signature(outlook.outlook).parameters["n_boot"].default
    assert default == qa.N_BOOT


# --- the released data --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def version() -> str:
    return data.current_version()


@pytest.fixture(scope="module")
def tables(version) -> dict[str, pl.DataFrame]:
    names = ["token_prices", "benchmark_scores", "models", "claims"]
    return {name: data.load(name, version) for name in names}


@pytest.fixture(scope="module")
def result(tables, version) -> qa.QualityAdjusted:
    t = tables
    return qa.compute(t["token_prices"], t["benchmark_scores"], t["models"], t["claims"], version)


def test_every_value_the_prose_quotes_is_computed_and_every_value_is_quoted(result):
    quoted = set(re.findall(r'`\{python\} numbers\["(\w+)"\]`', CHAPTER.read_text()))
    assert quoted == set(result.numbers)


def test_numbers_are_the_values_formatted(result):
    values, numbers = result.values, result.numbers
    assert set(values) == set(numbers)
    for key, text in numbers.items():
        assert isinstance(text, str) and text, key
        assert not re.search(r"\de[-+]?\d|\bnan\b|\binf\b|None", text), (key, text)
    assert numbers["gpqa_frontier_factor"] == qa.factor(values["gpqa_frontier_factor"])
    assert numbers["whole_pi"] == qa.usd_range(values["whole_pi"])


def test_hedonic_fits_are_the_released_hedonic_tables(result, version):
    assert_frame_equal(result.hedonic_fits, hedonic.reproduce_hedonic(version))
    for rule in hedonic.DATE_RULES:
        assert_frame_equal(
            result.by_rule.filter(pl.col("date_from") == rule),
            hedonic.reproduce_hedonic(version, date_from=rule),
        )


def test_gpqa_fits_quote_the_hedonic_rows_and_their_intervals_contain_them(result):
    values, fits = result.values, result.hedonic_fits
    for sample in ["frontier", "all"]:
        row = fits.filter((pl.col("benchmark") == qa.BENCHMARK) & (pl.col("sample") == sample))
        row = row.row(0, named=True)
        key = f"gpqa_{sample}"
        assert values[f"{key}_factor"] == row["factor_per_year"]
        assert values[f"{key}_n"] == row["n"]
        low, high = values[f"{key}_ci"]
        assert low < row["factor_per_year"] < high
    # The frontier falls faster than all models, as the prose says.
    assert values["gpqa_frontier_factor"] > values["gpqa_all_factor"]


def test_sample_spans_cover_every_fit_of_the_sample(result):
    fits = result.hedonic_fits.filter(pl.col("factor_per_year").is_not_null())
    for key, sample in [("frontier_span", "frontier"), ("all_span", "all")]:
        factors = fits.filter(pl.col("sample") == sample)["factor_per_year"]
        assert result.values[key] == (factors.min(), factors.max())
    low, high = result.values["frontier_span"]
    assert low <= result.values["gpqa_frontier_factor"] <= high


def test_index_band_contains_the_index_and_the_real_model_reached_the_reference(result, tables):
    values = result.values
    frontier = hedonic.sample(result.index.observations, "frontier")
    assert values["reference_score"] == frontier["score"].median()
    price, month = values["index_to"]
    low, high = values["index_band"]
    assert low < price < high
    assert month == values["index_last_month"]
    real = fc.full_observations(
        tables["token_prices"],
        tables["benchmark_scores"],
        tables["models"],
        qa.BENCHMARK,
        include_reasoning=True,
    ).filter((pl.col("score") >= values["reference_score"]) & (pl.col("date") <= month))
    assert values["cheapest_real_price"] == real["price"].min()
    assert values["index_vs_real"] == pytest.approx(values["cheapest_real_price"] / price)


def test_break_search_runs_on_the_richest_staircase(result, tables, version):
    t, b = tables, result.breaks
    obs = fc.full_observations(t["token_prices"], t["benchmark_scores"], t["models"], qa.BENCHMARK)
    assert_frame_equal(b.series, outlook.richest_threshold(obs, qa.BENCHMARK)["staircase"])
    v = result.values
    assert v["n_series"] == b.series.height
    assert sum(v["dsv3_split"]) == v["n_series"]
    assert v["before_n"] + v["after_n"] == v["n_series"]
    assert v["candidates_from"] <= v["break_date"] <= v["candidates_to"]
    # The segments meet at the break, and DeepSeek-V3 came after it by the days quoted.
    assert v["before_window"][1] < v["break_date"] == v["after_window"][0]
    assert (v["dsv3_date"] - v["break_date"]).days == v["dsv3_gap"] > 0
    # The bootstrap p-value is (1 + replicates that reached the statistic) / (replicates + 1).
    assert v["boot_p"] == (1 + v["boot_reading"]) / (qa.N_BOOT + 1)
    assert v["plain_p"] < v["boot_p"]


def test_segment_and_forecast_intervals_contain_their_estimates(result):
    v = result.values
    for key in ["before", "after", "whole"]:
        low, high = v[f"{key}_ci"]
        assert low < v[f"{key}_factor"] < high, key
    for key in ["whole", "since"]:
        low, high = v[f"{key}_pi"]
        assert low < v[f"{key}_price"] < high, key
    assert v["forecast_gap"] == pytest.approx(v["since_price"] / v["whole_price"])
    assert v["whole_first"][1] > v["series_to"]
    assert v["until"] == outlook.FORECAST_UNTIL


def test_forecasts_and_tests_feed_the_figures(result):
    r = result.breaks.result
    assert result.forecasts["since the break"] is r["forecast_since_break"]
    assert result.fitted_from == {"whole series": None, "since the break": result.breaks.break_date}
    tests = result.breaks.tests
    assert [t.get("break_date", t.get("best_date")) for t in tests] == [
        result.breaks.named_date,
        result.breaks.break_date,
        result.breaks.break_date,
    ]
