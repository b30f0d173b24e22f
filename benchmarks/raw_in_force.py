"""USD prices listed on a date, counted straight from the raw snapshots with plain polars (no
`analysis` code), beside the count of curated prices in force in two releases.

    .venv/bin/python benchmarks/raw_in_force.py [--sources DIR] [--dates 2026-09-13 2026-11-01]
        [--versions V ...]   (a version, or the folder of a trial build: /tmp/NAME-data/V)

"Listed" on date D, per source: an entry (a key of the source's file, one price set of a
model) of the source's newest snapshot on or before D (the snapshot date is the file's dated
folder or name) with a numeric USD input or output price; where the entry states its own dates
(genai-prices `constraint.start_date`, simonw `from_date`/`to_date`), only the set whose dates
cover D. OpenRouter: its models file plus one entry per model and seller of its endpoints file
(batch variants left out), each of the newest file on or before D. Four sources that carry most token prices are read: the LiteLLM mirror (RoCry; chat
entries), OpenRouter's daily models file (sui414), simonw/llm-prices and pydantic genai-prices.
A raw entry is a key, not a resolved offer: LiteLLM lists one route under several keys (Bedrock
regions, dated aliases) that the curation makes one fact, so the raw count of a source is an
upper bound of its curated in-force count, and the two are compared per source.

The curated side: rows of `price_in_force(clean rows, D)` in USD whose `source_ids` names the
source (read from the release's token_prices.csv with polars too).
"""

from __future__ import annotations

import argparse
import json
import re
from datetime import date
from pathlib import Path

import polars as pl
import yaml

ROOT = Path(__file__).resolve().parents[1]
DATED = re.compile(r"^(\d{4}-\d{2}-\d{2})_")


def _newest(folder: Path, pattern: str, on: date) -> Path | None:
    found = []
    for p in folder.glob(pattern):
        m = DATED.match(p.name)
        if m and date.fromisoformat(m.group(1)) <= on:
            found.append((m.group(1), p))
    return max(found)[1] if found else None


def _num(v) -> float | None:
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def litellm(src: Path, on: date) -> int:
    p = _newest(src / "litellm-prices-rocry-mirror", "*_model_prices_and_context_window.json", on)
    doc = json.loads(p.read_text())
    n = 0
    for key, e in doc.items():
        if not isinstance(e, dict) or key == "sample_spec" or e.get("mode") != "chat":
            continue
        if any(
            _num(e.get(c)) is not None for c in ("input_cost_per_token", "output_cost_per_token")
        ):
            n += 1
    return n


def openrouter(src: Path, on: date) -> int:
    files = sorted((src / "openrouter-sui414").glob("*_HEAD/data/csv/models/date=*.csv"))
    files = [f for f in files if date.fromisoformat(f.stem.split("=")[1]) <= on]
    df = pl.read_csv(files[-1], infer_schema_length=0)
    price = pl.col("prompt_price").cast(pl.Float64, strict=False)
    out = pl.col("completion_price").cast(pl.Float64, strict=False)
    text = pl.col("modality").str.ends_with("->text")
    listed = df.filter(text & (price.is_not_null() | out.is_not_null()) & (price >= 0)).height
    # Endpoints (the sellers behind each model): one per model and seller slug, priced.
    ends = sorted((src / "openrouter-sui414").glob("*_HEAD/data/csv/endpoints/date=*.csv"))
    ends = [f for f in ends if date.fromisoformat(f.stem.split("=")[1]) <= on]
    if not ends:
        return listed
    e = pl.read_csv(ends[-1], infer_schema_length=0)
    ep = pl.col("price_prompt").cast(pl.Float64, strict=False)
    priced = e.filter(ep.is_not_null() & (ep >= 0) & (pl.col("variant") != "batch"))
    return listed + priced.select("model_slug", "provider_slug").unique().height


def simonw(src: Path, on: date) -> int:
    folder = _newest(src / "llm-prices-simonw", "*_data", on)
    n = 0
    for f in folder.glob("*.json"):
        for m in json.loads(f.read_text()).get("models", []):
            for h in m.get("price_history", []):
                start = date.fromisoformat(h["from_date"]) if h.get("from_date") else date.min
                end = date.fromisoformat(h["to_date"]) if h.get("to_date") else date.max
                if start <= on < end and (
                    _num(h.get("input")) is not None or _num(h.get("output")) is not None
                ):
                    n += 1
    return n


def genai(src: Path, on: date) -> int:
    head = _newest(src / "genai-prices-pydantic", "*_HEAD", on)
    n = 0
    for f in (head / "prices" / "providers").glob("*.yml"):
        for m in yaml.safe_load(f.read_text()).get("models", []):
            if m.get("removed"):
                continue
            sets = m.get("prices")
            sets = sets if isinstance(sets, list) else [{"prices": sets}]
            starts = [date.fromisoformat(str(s["constraint"]["start_date"])) for s in sets
                      if isinstance(s.get("constraint"), dict) and "start_date" in s["constraint"]]  # fmt: skip
            for s in sets:
                c = s.get("constraint") or {}
                if "start_time" in c:  # time-of-day sets: one price set listed at a time
                    continue
                start = date.fromisoformat(str(c["start_date"])) if "start_date" in c else date.min
                later = [d for d in starts if d > start]
                end = min(later) if later else date.max
                p = s.get("prices") or {}
                base = lambda v: v.get("base") if isinstance(v, dict) else v  # noqa: E731
                priced = any(
                    _num(base(p.get(k))) is not None for k in ("input_mtok", "output_mtok")
                )
                if start <= on < end and priced:
                    n += 1
    return n


RAW = {
    "litellm-rocry": litellm,
    "openrouter-sui414": openrouter,
    "simonw-llm-prices": simonw,
    "genai-prices": genai,
}


def folder(version: str) -> Path:
    """A release's folder, or a trial build's folder given as a path (`/tmp/NAME-data/V`)."""
    return Path(version) if "/" in version else ROOT / "data" / version


def curated(version: str, on: date) -> tuple[int, dict[str, int]]:
    tp = pl.read_csv(
        folder(version) / "token_prices.csv", try_parse_dates=True, infer_schema_length=0
    ).with_columns(pl.col("valid_from", "valid_to").str.to_date())
    clean = tp.filter(pl.col("flags").is_null() & pl.col("valid_from").is_not_null())
    key = ["model_id", "provider", "price_kind", "context_tier", "quantization", "offer", "region", "currency"]  # fmt: skip
    started = clean.filter(pl.col("valid_from") <= on)
    latest = pl.col("valid_from") == pl.col("valid_from").max().over(key)
    live = started.filter(
        pl.when(pl.col("valid_to").is_not_null()).then(pl.col("valid_to") >= on).otherwise(latest)
    ).filter(pl.col("currency") == "USD")
    per = {s: live.filter(pl.col("source_ids").str.contains(s, literal=True)).height for s in RAW}
    return live.height, per


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sources", default="/work/shared/sources")
    ap.add_argument("--dates", nargs="+", default=["2026-09-13", "2026-11-01"])
    ap.add_argument("--versions", nargs="+", default=["2026-12-01.2", "2026-12-01.3"])
    args = ap.parse_args()
    src = Path(args.sources)
    for text in args.dates:
        on = date.fromisoformat(text)
        raw = {s: f(src, on) for s, f in RAW.items()}
        print(f"{on}: raw listed entries {sum(raw.values())} ({raw})")
        for v in args.versions:
            total, per = curated(v, on)
            print(f"  {v}: curated USD prices in force {total}; naming each source {per}")


if __name__ == "__main__":
    main()
