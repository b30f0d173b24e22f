"""Structural change and outlook for a log-price trend: Chow test, break search, segmented trends,
forecast with prediction intervals.

A series is (dates, prices); the model is OLS of log_base(price) on the date in days, as in
`analysis.methods.trends` (the fits here reuse `fit_log_trend`). All regressions are statsmodels OLS.

- Chow test at a named date: segment 1 is every observation before the date, segment 2 every
  observation on or after it. F = ((SSR_pooled - SSR_1 - SSR_2) / k) / ((SSR_1 + SSR_2) / (n - 2k))
  with k = 2 (intercept and slope), p-value from F(k, n - 2k).
- Break search (sup-F, Quandt-Andrews): the Chow F at every candidate date that leaves at least
  `trim` of the observations (and `min_segment` points) on each side; the statistic is the largest
  F. Its p-value is not the plain F p-value (the date was chosen to maximise F). Andrews (1993)
  tabulates asymptotic critical values for stationary regressors; the regressor here is a time
  trend, and the series are short (10-20 points), so the p-value comes from a residual bootstrap
  instead: resample the pooled fit's residuals onto its fitted line (a series with no break by
  construction), redo the whole search, and count how often the bootstrap sup-F reaches the
  observed one. F is unchanged by the scale of the errors and by the trend, so this null needs no
  tuning; it does assume exchangeable (not serially correlated) errors.
- Segmented trends: separate `fit_log_trend` fits between the break dates (the same segments as
  the Chow test; segments are not forced to join).
- Forecast: the log-linear trend extrapolated month by month to `until`, with the 90% prediction
  interval for a new observation (`get_prediction(...).summary_frame(alpha=0.1)`, `obs_ci_*`).
  Back in price units, `mean` is base ** (predicted mean log price): the median of a log-normal
  price, not its arithmetic mean.

The book applies this to Epoch's fixed-capability staircase on the full data
(`fixed_capability.full_observations`, then the threshold whose staircase has the most points:
`richest_threshold`): the cheapest model at or above a benchmark score, 3:1 blended price.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from datetime import date

import numpy as np
import polars as pl

from analysis.methods import fixed_capability
from analysis.methods.trends import (
    DAYS_PER_YEAR,
    DeclineFit,
    InsufficientData,
    fit_log_trend,
    require_points,
)

K_PARAMS = 2  # intercept and slope: the parameters the Chow test lets change
TRIM = 0.15
MIN_SEGMENT = 3
FORECAST_UNTIL = date(2027, 12, 31)
FORECAST_MIN_POINTS = 4
BOOT_SEED = 20250313
N_BOOT = 999  # bootstrap replicates of the sup-F search
LEVEL = 0.90


# --- the series --------------------------------------------------------------------------------


def _sorted_pairs(dates, prices_) -> tuple[list[date], list[float]]:
    pairs = sorted(zip(list(dates), [float(v) for v in prices_], strict=True))
    return [d for d, _ in pairs], [v for _, v in pairs]


def _sorted_series(dates, prices_, log_base: float) -> tuple[list[date], np.ndarray, np.ndarray]:
    """Dates in order, years since the first date (a well-conditioned regressor), log prices."""
    ds, p = _sorted_pairs(dates, prices_)
    p = np.array(p)
    if not np.all(np.isfinite(p) & (p > 0)):
        raise ValueError("prices must be positive and finite")
    x = np.array([(d - ds[0]).days for d in ds], dtype=float) / DAYS_PER_YEAR
    return ds, x, np.log(p) / np.log(log_base)


def _ssr(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Sum of squared residuals of OLS of y on (1, x); y may hold one series per column."""
    # imported here, not at the top: a page served from the result cache fits nothing
    import statsmodels.api as sm

    res = sm.OLS(y, sm.add_constant(x, has_constant="add")).fit()
    return np.sum(np.asarray(res.resid) ** 2, axis=0)


def _chow_f(x: np.ndarray, y: np.ndarray, split: int) -> np.ndarray:
    n = len(x)
    pooled = _ssr(x, y)
    apart = _ssr(x[:split], y[:split]) + _ssr(x[split:], y[split:])
    with np.errstate(divide="ignore", invalid="ignore"):
        return ((pooled - apart) / K_PARAMS) / (apart / (n - 2 * K_PARAMS))


def _split_at(ds: list[date], break_date: date) -> int:
    return sum(d < break_date for d in ds)


def _check_segment(method: str, x: np.ndarray, side: str) -> None:
    require_points(f"{method} ({side})", len(x), MIN_SEGMENT)
    if np.ptp(x) == 0:
        raise InsufficientData(f"{method} ({side}) needs observations on at least two dates")


# --- Chow test ---------------------------------------------------------------------------------


def chow_test(
    dates, prices_, break_date: date, *, log_base: float = 10.0, data_version: str | None = None
) -> dict:
    """Chow test of one log-linear trend against two, split at `break_date` (which starts the
    second segment). Needs `MIN_SEGMENT` observations on each side."""
    # imported here, not at the top: a page served from the result cache fits nothing
    from scipy import stats

    ds, x, y = _sorted_series(dates, prices_, log_base)
    split = _split_at(ds, break_date)
    method = f"Chow test at {break_date}"
    _check_segment(method, x[:split], "before the break")
    _check_segment(method, x[split:], "from the break on")
    n = len(ds)
    f_stat = float(_chow_f(x, y, split))
    df_denom = n - 2 * K_PARAMS
    return {
        "method": "Chow test",
        "break_date": break_date,
        "f_stat": f_stat,
        "p_value": float(stats.f.sf(f_stat, K_PARAMS, df_denom)),
        "df_num": K_PARAMS,
        "df_denom": df_denom,
        "n": n,
        "n_before": split,
        "n_after": n - split,
        "start_date": ds[0],
        "end_date": ds[-1],
        "data_version": data_version,
    }


# --- break search ------------------------------------------------------------------------------


def candidate_splits(
    ds: list[date], trim: float = TRIM, min_segment: int = MIN_SEGMENT
) -> list[int]:
    """Indices where a new date starts and both sides keep `trim` of the points (at least
    `min_segment`) on at least two dates."""
    n = len(ds)
    edge = max(min_segment, math.ceil(trim * n))
    return [
        i
        for i in range(edge, n - edge + 1)
        if ds[i] != ds[i - 1] and ds[0] != ds[i - 1] and ds[i] != ds[-1]
    ]


def break_search(
    dates,
    prices_,
    *,
    trim: float = TRIM,
    min_segment: int = MIN_SEGMENT,
    n_boot: int = N_BOOT,
    seed: int = BOOT_SEED,
    log_base: float = 10.0,
    data_version: str | None = None,
) -> tuple[pl.DataFrame, dict]:
    """sup-F search for one break in a log-linear trend.

    Returns (the Chow F at every candidate date, a summary dict: best date, sup-F, bootstrap
    p-value, n, the candidate window). Each bootstrap replicate resamples the pooled residuals and
    repeats the search over the same candidates.
    """
    method = "sup-F break search"
    ds, x, y = _sorted_series(dates, prices_, log_base)
    require_points(method, len(ds), 2 * min_segment)
    splits = candidate_splits(ds, trim, min_segment)
    if not splits:
        raise InsufficientData(
            f"{method} has no candidate date with {trim:.0%} trimming and {min_segment} points "
            f"a side: got {len(ds)} observations on {len(set(ds))} dates"
        )
    f_stats = np.array([float(_chow_f(x, y, s)) for s in splits])
    best = int(np.nanargmax(f_stats))
    null_sup = _bootstrap_sup_f(x, y, splits, n_boot, seed)
    candidates = pl.DataFrame(
        {"break_date": [ds[s] for s in splits], "f_stat": f_stats},
        schema_overrides={"break_date": pl.Date},
    )
    summary = {
        "method": method,
        "best_date": ds[splits[best]],
        "sup_f": float(f_stats[best]),
        "p_value": float((1 + np.sum(null_sup >= f_stats[best])) / (n_boot + 1)),
        "p_value_method": f"residual bootstrap, {n_boot} replicates, seed {seed}",
        "trim": trim,
        "n": len(ds),
        "n_candidates": len(splits),
        "first_candidate": ds[splits[0]],
        "last_candidate": ds[splits[-1]],
        # A maximum on the first or last candidate often means the trimming, not the data, set it.
        "best_at_trim_edge": best in (0, len(splits) - 1),
        "start_date": ds[0],
        "end_date": ds[-1],
        "data_version": data_version,
    }
    return candidates, summary


def _bootstrap_sup_f(
    x: np.ndarray, y: np.ndarray, splits: list[int], n_boot: int, seed: int
) -> np.ndarray:
    """sup-F of `n_boot` series with no break: pooled fit + resampled pooled residuals."""
    # imported here, not at the top: a page served from the result cache fits nothing
    import statsmodels.api as sm

    pooled = sm.OLS(y, sm.add_constant(x)).fit()
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(y), size=(len(y), n_boot))
    # One column per replicate: every fit below handles all replicates at once.
    y_null = pooled.fittedvalues[:, None] + np.asarray(pooled.resid)[draws]
    f_null = np.vstack([_chow_f(x, y_null, s) for s in splits])
    return np.nanmax(f_null, axis=0)


# --- segmented trends --------------------------------------------------------------------------


SEGMENT_SCHEMA = {
    "segment": pl.Int64,
    "start_date": pl.Date,
    "end_date": pl.Date,
    "n": pl.Int64,
    "factor_per_year": pl.Float64,
    "ci90_low": pl.Float64,
    "ci90_high": pl.Float64,
    "r_squared": pl.Float64,
    "data_version": pl.String,
}


def segmented_trends(
    dates,
    prices_,
    breaks: list[date],
    *,
    log_base: float = 10.0,
    min_points: int = MIN_SEGMENT,
    data_version: str | None = None,
) -> pl.DataFrame:
    """A log-linear trend per segment between `breaks` (each break starts a segment): factor per
    year with its 90% t-interval, n and window. A segment too short to fit raises, naming it."""
    ds, p = _sorted_pairs(dates, prices_)
    edges = [0, *[_split_at(ds, b) for b in sorted(breaks)], len(ds)]
    rows = []
    for i, (lo, hi) in enumerate(itertools.pairwise(edges), start=1):
        fit = fit_log_trend(
            ds[lo:hi],
            p[lo:hi],
            method=f"segment {i} trend",
            log_base=log_base,
            min_points=min_points,
        )
        rows.append(
            {
                "segment": i,
                "start_date": fit.start_date,
                "end_date": fit.end_date,
                "n": fit.n,
                "factor_per_year": fit.factor_per_year,
                "ci90_low": fit.ci90_low,
                "ci90_high": fit.ci90_high,
                "r_squared": fit.r_squared,
                "data_version": data_version,
            }
        )
    return pl.DataFrame(rows, schema=SEGMENT_SCHEMA)


def trend_fit(series: pl.DataFrame, *, since: date | None = None) -> DeclineFit:
    """The log-linear trend through a (date, price) series, from `since` on: the same OLS as the
    segments and forecasts, as a `DeclineFit` whose `line()` a chart draws."""
    part = series if since is None else series.filter(pl.col("date") >= since)
    return fit_log_trend(
        part["date"].to_list(), part["price"].to_list(), method="staircase trend", min_points=2
    )


def segment_lines(series: pl.DataFrame, segments: pl.DataFrame) -> pl.DataFrame:
    """The fitted line of each segment of `segmented_trends`, refitted on the series' points in
    the segment's window (the segment frame keeps factors, not intercepts): two points per
    segment, in date order (columns segment, date, price)."""
    frames = []
    for s in segments.sort("start_date").iter_rows(named=True):
        part = series.filter(pl.col("date").is_between(s["start_date"], s["end_date"]))
        frames.append(
            trend_fit(part).line().select(pl.lit(s["segment"]).alias("segment"), "date", "price")
        )
    return pl.concat(frames)


def segment_of(series: pl.DataFrame, segments: pl.DataFrame) -> pl.DataFrame:
    """The series' points (model, date, price) with the segment each falls in: the last segment
    starting on or before the point's date (points before every segment go to the first)."""
    ordered = segments.sort("start_date")
    edges, numbers = ordered["start_date"].to_list(), ordered["segment"].to_list()
    kept = [c for c in ("sources",) if c in series.columns]  # the point's price and score rows
    return series.select("model", "date", "price", *kept).with_columns(
        pl.col("date")
        .map_elements(
            lambda d: numbers[max(sum(d >= e for e in edges) - 1, 0)], return_dtype=pl.Int64
        )
        .alias("segment")
    )


# --- forecast ----------------------------------------------------------------------------------


def month_ends(after: date, until: date) -> list[date]:
    """The last day of every month after the month of `after`, through `until`."""
    first = date(after.year + after.month // 12, after.month % 12 + 1, 1)
    if first > until:
        return []
    starts = pl.date_range(first, until, "1mo", eager=True)
    return [d for d in starts.dt.month_end().to_list() if d <= until]


FORECAST_SCHEMA = {
    "date": pl.Date,
    "mean": pl.Float64,
    "pi_low": pl.Float64,
    "pi_high": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
}


def forecast(
    dates,
    prices_,
    *,
    until: date = FORECAST_UNTIL,
    level: float = LEVEL,
    log_base: float = 10.0,
    min_points: int = FORECAST_MIN_POINTS,
    since: date | None = None,
) -> pl.DataFrame:
    """Monthly forecast (date, mean, pi_low, pi_high) in price units from the log-linear trend,
    from the month after the last observation to `until`, with `level` prediction intervals for
    a new observation. Also the confidence interval of the trend line (ci_low, ci_high).
    With `since`, the trend is fitted to the observations on or after that date only."""
    # imported here, not at the top: a page served from the result cache fits nothing
    import statsmodels.api as sm

    dates, prices_ = _window(dates, prices_, since)
    fit = fit_log_trend(
        dates, prices_, method=_forecast_method(since), log_base=log_base, min_points=min_points
    )
    ahead = month_ends(max(dates), until)
    if not ahead:
        return pl.DataFrame(schema=FORECAST_SCHEMA)
    exog = sm.add_constant(
        np.array([d.toordinal() for d in ahead], dtype=float), has_constant="add"
    )
    frame = fit.results.get_prediction(exog).summary_frame(alpha=1 - level)

    def in_price_units(col: str) -> np.ndarray:
        return log_base ** frame[col].to_numpy()

    return pl.DataFrame(
        {
            "date": ahead,
            "mean": in_price_units("mean"),
            "pi_low": in_price_units("obs_ci_lower"),
            "pi_high": in_price_units("obs_ci_upper"),
            "ci_low": in_price_units("mean_ci_lower"),
            "ci_high": in_price_units("mean_ci_upper"),
        },
        schema=FORECAST_SCHEMA,
    )


def _window(dates, prices_, since: date | None) -> tuple[list[date], list[float]]:
    ds, p = _sorted_pairs(dates, prices_)
    keep = [i for i, d in enumerate(ds) if since is None or d >= since]
    return [ds[i] for i in keep], [p[i] for i in keep]


def _forecast_method(since: date | None) -> str:
    return "forecast" if since is None else f"forecast from {since}"


def forecast_summary(
    dates,
    prices_,
    *,
    until: date = FORECAST_UNTIL,
    level: float = LEVEL,
    log_base: float = 10.0,
    since: date | None = None,
    data_version: str | None = None,
) -> dict:
    """The numbers a reader quotes: the trend it extrapolates (factor per year with its 90%
    interval, n, window) and the price it implies at `until` with its `level` prediction
    interval."""
    ds, p = _window(dates, prices_, since)
    fit = fit_log_trend(
        ds,
        p,
        method=_forecast_method(since),
        log_base=log_base,
        min_points=FORECAST_MIN_POINTS,
        level=0.90,
    )
    ahead = forecast(ds, p, until=until, level=level, log_base=log_base)
    last = ahead.tail(1).row(0, named=True) if ahead.height else {}
    return {
        "method": _forecast_method(since),
        "n": fit.n,
        "start_date": fit.start_date,
        "end_date": fit.end_date,
        "factor_per_year": fit.factor_per_year,
        "ci90_low": fit.ci90_low,
        "ci90_high": fit.ci90_high,
        "until": last.get("date"),
        "price_at_until": last.get("mean"),
        "pi_low_at_until": last.get("pi_low"),
        "pi_high_at_until": last.get("pi_high"),
        "level": level,
        "data_version": data_version,
    }


# --- the series the book applies this to -------------------------------------------------------


def richest_threshold(obs: pl.DataFrame, benchmark: str) -> dict:
    """The benchmark threshold (from `fixed_capability.thresholds`) whose staircase has the most
    points; ties go to the lower threshold. Returns the threshold model, score and its points."""
    best = None
    for t in fixed_capability.thresholds(obs, benchmark).iter_rows(named=True):
        steps = fixed_capability.staircase(obs, t["score"])
        key = (steps.height, -t["score"])
        if best is None or key > best[0]:
            best = (key, t, steps)
    if best is None:
        raise InsufficientData(f"no {benchmark} threshold in the observations")
    _, t, steps = best
    return {"threshold_model": t["model"], "threshold_score": t["score"], "staircase": steps}


def outlook(
    series: pl.DataFrame,
    *,
    break_date: date | None = None,
    n_boot: int = N_BOOT,
    until: date = FORECAST_UNTIL,
    data_version: str | None = None,
) -> dict:
    """Every result for one (date, price) series: the break search, the Chow test at
    `break_date` (default: the search's best date, whose plain p-value is then too small: quote
    the search's bootstrap p-value), the trend per segment, and two forecasts: from the trend of
    the whole series and from the trend since the break."""
    d, p = series["date"].to_list(), series["price"].to_list()
    candidates, search = break_search(d, p, n_boot=n_boot, data_version=data_version)
    named = break_date or search["best_date"]
    return {
        "break_search": search,
        "candidates": candidates,
        "chow": chow_test(d, p, named, data_version=data_version),
        "segments": segmented_trends(d, p, [named], data_version=data_version),
        "forecast": forecast(d, p, until=until),
        "forecast_summary": forecast_summary(d, p, until=until, data_version=data_version),
        "forecast_since_break": forecast(d, p, until=until, since=named),
        "forecast_since_break_summary": forecast_summary(
            d, p, until=until, since=named, data_version=data_version
        ),
    }


def release_date(models: pl.DataFrame, model_id: str) -> date:
    """The release date the `models` table gives `model_id` (a break date named in advance)."""
    rows = models.filter(pl.col("model_id") == model_id)
    if rows.height != 1 or rows["release_date"][0] is None:
        raise LookupError(
            f"models: expected one release date for {model_id!r}, found {rows.height}"
        )
    return rows["release_date"][0]


@dataclass(frozen=True)
class Breaks:
    """The break tests and forecasts on a benchmark's richest staircase (`staircase_breaks`), and
    the fitted lines its charts draw."""

    richest: dict  # `richest_threshold`: threshold model, score, staircase
    n_thresholds: int  # thresholds the richest one was chosen from
    result: dict  # `outlook` on the staircase
    named_date: date  # the break date named in advance
    chow_named: dict  # `chow_test` at that date
    points: pl.DataFrame  # the staircase with the segment of each point (`segment_of`)
    lines: pl.DataFrame  # each segment's fitted line (`segment_lines`)
    whole_fit: DeclineFit  # the one trend of the whole series
    fitted: dict[str, pl.DataFrame]  # each forecast's trend over its points, to its first month

    @property
    def series(self) -> pl.DataFrame:
        return self.richest["staircase"]

    @property
    def search(self) -> dict:
        return self.result["break_search"]

    @property
    def break_date(self) -> date:
        return self.search["best_date"]

    @property
    def segments(self) -> pl.DataFrame:
        return self.result["segments"].sort("segment")

    @property
    def forecasts(self) -> dict[str, pl.DataFrame]:
        """The two forecasts, by name: the whole series' trend and the trend since the break."""
        r = self.result
        return {"whole series": r["forecast"], "since the break": r["forecast_since_break"]}

    def replicates_reached(self, n_boot: int = N_BOOT) -> int:
        """How many of `n_boot` bootstrap replicates reached the observed statistic, from the
        p-value (1 + reached) / (n_boot + 1)."""
        return round(self.search["p_value"] * (n_boot + 1)) - 1

    def tests(self, named: str) -> list[dict]:
        """The three tests side by side: the Chow test at the named date (`named` says which),
        at the date the search found, and the search itself."""
        chow_best = self.result["chow"]
        return [
            {**self.chow_named, "test": named},
            {**chow_best, "test": "Chow test at the date the search found (plain p-value)"},
            {
                **self.search,
                "n_before": chow_best["n_before"],
                "n_after": chow_best["n_after"],
                "test": "sup-F search over dates (bootstrap p-value)",
            },
        ]


def staircase_breaks(
    obs: pl.DataFrame,
    benchmark: str,
    named_date: date,
    *,
    n_boot: int = N_BOOT,
    data_version: str | None = None,
) -> Breaks:
    """The staircase of `benchmark` with the most points (`richest_threshold` of `obs`,
    `fixed_capability.full_observations`), the outlook on it (break search, segments,
    forecasts), the Chow test at `named_date`, and the fitted lines the charts draw."""
    richest = richest_threshold(obs, benchmark)
    series = richest["staircase"]
    result = outlook(series, n_boot=n_boot, data_version=data_version)
    d, p = series["date"].to_list(), series["price"].to_list()
    chow_named = chow_test(d, p, named_date, data_version=data_version)
    segments = result["segments"]
    fitted = {
        name: trend_fit(series, since=since).line(until=forecast_["date"].min())
        for name, since, forecast_ in [
            ("whole series", None, result["forecast"]),
            (
                "since the break",
                result["break_search"]["best_date"],
                result["forecast_since_break"],
            ),
        ]
    }
    return Breaks(
        richest=richest,
        n_thresholds=fixed_capability.thresholds(obs, benchmark).height,
        result=result,
        named_date=named_date,
        chow_named=chow_named,
        points=segment_of(series, segments),
        lines=segment_lines(series, segments),
        whole_fit=trend_fit(series),
        fitted=fitted,
    )
