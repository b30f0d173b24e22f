"""Model metadata from Epoch AI: its models database and its benchmark-stitching version list.

Where and when: `epoch-hardware-prices/2026-04-01_HEAD/data/All ML Systems - full view.csv` is
a snapshot of Epoch AI's "All ML Systems" database kept in epoch-research/training-cost-trends
(commit of 2026-04-01); `epoch-benchmark-stitching/2025-12-03_HEAD/data/model_versions.csv` is
epoch-research/benchmark-stitching's list of model versions (commit of 2025-12-03, MIT).

What is kept (table `model_info`, see analysis/importers/__init__.py):
- All ML Systems: rows whose `Domain` includes "Language" (1,023 of 1,892). Publication date ->
  release_date, Organization -> organization, Parameters (a count) -> parameters_b (billions),
  Model accessibility -> open_weights ("Open weights (...)" true; "API access", "Hosted access
  (no API)", "Unreleased" false; empty null). The database has no active-parameter or reasoning
  column, so those stay null.
- model_versions: every row; `Version release date` -> release_date (null where empty). The file
  names no organisation, parameters or access, so those stay null.
What is left out and why: non-language systems (vision, biology, games, ...) are not priced or
benchmarked in this book; the other columns (training compute, hardware, authors) describe
training, not the model as sold. Names are stripped of surrounding whitespace (a few cells end
in a newline); nothing else is changed.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.importers.common import frame, iso_date, locator, number, read_csv_records
from analysis.data.models import MODEL_INFO_COLUMNS, normalize

ML_SYSTEMS = Path("epoch-hardware-prices/2026-04-01_HEAD/data/All ML Systems - full view.csv")
MODEL_VERSIONS = Path("epoch-benchmark-stitching/2025-12-03_HEAD/data/model_versions.csv")

SOURCES = [
    {
        "source_id": "epoch-ai-models",
        "title": "Epoch AI, All ML Systems (models database snapshot in training-cost-trends)",
        "publisher": "Epoch AI",
        "url": "https://github.com/epoch-research/training-cost-trends",
        "licence": "none stated (no LICENSE file in the repository)",
        "retrieved": dt.date(2026, 4, 1),
        "notes": "Snapshot of Epoch's database; publication date, organisation, parameters, accessibility.",
    },
    {
        "source_id": "epoch-benchmark-stitching",
        "title": "Epoch AI, benchmark-stitching: model versions",
        "publisher": "Epoch AI",
        "url": "https://github.com/epoch-research/benchmark-stitching",
        "licence": "MIT",
        "retrieved": dt.date(2025, 12, 3),
        "notes": "Version ids with release dates; some ids carry run settings (_high, _16K).",
    },
]

OPEN_WEIGHTS = {
    "Open weights (unrestricted)": True,
    "Open weights (restricted use)": True,
    "Open weights (non-commercial)": True,
    "API access": False,
    "Hosted access (no API)": False,
    "Unreleased": False,
}


def _billions(path: Path, row: int, column: str, text: str) -> float | None:
    rule = "must be a number (a parameter count)"
    value = number(path, row, column, text, minimum=0, rule=rule)
    return None if value is None else value / 1e9


def _open_weights(path: Path, row: int, text: str) -> bool | None:
    text = (text or "").strip()
    if not text:
        return None
    if text not in OPEN_WEIGHTS:
        raise fail(path, row, "Model accessibility", text, f"must be one of {sorted(OPEN_WEIGHTS)}")
    return OPEN_WEIGHTS[text]


def _info_row(source_id: str, name: str, where: str, **facts: object) -> dict:
    row = {c: None for c in MODEL_INFO_COLUMNS}
    row.update(source_id=source_id, source_model_name=name, model_hint=normalize(name), name=name)
    row.update(facts, source_locator=where)
    return row


def _frame(rows: list[dict]) -> pl.DataFrame:
    df = frame("models", rows, drop=("model_id", "aliases", "resolved", "info_source_id"))
    return df.select(MODEL_INFO_COLUMNS)


def parse_ml_systems(sources_dir: Path, path: Path) -> pl.DataFrame:
    """Language models of Epoch's All ML Systems table -> model_info rows."""
    cols = [
        "Model",
        "Domain",
        "Organization",
        "Publication date",
        "Parameters",
        "Model accessibility",
    ]
    rows = []
    for i, r in enumerate(read_csv_records(path, cols), start=1):
        name = (r["Model"] or "").strip()
        if "Language" not in (r["Domain"] or "").split(","):
            continue
        if not name:
            raise fail(path, i, "Model", r["Model"], "a language model needs a name")
        facts = {
            "organization": (r["Organization"] or "").strip() or None,
            "release_date": iso_date(path, i, "Publication date", r["Publication date"]),
            "parameters_b": _billions(path, i, "Parameters", r["Parameters"]),
            "open_weights": _open_weights(path, i, r["Model accessibility"]),
        }
        rows.append(
            _info_row("epoch-ai-models", name, locator(sources_dir, path, f"row {i}"), **facts)
        )
    return _frame(rows)


def parse_model_versions(sources_dir: Path, path: Path) -> pl.DataFrame:
    """Epoch benchmark-stitching model versions -> model_info rows (release dates only)."""
    rows = []
    for i, r in enumerate(read_csv_records(path, ["id", "Version release date"]), start=1):
        name = (r["id"] or "").strip()
        if not name:
            raise fail(path, i, "id", r["id"], "a model version needs an id")
        when = iso_date(path, i, "Version release date", r["Version release date"])
        where = locator(sources_dir, path, f"key {name}")
        rows.append(_info_row("epoch-benchmark-stitching", name, where, release_date=when))
    return _frame(rows)


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    info = pl.concat(
        [
            parse_ml_systems(sources_dir, sources_dir / ML_SYSTEMS),
            parse_model_versions(sources_dir, sources_dir / MODEL_VERSIONS),
        ]
    )
    return {"model_info": info}
