"""Every published figure the book cites, reproduced on the released data."""

from __future__ import annotations

import csv
import io
import subprocess
import sys

import polars as pl
import pytest

from analysis.__main__ import main
from analysis.data.paths import ROOT
from analysis.report import published


def test_agreement_rules():
    assert published.agrees(40, 42.0, 10, "nearest")
    assert not published.agrees(40, 45.1, 10, "nearest")
    assert published.agrees(0.06, 0.055, 0.01, "nearest")  # half-way rounds up
    assert published.agrees(280, 285.7, 10, "at least")
    assert not published.agrees(280, 279.9, 10, "at least")
    assert not published.agrees(280, 291.0, 10, "at least")
    assert published.agrees(5, None, 1, "nearest") is None
    with pytest.raises(ValueError, match="rule must be one of"):
        published.agrees(1, 1, 1, "about")


@pytest.fixture(scope="module")
def table() -> pl.DataFrame:
    # Without ../shared/sources the Gundlach rows have no reproduction; their tests skip.
    return published.published_vs_reproduced()


def needs_sources(figure: str) -> bool:
    return figure.startswith("Gundlach")


def row(table, figure: str) -> dict:
    return table.filter(pl.col("figure") == figure).row(0, named=True)


def test_every_figure_has_a_reproduction_a_command_and_a_difference(table, sources_dir):
    assert table.height == 17
    assert table["reproduced"].null_count() == 0
    assert (table["difference"] - (table["reproduced"] - table["published"])).abs().max() == 0
    assert table["command"].str.starts_with("python -m analysis reproduce ").all()


@pytest.mark.parametrize(
    "figure",
    [
        "Epoch: GPT-4-level price on GPQA Diamond",  # 42x, stated as 40x
        "Epoch: slowest trend across benchmarks and thresholds",  # 9.2x, stated as 9x
        "Epoch: fastest trend across benchmarks and thresholds",  # 851x, stated as 900x
        "Epoch: trends in the table (distinct thresholds)",  # 21
        "a16z: LLMflation, cheapest model with MMLU >= 42",  # endpoints 10.3x a year
        "a16z: price in November 2021 (GPT-3)",  # $60
        "a16z: price in November 2024 (Llama 3.2 3B)",  # $0.055, stated $0.06
        "Gundlach et al.: GPQA Diamond frontier (authors' results table)",  # 9.026
        "Gundlach et al.: AIME frontier (authors' results table)",  # 12.240
        "Gundlach et al.: SWE-bench Verified frontier (authors' results table)",  # 5.926
        "Gundlach et al.: ARC-AGI-1 frontier (authors' results table)",  # 12.201
        "AI Index: GPT-3.5-level MMLU price, November 2022",  # $20
        "AI Index: GPT-3.5-level MMLU price, October 2024",  # $0.07
        "AI Index: fall in that price",  # 285.7, "more than 280-fold"
    ],
)
def test_reproduced_at_the_published_precision(table, figure, request):
    if needs_sources(figure):
        request.getfixturevalue("sources_dir")  # skips, with the reason, where they are absent
    r = row(table, figure)
    assert r["within_rounding"], r


def test_the_figures_the_data_does_not_reproduce_say_so(table, sources_dir):
    # Gundlach et al.'s abstract: "around 5x to 10x"; their data at a6381e26 gives 5.9x to 12.2x.
    low = row(table, "Gundlach et al.: frontier price of fixed performance, low end")
    high = row(table, "Gundlach et al.: frontier price of fixed performance, high end")
    assert (round(low["reproduced"]), round(high["reproduced"])) == (6, 12)
    assert not low["within_rounding"] and not high["within_rounding"]
    # Epoch's ~30% a year for hardware FLOP/s per dollar lies outside the book's chip-data
    # interval: the book's FP32 fit grows more slowly.
    hw = row(table, "Epoch: ML hardware FLOP/s per dollar")
    assert not hw["within_rounding"]
    assert "90% interval" in hw["note"] and hw["reproduced"] < hw["published"]


def test_without_the_raw_sources_the_gundlach_rows_say_why(tmp_path):
    rows = published.gundlach_published_rows(tmp_path)
    assert all(r["reproduced"] is None and "not in the released data" in r["note"] for r in rows)


def test_reproduce_all_prints_the_table_as_csv(table, capsys):
    # Same sources folder (or none) here and in the command: the default one.
    assert main(["reproduce", "all"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["figure"] for r in rows] == table["figure"].to_list()
    assert list(rows[0]) == list(published.SCHEMA)


class Run:
    def __init__(self, returncode, captured):
        self.returncode, self.stdout, self.stderr = returncode, captured.out, captured.err


@pytest.fixture()
def run(capsys):
    """`python -m analysis reproduce ...` in this process (a subprocess costs seconds each)."""

    def go(*args):
        code = main(["reproduce", *args])
        return Run(code, capsys.readouterr())

    return go


def test_the_command_line_entry_point_runs_as_a_module():
    done = subprocess.run(
        [sys.executable, "-m", "analysis", "reproduce", "-h"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0 and "ai-index" in done.stdout and "gundlach" in done.stdout


def test_reproduce_gundlach_prints_the_table_and_says_where_it_reads(sources_dir, run):
    done = run("gundlach", "--sources", str(sources_dir))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == (
        "benchmark,sample,price_variable,n,start_date,end_date,factor_per_year,"
        "ci90_low,ci90_high,r_squared,note"
    )
    assert len(done.stdout.splitlines()) == 1 + 32
    assert "has none of the authors' per-benchmark" in done.stderr
    steps = run("gundlach", "--decomposition", "--sources", str(sources_dir))
    assert steps.returncode == 0, steps.stderr
    assert len(list(csv.DictReader(io.StringIO(steps.stdout)))) == 6


def test_reproduce_gundlach_without_the_sources_fails_with_the_reason(tmp_path, run):
    done = run("gundlach", "--sources", str(tmp_path))
    assert done.returncode == 1
    assert "not in the released data" in done.stderr


def test_reproduce_ai_index_and_hardware_print_csv(run):
    ai = run("ai-index")
    assert ai.returncode == 0, ai.stderr
    assert [r["comparison"] for r in csv.DictReader(io.StringIO(ai.stdout))] == [
        "AI Index window, Epoch's rows",
        "AI Index window, full data",
        "to the newest data, full data",
    ]
    hw = run("hardware")
    assert hw.returncode == 0, hw.stderr
    assert "pct_per_year" in hw.stdout.splitlines()[0]
