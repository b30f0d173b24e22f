"""MLPerf Training v5.0 and v5.1: submitted systems, and the Llama-3.1-405B runs' wall times.

Where and when (sources README, Part II §3.2), folder `mlperf-training-v5.0-v5.1/`:

- `v5.0_2025-06-17/`: `prishajain1/training_results_v5.0`, a **fork** of
  `mlcommons/training_results_v5.0`, at d7e703f (2025-06-17, the last upstream merge; upstream's
  "Commit Results" is dated 2025-05-30).
- `v5.1_2026-01-12_HEAD/`: `mlcommons/training_results_v5.1` at HEAD 441d65f (2026-01-12); the
  results were committed 2025-11-05.

`date` is the day the round's results were committed upstream (2025-05-30, 2025-11-05), the
nearest the files come to a publication date.

`mlperf_training_systems`: every `<Submitter>/systems/<system>.json` (94 in v5.0, 92 in v5.1).
`accelerator_count` = `accelerators_per_node` x `number_of_nodes` (both strings in the JSON).
`system` is the file's stem, which is also the system's results folder. Accelerator ids come from
`analysis.data.gpus.canonical_gpu`; names it does not know: "TPU-trillium" is `tpu-v6e` (Trillium
is the sixth-generation TPU, as gpus.py notes) and any other unknown name is slugged without
vendor words ("AMD Radeon RX 7900 XTX" -> `rx-7900-xtx`), collected in
`UNKNOWN_ACCELERATOR_FALLBACK` for gpus.py.

`mlperf_training_results`: one row per `results/<system>/llama31_405b/result_<n>.txt` (42 files in
v5.0, 24 in v5.1; the other benchmarks' logs were left out of the sources for size). Each log has
exactly one MLLOG `run_start` and one `run_stop` (`time_ms`); `run_minutes` is their difference.
That is the raw wall time of one run, **not** MLPerf's official time-to-train score, which its
scoring rules derive from several runs (and may differ). The run's accelerators come from the
system's JSON; a result whose system has no JSON is an error.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.gpus import canonical_gpu
from analysis.data.importers.common import frame, locator, slug

FOLDER = "mlperf-training-v5.0-v5.1"
ROUND_DATES = {"v5.0": "2025-05-30", "v5.1": "2025-11-05"}  # results committed, README II.3.2
SOURCE_IDS = {"v5.0": "mlperf-training-v5.0", "v5.1": "mlperf-training-v5.1"}
ALIASES = {"tpu-trillium": "tpu-v6e"}
UNKNOWN_ACCELERATOR_FALLBACK: set[str] = set()

SOURCES = [
    {
        "source_id": "mlperf-training-v5.0",
        "title": "MLPerf Training v5.0 results (systems JSON and Llama-3.1-405B logs)",
        "publisher": "MLCommons (copy in the fork prishajain1/training_results_v5.0)",
        "url": "https://github.com/prishajain1/training_results_v5.0",
        "licence": "Apache-2.0",
        "retrieved": "2025-06-17",
        "notes": "Secondary copy: a fork of mlcommons/training_results_v5.0 read at d7e703f, its "
        "last upstream merge (upstream 'Commit Results' 2025-05-30). Only llama31_405b logs; run "
        "times are raw run_start-run_stop, not official time-to-train scores.",
    },
    {
        "source_id": "mlperf-training-v5.1",
        "title": "MLPerf Training v5.1 results (systems JSON and Llama-3.1-405B logs)",
        "publisher": "MLCommons",
        "url": "https://github.com/mlcommons/training_results_v5.1",
        "licence": "Apache-2.0",
        "retrieved": "2026-01-12",
        "notes": "HEAD 441d65f; results committed 2025-11-05. Only llama31_405b logs; run times "
        "are raw run_start-run_stop, not official time-to-train scores.",
    },
]

_ROUND_DIR = re.compile(r"^(v\d+\.\d+)_\d{4}-\d{2}-\d{2}")
_MLLOG = re.compile(r":::MLLOG (\{.*\})\s*$")


def round_of(path: Path, sources_dir: Path) -> str:
    top = path.relative_to(sources_dir / FOLDER).parts[0]
    m = _ROUND_DIR.match(top)
    if m is None or m.group(1) not in ROUND_DATES:
        raise fail(path, None, None, top, f"round folder must be one of {sorted(ROUND_DATES)}_...")
    return m.group(1)


def accelerator(name: str) -> str:
    gpu = canonical_gpu(name)
    if gpu is not None:
        return gpu
    UNKNOWN_ACCELERATOR_FALLBACK.add(name)
    bare = re.sub(r"\b(amd|nvidia|intel|google|radeon|geforce|instinct)\b", " ", name, flags=re.I)
    return ALIASES.get(slug(name), slug(bare))


def _whole(path: Path, column: str, value: object, minimum: int) -> int:
    try:
        number = float(str(value).strip())
    except ValueError:
        raise fail(path, None, column, value, "must be a whole number") from None
    if number != int(number) or number < minimum:
        raise fail(path, None, column, value, f"must be a whole number >= {minimum}")
    return int(number)


def parse_system(path: Path, sources_dir: Path) -> dict:
    """One systems/<name>.json -> a mlperf_training_systems row (locator included)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise fail(path, None, None, None, f"not valid JSON: {e}") from None
    round_ = round_of(path, sources_dir)
    for column in ("division", "accelerator_model_name", "accelerators_per_node"):
        if column not in doc:
            raise fail(path, None, column, None, "field missing from the system JSON")
    per_node = _whole(path, "accelerators_per_node", doc["accelerators_per_node"], 0)
    nodes = _whole(path, "number_of_nodes", doc.get("number_of_nodes"), 1)
    if doc["division"] not in ("closed", "open"):
        raise fail(path, None, "division", doc["division"], "must be closed or open")
    return {
        "round": round_,
        "date": ROUND_DATES[round_],
        "submitter": path.parent.parent.name,
        "system": path.stem,
        "division": doc["division"],
        "availability": doc.get("status") or None,
        "accelerator": accelerator(str(doc["accelerator_model_name"])),
        "source_accelerator_name": doc["accelerator_model_name"],
        "accelerators_per_node": per_node,
        "node_count": nodes,
        "accelerator_count": per_node * nodes,
        "framework": doc.get("framework") or None,
        "source_id": SOURCE_IDS[round_],
        "source_locator": locator(sources_dir, path, "system JSON"),
    }


def parse_log(path: Path) -> dict:
    """run_start/run_stop of one MLLOG result file: minutes, status, samples and their lines."""
    events: dict[str, list[tuple[int, dict]]] = {"run_start": [], "run_stop": []}
    with path.open(encoding="utf-8", errors="replace") as fh:
        for n, line in enumerate(fh, start=1):
            m = _MLLOG.search(line)
            if m is None or ('"run_start"' not in line and '"run_stop"' not in line):
                continue
            try:
                event = json.loads(m.group(1))
            except json.JSONDecodeError:
                raise fail(path, n, "MLLOG", line.strip()[:80], "not a JSON MLLOG record") from None
            if event.get("key") in events:
                events[event["key"]].append((n, event))
    for key, found in events.items():
        if len(found) != 1:
            raise fail(path, None, key, str(len(found)), f"a run log needs exactly one {key}")
    (start_line, start), (stop_line, stop) = events["run_start"][0], events["run_stop"][0]
    t0, t1 = start.get("time_ms"), stop.get("time_ms")
    if not isinstance(t0, int | float) or not isinstance(t1, int | float) or t1 < t0:
        raise fail(path, stop_line, "time_ms", t1, "run_stop must carry a time_ms after run_start")
    meta = stop.get("metadata") or {}
    status = meta.get("status")
    if status not in ("success", "aborted"):
        raise fail(path, stop_line, "status", status, "run_stop status must be success or aborted")
    return {
        "run_minutes": (t1 - t0) / 60000,
        "status": status,
        "samples_count": meta.get("samples_count"),
        "lines": (start_line, stop_line),
    }


def parse_result(path: Path, sources_dir: Path, systems: dict[tuple, dict]) -> dict:
    """One results/<system>/<benchmark>/result_<n>.txt -> a mlperf_training_results row."""
    round_ = round_of(path, sources_dir)
    submitter, system, benchmark = path.parents[3].name, path.parents[1].name, path.parent.name
    spec = systems.get((round_, submitter, system))
    if spec is None:
        raise fail(path, None, "system", system, f"no {submitter}/systems/{system}.json")
    log = parse_log(path)
    if spec["accelerator_count"] < 1:
        raise fail(path, None, "system", system, "the system's JSON counts no accelerators")
    start, stop = log.pop("lines")
    where = f"run_start line {start}, run_stop line {stop}"
    return {
        "round": round_,
        "date": ROUND_DATES[round_],
        "submitter": submitter,
        "system": system,
        "benchmark": benchmark,
        "run": path.stem,
        "accelerator": spec["accelerator"],
        "accelerator_count": spec["accelerator_count"],
        **log,
        "source_id": SOURCE_IDS[round_],
        "source_locator": locator(sources_dir, path, where),
    }


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    sources_dir = Path(sources_dir)
    root = sources_dir / FOLDER
    system_rows = [parse_system(p, sources_dir) for p in sorted(root.glob("*/*/systems/*.json"))]
    if not system_rows:
        raise fail(root, None, None, None, "no <round>/<submitter>/systems/*.json found")
    systems = {(r["round"], r["submitter"], r["system"]): r for r in system_rows}
    logs = sorted(root.glob("*/*/results/*/*/result_*.txt"))
    results = [parse_result(p, sources_dir, systems) for p in logs]
    key = ["round", "submitter", "system"]
    return {
        "mlperf_training_systems": frame("mlperf_training_systems", system_rows).sort(key),
        "mlperf_training_results": frame("mlperf_training_results", results).sort(
            [*key, "benchmark", "run"]
        ),
    }
