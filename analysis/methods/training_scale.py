"""MLPerf Training at scale: time to train against the number of GPUs.

Frames in, typed results out: a chapter passes `mlperf_training_results` (one row per run of a
system, `run_minutes` from the run's start to stop in the raw logs).

Rules, stated once:
- A system's time to train is the median of its successful runs. MLPerf's official score drops
  the fastest and slowest runs of a larger set; the median of the runs held is the closest the
  raw logs allow (the logs are not the official score).
- A system whose runs repeat, to the millisecond, the runs of an earlier round (the same
  submitter, accelerator and count) is a resubmission and counts once, in its first round.
- The scaling fit is OLS of log10(minutes) on log10(GPUs) with one intercept per accelerator (a
  newer chip is faster at any count); the slope is the elasticity: -1 is perfect scaling (twice
  the GPUs, half the time), 0 no gain. A pooled fit without accelerator intercepts is reported
  beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl


@dataclass(frozen=True)
class ScalingFit:
    """OLS log10(minutes) = a[accelerator] + b log10(GPUs)."""

    slope: float  # b, the elasticity of time to train with respect to GPU count
    ci_low: float
    ci_high: float
    level: float
    n: int  # systems
    n_accelerators: int
    r_squared: float
    fixed_effects: bool  # one intercept per accelerator (else one for all)
    intercepts: dict[str, float]  # accelerator -> a (log10 minutes at one GPU)

    @property
    def doubling_time_factor(self) -> float:
        """Time to train when the GPU count doubles, as a share of before: 2 ** slope."""
        return 2.0**self.slope


def system_times(runs: pl.DataFrame, *, benchmark: str) -> pl.DataFrame:
    """One row per system of `benchmark`: round, date, submitter, system, accelerator,
    accelerator_count, n_runs and minutes (the median successful run), resubmissions dropped
    (the module's rule)."""
    ok = runs.filter(pl.col("benchmark") == benchmark, pl.col("status") == "success")
    if ok.height == 0:
        raise LookupError(f"no successful MLPerf Training run of {benchmark}")
    per_system = ok.group_by(
        "round", "date", "submitter", "system", "accelerator", "accelerator_count"
    ).agg(
        pl.len().alias("n_runs"),
        pl.col("run_minutes").median().alias("minutes"),
        pl.col("run_minutes").sort().alias("runs"),
    )
    same = ["submitter", "accelerator", "accelerator_count", "runs"]
    return (
        per_system.sort("date", "system")
        .unique(subset=same, keep="first", maintain_order=True)
        .drop("runs")
        .sort("accelerator", "accelerator_count", "date")
    )


def scaling_fit(
    systems: pl.DataFrame, *, fixed_effects: bool = True, level: float = 0.90
) -> ScalingFit:
    """The log-log fit of the module's rule on `system_times` rows."""
    # imported here, not at the top: a page served from the result cache fits nothing
    import pandas as pd
    import statsmodels.formula.api as smf

    n_acc = systems["accelerator"].n_unique()
    need = 2 + (n_acc - 1 if fixed_effects else 0)
    if systems.height <= need:
        raise ValueError(
            f"at least {need + 1} systems are required to fit time to train on GPU count "
            f"({'with' if fixed_effects else 'without'} accelerator intercepts), got "
            f"{systems.height}"
        )
    frame = {
        "log_minutes": np.log10(systems["minutes"].to_numpy()),
        "log_gpus": np.log10(systems["accelerator_count"].to_numpy().astype(float)),
        "accelerator": systems["accelerator"].to_list(),
    }
    formula = "log_minutes ~ log_gpus" + (" + C(accelerator)" if fixed_effects else "")
    fit = smf.ols(formula, data=pd.DataFrame(frame)).fit()
    low, high = fit.conf_int(alpha=1 - level).loc["log_gpus"]
    base = float(fit.params["Intercept"])
    intercepts = {
        acc: base + float(fit.params.get(f"C(accelerator)[T.{acc}]", 0.0))
        for acc in sorted(set(frame["accelerator"]))
    }
    return ScalingFit(
        slope=float(fit.params["log_gpus"]),
        ci_low=float(low),
        ci_high=float(high),
        level=level,
        n=int(fit.nobs),
        n_accelerators=n_acc,
        r_squared=float(fit.rsquared),
        fixed_effects=fixed_effects,
        intercepts=intercepts,
    )


def fitted_points(systems: pl.DataFrame, fit: ScalingFit) -> pl.DataFrame:
    """The fitted line of each accelerator over its own range of GPU counts: two rows per
    accelerator (fewest and most GPUs) with `accelerator_count` and `minutes` on the fit."""
    ranges = systems.group_by("accelerator").agg(
        pl.col("accelerator_count").min().alias("lo"), pl.col("accelerator_count").max().alias("hi")
    )
    rows = []
    for acc, lo, hi in ranges.sort("accelerator").iter_rows():
        for gpus in sorted({lo, hi}):
            log_min = fit.intercepts[acc] + fit.slope * np.log10(gpus)
            rows.append({"accelerator": acc, "accelerator_count": gpus, "minutes": 10**log_min})
    return pl.DataFrame(rows)
