"""Epoch AI's March 2025 fixed-capability price trends, recomputed from the project's data."""

from __future__ import annotations

import csv
import io

import polars as pl
import pytest

from analysis.data import release as data
from analysis.methods import fixed_capability

COLUMNS = "benchmark,threshold_model,threshold_models,threshold_score,n,start_date,end_date,factor_per_year,ci90_low,ci90_high,r_squared"


@pytest.fixture(scope="module")
def table() -> pl.DataFrame:
    return fixed_capability.reproduce_epoch(
        data.load("token_prices"), data.load("benchmark_scores"), data.load("models")
    )


def test_gpt4_level_on_gpqa_diamond_falls_about_40x_per_year(table):
    row = table.filter(
        (pl.col("benchmark") == "gpqa-diamond") & (pl.col("threshold_model") == "GPT-4-0314")
    ).row(0, named=True)
    stated = fixed_capability.EPOCH_PUBLISHED["gpqa_gpt4_level_factor"]
    assert round(row["factor_per_year"], -1) == stated
    assert row["ci90_low"] < stated < row["ci90_high"]


def test_one_row_per_distinct_threshold_21_as_in_epochs_table(table):
    # Epoch's published table has 21 trends; four thresholds are set by two tied models each.
    assert table.height == 21 == fixed_capability.EPOCH_PUBLISHED["trends"]
    assert table.select("benchmark", "threshold_score").is_unique().all()
    ties = table.filter(pl.col("threshold_models").str.contains(";"))
    assert dict(zip(ties["benchmark"], ties["threshold_models"], strict=True)) == {
        "mmlu": "GPT-4 Turbo; GPT-4o-2024-05",
        "gpqa-diamond": "GPT-4 Turbo; Claude-3-Opus",
        "math-500": "GPT-4o-2024-05; GPT-4o-mini",
        "math-level-5": "GPT-4o-2024-05; GPT-4o-mini",
    }
    # The canonical name is the first model in the list (the earlier one).
    assert (ties["threshold_model"] == ties["threshold_models"].str.split("; ").list.first()).all()


def test_rates_range_from_about_9x_to_900x(table):
    assert round(table["factor_per_year"].min()) == fixed_capability.EPOCH_PUBLISHED["range_low"]
    assert (
        round(table["factor_per_year"].max(), -2) == fixed_capability.EPOCH_PUBLISHED["range_high"]
    )


def test_every_trend_has_at_least_four_points_and_every_benchmark_appears(table):
    assert table["n"].min() >= 4
    assert set(table["benchmark"]) == set(fixed_capability.EPOCH_BENCHMARKS)


def test_reasoning_models_are_excluded(table):
    reasoning = {"o1", "o1-mini", "o1-preview", "o3-mini", "DeepSeek-R1"}
    obs = fixed_capability.epoch_observations(
        data.load("token_prices"), data.load("benchmark_scores"), data.load("models"), "mmlu"
    )
    assert reasoning.isdisjoint(obs["model"]) and reasoning.isdisjoint(table["threshold_model"])


def test_a_benchmark_without_trends_leaves_the_columns_numeric():
    scores = data.load("benchmark_scores").filter(pl.col("benchmark") != "humaneval")
    t = fixed_capability.reproduce_epoch(data.load("token_prices"), scores, data.load("models"))
    assert "humaneval" not in set(t["benchmark"])
    assert t.schema["factor_per_year"] == pl.Float64 and t.schema["n"] == pl.Int64
    assert t.schema["start_date"] == pl.Date


def test_the_data_pipeline_keeps_epochs_values_exactly(sources_dir, table):
    """The same method run straight on Epoch's raw CSVs gives the same table."""
    folder = next((sources_dir / "epoch-llm-price-trends").glob("*_HEAD/data"))
    raw = pl.concat(
        [
            pl.read_csv(folder / name, infer_schema=False)
            for name in (
                "aa_data_with_math5.csv",
                "epoch_ai_price_data_not_in_aa_with_benchmarks.csv",
            )
        ],
        how="diagonal",
    ).filter(~pl.col("Model Name").is_in(["o1", "o1-mini", "o1-preview", "o3-mini", "DeepSeek-R1"]))
    columns = {
        "mmlu": "MMLU",
        "gpqa-diamond": "GPQA Diamond",
        "humaneval": "HumanEval",
        "math-500": "MATH-500",
        "arena-elo": "LMSys Chatbot Arena ELO",
        "math-level-5": "MATH 5",
    }
    direct = pl.concat(
        [
            fixed_capability.trends(
                raw.select(
                    pl.col("Model Name").alias("model"),
                    pl.col("Release Date").str.to_date().alias("date"),
                    pl.col("USD per 1M Tokens").cast(pl.Float64).alias("price"),
                    pl.col(col).cast(pl.Float64).alias("score"),
                ),
                bench,
            )
            for bench, col in columns.items()
        ]
    )
    assert direct.sort("benchmark", "threshold_model").equals(
        table.sort("benchmark", "threshold_model")
    )


def test_command_prints_the_table_as_csv(table, cli):
    run = cli("reproduce", "epoch")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == COLUMNS
    rows = list(csv.DictReader(io.StringIO(run.stdout)))
    assert len(rows) == table.height
    assert float(rows[0]["factor_per_year"]) == pytest.approx(
        table["factor_per_year"][0], rel=1e-12
    )
