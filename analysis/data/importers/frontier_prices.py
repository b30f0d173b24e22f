"""Dated frontier price tables of September-October 2026: Claude 5.x, GPT-6 / GPT-5.6, Gemini 3.x.

Where and when (sources README, Part II §1.2), folder `frontier-price-notes-2026-09/`. All four
files are **index copies** (commit dates unknown; content dates in the file names) and all are
**secondary**: app developers' transcriptions of the vendors' pricing pages, each citing the page.
Every sources row and locator says whose copy it is. USD per 1M tokens throughout.

- `wangyufeng0615/aimeter` `docs/pricing.md` (MIT; 005ad256), "Updated on 2026-09-23": a table of
  input / output / cache read / cache write for Claude Fable/Mythos 5.1, Opus 5.5, Sonnet 5,
  GPT-6 Astra/Sol/Luna, GPT-5.6 Sol/Terra/Luna. Rows dated 2026-09-23, kind `list`, except what
  its notes say (`NOTES`, each quote checked against the file): the "August 21 Sol promotion" makes
  GPT-5.6 Sol's 4/20 `promotional` from 2026-08-21, and "pre-August-21 usage retains $5/$30" is its
  earlier list price, dated 2026-08-20 (the last day it applied). The notes state the >272K rule
  for GPT models as multipliers only (2x input, 1.5x output): no tier rows are derived from it.
- `yologdev/yoagent` `src/provider/prices.json` (MIT; 13008e13): per model input, output,
  cache_read, with a `source` URL and a `verified` date (2026-08-19 .. 2026-10-07); each row is
  dated by its `verified` day. `tiers` (`above_prompt_tokens` 272000) give `>272k` rows. gpt-5.5's
  >272K cache-read rate is marked UNVERIFIED in its note: left empty. Decision-API entries
  (Cloudflare Clef, OpenAI Decisions, TypeSafe Jev: output "recorded as 0", not a price) are left
  out.
- `api-evangelist/gemini` `plans/gemini-plans-pricing.yml` (Apache-2.0; 3a1090a4, generated
  2026-09-20) and `api-evangelist/deepmind` `plans/deepmind-plans-pricing.yml` (47a9772b,
  generated 2026-10-07): plans quoted verbatim from ai.google.dev/gemini-api/docs/pricing. A model
  with both an `input` and an `output` plan per 1M tokens gives rows: `$0.75 through December 31,
  2026.` is a temporary price (`promotional`, dated by `generated`, its `stated_end` the "through"
  date), and its overage `$1.50 starting
  January 1, 2027.` the list price announced from that day (no `last_seen`: not yet in force);
  `$2.00, prompts <= 200k tokens` with overage `$4.00, prompts > 200k tokens` is the base price and
  a `>200k` tier. Models with only one side quoted (Gemini 2.5 Pro, 2.5 Flash, 2.5 Flash-Lite),
  image, video, audio, embedding, grounding and free-only plans are left out; an overage naming a
  modality (`$1.00 (audio)`) is not a context tier and is ignored.

Cache writes (`cache_write_usd_per_mtok`): aimeter's "Cache write" cell (the `(5m)` rate where a
cell states a 5-minute and a 1-hour write: the default lifetime, as LiteLLM's
`cache_creation_input_token_cost`), yoagent's `cache_write` (its notes: the 5-minute rate). The
Gemini plans state none. Long-context tier rows need
`context_tier` in the token_prices key; under a key without it
they are set aside (`new_sources.fit_token_price_key`).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import yaml

from analysis.data.errors import fail
from analysis.data.importers.common import frame, locator
from analysis.data.importers.new_sources import file_date, fit_token_price_key, number

FOLDER = "frontier-price-notes-2026-09"
AIMETER, YOAGENT = "aimeter-pricing", "yoagent-prices"
GEMINI, DEEPMIND = "api-evangelist-gemini-pricing", "api-evangelist-deepmind-pricing"

SOURCES = [
    {
        "source_id": AIMETER,
        "title": "aimeter docs/pricing.md: Claude and GPT API prices, updated 2026-09-23",
        "publisher": "wangyufeng0615/aimeter (transcribing Anthropic's and OpenAI's pages)",
        "url": "https://github.com/wangyufeng0615/aimeter",
        "licence": "MIT",
        "retrieved": "2026-09-23",
        "notes": "Secondary copy (index transcription of commit 005ad256). Long-context rule "
        "(>272K: 2x input, 1.5x output) stated as a multiplier only; GPT-5.6 Sol 4/20 is the "
        "August 21 promotion (earlier $5/$30).",
    },
    {
        "source_id": YOAGENT,
        "title": "yoagent src/provider/prices.json: model prices with source and verified date",
        "publisher": "yologdev/yoagent (transcribing vendors' pricing pages)",
        "url": "https://github.com/yologdev/yoagent",
        "licence": "MIT",
        "retrieved": "2026-10-07",
        "notes": "Secondary copy (index transcription of commit 13008e13, re-serialised JSON). "
        "Rows dated by each entry's verified date; >272K tiers kept; decision-API entries out.",
    },
    {
        "source_id": GEMINI,
        "title": "Gemini API pricing plans, harvested from ai.google.dev (gemini-plans-pricing.yml)",
        "publisher": "api-evangelist/gemini (quoting Google's pricing page)",
        "url": "https://github.com/api-evangelist/gemini",
        "licence": "Apache-2.0",
        "retrieved": "2026-09-20",
        "notes": "Secondary copy (index transcription of commit 3a1090a4); price_text quoted "
        "verbatim from the page on 2026-09-20. Gemini 3.8 Flash $0.75/$3.75 through 2026-12-31, "
        "$1.50/$7.50 from 2027-01-01.",
    },
    {
        "source_id": DEEPMIND,
        "title": "Gemini API pricing plans, harvested from ai.google.dev (deepmind-plans-pricing.yml)",
        "publisher": "api-evangelist/deepmind (quoting Google's pricing page)",
        "url": "https://github.com/api-evangelist/deepmind",
        "licence": "Apache-2.0",
        "retrieved": "2026-10-07",
        "notes": "Secondary copy (index transcription of commit 47a9772b); the same page re-read "
        "on 2026-10-07.",
    },
]


@dataclass(frozen=True)
class Note:
    """What a note under aimeter's table says about one row, and the words it says it with."""

    model: str
    quote: str
    promotional_from: str
    earlier: tuple[float, float]  # the list price before the promotion (input, output)


NOTES = [
    Note("GPT-5.6 Sol", "pre-August-21 usage retains $5/$30", "2026-08-21", (5.0, 30.0)),
]


def _row(
    provider: str, model: str, day: dt.date, last: dt.date | None, kind: str, **prices
) -> dict:
    return {
        "provider": provider,
        "date": day,
        "last_seen": last,
        "input_usd_per_mtok": prices.get("input"),
        "output_usd_per_mtok": prices.get("output"),
        "cached_input_usd_per_mtok": prices.get("cached"),
        "cache_write_usd_per_mtok": prices.get("cache_write"),
        "currency": "USD",
        "price_kind": kind,
        "stated_end": prices.get("stated_end"),
        "context_tier": prices.get("tier", ""),
        "source_model_name": model,
        "model_hint": model,
        "where": prices["where"],
    }


def _provider(path: Path, where: str, model: str) -> str:
    name = model.lower()
    if name.startswith("claude"):
        return "anthropic"
    if name.startswith("gpt"):
        return "openai"
    raise fail(path, None, where, model, "model of no known vendor (Claude, GPT)")


# --- aimeter ----------------------------------------------------------------------------------

_CELL = re.compile(r"^\s*(\d+(?:\.\d+)?)")


def parse_aimeter(path: Path) -> list[dict]:
    text = path.read_text(encoding="utf-8")
    m = re.search(r"Updated on (\d{4}-\d{2}-\d{2})", text)
    if m is None or dt.date.fromisoformat(m.group(1)) != file_date(path):
        raise fail(path, None, "Updated on", m and m.group(1), "must state the file name's date")
    day = dt.date.fromisoformat(m.group(1))
    lines = text.splitlines()
    header = next((n for n, line in enumerate(lines, 1) if line.startswith("| Model |")), None)
    if header is None or "| Input | Output | Cache read |" not in lines[header - 1]:
        raise fail(
            path, None, "table", None, "expected | Model | Input | Output | Cache read | ..."
        )
    writes = lines[header - 1].startswith("| Model | Input | Output | Cache read | Cache write |")
    rows = []
    for n in range(header + 2, len(lines) + 1):
        line = lines[n - 1]
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        model = cells[0]
        values = []
        for col, cell in zip(("Input", "Output", "Cache read"), cells[1:4], strict=True):
            v = _CELL.match(cell)
            if v is None:
                raise fail(path, n, col, cell, "must start with a number (USD per 1M tokens)")
            values.append(float(v.group(1)))
        write = _cache_write(path, n, cells[4] if len(cells) > 4 else "") if writes else None
        where = f"line {n} ({model})"
        prov = _provider(path, where, model)
        rows.append(_row(prov, model, day, day, "list", input=values[0], output=values[1],
                         cached=values[2], cache_write=write, where=where))  # fmt: skip
    if not rows:
        raise fail(path, header, "table", None, "the price table has no rows")
    return _apply_notes(path, text, rows)


_FIVE_MINUTES = re.compile(r"(\d+(?:\.\d+)?) \(5m\)")
_BARE = re.compile(r"^(\d+(?:\.\d+)?)$")


def _cache_write(path: Path, n: int, cell: str) -> float:
    """A "Cache write" cell: a bare number, or the `(5m)` one of "5 (5m), 8 (1h)"."""
    v = _FIVE_MINUTES.search(cell) or _BARE.match(cell)
    if v is None:
        raise fail(path, n, "Cache write", cell, "must be a number or state a (5m) rate")
    return float(v.group(1))


def _apply_notes(path: Path, text: str, rows: list[dict]) -> list[dict]:
    lines = text.splitlines()
    for note in NOTES:
        n = next((i for i, line in enumerate(lines, 1) if note.quote in line), None)
        if n is None:
            raise fail(path, None, "notes", note.quote, "the note this reading relies on is gone")
        row = next((r for r in rows if r["source_model_name"] == note.model), None)
        if row is None:
            raise fail(path, None, "table", note.model, "a note names a model the table lacks")
        start = dt.date.fromisoformat(note.promotional_from)
        row.update(price_kind="promotional", date=start, where=f"{row['where']}; note line {n}")
        before = start - dt.timedelta(days=1)
        rows.append(_row(row["provider"], note.model, before, before, "list",
                         input=note.earlier[0], output=note.earlier[1], where=f"note line {n}"))  # fmt: skip
    return rows


# --- yoagent ----------------------------------------------------------------------------------

_UNVERIFIED = re.compile(r">(\d+)K cache_read \(\$[\d.]+\) is UNVERIFIED")


def parse_yoagent(path: Path) -> list[dict]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise fail(path, None, None, None, f"not valid JSON: {e}") from None
    providers = doc.get("providers") if isinstance(doc, dict) else None
    if not isinstance(providers, dict):
        raise fail(path, None, "providers", None, "expected providers -> models")
    rows = []
    for provider, models in providers.items():
        for model, spec in models.items():
            where = f"providers.{provider}.{model}"
            note = spec.get("note") or ""
            if "decision model" in note.lower():
                continue  # priced per evaluation; output "recorded as 0" is not a price
            day = _verified(path, where, spec.get("verified"))
            base = {"where": where}
            pairs = ("input", "input"), ("output", "output"), ("cache_read", "cached")
            for key, col in (*pairs, ("cache_write", "cache_write")):
                base[col] = number(
                    path, None, f"{where}.{key}", spec.get(key), allow_none=key.startswith("cache")
                )
            rows.append(_row(provider, model, day, day, "list", **base))
            for i, tier in enumerate(spec.get("tiers") or []):
                rows.append(_tier(path, f"{where}.tiers[{i}]", provider, model, day, tier, note))
    return rows


def _verified(path: Path, where: str, text: object) -> dt.date:
    try:
        return dt.date.fromisoformat(str(text))
    except ValueError:
        raise fail(path, None, f"{where}.verified", text, "must be an ISO date") from None


def _tier(path: Path, where: str, provider: str, model: str, day, tier: dict, note: str) -> dict:
    above = tier.get("above_prompt_tokens")
    if not isinstance(above, int) or above <= 0 or above % 1000:
        raise fail(path, None, f"{where}.above_prompt_tokens", above, "must be whole thousands")
    label = f">{above // 1000}k"
    unverified = any(int(k) * 1000 == above for k in _UNVERIFIED.findall(note))
    prices = {
        "input": number(path, None, f"{where}.input", tier.get("input"), allow_none=False),
        "output": number(path, None, f"{where}.output", tier.get("output"), allow_none=False),
        "cached": None
        if unverified
        else number(path, None, f"{where}.cache_read", tier.get("cache_read")),
        "cache_write": number(path, None, f"{where}.cache_write", tier.get("cache_write")),
    }
    return _row(provider, model, day, day, "list", tier=label, where=where, **prices)


# --- api-evangelist plans ---------------------------------------------------------------------

_PRICE = re.compile(r"^\$(\d+(?:\.\d+)?)(.*)$")
_THROUGH = re.compile(r"^ through (\w+ \d{1,2}, \d{4})\.?$")
_STARTING = re.compile(r"^\$(\d+(?:\.\d+)?) starting (\w+ \d{1,2}, \d{4})\.?$")
_UP_TO = re.compile(r"^, prompts <= (\d+)k tokens$")
_ABOVE = re.compile(r"^\$(\d+(?:\.\d+)?), prompts > (\d+)k(?: tokens)?$")
_MODALITY = re.compile(r"^ \([a-z /]+\)$")
_SIDE = re.compile(r"^(?P<model>.+?) (?P<side>input|output)(?: \(paid\))?$")


def _long_date(path: Path, where: str, text: str) -> dt.date:
    try:
        return dt.datetime.strptime(text, "%B %d, %Y").date()
    except ValueError:
        raise fail(path, None, where, text, "must be a date like January 1, 2027") from None


def _plan_price(path: Path, where: str, plan: dict) -> dict:
    """{price, through, scheduled: (price, date) | None, tier: (label, price) | None}."""
    text = str(plan.get("price_text", ""))
    m = _PRICE.match(text)
    if m is None:
        raise fail(path, None, f"{where}.price_text", text, "must start with $<number>")
    price = float(m.group(1))
    if plan.get("price") is not None and float(plan["price"]) != price:
        raise fail(path, None, f"{where}.price", plan["price"], f"price_text says {price}")
    rest, overage = m.group(2), str(plan.get("overage") or "")
    out = {"price": price, "through": None, "scheduled": None, "tier": None}
    if t := _THROUGH.match(rest):
        out["through"] = _long_date(path, f"{where}.price_text", t.group(1))
    elif u := _UP_TO.match(rest):
        out["tier"] = u.group(1)
    elif rest.strip(" .") and not _MODALITY.match(rest):
        raise fail(path, None, f"{where}.price_text", text, "qualifier not understood")
    if s := _STARTING.match(overage):
        out["scheduled"] = (float(s.group(1)), _long_date(path, f"{where}.overage", s.group(2)))
    elif a := _ABOVE.match(overage):
        if out["tier"] != a.group(2):
            raise fail(path, None, f"{where}.overage", overage, "tier must match the base's limit")
        out["tier"] = (f">{a.group(2)}k", float(a.group(1)))
    elif overage and not _MODALITY.match(" " + overage.split(" ", 1)[-1]):
        raise fail(path, None, f"{where}.overage", overage, "overage not understood")
    if isinstance(out["tier"], str):
        out["tier"] = None  # "<= 200k" with no dearer tier stated: the base alone
    return out


def parse_plans(path: Path) -> list[dict]:
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise fail(path, None, None, None, f"not valid YAML: {e}") from None
    generated = doc.get("generated") if isinstance(doc, dict) else None
    if str(generated) != file_date(path).isoformat():
        raise fail(path, None, "generated", generated, "must be the file name's date")
    day = file_date(path)
    sides: dict[str, dict[str, tuple[int, dict]]] = {}
    for i, plan in enumerate(doc.get("plans") or []):
        m = _SIDE.match(str(plan.get("name", "")))
        if m is None or not str(plan.get("unit", "")).startswith("per 1M tokens"):
            continue  # not a per-token input/output price (tiers, images, video, grounding ...)
        if m.group("side") in sides.setdefault(m.group("model"), {}):
            raise fail(path, None, f"plans[{i}]", plan.get("name"), "model side listed twice")
        sides[m.group("model")][m.group("side")] = (i, plan)
    rows = []
    for model, pair in sides.items():
        if set(pair) != {"input", "output"}:
            continue  # one side only: no whole price
        (i_in, p_in), (i_out, p_out) = pair["input"], pair["output"]
        a = _plan_price(path, f"plans[{i_in}]", p_in)
        b = _plan_price(path, f"plans[{i_out}]", p_out)
        rows += _plan_rows(path, model, day, a, b, f"plans[{i_in}], plans[{i_out}] ({model})")
    return rows


def _plan_rows(path: Path, model: str, day: dt.date, a: dict, b: dict, where: str) -> list[dict]:
    shape = [(x["through"], x["scheduled"] and x["scheduled"][1], bool(x["tier"])) for x in (a, b)]
    if shape[0] != shape[1]:
        raise fail(path, None, where, model, "input and output must state the same dates/tiers")
    kind = "promotional" if a["through"] else "list"
    # "$0.75 through December 31, 2026.": the promotion's end as the page states it
    rows = [_row("google", model, day, day, kind, input=a["price"], output=b["price"],
                 stated_end=a["through"], where=where)]  # fmt: skip
    if a["scheduled"]:
        start = a["scheduled"][1]
        if a["through"] and start != a["through"] + dt.timedelta(days=1):
            raise fail(path, None, where, start, "the new price must start the day after")
        rows.append(_row("google", model, start, None, "list", input=a["scheduled"][0],
                         output=b["scheduled"][0], where=f"{where} overage"))  # fmt: skip
    if a["tier"]:
        rows.append(_row("google", model, day, day, "list", input=a["tier"][1],
                         output=b["tier"][1], tier=a["tier"][0], where=f"{where} overage"))  # fmt: skip
    return rows


READERS = [
    ("*_aimeter__docs__pricing.md", AIMETER, parse_aimeter),
    ("*_yoagent__src__provider__prices.json", YOAGENT, parse_yoagent),
    ("*_api-evangelist-gemini__plans__*.yml", GEMINI, parse_plans),
    ("*_api-evangelist-deepmind__plans__*.yml", DEEPMIND, parse_plans),
]


def build(sources_dir: Path, key: list[str] | None = None) -> dict[str, pl.DataFrame]:
    sources_dir = Path(sources_dir)
    folder = sources_dir / FOLDER
    rows = []
    for pattern, source_id, read in READERS:
        for path in sorted(folder.glob(pattern)):
            for r in read(path):
                where = r.pop("where")
                loc = locator(sources_dir, path, f"{where} (secondary copy)")
                rows.append(r | {"source_id": source_id, "source_locator": loc})
    if not rows:
        raise fail(folder, None, None, None, "no frontier price file found")
    kept, _ = fit_token_price_key(rows, key)
    df = frame("token_prices", kept, drop=("model_id", "first_party"))
    return {"token_prices": df.sort("source_id", "source_model_name", "date", "context_tier")}
