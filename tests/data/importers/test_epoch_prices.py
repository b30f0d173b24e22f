"""Epoch's price-trend inputs: exact values, every row kept, dates as written, errors located."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import epoch_prices
from analysis.data.importers.common import provenance

COMMIT = "34b923314338360d1b1bbed6ec30d9299e54fdae"
HEADER = (
    "Model Name,Release Date,USD per 1M Tokens,MMLU,GPQA Diamond,HumanEval,MATH-500,"
    "LMSys Chatbot Arena ELO,MATH 5,Tokens per Second,Prefill Latency (s),Prompt Length (tk)\n"
)
AA = HEADER + (
    "Claude-3-Haiku,2024-03-04,0.5,71,33,77,39,1179,13,122.7,0.467,1000\n"
    "Gemini 2.0 Flash,2025-02-05,0.175,88,62,90,93,1358,82,,,\n"
    "Phi 4,2024-12-13,0.1225,85,53,87,81,1204,65,,,\n"
)
NOT_IN_AA = HEADER + (
    "Claude 2,2024-08-12,12,78.5,35,,,,10,,,\n"
    "GPT-3 175B (davinci),2021-11-20,60,43.9,,,,,,,,\n"
    "GPT-3 175B (davinci),2022-09-01,20,43.9,,,,,,,,\n"
)


def write_sources(root: Path, aa: str = AA, not_in_aa: str = NOT_IN_AA) -> Path:
    """The two files in the public layout, with the provenance the locators need."""
    data = root / epoch_prices.DATA_DIR
    data.mkdir(parents=True)
    texts = dict(zip(epoch_prices.FILES, (aa, not_in_aa), strict=True))
    with (root / "epoch-llm-price-trends" / "_PROVENANCE.tsv").open("w", newline="") as fh:
        w = csv.writer(fh, delimiter="\t")
        w.writerow(["file", "repo", "commit", "commit_date", "path_in_repo", "bytes", "sha256"])
        for name, text in texts.items():
            (data / name).write_text(text, encoding="utf-8")
            rel = f"{epoch_prices.DATA_DIR}/{name}"
            repo = "epoch-research/llm-benchmark-efficiency"
            w.writerow([rel, repo, COMMIT, "2025-03-13", f"data/{name}", len(text), "0" * 64])
    return root


def test_prices_are_carried_exactly_with_the_row_date(tmp_path):
    out = epoch_prices.build(write_sources(tmp_path))
    prices = out["token_prices"]
    assert prices.height == 6  # every row kept
    phi = prices.filter(pl.col("source_model_name") == "Phi 4").row(0, named=True)
    assert phi["blended_usd_per_mtok"] == 0.1225
    assert str(phi["date"]) == "2024-12-13"
    assert phi["blend"] == "3:1"
    assert phi["provider"] == "unspecified"
    assert phi["input_usd_per_mtok"] is None and phi["output_usd_per_mtok"] is None
    assert phi["model_hint"] == "phi 4"
    assert phi["source_locator"].endswith(f"aa_data_with_math5.csv@{COMMIT[:12]}#row 3")


def test_repeated_model_names_stay_apart_by_date(tmp_path):
    prices = epoch_prices.build(write_sources(tmp_path))["token_prices"]
    gpt3 = prices.filter(pl.col("source_model_name") == "GPT-3 175B (davinci)")
    assert gpt3.select("date", "blended_usd_per_mtok").rows() == [
        (dt.date(2021, 11, 20), 60.0),
        (dt.date(2022, 9, 1), 20.0),
    ]


def test_scores_keep_percent_numbers_and_elo_and_skip_blanks(tmp_path):
    scores = epoch_prices.build(write_sources(tmp_path))["benchmark_scores"]
    claude2 = scores.filter(pl.col("source_model_name") == "Claude 2")
    # HumanEval, MATH-500 and Arena are blank for Claude 2: no rows, no invented values.
    assert sorted(claude2["benchmark"]) == ["gpqa-diamond", "math-level-5", "mmlu"]
    assert claude2.filter(pl.col("benchmark") == "mmlu")["score"].item() == 78.5
    elo = scores.filter(pl.col("benchmark") == "arena-elo")
    assert set(elo["unit"]) == {"elo"} and elo.height == 3
    assert set(scores.filter(pl.col("benchmark") != "arena-elo")["unit"]) == {"percent"}


def test_model_info_has_names_but_no_release_dates(tmp_path):
    info = epoch_prices.build(write_sources(tmp_path))["model_info"]
    assert info.height == 5  # GPT-3 once
    assert info["release_date"].null_count() == info.height
    assert list(info.columns) == list(epoch_prices.MODEL_INFO_SCHEMA)


def test_bad_date_names_file_row_and_column(tmp_path):
    bad = AA.replace("Phi 4,2024-12-13", "Phi 4,13/12/2024")
    with pytest.raises(DataError) as err:
        epoch_prices.build(write_sources(tmp_path, aa=bad))
    message = str(err.value)
    assert "aa_data_with_math5.csv, row 3, column 'Release Date'" in message
    assert "13/12/2024" in message


def test_price_with_currency_sign_is_rejected(tmp_path):
    bad = AA.replace("Phi 4,2024-12-13,0.1225", "Phi 4,2024-12-13,$0.1225")
    with pytest.raises(DataError, match=r"row 3, column 'USD per 1M Tokens'.*plain number"):
        epoch_prices.build(write_sources(tmp_path, aa=bad))


def test_percent_out_of_range_is_rejected(tmp_path):
    bad = NOT_IN_AA.replace("Claude 2,2024-08-12,12,78.5", "Claude 2,2024-08-12,12,785")
    with pytest.raises(DataError, match=r"row 1, column 'MMLU'.*0-100"):
        epoch_prices.build(write_sources(tmp_path, not_in_aa=bad))


def test_exact_key_collision_is_an_error(tmp_path):
    dup = NOT_IN_AA + "Claude 2,2024-08-12,11,78.5,35,,,,10,,,\n"
    with pytest.raises(DataError, match="duplicate token_prices key"):
        epoch_prices.build(write_sources(tmp_path, not_in_aa=dup))


# --- the real files -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real(sources_dir):
    return epoch_prices.build(sources_dir)


def test_real_every_row_is_kept(real):
    prices = real["token_prices"]
    assert prices.height == 38 + 35
    assert prices["blended_usd_per_mtok"].null_count() == 0
    assert str(prices["date"].min()) == "2021-11-20"
    assert str(prices["date"].max()) == "2025-02-05"
    assert prices.filter(pl.col("source_model_name") == "GPT-3 175B (davinci)").height == 4


def test_real_values_match_the_files(real):
    prices = real["token_prices"]
    by_name = dict(zip(prices["source_model_name"], prices["blended_usd_per_mtok"], strict=False))
    assert by_name["Gemini 2.0 Flash"] == 0.175
    assert by_name["GPT-4o-2024-08"] == 4.38
    claude2 = prices.filter(pl.col("source_model_name") == "Claude 2")
    assert str(claude2["date"].item()) == "2024-08-12"


def test_real_benchmark_coverage(real):
    counts = dict(real["benchmark_scores"].group_by("benchmark").len().iter_rows())
    assert counts == {
        "mmlu": 59,
        "gpqa-diamond": 57,
        "humaneval": 53,
        "math-500": 51,
        "arena-elo": 57,
        "math-level-5": 45,
    }


def test_real_build_is_deterministic(real, sources_dir):
    again = epoch_prices.build(sources_dir)
    for name, df in real.items():
        assert again[name].equals(df), name


def test_real_sources_row_matches_provenance(sources_dir):
    path = sources_dir / epoch_prices.DATA_DIR / epoch_prices.FILES[0]
    assert epoch_prices.SOURCES[0]["retrieved"] == provenance(sources_dir, path).commit_date
