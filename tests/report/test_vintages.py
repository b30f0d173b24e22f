"""Vintages: each estimate in every release beside the previous release's value."""

from __future__ import annotations

from datetime import date

import polars as pl

from analysis import data
from analysis.report import vintages


def test_each_estimate_is_set_beside_the_release_before():
    # Two releases by hand: the spread share falls from 0.25 to 0.20 (ratio 0.8), the H100
    # decline appears only in the second (no previous value).
    rows = [
        ("2026-11-30", "open-model-spread-share", 0.25),
        ("2026-12-01", "open-model-spread-share", 0.20),
        ("2026-12-01", "h100-on-demand-decline", 1.06),
    ]
    table = pl.DataFrame(
        [
            {
                "estimate_id": e,
                "description": "",
                "unit": "",
                "data_version": v,
                "value": x,
                "ci90_low": None,
                "ci90_high": None,
                "n": 1,
                "window_end": date(2026, 1, 1),
            }
            for v, e, x in rows
        ]
    )
    out = vintages.with_previous(table, ["2026-11-30", "2026-12-01"])
    spread = out.filter(pl.col("estimate_id") == "open-model-spread-share").row(-1, named=True)
    assert spread["previous_version"] == "2026-11-30"
    assert abs(spread["change_ratio"] - 0.8) < 1e-12
    h100 = out.filter(pl.col("estimate_id") == "h100-on-demand-decline").row(0, named=True)
    assert h100["previous_value"] is None and h100["change_ratio"] is None
    # Release order first, then the registry's order (the spread share precedes the H100 decline).
    assert out["data_version"].to_list() == ["2026-11-30", "2026-12-01", "2026-12-01"]
    assert out["estimate_id"].to_list()[1:] == ["open-model-spread-share", "h100-on-demand-decline"]


def test_command_prints_every_estimate_of_every_release(cli):
    run = cli("estimates", "--vintages")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split(",")[:4] == ["estimate_id", "description", "unit", "data_version"]
    n_releases = len(data.releases())
    assert len(lines) - 1 == n_releases * len(vintages.estimates.REGISTRY)
