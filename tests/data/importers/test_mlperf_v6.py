"""MLPerf Inference v6.0 summary: datacenter LLM throughput per system, counted accelerators."""

from __future__ import annotations

import datetime as dt
import json

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import mlperf_v6

FILE = mlperf_v6.FILE


def result(i: int, **over) -> dict:
    platform = over.pop("Platform", "GB300-NVL72_GB300-288GB_aarch64x64_TRT")
    model = over.pop("Model", "gpt-oss-120b")
    scenario = over.pop("Scenario", "Server")
    division = over.pop("Category", "closed")
    rec = {
        "ID": f"6.0-{i:04d}",
        "Submitter": "CoreWeave",
        "Availability": "available",
        "Category": division,
        "Suite": "datacenter",
        "System": "CoreWeave GB300 NVL72 (64x GB300-288GB_aarch64, TensorRT) ",
        "Platform": platform,
        "UsedModel": model,
        "Model": model,
        "Scenario": scenario,
        "Nodes": 16,
        "Accelerator": "NVIDIA GB300",
        "a#": 4,
        "Total Accelerators": 64,
        "Location": f"./{division}/CoreWeave/results/{platform}/{model}/{scenario}/performance/run_1",
        "version": "v6.0",
        "Performance_Result": 956523.0,
        "Performance_Units": "Tokens/s",
    }
    return rec | over


AMD_87 = {
    "Submitter": "AMD",
    "System": "AMD MI355X Custom Cluster",
    "Accelerator": "AMD Instinct MI355X 288GB HBM3e (x87)",
    "Nodes": 11,
    "a#": 8,
    "Total Accelerators": 88,
    "Model": "llama2-70b-99",
    "Scenario": "Interactive",
    "Platform": "87xMI355X_22xEPYC_9575F",
    "Performance_Result": 785522.0,
}


def _write(tree, records):
    return tree.add(FILE, json.dumps(records), commit="ab33b2144a9f" + "0" * 28)


def _amd_87(i: int) -> dict:
    rec = result(i, **{k: v for k, v in AMD_87.items() if k not in ("Submitter",)})
    rec["Submitter"] = "AMD"
    rec["Location"] = rec["Location"].replace("/CoreWeave/", "/AMD/")
    return rec


def test_a_result_is_whole_system_throughput_with_its_accelerator_count(tree):
    _write(tree, [result(1)])
    df = mlperf_v6.build(tree.root)["mlperf_results"]
    row = df.row(0, named=True)
    assert (row["round"], row["date"], row["accelerator"]) == (
        "v6.0",
        dt.date(2026, 3, 26),
        "gb300",
    )
    assert (row["accelerator_count"], row["tokens_per_s"]) == (64, 956523.0)
    assert row["system"] == "CoreWeave GB300 NVL72 (64x GB300-288GB_aarch64, TensorRT)"
    assert row["model_run"] == "gpt-oss-120b" and row["category"] == "available"
    # A secondary copy: the locator says whose file it is a fork of.
    assert row["source_locator"] == (
        f"{FILE}@ab33b2144a9f#row 1 (ID 6.0-0001; fork of mlcommons/inference_results_v6.0)"
    )


def test_the_accelerator_count_is_the_total_accelerators_column_not_the_name(tree):
    _write(tree, [_amd_87(1)])
    row = mlperf_v6.build(tree.root)["mlperf_results"].row(0, named=True)
    # The name says (x87); Total Accelerators says 88 = 11 nodes x 8, and the README divides by it.
    assert (row["accelerator"], row["accelerator_count"]) == ("mi355x", 88)
    assert row["source_accelerator_name"].endswith("(x87)")


def test_a_name_counting_more_than_total_accelerators_is_an_error(tree):
    path = _write(tree, [_amd_87(1) | {"Accelerator": "AMD Instinct MI355X 288GB HBM3e (x90)"}])
    problems = mlperf_v6.parse_summary(path).problems
    assert [(p.column, p.rule) for p in problems] == [
        ("Accelerator", "more accelerators than Total Accelerators")
    ]


def test_results_outside_the_question_are_skipped_with_reasons(tree):
    path = _write(
        tree,
        [
            result(1),
            result(2, Suite="edge"),
            result(3, Model="whisper", Performance_Units="Samples/s"),
            result(4, Model="qwen3-vl-235b-a22b", Performance_Units="Samples/s"),
            result(5, Accelerator="", **{"a#": "", "Total Accelerators": 0}),
            result(7, Scenario="SingleStream"),
        ],
    )
    parsed = mlperf_v6.parse_summary(path)
    assert [r["row"] for r in parsed.rows] == [1]
    # A heterogeneous system is no longer skipped (test_a_heterogeneous_system_is_kept_...).
    assert parsed.skipped == {
        "not a datacenter result": 1,
        "not an LLM benchmark": 1,
        "unit Samples/s, not tokens/s": 1,
        "no accelerator (CPU-only system)": 1,
        "scenario SingleStream is not a throughput scenario": 1,
    }


# Row 142 of the real v6.0 summary, typed from the file: Dell_MangoBoost's heterogeneous cluster.
MIX = {
    "Submitter": "Dell_MangoBoost",
    "System": "Dell_MangoBoost Heterogeneous Cluster (8x MI300X + 8x MI325X + 8x MI355X, LLMBoost)",
    "Accelerator": "AMD Instinct MI300X 192GB HBM3 (x8) and AMD Instinct MI325X 256GB HBM3e (x8) "
    "and AMD Instinct MI355X 288GB HBM3e (x8)",
    "a#": 8,
    "Nodes": 3,
    "Total Accelerators": 24,
    "Model": "llama2-70b-99",
    "Scenario": "Offline",
    "Platform": "Heterogeneous_Cluster",
    "Performance_Result": 151843.0,
}


def _mix(i: int, **over) -> dict:
    rec = result(i, **(MIX | over))
    rec["Location"] = rec["Location"].replace("/CoreWeave/", "/Dell_MangoBoost/")
    return rec


def test_a_heterogeneous_system_is_kept_with_its_accelerator_mix(tree):
    _write(tree, [_mix(1)])
    row = mlperf_v6.build(tree.root)["mlperf_results"].row(0, named=True)
    # Three AMD models, 8 each: 24 accelerators, the mix named in the name's order.
    assert (row["accelerator"], row["accelerator_count"]) == ("mi300x+mi325x+mi355x", 24)
    assert row["source_accelerator_name"] == MIX["Accelerator"]
    assert row["tokens_per_s"] == 151843.0


def test_a_mix_whose_counts_do_not_add_up_is_an_error(tree):
    path = _write(
        tree, [_mix(1, Accelerator="AMD Instinct MI300X (x8) and AMD Instinct MI325X (x8)")]
    )
    problems = mlperf_v6.parse_summary(path).problems
    assert [(p.row, p.column, p.rule) for p in problems] == [
        (1, "Accelerator", "a mix's counts must add up to 24")
    ]
    path = _write(tree, [_mix(1, Accelerator="AMD Instinct MI300X and AMD Instinct MI325X (x8)")])
    (problem,) = mlperf_v6.parse_summary(path).problems
    assert problem.row == 1 and "must state its count" in problem.rule


def test_a_lower_case_scenario_folder_is_the_same_scenario(tree):
    rec = result(1)
    rec["Location"] = rec["Location"].replace("/Server/", "/server/")
    _write(tree, [rec])
    assert mlperf_v6.build(tree.root)["mlperf_results"]["scenario"].to_list() == ["Server"]


def test_a_total_that_is_not_per_node_times_nodes_is_an_error(tree):
    _write(tree, [result(1), result(2, **{"Total Accelerators": 60})])
    with pytest.raises(DataError) as err:
        mlperf_v6.build(tree.root)
    p = err.value.problems[0]
    assert (p.row, p.column, p.value) == (2, "Total Accelerators", "60")
    assert p.file.endswith(FILE)


def test_a_location_naming_another_folder_and_a_bad_throughput_are_errors(tree):
    bad_location = result(1)
    bad_location["Location"] = bad_location["Location"].replace("gpt-oss-120b", "llama3.1-8b")
    path = _write(tree, [bad_location, result(2, Performance_Result=-5)])
    problems = mlperf_v6.parse_summary(path).problems
    assert [(p.row, p.column) for p in problems] == [(1, "Location"), (2, "Performance_Result")]


def test_an_unknown_intel_card_gets_a_clean_fallback_id():
    assert mlperf_v6.accelerator("Intel(R) Arc Pro(R) B70") == ("arc-pro-b70", None)
    assert mlperf_v6.accelerator("AMD Instinct MI355X 288GB HBM3e (Power Cap 1000 W)") == (
        "mi355x",
        None,
    )


def test_real_file_coreweave_rows_and_counts(sources_dir):
    df = mlperf_v6.build(sources_dir)["mlperf_results"]
    cw = df.filter(pl.col("submitter") == "CoreWeave")
    # README II.3.1: 9 CoreWeave rows; GB300 64-GPU gpt-oss-120b Server is 956,523 tokens/s.
    assert cw.height == 9
    hit = cw.filter(
        (pl.col("accelerator") == "gb300")
        & (pl.col("accelerator_count") == 64)
        & (pl.col("benchmark_model") == "gpt-oss-120b")
        & (pl.col("scenario") == "Server")
    )
    assert hit["tokens_per_s"].to_list() == [956523.0]
    closed = df.filter(pl.col("division") == "closed")
    per_model = dict(closed.group_by("benchmark_model").len().iter_rows())
    assert per_model["gpt-oss-120b"] == 60 and per_model["deepseek-r1"] == 39
    assert "tpu" not in " ".join(df["accelerator"].unique())  # README: no TPU row
