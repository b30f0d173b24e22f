"""Log-linear decline fits: how fast a price falls, as a factor per year, with intervals.

Every regression is an OLS fit by statsmodels of log(price) on the date in days. A slope b (per
day, in log base B) means the price is multiplied by B**(365 b) each year; we report the decline
factor B**(-365 b) (e.g. 10.0 = "falls 10x per year"), and its interval from the slope's
t-interval (the factor is monotone in the slope, so the interval maps over exactly).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

import numpy as np
import polars as pl

DAYS_PER_YEAR = 365
N_BOOT = 2000  # bootstrap draws of `bootstrap_factor_interval` (the chapters quote it)


class InsufficientData(ValueError):
    """Fewer observations than a method needs."""


def require_points(method: str, n: int, minimum: int) -> None:
    if n < minimum:
        raise InsufficientData(f"{method} needs at least {minimum} observations, got {n}")


def ordinal_days(dates) -> np.ndarray:
    """Dates as day numbers (proleptic Gregorian ordinals, as Python's date.toordinal)."""
    return np.array([d.toordinal() for d in dates], dtype=float)


@dataclass(frozen=True)
class DeclineFit:
    """A fitted decline. `factor_per_year` > 1 means prices fall; < 1 means they rise."""

    method: str
    n: int
    start_date: date
    end_date: date
    slope_per_day: float  # in log_base units
    intercept: float
    log_base: float
    factor_per_year: float
    ci90_low: float
    ci90_high: float
    r_squared: float
    slope_se: float
    results: object = field(repr=False, compare=False, default=None)

    def __getstate__(self) -> dict:
        # Pickled (the result cache) without statsmodels' results object, so a page served from
        # the cache loads no statsmodels; only the fitting code reads `results`, before it returns.
        return {**self.__dict__, "results": None}

    def predict(self, dates) -> np.ndarray:
        """The fitted price on each date (the trend line a chart draws), without refitting."""
        return self.log_base ** (self.intercept + self.slope_per_day * ordinal_days(list(dates)))

    def line(self, until: date | None = None) -> pl.DataFrame:
        """Two points of the fitted line, from the first date to the last (or `until`)."""
        ends = [self.start_date, until or self.end_date]
        return pl.DataFrame(
            {"date": ends, "price": self.predict(ends)},
            schema={"date": pl.Date, "price": pl.Float64},
        )

    def as_dict(self) -> dict:
        return {
            "method": self.method,
            "n": self.n,
            "start_date": self.start_date,
            "end_date": self.end_date,
            "factor_per_year": self.factor_per_year,
            "ci90_low": self.ci90_low,
            "ci90_high": self.ci90_high,
            "r_squared": self.r_squared,
        }


def decline_factor(slope_per_day: float, log_base: float = 10.0) -> float:
    return float(log_base ** (-DAYS_PER_YEAR * slope_per_day))


def fit_log_trend(
    dates,
    prices,
    *,
    method: str = "log-linear trend",
    log_base: float = 10.0,
    min_points: int = 3,
    level: float = 0.90,
    cov_type: str = "nonrobust",
    cov_kwds: dict | None = None,
) -> DeclineFit:
    """OLS of log_base(price) on the date in days; factor per year with a `level` t-interval."""
    # imported here, not at the top: a page served from the result cache fits nothing
    import statsmodels.api as sm

    dates = list(dates)
    prices = np.asarray(prices, dtype=float)
    require_points(method, len(dates), min_points)
    if not np.all(np.isfinite(prices) & (prices > 0)):
        raise ValueError(f"{method}: prices must be positive and finite")
    y = np.log(prices) / np.log(log_base)
    x = ordinal_days(dates)
    if np.ptp(x) == 0:
        raise InsufficientData(f"{method} needs observations on at least two dates")
    # cov_type="HAC" with cov_kwds={"maxlags": k} gives Newey-West errors for autocorrelated
    # series such as monthly minima that hold one price for many months.
    res = sm.OLS(y, sm.add_constant(x)).fit(cov_type=cov_type, cov_kwds=cov_kwds)
    lo, hi = res.conf_int(alpha=1 - level)[1]
    slope = float(res.params[1])
    return DeclineFit(
        method=method,
        n=len(dates),
        start_date=min(dates),
        end_date=max(dates),
        slope_per_day=slope,
        intercept=float(res.params[0]),
        log_base=log_base,
        factor_per_year=decline_factor(slope, log_base),
        # A steeper fall (more negative slope) is a larger factor: the bounds swap.
        ci90_low=decline_factor(hi, log_base),
        ci90_high=decline_factor(lo, log_base),
        r_squared=float(res.rsquared),
        slope_se=float(res.bse[1]),
        results=res,
    )


def bootstrap_factor_interval(
    dates,
    prices,
    *,
    n_boot: int = N_BOOT,
    level: float = 0.90,
    seed: int = 20250313,
    log_base: float = 10.0,
) -> tuple[float, float]:
    """Percentile interval of the decline factor from a pairs bootstrap of (date, price).

    Resamples whose dates are all equal cannot be fitted and are skipped. Seeded: the same data
    gives the same interval.
    """
    x = ordinal_days(list(dates))
    y = np.log(np.asarray(prices, dtype=float)) / np.log(log_base)
    require_points("bootstrap interval", len(x), 3)
    rng = np.random.default_rng(seed)
    # All resamples at once (row k holds the k-th draw of n indices, the same stream a loop of
    # rng.integers(0, n, n) calls would consume); each row's OLS slope is cov(x, y) / var(x).
    idx = rng.integers(0, len(x), (n_boot, len(x)))
    xs, ys = x[idx], y[idx]
    xc = xs - xs.mean(axis=1, keepdims=True)
    sxx = (xc * xc).sum(axis=1)
    fitted = np.ptp(xs, axis=1) > 0  # all dates equal: no slope, skipped
    slopes = (xc * (ys - ys.mean(axis=1, keepdims=True))).sum(axis=1)[fitted] / sxx[fitted]
    factors = log_base ** (-DAYS_PER_YEAR * slopes)
    tail = (1 - level) / 2 * 100
    lo, hi = np.percentile(factors, [tail, 100 - tail])
    return float(lo), float(hi)
