"""MLPerf Training: systems JSON, and each Llama-3.1-405B log's run_start -> run_stop wall time."""

from __future__ import annotations

import datetime as dt
import json

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import mlperf_training

ROOT = "mlperf-training-v5.0-v5.1"
V51 = f"{ROOT}/v5.1_2026-01-12_HEAD"


def system_json(nodes="1280", per_node="4", name="NVIDIA Blackwell GPU (GB200)") -> str:
    return json.dumps(
        {
            "submitter": "NVIDIA",
            "division": "closed",
            "status": "Available on-premise",
            "system_name": "hsg",
            "number_of_nodes": nodes,
            "accelerators_per_node": per_node,
            "accelerator_model_name": name,
            "framework": "NGC NeMo 25.09",
        },
        indent=4,
    )


def mllog(key: str, time_ms: int, **meta) -> str:
    event = {"namespace": "", "time_ms": time_ms, "event_type": "x", "key": key, "value": None}
    return ":::MLLOG " + json.dumps(event | {"metadata": meta})


START = 1759859511530
LOG = "\n".join(
    [
        "+ echo ':::SYSJSON {}'",
        mllog("submission_benchmark", START - 1000),
        "  0: " + mllog("run_start", START),  # multi-node logs prefix the rank
        mllog("eval_accuracy", START + 300000, samples_count=100),
        mllog("run_stop", START + 640428, status="success", samples_count=345600),
        "",
    ]
)


def _write(tree, log=LOG, system=None, runs=("result_0",)):
    tree.add(
        f"{V51}/NVIDIA/systems/hsg_ngpu5120.json",
        system or system_json(),
        commit="441d65f" + "0" * 33,
    )
    for run in runs:
        tree.add(
            f"{V51}/NVIDIA/results/hsg_ngpu5120/llama31_405b/{run}.txt",
            log,
            commit="441d65f" + "0" * 33,
        )


def test_a_system_counts_accelerators_per_node_times_nodes(tree):
    _write(tree)
    s = mlperf_training.build(tree.root)["mlperf_training_systems"].row(0, named=True)
    assert (s["round"], s["date"], s["system"]) == ("v5.1", dt.date(2025, 11, 5), "hsg_ngpu5120")
    assert (s["accelerator"], s["accelerators_per_node"], s["node_count"]) == ("gb200", 4, 1280)
    assert s["accelerator_count"] == 5120


def test_a_run_is_its_run_start_to_run_stop_minutes(tree):
    _write(tree, runs=("result_0", "result_1"))
    r = mlperf_training.build(tree.root)["mlperf_training_results"]
    assert r["run"].to_list() == ["result_0", "result_1"]
    row = r.row(0, named=True)
    assert row["run_minutes"] == pytest.approx(640428 / 60000)  # 10.67 min, README "about 10"
    assert (row["status"], row["samples_count"], row["accelerator_count"]) == (
        "success",
        345600,
        5120,
    )
    assert row["source_locator"].endswith(
        "result_0.txt@441d65f00000#run_start line 3, run_stop line 5"
    )


def test_unknown_accelerators_get_an_alias_or_a_clean_slug():
    assert mlperf_training.accelerator("TPU-trillium") == "tpu-v6e"
    assert mlperf_training.accelerator("AMD Radeon RX 7900 XTX") == "rx-7900-xtx"
    assert mlperf_training.accelerator("NVIDIA Blackwell Ultra GPU (GB300)") == "gb300"


def test_a_log_without_run_stop_names_the_file(tree):
    _write(tree, log=LOG.replace("run_stop", "run_pause"))
    with pytest.raises(DataError) as err:
        mlperf_training.build(tree.root)
    p = err.value.problems[0]
    assert p.file.endswith("result_0.txt") and p.column == "run_stop" and p.value == "0"


def test_a_broken_mllog_record_names_its_line(tree):
    _write(
        tree,
        log=LOG.replace('"key": "run_start", "value": null', '"key": "run_start", "value": nul'),
    )
    with pytest.raises(DataError) as err:
        mlperf_training.build(tree.root)
    assert (err.value.problems[0].row, err.value.problems[0].column) == (3, "MLLOG")


def test_a_result_without_its_system_json_is_an_error(tree):
    tree.add(f"{V51}/NVIDIA/systems/other.json", system_json())
    tree.add(f"{V51}/NVIDIA/results/hsg_ngpu5120/llama31_405b/result_0.txt", LOG)
    with pytest.raises(DataError, match=r"no NVIDIA/systems/hsg_ngpu5120\.json"):
        mlperf_training.build(tree.root)


def test_a_bad_node_count_names_file_and_field(tree):
    _write(tree, system=system_json(nodes="many"))
    with pytest.raises(DataError) as err:
        mlperf_training.build(tree.root)
    p = err.value.problems[0]
    assert (p.column, p.value) == ("number_of_nodes", "many") and p.file.endswith(
        "hsg_ngpu5120.json"
    )


def test_real_rounds_systems_and_405b_runs(sources_dir):
    t = mlperf_training.build(sources_dir)
    systems, runs = t["mlperf_training_systems"], t["mlperf_training_results"]
    # README II.3.2: 94 + 92 systems JSON; 42 (14 systems) + 24 (8 systems) 405B logs.
    assert dict(systems.group_by("round").len().iter_rows()) == {"v5.0": 94, "v5.1": 92}
    assert dict(runs.group_by("round").len().iter_rows()) == {"v5.0": 42, "v5.1": 24}
    assert runs.select(pl.struct("round", "system").n_unique()).item() == 22
    by_size = runs.group_by("system", "accelerator_count").agg(pl.col("run_minutes").mean())
    minutes = {r["system"]: r["run_minutes"] for r in by_size.iter_rows(named=True)}
    # README: carina ~105 min at 512 GPUs and ~27 at 2,496; hsg ~10 min at 5,120 GB200s.
    assert 100 < minutes["carina_ngpu512_ngc25.04_nemo"] < 110
    assert 25 < minutes["carina_ngpu2496_ngc25.04_nemo"] < 30
    assert 9.5 < minutes["hsg_ngpu5120_ngc25.09_nemo"] < 11
    assert runs["status"].unique().to_list() == ["success"]
    gpus = dict(by_size.select("system", "accelerator_count").iter_rows())
    assert (
        gpus["eos-dfw_n1024_ngc25.01_nemo"] == 8192 and gpus["hsg_ngpu5120_ngc25.09_nemo"] == 5120
    )
