"""MLPerf Inference datacenter LLM results: throughput per system, in tokens per second.

Where and when. Two official round summaries from MLCommons' results repositories
(`mlcommons/inference_results_v4.1` at commit 4a0c874 of 2024-11-05, and
`mlcommons/inference_results_v5.1` at HEAD, 2025-09-09), and the v3.1, v4.0 and v4.1
"language-processing, datacenter" tables of `mlcommons/cm4mlperf-results` (commit 84d8b84 of
2025-02-05). Every file is listed in `mlperf-inference/_PROVENANCE.tsv`.

What a row is. One result of one submitted system on one LLM benchmark (GPT-J, Llama-2-70B,
Llama-3.1-405B, Llama-3.1-8B, Mixtral-8x7B, DeepSeek-R1) in one scenario (Offline, Server,
Interactive), closed and open division, as submitted: `tokens_per_s` is the whole system's
throughput (not divided by the accelerator count). Facts checked on the files:

* `accelerator_count` = `a#` x `Nodes` (summaries) and `accelerators_per_node` x
  `number_of_nodes` (cm4mlperf): both are per node. Juniper's "2x8xH100-SXM-80GB" (platform
  `..._H100-SXM-80GBx16_TRT`) has Nodes 2 and a# 8 in both formats, NVIDIA's GB200-NVL72 system
  has Nodes 18 and a# 4. Unverified: two v4.0 open Juniper systems ("A100-2N-80GB",
  "H100-2N-80GB") give 16 per node x 2 nodes = 32; their names do not say.
* `system` is the system name as submitted (surrounding spaces removed). Names alone are not
  unique: AMD submitted its 1x and 8x MI300X systems under one name in v4.1, and a submitter's
  closed and open systems may share a folder under different names. `platform` is the system's
  results folder (the summaries' `Platform` field; cm4mlperf's `Platform`, the same folder),
  equal to the folder in `Location` for every result of both formats; it is unique per
  submitter, round and division, but not stable across rounds (`analysis.methods.tokens_per_dollar`
  matches systems across rounds by name, accelerator and count).
* `model_run` is the model the result ran: the folder named in `Location` (`UsedModel` in the
  summaries, `Model` in cm4mlperf). Where that is the benchmark's own model (folders may spell
  `llama3.1-8b` as `llama3_1-8b`), `model_run` repeats `benchmark_model`, as in every kept
  closed-division result; open-division results that ran a substitute name it: 20 of
  the 23 open v5.1 `llama2-70b-99.9` results (19 Llama-3.1-70B runs such as
  `llama3_1-70b-fp8_dyn`, one `llama2-70b-fp8_quark`) and two `llama3.1-405b` ones
  (`llama3_1-405b_finetuned`, `llama3_1-405b_pruned`). Krai and AMD each have two open v5.1
  results of one system folder, benchmark and scenario, told apart by `model_run`.
* The 99 and 99.9 accuracy variants are kept as separate rows (benchmark_model keeps the
  suffix); the analysis deduplicates. In the table built from the sources (2025 snapshot), 235
  results exist in both variants (same round, source, platform, division, scenario) and 211 of
  these pairs carry the exact same throughput: GPT-J 50 of 50, Llama-2-70B closed 154 of 178,
  Llama-2-70B open 7 of 7.
* `date` is the round's publication date as the sources attest it: for the official summaries,
  the first commit of the round's results repository (v4.1: 2024-08-28; v5.1: first of the
  commits 2025-09-04 .. 09-09), as recorded in the sources README, section 3.4; for rounds read
  only from cm4mlperf, the date stamped on the import folder (v3.1: 2023-09-12, v4.0:
  2024-04-11), which may lag the publication by days or weeks. No other date is typed here.
* `category` is `Availability` (available / preview / rdi).

Units, decided per benchmark from the files:

* cm4mlperf's `Result_Units` is a per-scenario label ("Samples/s" for Offline, "Queries/s" for
  Server), the same for every benchmark. Its 331 v4.1 LLM results each equal, to the digit, the
  result in the same results folder of the official v4.1 summary: 326 labelled "Tokens/s" there.
* v4.0 Llama-2-70B Offline values are tokens/s: 8xH100 systems give 17,099-22,290 (MaxQ power
  settings at the low end), against 24,012-24,528 Tokens/s for 8xH100 in the official v4.1
  summary; read as samples/s they would be ~300x that. Kept.
* v4.0 Llama-2-70B Server values are queries/s: the same 8xH100 systems give 49-74, about
  1/300 of their Offline tokens/s. Dropped: no source gives tokens per query for them.
* v3.1 and v4.0 GPT-J values are samples/s (Offline) and queries/s (Server): an 8xH100 DGX gives
  240 on GPT-J (6B) and 21,806 on Llama-2-70B in the same v4.0 table, and 19,740 Tokens/s on
  GPT-J in the v4.1 summary. Dropped for the same reason; so v3.1 contributes no rows.
* Official summaries: every LLM result is "Tokens/s" except (a) v5.1 Llama-3.1-8B Interactive,
  labelled "Queries/s" (8 closed results), read as tokens/s because each value is 72-95% of the
  same system's Offline Tokens/s and 78-95% of its Server Tokens/s, as Interactive (Server with
  tighter latency bounds) should be, while as queries/s of many tokens each it would exceed the
  system's Offline (maximum) throughput many times over; (b) v4.1 open results that ran a 7B
  model under the llama2-70b-99.9 benchmark, labelled "Samples/s"/"Queries/s" (5 results):
  dropped, no evidence of their unit.

Left out, and why: edge-only results (other question); non-LLM benchmarks; latency scenarios
(SingleStream/MultiStream: not throughput); power rows (Watts); the "network" division (no LLM
results); CPU-only systems (no accelerator: 26 summary and 39 cm4mlperf LLM results);
cm4mlperf v4.1 results (317 left after the rules above, all duplicates of the official v4.1
summary, which is kept); results listed twice in cm4mlperf (the closed and closed-power tables
repeat v3.1 MaxQ systems; none of them survives the unit rules in this snapshot).

Heterogeneous systems are kept with their mix stated: an accelerator name listing several models,
each with its "(xN)", joined by ", " or " and " (v5.1: MangoBoost's MI300X (x32) + MI325X (x16)
cluster on 6 nodes of 8, Supermicro_MangoBoost's MI325X (x16) + MI300X (x8) on 3 nodes of 8; 8
Tokens/s results) has `accelerator` = the models' ids joined with "+" in the name's order
(`mi300x+mi325x`: a mix no GPU-hour price names, so no cost per token is computed for it), and the
counts must add up to a# x Nodes.

Accelerator ids come from `analysis.data.gpus.canonical_gpu`; a name it does not know falls back to
`common.slug(name)` (see `UNKNOWN_ACCELERATOR_FALLBACK`).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analysis.data.errors import DataError, Problem
from analysis.data.gpus import canonical_gpu
from analysis.data.importers import common

TABLE = "mlperf_results"
FOLDER = "mlperf-inference"
SUMMARY_FILES = [
    f"{FOLDER}/v4.1_2024-11-05_summary_results.json",
    f"{FOLDER}/v5.1_2025-09-09_summary_results.json",
]
CM_EXPERIMENTS = f"{FOLDER}/cm4mlperf-results_2025-02-05/experiment"
CM_SOURCE_ID = "cm4mlperf-results"

# Publication dates of rounds read from official summaries (the files carry no date):
# first commit of the round's results repository, sources README section 3.4.
ROUND_DATES = {"v4.1": "2024-08-28", "v5.1": "2025-09-04"}

LLM_BENCHMARKS = {
    "gptj",
    "llama2-70b",
    "llama3.1-405b",
    "llama3.1-8b",
    "mixtral-8x7b",
    "deepseek-r1",
}
THROUGHPUT_SCENARIOS = {"Offline", "Server", "Interactive"}
CATEGORIES = {"available", "preview", "rdi"}
DIVISIONS = {"closed", "open"}

# Official-summary labels that are not "Tokens/s" but whose values are tokens/s, with the
# evidence (see module docstring). Key: (round, benchmark family, scenario, label).
SUMMARY_UNIT_EVIDENCE = {
    ("v5.1", "llama3.1-8b", "Interactive", "Queries/s"): "72-95% of the system's Offline Tokens/s",
}

# cm4mlperf's unit labels are generic; what its values really are, per (round, family, scenario).
CM_TOKENS = {
    ("v4.0", "llama2-70b", "Offline"),
    *{
        ("v4.1", f, s)
        for f in ("gptj", "llama2-70b", "mixtral-8x7b")
        for s in ("Offline", "Server")
    },
}
CM_NOT_TOKENS = {
    ("v3.1", "gptj", "Offline"),
    ("v3.1", "gptj", "Server"),
    ("v4.0", "gptj", "Offline"),
    ("v4.0", "gptj", "Server"),
    ("v4.0", "llama2-70b", "Server"),
}

# Accelerator names canonical_gpu() did not know are slugged so the build never breaks;
# the names are collected here and reported, never patched into analysis/data/gpus.py from here.
UNKNOWN_ACCELERATOR_FALLBACK: set[str] = set()

SOURCES = [
    {
        "source_id": "mlperf-inference-v4.1",
        "title": "MLPerf Inference v4.1 results (summary_results.json)",
        "publisher": "MLCommons",
        "url": "https://github.com/mlcommons/inference_results_v4.1",
        "licence": "Apache-2.0",
        "retrieved": "2024-11-05",
        "notes": "Per-system throughput as submitted; a# is per node (times Nodes). The file is "
        "absent at the repository's HEAD; read at commit 4a0c874.",
    },
    {
        "source_id": "mlperf-inference-v5.1",
        "title": "MLPerf Inference v5.1 results (summary_results.json)",
        "publisher": "MLCommons",
        "url": "https://github.com/mlcommons/inference_results_v5.1",
        "licence": "none stated",
        "retrieved": "2025-09-09",
        "notes": "Per-system throughput as submitted; a# is per node (times Nodes). Llama-3.1-8B "
        "Interactive results are labelled Queries/s but are tokens/s.",
    },
    {
        "source_id": CM_SOURCE_ID,
        "title": "MLCommons CM experiment tables of MLPerf Inference results (cm4mlperf-results)",
        "publisher": "MLCommons",
        "url": "https://github.com/mlcommons/cm4mlperf-results",
        "licence": "Apache-2.0",
        "retrieved": "2025-02-05",
        "notes": "Result_Units is a per-scenario label (Samples/s, Queries/s), not the metric: "
        "GPT-J v3.1/v4.0 and Llama-2-70B v4.0 Server are per sample/query; LLM values "
        "elsewhere are tokens/s.",
    },
]


@dataclass
class Parsed:
    """Rows read from one file, the reasons rows were skipped, and the problems found."""

    rows: list[dict] = field(default_factory=list)
    results: set[tuple[str, str]] = field(default_factory=set)  # (round, results folder), all
    skipped: Counter = field(default_factory=Counter)
    problems: list[Problem] = field(default_factory=list)


def benchmark_family(benchmark: str) -> str:
    """`llama2-70b-99.9` -> `llama2-70b`: the model, without the accuracy target."""
    return re.sub(r"-99(\.9)?$", "", benchmark)


def canonical_accelerator(name: str) -> str:
    gpu = canonical_gpu(name)
    if gpu is None:  # fallback so the build never breaks; reported, see module docstring
        UNKNOWN_ACCELERATOR_FALLBACK.add(name)
        return common.slug(name)
    return gpu


def _locator_for(path: Path, sources_dir: Path | None) -> Callable[[str], str]:
    if sources_dir is None:  # a live file outside the sources folder: no commit to name
        return lambda where: f"{path.name}#{where}"
    return lambda where: common.locator(sources_dir, path, where)


def _load_list(path: Path) -> list[dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise DataError(Problem(str(path), None, None, None, f"not valid JSON: {e}")) from e
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise DataError(Problem(str(path), None, None, None, "expected a JSON list of objects"))
    return data


def _count(value: object) -> int | None:
    """A whole, positive count from 8, 8.0 or "8"; None for blanks, 0 and 'N/A'."""
    if value in ("", None, "N/A", 0):
        return None
    number = float(value)
    if number != int(number) or number < 0:
        raise ValueError(f"{value!r} is not a whole number")
    return int(number)


def _folders(rec: dict, f: Fields) -> tuple[str, str] | Problem:
    """(platform, model_run) of a result, checked against its `Location`."""
    parts = rec["Location"].split("/")  # division/submitter/results/<platform>/<model>/<scenario>
    if len(parts) != 6:
        return _bad("Location", rec["Location"], "must be division/submitter/results/...")
    platform, used = rec[f.platform], rec[f.model_run]
    if (platform, used) != (parts[3], parts[4]):
        return _bad(f.platform, platform, "Platform and model must name the Location's folders")
    benchmark = rec[f.benchmark]
    return platform, benchmark if used in (benchmark, benchmark.replace(".", "_")) else used


def _skip_reason(rec: dict, f: Fields) -> str | None:
    """Why a result is not a datacenter LLM throughput result of one accelerator model."""
    benchmark, scenario, division = rec[f.benchmark], rec["Scenario"], rec[f.division]
    if rec[f.units] == "Watts":
        return "power result (Watts)"
    if "datacenter" not in rec[f.suite].split(","):
        return "not a datacenter result"
    if benchmark_family(benchmark) not in LLM_BENCHMARKS:
        return "not an LLM benchmark"
    if scenario not in THROUGHPUT_SCENARIOS:
        return f"scenario {scenario} is not a throughput scenario"
    if division not in DIVISIONS:
        return f"division {division}"
    return _accelerator_skip(rec[f.accelerator])


def _accelerator_skip(name: str) -> str | None:
    if name.strip() in ("", "N/A"):
        return "no accelerator (CPU-only system)"
    return None


_MIX_COUNT = re.compile(r"\s*\(x(\d+)\)\s*$")


def accelerator_mix(name: str) -> tuple[str, int | None]:
    """(id, count) of an accelerator name: one model's (`canonical_accelerator`, no count), or a
    heterogeneous system's models, each with its "(xN)", joined by ", " or " and ": their ids
    joined with "+" and the sum of their counts."""
    if not re.search(r"\(x\d+\)", name):
        return canonical_accelerator(name), None
    parts = re.split(r",\s*|\s+and\s+", name.strip())
    counts = [_MIX_COUNT.search(part) for part in parts]
    if not all(counts):
        raise ValueError(f"{name!r}: every model of a mixed system must state its count (xN)")
    ids = [canonical_accelerator(_MIX_COUNT.sub("", part)) for part in parts]
    return "+".join(ids), sum(int(m.group(1)) for m in counts)


@dataclass(frozen=True)
class Fields:
    """Where one format keeps each fact of a result."""

    suite: str
    benchmark: str
    division: str
    system: str
    submitter: str
    accelerator: str
    per_node: str
    nodes: str
    availability: str
    value: str
    units: str
    platform: str = "Platform"
    model_run: str = "UsedModel"


SUMMARY = Fields(
    suite="Suite",
    benchmark="Model",
    division="Category",
    system="System",
    submitter="Submitter",
    accelerator="Accelerator",
    per_node="a#",
    nodes="Nodes",
    availability="Availability",
    value="Performance_Result",
    units="Performance_Units",
)
CM = Fields(
    suite="SystemType",
    benchmark="MlperfModel",
    division="Division",
    system="SystemName",
    submitter="Organization",
    accelerator="accelerator_model_name",
    per_node="accelerators_per_node",
    nodes="number_of_nodes",
    availability="Availability",
    value="Result",
    units="Result_Units",
    model_run="Model",
)


def parse_summary(path: Path, sources_dir: Path | None = None) -> Parsed:
    """Rows of an official `summary_results.json` (a JSON list, one object per result)."""

    def row(rec: dict, skipped: Counter) -> dict | Problem | None:
        reason = _skip_reason(rec, SUMMARY) or _summary_unit_skip(rec)
        if reason:
            skipped[reason] += 1
            return None
        source_id = f"mlperf-inference-{rec['version']}"
        return _row(rec, SUMMARY, ROUND_DATES.get(rec["version"]), source_id)

    return _parse(path, sources_dir, row)


def _summary_unit_skip(rec: dict) -> str | None:
    units = rec["Performance_Units"]
    key = (rec["version"], benchmark_family(rec["Model"]), rec["Scenario"], units)
    if units == "Tokens/s" or key in SUMMARY_UNIT_EVIDENCE:
        return None
    return f"unit {units}, no evidence it is tokens/s"


def parse_cm_result(path: Path, sources_dir: Path | None = None) -> Parsed:
    """Rows of one cm4mlperf `experiment/<name>/<YYYY-MM-DD.hh-mm-ss>/cm-result.json`."""
    stamp = re.match(r"\d{4}-\d{2}-\d{2}", path.parent.name)
    if stamp is None:
        raise DataError(
            Problem(str(path), None, None, path.parent.name, "folder must be named YYYY-MM-DD...")
        )

    def row(rec: dict, skipped: Counter) -> dict | Problem | None:
        reason = _skip_reason(rec, CM) or _cm_unit_skip(rec)
        if reason:
            skipped[reason] += 1
            return None
        return _row(rec, CM, stamp.group(0), CM_SOURCE_ID)

    return _parse(path, sources_dir, row)


def _cm_unit_skip(rec: dict) -> str | None:
    key = (rec["version"], benchmark_family(rec["MlperfModel"]), rec["Scenario"])
    if key in CM_NOT_TOKENS:
        return "value is per sample or query, not per token"
    if key not in CM_TOKENS:
        return "unit not established for this round and benchmark"
    return None


def _parse(path: Path, sources_dir: Path | None, to_row: Callable) -> Parsed:
    """Run `to_row` on every result of a JSON list, collecting rows, skips and problems."""
    out = Parsed()
    where = _locator_for(path, sources_dir)
    for i, rec in enumerate(_load_list(path), start=1):
        out.results.add((str(rec.get("version")), str(rec.get("Location", "")).lower()))
        try:
            row = to_row(rec, out.skipped)
        except (KeyError, ValueError, TypeError) as e:
            column = e.args[0] if isinstance(e, KeyError) else None
            out.problems.append(Problem(str(path), i, column, None, f"unreadable result: {e}"))
            continue
        if isinstance(row, Problem):
            out.problems.append(Problem(str(path), i, row.column, row.value, row.rule))
        elif row is not None:
            row["source_locator"] = where(f"row {i}")
            out.rows.append(row)
    return out


def _bad(column: str, value: object, rule: str) -> Problem:
    """A problem in one result; the parser adds the file and row."""
    return Problem("", None, column, None if value is None else str(value), rule)


def _row(rec: dict, f: Fields, date: str | None, source_id: str) -> dict | Problem:
    """One output row from a result, or the Problem that stops it."""
    round_ = rec["version"]
    if not re.fullmatch(r"v\d+\.\d+", round_):
        return _bad("version", round_, "round must look like v4.1")
    if date is None:
        return _bad("version", round_, "no publication date known for this round")
    try:
        count = _count(rec[f.per_node])
        node_count = _count(rec[f.nodes])
    except ValueError:
        return _bad(f.per_node, rec[f.per_node], "accelerator count must be whole")
    if count is None or node_count is None:
        return _bad(f.per_node, rec[f.per_node], "accelerator system without a count")
    accelerator, stated = accelerator_mix(rec[f.accelerator])
    if stated is not None and stated != count * node_count:
        return _bad(
            f.accelerator, rec[f.accelerator], f"a mix's counts must add up to {count * node_count}"
        )
    category = str(rec[f.availability]).lower()
    if category not in CATEGORIES:
        return _bad(f.availability, rec[f.availability], f"must be one of {sorted(CATEGORIES)}")
    tokens = rec[f.value]
    if not isinstance(tokens, int | float) or isinstance(tokens, bool) or tokens <= 0:
        return _bad(f.value, tokens, "throughput must be a positive number")
    benchmark, division = rec[f.benchmark], rec[f.division]
    folders = _folders(rec, f)
    if isinstance(folders, Problem):
        return folders
    platform, model_run = folders
    return {
        "round": round_,
        "date": date,
        "submitter": rec[f.submitter],
        "system": rec[f.system].strip(),
        "platform": platform,
        "accelerator": accelerator,
        "source_accelerator_name": rec[f.accelerator],
        "accelerator_count": count * node_count,
        "benchmark_model": benchmark,
        "model_run": model_run,
        "scenario": rec["Scenario"],
        "category": category,
        "division": division,
        "tokens_per_s": float(tokens),
        "source_id": source_id,
        "_result": rec["Location"].lower(),  # results folder: matches a result across files
    }


def _raise_problems(parsed: list[Parsed]) -> None:
    problems = [p for one in parsed for p in one.problems]
    if problems:
        raise DataError(problems)


def read_all(sources_dir: Path) -> tuple[list[dict], Counter]:
    """Every kept row of both formats (cm4mlperf duplicates removed) and why rows were dropped."""
    summaries = [parse_summary(sources_dir / f, sources_dir) for f in SUMMARY_FILES]
    cm_files = sorted((sources_dir / CM_EXPERIMENTS).glob("*/*/cm-result.json"))
    cms = [parse_cm_result(f, sources_dir) for f in cm_files]
    _raise_problems(summaries + cms)
    skipped = sum((p.skipped for p in summaries + cms), Counter())
    official = [r for p in summaries for r in p.rows]
    # Against every official result, kept or not: cm4mlperf must not bring back a dropped one.
    official_keys = set().union(*(p.results for p in summaries))
    cm_keys: set[tuple[str, str]] = set()
    cm_rows = []
    for row in (r for p in cms for r in p.rows):
        key = (row["round"], row["_result"])
        if key in official_keys:
            skipped["cm4mlperf duplicate of an official summary result"] += 1
        elif key in cm_keys:
            skipped["listed twice in cm4mlperf"] += 1
        else:
            cm_keys.add(key)
            cm_rows.append(row)
    kept = official + _with_round_dates(cm_rows)
    return kept, skipped


def _with_round_dates(cm_rows: list[dict]) -> list[dict]:
    """A round read from several cm4mlperf imports is dated by its earliest import."""
    first: dict[str, str] = {}
    for row in cm_rows:
        first[row["round"]] = min(first.get(row["round"], row["date"]), row["date"])
    return [{**row, "date": ROUND_DATES.get(row["round"], first[row["round"]])} for row in cm_rows]


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    rows, _ = read_all(Path(sources_dir))
    rows = [{k: v for k, v in r.items() if not k.startswith("_")} for r in rows]
    df = common.frame(TABLE, rows)
    order = [
        "round",
        "benchmark_model",
        "scenario",
        "division",
        "submitter",
        "system",
        "platform",
        "model_run",
        "source_id",
    ]
    return {TABLE: df.sort(order)}
