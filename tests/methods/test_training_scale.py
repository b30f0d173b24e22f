"""Tests of analysis.methods.training_scale on synthetic runs with a known elasticity."""

from __future__ import annotations

import math
from datetime import date

import polars as pl
import pytest

from analysis.methods import training_scale as ts

V50, V51 = date(2025, 5, 30), date(2025, 11, 5)


def _runs(slope: float = -0.9) -> pl.DataFrame:
    """Three runs per system; minutes = 10^a x GPUs^slope, a by accelerator, with a small
    alternating wobble between systems so the fit has residuals."""
    rows = []
    base = {"x": 4.0, "y": 3.7}
    for i, (acc, gpus) in enumerate(
        [("x", 256), ("x", 512), ("x", 1024), ("x", 4096), ("y", 512), ("y", 2048)]
    ):
        minutes = 10 ** (base[acc] + slope * math.log10(gpus)) * (1.01 if i % 2 else 0.99)
        for k, factor in enumerate((0.98, 1.0, 1.05)):
            rows.append(
                {
                    "round": "v5.0",
                    "date": V50,
                    "submitter": "s",
                    "system": f"{acc}{gpus}",
                    "benchmark": "llama31_405b",
                    "run": f"result_{k}",
                    "accelerator": acc,
                    "accelerator_count": gpus,
                    "run_minutes": minutes * factor,
                    "status": "success",
                }
            )
    return pl.DataFrame(rows)


def test_system_times_take_the_median_run_and_drop_resubmissions():
    runs = _runs()
    again = runs.filter(pl.col("system") == "x512").with_columns(
        pl.lit("v5.1").alias("round"),
        pl.lit(V51).alias("date"),
        pl.lit("x512-again").alias("system"),
    )
    systems = ts.system_times(pl.concat([runs, again]), benchmark="llama31_405b")
    assert systems.height == 6  # the v5.1 copy of x512 counts once, in v5.0
    x512 = systems.filter(pl.col("system") == "x512").row(0, named=True)
    assert x512["round"] == "v5.0" and x512["n_runs"] == 3
    raw = runs.filter(pl.col("system") == "x512")["run_minutes"].sort().to_list()
    assert x512["minutes"] == pytest.approx(raw[1])


def test_scaling_fit_recovers_the_elasticity():
    systems = ts.system_times(_runs(-0.9), benchmark="llama31_405b")
    fit = ts.scaling_fit(systems)
    assert fit.slope == pytest.approx(-0.9, abs=0.02)
    assert fit.ci_low < fit.slope < fit.ci_high
    assert (fit.n, fit.n_accelerators) == (6, 2)
    assert fit.doubling_time_factor == pytest.approx(2**fit.slope)
    assert fit.intercepts["x"] == pytest.approx(4.0, abs=0.05)
    assert fit.intercepts["y"] == pytest.approx(3.7, abs=0.05)
    line = ts.fitted_points(systems, fit)
    x = line.filter(pl.col("accelerator") == "x").sort("accelerator_count")
    assert x["accelerator_count"].to_list() == [256, 4096]
    assert x["minutes"][0] == pytest.approx(
        10 ** (fit.intercepts["x"] + fit.slope * 2.40824), rel=1e-4
    )


def test_scaling_fit_needs_more_systems_than_parameters():
    systems = ts.system_times(_runs(), benchmark="llama31_405b").filter(
        pl.col("system").is_in(["x256", "x512", "y512"])
    )
    with pytest.raises(ValueError, match="at least 4 systems"):
        ts.scaling_fit(systems)


def test_system_times_names_a_missing_benchmark():
    with pytest.raises(LookupError, match="bert"):
        ts.system_times(_runs(), benchmark="bert")
