"""Epoch hub export of April 2026: the old export's rules, five new files, its own source id."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import epoch_hub_2026

HUB = epoch_hub_2026.HUB_DIR
ECI = (
    "Model version,ECI Score,Release date,Organization,Country,Model accessibility,"
    "Training compute (FLOP),Confidence,Model name,Description,Display name\n"
    "gpt-5.5-pre-release_xhigh,157.877,2026-04-23,OpenAI,United States of America,API access,,"
    "Likely,GPT-5.5,,GPT-5.5 (xhigh)\n"
    "claude-opus-4-7_xhigh,,2026-04-16,Anthropic,United States of America,API access,,,,,\n"
)
HLE = (
    "Model version,Accuracy,Release date,Organization,Country,Training compute (FLOP),"
    "Training compute notes,Name,Accuracy Standard Error,Calibration Error,Notes,id\n"
    "gemini-3.1-pro-preview,0.4644,2026-02-19,Google DeepMind,US,,,Gemini 3.1 Pro,0.0196,51,,rec1\n"
    "gemini-3.1-pro-preview,0.4012,2026-02-19,Google DeepMind,US,,,Gemini 3.1 Pro,0.02,50,,rec2\n"
)


def test_scores_are_dated_by_release_and_keep_the_best_per_model(tree):
    tree.add(f"{HUB}/epoch_capabilities_index.csv", ECI, commit_date="2026-04-29")
    tree.add(f"{HUB}/hle_external.csv", HLE, commit_date="2026-04-29")
    t = epoch_hub_2026.build(tree.root)
    scores = {
        (r["benchmark"], r["source_model_name"]): r
        for r in t["benchmark_scores"].iter_rows(named=True)
    }
    eci = scores[("eci", "gpt-5.5-pre-release_xhigh")]
    assert (eci["score"], eci["unit"], eci["date"]) == (157.877, "index", dt.date(2026, 4, 23))
    assert eci["source_id"] == "epoch-benchmarking-hub-2026-04"
    hle = scores[("hle", "gemini-3.1-pro-preview")]
    assert (hle["score"], hle["unit"]) == (46.44, "percent")  # a fraction in the file
    assert hle["source_locator"] == f"{HUB}/hle_external.csv@c0ffee000000#row 1"
    assert ("eci", "claude-opus-4-7_xhigh") not in scores  # no score
    info = t["model_info"].filter(pl.col("source_model_name") == "gpt-5.5-pre-release_xhigh")
    assert info.row(0, named=True)["open_weights"] is False
    assert info.row(0, named=True)["source_id"] == "epoch-benchmarking-hub-2026-04"


def test_a_fraction_above_one_names_file_row_and_column(tree):
    tree.add(f"{HUB}/hle_external.csv", HLE.replace("0.4012", "40.12"))
    with pytest.raises(DataError) as err:
        epoch_hub_2026.build(tree.root)
    p = err.value.problems[0]
    assert (p.row, p.column, p.value) == (2, "Accuracy", "40.12") and p.file.endswith(
        "hle_external.csv"
    )


def test_a_bad_release_date_is_an_error(tree):
    tree.add(
        f"{HUB}/hle_external.csv",
        HLE.replace(
            "2026-02-19,Google DeepMind,US,,,Gemini 3.1 Pro,0.0196",
            "19/02/2026,Google DeepMind,US,,,Gemini 3.1 Pro,0.0196",
        ),
    )
    with pytest.raises(DataError) as err:
        epoch_hub_2026.build(tree.root)
    assert (err.value.problems[0].row, err.value.problems[0].column) == (1, "Release date")


def test_real_export_reaches_april_2026(sources_dir):
    scores = epoch_hub_2026.build(sources_dir)["benchmark_scores"]
    eci = scores.filter(pl.col("benchmark") == "eci")
    # README II.4.2: ECI releases run to 2026-04-23 (the shared copy ends 2025-12-22).
    assert eci["date"].max() == dt.date(2026, 4, 23)
    assert {"hle", "arc-agi-2", "apex-agents", "gdpval-win-rate", "posttrainbench"} <= set(
        scores["benchmark"]
    )
    gpqa = scores.filter(pl.col("benchmark") == "gpqa-diamond")
    assert gpqa["date"].max() == dt.date(2026, 4, 23) and gpqa.height <= 160
