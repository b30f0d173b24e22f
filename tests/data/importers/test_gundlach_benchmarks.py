"""Gundlach et al.'s per-benchmark tables: costs from token counts, dates, licences, errors."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import gundlach_benchmarks as gb

GPQA_HEADER = [
    "Model",
    "License",
    "Release Date",
    "Reasoning_TF",
    "epoch_gpqa",
    "Input Price\r\nUSD/1M Tokens",
    "Output Price\r\nUSD/1M Tokens",
    "Benchmark Cost USD",
    "Blended Price (3:1) USD/1M Tokens",
    "input_tokens_epoch_gpqa",
    "output_tokens_epoch_gpqa",
    "gpqa_reasoning_tokens",
    "gpqa_reasoning_in_output",
    "gpqa_epochs",
]
GPQA_ROWS = [
    # 16 runs; no reasoning tokens: (838928 x 30 + 694183 x 60) / 16 / 1e6 = 4.17617625
    ["GPT-4 04/01/2024", "Proprietary", "04/01/2024", "", "30.65%", "30.0", "60.0",
     "4.17617625", "37.5", "838928.0", "694183.0", "", "", "16.0"],
    # reasoning tokens not in the output count: (388307 x 2 + (1.01e6 + 7.82e6) x 12) / 8 / 1e6
    ["gemini-3.1-pro-preview 02/01/2026", "Proprietary", "02/01/2026", "True", "94.10%", "2.0",
     "12.0", "13.342076749999999", "4.5", "388307.0", "1010000.0", "7820000.0", "False", "8.0"],
    # blank licence is not open; blank runs is one run; counts with commas and E notation
    ["glm-5 02/01/2026", "", "02/01/2026", "", "87.82%", "0.8", "2.56", "9.35194624", "1.24",
     "51,280", "3.637079E+06", "", "", ""],
]  # fmt: skip
SWE_HEADER = [
    "Model",
    "License",
    "Release Date",
    "Reasoning_TF",
    "epoch_swe",
    "Input Price USD/1M Tokens",
    "Output Price USD/1M Tokens",
    "Benchmark Cost USD",
    "Blended Price (3:1) USD/1M Tokens",
    "input tokens swe",
    "output tokens swe",
    "cache reads swe",
    "cache write swe",
    "cache_in_input",
    "reasoning swe",
    "reasoning_in_output_swe",
    "cache_read_cost",
    "cache_write_cost",
]
SWE_ROWS = [
    # cache separate from input: 37688 x 3 + 3.87e6 x 15 + 3.32e8 x 0.3 + 1.11e7 x 3.75 (/1e6)
    ["claude-sonnet-4-6_32K 02/01/2026", "Proprietary", "02/01/2026", "", "75.20%", "3.0", "15.0",
     "199.38806399999999", "6.0", "37688", "3.87E+06", "332000000.0", "11100000.0", "False", "", "",
     "0.3", "3.75"],
    # cached input inside the input count, billed at the cache price:
    # (3.49e8 - 1.61e8) x 1.25 + 1.61e8 x 0.125 + 9e6 x 10 (/1e6) = 345.125
    ["GPT-5 (medium) 08/01/2025", "Proprietary", "08/01/2025", "", "58.80%", "1.25", "10.0",
     "345.125", "3.4375", "3.49E+08", "9.00E+06", "161000000.0", "0.0", "True", "7620000.0",
     "True", "0.125", "0.0"],
]  # fmt: skip
MERGED_HEADER = [
    "Model",
    "License",
    "Release Date",
    "Reasoning_TF",
    "arc_ARC-AGI-1",
    "arc_Cost/Task",
    "Blended USD/1M Tokens",
    "Input Price USD/1M Tokens",
    "Output Price USD/1M Tokens",
]
MERGED_ROWS = [
    ["GPT-5 (high)", "Proprietary", "8/7/25", "", "65.70%", "$0.73 ", "3.438", "1.25", "10.0"],
    ["Some model without ARC", "Open", "1/2/25", "", "", "", "1.0", "1.0", "1.0"],
    ["o3 ", "Proprietary", "4/1/25", "TRUE", "60.80%", "$0.83 ", "", "", ""],
]


def write(root: Path, files: dict[str, tuple[list[str], list[list[str]]]]) -> Path:
    folder = root / gb.FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    prov = root / "inference-price-trends-gundlach" / "_PROVENANCE.tsv"
    with prov.open("w", newline="") as fh:
        w = csv.writer(fh, delimiter="\t")
        w.writerow(["file", "repo", "commit", "commit_date", "path_in_repo", "bytes", "sha256"])
        for name, (header, rows) in files.items():
            with (folder / name).open("w", newline="", encoding="utf-8") as out:
                csv.writer(out).writerows([header, *rows])
            w.writerow(
                [f"{gb.FOLDER}/{name}", "hansgundlach/x", gb.COMMIT, "2026-04-27", name, 1, "0"]
            )
    return root


@pytest.fixture()
def sources(tmp_path) -> Path:
    return write(
        tmp_path,
        {
            "gpqa_price_reduction_models.csv": (GPQA_HEADER, GPQA_ROWS),
            "swe_price_reduction_models.csv": (SWE_HEADER, SWE_ROWS),
            "merged.csv": (MERGED_HEADER, MERGED_ROWS),
        },
    )


def test_gpqa_cost_from_token_counts_runs_and_reasoning(sources):
    rows = gb.read(sources, ["gpqa-diamond"])
    cost = dict(zip(rows["source_model_name"], rows["recomputed_cost_usd"], strict=True))
    assert cost["GPT-4 04/01/2024"] == pytest.approx(4.17617625, rel=1e-12)
    assert cost["gemini-3.1-pro-preview 02/01/2026"] == pytest.approx(
        (388307 * 2 + (1.01e6 + 7.82e6) * 12) / 8 / 1e6, rel=1e-12
    )
    assert cost["glm-5 02/01/2026"] == pytest.approx((51280 * 0.8 + 3637079 * 2.56) / 1e6)
    assert rows["benchmark_cost_usd"].to_list() == [4.17617625, 13.342076749999999, 9.35194624]


def test_swe_cost_bills_cache_reads_and_writes_at_their_prices(sources):
    rows = gb.read(sources, ["swe-bench-verified"])
    assert rows["recomputed_cost_usd"].to_list() == pytest.approx(
        [
            (37688 * 3 + 3.87e6 * 15 + 3.32e8 * 0.3 + 1.11e7 * 3.75) / 1e6,
            ((3.49e8 - 1.61e8) * 1.25 + 1.61e8 * 0.125 + 9e6 * 10) / 1e6,
        ],
        rel=1e-12,
    )


def test_dates_scores_and_licences(sources):
    rows = gb.read(sources, ["gpqa-diamond"])
    assert rows["date"].to_list() == [dt.date(2024, 4, 1), dt.date(2026, 2, 1), dt.date(2026, 2, 1)]
    assert rows["score"].to_list() == [30.65, 94.1, 87.82]
    assert rows["open_licence"].to_list() == [False, False, False]
    assert rows["reasoning"].to_list() == [None, True, None]
    assert (
        rows["source_locator"][0]
        == f"{gb.FOLDER}/gpqa_price_reduction_models.csv@a6381e26b51c#row 1"
    )


def test_arc_rows_come_from_the_general_table_only_where_matched(sources):
    rows = gb.read(sources, ["arc-agi-1"])
    assert rows["source_model_name"].to_list() == ["GPT-5 (high)", "o3"]
    assert rows["date"].to_list() == [dt.date(2025, 8, 7), dt.date(2025, 4, 1)]
    assert rows["benchmark_cost_usd"].to_list() == [0.73, 0.83]
    assert rows["recomputed_cost_usd"].null_count() == 2
    assert rows["reasoning"].to_list() == [None, True]


def test_a_bad_date_names_file_row_column_and_value(tmp_path):
    bad = [list(GPQA_ROWS[0])]
    bad[0][2] = "2024-04-01"
    root = write(tmp_path, {"gpqa_price_reduction_models.csv": (GPQA_HEADER, bad)})
    with pytest.raises(DataError) as err:
        gb.read(root, ["gpqa-diamond"])
    p = err.value.problems[0]
    assert (Path(p.file).name, p.row, p.column, p.value) == (
        "gpqa_price_reduction_models.csv",
        1,
        "Release Date",
        "2024-04-01",
    )
    assert "MM/DD/YYYY" in p.rule


def test_a_missing_column_is_named(tmp_path):
    header = [h for h in GPQA_HEADER if h != "gpqa_epochs"]
    root = write(tmp_path, {"gpqa_price_reduction_models.csv": (header, [])})
    with pytest.raises(DataError, match="gpqa_epochs"):
        gb.read(root, ["gpqa-diamond"])


def test_without_the_raw_folder_the_error_says_the_release_lacks_these_fields(tmp_path):
    with pytest.raises(DataError, match="not in the released data"):
        gb.read(tmp_path)


def _raw_count(path: Path, column: str | None = None) -> int:
    with path.open(newline="", encoding="utf-8-sig") as fh:
        reader = csv.reader(fh)
        header = [" ".join(h.split()) for h in next(reader)]
        at = header.index(column) if column else None
        return sum(1 for r in reader if at is None or r[at].strip())


def test_the_real_tables(sources_dir):
    rows = gb.read(sources_dir)
    folder = sources_dir / gb.FOLDER
    counts = dict(rows.group_by("benchmark").len().iter_rows())
    for bench, spec in gb.FILES.items():
        only_scored = spec.score if bench == "arc-agi-1" else None
        assert counts[bench] == _raw_count(folder / spec.file, only_scored), bench
    # The cost rule gives the file's cost on every GPQA and AIME row, 23 of 28 SWE-bench rows.
    agree = rows.with_columns(
        ((pl.col("recomputed_cost_usd") - pl.col("benchmark_cost_usd")).abs()
         <= 1e-9 * pl.col("benchmark_cost_usd")).alias("agree")
    ).group_by("benchmark").agg(pl.col("agree").sum(), pl.len())  # fmt: skip
    got = {b: (a, n) for b, a, n in agree.iter_rows()}
    assert got["gpqa-diamond"] == (163, 163) and got["aime"] == (134, 134)
    assert got["swe-bench-verified"] == (23, 28)
    # The file's 3:1 blend is (3 x input + output) / 4 of the row's prices.
    per_bench = rows.filter(pl.col("benchmark") != "arc-agi-1")
    blend = (3 * per_bench["input_usd_per_mtok"] + per_bench["output_usd_per_mtok"]) / 4
    assert (per_bench["blended_usd_per_mtok_3to1"] - blend).abs().max() < 1e-9
