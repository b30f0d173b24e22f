"""InferenceMAX run aggregates: per-GPU throughput per configuration, dated where mantile says."""

from __future__ import annotations

import datetime as dt
import json

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import inferencemax

HEAD = "inferencemax-raw-mantile/2026-01-28_HEAD/reconcile"
RAW = f"{HEAD}/sources/inferencemax/raw"
CSV = f"{HEAD}/by_model/openai_GPT-OSS-120B/inferencemax.csv"


def agg(**over) -> dict:
    rec = {
        "hw": "b200-trt",
        "conc": 64,
        "image": "nvcr.io/nvidia/tensorrt-llm:1.2",
        "model": "/mnt/lustre01/models/gpt-oss-120b",
        "infmax_model_prefix": "gptoss",
        "framework": "trt",
        "precision": "fp4",
        "spec_decoding": "none",
        "disagg": False,
        "isl": 1024,
        "osl": 1024,
        "is_multinode": False,
        "tp": 1,
        "ep": 1,
        "dp_attention": "false",
        "tput_per_gpu": 17364.11,
        "output_tput_per_gpu": 8672.53,
        "input_tput_per_gpu": 8691.58,
        "median_ttft": 0.12,
        "p99_ttft": 1.04,
        "median_tpot": 0.014,
        "median_e2el": 13.24,
        "median_intvty": 70.1,
    }
    return rec | over


DISAGG = {
    "hw": "gb200",
    "framework": "dynamo-trt",
    "infmax_model_prefix": "dsr1",
    "model": "nvidia/DeepSeek-R1-0528-FP4-V2",
    "disagg": True,
    "is_multinode": True,
    "prefill_tp": 4,
    "prefill_ep": 4,
    "prefill_num_workers": 2,
    "num_prefill_gpu": 8,
    "prefill_dp_attention": "true",
    "decode_tp": 16,
    "decode_ep": 16,
    "decode_num_workers": 1,
    "num_decode_gpu": 16,
    "decode_dp_attention": "true",
}


def _tables(tree, runs: dict[str, list[dict]], dated=("20667906037,2026-01-02T22:24:09Z",)):
    for run, records in runs.items():
        tree.add(f"{RAW}/run_{run}/agg_bmk.json", json.dumps(records, indent=1))
    tree.add(
        CSV,
        "gpu_model,concurrency,benchmark_date,run_id\n"
        + "".join(f"b200,64,{d.split(',')[1]},{d.split(',')[0]}\n" for d in dated),
    )
    return inferencemax.build(tree.root)["inference_benchmarks"]


def test_a_record_keeps_per_gpu_throughput_and_its_configuration(tree):
    df = _tables(tree, {"20667906037": [agg()]})
    row = df.row(0, named=True)
    assert (row["benchmark_model"], row["accelerator"], row["source_hw"]) == (
        "gpt-oss-120b",
        "b200",
        "b200-trt",
    )
    assert row["source_model_name"] == "/mnt/lustre01/models/gpt-oss-120b"
    assert (row["tokens_per_s_per_gpu"], row["concurrency"], row["tp"]) == (17364.11, 64, 1)
    assert row["dp_attention"] is False and row["disaggregated"] is False
    assert (row["run_id"], row["date"]) == ("20667906037", dt.date(2026, 1, 2))
    assert row["source_locator"] == (
        f"{RAW}/run_20667906037/agg_bmk.json@c0ffee000000#row 1 (gpt-oss-120b, b200-trt, conc 64)"
    )


def test_disaggregated_runs_keep_both_sides_and_undated_runs_no_date(tree):
    df = _tables(tree, {"20218553330": [agg(**DISAGG)]})
    row = df.row(0, named=True)
    assert row["benchmark_model"] == "deepseek-r1" and row["accelerator"] == "gb200"
    assert (row["prefill_gpus"], row["decode_gpus"], row["prefill_workers"]) == (8, 16, 2)
    assert row["prefill_dp_attention"] is True and row["disaggregated"] is True
    assert row["date"] is None


def test_reruns_of_a_configuration_are_kept_apart_by_run(tree):
    df = _tables(tree, {"20667906037": [agg()], "20662362255": [agg(tput_per_gpu=17001.0)]})
    assert sorted(df["run_id"]) == ["20662362255", "20667906037"]
    assert df.filter(pl.col("run_id") == "20662362255")["tokens_per_s_per_gpu"].item() == 17001.0


def test_an_empty_run_file_gives_no_rows(tree):
    df = _tables(tree, {"20244442227": [], "20667906037": [agg()]})
    assert df.height == 1


def test_a_run_repeating_a_configuration_names_both_rows(tree):
    with pytest.raises(DataError) as err:
        _tables(tree, {"20667906037": [agg(), agg(tput_per_gpu=1.0)]})
    p = err.value.problems[0]
    assert p.row == 2 and "row 1" in p.rule and p.file.endswith("run_20667906037/agg_bmk.json")


def test_bad_records_name_row_column_and_value(tree):
    with pytest.raises(DataError) as err:
        _tables(tree, {"1": [agg(), agg(conc=8, tput_per_gpu="fast")]})
    assert (err.value.problems[0].row, err.value.problems[0].column) == (2, "tput_per_gpu")


def test_an_unknown_model_prefix_is_an_error(tree):
    with pytest.raises(DataError, match="llama"):
        _tables(tree, {"2": [agg(infmax_model_prefix="llama")]})


def test_an_unknown_hardware_key_is_an_error(tree):
    with pytest.raises(DataError, match="tpu9"):
        _tables(tree, {"3": [agg(hw="tpu9")]})


def test_a_run_with_two_dates_is_an_error(tree):
    with pytest.raises(DataError, match="two dates"):
        _tables(tree, {"1": [agg()]}, dated=("1,2026-01-02T00:00:00Z", "1,2026-01-03T00:00:00Z"))


def test_real_runs_counts_and_dates(sources_dir):
    df = inferencemax.build(sources_dir)["inference_benchmarks"]
    # README II.2.3: 1,687 rows in 35 run files plus a top-level copy (65 rows); 2 runs empty.
    assert df.height == 1687 - 65 and df["run_id"].n_unique() == 35 - 2
    dates = df.select("run_id", "date").unique().drop_nulls()
    assert dict(dates.iter_rows())["20308883467"] == dt.date(2025, 12, 17)
    assert dict(dates.iter_rows())["21012127808"] == dt.date(2026, 1, 14)
    assert dates.height == 5
    assert set(df["benchmark_model"]) == {"gpt-oss-120b", "deepseek-r1"}
    assert {"b200", "gb200", "mi355x", "h200", "h100", "mi325x", "mi300x"} == set(df["accelerator"])


def test_the_top_level_file_is_a_copy_of_the_last_run(sources_dir):
    raw = next((sources_dir / "inferencemax-raw-mantile").glob("*_HEAD")) / RAW.split("/", 2)[2]
    top = json.loads((raw / "agg_bmk.json").read_text())
    assert top == json.loads((raw / "run_21012127808" / "agg_bmk.json").read_text())
