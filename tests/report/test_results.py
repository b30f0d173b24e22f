"""The shared results per data version: computed from the release, cached, version stated."""

from __future__ import annotations

from datetime import date

from analysis import data
from analysis.report import results


def test_released_data_starts_at_gpt3_davinci_at_60_dollars():
    # a16z's starting point: GPT-3 at $60 per 1M tokens in November 2021.
    series, fits = results.a16z()
    first = series.row(0, named=True)
    assert (first["month"], first["model_id"], first["price"]) == (
        date(2021, 11, 1),
        "gpt-3-davinci",
        60.0,
    )
    assert set(series["basis"]) <= {"1:1 blend", "3:1 blend of a single-priced model (= 1:1)"}
    assert fits["data_version"] == data.current_version()
    assert fits["a16z_window"]["end_month"] == date(2024, 11, 1)
    assert series["month"].max() <= results.version_date(fits["data_version"])


def test_results_are_computed_once_per_version():
    assert results.epoch() is results.epoch(data.current_version())
    assert results.version_date("2026-12-01.2") == date(2026, 12, 1)
