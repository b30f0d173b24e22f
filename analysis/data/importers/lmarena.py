"""LMArena (Chatbot Arena): Elo history, MT-bench and MMLU, API prices, organisation and licence.

Where and when: two public GitHub repositories, read from their git history (one file per commit
date, see the `_PROVENANCE.tsv` of each folder).

- `fboulnois/llm-leaderboard-csv` (MPL-2.0), folder `lmarena-csv-fboulnois/`: monthly scrapes of
  the text leaderboard, 2024-06-19 .. 2025-08-06 (`csv/lmsys.csv`, then `csv/lmarena_text.csv`).
  Each row gives `arena_elo` (2024-06) or `arena_score` (later) -> benchmark `arena-elo`.
- `lmarena/arena-catalog` (official, no licence file), folder `lmarena-arena-catalog/`:
  * `<date>_leaderboard-data.json` (2025-01 .. 03) and `<date>_leaderboard-text.json` (its later
    name, 2025-03 .. 12): `{category: {model: {rating, ...}}}`. Category `full` (the overall text
    leaderboard) -> `arena-elo`. A snapshot whose `full` ratings equal the previous snapshot's is
    the same leaderboard re-committed (the 2025-03-07 rename) and gives no rows.
  * `2025-12-17_HEAD/leaderboard-text-style-control.json`, category `full` ->
    `arena-elo-style-control`.
  * `2024-12-25_snapshot_data/leaderboard_table_YYYYMMDD.csv` (63 tables, 2023-06-19 ..
    2024-10-07), dated by the date in the file name: `Arena Elo rating` (only the ten 2023
    tables have it; the sources README says eleven) -> `arena-elo`; `MMLU` (a fraction, stored
    as percent) -> `mmlu`; `MT-bench (score)` (0-10) -> `mt-bench` (unit index). MMLU and MT-bench are properties of the model, repeated
    unchanged in every table: one row per model per distinct value, dated by the first table that
    shows that value.
  * `<date>_scatterplot-data.json` (2025-01-28 .. 2025-12-17) and
    `2024-12-25_snapshot_data/pricing_table.csv`: USD per 1M input/output tokens with the URL of
    the price page -> `token_prices`, one series in date order. The provider is read from the
    URL host where it names the seller (openai.com -> openai, ...), else `unspecified`; seller
    pages give price_kind `list`, third-party pages (aggregators, blogs, model cards) or no page
    give `reported`. The same price seen in consecutive snapshots is one row, `date` = first
    snapshot, `last_seen` = last; a snapshot without the model ends the run.
  * Organisation and licence -> `model_info`, from the newest file naming the model.

Dates: leaderboard snapshot dates (commit dates, or the table date in the file name), not model
release dates. Prices are dated by the commit that holds them; the pricing table's date
(2024-12-25) is the commit that added it, so the prices may be older.

Left out, and why:
- `rank_stylectrl` in the fboulnois CSVs: a rank, not a score.
- Vision leaderboards and the non-`full` categories (coding, languages, ...): the book compares
  models on overall text ability.
- `leaderboard_with_pricing.csv`: `leaderboard_table_20241007.csv` joined to `pricing_table.csv`,
  nothing new (a test checks this).
- `arena_hard_auto_leaderboard_v0.1.csv`: a win rate against GPT-4-0314, not asked for.
- Scatterplot entries of image-generation models (DALL-E 3, FLUX, Imagen, ...): their price is
  per image, not per token (`IMAGE_GENERATION_MODELS`).
- Entries with no price, and the `hidden` flag (a display choice of the website).

Open weights is read from the licence the source states: Proprietary -> false; a named open or
community licence (Apache, MIT, Llama, Gemma, Qwen, DeepSeek, CC-BY-NC, non-commercial, ...) ->
true, since the weights are downloadable even where use is restricted; empty or `Other` -> null.
Source errors pass through (e.g. the catalog labels qwen3-max-preview `Apache 2.0`).

`model_hint` is the arena model key lowercased. The fboulnois CSVs and the 2023 tables carry only
display names: a display name that the keyed 2024 tables pair with exactly one key gets that key
(`Claude 3.5 Sonnet` -> `claude-3-5-sonnet-20240620`), any other is slugged.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import polars as pl

from analysis.data.errors import fail
from analysis.data.importers import common
from analysis.data.importers.common import MODEL_INFO_SCHEMA

FBOULNOIS = "lmarena-fboulnois"
CATALOG = "lmarena-catalog"
FBOULNOIS_DIR = "lmarena-csv-fboulnois"
CATALOG_DIR = "lmarena-arena-catalog"

SOURCES = [
    {
        "source_id": FBOULNOIS,
        "title": "LLM leaderboard CSVs: LMSYS / LMArena text leaderboard, monthly scrapes",
        "publisher": "fboulnois (GitHub)",
        "url": "https://github.com/fboulnois/llm-leaderboard-csv",
        "licence": "MPL-2.0",
        "retrieved": "2025-08-06",
        "notes": "Monthly snapshots 2024-06 .. 2025-08 of the Chatbot Arena text leaderboard "
        "(score, votes, organisation, licence). Dates are leaderboard dates, not release dates. "
        "Model names are display names.",
    },
    {
        "source_id": CATALOG,
        "title": "LMArena arena-catalog: leaderboard data, HF-space tables and price data",
        "publisher": "LMArena",
        "url": "https://github.com/lmarena/arena-catalog",
        "licence": "none stated",
        "retrieved": "2025-12-17",
        "notes": "Arena ratings by category 2025-01 .. 2025-12 (overall text = `full`), the "
        "HF-space tables 2023-06 .. 2024-10 (Elo only 2023; MT-bench, MMLU), and the prices "
        "LMArena shows beside its scores (USD per 1M tokens, with the page they came from). "
        "Later Elo history sat in Git-LFS pickles and is unavailable.",
    },
]

# Price pages of these hosts are the seller's own.
SELLER_HOSTS = {
    "openai.com": "openai",
    "anthropic.com": "anthropic",
    "claude.com": "anthropic",
    "ai.google.dev": "google",
    "cloud.google.com": "google",
    "together.ai": "together",
    "alibabacloud.com": "alibaba",
    "mistral.ai": "mistral",
    "deepseek.com": "deepseek",
    "cohere.com": "cohere",
    "openrouter.ai": "openrouter",
    "aws.amazon.com": "bedrock",
    "azure.microsoft.com": "azure",
    "x.ai": "xai",
    "z.ai": "zhipu",
    "bigmodel.cn": "zhipu",
    "moonshot.ai": "moonshot",
    "lingyiwanwu.com": "01-ai",
    "01.ai": "01-ai",
    "reka.ai": "reka",
    "cloud.tencent.com": "tencent",
    "replicate.com": "replicate",
    "fal.ai": "fal",
    "fireworks.ai": "fireworks",
    "deepinfra.com": "deepinfra",
    "hyperbolic.xyz": "hyperbolic",
    "perplexity.ai": "perplexity",
}
UNSPECIFIED = "unspecified"

# Text-to-image models in the scatterplot files: priced per image, not per token.
IMAGE_GENERATION_MODELS = frozenset(
    {
        "dall-e-3",
        "flux-1-dev-fp8",
        "flux-1.1-pro",
        "ideogram-v2",
        "imagen-3.0-generate-002",
        "photon",
        "recraft-v3",
        "stable-diffusion-v35-large",
    }
)

CLOSED_LICENCES = {"proprietary", "propretary"}
OPEN_LICENCE = re.compile(
    r"apache|\bmit\b|llama|gemma|qwen|qianwen|deepseek|\byi\b|mistral research|\bmrl\b|cc-by|"
    r"non-commercial|nexusflow|nvidia|dbrx|falcon|jamba|impact|cogvlm|^open$",
    re.IGNORECASE,
)

MISSING = {"", "-", "null", "n/a"}
ELO_RANGE = (100.0, 3000.0)


@dataclass(frozen=True)
class Snapshot:
    """One dated raw file: where it is and the date it stands for."""

    path: Path
    date: str


# ---------------------------------------------------------------- small readers and checks


def _read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise fail(path, None, None, None, f"not valid JSON: {e}") from e


def _number(path: Path, row: int | None, column: str, raw: object) -> float | None:
    """A number from a cell; None for the source's missing-value marks."""
    if raw is None or (isinstance(raw, str) and raw.strip().lower() in MISSING):
        return None
    if isinstance(raw, bool):
        raise fail(path, row, column, raw, "must be a number")
    try:
        value = float(raw.strip() if isinstance(raw, str) else raw)
    except (TypeError, ValueError):
        raise fail(path, row, column, raw, "must be a number") from None
    if math.isnan(value):
        return None
    return value


def _in_range(
    path: Path, row: int | None, column: str, value: float, low: float, high: float
) -> float:
    if not low <= value <= high:
        raise fail(path, row, column, value, f"must be between {low:g} and {high:g}")
    return value


def _text(raw: object) -> str | None:
    if raw is None:
        return None
    s = str(raw).strip()
    return None if s.lower() in MISSING else s


def open_weights_from_licence(licence: str | None) -> bool | None:
    """Proprietary -> False; a named open/community licence -> True; anything else -> None."""
    if licence is None or not licence.strip():
        return None
    if licence.strip().lower() in CLOSED_LICENCES:
        return False
    return True if OPEN_LICENCE.search(licence) else None


def provider_from_url(url: str | None) -> str:
    """Seller named by a price page's host; `unspecified` for third-party pages or none."""
    host = urlparse(url or "").hostname or ""
    for domain, provider in SELLER_HOSTS.items():
        if host == domain or host.endswith("." + domain):
            return provider
    return UNSPECIFIED


def display_hint(name: str, key_for_name: Mapping[str, str]) -> str:
    """Hint for a display name: its unique arena key where known, else its slug."""
    key = key_for_name.get(name)
    return key.lower() if key else common.slug(name)


# ---------------------------------------------------------------- parsers (public formats)


def parse_fboulnois(path: Path) -> list[dict]:
    """Rows of one fboulnois leaderboard CSV: model (as `key`), score, organization, licence."""
    rows = _read_csv(path)
    header = list(rows[0]) if rows else []
    column = next((c for c in ("arena_score", "arena_elo") if c in header), None)
    if column is None or "model" not in header:
        raise fail(
            path, None, None, ",".join(header), "needs columns model and arena_score or arena_elo"
        )
    records = []
    for i, r in enumerate(rows, start=1):
        model = (r["model"] or "").strip()
        if not model:
            raise fail(path, i, "model", r["model"], "must not be empty")
        score = _number(path, i, column, r[column])
        if score is None:
            raise fail(path, i, column, r[column], "every leaderboard row needs a score")
        records.append(
            {
                "row": i,
                "key": model,
                "score": _in_range(path, i, column, score, *ELO_RANGE),
                "organization": _text(r.get("organization")),
                "licence": _text(r.get("license")),
            }
        )
    return _drop_repeats(path, records, "model")


def parse_category_ratings(path: Path, category: str = "full") -> dict[str, float]:
    """`{model key: rating}` of one category of a leaderboard JSON."""
    data = _read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get(category), dict):
        raise fail(path, None, category, None, f"needs an object with category {category!r}")
    out: dict[str, float] = {}
    for key, entry in data[category].items():
        where = f"{category}/{key}"
        raw = entry.get("rating") if isinstance(entry, dict) else None
        rating = _number(path, None, where, raw)
        if rating is None:
            raise fail(path, None, where, raw, "needs a numeric rating")
        out[key] = _in_range(path, None, where, rating, *ELO_RANGE)
    return out


def table_date(path: Path) -> str:
    """ISO date of a `leaderboard_table_YYYYMMDD.csv` from its name."""
    m = re.search(r"leaderboard_table_(\d{4})(\d{2})(\d{2})\.csv$", path.name)
    if not m:
        raise fail(path, None, None, path.name, "name must be leaderboard_table_YYYYMMDD.csv")
    return "-".join(m.groups())


def parse_leaderboard_table(path: Path) -> list[dict]:
    """Rows of one HF-space leaderboard table: key (2024 on), display name, Elo, MMLU, MT-bench."""
    records = []
    for i, r in enumerate(_read_csv(path), start=1):
        name = (r.get("Model") or "").strip()
        if not name:
            raise fail(path, i, "Model", r.get("Model"), "must not be empty")
        mmlu = _number(path, i, "MMLU", r.get("MMLU"))
        if mmlu is not None:  # a fraction here; stored as percent, rounded to drop float noise
            mmlu = round(100 * _in_range(path, i, "MMLU", mmlu, 0, 1), 6)
        mt = _number(path, i, "MT-bench (score)", r.get("MT-bench (score)"))
        if mt is not None:
            _in_range(path, i, "MT-bench (score)", mt, 0, 10)
        elo = _number(path, i, "Arena Elo rating", r.get("Arena Elo rating"))
        if elo is not None:
            _in_range(path, i, "Arena Elo rating", elo, *ELO_RANGE)
        key = _text(r.get("key"))
        records.append(
            {
                "row": i,
                "key": key or name,  # the 2023 tables have no key column
                "has_key": key is not None,
                "name": name,
                "elo": elo,
                "mmlu": mmlu,
                "mt_bench": mt,
                "organization": _text(r.get("Organization")),
                "licence": _text(r.get("License")),
            }
        )
    return _drop_repeats(path, records, "key")


def _drop_repeats(path: Path, records: list[dict], column: str) -> list[dict]:
    """Drop exact repeats of a model's record; a model given twice with other values is an error."""
    first: dict[str, dict] = {}
    kept = []
    for rec in records:
        values = {k: v for k, v in rec.items() if k != "row"}
        if rec["key"] not in first:
            first[rec["key"]] = values
            kept.append(rec)
        elif first[rec["key"]] != values:
            raise fail(path, rec["row"], column, rec["key"], "listed twice with different values")
    return kept


def parse_scatterplot(path: Path) -> list[dict]:
    """Priced entries of one scatterplot-data.json (image-generation models left out)."""
    data = _read_json(path)
    if not isinstance(data, list):
        raise fail(path, None, None, None, "must be a JSON list of model entries")
    out = []
    for i, e in enumerate(data, start=1):
        key = _text(e.get("model_api_name")) if isinstance(e, dict) else None
        if key is None:
            raise fail(path, i, "model_api_name", None, "every entry needs a model_api_name")
        if key in IMAGE_GENERATION_MODELS:
            continue
        rec = _price_record(path, i, key, e.get("input_token_price"), e.get("output_token_price"))
        rec |= {
            "name": _text(e.get("name")),
            "price_source": _text(e.get("price_source")),
            "organization": _text(e.get("organization")),
            "licence": _text(e.get("license")),
        }
        out.append(rec)
    return _drop_repeats(path, out, "model_api_name")


def parse_pricing_table(path: Path) -> list[dict]:
    """Rows of `pricing_table.csv`: model_key, source (URL), input and output USD per 1M."""
    out = []
    for i, r in enumerate(_read_csv(path), start=1):
        key = _text(r.get("model_key"))
        if key is None:
            raise fail(path, i, "model_key", r.get("model_key"), "must not be empty")
        rec = _price_record(path, i, key, r.get("input_token_price"), r.get("output_token_price"))
        rec["price_source"] = _text(r.get("source"))
        out.append(rec)
    return _drop_repeats(path, out, "model_key")


def _price_record(path: Path, i: int, key: str, raw_in: object, raw_out: object) -> dict:
    prices = {}
    for column, raw in (("input_token_price", raw_in), ("output_token_price", raw_out)):
        value = _number(path, i, column, raw)
        if value is not None and value < 0:
            raise fail(path, i, column, raw, "a price cannot be negative")
        prices[column] = value
    return {
        "row": i,
        "key": key,
        "input": prices["input_token_price"],
        "output": prices["output_token_price"],
    }


# ---------------------------------------------------------------- rows of the tables


def _score_row(
    bench: str, unit: str, score: float, date: str, name: str, hint: str, source: str, loc: str
) -> dict:
    return {
        "benchmark": bench,
        "score": score,
        "unit": unit,
        "date": date,
        "source_model_name": name,
        "source_id": source,
        "source_locator": loc,
        "model_hint": hint,
    }


def _info_row(
    source: str, name: str, hint: str, display: str | None, org, licence, loc: str
) -> dict:
    return {
        "source_id": source,
        "source_model_name": name,
        "model_hint": hint,
        "name": display or name,
        "organization": org,
        "release_date": None,
        "open_weights": open_weights_from_licence(licence),
        "parameters_b": None,
        "active_parameters_b": None,
        "reasoning": None,
        "source_locator": loc,
    }


def fboulnois_rows(sources_dir: Path, snapshots: list[Snapshot], key_for_name: Mapping[str, str]):
    """benchmark_scores and model_info rows of the fboulnois CSVs (snapshots in date order)."""
    scores, info = [], {}
    for snap in snapshots:
        for r in parse_fboulnois(snap.path):
            model = r["key"]
            hint = display_hint(model, key_for_name)
            loc = common.locator(sources_dir, snap.path, f"row {r['row']}")
            scores.append(
                _score_row("arena-elo", "elo", r["score"], snap.date, model, hint, FBOULNOIS, loc)
            )
            info[model] = _info_row(
                FBOULNOIS, model, hint, model, r["organization"], r["licence"], loc
            )
    return scores, list(info.values())


def catalog_json_rows(sources_dir: Path, snapshots: list[Snapshot], benchmark: str) -> list[dict]:
    """Score rows of leaderboard JSONs (category `full`); unchanged re-commits give no rows."""
    rows, previous = [], None
    for snap in snapshots:
        ratings = parse_category_ratings(snap.path)
        if ratings == previous:
            continue
        previous = ratings
        for key, rating in ratings.items():
            loc = common.locator(sources_dir, snap.path, f"full/{key}")
            rows.append(
                _score_row(benchmark, "elo", rating, snap.date, key, key.lower(), CATALOG, loc)
            )
    return rows


def key_for_display_name(tables: Iterable[list[dict]]) -> dict[str, str]:
    """Display name -> arena key, where the keyed tables pair the name with exactly one key."""
    keys: dict[str, set[str]] = {}
    for rows in tables:
        for r in rows:
            if r["has_key"]:
                keys.setdefault(r["name"], set()).add(r["key"])
    return {name: next(iter(ks)) for name, ks in keys.items() if len(ks) == 1}


def table_rows(
    sources_dir: Path, tables: list[tuple[Snapshot, list[dict]]], key_for_name: Mapping[str, str]
):
    """benchmark_scores and model_info rows of the HF-space tables (in date order)."""
    scores, info = [], {}
    first_value: dict[tuple[str, str], set[float]] = {}
    for snap, rows in tables:
        for r in rows:
            name = r["key"]
            hint = name.lower() if r["has_key"] else display_hint(name, key_for_name)
            loc = common.locator(sources_dir, snap.path, f"row {r['row']}")
            if r["elo"] is not None:
                scores.append(
                    _score_row("arena-elo", "elo", r["elo"], snap.date, name, hint, CATALOG, loc)
                )
            for bench, unit, value in (
                ("mmlu", "percent", r["mmlu"]),
                ("mt-bench", "index", r["mt_bench"]),
            ):
                seen = first_value.setdefault((bench, hint), set())
                if value is not None and value not in seen:
                    seen.add(value)
                    scores.append(
                        _score_row(bench, unit, value, snap.date, name, hint, CATALOG, loc)
                    )
            info[name] = _info_row(
                CATALOG, name, hint, r["name"], r["organization"], r["licence"], loc
            )
    return scores, info


def price_rows(sources_dir: Path, snapshots: list[tuple[Snapshot, list[dict]]]) -> list[dict]:
    """token_prices rows: runs of the same price and seller over consecutive snapshots."""
    open_runs: dict[str, dict] = {}
    done: list[dict] = []
    for snap, records in snapshots:
        priced = {r["key"]: r for r in records if r["input"] is not None or r["output"] is not None}
        for key in list(open_runs):
            run = open_runs[key]
            r = priced.get(key)
            if (
                r
                and (provider_from_url(r["price_source"]), r["input"], r["output"]) == run["_same"]
            ):
                run["last_seen"] = snap.date
                del priced[key]
            else:
                done.append(open_runs.pop(key))
        for key, r in priced.items():
            open_runs[key] = _price_row(sources_dir, snap, r)
    done.extend(open_runs.values())
    for run in done:
        del run["_same"]
    return done


def _price_row(sources_dir: Path, snap: Snapshot, r: dict) -> dict:
    provider = provider_from_url(r["price_source"])
    where = (
        f"row {r['row']}; model {r['key']}" if snap.path.suffix == ".csv" else f"model {r['key']}"
    )
    if r["price_source"]:
        where += f"; price_source {r['price_source']}"
    return {
        "provider": provider,
        "date": snap.date,
        "last_seen": snap.date,
        "input_usd_per_mtok": r["input"],
        "output_usd_per_mtok": r["output"],
        "cached_input_usd_per_mtok": None,
        "batch_input_usd_per_mtok": None,
        "batch_output_usd_per_mtok": None,
        "blended_usd_per_mtok": None,
        "blend": None,
        "currency": "USD",
        "input_original_per_mtok": r["input"],
        "output_original_per_mtok": r["output"],
        "price_kind": "reported" if provider == UNSPECIFIED else "list",
        "context_tier": None,
        "source_model_name": r["key"],
        "source_id": CATALOG,
        "source_locator": common.locator(sources_dir, snap.path, where),
        "model_hint": r["key"].lower(),
        "_same": (provider, r["input"], r["output"]),
    }


# ---------------------------------------------------------------- build


def _model_info_frame(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(
        [
            pl.Series(k, [r[k] for r in rows], dtype=t, strict=True)
            for k, t in MODEL_INFO_SCHEMA.items()
        ]
    )


def _snapshots(sources_dir: Path, pattern: str) -> list[Snapshot]:
    """Files matching `pattern` dated by their commit date, oldest first."""
    paths = sorted(sources_dir.glob(pattern))
    snaps = [Snapshot(p, common.provenance(sources_dir, p).commit_date) for p in paths]
    return sorted(snaps, key=lambda s: (s.date, s.path.name))


def _catalog(sources_dir: Path) -> tuple[list[dict], list[dict], list[dict], dict[str, str]]:
    """Scores, prices and model info from arena-catalog; also the display-name -> key map."""
    folder = f"{CATALOG_DIR}/*_snapshot_data"
    table_paths = sorted(sources_dir.glob(f"{folder}/leaderboard_table_*.csv"), key=table_date)
    tables = [(Snapshot(p, table_date(p)), parse_leaderboard_table(p)) for p in table_paths]
    key_for_name = key_for_display_name(rows for _, rows in tables)
    scores, info = table_rows(sources_dir, tables, key_for_name)

    text = _snapshots(sources_dir, f"{CATALOG_DIR}/*_leaderboard-data.json")
    text += _snapshots(sources_dir, f"{CATALOG_DIR}/*_leaderboard-text.json")
    scores += catalog_json_rows(sources_dir, sorted(text, key=lambda s: s.date), "arena-elo")
    style = _snapshots(sources_dir, f"{CATALOG_DIR}/*_HEAD/leaderboard-text-style-control.json")
    scores += catalog_json_rows(sources_dir, style, "arena-elo-style-control")

    price_snaps = [
        (s, parse_pricing_table(s.path))
        for s in _snapshots(sources_dir, f"{folder}/pricing_table.csv")
    ]
    for s in _snapshots(sources_dir, f"{CATALOG_DIR}/*_scatterplot-data.json"):
        records = parse_scatterplot(s.path)
        price_snaps.append((s, records))
        for r in records:
            loc = common.locator(sources_dir, s.path, f"model {r['key']}")
            info[r["key"]] = _info_row(
                CATALOG, r["key"], r["key"].lower(), r["name"], r["organization"], r["licence"], loc
            )
    prices = price_rows(sources_dir, price_snaps)
    return scores, prices, list(info.values()), key_for_name


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    sources_dir = Path(sources_dir)
    scores, prices, info, key_for_name = _catalog(sources_dir)
    fb = _snapshots(sources_dir, f"{FBOULNOIS_DIR}/*_lmsys.csv")
    fb += _snapshots(sources_dir, f"{FBOULNOIS_DIR}/*_lmarena_text.csv")
    fb_scores, fb_info = fboulnois_rows(sources_dir, sorted(fb, key=lambda s: s.date), key_for_name)

    score_df = common.frame("benchmark_scores", scores + fb_scores, drop=("model_id",))
    price_df = common.frame("token_prices", prices, drop=("model_id", "first_party"))
    info_df = _model_info_frame(info + fb_info)
    return {
        "benchmark_scores": score_df.sort("source_id", "benchmark", "source_model_name", "date"),
        "token_prices": price_df.sort("source_model_name", "provider", "date"),
        "model_info": info_df.sort("source_id", "source_model_name"),
    }
