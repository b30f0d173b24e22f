"""Gundlach's research table: mixed score forms, monthly and current prices, notes, errors."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import gundlach
from analysis.data.importers.common import provenance

COMMIT = "a6381e26b51c771ff73ecaffbb7dafbbbb411af5"
# Headers as the file writes them: some with embedded CR LF, "Notes" twice, blank spacers.
HEADER = [
    "Model",
    "Creator",
    "License",
    "Access Date on AA",
    "Artificial Analysis\r\n Intelligence Index",
    "MMLU-Pro (Reasoning & Knowledge)",
    "GPQA Diamond (Scientific Reasoning)",
    "Humanity's Last Exam (Reasoning & Knowledge)",
    "LiveCodeBench (Coding)",
    "SciCode (Coding)",
    "HumanEval (Coding)",
    "MATH-500 (Quantitative Reasoning)",
    "AIME 2024 (Competition Math)",
    "Chatbot Arena",
    "Blended\r\n USD/1M Tokens",
    "Input Price\r\n USD/1M Tokens",
    "Output Price\r\n USD/1M Tokens",
    "Reasoning_TF",
    "Release Date",
    "Parameters",
    "Known Active Parameters",
    "Notes",
    "",
    "Notes",
    "",
    "7/1/2024 input price",
    "7/1/2024 output price",
    "12/1/2025 input price",
    "12/1/2025 output price",
    "pricing notes",
]
BLANK = {h: "" for h in HEADER}


def row(**cells: str) -> list[str]:
    named = {" ".join(h.split()): h for h in HEADER}
    out = dict(BLANK)
    for key, value in cells.items():
        out[named[key]] = value
    return [out[h] for h in HEADER]


AA_BLOCK = row(  # copied from AA on 10/25/25: plain fractions, MMLU-Pro pasted over LiveCodeBench
    **{
        "Model": "MiniMax-M2",
        "Creator": "MiniMax",
        "License": "Open",
        "Access Date on AA": "10/25/25",
        "Artificial Analysis Intelligence Index": "61.4",
        "MMLU-Pro (Reasoning & Knowledge)": "0.826",
        "GPQA Diamond (Scientific Reasoning)": "0.777",
        "LiveCodeBench (Coding)": "0.826",
        "Blended USD/1M Tokens": "0.525",
        "Input Price USD/1M Tokens": "0.3",
        "Output Price USD/1M Tokens": "1.2",
        "Reasoning_TF": "TRUE",
        "Release Date": "10/27/25",
        "Parameters": "230",
        "Known Active Parameters": "10",
    }
)
OLDER = row(
    **{
        "Model": "Llama 3.1 405B ",
        "License": "Open",
        "Artificial Analysis Intelligence Index": "6900.00%",
        "MMLU-Pro (Reasoning & Knowledge)": "85.40%",
        "LiveCodeBench (Coding)": "30.50%",
        "HumanEval (Coding)": "91%",
        "Chatbot Arena": "1266",
        "Blended USD/1M Tokens": "$3.50 ",
        "Input Price USD/1M Tokens": "$3.50 ",
        "Output Price USD/1M Tokens": "$3.50 ",
        "Release Date": "7/23/24",
        "Parameters": "405",
        "7/1/2024 input price": "2.7",
        "7/1/2024 output price": "2.7",
    }
)
PROMO = row(
    **{
        "Model": "Qwen3 235B A22B 2507 (Reasoning)",
        "Creator": "Alibaba",
        "Release Date": "7/25/25",
        "GPQA Diamond (Scientific Reasoning)": "79.00%",
        "Input Price USD/1M Tokens": "0.7",
        "Output Price USD/1M Tokens": "8.4",
        "Blended USD/1M Tokens": "2.625",
        "7/1/2024 input price": "",
        "12/1/2025 input price": "0.2",
        "12/1/2025 output price": "0.4",
        "pricing notes": "december has minimum input and output on differnet providers, "
        "weights and bias price looks promotional",
    }
)
FREE = row(
    **{
        "Model": "Grok 2",
        "Release Date": "12/12/24",
        "Blended USD/1M Tokens": "$0.00 ",
        "Input Price USD/1M Tokens": "$0.00 ",
        "Output Price USD/1M Tokens": "$0.00 ",
        "Chatbot Arena": "1288",
    }
)
UNDATED = row(**{"Model": "Jamba Instruct", "MMLU-Pro (Reasoning & Knowledge)": "34%"})
EMPTY = row()
ROWS = [AA_BLOCK, OLDER, PROMO, FREE, UNDATED, EMPTY]


def write_sources(root: Path, rows: list[list[str]] = ROWS, header: list[str] = HEADER) -> Path:
    path = root / gundlach.FILE
    path.parent.mkdir(parents=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([header, *rows])  # CR LF line ends, as in the file
    with (root / "inference-price-trends-gundlach" / "_PROVENANCE.tsv").open("w", newline="") as fh:
        w = csv.writer(fh, delimiter="\t")
        w.writerow(["file", "repo", "commit", "commit_date", "path_in_repo", "bytes", "sha256"])
        repo = "hansgundlach/Algorithmic_Progress_Inference"
        w.writerow([gundlach.FILE, repo, COMMIT, "2026-04-27", "data/x.csv", 1, "0" * 64])
    return root


@pytest.fixture
def built(tmp_path):
    return gundlach.build(write_sources(tmp_path))


def _scores(built, model: str) -> dict[str, float]:
    df = built["benchmark_scores"].filter(pl.col("source_model_name") == model)
    return dict(zip(df["benchmark"], df["score"], strict=True))


def test_fractions_and_percent_strings_both_become_percent(built):
    assert _scores(built, "Llama 3.1 405B")["mmlu-pro"] == 85.4
    assert _scores(built, "Llama 3.1 405B")["humaneval"] == 91.0
    assert _scores(built, "MiniMax-M2")["gpqa-diamond"] == 77.7


def test_intelligence_index_written_as_percent_is_rescaled(built):
    assert _scores(built, "Llama 3.1 405B")["aa-intelligence-index"] == 69.0
    assert _scores(built, "MiniMax-M2")["aa-intelligence-index"] == 61.4
    units = built["benchmark_scores"].filter(pl.col("benchmark") == "aa-intelligence-index")["unit"]
    assert set(units) == {"index"}


def test_identical_mmlu_pro_and_livecodebench_cells_are_both_dropped(tmp_path):
    out = gundlach.parse(write_sources(tmp_path) / gundlach.FILE, tmp_path)
    minimax = {s["benchmark"] for s in out.scores if s["source_model_name"] == "MiniMax-M2"}
    assert minimax == {"aa-intelligence-index", "gpqa-diamond"}
    assert out.skipped["MMLU-Pro and LiveCodeBench cells identical"] == 2
    llama = {s["benchmark"] for s in out.scores if s["source_model_name"] == "Llama 3.1 405B"}
    assert {"mmlu-pro", "livecodebench"} <= llama  # different cells: both kept


def test_scores_are_dated_by_release_date_and_undated_rows_skipped(tmp_path):
    out = gundlach.parse(write_sources(tmp_path) / gundlach.FILE, tmp_path)
    dates = {s["date"] for s in out.scores if s["source_model_name"] == "Llama 3.1 405B"}
    assert dates == {dt.date(2024, 7, 23)}
    assert not any(s["source_model_name"] == "Jamba Instruct" for s in out.scores)
    assert out.skipped["score without release date"] == 1
    assert out.skipped["no model name"] == 1


def test_monthly_prices_one_row_per_model_and_month(built):
    prices = built["token_prices"].filter(pl.col("blended_usd_per_mtok").is_null())
    got = prices.select(
        "source_model_name", "date", "input_usd_per_mtok", "output_usd_per_mtok"
    ).rows()
    assert got == [
        ("Llama 3.1 405B", dt.date(2024, 7, 1), 2.7, 2.7),
        ("Qwen3 235B A22B 2507 (Reasoning)", dt.date(2025, 12, 1), 0.2, 0.4),
    ]
    assert set(prices["provider"]) == {"unspecified"}
    assert prices["blend"].null_count() == prices.height


def test_promotional_note_marks_the_month_it_names(built):
    prices = built["token_prices"]
    qwen = prices.filter(pl.col("source_model_name") == "Qwen3 235B A22B 2507 (Reasoning)")
    kinds = dict(zip(qwen["date"], qwen["price_kind"], strict=True))
    assert kinds == {dt.date(2025, 12, 1): "promotional", dt.date(2026, 4, 27): "list"}


def test_current_prices_dated_by_aa_access_date_else_commit_date(built):
    current = built["token_prices"].filter(pl.col("blended_usd_per_mtok").is_not_null())
    by_model = {r["source_model_name"]: r for r in current.iter_rows(named=True)}
    minimax = by_model["MiniMax-M2"]
    assert minimax["date"] == dt.date(2025, 10, 25)
    assert (minimax["input_usd_per_mtok"], minimax["output_usd_per_mtok"]) == (0.3, 1.2)
    assert (minimax["blended_usd_per_mtok"], minimax["blend"]) == (0.525, "3:1")
    llama = by_model["Llama 3.1 405B"]
    assert (llama["date"], llama["input_usd_per_mtok"]) == (dt.date(2026, 4, 27), 3.5)
    assert "Grok 2" not in by_model  # $0.00 marks "no price" in this file


def test_model_info(built):
    info = {r["source_model_name"]: r for r in built["model_info"].iter_rows(named=True)}
    minimax = info["MiniMax-M2"]
    assert minimax["parameters_b"] == 230.0 and minimax["active_parameters_b"] == 10.0
    assert minimax["open_weights"] is True and minimax["reasoning"] is True
    assert minimax["release_date"] == dt.date(2025, 10, 27)
    assert info["Llama 3.1 405B"]["reasoning"] is None  # blank is unknown, not False
    assert info["Jamba Instruct"]["release_date"] is None
    assert len(info) == 5


def test_header_whitespace_is_normalised_and_names_stripped(built):
    assert "Llama 3.1 405B" in built["model_info"]["source_model_name"].to_list()
    loc = built["model_info"].filter(pl.col("source_model_name") == "Llama 3.1 405B")[
        "source_locator"
    ]
    assert loc.item().endswith(f"inference_data_new_large.csv@{COMMIT[:12]}#row 2")


def test_plain_number_above_one_in_a_percent_column_is_an_error(tmp_path):
    bad = list(OLDER)
    bad[HEADER.index("MMLU-Pro (Reasoning & Knowledge)")] = "85.4"
    with pytest.raises(DataError) as err:
        gundlach.build(write_sources(tmp_path, rows=[AA_BLOCK, bad]))
    assert "row 2, column 'MMLU-Pro (Reasoning & Knowledge)': value '85.4'" in str(err.value)


def test_bad_release_date_is_an_error(tmp_path):
    bad = list(OLDER)
    bad[HEADER.index("Release Date")] = "2024-07-23"
    with pytest.raises(DataError, match=r"row 1, column 'Release Date'.*m/d/yy"):
        gundlach.build(write_sources(tmp_path, rows=[bad]))


def test_unreadable_price_is_an_error(tmp_path):
    bad = list(OLDER)
    bad[HEADER.index("7/1/2024 input price")] = "n/a"
    with pytest.raises(DataError, match=r"row 1, column '7/1/2024 input price': value 'n/a'"):
        gundlach.build(write_sources(tmp_path, rows=[bad]))


def test_missing_column_is_an_error(tmp_path):
    header = [h if h != "Chatbot Arena" else "Arena" for h in HEADER]
    with pytest.raises(DataError, match=r"column 'Chatbot Arena'.*missing"):
        gundlach.build(write_sources(tmp_path, header=header))


# --- the real file --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real(sources_dir):
    return gundlach.build(sources_dir)


def test_real_benchmark_coverage(real):
    counts = dict(real["benchmark_scores"].group_by("benchmark").len().iter_rows())
    assert counts["aa-intelligence-index"] == 208  # every non-empty cell
    assert counts["arena-elo"] == 66
    assert counts["gpqa-diamond"] >= 270
    # 265 MMLU-Pro cells, less the 46 pasted-over rows and one undated row.
    assert counts["mmlu-pro"] == 218
    scores = real["benchmark_scores"]
    percent = scores.filter(pl.col("unit") == "percent")["score"]
    assert percent.min() >= 0 and percent.max() <= 100
    index = scores.filter(pl.col("benchmark") == "aa-intelligence-index")["score"]
    assert index.max() <= 100  # no "6900.00%" left unscaled


def test_real_monthly_series_span_and_a_known_price_path(real):
    monthly = real["token_prices"].filter(pl.col("blended_usd_per_mtok").is_null())
    assert str(monthly["date"].min()) == "2024-04-01"
    assert str(monthly["date"].max()) == "2026-04-01"
    llama = monthly.filter(pl.col("source_model_name") == "Llama 3.1 405B").sort("date")
    path = {
        r[0]: r for r in llama.select("date", "input_usd_per_mtok", "output_usd_per_mtok").rows()
    }
    named_in_readme = [dt.date(2024, 7, 1), dt.date(2024, 9, 1), dt.date(2024, 12, 1)]
    assert [path[d] for d in named_in_readme] == [
        (dt.date(2024, 7, 1), 2.7, 2.7),
        (dt.date(2024, 9, 1), 1.79, 1.79),
        (dt.date(2024, 12, 1), 0.9, 0.9),
    ]


def test_real_current_prices(real):
    current = real["token_prices"].filter(pl.col("blended_usd_per_mtok").is_not_null())
    # 300 rows carry a current price; 36 of them are all $0.00 (no price).
    assert current.height == 264
    assert (current["input_usd_per_mtok"] > 0).all()
    assert real["token_prices"].filter(pl.col("price_kind") == "promotional").height == 1


def test_real_model_info(real):
    info = real["model_info"]
    assert info.height == 327
    assert info["release_date"].null_count() == 6
    assert str(info["release_date"].max()) == "2026-04-08"


def test_real_sources_row_matches_provenance(sources_dir):
    commit_date = provenance(sources_dir, sources_dir / gundlach.FILE).commit_date
    assert gundlach.SOURCES[0]["retrieved"] == commit_date
