"""The quotable estimates: one row each, computed by the chapters' own functions, exportable."""

from __future__ import annotations

import csv
import io

import polars as pl
import pytest

from analysis.data import release as data
from analysis.data.paths import ROOT
from analysis.methods import fixed_capability
from analysis.report import estimates


@pytest.fixture(scope="module")
def table() -> pl.DataFrame:
    return estimates.headline()


def test_one_row_per_estimate_with_version_and_chapter(table):
    assert table["estimate_id"].is_unique().all()
    assert set(table["data_version"]) == {data.current_version()}
    chapters = {p.stem for p in (ROOT / "chapters").glob("*.qmd")}
    assert set(table["chapter"]) <= chapters
    assert table["method"].null_count() == 0 and table["value"].null_count() == 0


def test_intervals_contain_their_estimates(table):
    with_ci = table.filter(pl.col("ci90_low").is_not_null())
    assert with_ci.height >= 6
    assert (
        (with_ci["ci90_low"] <= with_ci["value"]) & (with_ci["value"] <= with_ci["ci90_high"])
    ).all()


def test_values_are_the_chapters_numbers(table):
    epoch = fixed_capability.reproduce_epoch(
        data.load("token_prices"), data.load("benchmark_scores"), data.load("models")
    )
    gpqa = epoch.filter(
        (pl.col("benchmark") == "gpqa-diamond") & (pl.col("threshold_model") == "GPT-4-0314")
    )
    row = table.filter(pl.col("estimate_id") == "epoch-gpqa-gpt4-level").row(0, named=True)
    assert row["value"] == gpqa["factor_per_year"][0] and row["n"] == gpqa["n"][0]


def test_command_exports_csv_and_json(table, cli):
    run = cli("estimates")
    assert run.returncode == 0, run.stderr
    rows = list(csv.DictReader(io.StringIO(run.stdout)))
    assert [r["estimate_id"] for r in rows] == table["estimate_id"].to_list()
    assert list(rows[0]) == list(estimates.COLUMNS)
    run = cli("estimates", "--json")
    assert run.returncode == 0 and '"estimate_id": "h100-on-demand-decline"' in run.stdout
