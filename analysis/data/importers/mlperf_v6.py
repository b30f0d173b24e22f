"""MLPerf Inference v6.0 datacenter LLM results: throughput per system, tokens per second.

Where and when: `summary_results.json` of the v6.0 round, read from `gbeezybez/inference_results_v6.0`,
a fork of `mlcommons/inference_results_v6.0`: the fork's first commit ab33b214, "Publishing
Results" by karl@mlcommons.org, 2026-03-26; no later commit touches the file and no snapshot of
the upstream repository exists (sources README, Part II §3.1). A **secondary copy** of the
MLCommons file: the sources row and every locator say so. `date` is that commit's date, the
round's publication as the sources attest it.

What a row is: as in `analysis/data/importers/mlperf.py` (one result of one system, whole-system
throughput, not divided by the accelerator count), for the same table (`mlperf_results`). What
differs in v6.0, checked on the file:

* `Location` is `./<division>/<submitter>/results/<platform>/<model>/<scenario>/performance/run_1`
  (nine parts, three more than v4.1/v5.1); its platform, model and scenario folders must equal
  `Platform`, `UsedModel` and `Scenario` (the scenario folder's case aside: Nebius and Krai write
  `offline`).
* `Total Accelerators` is new. It equals `a#` x `Nodes` on every row, and it is the count the
  throughput is divided by (the sources README: divide by Total Accelerators). Two AMD systems'
  accelerator names also state a count, "MI355X 288GB HBM3e (x87)" on 11 nodes of 8 (Total
  Accelerators 88) and "(x94)" on 12 nodes of 8 (96); the column wins (issue 19, held-out fact
  ml-06), the name is kept in `source_accelerator_name`. `Total Accelerators` differing from
  a# x Nodes, or a name's "(xN)" above it, is an error.
* An accelerator name with "(xN)" for *several* models joined by "and" is a heterogeneous system:
  Dell_MangoBoost's "Heterogeneous Cluster" (MI300X (x8) and MI325X (x8) and MI355X (x8), 3 nodes
  of 8, Total Accelerators 24), 4 Tokens/s results, the round's only one. It is kept, with its mix
  stated: `accelerator` joins the models' ids with "+" in the name's order
  (`mi300x+mi325x+mi355x`, a mix no GPU-hour price names, so no cost per token is computed for
  it), `source_accelerator_name` keeps the name with each count, and the counts must add up to
  Total Accelerators, as mlperf.py keeps v5.1's two MangoBoost mixes.
  "(Power Cap 1000 W)" is a power setting of one MI355X system: the accelerator is still `mi355x`.
* New LLM benchmark: `gpt-oss-120b` (60 closed results). `qwen3-vl-235b-a22b` reports Samples/s
  and Queries/s, not tokens: left out, as is every non-Tokens/s LLM result.

Left out (counted in `Parsed.skipped`): edge results, non-LLM benchmarks (whisper, wan-2.2,
dlrm-v3, rgat, yolo, resnet, 3d-unet, bert), latency scenarios, power results, CPU-only systems,
results not in Tokens/s.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analysis.data.errors import DataError, Problem, fail
from analysis.data.gpus import canonical_gpu
from analysis.data.importers.common import frame, locator, slug

FOLDER = "mlperf-inference-v6.0"
FILE = f"{FOLDER}/v6.0_2026-03-26_summary_results.json"
SOURCE_ID = "mlperf-inference-v6.0"
ROUND = "v6.0"
ROUND_DATE = "2026-03-26"  # first commit of the results repository (fork), README II.3.1
TABLE = "mlperf_results"

LLM_BENCHMARKS = {
    "llama2-70b",
    "llama3.1-405b",
    "llama3.1-8b",
    "mixtral-8x7b",
    "deepseek-r1",
    "gpt-oss-120b",
    "qwen3-vl-235b-a22b",
}
THROUGHPUT_SCENARIOS = {"Offline", "Server", "Interactive"}
CATEGORIES = {"available", "preview", "rdi"}
DIVISIONS = {"closed", "open"}

# Accelerator names analysis.data.gpus does not know: slugged, and listed for the lead.
UNKNOWN_ACCELERATOR_FALLBACK: set[str] = set()

SOURCES = [
    {
        "source_id": SOURCE_ID,
        "title": "MLPerf Inference v6.0 results (summary_results.json)",
        "publisher": "MLCommons (copy in the fork gbeezybez/inference_results_v6.0)",
        "url": "https://github.com/gbeezybez/inference_results_v6.0",
        "licence": "Apache-2.0",
        "retrieved": ROUND_DATE,
        "notes": "Secondary copy: read from a fork of mlcommons/inference_results_v6.0 at its "
        "first commit ab33b214 ('Publishing Results', MLCommons, 2026-03-26); no upstream "
        "snapshot. Per-system throughput; the accelerator count is the Total Accelerators column "
        "(two AMD names state x87 and x94 where the column says 88 and 96).",
    }
]


@dataclass
class Parsed:
    rows: list[dict] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)
    problems: list[Problem] = field(default_factory=list)


def benchmark_family(benchmark: str) -> str:
    """`llama2-70b-99.9` -> `llama2-70b`."""
    return re.sub(r"-99(\.9)?$", "", benchmark)


_COUNT = re.compile(r"\s*\(x(\d+)\)\s*$")
_SETTING = re.compile(r"\s*\(power cap [^)]*\)\s*$", re.IGNORECASE)


def accelerator(name: str) -> tuple[str, int | None]:
    """(canonical id, count the name states) of one accelerator model's name."""
    m = _COUNT.search(name)
    base = _SETTING.sub("", _COUNT.sub("", name))
    gpu = canonical_gpu(base)
    if gpu is None:  # e.g. "Intel(R) Arc Pro(R) B50" -> arc-pro-b50, beside gpus.py's arc-pro-b60
        UNKNOWN_ACCELERATOR_FALLBACK.add(name)
        bare = re.sub(r"\((r|tm)\)", " ", base, flags=re.IGNORECASE)
        gpu = slug(re.sub(r"^\s*(intel|nvidia|amd)\b", "", bare, flags=re.IGNORECASE))
    return gpu, int(m.group(1)) if m else None


def accelerator_mix(name: str) -> tuple[str, int | None]:
    """(id, count the name states) of an accelerator name: one model's (`accelerator`), or a
    heterogeneous system's models joined by " and ", each with its "(xN)": their ids joined with
    "+" and the sum of their counts."""
    # " and " joins models only in a name that counts them ("(xN)"); no single model's name has it.
    counted = re.search(r"\(x\d+\)", name) is not None
    parts = re.split(r"\s+and\s+", name.strip()) if counted else [name]
    if len(parts) == 1:
        return accelerator(name)
    each = [accelerator(part) for part in parts]
    if any(count is None for _, count in each):
        raise ValueError(f"{name!r}: every model of a mixed system must state its count (xN)")
    return "+".join(gpu for gpu, _ in each), sum(count for _, count in each)


def _skip_reason(rec: dict) -> str | None:
    if rec["Performance_Units"] == "Watts":
        return "power result (Watts)"
    if "datacenter" not in str(rec["Suite"]).split(","):
        return "not a datacenter result"
    if benchmark_family(rec["Model"]) not in LLM_BENCHMARKS:
        return "not an LLM benchmark"
    if rec["Scenario"] not in THROUGHPUT_SCENARIOS:
        return f"scenario {rec['Scenario']} is not a throughput scenario"
    if rec["Category"] not in DIVISIONS:
        return f"division {rec['Category']}"
    name = str(rec["Accelerator"]).strip()
    if name in ("", "N/A"):
        return "no accelerator (CPU-only system)"
    if rec["Performance_Units"] != "Tokens/s":
        return f"unit {rec['Performance_Units']}, not tokens/s"
    return None


def _whole(value: object) -> int:
    number = float(value)
    if number != int(number) or number < 1:
        raise ValueError(f"{value!r} is not a whole number >= 1")
    return int(number)


def _bad(column: str, value: object, rule: str) -> Problem:
    return Problem("", None, column, None if value is None else str(value), rule)


def _count(rec: dict, stated: int | None, mixed: bool = False) -> int | Problem:
    per_node, nodes = _whole(rec["a#"]), _whole(rec["Nodes"])
    total = _whole(rec["Total Accelerators"])
    if total != per_node * nodes:
        return _bad("Total Accelerators", total, f"must equal a# x Nodes ({per_node * nodes})")
    if stated is not None and stated > total:
        return _bad("Accelerator", rec["Accelerator"], "more accelerators than Total Accelerators")
    if mixed and stated != total:
        return _bad("Accelerator", rec["Accelerator"], f"a mix's counts must add up to {total}")
    return total


def _folders(rec: dict) -> tuple[str, str] | Problem:
    parts = str(rec["Location"]).removeprefix("./").split("/")
    if len(parts) != 8 or parts[2] != "results":
        return _bad("Location", rec["Location"], "must be ./division/submitter/results/...")
    # Some submitters name the scenario folder in lower case (Nebius, Krai: `offline`).
    division, platform, used, scenario = parts[0], parts[3], parts[4], parts[5].lower()
    expect = (rec["Category"], rec["Platform"], rec["UsedModel"], rec["Scenario"].lower())
    if (division, platform, used, scenario) != expect:
        return _bad("Location", rec["Location"], "must name the result's division, Platform, "
                    "UsedModel and Scenario folders")  # fmt: skip
    benchmark = rec["Model"]
    return platform, benchmark if used in (benchmark, benchmark.replace(".", "_")) else used


def _row(rec: dict) -> dict | Problem:
    if rec["version"] != ROUND:
        return _bad("version", rec["version"], f"this file holds round {ROUND}")
    category = str(rec["Availability"]).lower()
    if category not in CATEGORIES:
        return _bad("Availability", rec["Availability"], f"must be one of {sorted(CATEGORIES)}")
    tokens = rec["Performance_Result"]
    if not isinstance(tokens, int | float) or isinstance(tokens, bool) or tokens <= 0:
        return _bad("Performance_Result", tokens, "throughput must be a positive number")
    gpu, stated = accelerator_mix(str(rec["Accelerator"]))
    try:
        count = _count(rec, stated, mixed="+" in gpu)
    except ValueError as e:
        return _bad("a#", rec["a#"], f"accelerator counts must be whole: {e}")
    folders = _folders(rec)
    for problem in (count, folders):
        if isinstance(problem, Problem):
            return problem
    platform, model_run = folders
    return {
        "round": ROUND,
        "date": ROUND_DATE,
        "submitter": rec["Submitter"],
        "system": str(rec["System"]).strip(),
        "platform": platform,
        "accelerator": gpu,
        "source_accelerator_name": rec["Accelerator"],
        "accelerator_count": count,
        "benchmark_model": rec["Model"],
        "model_run": model_run,
        "scenario": rec["Scenario"],
        "category": category,
        "division": rec["Category"],
        "tokens_per_s": float(tokens),
        "source_id": SOURCE_ID,
    }


def parse_summary(path: Path) -> Parsed:
    """Kept rows (with `row` and `id` for the locator), skip counts and problems."""
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise fail(path, None, None, None, f"not valid JSON: {e}") from e
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise fail(path, None, None, None, "expected a JSON list of objects")
    out = Parsed()
    for i, rec in enumerate(records, start=1):
        try:
            reason = _skip_reason(rec)
            row = None if reason else _row(rec)
        except (KeyError, TypeError, ValueError) as e:
            column = e.args[0] if isinstance(e, KeyError) else None
            out.problems.append(Problem(str(path), i, column, None, f"unreadable result: {e}"))
            continue
        if reason:
            out.skipped[reason] += 1
        elif isinstance(row, Problem):
            out.problems.append(Problem(str(path), i, row.column, row.value, row.rule))
        else:
            out.rows.append({**row, "row": i, "id": rec.get("ID")})
    return out


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    sources_dir = Path(sources_dir)
    path = sources_dir / FILE
    parsed = parse_summary(path)
    if parsed.problems:
        raise DataError(parsed.problems)
    rows = []
    for r in parsed.rows:
        where = f"row {r.pop('row')} (ID {r.pop('id')}; fork of mlcommons/inference_results_v6.0)"
        rows.append({**r, "source_locator": locator(sources_dir, path, where)})
    order = ["round", "benchmark_model", "scenario", "division", "submitter", "system", "platform"]
    return {TABLE: frame(TABLE, rows).sort([*order, "model_run", "source_id"])}
