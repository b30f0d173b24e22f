"""henryzhangpku/gpu-price-index daily fixings (GIX), 2026-08-27 .. 2026-09-08.

Where and when: `github.com/henryzhangpku/gpu-price-index`, `series/index_values.csv` at commit
0065a0c2, the live series that continues the monthly back-series (`gpu_index.py`). A
**transcribed copy** of the stored index text (no git snapshot of this version; its commit date is
unknown, its content runs to 2026-09-08); CRLF line ends were restored to match the index's
character count (`gpu-price-index-henryzhang-daily/_PROVENANCE.tsv`, README Part II §2.1). The
repo's README calls the series "a demonstration. Do not settle anything against these values."

Rows (gpu_hour_prices): one per index x date, provider `gpu-price-index`, pricing `index`,
statistic `index-restated` (the value is USD per GPU-hour of the index's standard good: US, 1x
SXM, on-demand; the same statistic as the restated back-series, so the two join), `source_gpu_name`
the index code, GPU the bare family (`h100`, as in gpu_index.py).

Revisions: a date may be fixed several times (`revision` 0-5 on 2026-08-27); each revision but the
last has `superseded_at` set. Only the revision in force is kept (the one not superseded); a
date whose revision in force is `withheld` (A100 on 8 of 13 dates, MI300X on all: too few
providers, or dispersion above the ceiling) has no value and no row. Two revisions in force for
one index and date, or none, is an error.

Left out: `provider_count`, `observation_count`, `dispersion` (not prices), and every superseded
revision (a value the publisher replaced the same day).
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.gpus import canonical_gpu
from analysis.data.importers.common import frame, locator
from analysis.data.importers.new_sources import number

FOLDER = "gpu-price-index-henryzhang-daily"
SOURCE_ID = "gpu-index-henryzhang-daily"
PROVIDER = "gpu-price-index"
REQUIRED = ["index_code", "index_date", "revision", "status", "value", "superseded_at"]

SOURCES = [
    {
        "source_id": SOURCE_ID,
        "title": "GPU price index (GIX) daily fixings, series/index_values.csv",
        "publisher": "henryzhangpku/gpu-price-index",
        "url": "https://github.com/henryzhangpku/gpu-price-index",
        "licence": "none stated",
        "retrieved": "2026-09-08",
        "notes": "Transcribed copy of the stored index text at commit 0065a0c2 (commit date "
        "unknown; content 2026-08-27..2026-09-08; CRLF restored). The repo calls it a "
        "demonstration. Only the revision in force per date is kept; withheld dates have no row.",
    }
]


def _date(path: Path, row: int, text: str | None) -> dt.date:
    try:
        return dt.date.fromisoformat((text or "").strip())
    except ValueError:
        raise fail(path, row, "index_date", text, "must be an ISO date YYYY-MM-DD") from None


def parse_index_values(path: Path) -> list[dict]:
    """Published fixings in force: {index_code, gpu, date, value, row}."""
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
        if missing:
            raise fail(path, None, missing[0], None, "column missing from the header")
        records = list(reader)
    in_force: dict[tuple[str, dt.date], tuple[int, dict]] = {}
    for i, rec in enumerate(records, start=1):
        code = (rec["index_code"] or "").strip()
        gpu = canonical_gpu(code.removeprefix("GIX-"))
        if not code.startswith("GIX-") or gpu is None:
            raise fail(path, i, "index_code", code, "must be GIX-<known GPU>")
        status = (rec["status"] or "").strip()
        if status not in ("published", "withheld"):
            raise fail(path, i, "status", rec["status"], "must be published or withheld")
        day = _date(path, i, rec["index_date"])
        if (rec["superseded_at"] or "").strip():
            continue
        if (code, day) in in_force:
            other = in_force[(code, day)][0]
            raise fail(path, i, "superseded_at", "", f"two revisions in force (also row {other})")
        in_force[(code, day)] = (i, {**rec, "gpu": gpu, "date": day, "status": status})
    out = []
    for (code, day), (i, rec) in sorted(in_force.items()):
        if rec["status"] == "withheld":
            continue
        value = number(path, i, "value", rec["value"], allow_none=False)
        out.append({"index_code": code, "gpu": rec["gpu"], "date": day, "value": value, "row": i})
    return out


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    sources_dir = Path(sources_dir)
    paths = sorted((sources_dir / FOLDER).glob("*_series__index_values.csv"))
    if not paths:
        raise fail(sources_dir / FOLDER, None, None, None, "no *_series__index_values.csv")
    rows = []
    for path in paths:
        for r in parse_index_values(path):
            rows.append(
                {
                    "gpu": r["gpu"],
                    "source_gpu_name": r["index_code"],
                    "provider": PROVIDER,
                    "date": r["date"],
                    "pricing": "index",
                    "usd_per_gpu_hour": r["value"],
                    "statistic": "index-restated",
                    "region": None,
                    "gpus_per_instance": None,
                    "source_id": SOURCE_ID,
                    "source_locator": locator(sources_dir, path, f"row {r['row']}"),
                }
            )
    key = ["gpu", "date", "provider", "pricing", "statistic"]
    return {"gpu_hour_prices": frame("gpu_hour_prices", rows).sort(key)}
