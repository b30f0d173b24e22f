"""token-tariff's curated timeline: launch and current prices of frontier and bottom-tier models.

Where and when: `github.com/Prajwalsrinvas/token-tariff` (MIT), `timeline.csv` in two versions,
2026-08-01 (90407ebd, 28 rows) and 2026-08-03 (fc458397, 42 rows), in `token-tariff-timeline/`
(sources README, Part II §1.3). Hand-curated: each row cites a `source_url`, most launch prices a
web.archive.org capture of the vendor's page, some a secondary source (TechCrunch, InfoQ, the
OpenRouter listing), as its `notes` say; every locator carries the row's `source_url`. Columns:
`model, vendor, tier (frontier|bottom|open), release_date, launch_price_in/out,
current_price_in/out` (USD per 1M), METR horizons, `aa_intel`, `aa_version`, `notes`.

What is produced:

- `token_prices`, launch prices: price kind `list`, the vendor as provider (the timeline's
  "launch price" is the vendor's), dated `release_date` (the curator's date: API availability or
  announcement, as its notes say; o3's launch price is "the first archived post-launch snapshot
  (2025-05-03)"). Base-context prices: GPT-4's launch price "is the 8K-context tier".
- `token_prices`, current prices: price kind `reported`, dated by the version read (spells over the
  two versions). "Current price is often the OpenRouter route, not the vendor list price" (the
  README): where the row's note says the price is the OpenRouter route or listing, the provider
  is `openrouter`; elsewhere the note names no seller, so the vendor is kept but the kind stays
  `reported` (a curator's report, not a list-price observation).
- `benchmark_scores`: `aa_intel` as `aa-intelligence-index` (index), dated by `aa_version`: a date,
  or `≤2026-07-05` read as 2026-07-05, the day the app's AA payload was last written
  (`data/history/2026-08-01/provenance.md`): an upper bound on its vintage. The curator took each
  model's "highest-scoring published configuration".
- `model_info`: release date and organisation (`vendor`); open weights for tier `open` (the
  timeline's "open-weights flagship" rows), unknown otherwise.

The two versions agree on every row they share; a row that differs between versions would be two
spells (prices) or, for a score with the same date, the later version's value (the curator's rule:
"a corrected figure belongs in the next one").

Left out: METR time horizons (minutes: no such unit in benchmark_scores), and
`data/history/2026-08-01/` (the curator's raw inputs: METR YAML in minutes, and an AA payload
whose vintage is uncertain; `aa-leaderboards-oolong` has AA's own dated snapshots).
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.importers.common import MODEL_INFO_SCHEMA, frame, locator
from analysis.data.importers.new_sources import (
    PRICE_VALUES,
    fit_token_price_key,
    number,
    observed_date,
    spells,
)

FOLDER = "token-tariff-timeline"
SOURCE_ID = "token-tariff"
REQUIRED = [
    "model",
    "vendor",
    "tier",
    "release_date",
    "launch_price_in",
    "launch_price_out",
    "current_price_in",
    "current_price_out",
    "aa_intel",
    "aa_version",
    "notes",
    "source_url",
]
VENDORS = {
    "OpenAI": "openai",
    "Anthropic": "anthropic",
    "Google": "google",
    "DeepSeek": "deepseek",
    "Cohere": "cohere",
    "Z.ai": "zai",
    "Moonshot AI": "moonshotai",
    "MiniMax": "minimax",
}
TIERS = {"frontier", "bottom", "open"}
OPENROUTER_NOTES = ("openrouter route", "openrouter listing")

SOURCES = [
    {
        "source_id": SOURCE_ID,
        "title": "token-tariff timeline.csv: launch vs current prices of frontier and bottom models",
        "publisher": "Prajwalsrinvas/token-tariff",
        "url": "https://github.com/Prajwalsrinvas/token-tariff",
        "licence": "MIT",
        "retrieved": "2026-08-03",
        "notes": "Hand-curated secondary table; each row cites a source_url (mostly web.archive.org "
        "captures of vendor pages). Current prices are often the OpenRouter route; AA index "
        "vintage <=2026-07-05 or 2026-08-01 per row.",
    }
]


def read_timeline(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
        if missing:
            raise fail(path, None, missing[0], None, "column missing from the header")
        records = list(reader)
    for i, rec in enumerate(records, start=1):
        if rec["vendor"] not in VENDORS:
            raise fail(path, i, "vendor", rec["vendor"], f"vendor not mapped: {sorted(VENDORS)}")
        if rec["tier"] not in TIERS:
            raise fail(path, i, "tier", rec["tier"], f"must be one of {sorted(TIERS)}")
    return records


def _date(path: Path, row: int, column: str, text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip().removeprefix("≤"))
    except ValueError:
        raise fail(
            path, row, column, text, "must be an ISO date (optionally ≤YYYY-MM-DD)"
        ) from None


def _pair(path: Path, row: int, rec: dict, prefix: str) -> tuple[float, float] | None:
    a = number(path, row, f"{prefix}_in", rec[f"{prefix}_in"])
    b = number(path, row, f"{prefix}_out", rec[f"{prefix}_out"])
    if (a is None) != (b is None):
        raise fail(path, row, f"{prefix}_in", rec[f"{prefix}_in"], "input and output go together")
    return None if a is None else (a, b)


def rows_of(path: Path, observed: dt.date) -> tuple[list[dict], list[dict], list[dict]]:
    """(token_prices, benchmark_scores, model_info) rows of one version, `where` for locators."""
    prices, scores, info = [], [], []
    for i, rec in enumerate(read_timeline(path), start=1):
        model, vendor = rec["model"].strip(), VENDORS[rec["vendor"]]
        released = _date(path, i, "release_date", rec["release_date"])
        cites = f"row {i} ({model}); cites {rec['source_url'].strip()}"
        base = {
            "source_model_name": model,
            "model_hint": model,
            "currency": "USD",
            "context_tier": "",
        }
        if launch := _pair(path, i, rec, "launch_price"):
            prices.append(
                base | _price(vendor, released, released, "list", launch, f"{cites}, launch price")
            )
        if current := _pair(path, i, rec, "current_price"):
            note = rec["notes"].lower()
            seller = "openrouter" if any(n in note for n in OPENROUTER_NOTES) else vendor
            prices.append(
                base
                | _price(seller, observed, observed, "reported", current, f"{cites}, current price")
            )
        score = number(path, i, "aa_intel", rec["aa_intel"])
        if score is not None:
            day = _date(path, i, "aa_version", rec["aa_version"])
            scores.append(
                {"benchmark": "aa-intelligence-index", "score": score, "unit": "index", "date": day}
                | {"source_model_name": model, "model_hint": model, "where": f"{cites}, aa_intel"}
            )
        info.append(
            {
                "source_model_name": model,
                "model_hint": model,
                "name": model,
                "organization": rec["vendor"],
                "release_date": released,
                "open_weights": True if rec["tier"] == "open" else None,
                "where": f"row {i} ({model})",
            }
        )
    return prices, scores, info


def _price(provider: str, day: dt.date, last: dt.date, kind: str, pair: tuple, where: str) -> dict:
    return {
        "provider": provider,
        "date": day,
        "last_seen": last,
        "input_usd_per_mtok": pair[0],
        "output_usd_per_mtok": pair[1],
        "price_kind": kind,
        "where": where,
    }


def build(sources_dir: Path, key: list[str] | None = None) -> dict[str, pl.DataFrame]:
    sources_dir = Path(sources_dir)
    paths = sorted((sources_dir / FOLDER).glob("*_timeline.csv"))
    if not paths:
        raise fail(sources_dir / FOLDER, None, None, None, "no <date>_timeline.csv")
    prices, scores, info = [], {}, {}
    for path in paths:  # oldest first: a later version's score or metadata supersedes
        p, s, m = rows_of(path, observed_date(sources_dir, path))
        loc = {"source_id": SOURCE_ID}
        for r in p:
            prices.append(r | loc | {"source_locator": locator(sources_dir, path, r.pop("where"))})
        for r in s:
            key_ = (r["source_model_name"], r["date"])
            new = r | loc | {"source_locator": locator(sources_dir, path, r.pop("where"))}
            if key_ not in scores or scores[key_]["score"] != new["score"]:
                scores[key_] = new
        for r in m:
            where = r.pop("where")
            info[r["source_model_name"]] = (
                r | loc | {"source_locator": locator(sources_dir, path, where)}
            )
    group = ("source_model_name", "provider", "price_kind", "currency", "context_tier")
    kept, _ = fit_token_price_key(spells(prices, group, PRICE_VALUES), key)
    model_info = pl.DataFrame(
        [{k: r.get(k) for k in MODEL_INFO_SCHEMA} for r in info.values()], schema=MODEL_INFO_SCHEMA
    )
    return {
        "token_prices": frame("token_prices", kept, drop=("model_id", "first_party")).sort(
            "source_model_name", "date", "price_kind"
        ),
        "benchmark_scores": frame(
            "benchmark_scores", list(scores.values()), drop=("model_id",)
        ).sort("source_model_name", "date"),
        "model_info": model_info.sort("source_model_name"),
    }
