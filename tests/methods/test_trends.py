"""Decline fits: known rates come back, coefficients equal a direct least-squares solution."""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np
import pytest
import statsmodels.api as sm

from analysis.methods import trends
from analysis.methods.trends import (
    InsufficientData,
    bootstrap_factor_interval,
    decline_factor,
    fit_log_trend,
    ordinal_days,
)


def synthetic(factor_per_year: float, n: int = 40, noise: float = 0.15, seed: int = 7):
    rng = np.random.default_rng(seed)
    start = date(2022, 1, 1)
    days = np.sort(rng.integers(0, 3 * 365, n))
    dates = [start + timedelta(days=int(d)) for d in days]
    prices = [30.0 * factor_per_year ** (-d / 365) * 10 ** rng.normal(0, noise) for d in days]
    return dates, prices


@pytest.mark.parametrize("factor", [1.3, 4.3, 10.0, 40.0])
def test_known_decline_factor_is_recovered_within_its_interval(factor):
    dates, prices = synthetic(factor, seed=int(factor * 10))
    fit = fit_log_trend(dates, prices)
    assert fit.ci90_low < factor < fit.ci90_high
    assert fit.factor_per_year == pytest.approx(factor, rel=0.25)
    boot = bootstrap_factor_interval(dates, prices, n_boot=400)
    assert boot[0] < factor < boot[1]


def test_ninety_percent_intervals_cover_the_true_factor_about_ninety_percent_of_the_time():
    hits = sum(
        fit_log_trend(*synthetic(10.0, n=15, seed=s)).ci90_low
        < 10.0
        < fit_log_trend(*synthetic(10.0, n=15, seed=s)).ci90_high
        for s in range(300)
    )
    assert 0.85 <= hits / 300 <= 0.95


def test_exact_series_gives_exact_factor():
    dates = [date(2023, 1, 1) + timedelta(days=91 * k) for k in range(8)]
    prices = [10 * 4.3 ** (-(d - dates[0]).days / 365) for d in dates]
    fit = fit_log_trend(dates, prices)
    assert fit.factor_per_year == pytest.approx(4.3, rel=1e-10)
    assert fit.r_squared == pytest.approx(1.0)


def test_coefficients_equal_least_squares_to_1e10():
    dates, prices = synthetic(7.0, n=25)
    fit = fit_log_trend(dates, prices)
    x = ordinal_days(dates)
    y = np.log10(prices)
    design = np.column_stack([np.ones_like(x), x])
    direct = np.linalg.lstsq(design, y, rcond=None)[0]
    assert fit.intercept == pytest.approx(direct[0], rel=1e-10, abs=1e-10)
    assert fit.slope_per_day == pytest.approx(direct[1], rel=1e-10, abs=1e-14)
    res = sm.OLS(y, sm.add_constant(x)).fit()
    assert fit.r_squared == pytest.approx(res.rsquared, abs=1e-12)


def test_interval_is_the_t_interval_of_the_slope():
    dates, prices = synthetic(5.0, n=12)
    fit = fit_log_trend(dates, prices)
    res = sm.OLS(np.log10(prices), sm.add_constant(ordinal_days(dates))).fit()
    lo, hi = res.conf_int(alpha=0.10)[1]
    assert fit.ci90_low == pytest.approx(decline_factor(hi), rel=1e-12)
    assert fit.ci90_high == pytest.approx(decline_factor(lo), rel=1e-12)


def test_rising_prices_give_a_factor_below_one():
    dates = [date(2024, 1, 1) + timedelta(days=30 * k) for k in range(6)]
    prices = [1.0 * 2 ** ((d - dates[0]).days / 365) for d in dates]
    assert fit_log_trend(dates, prices).factor_per_year == pytest.approx(0.5, rel=1e-9)


def test_too_few_points_names_the_method_and_the_count():
    with pytest.raises(InsufficientData, match=r"my method needs at least 3 observations, got 2"):
        fit_log_trend([date(2024, 1, 1), date(2024, 6, 1)], [2.0, 1.0], method="my method")


def test_one_date_only_is_refused():
    with pytest.raises(InsufficientData, match="two dates"):
        fit_log_trend([date(2024, 1, 1)] * 3, [2.0, 1.0, 3.0])


def test_non_positive_prices_are_refused():
    with pytest.raises(ValueError, match="positive"):
        fit_log_trend([date(2024, 1, 1), date(2024, 2, 1), date(2024, 3, 1)], [2.0, 0.0, 1.0])


def test_bootstrap_is_reproducible():
    dates, prices = synthetic(3.0, n=15)
    assert bootstrap_factor_interval(dates, prices, n_boot=200) == bootstrap_factor_interval(
        dates, prices, n_boot=200
    )


def loop_bootstrap(dates, prices, n_boot, seed, level=0.90):
    """The pre-vectorised reference: one statsmodels OLS per resample, same RNG stream."""
    x = ordinal_days(dates)
    y = np.log10(prices)
    rng = np.random.default_rng(seed)
    factors = []
    for _ in range(n_boot):
        idx = rng.integers(0, len(x), len(x))
        xs, ys = x[idx], y[idx]
        if np.ptp(xs) == 0:
            continue
        slope = sm.OLS(ys, sm.add_constant(xs, has_constant="add")).fit().params[1]
        factors.append(decline_factor(slope))
    tail = (1 - level) / 2 * 100
    return tuple(float(v) for v in np.percentile(factors, [tail, 100 - tail]))


@pytest.mark.parametrize("n", [4, 6, 15])
def test_vectorised_bootstrap_equals_the_statsmodels_loop(n):
    # n=4 draws many resamples with one date only, which both must skip alike.
    dates, prices = synthetic(8.0, n=n, noise=0.3, seed=n)
    fast = bootstrap_factor_interval(dates, prices, n_boot=300, seed=11)
    slow = loop_bootstrap(dates, prices, n_boot=300, seed=11)
    assert fast == pytest.approx(slow, rel=1e-9)


def test_bootstrap_skips_resamples_with_one_date():
    # Two distinct dates among four points: 2 * (1/2)**4 = 1/8 of resamples have one date only.
    dates = [date(2024, 1, 1)] * 2 + [date(2025, 1, 1)] * 2
    prices = [10.0, 10.0, 1.0, 1.0]
    lo, hi = bootstrap_factor_interval(dates, prices, n_boot=500)
    assert lo == pytest.approx(10 ** (365 / 366), rel=1e-12)  # 2024 has 366 days
    assert hi == pytest.approx(lo, rel=1e-12)


def test_bootstrap_interval_brackets_a_known_rate_tightly_on_a_long_series():
    dates, prices = synthetic(6.0, n=400, noise=0.1, seed=3)
    lo, hi = bootstrap_factor_interval(dates, prices)
    assert lo < 6.0 < hi
    assert lo > 5.0 and hi < 7.2


def test_newey_west_errors_are_available_for_autocorrelated_series():
    dates, prices = synthetic(5.0, n=30)
    plain = fit_log_trend(dates, prices)
    hac = fit_log_trend(dates, prices, cov_type="HAC", cov_kwds={"maxlags": 3})
    assert hac.factor_per_year == pytest.approx(plain.factor_per_year, rel=1e-12)
    assert hac.slope_se != pytest.approx(plain.slope_se, rel=1e-6)


def test_predict_draws_the_fitted_line_without_refitting():
    # A synthetic series falling exactly 10x per year from $100 on 2023-01-01.
    start = date(2023, 1, 1)
    dates = [start + timedelta(days=d) for d in (0, 100, 200, 365)]
    prices = [100 * 10 ** (-(d - start).days / 365) for d in dates]
    fit = trends.fit_log_trend(dates, prices)
    assert fit.predict([start, date(2024, 1, 1)]) == pytest.approx([100.0, 10.0], rel=1e-9)
    line = fit.line(until=date(2025, 1, 1))
    assert line["date"].to_list() == [start, date(2025, 1, 1)]
    assert line["price"][1] == pytest.approx(100 * 10 ** (-731 / 365), rel=1e-9)


def test_a_pickled_fit_loads_without_statsmodels(tmp_path):
    """The result cache pickles fits: one read back in a fresh process (Quarto's second format)
    has every number and draws the same line, and the process loads no statsmodels."""
    import pickle
    import subprocess
    import sys

    from analysis.data.paths import ROOT

    days = [date(2024, 1, 1) + timedelta(days=30 * i) for i in range(6)]
    fit = fit_log_trend(days, [10.0 / 1.5**i for i in range(6)])
    assert fit.results is not None  # the fitting code has statsmodels' results
    (tmp_path / "fit.pickle").write_bytes(pickle.dumps(fit))
    script = (
        "import pickle, sys; "
        f"fit = pickle.loads(open({str(tmp_path / 'fit.pickle')!r}, 'rb').read()); "
        "print(fit.factor_per_year, fit.results, 'statsmodels' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [repr(fit.factor_per_year), "None", "False"]
    again = pickle.loads(pickle.dumps(fit))
    assert again == fit and again.results is None
    assert (again.line() == fit.line()).to_series(1).all()
