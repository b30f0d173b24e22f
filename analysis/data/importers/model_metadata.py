"""Model metadata from the sources added on 2026-12-01 (README Part II): identity only.

These files also carry prices and benchmark scores; importing those into `token_prices` and
`benchmark_scores` is a later step (issue 10). Here they only say what a model is: its developer,
release date, open weights, parameters and whether it reasons, so that the names in the price
tables resolve to one model with a dated release.

- **Artificial Analysis leaderboard** (`aa-leaderboards-oolong/<date>_llms.json`, daily scrape by
  oolong-tea-2026/artificial-analysis-leaderboards, MIT; five snapshots 2026-04-10 .. 2026-07-10):
  per model `name`, `release_date`, `creator.name`, `open_weights.is_open_weights`,
  `capabilities.total_parameters` / `active_parameters` (billions), `reasoning_model`, and the
  run-setting in the name: "(Reasoning)" / "(Non-reasoning)" and effort words "(high)" say the
  row is a reasoning run or not. The newest snapshot that names a model gives its facts; an
  older snapshot's release date that differs is kept too (the build reports disagreements).
- **Epoch AI Benchmarking Hub, April 2026** (`epoch-benchmarking-hub-2026-04/2026-04-29_data/
  benchmark_data/`, copy in feruiloba/miri-fellowship-inference-scaling, CC-BY): the same export
  format as the older hub copy read by `epoch_benchmarks`: `Model version`, `Release date`,
  `Organization`, `Model accessibility`, read from every score file.
- **token-tariff timeline** (`token-tariff-timeline/2026-08-03_timeline.csv`,
  Prajwalsrinvas/token-tariff, MIT): `model`, `vendor`, `release_date` of 42 hand-curated models;
  and METR's `release_dates.yaml` in its `data/history/2026-08-01/` (model name -> date).

Nothing is inferred: a fact the file does not state stays null.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import yaml

from analysis.data.errors import fail
from analysis.data.importers import epoch_benchmarks
from analysis.data.importers.common import (
    MODEL_INFO_SCHEMA,
    iso_date,
    locator,
    number,
    read_csv_records,
)

AA_ID = "artificial-analysis"
HUB_2026_ID = "epoch-benchmarking-hub-2026-04"
TARIFF_ID = "token-tariff"
METR_ID = "metr-release-dates"

AA_DIR = "aa-leaderboards-oolong"
HUB_2026_DIR = "epoch-benchmarking-hub-2026-04/2026-04-29_data/benchmark_data"
TARIFF_FILE = "token-tariff-timeline/2026-08-03_timeline.csv"
METR_FILE = "token-tariff-timeline/2026-08-01_data/history/2026-08-01/metr_release_dates.yaml"

SOURCES = [
    {
        "source_id": AA_ID,
        "title": "Artificial Analysis LLM leaderboard, daily scrape (model metadata)",
        "publisher": "Artificial Analysis (scraped by oolong-tea-2026/artificial-analysis-leaderboards)",
        "url": "https://github.com/oolong-tea-2026/artificial-analysis-leaderboards",
        "licence": "MIT (repository); Artificial Analysis' own terms apply to the numbers",
        "retrieved": "2026-07-10",
        "notes": "Snapshots 2026-04-10 .. 2026-07-10. Read here for model identity only: creator, "
        "release date, open weights, parameters, reasoning.",
    },
    {
        "source_id": HUB_2026_ID,
        "title": "Epoch AI Benchmarking Hub data export, April 2026 (model metadata)",
        "publisher": "Epoch AI (copy in feruiloba/miri-fellowship-inference-scaling)",
        "url": "https://github.com/feruiloba/miri-fellowship-inference-scaling/tree/main/data/eci/benchmark_data",
        "licence": "CC-BY (Epoch AI's export note)",
        "retrieved": "2026-04-29",
        "notes": "Model versions with release date, organisation and accessibility, to 2026-04-23.",
    },
    {
        "source_id": TARIFF_ID,
        "title": "token-tariff: launch vs current prices of frontier and bottom-tier models",
        "publisher": "Prajwalsrinvas (github.com/Prajwalsrinvas/token-tariff)",
        "url": "https://github.com/Prajwalsrinvas/token-tariff",
        "licence": "MIT",
        "retrieved": "2026-08-03",
        "notes": "Hand-curated; release dates with a source URL per row. Read for identity only.",
    },
    {
        "source_id": METR_ID,
        "title": "METR release_dates.yaml (as kept in token-tariff's data/history)",
        "publisher": "METR (copy in Prajwalsrinvas/token-tariff)",
        "url": "https://github.com/METR/eval-analysis-public",
        "licence": "none stated in the copy",
        "retrieved": "2026-08-01",
        "notes": "Release dates of the models METR measured time horizons for.",
    },
]

# AA run settings written in the name: a reasoning run, or explicitly not.
_AA_REASONING = re.compile(r"\((?:reasoning|high|medium|low|xhigh|max|minimal|thinking)\)", re.I)
_AA_NON_REASONING = re.compile(r"\(non-reasoning\)", re.I)


def _info(source_id: str, name: str, where: str, **facts) -> dict:
    row = {k: None for k in MODEL_INFO_SCHEMA}
    row.update(source_id=source_id, source_model_name=name, name=name, source_locator=where)
    row.update(facts)
    return row


def _frame(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=MODEL_INFO_SCHEMA, orient="row")


def parse_aa_snapshot(path: Path, sources_dir: Path | None = None) -> list[dict]:
    """One AA `llms.json` -> model_info rows (one per model entry)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise fail(path, None, None, None, f"not valid JSON: {err}") from None
    models = doc.get("models") if isinstance(doc, dict) else None
    if not isinstance(models, list):
        raise fail(path, None, "models", None, "expected a JSON object with a 'models' list")
    rows = []
    for i, m in enumerate(models):
        name = (m.get("name") or "").strip()
        if not name:
            continue
        where = f"models[{i}] slug {m.get('slug')}"
        caps = m.get("capabilities") or {}
        weights = m.get("open_weights") or {}
        creator = m.get("creator") or {}
        reasoning = m.get("reasoning_model")
        if reasoning is None and _AA_NON_REASONING.search(name):
            reasoning = False
        elif reasoning is None and _AA_REASONING.search(name):
            reasoning = True
        col = f"models[{i}].capabilities"
        rows.append(
            _info(
                AA_ID,
                name,
                locator(sources_dir, path, where) if sources_dir else where,
                organization=(creator.get("name") or "").strip() or None,
                release_date=iso_date(path, i, "release_date", m.get("release_date")),
                open_weights=weights.get("is_open_weights"),
                parameters_b=number(
                    path, i, f"{col}.total_parameters", caps.get("total_parameters"), minimum=0
                ),
                active_parameters_b=number(
                    path, i, f"{col}.active_parameters", caps.get("active_parameters"), minimum=0
                ),
                reasoning=reasoning,
            )
        )
    return rows


def aa_model_info(sources_dir: Path) -> pl.DataFrame:
    """Every AA snapshot, newest first; per name, the newest snapshot's row (older release
    dates that differ are kept as extra rows so disagreements stay visible)."""
    files = sorted((sources_dir / AA_DIR).glob("*_llms.json"), reverse=True)
    seen: dict[str, dict] = {}
    extra: list[dict] = []
    for path in files:
        for r in parse_aa_snapshot(path, sources_dir):
            first = seen.setdefault(r["source_model_name"], r)
            if first is not r and r["release_date"] and r["release_date"] != first["release_date"]:
                extra.append(r)
    rows = list(seen.values()) + extra
    return _frame(rows).unique(
        ["source_model_name", "release_date"], keep="first", maintain_order=True
    )


def hub_2026_model_info(sources_dir: Path) -> pl.DataFrame:
    """Model versions of the April 2026 hub export (first file naming a version wins)."""
    folder = sources_dir / HUB_2026_DIR
    rows: list[dict] = []
    # The ECI file first: it is the one that states accessibility for every version.
    files = sorted(
        folder.glob("*.csv"), key=lambda p: (p.name != "epoch_capabilities_index.csv", p.name)
    )
    for path in files:
        with path.open(encoding="utf-8-sig") as fh:
            header = fh.readline()
        if "Model version" not in header or "Release date" not in header:
            continue
        rows += [
            r | {"source_id": HUB_2026_ID}
            for r in epoch_benchmarks.parse_hub_model_info(path, sources_dir)
        ]
    return epoch_benchmarks.model_info_frame(rows)


def tariff_model_info(sources_dir: Path) -> pl.DataFrame:
    path = sources_dir / TARIFF_FILE
    rows = []
    for i, r in enumerate(read_csv_records(path, ["model", "vendor", "release_date"]), start=1):
        rows.append(
            _info(
                TARIFF_ID,
                r["model"].strip(),
                locator(sources_dir, path, f"row {i}"),
                organization=r["vendor"].strip() or None,
                release_date=iso_date(path, i, "release_date", r["release_date"]),
            )
        )
    return _frame(rows)


def metr_model_info(sources_dir: Path) -> pl.DataFrame:
    path = sources_dir / METR_FILE
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    dates = doc.get("date") if isinstance(doc, dict) else None
    if not isinstance(dates, dict):
        raise fail(path, None, "date", None, "expected a mapping 'date: {model: YYYY-MM-DD}'")
    rows = []
    for name, when in dates.items():
        text = when.isoformat() if hasattr(when, "isoformat") else str(when)
        rows.append(
            _info(
                METR_ID,
                str(name).strip(),
                locator(sources_dir, path, f"date.{name}"),
                release_date=iso_date(path, None, f"date.{name}", text),
            )
        )
    return _frame(rows)


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    parts = []
    if (sources_dir / AA_DIR).exists():
        parts.append(aa_model_info(sources_dir))
    if (sources_dir / HUB_2026_DIR).exists():
        parts.append(hub_2026_model_info(sources_dir))
    if (sources_dir / TARIFF_FILE).exists():
        parts.append(tariff_model_info(sources_dir))
    if (sources_dir / METR_FILE).exists():
        parts.append(metr_model_info(sources_dir))
    info = pl.concat(parts) if parts else _frame([])
    return {
        "model_info": info.sort("source_id", "source_model_name", "release_date", nulls_last=True)
    }
