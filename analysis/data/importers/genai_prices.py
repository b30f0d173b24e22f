"""Token list prices from pydantic/genai-prices, USD per 1M tokens, per provider and model.

Where and when: `github.com/pydantic/genai-prices`, `prices/providers/*.yml` (36 providers) at
HEAD, commit of 2026-08-21 (`genai-prices-pydantic/2026-08-21_HEAD/`, README §1.6). Only HEAD is
in the sources, so this is a cross-section plus the few dated changes the files record.

How a row is dated. A model's `prices` is either one price set or a list of conditional price
sets. A set with `constraint: {start_date}` is a row dated at that start date (a start date after
HEAD is a price announced for the future: kept, `last_seen` null). The unconstrained set is dated
by the model's `prices_checked` (the date the maintainers last checked it) when given, else by the
HEAD commit date; when dated sets follow it, it is the earlier price, so its date is capped at the
day before the first start date (o3's 10/40 is dated 2025-06-09, not at prices_checked
2025-07-12). `last_seen` is the HEAD commit date, or the day before the next start date.
A set with a `start_time`/`end_time` constraint is a time-of-day price (DeepSeek): of the pair,
the cheaper is price_kind "off-peak", the other "peak".

Values: `input_mtok`, `output_mtok`, `cache_read_mtok` -> cached input and `cache_write_mtok` ->
cache write. Tiered prices (by
prompt length) give their `base` on the main row (context_tier ''); rows per tier (context_tier
`>200k` etc.) are made only when asked, because token_prices' primary key has no context_tier.
Audio, image, per-request and web-search prices are left out.

Left out: models marked `removed` (genai-prices itself excludes them; no date they were in force
is known); models without both an input and an output token price (embeddings, rerank,
moderation, and `:free` entries with an empty price set: no number to keep); image, audio, video
and speech models (an `output_{image,audio,video}` price, or an id naming embed/image/audio/
transcribe/tts/realtime/live/whisper/lyria/sonic).

Currency: the schema (`.schema.json`) has no currency field; every price is USD. Two providers
state conversions they made themselves: `zhipuai` (CNY list prices converted at 7.25 CNY/USD) and
part of `minimax` (legacy models, at 7.00 CNY/USD). They are kept as the USD the source quotes;
the original CNY amounts are not in the source, so `input_original_per_mtok` stays null.

Provider = the provider id slugged (`huggingface_together` -> `huggingface-together`, the HF
router route), except obvious synonyms of ids other sources use: `aws` -> `bedrock`,
`x-ai` -> `xai`.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path

import polars as pl
import yaml

from analysis.data.errors import fail
from analysis.data.importers.common import frame, locator, provenance, slug

SOURCE_ID = "genai-prices"
FOLDER = "genai-prices-pydantic"

SOURCES = [
    {
        "source_id": SOURCE_ID,
        "title": "genai-prices: LLM prices per provider (prices/providers/*.yml)",
        "publisher": "Pydantic",
        "url": "https://github.com/pydantic/genai-prices",
        "licence": "MIT",
        "retrieved": "2026-08-21",
        "notes": "HEAD only (a cross-section); USD per 1M tokens; a few dated changes via "
        "start_date constraints; zhipuai and some minimax prices converted from CNY by the source.",
    }
]

PROVIDER_SYNONYMS = {"aws": "bedrock", "x-ai": "xai"}
NON_TEXT_ID = re.compile(
    r"embed|image|audio|transcribe|tts|realtime|whisper|lyria|sonic|moderation|rerank"
    r"|(^|[-./])live([-./]|$)"
)
NON_TEXT_OUTPUT = ("output_audio_mtok", "output_image_mtok", "output_video_mtok")
FIELDS = {
    "input_mtok": "input_usd_per_mtok",
    "output_mtok": "output_usd_per_mtok",
    "cache_read_mtok": "cached_input_usd_per_mtok",
    "cache_write_mtok": "cache_write_usd_per_mtok",
}

# Bedrock ids: `global.anthropic.claude-sonnet-4-5-20250929-v1:0` -> `claude-sonnet-4-5-20250929`.
BEDROCK_SCOPE = re.compile(r"^(global|regional|us|eu|apac)\.")
VENDOR_PREFIX = re.compile(
    r"^(amazon|anthropic|meta|mistral|deepseek|google|openai|qwen|nvidia|writer|cohere|ai21)\."
)


def model_hint(name: str) -> str:
    """Cleaned base model name: lowercase, no `org/` prefix, no `:variant` or Bedrock suffix."""
    hint = name.strip().lower().lstrip("~").rsplit("/", 1)[-1]
    hint = re.sub(r":(free|nitro|floor|online|extended|beta|thinking|exacto|batch)$", "", hint)
    hint = VENDOR_PREFIX.sub("", BEDROCK_SCOPE.sub("", hint))
    return re.sub(r"-v1$", "", re.sub(r":\d+$", "", hint))


def provider_slug(provider_id: str) -> str:
    s = slug(provider_id)
    return PROVIDER_SYNONYMS.get(s, s)


def _is_text_model(model_id: str, price_sets: list[dict]) -> bool:
    keys = {k for prices in price_sets for k in prices}
    if "input_mtok" not in keys or "output_mtok" not in keys:
        return False
    return not (keys & set(NON_TEXT_OUTPUT)) and not NON_TEXT_ID.search(model_id.lower())


def _number(path: Path, where: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise fail(path, None, where, value, "price must be a number >= 0")
    return float(value)


def _base(path: Path, where: str, value: object) -> float | None:
    """The price of a field: the number, or the `base` of a tiered price."""
    if value is None:
        return None
    if isinstance(value, dict):
        return _number(path, f"{where}.base", value.get("base"))
    return _number(path, where, value)


def _tier_starts(prices: dict) -> list[int]:
    starts = {
        t["start"] for v in prices.values() if isinstance(v, dict) for t in v.get("tiers", [])
    }
    return sorted(starts)


def _at_tier(value: object, start: int) -> object:
    """Price of a field for prompts past `start` tokens (fixed prices apply to every tier)."""
    if not isinstance(value, dict):
        return value
    price = value["base"]
    for tier in sorted(value.get("tiers", []), key=lambda t: t["start"]):
        if tier["start"] <= start:
            price = tier["price"]
    return price


def _tier_label(start: int) -> str:
    return f">{start // 1000}k" if start % 1000 == 0 else f">{start}"


def _values(path: Path, where: str, prices: dict) -> dict:
    return {col: _base(path, f"{where}.{key}", prices.get(key)) for key, col in FIELDS.items()}


def _price_sets(path: Path, where: str, prices: object) -> list[tuple[dict, dict, str]]:
    """(constraint, prices, where) for each price set of a model."""
    if isinstance(prices, dict):
        return [({}, prices, where)]
    if isinstance(prices, list):
        if not all(isinstance(p, dict) and isinstance(p.get("prices"), dict) for p in prices):
            raise fail(path, None, where, prices, "each conditional price needs a `prices` mapping")
        return [
            (p.get("constraint") or {}, p["prices"], f"{where}[{i}]") for i, p in enumerate(prices)
        ]
    raise fail(
        path, None, where, prices, "prices must be a mapping or a list of conditional prices"
    )


def _start(path: Path, where: str, constraint: dict) -> date | None:
    if "start_date" not in constraint:
        return None
    value = constraint["start_date"]
    try:
        return value if isinstance(value, date) else date.fromisoformat(str(value))
    except ValueError:
        raise fail(
            path, None, f"{where}.constraint.start_date", value, "start_date must be ISO"
        ) from None


def _checked(path: Path, model_id: str, value: object) -> date | None:
    if value is None or isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise fail(path, None, f"model {model_id}: prices_checked", value, "must be ISO") from None


def _off_peak_set(path: Path, where: str, sets: list[tuple[dict, dict, str]]) -> dict | None:
    """With time-of-day prices, the cheaper of the undated sets is the off-peak price."""
    if not any("start_time" in constraint for constraint, _, _ in sets):
        return None
    undated = [prices for constraint, prices, _ in sets if "start_date" not in constraint]
    inputs = sorted(_base(path, where, p.get("input_mtok")) or 0.0 for p in undated)
    if len(undated) != 2 or inputs[0] == inputs[1]:
        raise fail(
            path, None, where, None, "time-of-day prices must be one cheaper and one dearer set"
        )
    return min(undated, key=lambda p: _base(path, where, p.get("input_mtok")) or 0.0)


def _set_dates(
    start: date | None, starts: list[date], observed: date, head: date
) -> tuple[date, date | None]:
    """(date, last_seen) of one price set, as the module docstring says."""
    later = [d for d in starts if start is None or d > start]
    end = min(later) - timedelta(days=1) if later else None
    day = start or (min(observed, end) if end else observed)
    last = min(head, end) if end else head
    return day, (last if last >= day else None)


def _tier_rows(path: Path, base: dict, where: str, prices: dict) -> list[dict]:
    rows = []
    for tier in _tier_starts(prices):
        tiered = {k: _at_tier(v, tier) for k, v in prices.items()}
        tier_where = f"{where} tier {tier}"
        values = _values(path, tier_where, tiered)
        rows.append({**base, **values, "context_tier": _tier_label(tier), "where": tier_where})
    return rows


def _model_rows(path: Path, provider: str, model: dict, head: date, tiers: bool) -> list[dict]:
    mid, where = str(model["id"]), f"provider {provider}, model {model['id']}, prices"
    sets = _price_sets(path, where, model["prices"])
    if model.get("removed") or not _is_text_model(mid, [s[1] for s in sets]):
        return []
    observed = _checked(path, mid, model.get("prices_checked")) or head
    starts = sorted(d for c, _, w in sets if (d := _start(path, w, c)))
    off_peak = _off_peak_set(path, where, sets)
    rows = []
    for constraint, prices, set_where in sets:
        day, last = _set_dates(_start(path, set_where, constraint), starts, observed, head)
        kind = "off-peak" if prices is off_peak else ("peak" if off_peak is not None else "list")
        base = {
            "provider": provider_slug(provider),
            "date": day,
            "last_seen": last,
            "currency": "USD",
            "price_kind": "promotional" if mid.endswith(":free") else kind,
            "source_model_name": mid,
            "source_id": SOURCE_ID,
            "model_hint": model_hint(mid),
        }
        values = _values(path, set_where, prices)
        rows.append({**base, **values, "context_tier": "", "where": set_where})
        rows += _tier_rows(path, base, set_where, prices) if tiers else []
    return rows


def parse_provider_file(path: Path, head: date, tiers: bool = False) -> list[dict]:
    """token_prices rows (with `where` instead of a locator) of one `providers/<id>.yml` file.

    `head` dates prices the file does not date (no `prices_checked`): the commit date read.
    """
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        provider, models = doc["id"], doc["models"]
    except (yaml.YAMLError, KeyError, TypeError) as exc:
        raise fail(path, None, None, None, f"not a genai-prices provider file ({exc})") from None
    rows = []
    for i, model in enumerate(models):
        if not isinstance(model, dict) or "id" not in model or "prices" not in model:
            raise fail(path, None, f"models[{i}]", None, "a model needs `id` and `prices`")
        rows += _model_rows(path, provider, model, head, tiers)
    return sorted(
        rows, key=lambda r: (r["source_model_name"], r["date"], r["price_kind"], r["context_tier"])
    )


def build(sources_dir: Path, tiers: bool = False) -> dict[str, pl.DataFrame]:
    rows = []
    for path in sorted((sources_dir / FOLDER).glob("*_HEAD/prices/providers/*.yml")):
        head = date.fromisoformat(provenance(sources_dir, path).commit_date)
        for row in parse_provider_file(path, head, tiers):
            row["source_locator"] = locator(sources_dir, path, row.pop("where"))
            rows.append(row)
    rows.sort(
        key=lambda r: (
            r["provider"],
            r["source_model_name"],
            r["date"],
            r["price_kind"],
            r["context_tier"],
        )
    )
    return {"token_prices": frame("token_prices", rows, drop=("model_id", "first_party"))}
