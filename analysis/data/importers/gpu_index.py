"""henryzhangpku/gpu-price-index back-series: monthly GPU-hour indices for H100, H200, B200, A100.

Where and when: `github.com/henryzhangpku/gpu-price-index`, `series/backfill_ratecards.csv` at
commit f741b56d (commit date unknown: no git history could be had, the file is a transcribed copy
checked against the public one). Per the repo's docs the series is rebuilt from Internet Archive
captures of 11 providers' public rate cards; its `label` says "list prices, not transactions; not
the index". Months 2023-01 .. 2026-09.

Rows (gpu_hour_prices), all dated the first day of `period`, provider `gpu-price-index` unless said:
- `value` -> pricing "index", statistic "index-restated". The repo restates every quote to
  "1x SXM, on-demand, 8-GPU NVLink node, US" with its own factors (e.g. PCIe -> SXM x1.18).
- `raw_on_demand_median` -> pricing "on-demand", statistic "median-raw" (the unrestated median).
- `spot_raw_median` -> pricing "spot", statistic "median-raw".
- `providers` ("lambda=2.537;runpod=4.743") -> one row per provider (provider = its slug),
  pricing "on-demand", statistic "median-restated": that provider's restated median, useful to
  compare hyperscalers with small clouds.
The GPU id is the bare family (`h100`, `a100`): the index code names no form factor or memory
size, and the raw medians mix PCIe and SXM quotes.

Left out, and why:
- Withheld rows (`status` = withheld, e.g. "min_providers: 0 of 3 required"): the repo publishes
  no value for them; their side columns are skipped too, so every row here is from a published month.
- `reserved_raw_median`: the file does not say the commitment term, and the pricing types
  (1-year, 3-year) need one; mapping it would be a guess.
- Dispersion, flags and `matched_log_change`: not prices. The provider counts behind the index
  and the raw medians are kept as `offer_count` (`provider_count`, `spot_providers`).
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.gpus import canonical_gpu
from analysis.data.importers.common import frame, locator, number, slug

FOLDER = "gpu-prices-henryzhang-backfill"
FILE = "2026-09_series__backfill_ratecards.csv"
SOURCE_ID = "gpu-index-henryzhang"
PROVIDER = "gpu-price-index"

SOURCES = [
    {
        "source_id": SOURCE_ID,
        "title": "GPU price index back-series reconstructed from archived public rate cards",
        "publisher": "henryzhangpku/gpu-price-index",
        "url": "https://github.com/henryzhangpku/gpu-price-index",
        "licence": "none stated",
        "retrieved": None,
        "notes": "Transcribed copy of series/backfill_ratecards.csv at commit f741b56d (commit "
        "date unknown). List prices, not transactions; values restated to 1x SXM on-demand "
        "8-GPU node US with the repo's factors; raw medians unrestated. Monthly 2023-01..2026-09.",
    }
]

REQUIRED = [
    "period",
    "index_code",
    "status",
    "value",
    "providers",
    "raw_on_demand_median",
    "spot_raw_median",
]
# column -> (pricing, statistic)
SIDE_COLUMNS = {
    "raw_on_demand_median": ("on-demand", "median-raw", "provider_count"),
    "spot_raw_median": ("spot", "median-raw", "spot_providers"),
}


def _period(path: Path, row: int, value: str | None) -> date:
    if value is None or not re.fullmatch(r"\d{4}-\d{2}", value.strip()):
        raise fail(path, row, "period", value, "must be a month YYYY-MM")
    year, month = value.strip().split("-")
    return date(int(year), int(month), 1)


def _provider_medians(path: Path, row: int, text: str | None) -> list[tuple[str, float]]:
    """`lambda=2.537;runpod=4.743` -> [("lambda", 2.537), ("runpod", 4.743)]."""
    out = []
    for part in (text or "").split(";"):
        if not part.strip():
            continue
        name, sep, amount = part.partition("=")
        if not sep or not name.strip():
            raise fail(path, row, "providers", text, "must be name=value pairs separated by ';'")
        value = number(path, row, "providers", amount, minimum=0)
        if value is None:
            raise fail(path, row, "providers", text, "every provider needs a value")
        out.append((slug(name), value))
    return out


def _gpu(path: Path, row: int, code: str | None) -> tuple[str, str]:
    """Index code -> (source name, canonical id); `GIX-H100` -> ("GIX-H100", "h100")."""
    code = (code or "").strip()
    gpu = canonical_gpu(code.removeprefix("GIX-"))
    if not code.startswith("GIX-") or gpu is None:
        raise fail(path, row, "index_code", code, "must be GIX-<known GPU>")
    return code, gpu


def parse_backfill(path: Path) -> list[dict]:
    """Rows of the published months (keys: gpu_hour_prices columns, `row` for the locator)."""
    df = pl.read_csv(path, infer_schema=False)
    missing = [c for c in REQUIRED if c not in df.columns]
    if missing:
        raise fail(path, None, missing[0], None, "column missing from the header")
    out: list[dict] = []
    for i, rec in enumerate(df.iter_rows(named=True), start=1):
        status = (rec["status"] or "").strip()
        if status not in ("published", "withheld"):
            raise fail(path, i, "status", rec["status"], "must be published or withheld")
        if status == "withheld":
            continue
        name, gpu = _gpu(path, i, rec["index_code"])
        base = {"gpu": gpu, "source_gpu_name": name, "date": _period(path, i, rec["period"])}
        base |= {"region": None, "gpus_per_instance": None, "source_id": SOURCE_ID, "row": i}
        value = number(path, i, "value", rec["value"], minimum=0)
        if value is None:
            raise fail(path, i, "value", rec["value"], "a published month needs a value")
        count = _count(path, i, "provider_count", rec.get("provider_count"))
        out.append(_row(base, PROVIDER, "index", "index-restated", value) | {"offer_count": count})
        for column, (pricing, statistic, counted) in SIDE_COLUMNS.items():
            side = number(path, i, column, rec[column], minimum=0)
            if side is not None:
                n = _count(path, i, counted, rec.get(counted))
                out.append(_row(base, PROVIDER, pricing, statistic, side) | {"offer_count": n})
        for provider, median in _provider_medians(path, i, rec["providers"]):
            out.append(_row(base, provider, "on-demand", "median-restated", median))
    return out


def _count(path: Path, row: int, column: str, value: str | None) -> int | None:
    """How many providers' quotes a median rests on (the file's own count)."""
    n = number(path, row, column, value, minimum=0)
    return None if n is None else int(n)


def _row(base: dict, provider: str, pricing: str, statistic: str, value: float) -> dict:
    return base | {
        "provider": provider,
        "pricing": pricing,
        "statistic": statistic,
        "usd_per_gpu_hour": value,
    }


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    path = sources_dir / FOLDER / FILE
    rows = []
    for r in parse_backfill(path):
        where = f"row {r.pop('row')}"
        rows.append(r | {"source_locator": locator(sources_dir, path, where)})
    key = ["gpu", "date", "provider", "pricing", "statistic"]
    return {"gpu_hour_prices": frame("gpu_hour_prices", rows).sort(key)}
