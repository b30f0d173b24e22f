"""Token list prices from simonw/llm-prices (llm-prices.com), USD per 1M tokens.

Where and when: `github.com/simonw/llm-prices`, files `data/<vendor>.json`, read from ten monthly
git snapshots 2025-10-10 .. 2026-08-05 (`llm-prices-simonw/<commit date>_data/`, README §1.3).
Before 2025-10 the prices sat inside the site's `index.html`; those pages are not in the sources.

How a row is dated. Each `price_history` record is a price in force from `from_date` (inclusive)
to `to_date` (exclusive). Most records have `from_date: null` ("from the beginning"); such a record
is dated by the first snapshot in which it was observed, since the source does not say when it
began. Exception: a null-`from_date` record whose `to_date` falls before that first observation
(e.g. DeepSeek Chat's pre-2025-02-08 price) is dated `to_date` minus one day, the last day the
source says it was in force, so no row claims a price outside its stated period.

The same record seen in several snapshots is one row per (vendor, model id, from_date or first
observation). A record continues while input and output stay the same; a cached price filled in
later (null -> value) is the same record and the row carries the filled-in value. A change of any
price opens a new row dated at the snapshot where it was first seen.
`last_seen` is the last snapshot date the record appears in, capped at `to_date` minus one day
when the source gives an end. A price announced for a date after the last snapshot (e.g. Claude
Sonnet 5 from 2026-09-01) is kept at its `from_date` with `last_seen` null: never observed in force.

Other choices: provider = the vendor file's name (first-party list prices; `amazon` is Amazon's
own Nova models). Ids ending `-<N>k` whose name says `>Nk` are the long-context price of the base
model: model_hint drops the suffix and context_tier is `>Nk` (base rows have context_tier '').
Image-generation entries (names containing "(image gen)") are left out: their prices are for
image tokens. The same model id listed twice with the same price in one file (xai grok-4-fast)
is one record; listed twice with different prices it is an error.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.importers.common import frame, locator, provenance, slug

SOURCE_ID = "simonw-llm-prices"
FOLDER = "llm-prices-simonw"

SOURCES = [
    {
        "source_id": SOURCE_ID,
        "title": "llm-prices.com price data (simonw/llm-prices, data/<vendor>.json)",
        "publisher": "Simon Willison",
        "url": "https://github.com/simonw/llm-prices",
        "licence": "none stated",
        "retrieved": "2026-08-05",
        "notes": "Monthly git snapshots 2025-10-10..2026-08-05; USD per 1M tokens; most records "
        "have no from_date and are dated by first observation.",
    }
]

TIER_SUFFIX = re.compile(r"-+(\d+k)$")
IMAGE_MODEL = "(image gen)"


@dataclass(frozen=True)
class PriceRecord:
    """One price_history entry of one model in one vendor file."""

    vendor: str
    model_id: str
    name: str
    index: int  # position in price_history
    input: float | None
    output: float | None
    input_cached: float | None
    from_date: date | None
    to_date: date | None


def _price(path: Path, where: str, value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise fail(path, None, where, value, "price must be a number >= 0 or null")
    return float(value)


def _date(path: Path, where: str, value: object) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise fail(path, None, where, value, "date must be ISO YYYY-MM-DD or null") from None


def parse_vendor_file(path: Path) -> list[PriceRecord]:
    """Every price record of one `data/<vendor>.json` file, checked."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        vendor, models = doc["vendor"], doc["models"]
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise fail(path, None, None, None, f"not a vendor file ({exc})") from None
    out: list[PriceRecord] = []
    for i, model in enumerate(models):
        for j, rec in enumerate(model.get("price_history") or []):
            where = f"models[{i}].price_history[{j}]"
            record = PriceRecord(
                vendor=vendor,
                model_id=model["id"],
                name=model.get("name") or "",
                index=j,
                input=_price(path, f"{where}.input", rec.get("input")),
                output=_price(path, f"{where}.output", rec.get("output")),
                input_cached=_price(path, f"{where}.input_cached", rec.get("input_cached")),
                from_date=_date(path, f"{where}.from_date", rec.get("from_date")),
                to_date=_date(path, f"{where}.to_date", rec.get("to_date")),
            )
            if record.from_date and record.to_date and record.from_date >= record.to_date:
                raise fail(
                    path, None, f"{where}.to_date", rec["to_date"], "to_date must follow from_date"
                )
            out.append(record)
    return out


@dataclass(frozen=True)
class Run:
    """One record followed through consecutive snapshots."""

    record: PriceRecord
    first_seen: date
    last_seen: date
    path: Path  # file of the last snapshot: the values as last stated


def _continues(run: Run, rec: PriceRecord) -> bool:
    r = run.record
    cached_same = r.input_cached is None or r.input_cached == rec.input_cached
    return r.input == rec.input and r.output == rec.output and cached_same


def _unique_per_snapshot(path: Path, records: list[PriceRecord]) -> list[PriceRecord]:
    """Drop exact repeats of one (model, from_date) in a file; differing repeats are an error."""
    seen: dict[tuple, PriceRecord] = {}
    for rec in records:
        key = (rec.model_id, rec.from_date)
        prices = (rec.input, rec.output, rec.input_cached, rec.to_date)
        if key in seen:
            old = seen[key]
            if (old.input, old.output, old.input_cached, old.to_date) != prices:
                raise fail(
                    path,
                    None,
                    "models",
                    rec.model_id,
                    "two different prices for one model and from_date",
                )
            continue
        seen[key] = rec
    return list(seen.values())


def merge_snapshots(snapshots: list[tuple[date, Path, list[PriceRecord]]]) -> list[Run]:
    """Follow each (vendor, model, from_date) record through the snapshots, oldest first."""
    open_runs: dict[tuple, Run] = {}
    done: list[Run] = []
    for snap_date, path, records in sorted(snapshots, key=lambda s: (s[0], str(s[1]))):
        for rec in _unique_per_snapshot(path, records):
            key = (rec.vendor, rec.model_id, rec.from_date)
            run = open_runs.get(key)
            if run is not None and _continues(run, rec):
                cached = (
                    rec.input_cached if rec.input_cached is not None else run.record.input_cached
                )
                open_runs[key] = Run(
                    replace(rec, input_cached=cached), run.first_seen, snap_date, path
                )
            else:
                if run is not None:
                    done.append(run)
                open_runs[key] = Run(rec, snap_date, snap_date, path)
    return done + list(open_runs.values())


def _dates(run: Run) -> tuple[date, date | None]:
    """(date, last_seen) of a run, following the rules in the module docstring."""
    rec = run.record
    end = rec.to_date - timedelta(days=1) if rec.to_date else None
    start = rec.from_date or (min(run.first_seen, end) if end else run.first_seen)
    last = min(run.last_seen, end) if end else run.last_seen
    return start, (last if last >= start else None)


def _hint_and_tier(rec: PriceRecord) -> tuple[str, str]:
    m = TIER_SUFFIX.search(rec.model_id)
    if m and f">{m.group(1)}" in rec.name.replace(" ", ""):
        return rec.model_id[: m.start()].lower(), f">{m.group(1)}"
    return rec.model_id.lower(), ""


def run_rows(runs: list[Run]) -> list[dict]:
    """token_prices rows (with `where` instead of a locator) for the text-model runs."""
    rows = []
    for run in runs:
        rec = run.record
        if IMAGE_MODEL in rec.name:
            continue
        start, last = _dates(run)
        hint, tier = _hint_and_tier(rec)
        rows.append(
            {
                "provider": slug(rec.vendor),
                "date": start,
                "last_seen": last,
                "input_usd_per_mtok": rec.input,
                "output_usd_per_mtok": rec.output,
                "cached_input_usd_per_mtok": rec.input_cached,
                "currency": "USD",
                "price_kind": "list",
                "context_tier": tier,
                "source_model_name": rec.model_id,
                "source_id": SOURCE_ID,
                "path": run.path,
                "where": f"models[id={rec.model_id}].price_history[{rec.index}]; "
                f"seen {run.first_seen}..{run.last_seen}",
                "model_hint": hint,
            }
        )
    return sorted(rows, key=lambda r: (r["source_model_name"], r["provider"], r["date"]))


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    snapshots = []
    for path in sorted((sources_dir / FOLDER).glob("*_data/*.json")):
        snap_date = date.fromisoformat(provenance(sources_dir, path).commit_date)
        snapshots.append((snap_date, path, parse_vendor_file(path)))
    rows = run_rows(merge_snapshots(snapshots))
    for row in rows:
        row["source_locator"] = locator(sources_dir, row.pop("path"), row.pop("where"))
    return {"token_prices": frame("token_prices", rows, drop=("model_id", "first_party"))}
