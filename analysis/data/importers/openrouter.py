"""Token list prices on OpenRouter, from sui414/openrouter-pricing-data (daily scrapes).

Where and when: `github.com/sui414/openrouter-pricing-data` at HEAD, commit of 2026-08-08
(`openrouter-sui414/2026-08-08_HEAD/data/csv/`, README §1.7); scrapes of 2026-07-17 and 2026-08-08.

Two files give rows:
- `models/date=<d>.csv`, one row per model of OpenRouter's public model list (`/api/v1/models`):
  `id` (`<author>/<slug>[:<variant>]`), `model_slug`, `variant` (standard / free / batch /
  thinking), `modality` (`<inputs>-><outputs>`), and `prompt_price`, `completion_price`,
  `cache_read_price`, `cache_write_price` in USD per token (x 1e6 here). This is the price OpenRouter lists for the
  model: provider `openrouter`, one row per model and scrape date.
- `endpoints/date=2026-08-08.csv`, one row per upstream provider endpoint of a model:
  `provider_slug` (e.g. `deepinfra`, `together`, `google-vertex/europe`), `provider_region`,
  `price_prompt`, `price_completion`, `price_cache_read`, `price_cache_write` (USD per token), `discount` (share off,
  already applied to the prices: DeepSeek V3.2 on baidu 0.2072 = 0.28 x (1 - 0.26)),
  `quantization` (fp8, bf16, fp4, int4, ..., or `unknown`), plus latency and throughput. These
  are the per-provider list prices of one model: provider = the upstream provider slug
  (`amazon-bedrock` -> `bedrock`, `/` -> `-`; the build maps it to the seller's canonical id,
  `analysis/data/providers.py`), quantization = the stated precision lowercased (`unknown` and empty
  are null). Endpoints exist only for 2026-08-08.

Rules. Prices are converted with exact decimal arithmetic (no float noise from x 1e6).
`free` variants (price 0) are price_kind "promotional"; endpoints with `discount` > 0 are
"promotional" too (the list price before the discount is not in the file); a negative discount
(one endpoint: xiaomi/mimo-v2.5-pro on streamlake, -0.2) is a surcharge and stays "list". `batch` variants are
the batch price of the same model (and provider): they fill the batch columns of its standard
row. `thinking` variants keep their own row. Where one provider has several endpoints for one
model (Azure swedencentral, Bedrock eu-west-1 cost ~10% more than the default region), the
cheapest endpoint is kept, with its own quantization. OpenRouter's own listing (the models file)
states no precision: quantization is null there.

Left out: router pseudo-models priced -1 (`openrouter/auto`, price set per request); floating
aliases (`~anthropic/claude-opus-latest`); models whose output is not text only (image, audio);
endpoints of models absent from the same day's model list (all embedding, rerank, image, video
and speech models). The AA intelligence/coding/agentic columns are benchmark scores, not model
metadata, and are not imported. `effective_pricing/` is not imported: its
`effective_input_price`/`effective_output_price` are usage-weighted realised prices after cache
hits (Claude Sonnet 5 on Anthropic: 0.50 effective vs 2.00 list input at an 86% cache-hit rate;
0 where an endpoint served no tokens), not prices a buyer is quoted; token_prices has no price
kind for them. `ornn_token_index.csv` is a lab-level index (anthropic, google, openai,
deepseek), not the price of any model. The GPU files belong to the GPU-price importer.
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.importers.common import MODEL_INFO_SCHEMA, frame, locator, slug
from analysis.data.importers.genai_prices import model_hint

SOURCE_ID = "openrouter-sui414"
FOLDER = "openrouter-sui414"
PER_MILLION = Decimal(1_000_000)

SOURCES = [
    {
        "source_id": SOURCE_ID,
        "title": "OpenRouter pricing data: daily scrapes of OpenRouter's public APIs",
        "publisher": "sui414 (github.com/sui414/openrouter-pricing-data)",
        "url": "https://github.com/sui414/openrouter-pricing-data",
        "licence": "none stated",
        "retrieved": "2026-08-08",
        "notes": "Model list 2026-07-17 and 2026-08-08 (OpenRouter's price), provider endpoints "
        "2026-08-08 (per-provider prices); USD per token in the files.",
    }
]

MODEL_COLUMNS = (
    "scrape_date",
    "id",
    "model_slug",
    "variant",
    "modality",
    "prompt_price",
    "completion_price",
)
ENDPOINT_COLUMNS = (
    "scrape_date",
    "model_slug",
    "variant",
    "provider_slug",
    "price_prompt",
    "price_completion",
    "discount",
    "quantization",
)
UNSTATED_PRECISION = {"", "unknown"}
PRECISION = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
PROVIDER_SYNONYMS = {"amazon-bedrock": "bedrock"}


@dataclass(frozen=True)
class Row:
    """One CSV data row: 1-based number (header not counted) and its fields."""

    number: int
    fields: dict[str, str]


def _read(path: Path, required: tuple[str, ...]) -> list[Row]:
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in required if c not in (reader.fieldnames or [])]
        if missing:
            raise fail(path, None, missing[0], None, "required column is missing")
        return [Row(i, rec) for i, rec in enumerate(reader, start=1)]


def _per_mtok(path: Path, row: Row, column: str, required: bool = False) -> float | None:
    """USD per token -> USD per 1M tokens, exactly; '' is null (an error where required)."""
    text = (row.fields.get(column) or "").strip()
    if not text:
        if required:
            raise fail(path, row.number, column, text, "price is required")
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise fail(path, row.number, column, text, "price must be a number") from None
    if value < 0:
        raise fail(path, row.number, column, text, "price must be >= 0")
    return float(value * PER_MILLION)


def _day(path: Path, row: Row) -> date:
    text = row.fields["scrape_date"]
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise fail(path, row.number, "scrape_date", text, "must be an ISO date") from None


def _text_only(modality: str) -> bool:
    return modality.rsplit("->", 1)[-1].strip() == "text"


def _is_priced_model(row: Row) -> bool:
    """Not a router pseudo-model (price -1) nor a floating `~...-latest` alias."""
    f = row.fields
    return not f["id"].startswith("~") and "-1" not in (
        f["prompt_price"].strip(),
        f["completion_price"].strip(),
    )


def text_models(path: Path) -> set[tuple[str, str]]:
    """(model_slug, variant) of the priced text-output models in one models CSV."""
    rows = _read(path, MODEL_COLUMNS)
    return {
        (r.fields["model_slug"], r.fields["variant"])
        for r in rows
        if _is_priced_model(r) and _text_only(r.fields["modality"])
    }


def _quantization(path: Path, row: Row) -> str | None:
    """The endpoint's stated precision, lowercased; None where the file says `unknown` or nothing."""
    text = (row.fields.get("quantization") or "").strip().lower()
    if text in UNSTATED_PRECISION:
        return None
    if not PRECISION.match(text):
        raise fail(path, row.number, "quantization", text, "must be a precision such as fp8")
    return text


def _row(
    path: Path,
    row: Row,
    provider: str,
    name: str,
    kind: str,
    prices: tuple[str, str, str, str],
    quantization: str | None = None,
) -> dict:
    input_col, output_col, cached_col, write_col = prices
    return {
        "provider": provider,
        "date": _day(path, row),
        "last_seen": _day(path, row),
        "input_usd_per_mtok": _per_mtok(path, row, input_col, required=True),
        "output_usd_per_mtok": _per_mtok(path, row, output_col, required=True),
        "cached_input_usd_per_mtok": _per_mtok(path, row, cached_col),
        "cache_write_usd_per_mtok": _per_mtok(path, row, write_col),
        "currency": "USD",
        "price_kind": kind,
        "context_tier": "",
        "quantization": quantization,
        "source_model_name": name,
        "source_id": SOURCE_ID,
        "where": f"row {row.number}",
        "model_hint": model_hint(name),
    }


def _merge_batch(rows: dict[tuple, dict], batch: list[tuple[tuple, dict]]) -> list[dict]:
    """Put each batch price on the standard row with the same key; unmatched batch rows stay,
    as price_kind `batch-only` (no standard price: they never end a standard spell)."""
    out = dict(rows)
    for key, b in batch:
        target = out.get(key)
        if target is None:
            # An endpoint with only a batch price: its own kind, never a standard price.
            target = out[key] = {**b, "input_usd_per_mtok": None, "output_usd_per_mtok": None}
            target["cached_input_usd_per_mtok"] = target["cache_write_usd_per_mtok"] = None
            target["price_kind"] = "batch-only"
        else:
            target["where"] += f" (batch: {b['where']})"
        target["batch_input_usd_per_mtok"] = b["input_usd_per_mtok"]
        target["batch_output_usd_per_mtok"] = b["output_usd_per_mtok"]
    return list(out.values())


def _variant_name(model_slug: str, variant: str) -> str:
    return model_slug if variant in ("standard", "batch") else f"{model_slug}:{variant}"


def parse_models_csv(path: Path) -> list[dict]:
    """OpenRouter's own price of each priced text model (rows with `where`, not a locator)."""
    prices = ("prompt_price", "completion_price", "cache_read_price", "cache_write_price")
    rows: dict[tuple, dict] = {}
    batch: list[tuple[tuple, dict]] = []
    for r in _read(path, MODEL_COLUMNS):
        if not (_is_priced_model(r) and _text_only(r.fields["modality"])):
            continue
        variant = r.fields["variant"]
        name = _variant_name(r.fields["model_slug"], variant)
        kind = "promotional" if variant == "free" else "list"
        row = _row(path, r, "openrouter", name, kind, prices)
        key = (name, row["date"])
        if variant == "batch":
            batch.append((key, row))
        elif key in rows:
            raise fail(path, r.number, "id", r.fields["id"], "one model listed twice on one date")
        else:
            rows[key] = row
    return sorted(_merge_batch(rows, batch), key=lambda x: (x["source_model_name"], x["date"]))


def provider_slug(openrouter_slug: str) -> str:
    base, _, rest = openrouter_slug.partition("/")
    return slug("/".join(filter(None, [PROVIDER_SYNONYMS.get(base, base), rest])))


def _cheaper(a: dict, b: dict) -> dict:
    return min(a, b, key=lambda x: (x["input_usd_per_mtok"], x["output_usd_per_mtok"]))


def parse_endpoints_csv(path: Path, text: set[tuple[str, str]]) -> list[dict]:
    """Per-provider prices of the text models in `text` (from `text_models` of the same day)."""
    prices = ("price_prompt", "price_completion", "price_cache_read", "price_cache_write")
    rows: dict[tuple, dict] = {}
    batch: dict[tuple, dict] = {}
    for r in _read(path, ENDPOINT_COLUMNS):
        f = r.fields
        if (f["model_slug"], f["variant"]) not in text:
            continue
        discount = _discount(path, r)
        kind = "promotional" if f["variant"] == "free" or discount > 0 else "list"
        name = _variant_name(f["model_slug"], f["variant"])
        provider = provider_slug(f["provider_slug"])
        row = _row(path, r, provider, name, kind, prices, _quantization(path, r))
        key = (name, row["provider"], row["date"])
        target = batch if f["variant"] == "batch" else rows
        target[key] = _cheaper(target[key], row) if key in target else row
    merged = _merge_batch(rows, list(batch.items()))
    return sorted(
        merged, key=lambda x: (x["source_model_name"], x["provider"], x["date"], x["price_kind"])
    )


def _discount(path: Path, row: Row) -> Decimal:
    text = (row.fields.get("discount") or "0").strip() or "0"
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise fail(path, row.number, "discount", text, "discount must be a number") from None
    if not -1 < value < 1:
        raise fail(path, row.number, "discount", text, "discount must be in (-1, 1)")
    return value


def _date_of(path: Path) -> str:
    """`date=2026-08-08.csv` -> `2026-08-08`."""
    return path.stem.removeprefix("date=")


def _reasoning(path: Path, row: Row) -> bool | None:
    """A reasoning model by OpenRouter's `headliner_json`: its `reasoning` block says reasoning
    is mandatory (it always thinks before answering). Anything else is not a statement: the
    file writes `mandatory: false` for o1 and o3, which always reason (None)."""
    text = (row.fields.get("headliner_json") or "").strip()
    if not text:
        return None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        raise fail(path, row.number, "headliner_json", text[:40], "must be JSON") from None
    block = doc.get("reasoning")
    return True if isinstance(block, dict) and block.get("mandatory") is True else None


def parse_model_info(path: Path) -> list[dict]:
    """What the model list says about each model: display name (without the `Author: ` prefix),
    author (the developer's OpenRouter id), the date OpenRouter listed it (`created_at`; a
    listing date, used as a release date only where no other source dates the release) and
    whether it reasons. One row per `model_slug` (variants share it)."""
    out: dict[str, dict] = {}
    for r in _read(path, (*MODEL_COLUMNS, "name", "author", "created_at")):
        f = r.fields
        if f["id"].startswith("~") or f["model_slug"] in out:
            continue
        name = f["name"].split(": ", 1)[-1].removesuffix(" (free)").strip()
        created = f["created_at"].strip()[:10]
        try:
            listed = date.fromisoformat(created) if created else None
        except ValueError:
            raise fail(
                path, r.number, "created_at", f["created_at"], "must be an ISO timestamp"
            ) from None
        out[f["model_slug"]] = {
            "source_id": SOURCE_ID,
            "source_model_name": f["model_slug"],
            "model_hint": model_hint(f["model_slug"]),
            "name": name or f["model_slug"],
            "organization": f["author"].strip() or None,
            "release_date": listed,
            "open_weights": None,
            "parameters_b": None,
            "active_parameters_b": None,
            "reasoning": _reasoning(path, r),
            "where": f"row {r.number}",
        }
    return list(out.values())


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    csv_dir = next((sources_dir / FOLDER).glob("*_HEAD/data/csv"))
    model_files = {_date_of(p): p for p in sorted(csv_dir.glob("models/date=*.csv"))}
    found: list[tuple[Path, dict]] = []
    for path in model_files.values():
        found += [(path, row) for row in parse_models_csv(path)]
    for path in sorted(csv_dir.glob("endpoints/date=*.csv")):
        models = model_files.get(_date_of(path))
        if models is None:
            raise fail(path, None, None, None, "endpoints need the model list of the same date")
        found += [(path, row) for row in parse_endpoints_csv(path, text_models(models))]
    rows = []
    for path, row in found:
        row["source_locator"] = locator(sources_dir, path, row.pop("where"))
        rows.append(row)
    rows.sort(key=lambda r: (r["provider"], r["source_model_name"], r["date"], r["price_kind"]))
    info: dict[str, dict] = {}
    for path in sorted(model_files.values(), reverse=True):  # the newest list first
        for row in parse_model_info(path):
            if row["source_model_name"] not in info:
                row["source_locator"] = locator(sources_dir, path, row.pop("where"))
                info[row["source_model_name"]] = row
    return {
        "token_prices": frame("token_prices", rows, drop=("model_id", "first_party")),
        "model_info": pl.DataFrame(
            sorted(info.values(), key=lambda r: r["source_model_name"]), schema=MODEL_INFO_SCHEMA
        ),
    }
