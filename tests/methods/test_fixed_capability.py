"""Epoch's staircase method on hand-made observations whose answer is known."""

from __future__ import annotations

from datetime import date

import numpy as np
import polars as pl
import pytest

from analysis.methods import fixed_capability as fc
from analysis.methods.fixed_capability import staircase, thresholds, trend, trends
from analysis.methods.trends import InsufficientData


def obs(rows):
    return pl.DataFrame(
        rows,
        schema={"model": pl.String, "date": pl.Date, "price": pl.Float64, "score": pl.Float64},
        orient="row",
    )


LADDER = obs(
    [
        ("a", date(2022, 1, 1), 100.0, 40.0),  # top-1 at its date: threshold 40
        ("b", date(2022, 6, 1), 50.0, 45.0),  # top-1: threshold 45; joins the 40-staircase
        ("c", date(2022, 9, 1), 60.0, 41.0),  # above 40 but dearer than 50: not a step
        ("d", date(2023, 1, 1), 10.0, 42.0),  # step for 40
        ("e", date(2023, 1, 1), 12.0, 44.0),  # same date, pricier than d: dropped for 40
        ("f", date(2023, 6, 1), 1.0, 46.0),  # top-1 (threshold 46); step for 40 and 45
        ("g", date(2024, 1, 1), 0.1, 40.5),  # step for 40 only
    ]
)


def test_thresholds_are_models_that_were_top_one_at_their_date():
    t = thresholds(LADDER, "humaneval")
    assert t["model"].to_list() == ["a", "b", "f"]
    assert t["score"].to_list() == [40.0, 45.0, 46.0]


def test_tied_models_set_one_threshold_named_after_the_first():
    tied = obs(
        [
            ("a", date(2022, 1, 1), 100.0, 40.0),
            ("z", date(2022, 3, 1), 80.0, 40.0),  # matches a's best: same threshold
            ("b", date(2022, 6, 1), 50.0, 45.0),
            ("y", date(2022, 6, 1), 60.0, 45.0),  # same date and score as b: named after b
        ]
    )
    t = thresholds(tied, "humaneval")
    assert t["model"].to_list() == ["a", "b"]
    assert t["models"].to_list() == ["a; z", "b; y"]
    assert t["score"].to_list() == [40.0, 45.0]


def test_mmlu_and_gpqa_skip_thresholds_under_30():
    low = obs([("a", date(2021, 1, 1), 9.0, 25.0), ("b", date(2022, 1, 1), 5.0, 31.0)])
    assert thresholds(low, "mmlu")["model"].to_list() == ["b"]
    assert thresholds(low, "gpqa-diamond")["model"].to_list() == ["b"]
    assert thresholds(low, "math-500")["model"].to_list() == ["a", "b"]


def test_staircase_keeps_cheapest_so_far_and_drops_the_pricier_same_date_point():
    steps = staircase(LADDER, 40.0)
    assert steps["model"].to_list() == ["a", "b", "d", "f", "g"]
    assert staircase(LADDER, 45.0)["model"].to_list() == ["b", "f"]


def test_the_vectorised_walk_gives_a_staircase_worked_by_hand():
    # A series that falls, rebounds, ties on a date and ties a running minimum exactly:
    # by hand, walking by date (cheapest first on a date), a row joins only below every
    # earlier price, so 8 (after 5) and the second 5 do not join; of the two on 2024-03-01,
    # 4 joins first and 4.5 is then above it.
    series = obs(
        [
            ("m1", date(2024, 1, 1), 10.0, 50.0),
            ("m2", date(2024, 2, 1), 5.0, 55.0),
            ("m3", date(2024, 2, 15), 8.0, 60.0),
            ("m4", date(2024, 3, 1), 4.5, 52.0),
            ("m5", date(2024, 3, 1), 4.0, 51.0),
            ("m6", date(2024, 4, 1), 5.0, 70.0),
            ("m7", date(2024, 5, 1), 4.0, 50.0),
            ("m8", date(2024, 6, 1), 1.0, 49.0),  # below the threshold: never walked
            ("m9", date(2024, 7, 1), 2.0, 50.0),
        ]
    )
    steps = staircase(series, 50.0)
    assert steps.rows() == [
        ("m1", date(2024, 1, 1), 10.0, 50.0),
        ("m2", date(2024, 2, 1), 5.0, 55.0),
        ("m5", date(2024, 3, 1), 4.0, 51.0),
        ("m9", date(2024, 7, 1), 2.0, 50.0),
    ]
    assert staircase(series, 99.0).is_empty()


def test_trend_on_an_exact_staircase_gives_the_exact_factor():
    # Prices fall exactly 10x per 365 days.
    days = [0, 365, 730, 1095]
    rows = [
        (
            f"m{k}",
            date.fromordinal(date(2021, 1, 1).toordinal() + d),
            100.0 / 10 ** (d / 365),
            50.0 + k,
        )
        for k, d in enumerate(days)
    ]
    result = trend(obs(rows), "mmlu", "m0", 50.0)
    assert result["n"] == 4
    assert result["factor_per_year"] == pytest.approx(10.0, rel=1e-10)
    assert result["r_squared"] == pytest.approx(1.0)


def test_fewer_than_four_points_is_a_clear_error():
    with pytest.raises(
        InsufficientData,
        match=r"fixed-capability trend \(humaneval >= 45, b\) needs at least 4 staircase points, got 2",
    ):
        trend(LADDER, "humaneval", "b", 45.0)


def test_trends_leaves_out_thresholds_without_enough_points():
    table = trends(LADDER, "humaneval")
    assert table["threshold_model"].to_list() == ["a"]
    assert table["n"].to_list() == [5]


def test_trends_without_enough_points_is_an_empty_frame_with_numeric_columns():
    few = trends(LADDER.head(2), "humaneval", bootstrap=True)
    assert few.height == 0
    assert few.schema["factor_per_year"] == pl.Float64 and few.schema["n"] == pl.Int64
    assert few.schema["start_date"] == pl.Date and few.schema["boot90_low"] == pl.Float64
    # Concatenated with a benchmark that has trends, the numbers stay numbers.
    both = pl.concat([trends(LADDER, "humaneval"), trends(LADDER.head(2), "mmlu")])
    assert both.schema["factor_per_year"] == pl.Float64 and both.height == 1


# --- one score snapshot per series ---------------------------------------------------------------


def test_snapshot_scores_take_one_snapshot_and_a_model_s_highest_setting():
    aa = pl.DataFrame(
        {
            "model_id": ["m", "m", "n", "m", None],
            "snapshot_date": [date(2026, 7, 10)] * 3 + [date(2026, 4, 10), date(2026, 7, 10)],
            "intelligence_index": [40.0, 52.0, 30.0, 99.0, 70.0],
        }
    )
    got = fc.snapshot_scores(aa)
    # The April value (99, another scale) and the unresolved row are left out.
    assert got.select("model_id", "score").rows() == [("m", 52.0), ("n", 30.0)]
    assert fc.snapshot_scores(aa, snapshot=date(2026, 4, 10))["score"].to_list() == [99.0]
    with pytest.raises(
        ValueError, match="no intelligence_index values in the snapshot of 2026-01-01"
    ):
        fc.snapshot_scores(aa, snapshot=date(2026, 1, 1))


def test_export_scores_read_every_row_an_export_stands_behind():
    scores = pl.DataFrame(
        {
            "model_id": ["a", "b", "c", "a"],
            "benchmark": ["eci"] * 4,
            "score": [120.0, 130.0, 140.0, 125.0],
            "source_id": ["hub", "hub-2026", "hub", "hub-2026"],
            "source_ids": ["hub;hub-2026", "hub-2026", "hub", None],
        }
    )
    got = fc.export_scores(scores, "eci", "hub-2026")
    # a: shared row (120) and own row (125, source_ids empty -> source_id) -> highest 125; c: not in it.
    assert got.rows() == [("a", 125.0), ("b", 130.0)]
    with pytest.raises(ValueError, match="no gpqa-diamond rows from source 'hub-2026'"):
        fc.export_scores(scores, "gpqa-diamond", "hub-2026")


def test_window_comparison_fits_the_same_threshold_on_the_short_and_the_full_window():
    # Threshold 40 (model a). Prices fall 10x a year to the cut, then 2x a year after it.
    rows, price = [], 1000.0
    for year in range(2020, 2024):
        rows.append((f"s{year}", date(year, 1, 1), price, 41.0))
        price /= 10
    for year in range(2024, 2028):
        price /= 2
        rows.append((f"l{year}", date(year, 1, 1), price, 41.0))
    o = obs([("a", date(2019, 12, 31), 2000.0, 40.0), *rows])
    w = fc.window_comparison(o, "humaneval", date(2023, 1, 1))
    row = w.filter(pl.col("threshold_model") == "a").row(0, named=True)
    # Short window: 2019-12-31 + four yearly points falling 10x (after a 2x first step).
    short = trend(o.filter(pl.col("date") <= date(2023, 1, 1)), "humaneval", "a", 40.0)
    assert row["factor_short"] == pytest.approx(short["factor_per_year"])
    assert row["n_short"] == 5 and row["n_full"] == 9
    assert row["factor_full"] < row["factor_short"]


def test_cheapest_reaching_is_the_staircase_level_on_a_day():
    got = fc.cheapest_reaching(LADDER, 45.0, date(2023, 12, 31))
    assert (got["model"], got["price"]) == ("f", 1.0)
    with pytest.raises(InsufficientData, match="by 2022-01-01"):
        fc.cheapest_reaching(LADDER, 45.0, date(2022, 1, 1))


def test_the_newest_hub_export_and_its_last_score_date():
    scores = pl.DataFrame(
        {
            "source_id": ["epoch-benchmarking-hub", "x", "x"],
            "source_ids": [None, "x; epoch-benchmarking-hub-2026-04", "x"],
            "date": [date(2025, 6, 1), date(2026, 4, 2), date(2026, 5, 1)],
        }
    )
    # The 2026-04 export is newer than the first Hub export, and is named in a merged row.
    assert fc.hub_source(scores) == "epoch-benchmarking-hub-2026-04"
    assert fc.hub_last_date(scores, "epoch-benchmarking-hub-2026-04") == date(2026, 4, 2)
    assert fc.hub_source(scores.slice(0, 1)) == "epoch-benchmarking-hub"
    with pytest.raises(LookupError, match="no rows from any Epoch Hub export"):
        fc.hub_source(scores.slice(2, 1))


def test_the_models_at_or_above_a_threshold_and_the_staircase_fit_through_them():
    # At 45: b (45) and f (46) qualify. With h and i added, each cheaper than all before it,
    # the staircase is b, f, h, i; the fit is OLS of log10 price on days, done here by numpy.
    assert fc.at_or_above(LADDER, 45.0)["model"].to_list() == ["b", "f"]
    more = [("h", date(2023, 12, 1), 0.5, 45.5), ("i", date(2024, 6, 1), 0.1, 47.0)]
    bigger = obs([*LADDER.rows(), *more])
    steps, fit = fc.staircase_fit(bigger, 45.0)
    assert steps["model"].to_list() == ["b", "f", "h", "i"]
    days = [d.toordinal() for d in steps["date"]]
    slope = np.polyfit(days, np.log10(steps["price"].to_numpy()), 1)[0]
    assert fit.factor_per_year == pytest.approx(10 ** (-365 * slope))


def test_epoch_window_end_is_the_last_date_of_epoch_s_own_rows():
    tp = pl.DataFrame(
        {
            "source_id": [fc.EPOCH_SOURCE, fc.EPOCH_SOURCE, "other"],
            "date": [date(2024, 1, 1), date(2024, 12, 13), date(2026, 1, 1)],
        }
    )
    assert fc.epoch_window_end(tp) == date(2024, 12, 13)


def test_a_model_s_level_first_reached_and_cheapest_by_a_day():
    # On LADDER, b scores 45: f (46) is the first at or above it after b itself (b, 2022-06-01,
    # is first), and by 2023-12-31 the cheapest at or above 45 is f at 1.0. A series where the
    # model has no score is skipped.
    levels = fc.model_level(
        {("x", "s"): LADDER, ("y", "s"): LADDER.slice(0, 1)}, "b", date(2023, 12, 31)
    )
    assert levels.height == 1
    row = levels.row(0, named=True)
    assert (row["threshold_score"], row["first_model"], row["first_date"]) == (
        45.0,
        "b",
        date(2022, 6, 1),
    )
    assert (row["cheapest_model"], row["cheapest_price"]) == ("f", 1.0)


def test_epoch_rows_are_the_rows_of_epochs_own_dataset():
    import polars as pl

    from analysis.methods import fixed_capability as fc

    frame = pl.DataFrame({"source_id": ["epoch-llm-price-trends", "litellm-rocry", None]})
    assert fc.epoch_rows(frame)["source_id"].to_list() == ["epoch-llm-price-trends"]


def test_a_trend_names_only_the_sources_of_its_staircase_rows():
    """By hand: at threshold 50, the staircase is a (10), b (5), d (2), e (1); c scores 50 but
    at 8 is above the running minimum, so its price source `c-src` is not in the trend, and
    f scores under the threshold. Each step's own price and score sources are kept, and the
    trend names the union of the four steps'."""
    priced = pl.DataFrame(
        {
            "model_id": ["a", "b", "c", "d", "e", "f"],
            "date": [date(2024, m, 1) for m in (1, 2, 3, 4, 5, 6)],
            "price": [10.0, 5.0, 8.0, 2.0, 1.0, 0.5],
            "sources": ["a-src", "b-src", "c-src", "d-src;shared", "e-src", "f-src"],
        }
    )
    scores = pl.DataFrame(
        {
            "model_id": ["a", "b", "c", "d", "e", "f"],
            "score": [50.0, 60.0, 55.0, 52.0, 51.0, 40.0],
            "sources": ["bench"] * 5 + ["f-bench"],
        }
    )
    observations = fc.scored_observations(priced, scores)
    steps = staircase(observations, 50.0)
    assert steps["model"].to_list() == ["a", "b", "d", "e"]
    assert steps["sources"].to_list() == [
        "a-src;bench",
        "b-src;bench",
        "bench;d-src;shared",
        "bench;e-src",
    ]
    fitted = trend(observations, "gpqa-diamond", "a", 50.0)
    assert fitted["sources"] == "a-src;b-src;bench;d-src;e-src;shared"
    assert "sources" not in trend(observations.drop("sources"), "gpqa-diamond", "a", 50.0)


def test_a_one_snapshot_trend_names_its_price_rows_and_its_score_snapshot():
    """By hand: four first-party list prices, each from its own source (src-a .. src-e), fall
    month by month; a, b, d and e score 50, 60, 52 and 51 on every series, so the threshold set by
    a (50) steps on all four, and b's (60) has one point and is left out. Each series' trend
    names the four price rows' sources and the one snapshot its scores come from (the AA
    snapshot's `aa-snap`, the Hub export `fc.HUB_2026_SOURCE`); before, it named no price source at all."""
    steps = {"a": 10.0, "b": 5.0, "d": 2.0, "e": 1.0}
    prices = pl.DataFrame(
        {
            "model_id": list(steps),
            "date": [date(2024, m, 1) for m in (1, 2, 3, 4)],
            "currency": ["USD"] * 4,
            "price_kind": ["list"] * 4,
            "input_usd_per_mtok": list(steps.values()),
            "output_usd_per_mtok": list(steps.values()),
            "blend": [None] * 4,
            "blended_usd_per_mtok": [None] * 4,
            "provider": list(steps),
            "first_party": [True] * 4,
            "source_id": [f"src-{m}" for m in steps],
        },
        schema_overrides={"blend": pl.String, "blended_usd_per_mtok": pl.Float64},
    )
    models = pl.DataFrame({"model_id": list(steps), "reasoning": [False] * 4})
    score = {"a": 50.0, "b": 60.0, "d": 52.0, "e": 51.0}
    aa = pl.DataFrame(
        {
            "model_id": list(score),
            "snapshot_date": [date(2024, 6, 1)] * 4,
            "intelligence_index": list(score.values()),
            "source_id": ["aa-snap"] * 4,
        }
    )
    hub = pl.DataFrame(
        {
            "model_id": list(score) * 2,
            "benchmark": ["eci"] * 4 + ["gpqa-diamond"] * 4,
            "score": list(score.values()) * 2,
            "source_id": [fc.HUB_2026_SOURCE] * 8,
            "source_ids": [fc.HUB_2026_SOURCE] * 8,
        }
    )
    series = fc.one_snapshot_series(prices, hub, models, aa, date(2024, 12, 31))
    got = fc.trends_by_series(series)
    prices_by_hand = "src-a;src-b;src-d;src-e"  # sorted after epoch-...: e < s
    assert got.select("benchmark", "threshold_model", "score_source", "sources").rows() == [
        ("aa-intelligence-index", "a", "aa-leaderboards-oolong", "aa-snap;src-a;src-b;src-d;src-e"),
        ("eci", "a", fc.HUB_2026_SOURCE, f"{fc.HUB_2026_SOURCE};{prices_by_hand}"),
        ("gpqa-diamond", "a", fc.HUB_2026_SOURCE, f"{fc.HUB_2026_SOURCE};{prices_by_hand}"),
    ]
    # The windows figure's comparisons name the full window's staircase rows the same way.
    windows = fc.window_comparisons(series, date(2024, 4, 1))
    assert windows.select("benchmark", "sources").rows() == [
        ("aa-intelligence-index", f"aa-snap;{prices_by_hand}"),
        ("eci", f"{fc.HUB_2026_SOURCE};{prices_by_hand}"),
        ("gpqa-diamond", f"{fc.HUB_2026_SOURCE};{prices_by_hand}"),
    ]
