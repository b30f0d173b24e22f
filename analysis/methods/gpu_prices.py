"""GPU-hour rental prices: how fast they fall, a quality-adjusted index, drawdowns, the gap between
hyperscalers and smaller clouds, and how price tracks a GPU's age. Also FLOP/s per dollar.

Every function takes polars frames shaped like the data tables (`gpu_hour_prices`, `gpu_specs`),
so a chapter passes `data.load(...)` results. Every estimate a reader might quote also comes back
as data (one-row frames or dicts with n, window and the data version when given).

Choices, stated once:
- Central statistics. `gpu_hour_prices` mixes quotes, medians, indices and distribution tails
  (min, p25, p75). Trend and level work uses the central values only (`CENTRAL_STATISTICS`).
- Aggregate rows. The henryzhang index publishes per-provider medians *and* an across-provider
  median and index computed from them; Ornn publishes an index. Work that compares providers or
  pools them (hedonic index, monthly medians across providers, hyperscaler gap) drops the
  aggregates (`is_aggregate`), so no quote counts twice. Declines per pricing type keep them
  (the "index" pricing type is nothing but aggregates).
- Monthly panel. A provider quoting one GPU many times in a month (regions, instance sizes,
  daily scrapes) gives one observation: the median of its quotes that month (`monthly_panel`).
- GPU groups. Sources name form factors differently (`h100-sxm` in Epoch, `h100` in the restated
  index). By default rows are grouped by `analysis.data.gpus.gpu_family` (`h100-sxm` -> `h100`).
"""

from __future__ import annotations

from datetime import date
from itertools import pairwise

import numpy as np
import polars as pl

from analysis.data.gpus import gpu_family
from analysis.methods import windows
from analysis.methods.claims import claim_row
from analysis.methods.prices import SOURCES, frame_sources, joined_sources
from analysis.methods.trends import (
    DAYS_PER_YEAR,
    InsufficientData,
    decline_factor,
    fit_log_trend,
    ordinal_days,
    require_points,
)

CENTRAL_STATISTICS = [
    "quote",
    "median",
    "median-raw",
    "median-restated",
    "index",
    "index-restated",
    "secure-cloud",
    "community-cloud",
    "bid-floor",  # RunPod's spot price is the bid floor: the price a spot renter pays
]
AGGREGATOR_PROVIDERS = ["gpu-price-index", "ornn", "primeintellect"]
HYPERSCALERS = [
    "amazon-web-services",
    "aws",
    "microsoft-azure",
    "azure",
    "google-cloud",
    "gcp",
    "google",
    "oracle-cloud",
    "oracle",
]
MARKETPLACES = ["vast.ai", "primeintellect"]
DAYS_PER_MONTH = 365.25 / 12


# ---------------------------------------------------------------- expressions


def month_expr(col: str = "date") -> pl.Expr:
    """First day of the date's month."""
    return pl.col(col).dt.truncate("1mo")


def gpu_group_expr(by_family: bool = True) -> pl.Expr:
    """The GPU id used for grouping: its family (form factor stripped) or the exact id."""
    if not by_family:
        return pl.col("gpu").alias("gpu_group")
    return pl.col("gpu").map_elements(gpu_family, return_dtype=pl.String).alias("gpu_group")


def is_aggregate() -> pl.Expr:
    """Rows computed from other rows of the table (indices, across-provider medians)."""
    return pl.col("provider").is_in(AGGREGATOR_PROVIDERS) | (pl.col("pricing") == "index")


def provider_class_expr() -> pl.Expr:
    """hyperscaler / marketplace / aggregate / smaller cloud."""
    return (
        pl.when(is_aggregate() & ~pl.col("provider").is_in(MARKETPLACES))
        .then(pl.lit("aggregate"))
        .when(pl.col("provider").is_in(HYPERSCALERS))
        .then(pl.lit("hyperscaler"))
        .when(pl.col("provider").is_in(MARKETPLACES) | (pl.col("pricing") == "marketplace"))
        .then(pl.lit("marketplace"))
        .otherwise(pl.lit("smaller cloud"))
        .alias("provider_class")
    )


def pct_change_per_year(factor_per_year: float) -> float:
    """A decline factor (price divided by it each year) as percent change per year (-20.0)."""
    return (1.0 / factor_per_year - 1.0) * 100.0


# ---------------------------------------------------------------- panel


def monthly_panel(
    prices: pl.DataFrame,
    *,
    by_family: bool = True,
    statistics: list[str] | None = None,
    drop_aggregates: bool = False,
) -> pl.DataFrame:
    """One row per GPU group x provider x pricing x month: the median of that provider's quotes.

    Columns: gpu_group, provider, pricing, month, usd_per_gpu_hour, n_quotes, and `sources`
    (those of the quotes, where the rows name theirs).
    """
    stats = CENTRAL_STATISTICS if statistics is None else statistics
    rows = prices.filter(pl.col("statistic").is_in(stats), pl.col("usd_per_gpu_hour") > 0)
    if drop_aggregates:
        rows = rows.filter(~is_aggregate())
    return (
        rows.with_columns(gpu_group_expr(by_family), month_expr().alias("month"))
        .group_by("gpu_group", "provider", "pricing", "month")
        .agg(pl.col("usd_per_gpu_hour").median(), pl.len().alias("n_quotes"), *joined_sources(rows))
        .sort("gpu_group", "pricing", "provider", "month")
    )


def on_demand_series(prices: pl.DataFrame, gpu_group: str) -> pl.DataFrame:
    """Monthly median on-demand price across providers of one GPU group, by month."""
    return (
        monthly_median_across_providers(prices, pricing="on-demand")
        .filter(pl.col("gpu_group") == gpu_group)
        .sort("month")
    )


def monthly_median_across_providers(
    prices: pl.DataFrame, *, by_family: bool = True, pricing: str | None = None
) -> pl.DataFrame:
    """Monthly median across providers (each provider's monthly median counts once).

    For pricing type "index" the index rows themselves are used (they are the aggregates);
    otherwise aggregate rows are dropped. Columns: gpu_group, pricing, month,
    usd_per_gpu_hour, n_providers.
    """
    if pricing == "index":
        panel = monthly_panel(prices.filter(pl.col("pricing") == "index"), by_family=by_family)
    else:
        panel = monthly_panel(prices, by_family=by_family, drop_aggregates=True)
    if pricing is not None:
        panel = panel.filter(pl.col("pricing") == pricing)
    return (
        panel.group_by("gpu_group", "pricing", "month")
        .agg(
            pl.col("usd_per_gpu_hour").median(),
            pl.col("provider").n_unique().alias("n_providers"),
            *joined_sources(panel),
        )
        .sort("gpu_group", "pricing", "month")
    )


def history_series(
    prices: pl.DataFrame,
    *,
    gpus: list[str] | None = None,
    pricings: list[str] | None = None,
    since: date | None = None,
    by_family: bool = True,
) -> pl.DataFrame:
    """Monthly price per GPU group and pricing type: the median of the provider-month panel.

    The panel keeps aggregate rows, as `decline_rates` does, so a chart of this series shows
    the observations the decline table is fitted to (spot prices rest mostly on the GPU price
    index's across-provider spot median). Columns: gpu_group, pricing, month,
    usd_per_gpu_hour, n_sources.
    """
    panel = monthly_panel(prices, by_family=by_family)
    if gpus is not None:
        panel = panel.filter(pl.col("gpu_group").is_in(gpus))
    if pricings is not None:
        panel = panel.filter(pl.col("pricing").is_in(pricings))
    if since is not None:
        panel = panel.filter(pl.col("month") >= since)
    return (
        panel.group_by("gpu_group", "pricing", "month")
        .agg(
            pl.col("usd_per_gpu_hour").median(),
            pl.col("provider").n_unique().alias("n_sources"),
            *joined_sources(panel),
        )
        .sort("gpu_group", "pricing", "month")
    )


def largest_jump(series: pl.DataFrame, value_col: str = "usd_per_gpu_hour") -> dict:
    """The largest rise from one observed month to the next of a (month, value) series, with how many months the
    series sat at the old value before it and at the new value after it (a flat run on both
    sides of a jump is the mark of a placeholder or a change of method in the source)."""
    ordered = series.sort("month").select("month", value_col)
    require_points("largest jump", ordered.height, 2)
    months, values = ordered["month"].to_list(), ordered[value_col].to_list()
    ratios = [b / a for a, b in pairwise(values)]
    k = int(np.argmax(ratios))
    before = _run_length(values[k::-1])
    after = _run_length(values[k + 1 :])
    return {
        "from_month": months[k],
        "from_value": values[k],
        "to_month": months[k + 1],
        "to_value": values[k + 1],
        "ratio": ratios[k],
        "months_at_from_value": before,
        "months_at_to_value": after,
    }


def step_changes(
    prices: pl.DataFrame, *, threshold: float = 3.0, gpus: list[str] | None = None
) -> pl.DataFrame:
    """Each source series (GPU group x provider x pricing, monthly) whose largest rise from
    one observed month to the next exceeds `threshold` times. Rental prices do not multiply within a
    month; a step like that, with flat runs on both sides, is a placeholder or an error in the
    source, and a trend fitted through it is meaningless. Columns: gpu_group, pricing,
    provider and the fields of `largest_jump`."""
    panel = monthly_panel(prices)
    if gpus is not None:
        panel = panel.filter(pl.col("gpu_group").is_in(gpus))
    rows = []
    for (gpu, pricing, provider), grp in panel.group_by(
        "gpu_group", "pricing", "provider", maintain_order=True
    ):
        if grp.height < 2:
            continue
        jump = largest_jump(grp)
        if jump["ratio"] > threshold:
            rows.append({"gpu_group": gpu, "pricing": pricing, "provider": provider, **jump})
    schema = {"gpu_group": pl.String, "pricing": pl.String, "provider": pl.String}
    return pl.DataFrame(rows) if rows else pl.DataFrame(schema=schema)


def _run_length(values: list[float]) -> int:
    """How many leading values equal the first."""
    run = 1
    while run < len(values) and values[run] == values[0]:
        run += 1
    return run


def panel_evidence(
    prices: pl.DataFrame, gpu_group: str, pricing: str, *, drop_aggregates: bool = False
) -> dict:
    """The evidence behind the provider-month panel of one GPU group and pricing type (the
    observations `decline_rates` fits; with `drop_aggregates`, those of the medians across
    providers, which leave out aggregate rows), from a frame with `evidence_class`: the classes,
    provider-months per class (a provider-month whose quotes mix classes counts under each),
    provider-months, providers, and the month with the most providers' quotes.

    `classes` lists the classes present, `n_by_class` maps class -> provider-months."""
    rows = prices.filter(
        pl.col("statistic").is_in(CENTRAL_STATISTICS), pl.col("usd_per_gpu_hour") > 0
    ).with_columns(gpu_group_expr(), month_expr().alias("month"))
    rows = rows.filter(pl.col("gpu_group") == gpu_group, pl.col("pricing") == pricing)
    if drop_aggregates:
        rows = rows.filter(~is_aggregate())
    require_points(f"evidence of the {gpu_group} {pricing} panel", rows.height, 1)
    by_class = rows.group_by("evidence_class").agg(
        pl.struct("provider", "month").n_unique().alias("n")
    )
    n_by_class = dict(sorted(by_class.rows()))
    per_month = rows.group_by("month").agg(pl.col("provider").n_unique().alias("n_providers"))
    return {
        "gpu_group": gpu_group,
        "pricing": pricing,
        "classes": sorted(n_by_class),
        "n_by_class": n_by_class,
        "n": rows.select(pl.struct("provider", "month").n_unique()).item(),
        "n_providers": rows["provider"].n_unique(),
        "providers": sorted(rows["provider"].unique().to_list()),
        "min_month_providers": int(per_month["n_providers"].min()),
    }


# ---------------------------------------------------------------- decline rates


def fitted_rates(
    *rates: pl.DataFrame, min_n: int = 10, exclude: list[tuple[str, str]] = ()
) -> pl.DataFrame:
    """The rows of `decline_rates` a table shows: fitted groups with at least `min_n`
    provider-months, less the (gpu_group, pricing) pairs in `exclude` (series with a step).
    Several frames (one per evidence variant) are stacked in the order given."""
    rows = pl.concat(rates).filter(pl.col("factor_per_year").is_not_null(), pl.col("n") >= min_n)
    for gpu, pricing in exclude:
        rows = rows.filter(~((pl.col("gpu_group") == gpu) & (pl.col("pricing") == pricing)))
    return rows


def decline_panel(
    prices: pl.DataFrame, gpu_group: str, pricing: str, *, by_family: bool = True
) -> pl.DataFrame:
    """The provider-months `decline_rates` fits one group's decline on (with their `sources`)."""
    panel = monthly_panel(prices, by_family=by_family)
    return panel.filter(pl.col("gpu_group") == gpu_group, pl.col("pricing") == pricing)


def decline_rates(
    prices: pl.DataFrame,
    *,
    by_family: bool = True,
    provider_effects: bool = True,
    log_base: float = np.e,
    min_points: int = 6,
    min_span_days: int = 180,
    level: float = 0.90,
    data_version: str | None = None,
    only: tuple[str, str] | None = None,
) -> pl.DataFrame:
    """Decline rate per GPU group and pricing type, from the monthly provider panel (`only`:
    one (gpu_group, pricing) group's row, fitted as among all groups, and no other's).

    Log-linear OLS of price on the date over every provider-month observation of the group
    (aggregate rows included: the "index" pricing type is made of them). With
    `provider_effects` (default) each provider gets its own level, so the slope is the decline
    *within* providers: pooling without them lets the mix of providers drive the slope (a cheap
    marketplace entering late looks like a price fall). Without provider effects, or where the
    group has one provider, the fit is `trends.fit_log_trend`. A chapter shows this as a table:
    factor per year with its 90% interval and the same as percent per year (rental prices fall
    slowly: factors of 1.0-1.5, i.e. 0 to -33% per year). Groups too small to fit (fewer than
    `min_points` observations or under `min_span_days` of history) keep a null factor and the
    reason in `note`.
    """
    panel = monthly_panel(prices, by_family=by_family)
    if only is not None:
        panel = panel.filter(pl.col("gpu_group") == only[0], pl.col("pricing") == only[1])
    rows = []
    for (gpu, pricing), grp in panel.group_by("gpu_group", "pricing", maintain_order=True):
        head = (gpu, pricing, grp.height, grp["provider"].n_unique())
        head += (grp["month"].min(), grp["month"].max())
        try:
            fit = _fit_decline(grp, provider_effects, log_base, min_points, min_span_days, level)
        except InsufficientData as exc:
            rows.append((*head, *[None] * 8, str(exc)))
            continue
        rows.append((*head, *fit, None))
    out = pl.DataFrame(rows, schema=_DECLINE_SCHEMA, orient="row")
    out = out.with_columns(pl.lit(data_version, dtype=pl.String).alias("data_version"))
    return out.sort(pl.col("n").neg(), "gpu_group", "pricing")


_DECLINE_SCHEMA = {
    "gpu_group": pl.String,
    "pricing": pl.String,
    "n": pl.Int64,
    "n_providers": pl.Int64,
    "start_date": pl.Date,
    "end_date": pl.Date,
    "method": pl.String,
    "factor_per_year": pl.Float64,
    "ci90_low": pl.Float64,
    "ci90_high": pl.Float64,
    "pct_per_year": pl.Float64,
    "pct_ci90_low": pl.Float64,
    "pct_ci90_high": pl.Float64,
    "r_squared": pl.Float64,
    "note": pl.String,
}


def _fit_decline(grp, provider_effects, log_base, min_points, min_span_days, level) -> tuple:
    """(method, factor, ci low, ci high, pct, pct low, pct high, r2) of one group."""
    span = (grp["month"].max() - grp["month"].min()).days
    if span < min_span_days:
        raise InsufficientData(f"history spans {span} days < {min_span_days}")
    # A series whose price never changes has no variance to explain: R² is undefined (null),
    # not the -inf (and the warning) of 1 - 0/0.
    with np.errstate(divide="ignore", invalid="ignore"):
        if provider_effects and grp["provider"].n_unique() > 1:
            method = "log-linear trend, provider fixed effects"
            factor, lo, hi, r2 = _fit_within_providers(grp, log_base, min_points, level)
        else:
            method = "log-linear trend"
            fit = fit_log_trend(
                grp["month"].to_list(),
                grp["usd_per_gpu_hour"].to_list(),
                log_base=log_base,
                min_points=min_points,
                level=level,
            )
            factor, lo, hi, r2 = fit.factor_per_year, fit.ci90_low, fit.ci90_high, fit.r_squared
    flat = grp["usd_per_gpu_hour"].n_unique() == 1  # rounding leaves 1 - tiny/tiny, not 0/0
    r2 = None if flat or not np.isfinite(r2) else float(r2)
    # A larger factor is a steeper fall: its percent change is the lower bound.
    pcts = (pct_change_per_year(factor), pct_change_per_year(hi), pct_change_per_year(lo))
    return (method, factor, lo, hi, *pcts, r2)


def _fit_within_providers(grp, log_base, min_points, level) -> tuple:
    """OLS of log(price) on days plus provider dummies (statsmodels); factor as in trends."""
    # imported here, not at the top: a page served from the result cache fits nothing
    import statsmodels.formula.api as smf

    require_points("decline with provider effects", grp.height, min_points)
    frame = pl.DataFrame(
        {
            "y": np.log(grp["usd_per_gpu_hour"].to_numpy()) / np.log(log_base),
            "days": ordinal_days(grp["month"].to_list()),
            "provider": grp["provider"],
        }
    ).to_pandas()
    res = smf.ols("y ~ days + C(provider)", data=frame).fit()
    if res.df_resid < 1 or not np.isfinite(res.bse["days"]):
        raise InsufficientData("no within-provider variation in dates to fit a slope")
    lo, hi = res.conf_int(alpha=1 - level).loc["days"]
    factor = decline_factor(res.params["days"], log_base)
    return factor, decline_factor(hi, log_base), decline_factor(lo, log_base), res.rsquared


# ---------------------------------------------------------------- hedonic index


def hedonic_index(
    prices: pl.DataFrame,
    *,
    base_month: date | None = None,
    period: str = "1mo",
    start: date | None = None,
    end: date | None = None,
    by_family: bool = False,
    level: float = 0.90,
    data_version: str | None = None,
) -> tuple[pl.DataFrame, dict]:
    """Time-dummy hedonic price index of GPU-hours.

    OLS (statsmodels formula) of ln(price) on period dummies plus GPU, provider and pricing-type
    fixed effects, over the monthly provider panel without aggregate rows. The index of a period
    is exp(its dummy's coefficient): the price of the same GPU from the same provider on the same
    terms, relative to `base_month` (default: the first period), with a `level` interval from the
    coefficient's t-interval. A chapter plots it as a line with a band. `period` "3mo" pools
    quarters where months are thin. Returns (index frame, summary dict).
    """
    # imported here, not at the top: a page served from the result cache fits nothing
    import statsmodels.formula.api as smf

    panel = _hedonic_panel(prices, period, start, end, by_family)
    periods = panel["period"].unique().sort().to_list()
    require_points("hedonic index", panel.height, len(periods) + 2)
    base = periods[0] if base_month is None else _period_of(base_month, period)
    if base not in periods:
        raise InsufficientData(f"hedonic index: base period {base} has no observations")
    formula = (
        f"log_price ~ C(period_label, Treatment(reference='{base.isoformat()}'))"
        " + C(gpu_group) + C(provider) + C(pricing)"
    )
    res = smf.ols(formula, data=panel.to_pandas()).fit()
    if res.model.rank < res.model.exog.shape[1]:
        raise InsufficientData(
            "hedonic index: the design is rank deficient (a period's GPUs/providers are not "
            "connected to the rest); narrow the window or use a longer period"
        )
    index = _index_frame(res, panel, periods, base, level)
    if (kept := frame_sources(panel)) is not None:  # one regression: every period rests on all
        index = index.with_columns(pl.lit(kept).alias(SOURCES))
    summary = {
        "method": "time-dummy hedonic index: ln(price) ~ period + gpu + provider + pricing",
        "base_period": base,
        "period": period,
        "n": int(res.nobs),
        "n_periods": len(periods),
        "start": periods[0],
        "end": periods[-1],
        "r_squared": float(res.rsquared),
        "level": level,
        "data_version": data_version,
    }
    return index.with_columns(pl.lit(data_version, dtype=pl.String).alias("data_version")), summary


def _period_of(d: date, period: str) -> date:
    return pl.Series([d]).dt.truncate(period).item()


def _hedonic_panel(prices, period, start, end, by_family) -> pl.DataFrame:
    panel = monthly_panel(prices, by_family=by_family, drop_aggregates=True)
    if start is not None:
        panel = panel.filter(pl.col("month") >= start)
    if end is not None:
        panel = panel.filter(pl.col("month") <= end)
    return panel.with_columns(
        pl.col("month").dt.truncate(period).alias("period"),
        pl.col("usd_per_gpu_hour").log().alias("log_price"),
    ).with_columns(pl.col("period").dt.to_string("%Y-%m-%d").alias("period_label"))


def _index_frame(res, panel, periods, base, level) -> pl.DataFrame:
    ci = res.conf_int(alpha=1 - level)
    counts = dict(panel.group_by("period").len().iter_rows())
    rows = []
    for p in periods:
        name = f"C(period_label, Treatment(reference='{base.isoformat()}'))[T.{p.isoformat()}]"
        coef, lo, hi = (0.0, 0.0, 0.0) if p == base else (res.params[name], *ci.loc[name])
        rows.append((p, float(np.exp(coef)), float(np.exp(lo)), float(np.exp(hi)), counts[p]))
    return pl.DataFrame(
        rows,
        schema=["period", "index", "ci_low", "ci_high", "n_obs"],
        orient="row",
    )


# The hedonic index's window and base (analysis.methods.windows): a month with fewer than
# HEDONIC_MIN_PER_MONTH panel observations is not a window end (every month of the index since
# its start, in every release, has at least 3), and the base is this month, not the window's
# first.
HEDONIC_MIN_PER_MONTH = 3
HEDONIC_BASE_MONTH = date(2023, 9, 1)


def hedonic_window(
    prices: pl.DataFrame, *, by_family: bool = False, minimum: int = HEDONIC_MIN_PER_MONTH
) -> windows.Window:
    """The unbroken run of months, ending at the latest month with at least `minimum`
    observations, in which the hedonic panel (no aggregate rows) has `minimum` observations a
    month (`windows.unbroken_window`). A monthly time-dummy index needs observations every month;
    where months are missing the index jumps between regimes of sources."""
    months = monthly_panel(prices, by_family=by_family, drop_aggregates=True)["month"]
    return windows.unbroken_window(months.to_list(), minimum, "hedonic index window")


def unbroken_months_start(prices: pl.DataFrame, *, by_family: bool = False) -> date:
    """First month of the unbroken run of months, ending at the latest month, in which the
    hedonic panel (no aggregate rows) has observations (`hedonic_window` with a minimum of one)."""
    return hedonic_window(prices, by_family=by_family, minimum=1).start


def _months_between_dates(a: date, b: date) -> int:
    return (b.year - a.year) * 12 + b.month - a.month


# ---------------------------------------------------------------- drawdown


def drawdown_from_peak(prices: pl.DataFrame, *, by_family: bool = True) -> pl.DataFrame:
    """How far each GPU's price has fallen from its peak, by GPU group and pricing type.

    Statistic: the monthly median across providers (each provider's monthly median counts once;
    aggregate rows only for the "index" pricing type). Columns: peak month and price, latest
    month and price, drawdown_pct = (latest / peak - 1) x 100, months from peak to latest.
    A chapter shows it as a table ("H100 on-demand is 60% below its peak").
    """
    frames = [
        monthly_median_across_providers(prices, by_family=by_family, pricing=p)
        for p in prices["pricing"].unique().sort().to_list()
    ]
    series = pl.concat([f for f in frames if f.height], how="vertical")
    return drawdown_table(series, ["gpu_group", "pricing"])


def main_series(frame: pl.DataFrame, gpus: list[str], *, min_months: int) -> pl.DataFrame:
    """The rows of a drawdown frame (`drawdown_from_peak`) for `gpus`, series of at least
    `min_months` months: the drawdown table's rows."""
    return frame.filter(pl.col("gpu_group").is_in(gpus), pl.col("n_months") >= min_months)


def series_drawdown(drawdowns: pl.DataFrame, gpu_group: str, pricing: str = "on-demand") -> dict:
    """One series' row of `drawdown_from_peak` (peak, latest, drawdown), as a dict."""
    return one_row(
        drawdowns,
        f"a {pricing} drawdown of {gpu_group}",
        pl.col("gpu_group") == gpu_group,
        pl.col("pricing") == pricing,
    )


def drawdown_table(series: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """Peak, latest and drawdown of a (by..., month, usd_per_gpu_hour) series. Where the series
    has n_providers, the provider counts of the peak and latest months come along: a peak made
    by a month with few (or dear) providers is the mix of providers, not the market."""
    ordered = series.sort([*by, "month"])
    peak = pl.col("usd_per_gpu_hour").arg_max()
    counts = []
    if "n_providers" in series.columns:
        counts = [
            pl.col("n_providers").get(peak).alias("peak_n_providers"),
            pl.col("n_providers").last().alias("latest_n_providers"),
        ]
    return (
        ordered.group_by(by, maintain_order=True)
        .agg(
            pl.len().alias("n_months"),
            pl.col("month").get(peak).alias("peak_month"),
            pl.col("usd_per_gpu_hour").max().alias("peak_usd_per_gpu_hour"),
            pl.col("month").last().alias("latest_month"),
            pl.col("usd_per_gpu_hour").last().alias("latest_usd_per_gpu_hour"),
            *counts,
        )
        .with_columns(
            ((pl.col("latest_usd_per_gpu_hour") / pl.col("peak_usd_per_gpu_hour") - 1) * 100).alias(
                "drawdown_pct"
            ),
            _months_between("peak_month", "latest_month").alias("months_since_peak"),
        )
    )


def _months_between(a: str, b: str) -> pl.Expr:
    return (pl.col(b).dt.year() - pl.col(a).dt.year()) * 12 + (
        pl.col(b).dt.month().cast(pl.Int64) - pl.col(a).dt.month().cast(pl.Int64)
    )


def providers_in_month(
    prices: pl.DataFrame, gpu_group: str, pricing: str, month: date
) -> pl.DataFrame:
    """Each provider's monthly median for one GPU group, pricing type and month (aggregate
    rows dropped), dearest first, with provider_class: who makes a month's median."""
    return (
        monthly_panel(prices, drop_aggregates=True)
        .filter(
            pl.col("gpu_group") == gpu_group,
            pl.col("pricing") == pricing,
            pl.col("month") == date(month.year, month.month, 1),
        )
        .with_columns(provider_class_expr())
        .sort("usd_per_gpu_hour", descending=True)
    )


def provider_drawdowns(
    prices: pl.DataFrame,
    *,
    pricing: str = "on-demand",
    gpus: list[str] | None = None,
    min_months: int = 6,
    by_family: bool = True,
) -> pl.DataFrame:
    """Peak-to-latest drawdown of each provider's own monthly price (aggregate rows dropped),
    for providers quoting the GPU in at least `min_months` months. Unlike the drawdown of the
    median across providers, the mix of providers cannot make a peak: each provider is
    compared with itself. Columns as `drawdown_table`, plus provider and provider_class."""
    panel = monthly_panel(prices, by_family=by_family, drop_aggregates=True).filter(
        pl.col("pricing") == pricing
    )
    if gpus is not None:
        panel = panel.filter(pl.col("gpu_group").is_in(gpus))
    table = drawdown_table(panel, ["gpu_group", "pricing", "provider"])
    classes = panel.with_columns(provider_class_expr()).select("provider", "provider_class")
    return (
        table.filter(pl.col("n_months") >= min_months)
        .join(classes.unique(), on="provider", how="left")
        .sort("gpu_group", "drawdown_pct")
    )


def settled_range_check(
    series: pl.DataFrame,
    low: float,
    high: float,
    *,
    end: date,
    months: int = 12,
    value_col: str = "usd_per_gpu_hour",
) -> dict:
    """How a monthly series sits against a claimed price range [low, high] over the `months`
    months up to `end`: its lowest, highest and median monthly value, and the share of months
    inside the range. For claims that a price "stabilised at $a-b"."""
    first = date(end.year, end.month, 1)
    start = _add_months(first, -(months - 1))
    window = series.filter(pl.col("month") >= start, pl.col("month") <= first)
    require_points("settled-range check", window.height, 1)
    values = window[value_col]
    inside = ((values >= low) & (values <= high)).sum()
    return {
        "start": window["month"].min(),
        "end": window["month"].max(),
        "n_months": window.height,
        "low": low,
        "high": high,
        "min": float(values.min()),
        "max": float(values.max()),
        "median": float(values.median()),
        "share_in_range": inside / window.height,
    }


def _add_months(d: date, k: int) -> date:
    y, m = divmod(d.month - 1 + k, 12)
    return date(d.year + y, m + 1, 1)


# ---------------------------------------------------------------- hyperscaler gap


def hyperscaler_gap(
    prices: pl.DataFrame,
    *,
    pricing: str = "on-demand",
    by_family: bool = True,
    level: float = 0.90,
    data_version: str | None = None,
) -> tuple[pl.DataFrame, dict]:
    """Hyperscalers (AWS, Azure, GCP, Oracle) against smaller clouds, same GPU and month.

    For each GPU group x month quoted by both classes: ratio = median hyperscaler price / median
    smaller-cloud price (each provider's monthly median counts once; marketplaces and aggregate
    rows excluded). Summary: median ratio, and the geometric-mean ratio with a `level` interval
    from an intercept-only OLS of log(ratio) (statsmodels). A chapter quotes "hyperscalers charge
    about 2x for the same GPU in the same month". The summary also counts the providers of the
    paired months and, where `prices` has `evidence_class`, lists the classes of their quotes.
    """
    panel = (
        monthly_panel(prices, by_family=by_family, drop_aggregates=True)
        .filter(pl.col("pricing") == pricing)
        .with_columns(provider_class_expr())
        .filter(pl.col("provider_class").is_in(["hyperscaler", "smaller cloud"]))
    )
    by_class = panel.group_by("gpu_group", "month", "provider_class").agg(
        pl.col("usd_per_gpu_hour").median(), pl.col("provider").n_unique().alias("n_providers")
    )
    hyper = by_class.filter(pl.col("provider_class") == "hyperscaler").drop("provider_class")
    small = by_class.filter(pl.col("provider_class") == "smaller cloud").drop("provider_class")
    pairs = (
        hyper.join(small, on=["gpu_group", "month"], suffix="_smaller")
        .rename(
            {"usd_per_gpu_hour": "hyperscaler_usd_per_gpu_hour", "n_providers": "n_hyperscalers"}
        )
        .rename({"usd_per_gpu_hour_smaller": "smaller_usd_per_gpu_hour"})
        .with_columns(
            (pl.col("hyperscaler_usd_per_gpu_hour") / pl.col("smaller_usd_per_gpu_hour")).alias(
                "ratio"
            )
        )
        .sort("gpu_group", "month")
    )
    paired = panel.join(pairs.select("gpu_group", "month"), on=["gpu_group", "month"], how="semi")
    summary = _ratio_summary(pairs, pricing, level, data_version)
    summary["n_providers"] = paired["provider"].n_unique()
    if "evidence_class" in prices.columns:  # the classes of the quotes the pairs rest on
        rows = prices.with_columns(gpu_group_expr(by_family), month_expr().alias("month"))
        used = rows.join(
            paired.select("gpu_group", "month", "provider", "pricing").unique(),
            on=["gpu_group", "month", "provider", "pricing"],
            how="semi",
        )
        summary["classes"] = sorted(used["evidence_class"].unique().to_list())
    return pairs, summary


def _ratio_summary(pairs: pl.DataFrame, pricing: str, level: float, version) -> dict:
    # imported here, not at the top: a page served from the result cache fits nothing
    import statsmodels.api as sm

    require_points("hyperscaler gap", pairs.height, 2)
    log_ratio = np.log(pairs["ratio"].to_numpy())
    res = sm.OLS(log_ratio, np.ones_like(log_ratio)).fit()
    lo, hi = res.conf_int(alpha=1 - level)[0]
    return {
        "pricing": pricing,
        "n": pairs.height,
        "n_gpus": pairs["gpu_group"].n_unique(),
        "start": pairs["month"].min(),
        "end": pairs["month"].max(),
        "median_ratio": float(pairs["ratio"].median()),
        "geometric_mean_ratio": float(np.exp(res.params[0])),
        "ci90_low": float(np.exp(lo)),
        "ci90_high": float(np.exp(hi)),
        "level": level,
        "data_version": version,
    }


# ---------------------------------------------------------------- age


def release_dates(specs: pl.DataFrame) -> pl.DataFrame:
    """Release date per exact GPU id and per family (the earliest in the family), with the
    sources of the chip rows it was taken from (`release_source`) where they name theirs."""
    dated = specs.filter(pl.col("release_date").is_not_null())
    kept = [e.alias("release_source") for e in joined_sources(dated)]
    exact = dated.select(
        "gpu", "release_date", *[c for c in ("source_id", "source_ids") if c in dated.columns]
    )
    family = (
        exact.with_columns(
            pl.col("gpu").map_elements(gpu_family, return_dtype=pl.String).alias("gpu_group")
        )
        .group_by("gpu_group")
        .agg(pl.col("release_date").min(), *kept)
    )
    by_exact = exact.rename({"gpu": "gpu_group"})
    extra = family.join(by_exact, on="gpu_group", how="anti")
    earliest = by_exact.group_by("gpu_group").agg(pl.col("release_date").min(), *kept)
    return pl.concat([earliest, extra])


def with_gpu_age(panel: pl.DataFrame, specs: pl.DataFrame) -> pl.DataFrame:
    """Add release_date and age_months (months since release) to a frame with gpu_group, month.

    The release date comes from gpu_specs by exact id, else the earliest release in the GPU's
    family. A chapter plots price against age: what a GPU costs one, two, three years on.
    """
    out = panel.join(release_dates(specs), on="gpu_group", how="left")
    age = (pl.col("month") - pl.col("release_date")).dt.total_days() / DAYS_PER_MONTH
    return out.with_columns(age.alias("age_months"))


def price_by_age(prices: pl.DataFrame, specs: pl.DataFrame, *, by_family: bool = True):
    """Monthly median price across providers per GPU group and pricing, with the GPU's age.

    Rows whose GPU has no release date keep a null age.
    """
    frames = [
        monthly_median_across_providers(prices, by_family=by_family, pricing=p)
        for p in prices["pricing"].unique().sort().to_list()
    ]
    series = pl.concat([f for f in frames if f.height], how="vertical")
    return with_gpu_age(series, specs)


def on_demand_by_age(prices: pl.DataFrame, specs: pl.DataFrame, gpus: list[str]) -> pl.DataFrame:
    """`price_by_age` of the on-demand series of `gpus`."""
    return price_by_age(prices, specs).filter(
        pl.col("pricing") == "on-demand", pl.col("gpu_group").is_in(gpus)
    )


def latest_month_of(frame: pl.DataFrame, gpu_group: str) -> dict:
    """The latest month's row of one GPU group in a monthly frame (`on_demand_by_age`,
    `on_demand_series`), as a dict."""
    return one_row(
        frame.sort("month", descending=True),
        f"a month of {gpu_group}",
        pl.col("gpu_group") == gpu_group,
    )


def before_release(by_age: pl.DataFrame) -> pl.DataFrame:
    """The months of `on_demand_by_age` priced before the GPU's release date (a negative age)."""
    return by_age.filter(pl.col("age_months") < 0)


# ---------------------------------------------------------------- FLOP/s per dollar

PRECISION_COLUMNS = {
    "fp32": "fp32_tflop_per_s",
    "tf32": "tf32_tflop_per_s",
    "fp16": "fp16_tflop_per_s",
    "fp8": "fp8_tflop_per_s",
}
EPOCH_FLOPS_PER_DOLLAR_GROWTH = 0.30  # Epoch AI: ML hardware FLOP/s per $ improves ~30% a year


def flops_per_dollar_at_release(specs: pl.DataFrame, *, precision: str = "fp32") -> pl.DataFrame:
    """FLOP/s per purchase dollar of each chip at release (release_price_usd), by release date."""
    col = PRECISION_COLUMNS[precision]
    return (
        specs.filter(
            pl.col(col).is_not_null(),
            pl.col("release_price_usd") > 0,
            pl.col("release_date").is_not_null(),
        )
        .select(
            "gpu",
            "release_date",
            "release_price_usd",
            pl.col(col).alias("tflop_per_s"),
            (pl.col(col) * 1e12 / pl.col("release_price_usd")).alias("flop_per_s_per_usd"),
            *[c for c in ("source_id", "source_ids") if c in specs.columns],  # the chip's row
        )
        .sort("release_date")
    )


def flops_per_rental_dollar(
    prices: pl.DataFrame, specs: pl.DataFrame, *, precision: str = "fp16"
) -> pl.DataFrame:
    """FLOP per rental dollar of each provider-month observation: FLOP/s x 3600 / ($/hour).

    Joined to specs by exact GPU id (rental prices and specs must name the same part).
    """
    col = PRECISION_COLUMNS[precision]
    panel = monthly_panel(prices, by_family=False, drop_aggregates=True)
    spec = specs.select(pl.col("gpu").alias("gpu_group"), pl.col(col).alias("tflop_per_s"))
    return (
        panel.join(spec.filter(pl.col("tflop_per_s").is_not_null()), on="gpu_group")
        .with_columns(
            (pl.col("tflop_per_s") * 1e12 * 3600 / pl.col("usd_per_gpu_hour")).alias("flop_per_usd")
        )
        .sort("month")
    )


def flops_per_dollar_trend(
    frame: pl.DataFrame,
    *,
    date_col: str = "release_date",
    value_col: str = "flop_per_s_per_usd",
    label: str = "FLOP/s per $",
    data_version: str | None = None,
) -> dict:
    """Growth of FLOP/s per dollar: `fit_log_trend` (log base 10) over the given dates.

    fit_log_trend reports a decline factor; FLOP/s per dollar rises, so the growth factor per
    year is its reciprocal (interval bounds swap). Compared with Epoch AI's ~30% per year.
    """
    fit = fit_log_trend(frame[date_col].to_list(), frame[value_col].to_list(), method=label)
    growth = 1 / fit.factor_per_year
    return {
        "method": label,
        "n": fit.n,
        "start_date": fit.start_date,
        "end_date": fit.end_date,
        # log10(value) = intercept + slope x ordinal day: enough to draw the fitted line
        "slope_log10_per_day": fit.slope_per_day,
        "intercept_log10": fit.intercept,
        "growth_factor_per_year": growth,
        "ci90_low": 1 / fit.ci90_high,
        "ci90_high": 1 / fit.ci90_low,
        "pct_per_year": (growth - 1) * 100,
        "pct_ci90_low": (1 / fit.ci90_high - 1) * 100,
        "pct_ci90_high": (1 / fit.ci90_low - 1) * 100,
        "r_squared": fit.r_squared,
        "epoch_reference_pct_per_year": EPOCH_FLOPS_PER_DOLLAR_GROWTH * 100,
        "data_version": data_version,
    }


def trend_values(trend: dict, dates: list[date], growth_per_year: float | None = None) -> list:
    """Values of a `flops_per_dollar_trend` line at `dates`. With `growth_per_year` (e.g. 0.30)
    the line keeps the fit's value at the middle of its window but grows at that rate instead:
    a reference slope drawn through the data."""
    x = ordinal_days(dates)
    if growth_per_year is None:
        return [
            float(v) for v in 10 ** (trend["intercept_log10"] + trend["slope_log10_per_day"] * x)
        ]
    mid = ordinal_days([trend["start_date"]])[0] / 2 + ordinal_days([trend["end_date"]])[0] / 2
    at_mid = trend["intercept_log10"] + trend["slope_log10_per_day"] * mid
    slope = np.log10(1 + growth_per_year) / DAYS_PER_YEAR
    return [float(v) for v in 10 ** (at_mid + slope * (x - mid))]


def price_for_advantage(
    specs: pl.DataFrame,
    challenger: str,
    incumbent: str,
    incumbent_usd_per_hour: float,
    advantage: float,
    *,
    precision: str = "fp8",
) -> dict:
    """The hourly price at which `challenger` would offer (1 + advantage) times the peak
    FLOP/s per rental dollar of `incumbent` at `incumbent_usd_per_hour`, from the spec sheet.

    Peak FLOP/s per dollar is an upper bound on what a claim of "performance per dollar" can
    mean without benchmark results: the price it returns is the most the challenger could rent
    for and still keep the advantage on paper.
    """
    col = PRECISION_COLUMNS[precision]
    peaks = dict(
        specs.filter(pl.col("gpu").is_in([challenger, incumbent])).select("gpu", col).rows()
    )
    missing = [g for g in (challenger, incumbent) if peaks.get(g) is None]
    if missing:
        raise InsufficientData(f"gpu_specs has no {col} for {', '.join(missing)}")
    peak_ratio = peaks[challenger] / peaks[incumbent]
    return {
        "challenger": challenger,
        "incumbent": incumbent,
        "precision": precision,
        "challenger_tflop_per_s": peaks[challenger],
        "incumbent_tflop_per_s": peaks[incumbent],
        "peak_ratio": peak_ratio,
        "incumbent_usd_per_hour": incumbent_usd_per_hour,
        "advantage": advantage,
        "max_challenger_usd_per_hour": incumbent_usd_per_hour * peak_ratio / (1 + advantage),
    }


# ---------------------------------------------------------------- lookups and claims


def one_row(frame: pl.DataFrame, what: str, *predicates: pl.Expr) -> dict:
    """The first row of `frame` matching `predicates`, as a dict; raises LookupError naming
    `what` (the value a chapter looks for) if no row matches."""
    rows = frame.filter(*predicates) if predicates else frame
    if rows.height == 0:
        raise LookupError(f"no row for {what}")
    return rows.row(0, named=True)


def claim_checks(claims: pl.DataFrame, shows: dict[str, str]) -> pl.DataFrame:
    """The claims named in `shows` (claim_id -> what the data shows), in that order: their rows
    of the claims table with the finding as `data_shows`."""
    rows = [{**claim_row(claims, cid), "data_shows": text} for cid, text in shows.items()]
    return pl.DataFrame(rows)
