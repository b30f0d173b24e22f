"""InferenceMAX benchmark aggregates: tokens/s per GPU by model, hardware, framework, concurrency.

Where and when: SemiAnalysis' InferenceMAX CI artefacts (`agg_bmk.json`, one per GitHub Actions
run), as **downloaded by a third party**: `github.com/gminneci/mantile`,
`reconcile/sources/inferencemax/raw/run_<run id>/agg_bmk.json`, copied from its HEAD
(2026-01-28; the raw files were added 2026-01-19) into `inferencemax-raw-mantile/` (sources
README, Part II §2.3). InferenceMAX is Apache-2.0; mantile states no licence. SemiAnalysis'
own results live in a database, not in git, so these artefacts are the only copy here.

What a row is (`inference_benchmarks`, analysis.data.schema): one serving
configuration in one run, as the file gives it: throughput per GPU (`tput_per_gpu`, and its
output and input parts), latencies (TTFT, TPOT, end-to-end) and interactivity (`*_intvty`,
tokens/s per user). Aggregated runs give `tp`/`ep`/`dp_attention`; disaggregated ones
(prefill/decode on separate workers) give those per side, with worker and GPU counts.
`benchmark_model` is read from `infmax_model_prefix` (`gptoss` -> gpt-oss-120b, `dsr1` ->
deepseek-r1), because `model` is a repo id or a local path (`/mnt/lustre01/models/...`); the
model as given is `source_model_name`. `accelerator` is the hardware key's base (`b200-trt` ->
b200, `mi355x-amd_0` -> mi355x), the rule the InferenceX app applies (`getGpuSpecs` splits on
'-' or '_').

Dates: the files carry none. mantile's `reconcile/by_model/openai_GPT-OSS-120B/*.csv` map five run
ids to a `benchmark_date` (20308883467 = 2025-12-17 .. 21012127808 = 2026-01-14); those runs are
dated (the UTC day), the others have no date (run ids grow with time, but no date is typed here).
The CSV rows themselves are mantile's copies of the same artefacts and are not imported.

Left out: the top-level `raw/agg_bmk.json`, byte-for-byte the same list as
`run_21012127808/agg_bmk.json` (a copy, with no run id of its own); container `image` tags. Two run
files are empty lists (`[]`). The same configuration recurs across runs (re-runs): every run is
kept, told apart by `run_id`. A run repeating a configuration is an error.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.gpus import canonical_gpu
from analysis.data.importers.common import frame, locator
from analysis.data.importers.new_sources import number

FOLDER = "inferencemax-raw-mantile"
RAW = "reconcile/sources/inferencemax/raw"
DATED = "reconcile/by_model/*/inferencemax*.csv"
SOURCE_ID = "inferencemax-mantile"
TABLE = "inference_benchmarks"
MODELS = {"gptoss": "gpt-oss-120b", "dsr1": "deepseek-r1"}

SOURCES = [
    {
        "source_id": SOURCE_ID,
        "title": "InferenceMAX benchmark aggregates (agg_bmk.json per CI run)",
        "publisher": "SemiAnalysis InferenceMAX (CI artefacts downloaded by gminneci/mantile)",
        "url": "https://github.com/gminneci/mantile",
        "licence": "none stated (InferenceMAX itself: Apache-2.0)",
        "retrieved": "2026-01-28",
        "notes": "Secondary copy: InferenceMAX GitHub Actions artefacts as downloaded by a third "
        "party; not SemiAnalysis' published results. Throughput per GPU; no cost column. Only 5 "
        "of 35 runs dated (mantile's CSVs).",
    }
]

CONFIG = [
    "model",
    "hw",
    "framework",
    "precision",
    "spec_decoding",
    "disagg",
    "isl",
    "osl",
    "conc",
    "tp",
    "ep",
    "dp_attention",
    "prefill_tp",
    "prefill_ep",
    "prefill_num_workers",
    "decode_tp",
    "decode_ep",
    "decode_num_workers",
    "num_prefill_gpu",
    "num_decode_gpu",
    "is_multinode",
    "prefill_dp_attention",
    "decode_dp_attention",
]
_COUNTS = {
    "tp": "tp",
    "ep": "ep",
    "prefill_tp": "prefill_tp",
    "prefill_ep": "prefill_ep",
    "prefill_workers": "prefill_num_workers",
    "prefill_gpus": "num_prefill_gpu",
    "decode_tp": "decode_tp",
    "decode_ep": "decode_ep",
    "decode_workers": "decode_num_workers",
    "decode_gpus": "num_decode_gpu",
}
_MEASURES = {
    "tokens_per_s_per_gpu": "tput_per_gpu",
    "output_tokens_per_s_per_gpu": "output_tput_per_gpu",
    "input_tokens_per_s_per_gpu": "input_tput_per_gpu",
    "median_ttft_s": "median_ttft",
    "p99_ttft_s": "p99_ttft",
    "median_tpot_s": "median_tpot",
    "median_e2e_latency_s": "median_e2el",
    "median_tokens_per_s_per_user": "median_intvty",
}
_RUN = re.compile(r"^run_(\d+)$")


def read_run_dates(paths: list[Path]) -> dict[str, dt.date]:
    """run id -> UTC day of `benchmark_date`, from mantile's by-model CSVs."""
    dates: dict[str, dt.date] = {}
    for path in paths:
        with path.open(newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            for column in ("run_id", "benchmark_date"):
                if column not in (reader.fieldnames or []):
                    raise fail(path, None, column, None, "column missing from the header")
            for i, rec in enumerate(reader, start=1):
                try:
                    day = dt.date.fromisoformat(rec["benchmark_date"].strip()[:10])
                except ValueError:
                    raise fail(
                        path, i, "benchmark_date", rec["benchmark_date"], "must be ISO"
                    ) from None
                run = rec["run_id"].strip()
                if dates.setdefault(run, day) != day:
                    raise fail(path, i, "benchmark_date", day, f"run {run} has two dates")
    return dates


def _int(path: Path, row: int, column: str, value: object, required: bool) -> int | None:
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise fail(path, row, column, value, "must be a whole number >= 0")
    return value


def _bool(path: Path, row: int, column: str, value: object) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    if value in ("true", "false"):
        return value == "true"
    raise fail(path, row, column, value, "must be true or false")


def _record(path: Path, i: int, rec: dict) -> dict:
    """One record of a run file; `i` is its 1-based position in the JSON list."""
    for column in ("hw", "model", "infmax_model_prefix", "framework", "precision", "tput_per_gpu"):
        if column not in rec:
            raise fail(path, i, column, None, "field missing from the record")
    prefix = rec["infmax_model_prefix"]
    if prefix not in MODELS:
        raise fail(path, i, "infmax_model_prefix", prefix, f"must be one of {sorted(MODELS)}")
    gpu = canonical_gpu(re.split(r"[-_]", str(rec["hw"]))[0])
    if gpu is None:
        raise fail(path, i, "hw", rec["hw"], "hardware key not known to analysis.data.gpus")
    out = {
        "benchmark": "inferencemax",
        "benchmark_model": MODELS[prefix],
        "source_model_name": rec["model"],
        "accelerator": gpu,
        "source_hw": rec["hw"],
        "framework": rec["framework"],
        "precision": rec["precision"],
        "spec_decoding": rec.get("spec_decoding", "none"),
        "disaggregated": _bool(path, i, "disagg", rec.get("disagg", False)),
        "multinode": _bool(path, i, "is_multinode", rec.get("is_multinode", False)),
        "isl_tokens": _int(path, i, "isl", rec.get("isl"), True),
        "osl_tokens": _int(path, i, "osl", rec.get("osl"), True),
        "concurrency": _int(path, i, "conc", rec.get("conc"), True),
    }
    for col in ("dp_attention", "prefill_dp_attention", "decode_dp_attention"):
        out[col] = _bool(path, i, col, rec.get(col))
    for col, key in _COUNTS.items():
        out[col] = _int(path, i, key, rec.get(key), False)
    for col, key in _MEASURES.items():
        out[col] = number(path, i, key, rec.get(key), allow_none=col != "tokens_per_s_per_gpu")
    return out


def parse_run(path: Path) -> list[dict]:
    """Records of one run's agg_bmk.json (with `row` for the locator)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise fail(path, None, None, None, f"not valid JSON: {e}") from None
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise fail(path, None, None, None, "expected a JSON list of objects")
    seen: dict[tuple, int] = {}
    out = []
    for i, rec in enumerate(data, start=1):
        config = tuple(str(rec.get(k)) for k in CONFIG)
        if config in seen:
            raise fail(path, i, None, None, f"repeats the configuration of row {seen[config]}")
        seen[config] = i
        out.append({**_record(path, i, rec), "row": i})
    return out


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    sources_dir = Path(sources_dir)
    head = sorted((sources_dir / FOLDER).glob("*_HEAD"))
    if not head:
        raise fail(sources_dir / FOLDER, None, None, None, "no <date>_HEAD folder")
    dates = read_run_dates(sorted(head[-1].glob(DATED)))
    rows = []
    for path in sorted(head[-1].glob(f"{RAW}/run_*/agg_bmk.json")):
        run = _RUN.match(path.parent.name)
        if run is None:
            raise fail(path, None, None, path.parent.name, "run folder must be run_<digits>")
        for r in parse_run(path):
            i = r.pop("row")
            where = f"row {i} ({r['benchmark_model']}, {r['source_hw']}, conc {r['concurrency']})"
            rows.append(
                {
                    **r,
                    "run_id": run.group(1),
                    "date": dates.get(run.group(1)),
                    "source_id": SOURCE_ID,
                    "source_locator": locator(sources_dir, path, where),
                }
            )
    order = ["run_id", "benchmark_model", "source_hw", "framework", "isl_tokens", "osl_tokens"]
    return {TABLE: frame(TABLE, rows).sort([*order, "concurrency", "source_locator"])}
