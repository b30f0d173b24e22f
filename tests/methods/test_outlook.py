"""Structural breaks and forecasts on synthetic log-price series whose answer is known."""

from __future__ import annotations

import inspect
from datetime import date, timedelta

import numpy as np
import polars as pl
import pytest
import statsmodels.api as sm

from analysis.methods import outlook
from analysis.methods.trends import InsufficientData, decline_factor, ordinal_days

START = date(2022, 1, 1)
TRUE_BREAK = date(2024, 1, 1)


def series(seed: int, n: int = 24, noise: float = 0.15, break_at: date | None = None):
    """log10 price falls 1.0 a year (10x per year); after `break_at`, 0.2 a year (1.6x)."""
    rng = np.random.default_rng(seed)
    days = np.sort(rng.choice(np.arange(4 * 365), n, replace=False))
    dates = [START + timedelta(days=int(d)) for d in days]
    kink = None if break_at is None else (break_at - START).days / 365
    logs = []
    for d in days:
        t = d / 365
        trend = 2 - t if kink is None or t < kink else 2 - kink - 0.2 * (t - kink)
        logs.append(trend + rng.normal(0, noise))
    return dates, [10**v for v in logs]


def test_a_known_break_is_found_near_its_date_and_the_chow_test_rejects():
    dates, prices = series(3, n=30, noise=0.1, break_at=TRUE_BREAK)
    candidates, found = outlook.break_search(dates, prices, n_boot=199)
    assert abs((found["best_date"] - TRUE_BREAK).days) <= 120
    assert found["p_value"] < 0.05
    assert outlook.chow_test(dates, prices, TRUE_BREAK)["p_value"] < 0.01
    # The statistic is the largest Chow F over the candidates, each a Chow test at that date.
    assert found["sup_f"] == pytest.approx(candidates["f_stat"].max(), rel=1e-12)
    some = candidates.row(2, named=True)
    assert outlook.chow_test(dates, prices, some["break_date"])["f_stat"] == pytest.approx(
        some["f_stat"], rel=1e-12
    )


def test_series_without_a_break_are_rejected_about_five_percent_of_the_time():
    # Measured on these 100 seeds: the Chow test at a fixed date rejects 7, the sup-F search
    # with its bootstrap p-value rejects 7 (n = 24, 199 bootstrap replicates).
    chow = sum(outlook.chow_test(*series(s), TRUE_BREAK)["p_value"] < 0.05 for s in range(100))
    sup_f = sum(
        outlook.break_search(*series(s), n_boot=199)[1]["p_value"] < 0.05 for s in range(100)
    )
    assert 1 <= chow <= 10
    assert 1 <= sup_f <= 10


def test_sup_f_p_value_is_larger_than_the_plain_chow_p_value_at_the_chosen_date():
    dates, prices = series(11)
    _, found = outlook.break_search(dates, prices, n_boot=199)
    plain = outlook.chow_test(dates, prices, found["best_date"])["p_value"]
    assert found["p_value"] > plain


def test_ninety_percent_prediction_intervals_hold_about_ninety_percent_of_new_points():
    # Measured: 0.895 of 3932 held-out monthly points over 300 seeds.
    inside = []
    for seed in range(300):
        rng = np.random.default_rng(seed)
        days = np.sort(rng.choice(np.arange(3 * 365), 20, replace=False))
        dates = [START + timedelta(days=int(d)) for d in days]
        prices = [10 ** (1 - 0.8 * d / 365 + rng.normal(0, 0.2)) for d in days]
        ahead = outlook.forecast(dates, prices, until=date(2025, 12, 31))
        future = np.array([(d - START).days for d in ahead["date"].to_list()])
        new = 10 ** (1 - 0.8 * future / 365 + rng.normal(0, 0.2, len(future)))
        inside += list((new >= ahead["pi_low"].to_numpy()) & (new <= ahead["pi_high"].to_numpy()))
    assert 0.87 <= np.mean(inside) <= 0.93


def test_forecast_is_monthly_to_the_end_date_with_ordered_bounds():
    dates, prices = series(5)
    ahead = outlook.forecast(dates, prices)
    assert ahead.columns[:4] == ["date", "mean", "pi_low", "pi_high"]
    assert ahead["date"][-1] == date(2027, 12, 31)
    assert ahead["date"][0] == date(2026, 1, 31)  # the month after the last observation (Dec 2025)
    assert ahead.height == 24
    assert (ahead["pi_low"] < ahead["ci_low"]).all()
    assert (ahead["ci_low"] < ahead["mean"]).all() and (ahead["mean"] < ahead["ci_high"]).all()
    assert (ahead["ci_high"] < ahead["pi_high"]).all()


def test_forecast_mean_and_interval_equal_a_direct_statsmodels_prediction():
    dates, prices = series(8)
    ahead = outlook.forecast(dates, prices, until=date(2026, 6, 30))
    res = sm.OLS(np.log10(prices), sm.add_constant(ordinal_days(dates))).fit()
    direct = res.get_prediction(
        sm.add_constant(ordinal_days(ahead["date"].to_list()))
    ).summary_frame(alpha=0.1)
    np.testing.assert_allclose(np.log10(ahead["mean"].to_numpy()), direct["mean"], rtol=1e-10)
    np.testing.assert_allclose(
        np.log10(ahead["pi_low"].to_numpy()), direct["obs_ci_lower"], rtol=1e-10
    )
    np.testing.assert_allclose(
        np.log10(ahead["pi_high"].to_numpy()), direct["obs_ci_upper"], rtol=1e-10
    )


def test_segment_trends_equal_direct_statsmodels_fits():
    dates, prices = series(4, break_at=TRUE_BREAK)
    segments = outlook.segmented_trends(dates, prices, [TRUE_BREAK])
    for seg, keep in zip(
        segments.iter_rows(named=True),
        [lambda d: d < TRUE_BREAK, lambda d: d >= TRUE_BREAK],
        strict=True,
    ):
        d = [x for x in dates if keep(x)]
        p = [y for x, y in zip(dates, prices, strict=True) if keep(x)]
        res = sm.OLS(np.log10(p), sm.add_constant(ordinal_days(d))).fit()
        assert seg["n"] == len(d)
        assert seg["factor_per_year"] == pytest.approx(decline_factor(res.params[1]), rel=1e-10)
        lo, hi = res.conf_int(alpha=0.1)[1]
        assert seg["ci90_low"] == pytest.approx(decline_factor(hi), rel=1e-10)
        assert seg["ci90_high"] == pytest.approx(decline_factor(lo), rel=1e-10)


def test_exact_kinked_series_gives_the_exact_factor_in_each_segment():
    dates = [START + timedelta(days=61 * k) for k in range(24)]
    kink = (TRUE_BREAK - START).days / 365
    prices = []
    for d in dates:
        t = (d - START).days / 365
        prices.append(10 ** (2 - t if t < kink else 2 - kink - 0.2 * (t - kink)))
    segments = outlook.segmented_trends(dates, prices, [TRUE_BREAK])
    assert segments["factor_per_year"].to_list() == pytest.approx([10.0, 10**0.2], rel=1e-9)


def test_chow_f_equals_the_statsmodels_f_test_of_an_interacted_trend():
    dates, prices = series(9, break_at=TRUE_BREAK)
    result = outlook.chow_test(dates, prices, TRUE_BREAK)
    x = np.array([(d - START).days for d in dates], dtype=float)
    after = np.array([d >= TRUE_BREAK for d in dates], dtype=float)
    design = np.column_stack([np.ones_like(x), x, after, after * x])
    full = sm.OLS(np.log10(prices), design).fit()
    test = full.f_test(np.array([[0, 0, 1, 0], [0, 0, 0, 1]]))
    assert result["f_stat"] == pytest.approx(float(np.squeeze(test.fvalue)), rel=1e-10)
    assert result["p_value"] == pytest.approx(float(test.pvalue), rel=1e-8)
    assert (result["n_before"], result["n_after"]) == (
        int(len(dates) - after.sum()),
        int(after.sum()),
    )


def test_too_few_points_raise_naming_the_method_and_the_count():
    dates, prices = series(1, n=12)
    with pytest.raises(
        InsufficientData,
        match=r"Chow test at 2022-03-01 \(before the break\) needs at least 3 observations, got [0-2]$",
    ):
        outlook.chow_test(dates, prices, date(2022, 3, 1))
    with pytest.raises(
        InsufficientData, match=r"^sup-F break search needs at least 6 observations, got 5$"
    ):
        outlook.break_search(dates[:5], prices[:5], n_boot=9)
    with pytest.raises(InsufficientData, match=r"^forecast needs at least 4 observations, got 3$"):
        outlook.forecast(dates[:3], prices[:3])
    with pytest.raises(
        InsufficientData, match=r"^segment 2 trend needs at least 3 observations, got 2$"
    ):
        outlook.segmented_trends(dates, prices, [dates[-2]])


def test_bootstrap_p_value_is_reproducible_from_its_seed():
    dates, prices = series(2)
    first = outlook.break_search(dates, prices, n_boot=99, seed=1)[1]["p_value"]
    assert outlook.break_search(dates, prices, n_boot=99, seed=1)[1]["p_value"] == first


# --- the lines the charts draw ------------------------------------------------------------------


def kinked_staircase():
    """An exact kinked series as a staircase frame: 10x a year, then 10**0.2 a year."""
    dates = [START + timedelta(days=61 * k) for k in range(24)]
    kink = (TRUE_BREAK - START).days / 365
    logs = [
        2 - t if t < kink else 2 - kink - 0.2 * (t - kink)
        for t in ((d - START).days / 365 for d in dates)
    ]
    return pl.DataFrame(
        {"model": [f"m{i}" for i in range(24)], "date": dates, "price": [10**v for v in logs]}
    )


def test_trend_fit_is_the_ols_line_of_the_series_from_its_start_date():
    s = kinked_staircase()
    before = s.filter(pl.col("date") < TRUE_BREAK)
    fit = outlook.trend_fit(before)
    assert fit.factor_per_year == pytest.approx(10.0, rel=1e-9)
    # The line through the first segment ends where the series does: exact prices.
    assert fit.line()["price"].to_list() == pytest.approx(
        [before["price"][0], before["price"][-1]], rel=1e-9
    )
    since = outlook.trend_fit(s, since=TRUE_BREAK)
    assert since.factor_per_year == pytest.approx(10**0.2, rel=1e-9)
    assert since.start_date == s.filter(pl.col("date") >= TRUE_BREAK)["date"][0]


def test_segment_lines_run_through_each_segment_s_own_points():
    s = kinked_staircase()
    segments = outlook.segmented_trends(s["date"], s["price"], [TRUE_BREAK])
    lines = outlook.segment_lines(s, segments)
    assert lines.columns == ["segment", "date", "price"]
    assert lines["segment"].to_list() == [1, 1, 2, 2]
    for seg in segments.iter_rows(named=True):
        ends = lines.filter(pl.col("segment") == seg["segment"])
        assert ends["date"].to_list() == [seg["start_date"], seg["end_date"]]
        on_series = s.filter(pl.col("date").is_in(ends["date"].implode()))["price"].to_list()
        assert ends["price"].to_list() == pytest.approx(on_series, rel=1e-9)


def test_each_point_goes_to_the_last_segment_started_by_its_date():
    segments = pl.DataFrame({"segment": [2, 1], "start_date": [date(2024, 1, 1), date(2023, 1, 1)]})
    points = pl.DataFrame(
        {
            "model": ["early", "a", "b", "c"],
            "date": [date(2022, 6, 1), date(2023, 1, 1), date(2023, 12, 31), date(2024, 1, 1)],
            "price": [4.0, 3.0, 2.0, 1.0],
        }
    )
    got = outlook.segment_of(points, segments)
    assert got.columns == ["model", "date", "price", "segment"]
    assert got["segment"].to_list() == [1, 1, 1, 2]


def test_the_bootstrap_replicates_are_one_constant():
    for fn in (outlook.break_search, outlook.outlook):
        assert inspect.signature(fn).parameters["n_boot"].default == outlook.N_BOOT


def test_release_date_reads_the_models_table_and_names_a_missing_model():
    models = pl.DataFrame(
        {"model_id": ["a", "b"], "release_date": [date(2024, 12, 26), None]},
        schema_overrides={"release_date": pl.Date},
    )
    assert outlook.release_date(models, "a") == date(2024, 12, 26)
    for missing in ("b", "c"):
        with pytest.raises(LookupError, match=repr(missing)):
            outlook.release_date(models, missing)


def test_replicates_reached_inverts_the_bootstrap_p_value():
    # p = (1 + reached) / (n_boot + 1): 1/1000 is none of 999, 6/1000 is five.
    def breaks_with(p: float) -> outlook.Breaks:
        return outlook.Breaks(
            richest={}, n_thresholds=0, result={"break_search": {"p_value": p}},
            named_date=date(2025, 1, 1), chow_named={}, points=pl.DataFrame(),
            lines=pl.DataFrame(), whole_fit=None, fitted={},
        )  # fmt: skip

    assert breaks_with(1 / 1000).replicates_reached(999) == 0
    assert breaks_with(6 / 1000).replicates_reached(999) == 5
