"""Short-window GPU market data: Prime Intellect (tugot17), Ornn index, vast.ai and RunPod (sui414).

Where and when:
- `tugot17/gpu-price-tracker`, `data/summary/<GPU>.jsonl` at commit 718a831c (2025-11-16): Prime
  Intellect's aggregated marketplace, one snapshot about every 30 minutes, 2025-10-19..2025-11-16,
  USD per GPU-hour. Source `gpu-tracker-tugot17`.
- `sui414/openrouter-pricing-data` at commit 83ec0dd3 (2026-08-08), three publishers scraped by
  one repo, so one source id each:
  * `data/csv/ornn_gpu_index.csv` (source `ornn-gpu-index`): Ornn's daily GPU price index,
    2026-04-20..2026-08-07.
  * `data/csv/vast_market/date=*.csv[.gz]` (source `vast-market-sui414`): hourly aggregates of
    vast.ai offers per GPU and rental type, 2026-07-20..2026-08-08.
  * `data/csv/runpod_daily.csv` and `data-static/runpod_depth_history_afhubbard.csv` (source
    `runpod-sui414`): RunPod's daily list prices and a minimum-price history.

What each gives (gpu_hour_prices; dates are UTC days):
- tugot17: the last snapshot of each day per GPU; its `min`, `p25`, `median`, `p75` become four
  rows, pricing "marketplace", provider `primeintellect`. The snapshot medians are not
  averaged or re-aggregated: no statistic the source does not have.
- Ornn: `index_value` -> pricing "index", statistic "index", provider `ornn`, dated by
  `timestamp` (the index is stamped 20:00 UTC each day).
- vast.ai: the last record of each day per GPU and rental type; `dph_per_gpu_median` and
  `dph_per_gpu_p25` -> statistics "median" and "p25". rental_type "on-demand" -> on-demand,
  "bid" (interruptible) -> spot.
- RunPod daily: `secure_price` and `community_price` -> on-demand, statistics "secure-cloud"
  and "community-cloud"; `spot_bid_floor` -> spot, statistic "bid-floor". The GPU id comes from
  `gpu_id` unless `display_name` names the form factor it lacks ("NVIDIA H100 80GB HBM3" is
  shown as "H100 SXM" -> `h100-sxm`); `source_gpu_name` is `gpu_id`.
- RunPod depth history: `min_price_per_hour` for `gpu_count` 1 -> on-demand, statistic "min",
  gpus_per_instance 1.

Left out, and why:
- GPUs without a canonical id (laptop parts, MIG slices, "unknown"; see `analysis.data.gpus`).
- RunPod term prices (1 week .. 6 months) and cluster prices: no pricing type fits (the table has
  1-year and 3-year terms only). `on_demand_floor` repeats the lower of secure and community.
- Depth-history rows for 2..8 GPUs: `min_price_per_hour` there is the price of the whole
  instance (8x H200 = 18.32 = 8 x 2.29 on 2026-03-02); it is not divided here.
- The other tugot17 fields (p10, p90, max, mean, per-provider and per-config prices) and vast.ai
  min/p75/max: kept out to keep the table to the statistics named above. The number of offers
  behind each statistic is kept (`offer_count`: tugot17's `availability.total`, vast.ai's
  `num_offers`), so a median of one or two offers can be told apart (flag `thin_median`).
"""

from __future__ import annotations

import gzip
import io
import json
from datetime import date, datetime
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.gpus import canonical_gpu
from analysis.data.importers.common import frame, locator, number

TUGOT_FOLDER = "gpu-prices-tugot17-primeintellect"
SUI_FOLDER = "openrouter-sui414"

SOURCES = [
    {
        "source_id": "gpu-tracker-tugot17",
        "title": "GPU price tracker (Prime Intellect marketplace summaries)",
        "publisher": "tugot17/gpu-price-tracker",
        "url": "https://github.com/tugot17/gpu-price-tracker",
        "licence": "MIT",
        "retrieved": "2025-11-16",
        "notes": "Aggregated marketplace offers from one aggregator, every ~30 min, "
        "2025-10-19..2025-11-16; percentiles of USD per GPU-hour across offers.",
    },
    {
        "source_id": "ornn-gpu-index",
        "title": "Ornn GPU price index (daily), as scraped by sui414/openrouter-pricing-data",
        "publisher": "Ornn (scraped by sui414)",
        "url": "https://github.com/sui414/openrouter-pricing-data",
        "licence": "none stated",
        "retrieved": "2026-08-08",
        "notes": "Daily index values, USD per GPU-hour, 2026-04-20..2026-08-07; methodology not "
        "in the file.",
    },
    {
        "source_id": "vast-market-sui414",
        "title": "vast.ai market aggregates per GPU, as scraped by sui414/openrouter-pricing-data",
        "publisher": "sui414/openrouter-pricing-data",
        "url": "https://github.com/sui414/openrouter-pricing-data",
        "licence": "none stated",
        "retrieved": "2026-08-08",
        "notes": "Hourly percentiles of vast.ai offers (USD per GPU-hour), on-demand and "
        "interruptible (bid), 2026-07-20..2026-08-08.",
    },
    {
        "source_id": "runpod-sui414",
        "title": "RunPod GPU prices, as scraped by sui414/openrouter-pricing-data",
        "publisher": "sui414/openrouter-pricing-data",
        "url": "https://github.com/sui414/openrouter-pricing-data",
        "licence": "none stated",
        "retrieved": "2026-08-08",
        "notes": "Daily secure/community/spot list prices 2026-07-28..2026-08-08; minimum "
        "1-GPU prices 2026-01-12..2026-07-27 (runpod_depth_history_afhubbard.csv).",
    },
]

TUGOT_STATS = ["min", "p25", "median", "p75"]
VAST_STATS = {"dph_per_gpu_median": "median", "dph_per_gpu_p25": "p25"}
VAST_RENTAL = {"on-demand": "on-demand", "bid": "spot"}
RUNPOD_PRICES = {
    "secure_price": ("on-demand", "secure-cloud"),
    "community_price": ("on-demand", "community-cloud"),
    "spot_bid_floor": ("spot", "bid-floor"),
}


def _day(path: Path, row: int, column: str, value: object) -> date:
    """UTC day of an ISO timestamp or date ("2025-10-19T21:01:58+00:00", "2026-04-20T20:00Z")."""
    text = str(value or "").strip().replace("Z", "+00:00")
    try:
        return datetime.fromisoformat(text).date() if "T" in text else date.fromisoformat(text)
    except ValueError:
        raise fail(path, row, column, value, "must be an ISO date or timestamp") from None


def _row(
    gpu, name, provider, day, pricing, statistic, value, source, where, count=None, offers=None
) -> dict:
    return {
        "gpu": gpu,
        "source_gpu_name": name,
        "provider": provider,
        "date": day,
        "pricing": pricing,
        "usd_per_gpu_hour": value,
        "statistic": statistic,
        "region": None,
        "gpus_per_instance": count,
        "offer_count": offers,
        "source_id": source,
        "where": where,
    }


def _read_csv(path: Path, needed: list[str]) -> pl.DataFrame:
    if path.suffix == ".gz":
        with gzip.open(path, "rb") as fh:
            df = pl.read_csv(io.BytesIO(fh.read()), infer_schema=False)
    else:
        df = pl.read_csv(path, infer_schema=False)
    missing = [c for c in needed if c not in df.columns]
    if missing:
        raise fail(path, None, missing[0], None, "column missing from the header")
    return df


# --- tugot17 / Prime Intellect -------------------------------------------------------------


def parse_tugot17(path: Path) -> list[dict]:
    """Last snapshot of each UTC day in one `data/summary/<GPU>.jsonl`: min, p25, median, p75."""
    last: dict[date, tuple[int, str, dict]] = {}
    with path.open(encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                snap = json.loads(line)
            except json.JSONDecodeError:
                raise fail(path, line_no, None, line[:60], "must be one JSON object") from None
            stamp = snap.get("timestamp")
            day = _day(path, line_no, "timestamp", stamp)
            if day not in last or str(stamp) >= last[day][1]:
                last[day] = (line_no, str(stamp), snap)
    out = []
    for day, (line_no, _, snap) in sorted(last.items()):
        name = " ".join(p for p in (snap.get("gpu_type"), snap.get("socket_type")) if p)
        gpu = canonical_gpu(name)
        if gpu is None:
            raise fail(path, line_no, "gpu_type", name, "GPU has no canonical id")
        stats = snap.get("price_stats") or {}
        total = number(
            path,
            line_no,
            "availability.total",
            (snap.get("availability") or {}).get("total"),
            minimum=0,
        )
        for stat in TUGOT_STATS:
            value = number(path, line_no, f"price_stats.{stat}", stats.get(stat), minimum=0)
            if value is not None:
                args = ("primeintellect", day, "marketplace", stat, value)
                offers = None if total is None else int(total)
                where = f"line {line_no}"
                out.append(_row(gpu, name, *args, "gpu-tracker-tugot17", where, offers=offers))
    return out


# --- Ornn index -----------------------------------------------------------------------------


def parse_ornn(path: Path) -> list[dict]:
    df = _read_csv(path, ["gpu_type", "timestamp", "index_value"])
    out = []
    for i, rec in enumerate(df.iter_rows(named=True), start=1):
        name = (rec["gpu_type"] or "").strip()
        gpu = canonical_gpu(name)
        if gpu is None:
            continue
        value = number(path, i, "index_value", rec["index_value"], minimum=0)
        if value is None:
            continue
        day = _day(path, i, "timestamp", rec["timestamp"])
        out.append(
            _row(gpu, name, "ornn", day, "index", "index", value, "ornn-gpu-index", f"row {i}")
        )
    return out


# --- vast.ai --------------------------------------------------------------------------------


def parse_vast(path: Path) -> list[dict]:
    """Last record of each UTC day per GPU and rental type in one vast_market file."""
    needed = ["scraped_at", "rental_type", "gpu_name", *VAST_STATS]
    df = _read_csv(path, needed).with_row_index("row", offset=1)
    last: dict[tuple, dict] = {}
    for rec in df.iter_rows(named=True):
        i = rec["row"]
        rental = (rec["rental_type"] or "").strip()
        if rental not in VAST_RENTAL:
            raise fail(path, i, "rental_type", rental, "must be on-demand or bid")
        day = _day(path, i, "scraped_at", rec["scraped_at"])
        key = (day, rec["gpu_name"], rental)
        if key not in last or rec["scraped_at"] >= last[key]["scraped_at"]:
            last[key] = rec
    out = []
    for (day, name, rental), rec in sorted(last.items()):
        gpu = canonical_gpu(name)
        if gpu is None:
            continue
        offers = number(path, rec["row"], "num_offers", rec.get("num_offers"), minimum=0)
        for column, stat in VAST_STATS.items():
            value = number(path, rec["row"], column, rec[column], minimum=0)
            if value is not None:
                args = (name, "vast.ai", day, VAST_RENTAL[rental], stat, value)
                where = f"row {rec['row']}"
                count = None if offers is None else int(offers)
                out.append(_row(gpu, *args, "vast-market-sui414", where, offers=count))
    return out


# --- RunPod ---------------------------------------------------------------------------------


def runpod_gpu(gpu_id: str, display_name: str) -> str | None:
    """Id from `gpu_id`, refined by `display_name` when that names the form factor it lacks."""
    from_id, from_display = canonical_gpu(gpu_id), canonical_gpu(display_name)
    if from_id and from_display and from_display.startswith(from_id + "-"):
        return from_display
    return from_id or from_display


def parse_runpod_daily(path: Path) -> list[dict]:
    df = _read_csv(path, ["date", "gpu_id", "display_name", *RUNPOD_PRICES])
    out = []
    for i, rec in enumerate(df.iter_rows(named=True), start=1):
        name = (rec["gpu_id"] or "").strip()
        gpu = runpod_gpu(name, (rec["display_name"] or "").strip())
        if gpu is None:
            continue
        day = _day(path, i, "date", rec["date"])
        for column, (pricing, stat) in RUNPOD_PRICES.items():
            value = number(path, i, column, rec[column], minimum=0)
            if value is not None:
                args = (name, "runpod", day, pricing, stat, value, "runpod-sui414", f"row {i}")
                out.append(_row(gpu, *args))
    return out


def parse_runpod_depth(path: Path) -> list[dict]:
    df = _read_csv(path, ["date", "gpu_type", "gpu_count", "min_price_per_hour"])
    out = []
    for i, rec in enumerate(df.iter_rows(named=True), start=1):
        if (rec["gpu_count"] or "").strip() != "1":
            continue  # whole-instance prices for 2..8 GPUs; see module docstring
        name = (rec["gpu_type"] or "").strip()
        gpu = canonical_gpu(name)
        value = number(path, i, "min_price_per_hour", rec["min_price_per_hour"], minimum=0)
        if gpu is None or value is None:
            continue
        day = _day(path, i, "date", rec["date"])
        args = (name, "runpod", day, "on-demand", "min", value, "runpod-sui414", f"row {i}", 1)
        out.append(_row(gpu, *args))
    return out


# --- build ----------------------------------------------------------------------------------


def _head(folder: Path) -> Path:
    heads = sorted(folder.glob("*_HEAD"))
    if not heads:
        raise fail(folder, None, None, None, "no <date>_HEAD snapshot folder")
    return heads[-1]


def _located(sources_dir: Path, path: Path, rows: list[dict]) -> list[dict]:
    out = []
    for r in rows:
        where = r.pop("where")
        out.append(r | {"source_locator": locator(sources_dir, path, where)})
    return out


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    rows: list[dict] = []
    tugot = _head(sources_dir / TUGOT_FOLDER) / "data" / "summary"
    for path in sorted(tugot.glob("*.jsonl")):
        rows += _located(sources_dir, path, parse_tugot17(path))
    sui = _head(sources_dir / SUI_FOLDER)
    csv_dir = sui / "data" / "csv"
    rows += _located(
        sources_dir, csv_dir / "ornn_gpu_index.csv", parse_ornn(csv_dir / "ornn_gpu_index.csv")
    )
    for path in sorted((csv_dir / "vast_market").glob("date=*.csv*")):
        rows += _located(sources_dir, path, parse_vast(path))
    daily = csv_dir / "runpod_daily.csv"
    rows += _located(sources_dir, daily, parse_runpod_daily(daily))
    depth = sui / "data-static" / "runpod_depth_history_afhubbard.csv"
    rows += _located(sources_dir, depth, parse_runpod_depth(depth))
    key = ["source_id", "gpu", "date", "provider", "pricing", "statistic", "source_gpu_name"]
    return {"gpu_hour_prices": frame("gpu_hour_prices", rows).sort(key)}
