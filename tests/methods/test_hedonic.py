"""The hedonic (Gundlach et al.) regression on synthetic data with known coefficients."""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np
import polars as pl
import pytest
import statsmodels.api as sm
from scipy import stats

from analysis.data.schema import TABLES
from analysis.methods import hedonic
from analysis.methods.hedonic import (
    fit_hedonic,
    hedonic_table,
    logit_score,
    observations,
    price_index,
    quality_adjusted_prices,
    running_frontier,
)
from analysis.methods.trends import InsufficientData

TEN_X_PER_YEAR = -np.log(10) / 365  # a, per day
B = 1.5


def synthetic(n: int = 300, seed: int = 7, noise: float = 0.3) -> pl.DataFrame:
    """Models over three years whose ln price = a days + b logit(score) + c + noise."""
    rng = np.random.default_rng(seed)
    days = rng.integers(0, 3 * 365, n)
    score = rng.uniform(10, 90, n)
    p = score / 100
    ln_price = TEN_X_PER_YEAR * days + B * np.log(p / (1 - p)) + 1.0 + rng.normal(0, noise, n)
    start = date(2023, 1, 1)
    return pl.DataFrame(
        {
            "model_id": [f"m{i}" for i in range(n)],
            "date": [start + timedelta(days=int(d)) for d in days],
            "price": np.exp(ln_price),
            "score": score,
        }
    )


def test_logit_clips_scores_to_half_a_percent_from_each_bound():
    got = pl.DataFrame({"score": [-5.0, 0.0, 0.5, 50.0, 99.5, 100.0]}).select(logit_score())
    edge = np.log(0.005 / 0.995)
    assert got["logit_score"].to_list() == pytest.approx([edge, edge, edge, 0.0, -edge, -edge])


def test_known_coefficients_are_recovered_within_their_intervals():
    fit = fit_hedonic(synthetic(), "synthetic", "all")
    assert fit["n"] == 300
    assert fit["ci90_low"] <= 10.0 <= fit["ci90_high"]
    t = stats.t.ppf(0.95, fit["n"] - 3)
    assert abs(fit["b"] - B) <= t * fit["b_se"]


def test_coefficients_match_a_direct_statsmodels_fit():
    obs = synthetic(n=60, seed=3)
    days = np.array([(d - date(2020, 1, 1)).days for d in obs["date"]], dtype=float)
    p = np.clip(obs["score"].to_numpy(), 0.5, 99.5) / 100
    X = np.column_stack([days, np.log(p / (1 - p)), np.ones(obs.height)])
    direct = sm.OLS(np.log(obs["price"].to_numpy()), X).fit(cov_type="HC3")
    fit = fit_hedonic(obs, "synthetic", "all")
    assert fit["a"] == pytest.approx(direct.params[0], rel=1e-10)
    assert fit["b"] == pytest.approx(direct.params[1], rel=1e-10)
    assert fit["c"] == pytest.approx(direct.params[2], rel=1e-10)
    assert fit["a_se"] == pytest.approx(direct.bse[0], rel=1e-10)
    assert fit["r_squared"] == pytest.approx(direct.rsquared, rel=1e-10)
    # 90% interval of a with t(n - 3), mapped to factors exp(-365 a).
    half = stats.t.ppf(0.95, obs.height - 3) * direct.bse[0]
    assert fit["factor_per_year"] == pytest.approx(np.exp(-365 * direct.params[0]), rel=1e-10)
    assert fit["ci90_low"] == pytest.approx(np.exp(-365 * (direct.params[0] + half)), rel=1e-10)
    assert fit["ci90_high"] == pytest.approx(np.exp(-365 * (direct.params[0] - half)), rel=1e-10)


def obs(rows) -> pl.DataFrame:
    return pl.DataFrame(
        rows,
        schema={"model_id": pl.String, "date": pl.Date, "price": pl.Float64, "score": pl.Float64},
        orient="row",
    )


def test_running_frontier_on_a_hand_made_example():
    models = obs(
        [
            ("m1", date(2023, 1, 1), 10.0, 50.0),  # first: on the frontier
            ("m2", date(2023, 2, 1), 12.0, 40.0),  # m1 is cheaper and better: off
            ("m3", date(2023, 3, 1), 10.0, 50.0),  # ties m1 on both: stays
            ("m4", date(2023, 3, 1), 10.0, 45.0),  # m1 same price, better score: off
            ("m5", date(2023, 4, 1), 20.0, 70.0),  # best score so far: on
            ("m8", date(2023, 4, 1), 25.0, 70.0),  # m5, same day, same score, cheaper: off
            ("m6", date(2023, 1, 1), 5.0, 30.0),  # cheapest so far: on
            ("m7", date(2023, 6, 1), 1.0, 80.0),  # dominates all, but later: they stay
        ]
    )
    assert running_frontier(models)["model_id"].sort().to_list() == ["m1", "m3", "m5", "m6", "m7"]


def test_fewer_points_than_the_method_needs_is_a_clear_error():
    three = synthetic(n=3)
    with pytest.raises(
        InsufficientData,
        match=r"hedonic price regression \(gpqa-diamond, frontier\) needs at least 4 observations, got 3",
    ):
        fit_hedonic(three, "gpqa-diamond", "frontier")


def price_rows(rows: list[dict]) -> pl.DataFrame:
    defaults = {
        "provider": "openai",
        "first_party": True,
        "price_kind": "list",
        "currency": "USD",
        "source_id": "src",
        "source_locator": "test",
    }
    filled = [defaults | {"source_model_name": r["model_id"]} | r for r in rows]
    return pl.DataFrame(filled, schema=TABLES["token_prices"].polars_schema)


TOKEN_PRICES = price_rows(
    [
        # x: first priced two months after release, then cut.
        {"model_id": "x", "date": date(2024, 3, 1), "input_usd_per_mtok": 2.0, "output_usd_per_mtok": 6.0},
        {"model_id": "x", "date": date(2024, 9, 1), "input_usd_per_mtok": 1.0, "output_usd_per_mtok": 3.0},
        # y: a price dated before release (a source error); two hosts, no first party.
        {"model_id": "y", "date": date(2024, 5, 1), "first_party": False, "provider": "p1",
         "input_usd_per_mtok": 1.0, "output_usd_per_mtok": 1.0},
        {"model_id": "y", "date": date(2024, 5, 1), "first_party": False, "provider": "p2",
         "input_usd_per_mtok": 3.0, "output_usd_per_mtok": 3.0},
    ]
)  # fmt: skip
MODELS = pl.DataFrame(
    {
        "model_id": ["x", "y"],
        "release_date": [date(2024, 1, 10), date(2024, 6, 1)],
        "open_weights": [False, True],
    }
)
SCORES = pl.DataFrame(
    {
        "model_id": ["x", "x", "y"],
        "benchmark": ["gpqa-diamond"] * 3,
        "score": [45.0, 40.0, 30.0],
        "source_id": ["epoch-benchmarking-hub", "gundlach-inference", "epoch-llm-price-trends"],
    }
)


def test_observations_take_the_earliest_price_and_the_stated_date_rule():
    got = {
        rule: observations(TOKEN_PRICES, SCORES, MODELS, "gpqa-diamond", date_from=rule)
        .sort("model_id")
        .select("model_id", "date", "price", "score", "score_source", "open_weights")
        .rows()
        for rule in ("latest", "release", "price")
    }
    # x: 3:1 blend of (2, 6) = 3.0; gundlach-inference's score wins over Epoch's hub.
    # y: no first party, so the median of the two hosts' 3:1 blends = 2.0.
    assert got["latest"] == [
        ("x", date(2024, 3, 1), 3.0, 40.0, "gundlach-inference", False),
        ("y", date(2024, 6, 1), 2.0, 30.0, "epoch-llm-price-trends", True),
    ]
    assert [r[1] for r in got["release"]] == [date(2024, 1, 10), date(2024, 6, 1)]
    assert [r[1] for r in got["price"]] == [date(2024, 3, 1), date(2024, 5, 1)]


def test_price_index_falls_by_the_fitted_factor_and_adjusted_prices_sit_at_the_reference():
    data = synthetic(n=120, seed=11)
    fit = fit_hedonic(data)
    index = price_index(data, score=50.0)
    assert index["score"].unique().to_list() == [50.0]
    first, last = index.row(0, named=True), index.row(-1, named=True)
    years = (last["month"] - first["month"]).days / 365
    assert first["price"] / last["price"] == pytest.approx(fit["factor_per_year"] ** years)
    assert (index["ci_low"] < index["price"]).all() and (index["price"] < index["ci_high"]).all()
    at_ref = data.head(1).with_columns(pl.lit(50.0).alias("score"))
    adjusted = quality_adjusted_prices(pl.concat([data.tail(-1), at_ref]), score=50.0)
    assert adjusted.tail(1)["adjusted_price"][0] == pytest.approx(at_ref["price"][0])


def test_table_keeps_a_row_with_the_reason_where_a_sample_is_too_small():
    table = hedonic_table(TOKEN_PRICES, SCORES, MODELS, ["gpqa-diamond"], ["all"], data_version="v")
    row = table.row(0, named=True)
    assert (row["benchmark"], row["sample"], row["n"], row["data_version"]) == (
        "gpqa-diamond",
        "all",
        2,
        "v",
    )
    assert "needs at least 4 observations, got 2" in row["note"]
    with pytest.raises(ValueError, match="sample must be one of"):
        hedonic.sample(synthetic(n=5), "closed-weights")


def test_reference_index_prices_every_sample_at_the_frontier_median_score():
    data = synthetic(n=120, seed=11)
    got = hedonic.reference_index(data, "synthetic", ["frontier", "all"])
    frontier = running_frontier(data)
    assert got.reference == float(np.median(frontier["score"].to_numpy()))
    assert got.by_month["sample"].unique(maintain_order=True).to_list() == ["frontier", "all"]
    assert got.by_month["score"].unique().to_list() == [got.reference]
    every = got.by_month.filter(pl.col("sample") == "all")
    assert every["price"].to_list() == pytest.approx(
        price_index(data, got.reference)["price"].to_list(), rel=1e-12
    )
    # The points are the frontier models, moved to the reference score.
    assert got.adjusted["model_id"].to_list() == frontier["model_id"].to_list()
    assert got.adjusted["sample"].unique().to_list() == ["frontier"]
    assert got.observations is data


def test_cheapest_reaching_takes_the_cheapest_model_at_the_score_by_the_date():
    models = obs(
        [
            ("dear", date(2024, 1, 1), 5.0, 60.0),
            ("weak", date(2024, 2, 1), 0.1, 40.0),  # below the score
            ("late", date(2024, 9, 1), 0.5, 70.0),  # after the date
            ("cheap", date(2024, 3, 1), 1.0, 55.0),
            ("tie", date(2024, 4, 1), 1.0, 58.0),  # same price, later: the earlier one wins
        ]
    )
    assert hedonic.cheapest_reaching(models, 55.0, date(2024, 6, 30))["model_id"] == "cheap"
    assert hedonic.cheapest_reaching(models, 55.0, date(2024, 12, 31))["model_id"] == "late"
    with pytest.raises(InsufficientData, match="no observation scores at least 80 by 2024-06-30"):
        hedonic.cheapest_reaching(models, 80.0, date(2024, 6, 30))


# --- one score snapshot per series ---------------------------------------------------------------


def test_an_index_rescaled_per_snapshot_takes_every_score_from_one_source():
    rows = pl.DataFrame(
        {
            "model_id": ["a", "b", "b", "c"],
            "benchmark": ["aa-intelligence-index"] * 4,
            "score": [60.0, 55.0, 30.0, 20.0],
            # c is scored only by the newer leaderboard, on its own (lower) scale.
            "source_id": ["gundlach-inference"] * 2 + ["aa-leaderboards-oolong"] * 2,
        }
    )
    got = hedonic.model_scores(rows, "aa-intelligence-index")
    assert got.select("model_id", "score").rows() == [("a", 60.0), ("b", 55.0)]
    assert set(got["score_source"]) == {"gundlach-inference"}
    # A percent-correct benchmark still fills a model's gap from the next source.
    gpqa = rows.with_columns(pl.lit("gpqa-diamond").alias("benchmark"))
    assert hedonic.model_scores(gpqa, "gpqa-diamond")["model_id"].to_list() == ["a", "b", "c"]


def test_window_fits_recover_each_window_s_rate():
    """Models priced at 10x per year less until 2024-07-01, then at 2x per year: the short window
    recovers 10x, the full one a slower rate."""
    obs = synthetic(n=400, noise=0.05).with_columns(pl.lit(False).alias("open_weights"))
    cutoff = date(2024, 7, 1)
    later = obs.filter(pl.col("date") > cutoff)
    # Re-price the later models on a 2x-per-year trend continuing from the cutoff.
    days_after = (later["date"] - pl.lit(cutoff)).dt.total_days()
    slow = later.with_columns(
        (pl.col("price") * np.exp((np.log(10) - np.log(2)) / 365 * days_after)).alias("price")
    )
    obs = pl.concat([obs.filter(pl.col("date") <= cutoff), slow]).sort("date")
    got = hedonic.window_fits(obs, "synthetic", "src", cutoff, samples=("all",)).row(0, named=True)
    assert got["n_short"] == obs.filter(pl.col("date") <= cutoff).height
    assert got["n"] == 400
    assert got["ci90_low_short"] <= 10.0 <= got["ci90_high_short"]
    assert 2.0 < got["factor_per_year"] < got["factor_short"]
    assert got["end_short"] <= cutoff


def test_window_fits_keep_a_sample_too_small_to_fit():
    obs = synthetic(n=30).with_columns(pl.lit(False).alias("open_weights"))
    got = hedonic.window_fits(obs, "synthetic", "src", date(2023, 1, 20), samples=("all",))
    row = got.row(0, named=True)
    assert row["n_short"] < hedonic.MIN_POINTS and row["factor_short"] is None
    assert row["factor_per_year"] is not None


def test_window_fit_picks_one_series_and_sample():
    fits = pl.DataFrame(
        {
            "benchmark": ["a", "a", "b"],
            "sample": ["frontier", "all", "frontier"],
            "factor_per_year": [3.0, 2.0, 5.0],
        }
    )
    assert hedonic.window_fit(fits, "a", "all")["factor_per_year"] == 2.0
    assert hedonic.window_fit(fits, "b", "all") is None  # a series the release does not hold
    with pytest.raises(ValueError, match="2 rows of a frontier"):
        hedonic.window_fit(pl.concat([fits, fits]), "a", "frontier")
