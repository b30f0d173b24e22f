"""Epoch AI benchmark scores: the Benchmarking Hub export and the benchmark-stitching data.

Where and when:

- **Benchmarking Hub** (`epoch-benchmarking-hub`): Epoch AI's export `benchmark_data_7/`, one CSV
  per benchmark (`Model version, <score>, Release date, Organization, ...`), as copied into
  `github.com/hansgundlach/Algorithmic_Progress_Inference` (`data/benchmark_data_7/`, copied there
  2026-01-22; read at that repo's HEAD, 2026-04-27). Epoch's export note says the data is CC-BY.
  Scores are dated by the model version's `Release date`.
- **Benchmark stitching** (`epoch-benchmark-stitching`): `github.com/epoch-research/
  benchmark-stitching` at HEAD (2025-12-03, MIT): Epoch's own runs (`benchmarks_runs.csv`) and
  the external leaderboards it collected (`external_benchmark_*.csv`). These files carry no dates;
  each score is dated by the `Version release date` of its model version in `model_versions.csv`.
  Rows whose model version has no release date are skipped and counted.

The two sources overlap (same Epoch database, different snapshots and roundings); both are kept,
each under its own source id.

Units: every percent-type score becomes percent 0-100. The form is fixed per file (see
`BENCHMARKS`): hub files mostly hold fractions (`0.832` -> 83.2, multiplied in decimal so no
binary noise is added), stitching external files hold percent strings (`77.0%` -> 77.0), and a
few hold plain percent numbers (LiveBench, Aider, OSWorld). Arena-style scores are Elo; the
Epoch Capabilities Index is an index.

Rows left out, each counted by the parsers (`Parsed.skipped`):

- no model version (leaderboard entries Epoch could not match to a model), no score, no date;
- several scores for one model version on one benchmark (different shots, scaffolds, agents or
  runs): the highest is kept, as leaderboards report a model's best result; the others are
  counted as `not the model version's best score`. Keeping all would break the table key.
- runs whose `Status` is not `Success`.

Files left out, with the reason (`SKIPPED_FILES`): METR time horizons (minutes: no such unit in
the schema), GeoBench (points on a 0-5000 scale), Lech Mazur writing (a 1-10 grade) and Factorio
(production points); none is a percent, Elo or index. `distilled_models.csv` and
`benchmark_optim.csv` hold no scores. `model_versions.csv` is only used for dates here (the
model metadata importer reads it).

`model_info` comes from the hub only: organisation and release date per model version, and
open weights from the ECI file's `Model accessibility`. The hub has no parameter counts.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from pathlib import Path

import polars as pl

from analysis.data import lookup
from analysis.data.errors import fail
from analysis.data.importers.common import (
    MODEL_INFO_SCHEMA,
    frame,
    iso_date,
    locator,
    read_csv_records,
)

HUB_ID = "epoch-benchmarking-hub"
STITCHING_ID = "epoch-benchmark-stitching"
HUB_DIR = "inference-price-trends-gundlach/2026-04-27_HEAD/data/benchmark_data_7"
STITCHING_DIR = "epoch-benchmark-stitching/2025-12-03_HEAD/data"

SOURCES = [
    {
        "source_id": HUB_ID,
        "title": "Epoch AI Benchmarking Hub data export (benchmark_data_7)",
        "publisher": "Epoch AI (copy in hansgundlach/Algorithmic_Progress_Inference)",
        "url": "https://github.com/hansgundlach/Algorithmic_Progress_Inference/tree/main/data/benchmark_data_7",
        "licence": "CC-BY (Epoch AI's export note)",
        "retrieved": "2026-04-27",
        "notes": (
            "One CSV per benchmark, copied into the repo 2026-01-22. Scores are dated by the "
            "model version's release date. Several results per model version are reduced to the "
            "best one."
        ),
    },
    {
        "source_id": STITCHING_ID,
        "title": "Epoch AI benchmark-stitching data",
        "publisher": "Epoch AI",
        "url": "https://github.com/epoch-research/benchmark-stitching",
        "licence": "MIT",
        "retrieved": "2025-12-03",
        "notes": (
            "Epoch's own runs and collected external leaderboards; scores carry no date and are "
            "dated by model_versions.csv release dates. Several results per model version are "
            "reduced to the best one."
        ),
    },
]


@dataclass(frozen=True)
class ScoreColumn:
    file: str
    column: str
    form: str  # fraction | percent | percent-string | number


@dataclass(frozen=True)
class Benchmark:
    benchmark: str
    unit: str
    hub: ScoreColumn | None = None
    stitching: ScoreColumn | None = None


def _benchmarks() -> list[Benchmark]:
    """The file map in `analysis/data/tables/epoch_benchmark_files.csv`, one Benchmark per id."""
    out: dict[str, Benchmark] = {}
    for r in lookup.read("epoch_benchmark_files"):
        b = out.setdefault(r["benchmark"], Benchmark(r["benchmark"], r["unit"]))
        if b.unit != r["unit"]:
            raise fail(
                lookup.SPECS["epoch_benchmark_files"].path,
                None,
                "unit",
                r["unit"],
                f"benchmark {b.benchmark} has two units",
            )
        col = ScoreColumn(r["file"], r["column"], r["form"])
        out[b.benchmark] = replace(b, **{r["export"]: col})
    return list(out.values())


# Which file holds which benchmark, Epoch's run tasks, and the files read for no scores (with
# the reason): curated tables in analysis/data/tables/, checked when read.
BENCHMARKS = _benchmarks()
RUN_TASKS = {r["task"]: r["benchmark"] for r in lookup.read("epoch_run_tasks")}
SKIPPED_FILES = {r["file"]: r["reason"] for r in lookup.read("epoch_skipped_files")}


# Route prefixes (`chutes/`, `fireworks/`) and run settings (`_high`, `_32K`) are not the model.
_SETTING = re.compile(r"_(?:minimal|low|medium|high|xhigh|thinking|\d+[kK])$")


def model_hint(version: str) -> str:
    """`chutes/Qwen3-32B` -> `qwen3-32b`; `claude-3-7-sonnet-20250219_16K` -> `claude-3-7-sonnet-20250219`."""
    base = version.strip().rsplit("/", 1)[-1]
    return _SETTING.sub("", base).strip().lower()


@dataclass
class Parsed:
    """Rows from one file, and how many records were left out, by reason."""

    rows: list[dict] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)


def read_csv(path: Path, required: list[str]) -> list[dict[str, str]]:
    """Records of an Epoch CSV (quoted fields may span lines; a BOM is allowed)."""
    return read_csv_records(path, required, rule="required column is missing")


def _decimal(path: Path, row: int, column: str, text: str) -> Decimal:
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise fail(path, row, column, text, "must be a number") from None
    if not value.is_finite():
        raise fail(path, row, column, text, "must be a finite number")
    return value


def parse_score(path: Path, row: int, column: str, text: str, form: str) -> float | None:
    """Score in the benchmark's unit from one cell written in `form`; None when empty."""
    text = text.strip()
    if not text:
        return None
    if form == "percent-string":
        if not text.endswith("%"):
            raise fail(path, row, column, text, "must be a percent string like '77.0%'")
        value = _decimal(path, row, column, text[:-1])
    elif form == "fraction":
        value = _decimal(path, row, column, text)
        if not 0 <= value <= 1:
            raise fail(path, row, column, text, "must be a fraction in 0-1")
        value *= 100
    else:
        value = _decimal(path, row, column, text)
    if form != "number" and not 0 <= value <= 100:
        raise fail(path, row, column, text, "percent score must lie in 0-100")
    return float(value)


def _score_row(
    name: str, bench: Benchmark, score: float, date: dt.date, source_id: str, loc: str
) -> dict:
    return {
        "benchmark": bench.benchmark,
        "score": score,
        "unit": bench.unit,
        "date": date,
        "source_model_name": name,
        "model_hint": model_hint(name),
        "source_id": source_id,
        "source_locator": loc,
    }


def parse_hub_file(path: Path, bench: Benchmark, sources_dir: Path) -> Parsed:
    """One Benchmarking Hub CSV -> benchmark_scores rows dated by `Release date`."""
    col = bench.hub
    out = Parsed()
    for i, rec in enumerate(read_csv(path, ["Model version", col.column, "Release date"]), start=1):
        name = rec["Model version"].strip()
        score = parse_score(path, i, col.column, rec[col.column], col.form)
        if not name:
            out.skipped["no model version"] += 1
        elif score is None:
            out.skipped["no score"] += 1
        elif not rec["Release date"].strip():
            out.skipped["no release date"] += 1
        else:
            date = iso_date(path, i, "Release date", rec["Release date"], required=True)
            loc = locator(sources_dir, path, f"row {i}")
            out.rows.append(_score_row(name, bench, score, date, HUB_ID, loc))
    return _best_per_model(out)


def _best_per_model(parsed: Parsed) -> Parsed:
    """Keep each model version's highest score per benchmark (ties: the first row)."""
    best: dict[tuple, dict] = {}
    for r in parsed.rows:
        key = (r["source_model_name"], r["benchmark"], r["date"])
        if key not in best or r["score"] > best[key]["score"]:
            best[key] = r
    dropped = len(parsed.rows) - len(best)
    if dropped:
        parsed.skipped["not the model version's best score"] += dropped
    parsed.rows = list(best.values())
    return parsed


def read_release_dates(path: Path) -> dict[str, dt.date | None]:
    """model_versions.csv: model version id -> `Version release date` (None where blank)."""
    dates: dict[str, dt.date | None] = {}
    for i, rec in enumerate(read_csv(path, ["id", "Version release date"]), start=1):
        text = rec["Version release date"].strip()
        dates[rec["id"].strip()] = iso_date(path, i, "Version release date", text)
    return dates


def _dated(out: Parsed, name: str, dates: dict[str, dt.date | None]) -> dt.date | None:
    if name not in dates:
        out.skipped["model version not in model_versions.csv"] += 1
    elif dates[name] is None:
        out.skipped["no release date"] += 1
    return dates.get(name)


def parse_stitching_file(path: Path, bench: Benchmark, dates: dict, sources_dir: Path) -> Parsed:
    """One `external_benchmark_*.csv` -> benchmark_scores rows dated via model_versions.csv."""
    col = bench.stitching
    out = Parsed()
    for i, rec in enumerate(read_csv(path, ["Model version", col.column]), start=1):
        name = rec["Model version"].strip()
        score = parse_score(path, i, col.column, rec[col.column], col.form)
        if not name:
            out.skipped["no model version"] += 1
        elif score is None:
            out.skipped["no score"] += 1
        elif date := _dated(out, name, dates):
            loc = locator(sources_dir, path, f"row {i}")
            out.rows.append(_score_row(name, bench, score, date, STITCHING_ID, loc))
    return _best_per_model(out)


def parse_runs(path: Path, dates: dict, sources_dir: Path) -> Parsed:
    """benchmarks_runs.csv (Epoch's own evaluations) -> benchmark_scores rows."""
    score_col = "Best score (across scorers)"
    out = Parsed()
    for i, rec in enumerate(read_csv(path, ["task", "model", score_col, "Status"]), start=1):
        name = rec["model"].strip()
        benchmark = RUN_TASKS.get(rec["task"].strip())
        score = parse_score(path, i, score_col, rec[score_col], "fraction")
        if benchmark is None:
            out.skipped[f"task not mapped: {rec['task']}"] += 1
        elif rec["Status"].strip() != "Success":
            out.skipped["run did not succeed"] += 1
        elif score is None:
            out.skipped["no score"] += 1
        elif date := _dated(out, name, dates):
            bench = Benchmark(benchmark, "percent")
            loc = locator(sources_dir, path, f"row {i}")
            out.rows.append(_score_row(name, bench, score, date, STITCHING_ID, loc))
    return _best_per_model(out)


_OPEN = {
    "Open weights (unrestricted)",
    "Open weights (restricted use)",
    "Open weights (non-commercial)",
}
_CLOSED = {"API access", "Unreleased", "Hosted access (no API)"}


def _open_weights(path: Path, row: int, text: str) -> bool | None:
    text = text.strip()
    if not text:
        return None
    if text in _OPEN or text in _CLOSED:
        return text in _OPEN
    raise fail(path, row, "Model accessibility", text, f"expected one of {sorted(_OPEN | _CLOSED)}")


def parse_hub_model_info(path: Path, sources_dir: Path) -> list[dict]:
    """What one hub file says about each model version (organisation, release date, access)."""
    rows = []
    for i, rec in enumerate(read_csv(path, ["Model version", "Release date"]), start=1):
        version = rec["Model version"].strip()
        if not version:
            continue
        date = rec["Release date"].strip()
        name = rec.get("Display name", "").strip() or rec.get("Model name", "").strip() or version
        rows.append(
            {
                "source_id": HUB_ID,
                "source_model_name": version,
                "model_hint": model_hint(version),
                "name": name,
                "organization": rec.get("Organization", "").strip() or None,
                "release_date": iso_date(path, i, "Release date", date),
                "open_weights": _open_weights(path, i, rec.get("Model accessibility", "")),
                "source_locator": locator(sources_dir, path, f"row {i}"),
            }
        )
    return rows


def model_info_frame(rows: list[dict]) -> pl.DataFrame:
    """One row per model version: the first file that names it wins (the ECI file is read first)."""
    first: dict[str, dict] = {}
    for r in rows:
        first.setdefault(r["source_model_name"], r)
    data = [{k: r.get(k) for k in MODEL_INFO_SCHEMA} for r in first.values()]
    return pl.DataFrame(data, schema=MODEL_INFO_SCHEMA).sort("source_model_name")


def parse_all(sources_dir: Path) -> tuple[dict[str, Parsed], list[dict]]:
    """Every mapped file found under `sources_dir` -> Parsed per file, plus hub model info."""
    hub, stitching = sources_dir / HUB_DIR, sources_dir / STITCHING_DIR
    parsed: dict[str, Parsed] = {}
    info: list[dict] = []
    dates = read_release_dates(stitching / "model_versions.csv") if stitching.exists() else {}
    for bench in BENCHMARKS:
        if bench.hub and (hub / bench.hub.file).exists():
            path = hub / bench.hub.file
            parsed[f"{HUB_DIR}/{bench.hub.file}"] = parse_hub_file(path, bench, sources_dir)
            info += parse_hub_model_info(path, sources_dir)
        if bench.stitching and (stitching / bench.stitching.file).exists():
            path = stitching / bench.stitching.file
            parsed[f"{STITCHING_DIR}/{bench.stitching.file}"] = parse_stitching_file(
                path, bench, dates, sources_dir
            )
    if (stitching / "benchmarks_runs.csv").exists():
        runs = parse_runs(stitching / "benchmarks_runs.csv", dates, sources_dir)
        parsed[f"{STITCHING_DIR}/benchmarks_runs.csv"] = runs
    if not parsed:
        raise fail(
            sources_dir,
            None,
            None,
            None,
            f"no Epoch benchmark files under {HUB_DIR} or {STITCHING_DIR}",
        )
    return parsed, info


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    parsed, info = parse_all(sources_dir)
    rows = [r for p in parsed.values() for r in p.rows]
    scores = frame("benchmark_scores", rows, drop=("model_id",))
    scores = scores.sort("source_id", "benchmark", "source_model_name", "date")
    key = ["source_id", "benchmark", "source_model_name", "date"]
    if scores.select(pl.struct(key).is_duplicated().any()).item():
        # Two files mapped to one benchmark in one source would do this: a registry error.
        dup = scores.filter(pl.struct(key).is_duplicated()).row(0, named=True)
        raise fail(dup["source_locator"], None, ", ".join(key), dup["benchmark"], "duplicate key")
    return {"benchmark_scores": scores, "model_info": model_info_frame(info)}
