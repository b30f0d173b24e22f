"""Token list prices from monthly snapshots of LiteLLM's price table, 2024-01 .. 2026-07.

Where and when. LiteLLM (github.com/BerriAI/litellm) keeps `model_prices_and_context_window.json`,
a community-maintained table of list prices per provider route, in USD per token. Its own git
history was too large to read, so two public copies of it are used (README §1.1, §1.2):

- `litellm-prices-rocry-mirror/` (source `litellm-rocry`): RoCry/llm-api-price, an hourly copy of
  the upstream file; 19 snapshots, first commit of each month plus the newest, 2025-02-06 ..
  2026-07-24.
- `litellm-prices-tokencost-mirror/*.json` (source `tokencost`): AgentOps-AI/tokencost, a
  downstream copy in LiteLLM's schema refreshed at irregular times; 18 snapshots, 2024-01-30 ..
  2025-09-01 (no commits in 2024-08, 2024-12, 2025-04).
- `litellm-prices-tokencost-mirror/*model_prices.yaml` (source `tokencost-yaml`): tokencost's
  first price file, 2024-01-01 and 2024-01-04 (byte-identical), in its own integer unit. Checked
  against list prices of the day, value / 10 is USD per 1M tokens: gpt-4 300/600 -> $30/$60,
  gpt-4-32k 600/1200 -> $60/$120, gpt-3.5-turbo 15/20 -> $1.50/$2.00, gpt-3.5-turbo-1106 10/20 ->
  $1/$2, gpt-4-1106-preview 100/300 -> $10/$30, claude-2 80/240 -> $8/$24, text-embedding-ada-002
  1 -> $0.10. The unit checks out, but the integers carry only $0.10 of resolution: of the 163
  entries the 2024-01-30 JSON repeats, 109 agree exactly and 54 differ (gemini-pro $0.20 vs $0.25,
  claude-instant-1 $1.60 vs $1.63, anyscale Llama-2-7b $0.10 vs $0.15, ...). The YAML is therefore
  kept as a source of its own, so its rounding never shows up as a price change inside the
  `tokencost` series; the analysis chooses between the two where they disagree.

A row's `date` is the date in the snapshot's file name (the commit date); there is no effective
date in the data, so a price is dated when a mirror first showed it.

What each row is. One row per (source, key, provider) and run of consecutive snapshots in which
the key shows the same price vector (input, output, cached input, batch input, batch output,
cache write): `date` = first snapshot of the run, `last_seen` = last. A changed price starts a
new row, and so does a key that comes back after missing from a snapshot (runs never bridge a
gap, so no date is claimed that no snapshot shows). Prices are USD per token x 1e6, rounded to 9
decimals to remove float noise. `cached` is `cache_read_input_token_cost`, else DeepSeek's older
name for the same price, `input_cost_per_token_cache_hit`. The cache write is
`cache_creation_input_token_cost` (the default 5-minute write; the 1-hour `_above_1hr` write is
another price, not kept). Only the base (shortest-context) price is kept
(`context_tier` ""): the `*_above_128k_tokens`/`_200k`/`_256k`/`_272k`/`_512k` tiers are skipped
because `context_tier` is not in the table's primary key, so a tier row would collide with the
base row. Priority/flex service-tier prices are skipped for the same reason.

What is left out, and why:
- `sample_spec` (schema documentation) and the mirror's `last_updated` stamp.
- Non-text models: `mode` other than chat, completion or responses (embedding, image, audio,
  rerank, moderation, search, ocr, video, realtime). `responses` is kept: it marks text models sold
  only through OpenAI's Responses API (o1-pro, o3-pro, gpt-5-pro, codex models).
- Entries without `mode`: the mode stated for the same key in the nearest snapshot of the folder
  is used; if none states one, the entry is kept unless its name marks a non-text model (embed,
  rerank, whisper, tts, dall-e, image, audio, moderation, voyage).
- Size-class price buckets (`fireworks-ai-up-to-4b`, `together-ai-7.1b-20b`, ...): not models.
- Fine-tuned routes (`ft:` names): the price of serving a customer's fine-tune, not a model's
  list price.
- Entries without both an input and an output price per token (e.g. old Vertex entries priced per
  character only).
- Entries priced 0 for both input and output: self-hosted routes (ollama, sagemaker, lemonade),
  free previews and free tiers (`:free`, `gemini/*-exp`), which are not list prices of tokens
  and break log-price analyses. Entries with one side 0 (perplexity online models) are kept as
  written.
- Entries priced above USD 1,000 per 1M tokens. The dearest genuine price in the files is o1-pro's
  $600 output; above the bound sit only unit slips: every wandb/* entry (2025-10-01 ..
  2026-07-24; DeepSeek-R1-0528 at $135,000/$540,000 where the same files list it at $8 or less
  per 1M output elsewhere), azure_ai/jais-30b-chat ($3,200/$9,710), watsonx mt0-xxl-13b and
  jais-13b-chat ($500/$2,000). Smaller slips cannot be told from real prices and are kept as
  written (perplexity pplx-*-online output "$500" in tokencost 2024-01, a per-request fee entered
  per token; watsonx granite-3-8b-instruct $200).
- Entries whose provider cannot be established (see below).

Providers. `provider` is the `litellm_provider` mapped to a clean slug (`PROVIDER_NAMES`, one dict;
every `vertex_ai-*` family is `vertex-ai`; anything else is slugged, so underscores never appear).
The tokencost snapshots of 2024-01-30 and 2024-02-05 and the YAML state no provider: there the route
prefix of the key is used when it is a provider LiteLLM names elsewhere in the folder
(`bedrock/...`, `openrouter/...`), else the provider the same key has in the nearest snapshot of the
folder that states one (ties go to the earlier snapshot). Four YAML keys no snapshot names a
provider for (text-davinci-003, text-curie-001, text-babbage-001, text-ada-001) are skipped.

`model_hint` is the key with route prefixes, region and vendor dot-prefixes, Bedrock revisions
(`-v1:0`), OpenRouter variants (`:free`, `:nitro`, ...) and Vertex version tags (`@001`) removed,
Vertex date tags turned into dated suffixes (`@20240620` -> `-20240620`), Azure's `gpt-35` spelled
`gpt-3.5`, lowercased; dated suffixes are kept because they name distinct models.

`model_info` is returned empty: the files state no release dates (`deprecation_date` is not one),
organisations or parameter counts, and `supports_reasoning` means "accepts reasoning parameters",
not "is a reasoning model".
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

import polars as pl
import yaml

from analysis.data.errors import fail
from analysis.data.importers import common
from analysis.data.importers.common import MODEL_INFO_SCHEMA

ROCRY_DIR = "litellm-prices-rocry-mirror"
TOKENCOST_DIR = "litellm-prices-tokencost-mirror"
ROCRY_JSON_GLOB = "*_model_prices_and_context_window.json"
TOKENCOST_JSON_GLOB = "*_tokencost__model_prices.json"
TOKENCOST_YAML_GLOB = "*model_prices.yaml"

SOURCES: list[dict] = [
    {
        "source_id": "litellm-rocry",
        "title": "LiteLLM model_prices_and_context_window.json, hourly mirror (RoCry/llm-api-price)",
        "publisher": "BerriAI LiteLLM community, mirrored by RoCry",
        "url": "https://github.com/RoCry/llm-api-price",
        "licence": "none stated in the mirror; upstream LiteLLM is MIT",
        "retrieved": "2026-07-24",
        "notes": "Community-maintained list prices per provider route, USD per token. No effective "
        "dates: a price is dated by the snapshot that first shows it. Monthly snapshots "
        "2025-02-06 .. 2026-07-24.",
    },
    {
        "source_id": "tokencost",
        "title": "tokencost model_prices.json (LiteLLM schema)",
        "publisher": "AgentOps-AI",
        "url": "https://github.com/AgentOps-AI/tokencost",
        "licence": "MIT",
        "retrieved": "2025-09-01",
        "notes": "Downstream copy of LiteLLM's price table refreshed at irregular times, USD per "
        "token; no snapshots in 2024-08, 2024-12, 2025-04. 2024-01-30 and 2024-02-05 state no "
        "provider (inferred from the key's route or the nearest snapshot).",
    },
    {
        "source_id": "tokencost-yaml",
        "title": "tokencost model_prices.yaml (first price file)",
        "publisher": "AgentOps-AI",
        "url": "https://github.com/AgentOps-AI/tokencost",
        "licence": "MIT",
        "retrieved": "2024-01-04",
        "notes": "Integer prices in units of USD 0.10 per 1M tokens (checked against GPT-4, "
        "GPT-4-32k, GPT-3.5-turbo and Claude 2 list prices); values are rounded or truncated "
        "to that resolution, so cheap models are imprecise.",
    },
]

# Output column -> LiteLLM field (USD per token), in the order of the price vector.
PRICE_FIELDS: dict[str, str] = {
    "input_usd_per_mtok": "input_cost_per_token",
    "output_usd_per_mtok": "output_cost_per_token",
    "cached_input_usd_per_mtok": "cache_read_input_token_cost",
    "batch_input_usd_per_mtok": "input_cost_per_token_batches",
    "batch_output_usd_per_mtok": "output_cost_per_token_batches",
    # the default (5-minute) write; `_above_1hr` and long-context writes are other prices
    "cache_write_usd_per_mtok": "cache_creation_input_token_cost",
}
CACHE_HIT_FIELD = "input_cost_per_token_cache_hit"  # DeepSeek's older name for the cache-read price
TEXT_MODES = frozenset({"chat", "completion", "responses"})
NON_TEXT_NAME = re.compile(r"embed|rerank|whisper|tts|dall-e|image|audio|moderation|voyage")
SIZE_BUCKET = re.compile(r"^(?:fireworks-ai|together-ai)-")
# Above o1-pro's $600 output, the dearest genuine price, sit only unit slips (module docstring).
MAX_PLAUSIBLE_USD_PER_MTOK = 1000.0
MIRROR_STAMP = "last_updated"  # the only key the RoCry mirror adds

# litellm_provider -> provider slug, where the slug of the name is not already the clean name.
PROVIDER_NAMES: dict[str, str] = {
    "together_ai": "together",
    "fireworks_ai": "fireworks",
    "azure_ai": "azure-ai",
    "azure_text": "azure",
    "bedrock_converse": "bedrock",
    "bedrock_mantle": "bedrock",
    "text-completion-openai": "openai",
    "gemini": "google",  # Google AI Studio
    "palm": "google",  # the PaLM API, AI Studio's predecessor
    "codestral": "mistral",  # codestral.mistral.ai
    "text-completion-codestral": "mistral",
    "cohere_chat": "cohere",
    "text-completion-inception": "inception",
    "meta_llama": "meta",
    "amazon_nova": "amazon",
    "lambda_ai": "lambda",
    "featherless_ai": "featherless",
    "vercel_ai_gateway": "vercel",
}
VERTEX_FAMILY = "vertex_ai"  # vertex_ai, vertex_ai-anthropic_models, vertex_ai-language-models, ...


@dataclass(frozen=True)
class Entry:
    """One key in one snapshot as written; prices already in USD per 1M tokens."""

    key: str
    provider: str | None  # litellm_provider as written, None where the snapshot has none
    mode: str | None
    prices: tuple[float | None, ...]  # in PRICE_FIELDS order


@dataclass(frozen=True)
class Snapshot:
    source_id: str
    path: Path
    date: date
    entries: list[Entry]


# --- parsing the public formats ---------------------------------------------------------------


def snapshot_date(path: Path) -> date:
    """The snapshot's date: the `YYYY-MM-DD_` prefix of the file name (the commit date)."""
    rule = "file name must start with the snapshot date, YYYY-MM-DD_"
    match = re.match(r"(\d{4}-\d{2}-\d{2})_", path.name)
    if match is None:
        raise fail(path, None, None, path.name, rule)
    try:
        return date.fromisoformat(match.group(1))
    except ValueError:
        raise fail(path, None, None, path.name, rule) from None


def _per_mtok(path: Path, key: str, field: str, value: object, per_mtok: float) -> float | None:
    """A price in USD per 1M tokens; `per_mtok` is what one unit of the file is worth."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise fail(path, None, f"key {key}: {field}", value, "a price must be a number")
    if value < 0:
        raise fail(path, None, f"key {key}: {field}", value, "a price must not be negative")
    return round(value * per_mtok, 9)


def _litellm_prices(path: Path, key: str, spec: dict) -> tuple[float | None, ...]:
    prices = [_per_mtok(path, key, field, spec.get(field), 1e6) for field in PRICE_FIELDS.values()]
    if prices[2] is None:
        prices[2] = _per_mtok(path, key, CACHE_HIT_FIELD, spec.get(CACHE_HIT_FIELD), 1e6)
    return tuple(prices)


def _text_or_none(path: Path, key: str, spec: dict, field: str) -> str | None:
    value = spec.get(field)
    if value is not None and not isinstance(value, str):
        raise fail(path, None, f"key {key}: {field}", value, "must be a string")
    return value or None


def read_litellm_json(path: Path) -> list[Entry]:
    """Every model entry of one LiteLLM-schema price file (`sample_spec` included), in file order."""
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise fail(path, err.lineno, None, None, f"not valid JSON: {err.msg}") from None
    if not isinstance(table, dict):
        raise fail(path, None, None, type(table).__name__, "top level must be an object of models")
    entries = []
    for key, spec in table.items():
        if key == MIRROR_STAMP and isinstance(spec, str):
            continue
        if not isinstance(spec, dict):
            raise fail(path, None, f"key {key}", spec, "a model entry must be an object")
        provider = _text_or_none(path, key, spec, "litellm_provider")
        mode = _text_or_none(path, key, spec, "mode")
        entries.append(Entry(key, provider, mode, _litellm_prices(path, key, spec)))
    return entries


def read_tokencost_yaml(path: Path) -> list[Entry]:
    """tokencost's early YAML: `key: {prompt, completion, max_prompt}`, prices in USD 0.10 per 1M."""
    try:
        table = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as err:
        raise fail(path, None, None, None, f"not valid YAML: {err}") from None
    if not isinstance(table, dict):
        raise fail(path, None, None, type(table).__name__, "top level must be a mapping of models")
    entries = []
    for key, spec in table.items():
        if not isinstance(spec, dict):
            raise fail(path, None, f"key {key}", spec, "a model entry must be a mapping")
        prompt = _per_mtok(path, str(key), "prompt", spec.get("prompt"), 0.1)
        completion = _per_mtok(path, str(key), "completion", spec.get("completion"), 0.1)
        unstated = (None,) * (len(PRICE_FIELDS) - 2)  # the YAML states input and output only
        entries.append(Entry(str(key), None, None, (prompt, completion, *unstated)))
    return entries


# --- cleaning ---------------------------------------------------------------------------------


def provider_slug(litellm_provider: str) -> str:
    """Clean provider id for a `litellm_provider` value (never contains an underscore)."""
    if litellm_provider.startswith(VERTEX_FAMILY):
        return "vertex-ai"
    return PROVIDER_NAMES.get(litellm_provider, common.slug(litellm_provider))


_REGION_PREFIX = re.compile(r"^(?:us|eu|apac|global|au|jp|ca|us-gov)\.")
_VENDOR_PREFIX = re.compile(
    r"^(anthropic|meta|mistral|amazon|cohere|ai21|qwen|moonshotai|moonshot|openai|deepseek"
    r"|google|minimax|xai|zai|nvidia|writer|twelvelabs)\.(.+)$"
)
_BARE_VERSION = re.compile(r"^[vr]\d")  # deepseek.v3.2, deepseek.r1: the vendor is the name
# claude-v2:1 is Claude 2.1 and mistral-7b-instruct-v0:2 is v0.2: versions, not Bedrock revisions
_MODEL_VERSION = re.compile(r"^(claude-v2|.*-v0):(\d+)$")
_BEDROCK_REVISION = re.compile(r"-v?\d+:\d+$")  # -v1:0, -v2:0, -1:0
_CLAUDE_REVISION = re.compile(r"^(claude-.*\d)-v\d+$")  # claude-opus-4-6-v1
_ROUTE_VARIANT = re.compile(r":(?:free|nitro|beta|extended|exacto|floor|online|thinking)$")
_REPLICATE_VERSION = re.compile(r":[0-9a-f]{32,}$")
_VERTEX_DATE = re.compile(r"@(\d{8}|\d{4})(?:-\d{3})?$")  # @20240620, @2407, @2411-001
_VERTEX_VERSION = re.compile(r"@[a-z0-9.-]+$")  # @001, @latest, @default


def _without_vendor(name: str) -> str:
    match = _VENDOR_PREFIX.match(name)
    if match is None:
        return name
    vendor, rest = match.groups()
    return f"{vendor}-{rest}" if _BARE_VERSION.match(rest) else rest


def model_hint(key: str) -> str:
    """The base model name in a LiteLLM key: `bedrock/us.anthropic.claude-3-5-sonnet-20241022-v2:0`
    -> `claude-3-5-sonnet-20241022`."""
    name = key.strip().lower().rsplit("/", 1)[-1]
    name = _without_vendor(_REGION_PREFIX.sub("", name))
    name = _MODEL_VERSION.sub(r"\1.\2", name)  # mistral-7b-instruct-v0:2 -> -v0.2
    name = _CLAUDE_REVISION.sub(r"\1", _BEDROCK_REVISION.sub("", name))
    name = _REPLICATE_VERSION.sub("", _ROUTE_VARIANT.sub("", name))
    name = _VERTEX_VERSION.sub("", _VERTEX_DATE.sub(r"-\1", name))
    if name.startswith("gpt-35-"):  # Azure's spelling
        name = "gpt-3.5-" + name.removeprefix("gpt-35-")
    return name


def skip_reason(entry: Entry) -> str | None:
    """Why an entry (provider and mode already resolved) gives no token-price row, or None."""
    name = entry.key.lower().rsplit("/", 1)[-1]
    input_price, output_price = entry.prices[0], entry.prices[1]
    checks = [
        (entry.key == "sample_spec", "schema documentation"),
        (SIZE_BUCKET.match(entry.key) is not None, "price class by model size, not a model"),
        (name.startswith("ft:"), "fine-tuned model route"),
        (entry.mode is not None and entry.mode not in TEXT_MODES, "not a text-generation model"),
        (
            entry.mode is None and NON_TEXT_NAME.search(name) is not None,
            "name marks a non-text model",
        ),
        (input_price is None or output_price is None, "no input and output price per token"),
        (input_price == 0 and output_price == 0, "zero price: self-hosted route or free tier"),
        (
            max(input_price or 0, output_price or 0) > MAX_PLAUSIBLE_USD_PER_MTOK,
            "price above USD 1,000 per 1M tokens: a unit error in the source",
        ),
        (entry.provider is None, "no provider stated or inferable"),
    ]
    return next((reason for failed, reason in checks if failed), None)


# --- filling what early snapshots leave out ---------------------------------------------------


def _nearest(stated: list[tuple[date, str]], when: date) -> str | None:
    """Value of the nearest dated statement; ties go to the earlier one."""
    if not stated:
        return None
    return min(stated, key=lambda s: (abs((s[0] - when).days), s[0]))[1]


def fill_missing(snapshots: list[Snapshot]) -> list[Snapshot]:
    """Give entries without `litellm_provider` or `mode` the key's route prefix (providers only) or
    the value the nearest snapshot states for the same key."""
    providers: dict[str, list[tuple[date, str]]] = defaultdict(list)
    modes: dict[str, list[tuple[date, str]]] = defaultdict(list)
    for snap in snapshots:
        for e in snap.entries:
            if e.provider:
                providers[e.key].append((snap.date, e.provider))
            if e.mode:
                modes[e.key].append((snap.date, e.mode))
    known = {p for stated in providers.values() for _, p in stated}
    filled = []
    for snap in snapshots:
        entries = []
        for e in snap.entries:
            route = e.key.split("/", 1)[0] if "/" in e.key else None
            provider = e.provider or (route if route in known else None)
            provider = provider or _nearest(providers[e.key], snap.date)
            mode = e.mode or _nearest(modes[e.key], snap.date)
            entries.append(replace(e, provider=provider, mode=mode))
        filled.append(replace(snap, entries=entries))
    return filled


# --- snapshots to rows ------------------------------------------------------------------------


def _snapshot_files(folder: Path, pattern: str) -> list[Path]:
    files = sorted(folder.glob(pattern))
    if not files:
        raise fail(folder, None, None, pattern, "no snapshot file matches this pattern")
    return files


def read_snapshots(sources_dir: Path) -> list[Snapshot]:
    """All snapshots of both mirrors, oldest first within each source, providers and modes filled."""
    rocry = [
        Snapshot("litellm-rocry", p, snapshot_date(p), read_litellm_json(p))
        for p in _snapshot_files(sources_dir / ROCRY_DIR, ROCRY_JSON_GLOB)
    ]
    tokencost_dir = sources_dir / TOKENCOST_DIR
    tokencost = [
        Snapshot("tokencost", p, snapshot_date(p), read_litellm_json(p))
        for p in _snapshot_files(tokencost_dir, TOKENCOST_JSON_GLOB)
    ] + [
        Snapshot("tokencost-yaml", p, snapshot_date(p), read_tokencost_yaml(p))
        for p in _snapshot_files(tokencost_dir, TOKENCOST_YAML_GLOB)
    ]
    snapshots = fill_missing(rocry) + fill_missing(tokencost)
    return sorted(snapshots, key=lambda s: (s.source_id, s.date, s.path.name))


@dataclass(frozen=True)
class _Seen:
    index: int  # position of the snapshot within its source
    snapshot: Snapshot
    prices: tuple[float | None, ...]


def price_runs(snapshots: list[Snapshot]) -> dict[tuple[str, str, str], list[list[_Seen]]]:
    """(source, key, provider) -> runs of consecutive snapshots showing one price vector."""
    seen: dict[tuple[str, str, str], list[_Seen]] = defaultdict(list)
    index_in_source: dict[str, int] = defaultdict(int)
    for snap in snapshots:
        index = index_in_source[snap.source_id]
        index_in_source[snap.source_id] += 1
        for e in snap.entries:
            if skip_reason(e) is None:
                key = (snap.source_id, e.key, provider_slug(e.provider))
                seen[key].append(_Seen(index, snap, e.prices))
    runs: dict[tuple[str, str, str], list[list[_Seen]]] = {}
    for key, sightings in seen.items():
        runs[key] = []
        for s in sightings:
            last = runs[key][-1][-1] if runs[key] else None
            if last and last.index == s.index - 1 and last.prices == s.prices:
                runs[key][-1].append(s)
            else:
                runs[key].append([s])
    return runs


def _row(sources_dir: Path, source_id: str, key: str, provider: str, run: list[_Seen]) -> dict:
    first, last = run[0], run[-1]
    prices = dict(zip(PRICE_FIELDS, first.prices, strict=True))
    return {
        "provider": provider,
        "date": first.snapshot.date,
        "last_seen": last.snapshot.date,
        **prices,
        "blended_usd_per_mtok": None,
        "blend": None,
        "currency": "USD",
        "input_original_per_mtok": prices["input_usd_per_mtok"],
        "output_original_per_mtok": prices["output_usd_per_mtok"],
        "price_kind": "list",
        "context_tier": "",
        "source_model_name": key,
        "source_id": source_id,
        "source_locator": common.locator(sources_dir, first.snapshot.path, f"key {key}"),
        "model_hint": model_hint(key),
    }


def token_price_rows(sources_dir: Path, snapshots: list[Snapshot]) -> pl.DataFrame:
    rows = [
        _row(sources_dir, source_id, key, provider, run)
        for (source_id, key, provider), runs in price_runs(snapshots).items()
        for run in runs
    ]
    out = common.frame("token_prices", rows, drop=("model_id", "first_party"))
    if "model_hint" not in out.columns:  # no rows: keep the column the contract promises
        out = out.with_columns(pl.lit(None, dtype=pl.String).alias("model_hint"))
    return out.sort(["source_id", "source_model_name", "provider", "date"])


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    """token_prices rows from both LiteLLM mirrors; model_info is empty (see module docstring)."""
    snapshots = read_snapshots(sources_dir)
    return {
        "token_prices": token_price_rows(sources_dir, snapshots),
        "model_info": pl.DataFrame(schema=MODEL_INFO_SCHEMA),
    }
