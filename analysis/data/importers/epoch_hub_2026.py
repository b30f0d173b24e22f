"""Epoch AI Benchmarking Hub export of April 2026: benchmark scores to 2026-04-23.

Where and when: Epoch's hub export (`data/benchmark_data/*.csv` and its README) as committed to
`github.com/feruiloba/miri-fellowship-inference-scaling` at 8f62cf5 (2026-04-29), in
`epoch-benchmarking-hub-2026-04/2026-04-29_data/benchmark_data/` (sources README, Part II §4.2). A
**copy** of Epoch's data in a third party's repository; the export README says Epoch data is CC-BY
(citation "year = 2026, month = 04"). It is the same export format as `benchmark_data_7` (read by
`epoch_benchmarks.py`, source `epoch-benchmarking-hub`), newer: the ECI file runs to 2026-04-23
(608 rows) where the older copy ends 2025-12-22.

Both copies are kept, each under its own source id: the older export's scores are what it said in
January 2026, and Epoch revises its database. Reading follows `epoch_benchmarks.py` exactly (same
benchmark ids, score columns and forms, dating by `Release date`, the best score per model
version), through its public functions; the five files new in this export are mapped here:

- `hle_external.csv` (Accuracy, fraction) -> `hle`; `arc_agi_2_external.csv` (Score) ->
  `arc-agi-2`; `apex_agents_external.csv` (Pass@1 score) -> `apex-agents`;
  `gdpval_external.csv` (Win Rate (%), a fraction despite its name: 0.497) -> `gdpval-win-rate`;
  `posttrainbench_external.csv` (Average (%), a fraction, best over scaffolds) -> `posttrainbench`.

Left out: the files `epoch_benchmarks.SKIPPED_FILES` leaves out (METR minutes, GeoBench points,
...), and `additional_eci_data/` (fitted ECI difficulties and scaling, not scores).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.importers import epoch_benchmarks as epoch
from analysis.data.importers.common import MODEL_INFO_SCHEMA, frame, locator

SOURCE_ID = "epoch-benchmarking-hub-2026-04"
HUB_DIR = "epoch-benchmarking-hub-2026-04/2026-04-29_data/benchmark_data"

SOURCES = [
    {
        "source_id": SOURCE_ID,
        "title": "Epoch AI Benchmarking Hub data export, April 2026",
        "publisher": "Epoch AI (copy in feruiloba/miri-fellowship-inference-scaling)",
        "url": "https://github.com/feruiloba/miri-fellowship-inference-scaling/tree/main/data/eci/benchmark_data",
        "licence": "CC-BY (Epoch AI's export note)",
        "retrieved": "2026-04-29",
        "notes": "Secondary copy of Epoch's hub export (commit 8f62cf5, 2026-04-29; moved "
        "unchanged to data/eci/benchmark_data/ on 2026-05-14). Scores dated by release date, "
        "best per model version. Newer than the benchmark_data_7 copy (ECI to 2026-04-23).",
    }
]

FRACTION = "fraction"


def _hub_only(benchmark: str, file: str, column: str) -> epoch.Benchmark:
    """A benchmark the 2026-04 export adds, read from its hub file as a fraction."""
    return epoch.Benchmark(benchmark, "percent", epoch.ScoreColumn(file, column, FRACTION))


NEW_IN_EXPORT = [
    _hub_only("hle", "hle_external.csv", "Accuracy"),
    _hub_only("arc-agi-2", "arc_agi_2_external.csv", "Score"),
    _hub_only("apex-agents", "apex_agents_external.csv", "Pass@1 score"),
    _hub_only("gdpval-win-rate", "gdpval_external.csv", "Win Rate (%)"),
    _hub_only("posttrainbench", "posttrainbench_external.csv", "Average (%)"),
]
BENCHMARKS = [b for b in epoch.BENCHMARKS if b.hub] + NEW_IN_EXPORT


def parse_file(path: Path, bench: epoch.Benchmark, sources_dir: Path) -> tuple[list[dict], Counter]:
    """benchmark_scores rows of one hub CSV (best per model version) and skip counts."""
    col = bench.hub
    rows, skipped = [], Counter()
    records = epoch.read_csv(path, ["Model version", col.column, "Release date"])
    for i, rec in enumerate(records, start=1):
        name = rec["Model version"].strip()
        score = epoch.parse_score(path, i, col.column, rec[col.column], col.form)
        released = rec["Release date"].strip()
        if not name:
            skipped["no model version"] += 1
        elif score is None:
            skipped["no score"] += 1
        elif not released:
            skipped["no release date"] += 1
        else:
            rows.append(
                {
                    "benchmark": bench.benchmark,
                    "score": score,
                    "unit": bench.unit,
                    "date": _date(path, i, released),
                    "source_model_name": name,
                    "model_hint": epoch.model_hint(name),
                    "source_id": SOURCE_ID,
                    "source_locator": locator(sources_dir, path, f"row {i}"),
                }
            )
    best: dict[tuple, dict] = {}
    for r in rows:  # the highest score per model version, as epoch_benchmarks does
        key = (r["source_model_name"], r["date"])
        if key not in best or r["score"] > best[key]["score"]:
            best[key] = r
    if len(rows) > len(best):
        skipped["not the model version's best score"] += len(rows) - len(best)
    return list(best.values()), skipped


def _date(path: Path, row: int, text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise fail(path, row, "Release date", text, "must be an ISO date YYYY-MM-DD") from None


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    sources_dir = Path(sources_dir)
    hub = sources_dir / HUB_DIR
    rows, info = [], []
    for bench in BENCHMARKS:
        path = hub / bench.hub.file
        if not path.exists():
            continue
        kept, _ = parse_file(path, bench, sources_dir)
        rows += kept
        for r in epoch.parse_hub_model_info(path, sources_dir):
            info.append({**r, "source_id": SOURCE_ID})
    if not rows:
        raise fail(hub, None, None, None, "no Epoch hub benchmark files found")
    scores = frame("benchmark_scores", rows, drop=("model_id",))
    scores = scores.sort("benchmark", "source_model_name", "date")
    first: dict[str, dict] = {}
    for r in info:  # the first file naming a model version wins (the ECI file comes first)
        first.setdefault(r["source_model_name"], r)
    data = [{k: r.get(k) for k in MODEL_INFO_SCHEMA} for r in first.values()]
    model_info = pl.DataFrame(data, schema=MODEL_INFO_SCHEMA).sort("source_model_name")
    return {"benchmark_scores": scores, "model_info": model_info}
