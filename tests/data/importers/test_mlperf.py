"""MLPerf Inference importer: official summary JSON and cm4mlperf tables, fixtures and real files."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import mlperf
from analysis.data.schema import TABLES

FOLDER = "mlperf-inference"
CM_V40_OFFLINE = (
    f"{mlperf.CM_EXPERIMENTS}/mlperf-inference--v4.0--datacenter--closed--language-processing"
    "--offline/2024-04-11.12-32-45.662412/cm-result.json"
)
CM_V41_OFFLINE = (
    f"{mlperf.CM_EXPERIMENTS}/mlperf-inference--v4.1--datacenter--closed--language-processing"
    "--offline/2025-02-05.17-41-46.499841/cm-result.json"
)


def summary_record(**over) -> dict:
    """One result in the official summary format (fields as in summary_results.json)."""
    rec = {
        "ID": "v4.1-0001",
        "Submitter": "AMD",
        "Availability": "available",
        "Category": "closed",
        "Suite": "datacenter",
        "System": "Supermicro AS-8125GS-TNMR2",
        "Platform": "1xMI300X_2xEPYC-9374F",
        "UsedModel": "llama2-70b-99",
        "Model": "llama2-70b-99",
        "Scenario": "Offline",
        "Nodes": 1,
        "Accelerator": "AMD Instinct MI300X-NPS1-SPX-192GB-750W",
        "a#": 1.0,
        "version": "v4.1",
        "Performance_Result": 3062.72,
        "Performance_Units": "Tokens/s",
    }
    rec.update(over)
    model = rec["UsedModel"]
    rec.setdefault(
        "Location",
        f"{rec['Category']}/{rec['Submitter']}/results/{rec['Platform']}/{model}/{rec['Scenario']}",
    )
    return rec


def cm_record(**over) -> dict:
    """One result in the cm4mlperf `cm-result.json` format."""
    rec = {
        "Availability": "available",
        "Division": "closed",
        "MlperfModel": "llama2-70b-99.9",
        "Model": "llama2-70b-99.9",
        "Organization": "NVIDIA",
        "Platform": "DGX-H100_H100-SXM-80GBx8_TRT",
        "Result": 21805.8,
        "Result_Units": "Samples/s",
        "Scenario": "Offline",
        "SystemName": "NVIDIA DGX H100 (8x H100-SXM-80GB, TensorRT)",
        "SystemType": "datacenter",
        "accelerator_model_name": "NVIDIA H100-SXM-80GB",
        "accelerators_per_node": 8,
        "number_of_nodes": 1,
        "version": "v4.0",
    }
    rec.update(over)
    rec.setdefault(
        "Location",
        f"{rec['Division']}/{rec['Organization']}/results/{rec['Platform']}/{rec['Model']}/"
        f"{rec['Scenario']}",
    )
    return rec


V41 = [
    summary_record(),
    summary_record(ID="v4.1-0001", Scenario="Server", Performance_Result=2520.27),
    # Same system name, another platform: a different system.
    summary_record(ID="v4.1-0002", Platform="8xMI300X_2xEPYC-9374F", **{"a#": 8.0}),
    # Two nodes of 8: a# is per node.
    summary_record(
        ID="v4.1-0035",
        Submitter="JuniperNetworks",
        System="2x8xH100-SXM-80GB",
        Platform="DGX-H100_H100-SXM-80GBx16_TRT",
        Model="llama2-70b-99.9",
        UsedModel="llama2-70b-99.9",
        Nodes=2,
        Accelerator="NVIDIA H100-SXM-80GB",
        Availability="preview",
        Performance_Result=41672.4,
        **{"a#": 8.0},
    ),
    # CPU-only system: no accelerator, blank a#.
    summary_record(
        ID="v4.1-0006",
        Submitter="Intel",
        Platform="1-node-2S-EMR-PyTorch",
        Model="gptj-99",
        UsedModel="gptj-99",
        Accelerator="",
        Performance_Result=1.5,
        **{"a#": ""},
    ),
    summary_record(
        ID="v4.1-0007", Model="resnet", UsedModel="resnet", Performance_Units="Samples/s"
    ),
    summary_record(ID="v4.1-0008", Suite="edge", Model="gptj-99", UsedModel="gptj-99"),
    # Open result of a 7B substitute labelled Samples/s: no evidence of its unit.
    summary_record(
        ID="v4.1-0110",
        Category="open",
        Model="llama2-70b-99.9",
        UsedModel="neuralmagic_Llama-2-7b-chat-hf-FP8",
        Performance_Result=1871.84,
        Performance_Units="Samples/s",
    ),
    # Open result of a substitute labelled Tokens/s: kept, model_run names the substitute.
    summary_record(
        ID="v4.1-0089",
        Category="open",
        Submitter="NVIDIA",
        System="NVIDIA H200 (1x H200-SXM-141GB)",
        Platform="H200-SXM-141GBx1_TRT_DepthPruned",
        UsedModel="llama2-70b-depth-pruned",
        Accelerator="NVIDIA H200-SXM-141GB",
        Performance_Result=11189.1,
    ),
]

V51 = [
    summary_record(
        ID="5.1-0071",
        version="v5.1",
        Submitter="NVIDIA",
        System=" (72x GB200-186GB_aarch64, TensorRT)",
        Platform="GB200-NVL72_GB200-186GB_aarch64x72_TRT",
        Model="llama3.1-405b",
        UsedModel="llama3.1-405b",
        Scenario="Interactive",
        Nodes=18,
        Accelerator="NVIDIA GB200",
        Performance_Result=9921.02,
        **{"a#": 4},
    ),
    summary_record(
        ID="5.1-0069",
        version="v5.1",
        Submitter="NVIDIA",
        System="NVIDIA DGX B200 (8x B200-SXM-180GB, TensorRT)",
        Platform="DGX-B200_B200-SXM-180GBx8_TRT",
        Model="llama3.1-8b",
        UsedModel="llama3_1-8b",
        Scenario="Interactive",
        Accelerator="NVIDIA B200-SXM-180GB",
        Performance_Result=102903.0,
        Performance_Units="Queries/s",
        **{"a#": 8},
    ),
    summary_record(
        ID="5.1-0065",
        version="v5.1",
        Submitter="MangoBoost",
        System="MangoBoost Heterogeneous Cluster",
        Platform="32xMI300X_2xEPYC_9534_16xMI325X_2xEPYC_9655",
        Nodes=6,
        Accelerator="AMD Instinct MI300X 192GB HBM3 (x32), AMD Instinct MI325X 256GB HBM3e (x16)",
        Performance_Result=169197.0,
        **{"a#": 8},
    ),
]

CM_V40 = [
    cm_record(),
    cm_record(Scenario="Server", Result=70.4164, Result_Units="Queries/s"),
    cm_record(MlperfModel="gptj-99", Model="gptj-99", Result=239.895),
    cm_record(Result=None, Result_Units="Watts", Platform="DGX-H100_H100-SXM-80GBx8_TRT_MaxQ"),
    cm_record(
        Organization="Intel",
        Platform="1-node-2S-EMR-ITREX",
        accelerator_model_name="N/A",
        accelerators_per_node=0,
        Result=3.6,
    ),
    cm_record(
        Division="open",
        Organization="JuniperNetworks",
        Platform="H100-2N-80GB",
        SystemName="H100-2N-80GB",
        MlperfModel="llama2-70b-99",
        Model="llama2-70b-99",
        accelerator_model_name="H100-SXM-80GB",
        accelerators_per_node=8,
        number_of_nodes=2,
        Availability="rdi",
        Result=6235.72,
    ),
]

# The cm4mlperf copy of the first v4.1 official result: must be dropped as a duplicate.
CM_V41 = [
    cm_record(
        version="v4.1",
        Organization="AMD",
        Platform="1xMI300X_2xEPYC-9374F",
        SystemName="Supermicro AS-8125GS-TNMR2",
        MlperfModel="llama2-70b-99",
        Model="llama2-70b-99",
        accelerator_model_name="AMD Instinct MI300X-NPS1-SPX-192GB-750W",
        accelerators_per_node=1,
        Result=3062.72,
    )
]


def mlperf_primary_key() -> list[str]:
    return TABLES[mlperf.TABLE].primary_key


def write_sources(root: Path, files: dict[str, object]) -> Path:
    """Write JSON files under `root` and the folder's _PROVENANCE.tsv, as the sources are laid out."""
    lines = ["file\trepo\tcommit\tcommit_date\tpath_in_repo\tbytes\tsha256"]
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps(content, indent=1).encode()
        path.write_bytes(data)
        repo = "mlcommons/cm4mlperf-results" if "cm4mlperf" in rel else "mlcommons/inference"
        sha = hashlib.sha256(data).hexdigest()
        lines.append(f"{rel}\t{repo}\t{'ab' * 20}\t2025-02-05\t{rel}\t{len(data)}\t{sha}")
    (root / FOLDER / "_PROVENANCE.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


@pytest.fixture
def fixture_sources(tmp_path: Path) -> Path:
    return write_sources(
        tmp_path,
        {
            mlperf.SUMMARY_FILES[0]: V41,
            mlperf.SUMMARY_FILES[1]: V51,
            CM_V40_OFFLINE: CM_V40,
            CM_V41_OFFLINE: CM_V41,
        },
    )


# --- Official summary format -------------------------------------------------------------------


def test_summary_keeps_llm_throughput_and_names_each_system(fixture_sources):
    path = fixture_sources / mlperf.SUMMARY_FILES[0]
    parsed = mlperf.parse_summary(path, fixture_sources)
    df = pl.DataFrame(parsed.rows)
    assert df.height == 5
    amd = df.filter(pl.col("submitter") == "AMD").sort("accelerator_count", "scenario")
    # One name for the 1x and the 8x system: the results folder tells them apart.
    assert set(amd["system"]) == {"Supermicro AS-8125GS-TNMR2"}
    assert amd["platform"].to_list() == [
        "1xMI300X_2xEPYC-9374F",
        "1xMI300X_2xEPYC-9374F",
        "8xMI300X_2xEPYC-9374F",
    ]
    assert amd["model_run"].to_list() == ["llama2-70b-99"] * 3
    assert amd["accelerator"].unique().to_list() == ["mi300x"]
    assert amd["tokens_per_s"].to_list() == [3062.72, 2520.27, 3062.72]
    assert set(df["source_id"]) == {"mlperf-inference-v4.1"}
    assert set(df["date"]) == {"2024-08-28"}


def test_summary_accelerator_count_is_per_node_times_nodes(fixture_sources):
    rows = mlperf.parse_summary(fixture_sources / mlperf.SUMMARY_FILES[1], fixture_sources).rows
    gb200 = next(r for r in rows if r["accelerator"] == "gb200")
    assert gb200["accelerator_count"] == 72  # 18 nodes x 4
    assert gb200["system"] == "(72x GB200-186GB_aarch64, TensorRT)"  # leading space removed
    assert gb200["platform"] == "GB200-NVL72_GB200-186GB_aarch64x72_TRT"
    juniper = next(
        r
        for r in mlperf.parse_summary(fixture_sources / mlperf.SUMMARY_FILES[0]).rows
        if r["submitter"] == "JuniperNetworks"
    )
    assert juniper["accelerator_count"] == 16
    assert juniper["category"] == "preview"


def test_summary_skips_are_counted_by_reason(fixture_sources):
    parsed = mlperf.parse_summary(fixture_sources / mlperf.SUMMARY_FILES[0], fixture_sources)
    assert parsed.skipped == {
        "no accelerator (CPU-only system)": 1,
        "not an LLM benchmark": 1,
        "not a datacenter result": 1,
        "unit Samples/s, no evidence it is tokens/s": 1,
    }
    v51 = mlperf.parse_summary(fixture_sources / mlperf.SUMMARY_FILES[1], fixture_sources)
    assert v51.skipped == {}  # the heterogeneous system is kept now (next test)


def test_a_heterogeneous_system_is_kept_with_its_accelerator_mix(fixture_sources):
    rows = mlperf.parse_summary(fixture_sources / mlperf.SUMMARY_FILES[1]).rows
    mango = next(r for r in rows if r["submitter"] == "MangoBoost")
    # MI300X (x32) + MI325X (x16) on 6 nodes of 8: 48 accelerators, the mix in the name's order.
    assert (mango["accelerator"], mango["accelerator_count"]) == ("mi300x+mi325x", 48)
    assert mango["source_accelerator_name"].endswith("MI325X 256GB HBM3e (x16)")
    # Counts that do not add up to a# x Nodes are an error naming the column and the rule.
    bad = summary_record(
        version="v5.1",
        Nodes=2,
        Accelerator="AMD Instinct MI300X 192GB HBM3 (x8), AMD Instinct MI325X 256GB HBM3e (x16)",
        **{"a#": 8},
    )
    path = write_sources(fixture_sources / "bad", {mlperf.SUMMARY_FILES[1]: [bad]})
    (problem,) = mlperf.parse_summary(path / mlperf.SUMMARY_FILES[1]).problems
    assert (problem.row, problem.column, problem.rule) == (
        1,
        "Accelerator",
        "a mix's counts must add up to 16",
    )


def test_summary_llama31_8b_interactive_queries_label_is_read_as_tokens(fixture_sources):
    rows = mlperf.parse_summary(fixture_sources / mlperf.SUMMARY_FILES[1]).rows
    b200 = next(r for r in rows if r["benchmark_model"] == "llama3.1-8b")
    assert (b200["scenario"], b200["tokens_per_s"]) == ("Interactive", 102903.0)
    assert b200["model_run"] == "llama3.1-8b"  # folder llama3_1-8b: the benchmark's own model
    # Without the evidence rule the same label on another benchmark is dropped.
    other = summary_record(version="v5.1", Performance_Units="Queries/s")
    path = write_sources(fixture_sources / "other", {mlperf.SUMMARY_FILES[1]: [other]})
    parsed = mlperf.parse_summary(path / mlperf.SUMMARY_FILES[1])
    assert parsed.rows == []
    assert parsed.skipped == {"unit Queries/s, no evidence it is tokens/s": 1}


def test_summary_open_substitute_model_is_model_run(fixture_sources):
    rows = mlperf.parse_summary(fixture_sources / mlperf.SUMMARY_FILES[0]).rows
    open_rows = [r for r in rows if r["division"] == "open"]
    assert [
        (r["system"], r["platform"], r["benchmark_model"], r["model_run"]) for r in open_rows
    ] == [
        (
            "NVIDIA H200 (1x H200-SXM-141GB)",
            "H200-SXM-141GBx1_TRT_DepthPruned",
            "llama2-70b-99",
            "llama2-70b-depth-pruned",
        )
    ]
    closed = [r for r in rows if r["division"] == "closed"]
    assert all(r["model_run"] == r["benchmark_model"] for r in closed)


def test_two_substitutes_on_one_system_are_two_keys(tmp_path):
    # As Krai in v5.1: one system folder, one benchmark and scenario, two models run.
    krai = {
        "version": "v5.1",
        "Submitter": "Krai",
        "Category": "open",
        "System": "HPE Cray XD670 (8x H200-SXM-141GB, vLLM v0.9.2)",
        "Platform": "xd670_h200_x8_vllm_092",
        "Model": "llama2-70b-99.9",
        "Accelerator": "NVIDIA H200-SXM-141GB",
        "a#": 8,
    }
    files = {
        mlperf.SUMMARY_FILES[0]: [],
        mlperf.SUMMARY_FILES[1]: [
            summary_record(**krai, UsedModel="llama3_1-70b-fp8_dyn", Performance_Result=21000.0),
            summary_record(**krai, UsedModel="llama3_1-70b-fp8_pre", Performance_Result=22000.0),
        ],
    }
    df = mlperf.build(write_sources(tmp_path, files))["mlperf_results"]
    assert df["model_run"].to_list() == ["llama3_1-70b-fp8_dyn", "llama3_1-70b-fp8_pre"]
    assert df.select(mlperf_primary_key()).is_duplicated().sum() == 0


def test_platform_must_be_the_location_folder(tmp_path):
    bad = summary_record(Location="closed/AMD/results/another_folder/llama2-70b-99/Offline")
    root = write_sources(tmp_path, {mlperf.SUMMARY_FILES[0]: [bad]})
    parsed = mlperf.parse_summary(root / mlperf.SUMMARY_FILES[0])
    assert [(p.row, p.column, p.value) for p in parsed.problems] == [
        (1, "Platform", "1xMI300X_2xEPYC-9374F")
    ]


def test_summary_locator_names_file_commit_and_row(fixture_sources):
    rows = mlperf.parse_summary(fixture_sources / mlperf.SUMMARY_FILES[0], fixture_sources).rows
    juniper = next(r for r in rows if r["submitter"] == "JuniperNetworks")
    assert juniper["source_locator"] == f"{mlperf.SUMMARY_FILES[0]}@{'ab' * 6}#row 4"


def test_summary_bad_values_raise_with_file_row_and_column(tmp_path):
    bad = [
        summary_record(),
        summary_record(ID="v4.1-0002", Platform="x8", **{"a#": 8.5}),
        summary_record(ID="v4.1-0003", Platform="x9", Performance_Result=-1.0),
        summary_record(ID="v4.1-0004", Platform="x10", Availability="soon"),
    ]
    root = write_sources(tmp_path, {mlperf.SUMMARY_FILES[0]: bad})
    parsed = mlperf.parse_summary(root / mlperf.SUMMARY_FILES[0])
    found = [(p.row, p.column, p.value) for p in parsed.problems]
    assert found == [
        (2, "a#", "8.5"),
        (3, "Performance_Result", "-1.0"),
        (4, "Availability", "soon"),
    ]
    assert all(p.file.endswith("v4.1_2024-11-05_summary_results.json") for p in parsed.problems)


def test_unknown_round_without_a_date_is_an_error(tmp_path):
    root = write_sources(tmp_path, {mlperf.SUMMARY_FILES[0]: [summary_record(version="v9.0")]})
    parsed = mlperf.parse_summary(root / mlperf.SUMMARY_FILES[0])
    assert [(p.row, p.column, p.value) for p in parsed.problems] == [(1, "version", "v9.0")]
    assert "no publication date" in parsed.problems[0].rule


def test_not_a_list_is_an_error(tmp_path):
    path = tmp_path / "summary_results.json"
    path.write_text('{"results": []}', encoding="utf-8")
    with pytest.raises(DataError, match="expected a JSON list"):
        mlperf.parse_summary(path)


# --- cm4mlperf table format --------------------------------------------------------------------


def test_cm_keeps_llama2_offline_tokens_and_drops_per_sample_results(fixture_sources):
    parsed = mlperf.parse_cm_result(fixture_sources / CM_V40_OFFLINE, fixture_sources)
    df = pl.DataFrame(parsed.rows).sort("division")
    assert df.select("division", "benchmark_model", "scenario", "tokens_per_s").rows() == [
        ("closed", "llama2-70b-99.9", "Offline", 21805.8),
        ("open", "llama2-70b-99", "Offline", 6235.72),
    ]
    assert parsed.skipped == {
        "value is per sample or query, not per token": 2,  # llama2 Server, GPT-J
        "power result (Watts)": 1,
        "no accelerator (CPU-only system)": 1,
    }
    assert set(df["date"]) == {"2024-04-11"}  # from the import folder's stamp
    assert set(df["source_id"]) == {"cm4mlperf-results"}


def test_cm_multi_node_count_and_category(fixture_sources):
    rows = mlperf.parse_cm_result(fixture_sources / CM_V40_OFFLINE).rows
    juniper = next(r for r in rows if r["submitter"] == "JuniperNetworks")
    assert (juniper["accelerator_count"], juniper["accelerator"]) == (16, "h100-sxm")
    assert juniper["category"] == "rdi"
    assert (juniper["system"], juniper["platform"]) == ("H100-2N-80GB", "H100-2N-80GB")
    assert juniper["model_run"] == "llama2-70b-99"


def test_cm_unknown_round_unit_is_skipped_not_guessed(tmp_path):
    rel = CM_V40_OFFLINE.replace("v4.0", "v5.0")
    root = write_sources(tmp_path, {rel: [cm_record(version="v5.0")]})
    parsed = mlperf.parse_cm_result(root / rel)
    assert parsed.rows == []
    assert parsed.skipped == {"unit not established for this round and benchmark": 1}


def test_cm_folder_without_date_stamp_is_an_error(tmp_path):
    path = tmp_path / "experiment" / "latest" / "cm-result.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps([cm_record()]), encoding="utf-8")
    with pytest.raises(DataError, match="YYYY-MM-DD"):
        mlperf.parse_cm_result(path)


# --- build() over both formats -----------------------------------------------------------------


def test_build_merges_formats_and_drops_cm_duplicates_of_official_results(fixture_sources):
    df = mlperf.build(fixture_sources)["mlperf_results"]
    assert df.columns == [
        "round",
        "date",
        "submitter",
        "system",
        "platform",
        "accelerator",
        "source_accelerator_name",
        "accelerator_count",
        "benchmark_model",
        "model_run",
        "scenario",
        "category",
        "division",
        "tokens_per_s",
        "source_id",
        "source_locator",
    ]
    assert df.group_by("source_id").len().sort("source_id").rows() == [
        ("cm4mlperf-results", 2),
        ("mlperf-inference-v4.1", 5),
        ("mlperf-inference-v5.1", 3),  # with the heterogeneous MangoBoost system, kept now
    ]
    amd_1x = df.filter(
        pl.col("platform") == "1xMI300X_2xEPYC-9374F", pl.col("scenario") == "Offline"
    )
    assert amd_1x["source_id"].to_list() == ["mlperf-inference-v4.1"]
    assert df["date"].dtype == pl.Date
    assert df.filter(pl.col("round") == "v5.1")["date"].unique().to_list() == [date(2025, 9, 4)]
    _, skipped = mlperf.read_all(fixture_sources)
    assert skipped["cm4mlperf duplicate of an official summary result"] == 1


def test_build_is_sorted_and_repeatable(fixture_sources):
    first = mlperf.build(fixture_sources)["mlperf_results"]
    again = mlperf.build(fixture_sources)["mlperf_results"]
    assert first.equals(again)
    order = ["round", "benchmark_model", "scenario", "division", "submitter", "system", "platform"]
    assert first.equals(first.sort([*order, "model_run", "source_id"]))
    assert first.select(mlperf_primary_key()).is_duplicated().sum() == 0


# --- The real sources --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real(sources_dir) -> pl.DataFrame:
    return mlperf.build(sources_dir)["mlperf_results"]


@pytest.mark.sources
def test_real_closed_coverage_per_round(real):
    closed = real.filter(pl.col("division") == "closed")
    assert closed.height >= 400
    per_round = dict(closed.group_by("round").len().rows())
    assert per_round["v4.0"] >= 20 and per_round["v4.1"] >= 250 and per_round["v5.1"] >= 300
    v51 = set(closed.filter(pl.col("round") == "v5.1")["benchmark_model"])
    assert {"llama3.1-405b", "llama3.1-8b", "deepseek-r1", "mixtral-8x7b", "llama2-70b-99"} <= v51
    assert {"gptj-99", "mixtral-8x7b"} <= set(
        closed.filter(pl.col("round") == "v4.1")["benchmark_model"]
    )
    assert set(closed["scenario"]) == {"Offline", "Server", "Interactive"}
    assert {"open"} <= set(real["division"])


@pytest.mark.sources
def test_real_accelerators_are_canonical_and_counts_whole_systems(real):
    assert not mlperf.UNKNOWN_ACCELERATOR_FALLBACK
    assert {"h100-sxm", "h200", "b200", "gb200", "mi300x", "mi325x", "l40s"} <= set(
        real["accelerator"]
    )
    nvl72 = real.filter(
        pl.col("accelerator") == "gb200", pl.col("benchmark_model") == "deepseek-r1"
    )
    assert set(nvl72["accelerator_count"]) == {72}
    assert real.select(mlperf_primary_key()).is_duplicated().sum() == 0


@pytest.mark.sources
def test_real_platform_and_model_run(real):
    # A results folder carries one system name per submitter, round and division.
    names = real.group_by("round", "submitter", "division", "platform").agg(
        pl.col("system").n_unique()
    )
    assert (names["system"] == 1).all()
    # AMD's 1x and 8x MI300X systems share a name in v4.1: two folders.
    amd = real.filter(pl.col("round") == "v4.1", pl.col("system") == "Supermicro AS-8125GS-TNMR2")
    assert {"1xMI300X_2xEPYC-9374F", "8xMI300X_2xEPYC-9374F"} <= set(amd["platform"])
    # Every closed result ran the benchmark's own model; open v5.1 Llama-2-70B mostly did not.
    closed = real.filter(pl.col("division") == "closed")
    assert (closed["model_run"] == closed["benchmark_model"]).all()
    open70 = real.filter(
        pl.col("round") == "v5.1",
        pl.col("division") == "open",
        pl.col("benchmark_model") == "llama2-70b-99.9",
    )
    substitutes = open70.filter(pl.col("model_run") != pl.col("benchmark_model"))
    assert (open70.height, substitutes.height) == (23, 20)
    assert substitutes["model_run"].str.starts_with("llama3_1-70b").sum() == 19


@pytest.mark.sources
def test_real_units_follow_the_evidence(real, sources_dir):
    # No per-sample values: v3.1 is GPT-J only, and GPT-J before v4.1 is per sample.
    assert "v3.1" not in set(real["round"])
    assert (
        real.filter(
            pl.col("round") == "v4.0", pl.col("benchmark_model").str.starts_with("gptj")
        ).height
        == 0
    )
    assert set(real.filter(pl.col("round") == "v4.0")["scenario"]) == {"Offline"}
    # cm4mlperf v4.1 values equal the official summary's, labelled Tokens/s there except the
    # 7B open substitutes: the basis of CM_TOKENS (cm4mlperf's unit label is per scenario).
    raw = json.loads((sources_dir / mlperf.SUMMARY_FILES[0]).read_text(encoding="utf-8"))
    official = {
        r["Location"].lower(): (r["Performance_Result"], r["Performance_Units"]) for r in raw
    }
    cm_v41 = [
        r
        for f in sorted((sources_dir / mlperf.CM_EXPERIMENTS).glob("*v4.1*/*/cm-result.json"))
        for r in mlperf.parse_cm_result(f).rows
    ]
    assert all(official[r["_result"]][0] == r["tokens_per_s"] for r in cm_v41)
    units = [official[r["_result"]][1] for r in cm_v41]
    assert units.count("Tokens/s") == 312 and len(units) == 317  # CPU-only results left out
    assert (
        real.filter(pl.col("round") == "v4.1", pl.col("source_id") == "cm4mlperf-results").height
        == 0
    )
    # Llama-3.1-8B Interactive (labelled Queries/s) never exceeds the system's Offline tokens/s.
    eight = real.filter(pl.col("benchmark_model") == "llama3.1-8b").pivot(
        on="scenario", index=["submitter", "platform"], values="tokens_per_s"
    )
    interactive = eight.filter(pl.col("Interactive").is_not_null())
    assert interactive.height == 8
    assert (interactive["Interactive"] < interactive["Offline"]).all()


@pytest.mark.sources
def test_real_known_values(real):
    dgx = real.filter(
        pl.col("round") == "v4.0",
        pl.col("platform") == "DGX-H100_H100-SXM-80GBx8_TRT",
    )
    assert dgx.select("benchmark_model", "tokens_per_s", "accelerator_count").rows() == [
        ("llama2-70b-99.9", 21805.8, 8)
    ]
    mi300x = real.filter(
        pl.col("round") == "v4.1",
        pl.col("system") == "Supermicro AS-8125GS-TNMR2",
        pl.col("platform") == "8xMI300X_2xEPYC-9374F",
        pl.col("benchmark_model") == "llama2-70b-99",
        pl.col("scenario") == "Offline",
    )
    assert mi300x["tokens_per_s"].to_list() == [23514.8]
    assert set(real["date"].cast(pl.String)) == {"2024-04-11", "2024-08-28", "2025-09-04"}
