"""One model id per model across all sources, and the `models` table.

Every importer gives rows with `source_id`, `source_model_name` (exact) and `model_hint` (its
cleaned base name). This module turns those names into one `model_id` per model:

1. `normalize(name)` makes a deterministic base slug by the rules in `RULES` (table below);
2. `resolve(names)` maps each name to a curated catalog entry (`analysis/data/tables/model_catalog.csv`)
   when an alias matches, else keeps the normalized slug;
3. `build_models(resolved_names, model_info)` writes the `models` table, taking release dates,
   parameters and open-weights flags from the sources' model metadata (never typed in).

Normalization rules, applied in this order (each has a test in tests/test_models.py):

| rule             | what it does                                                | example                                            |
|------------------|-------------------------------------------------------------|----------------------------------------------------|
| casefold         | NFKC, lowercase, trim; typographic quotes and nbsp unified  | `GPT-4o ` -> `gpt-4o`                              |
| route_prefix     | keep what follows the last `/` (provider, org, account)     | `together_ai/meta-llama/Llama-3-8b` -> `llama-3-8b` |
| run_settings     | drop effort / thinking-budget / variant decorations         | `o3-2025-04-16_high`, `GPT-5 (high)`, `x:free`     |
| bedrock_ids      | drop Bedrock geo + vendor prefixes and `-v1:0` suffixes     | `us.anthropic.claude-3-haiku-20240307-v1:0`        |
| dates            | `20240806`, `@20240806`, `(2024-08-06)` -> `2024-08-06`;    | `GPT-4o (Aug '24)` -> `gpt-4o-2024-08`             |
|                  | month names and `MM-YYYY` -> `YYYY-MM`; MMDD/YYMM kept      | `gpt-4-0613` stays (MMDD vs YYMM is ambiguous)     |
| separators       | spaces, `_`, `:`, `@`, `,`, brackets, quotes -> `-`         | `Llama 3.1 70B` -> `llama-3.1-70b`                 |
| fireworks_dots   | Fireworks writes dots as `p` between digits                 | `qwen2p5-72b` -> `qwen2.5-72b`                     |
| family_version   | `llama3`/`llama-v3`/`qwen2.5`/`gpt4o` -> `llama-3`, ...    | `llama3.1-70b` -> `llama-3.1-70b`                  |
| dashed_versions  | `llama-3-1-8b` (Bedrock/watsonx) and Anthropic `3-5` -> `.` | `claude-3-5-sonnet` -> `claude-3.5-sonnet`         |
| vendor_words     | `meta-llama-...` -> `llama-...`                             | `Meta-Llama-3-70B` -> `llama-3-70b`                |
| claude_order     | Anthropic's own order: `claude-3.5-sonnet`, `claude-sonnet-4`| `Claude 4 Sonnet` -> `claude-sonnet-4`            |
| tuning_words     | drop `instruct`; drop `chat`/`it`/`hf` next to a size token | `Llama-2-70b-chat-hf` -> `llama-2-70b`             |
| serving_words    | drop precision/quantisation tokens; drop `turbo`/`lite`     | `...-70B-Instruct-Turbo`, `-bf16`, `-fp8`, `q8_0`  |
|                  | only after a size token (`gpt-4-turbo` is a model name)     |                                                    |
| tidy             | collapse dashes, trim `-` and `.`                           |                                                    |

Decisions worth knowing:
- Base and instruct checkpoints share an id (`llama-3.1-70b`): prices and benchmarks are quoted for
  the instruct model, and the sources (Epoch, Artificial Analysis) name the family that way.
- Serving variants (FP8, Together "Turbo"/"Lite", GGUF quantisations) share the model's id: the
  weights are the model's; the price difference belongs to the provider, which `token_prices` keeps.
- Dated snapshots keep their date (`gpt-4o-2024-08-06` differs from `gpt-4o-2024-05-13`); an
  undated name (`gpt-4o`) is the moving alias and is its own catalog entry. A date with only a month
  (`(Aug '24)`) resolves to the one catalog snapshot of that family in that month, if exactly one.
- A dated name whose family has no dated entry in the catalog resolves to the family
  (`gpt-4o-mini-2024-07-18` -> `gpt-4o-mini`): the catalog lists snapshots only where they differ.
- `-latest`, `-preview`, `-exp`, context tags (`-32k`, `-128k`) are kept: they name other models,
  moving aliases or other prices.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from analysis.data import lookup
from analysis.data.errors import DataError, Problem, fail
from analysis.data.reads import memo
from analysis.data.schema import SLUG, TABLES

CATALOG_PATH = Path(__file__).parent / "tables" / "model_catalog.csv"
SLUG_RE = re.compile(SLUG)

# --------------------------------------------------------------------------------------------
# normalize
# --------------------------------------------------------------------------------------------

MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
SIZE = r"(?:\d+(?:\.\d+)?[bm]|\d+x\d+(?:\.\d+)?b|[ae]\d+(?:\.\d+)?b|\d+e)"
HAS_SIZE = re.compile(rf"(?:^|-){SIZE}(?=-|$)")


def _casefold(s: str) -> str:
    s = unicodedata.normalize("NFKC", s).replace("\u00a0", " ")
    s = s.replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-")
    return s.strip().lower()


def _route_prefix(s: str) -> str:
    return s.rsplit("/", 1)[-1].strip()


# Settings of a run or an API variant, not another model. `:thinking` on OpenRouter and `_16K`
# in Epoch ids are thinking budgets; `(high)` is reasoning effort; `:free` a price tier.
_RUN_SUFFIX = re.compile(r"_(?:minimal|low|medium|high|xhigh|thinking|\d+k)$")
_RUN_PAREN = re.compile(
    r"\((?:minimal|low|medium|high|xhigh|reasoning|non-reasoning|extended thinking"
    r"|default thinking length|\d+k thinking|option ?\d+|aime ?\d*|swe)\)"
)
_RUN_WORDS = re.compile(r"\boption ?\d+\b|\+a\d+$")
_OPENROUTER_VARIANT = re.compile(r":(?:free|beta|extended|nitro|floor|online|thinking|exacto)$")


def _run_settings(s: str) -> str:
    s = _OPENROUTER_VARIANT.sub("", s)
    s = re.sub(r"\s*\(\d+k thinking\)\s*$", "", s)
    s = _RUN_PAREN.sub(" ", s)
    s = _RUN_WORDS.sub(" ", s)
    for _ in range(2):  # `o1-2024-12-17_high` and `x_16k_high` style stacks
        s = _RUN_SUFFIX.sub("", s.strip())
    return s.strip()


_BEDROCK_GEO = r"(?:us|eu|apac|jp|au|ca|global|us-gov)"
_BEDROCK_VENDOR = (
    r"(?:anthropic|meta|amazon|mistral|cohere|ai21|deepseek|qwen|openai|google|minimax"
    r"|moonshotai|moonshot|nvidia|writer|xai|zai|stability|twelvelabs)"
)
_BEDROCK = re.compile(rf"^(?:{_BEDROCK_GEO}\.)?{_BEDROCK_VENDOR}\.(?P<rest>.+)$")


def _bedrock_ids(s: str) -> str:
    m = _BEDROCK.match(s)
    if m:
        rest = m.group("rest")
        vendor = s[: m.start("rest") - 1].rsplit(".", 1)[-1]
        # `deepseek.r1-v1:0`: the vendor is part of the model's name there.
        s = f"{vendor}-{rest}" if re.match(r"^[vr]\d", rest) else rest
    # Legacy Claude ids: `claude-v2:1` is Claude 2.1, `claude-instant-v1` Claude Instant 1.
    s = re.sub(
        r"^claude-v(\d)(?::(\d))?$", lambda m: "claude-" + ".".join(filter(None, m.groups())), s
    )
    s = re.sub(r"^claude-instant-v(\d)$", r"claude-instant-\1", s)
    # Bedrock / SageMaker release suffixes: `-v1:0`, `-v2`, `-1:0`, `:0`.
    if m or re.search(r"-v\d+:\d+$|-\d+:\d+$", s):
        s = re.sub(r"(?:-v\d+(?::\d+)?|-\d+:\d+|:\d+)$", "", s)
    return s


def _valid_date(y: int, mo: int, d: int | None = None) -> bool:
    return 2000 <= y <= 2099 and 1 <= mo <= 12 and (d is None or 1 <= d <= 31)


def _iso8(m: re.Match) -> str:
    y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    return f"-{y:04d}-{mo:02d}-{d:02d}" if _valid_date(y, mo, d) else m.group(0)


MONTH_WORDS = {*MONTHS, "january", "february", "march", "april", "june", "july", "august", "sept",
               "september", "october", "november", "december"}  # fmt: skip


def _month_name(m: re.Match) -> str:
    if m.group("word") not in MONTH_WORDS:  # `marin 8b` is not March
        return m.group(0)
    mo = MONTHS[m.group(2)[:3]]
    y = int(m.group(3))
    y = y + 2000 if y < 100 else y
    return f" {y:04d}-{mo:02d} " if _valid_date(y, mo) else m.group(0)


def _mdy(m: re.Match) -> str:
    mo, d, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
    return f"-{y:04d}-{mo:02d}-{d:02d}" if _valid_date(y, mo, d) else m.group(0)


def _my(m: re.Match) -> str:
    mo, y = int(m.group(1)), int(m.group(2))
    return f"-{y:04d}-{mo:02d}" if _valid_date(y, mo) else m.group(0)


def _dates(s: str) -> str:
    s = re.sub(r"\((\d{4}-\d{2}-\d{2})\)", r" \1 ", s)
    s = re.sub(r"[-@_ ](20\d{2})(\d{2})(\d{2})(?!\d)", _iso8, s)
    s = re.sub(
        r"\(?\b(?P<word>(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)\.?\s*'?\s*(\d{4}|\d{2})\b'?\)?",
        _month_name,
        s,
    )
    s = re.sub(r"-(\d{2})-(\d{2})-(20\d{2})(?!\d)", _mdy, s)
    s = re.sub(r"-(\d{2})-(20\d{2})(?![\d-])", _my, s)
    return s


def _separators(s: str) -> str:
    s = re.sub(r"[\s_:@,;()\[\]'\"`/\\|!?*&#=~^<>{}]+", "-", s)
    return re.sub(r"-{2,}", "-", s).strip("-")


def _fireworks_dots(s: str) -> str:
    return re.sub(r"(?<=\d)p(?=\d)", ".", s)


_FAMILIES = r"llama|qwen|gemma|phi|glm|gpt|claude|gemini|grok|olmo|granite|internlm|falcon"


def _family_version(s: str) -> str:
    s = re.sub(rf"(?<![a-z])({_FAMILIES})-?v(\d)", r"\1-\2", s)  # llama-v3p1 (Fireworks)
    return re.sub(rf"(?<![a-z])({_FAMILIES})(\d)", r"\1-\2", s)


def _dashed_versions(s: str) -> str:
    # `llama3-1-70b` (Bedrock), `llama-3-2-90b` (watsonx): minor version written with a dash.
    s = re.sub(r"(?<![a-z])llama-(\d)-(\d)(?=-\d+(?:\.\d+)?b|-\d+x)", r"llama-\1.\2", s)
    if s.startswith("claude"):
        s = re.sub(r"(?<![\d.])(\d)-(\d)(?![\d.])", r"\1.\2", s)
    return s


def _vendor_words(s: str) -> str:
    return re.sub(r"(?<![a-z])meta-llama-", "llama-", s)


def _claude_order(s: str) -> str:
    # Claude 3.x: `claude-3.5-sonnet`; Claude 4 and later: `claude-sonnet-4` (Anthropic's ids).
    s = re.sub(r"^claude-(haiku|sonnet|opus)-(3(?:\.\d)?)(?=-|$)", r"claude-\2-\1", s)
    return re.sub(r"^claude-([4-9](?:\.\d)?)-(haiku|sonnet|opus)(?=-|$)", r"claude-\2-\1", s)


def _drop_tokens(s: str, words: set[str], only_with_size: bool) -> str:
    if only_with_size and not HAS_SIZE.search(s):
        return s
    kept = [t for t in s.split("-") if t not in words]
    return "-".join(kept) if kept else s


def _tuning_words(s: str) -> str:
    # `gpt-3.5-turbo-instruct` is a model of its own; elsewhere `instruct` marks the tuned
    # checkpoint of the same model. `chat` alone is a model name too (`deepseek-chat`).
    if not re.search(r"turbo-instruct", s):
        s = _drop_tokens(s, {"instruct"}, only_with_size=False)
    return _drop_tokens(s, {"chat", "it", "hf"}, only_with_size=True)


_QUANT = re.compile(
    r"-(?:q\d(?:-k(?:-[sml])?|-\d)?|fp8|fp16|bf16|fp4|int4|int8|awq|gptq|gguf|mlx)(?=-|$)"
)


def _serving_words(s: str) -> str:
    s = _QUANT.sub("", s)
    return _drop_tokens(s, {"turbo", "lite"}, only_with_size=True)


def _tidy(s: str) -> str:
    # ASCII only: accents dropped (`Tülu` -> `tulu`), any other character becomes a dash.
    s = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
    s = re.sub(r"[^a-z0-9.+-]+", "-", s)
    s = re.sub(r"\.(?=-|$)", "", s)  # `exp.` -> `exp`
    return re.sub(r"-{2,}", "-", s).strip("-.").lstrip("+.-")


@dataclass(frozen=True)
class Rule:
    name: str
    apply: Callable[[str], str]


RULES: list[Rule] = [
    Rule("casefold", _casefold),
    Rule("route_prefix", _route_prefix),
    Rule("run_settings", _run_settings),
    Rule("bedrock_ids", _bedrock_ids),
    Rule("dates", _dates),
    Rule("separators", _separators),
    Rule("fireworks_dots", _fireworks_dots),
    Rule("family_version", _family_version),
    Rule("dashed_versions", _dashed_versions),
    Rule("vendor_words", _vendor_words),
    Rule("claude_order", _claude_order),
    Rule("tuning_words", _tuning_words),
    Rule("serving_words", _serving_words),
    Rule("tidy", _tidy),
]


@memo
def normalize(name: str) -> str:
    """Deterministic base slug of a model name (rules in `RULES`); '' when nothing is left."""
    s = name
    for rule in RULES:
        s = rule.apply(s)
    return s


# --------------------------------------------------------------------------------------------
# catalog
# --------------------------------------------------------------------------------------------

CATALOG_COLUMNS = ["model_id", "name", "organization", "aliases"]
DATE_SUFFIX = re.compile(r"^(?P<base>.+)-(?P<date>20\d{2}-\d{2}-\d{2})$")
MONTH_SUFFIX = re.compile(r"^(?P<base>.+)-(?P<month>20\d{2}-\d{2})$")


@dataclass(frozen=True)
class Catalog:
    entries: pl.DataFrame  # model_id, name, organization, aliases
    exact: dict[str, str]  # lowercased exact source name -> model_id
    by_slug: dict[str, str]  # normalized alias or id -> model_id
    dated: dict[str, list[tuple[str, str]]]  # family base -> [(date, model_id)]


def _catalog_problem(path: Path, row: int, column: str, value: str, rule: str) -> Problem:
    return Problem(str(path), row, column, value, rule)


def _index_alias(
    cat: dict, problems: list, path: Path, row: int, alias: str, model_id: str
) -> None:
    key = normalize(alias)
    if not key:
        problems.append(
            _catalog_problem(path, row, "aliases", alias, "alias normalizes to nothing")
        )
        return
    if cat.setdefault(key, model_id) != model_id:
        rule = f"alias claimed by two models ({cat[key]} and {model_id})"
        problems.append(_catalog_problem(path, row, "aliases", alias, rule))


def load_catalog(path: Path = CATALOG_PATH) -> Catalog:
    """Read and check the curated catalog: ids are slugs, no alias claimed twice."""
    rows, problems = lookup.check(lookup.SPECS["model_catalog"], path)
    if not rows or list(rows[0]) != CATALOG_COLUMNS:
        raise fail(path, None, None, None, f"columns must be {CATALOG_COLUMNS}")
    exact: dict[str, str] = {}
    by_slug: dict[str, str] = {}
    for i, r in enumerate(rows, start=1):
        mid = r["model_id"]
        if not SLUG_RE.match(mid) or normalize(mid) != mid:
            problems.append(_catalog_problem(path, i, "model_id", mid, "must be a normalized slug"))
        if not r["name"]:
            problems.append(_catalog_problem(path, i, "name", "", "name is required"))
        _index_alias(by_slug, problems, path, i, mid, mid)
        for alias in filter(None, (a.strip() for a in r["aliases"].split(";"))):
            exact_only = alias.startswith("=")
            alias = alias.removeprefix("=")
            if exact.setdefault(alias.lower(), mid) != mid:
                problems.append(
                    _catalog_problem(path, i, "aliases", alias, "exact alias claimed twice")
                )
            if not exact_only:
                _index_alias(by_slug, problems, path, i, alias, mid)
    if problems:
        raise DataError(problems)
    dated: dict[str, list[tuple[str, str]]] = {}
    for r in rows:
        m = DATE_SUFFIX.match(r["model_id"])
        if m:
            dated.setdefault(m["base"], []).append((m["date"], r["model_id"]))
    entries = pl.DataFrame(rows, schema={c: pl.String for c in CATALOG_COLUMNS})
    return Catalog(entries, exact, by_slug, dated)


@memo
def catalog() -> Catalog:
    return load_catalog()


def _by_month(cat: Catalog, slug: str) -> str | None:
    m = MONTH_SUFFIX.match(slug)
    if not m:
        return None
    base = cat.by_slug.get(m["base"], m["base"])
    hits = [mid for date, mid in cat.dated.get(base, []) if date.startswith(m["month"])]
    return hits[0] if len(hits) == 1 else None


def _by_family(cat: Catalog, slug: str) -> str | None:
    m = DATE_SUFFIX.match(slug) or MONTH_SUFFIX.match(slug)
    if not m or m["base"] not in cat.by_slug:
        return None
    family = cat.by_slug[m["base"]]
    return None if family in cat.dated else family


def match_catalog(name: str, hint: str | None, cat: Catalog | None = None) -> str | None:
    """Catalog id for a source name, or None. Exact aliases first, then normalized forms."""
    cat = cat or catalog()
    for raw in (name, hint):
        if raw:
            for key in (raw.strip().lower(), _route_prefix(raw.strip().lower())):
                if key in cat.exact:
                    return cat.exact[key]
    for raw in (hint, name):
        if not raw:
            continue
        slug = normalize(raw)
        found = cat.by_slug.get(slug) or _by_month(cat, slug) or _by_family(cat, slug)
        if found:
            return found
    return None


# --------------------------------------------------------------------------------------------
# resolve
# --------------------------------------------------------------------------------------------

REQUIRED_NAME_COLUMNS = ["source_id", "source_model_name", "model_hint"]


def _check_columns(df: pl.DataFrame, needed: Iterable[str], what: str) -> None:
    missing = [c for c in needed if c not in df.columns]
    if missing:
        raise fail(what, None, ",".join(missing), None, "required column missing")


def _known_slugs(model_info: pl.DataFrame | None) -> set[str]:
    if model_info is None or model_info.is_empty():
        return set()
    pairs = model_info.select("source_model_name", "model_hint").unique().rows()
    return {normalize(h or n) for n, h in pairs}


def _resolve_one(
    source_id: str, name: str | None, hint: str | None, cat: Catalog, known: set[str]
) -> tuple[str, bool] | Problem:
    found = match_catalog(name or "", hint, cat)
    if found:
        return found, True
    slug = normalize(hint or name or "")
    if not slug or not SLUG_RE.match(slug):
        value = name if name is not None else hint
        return Problem(
            source_id, None, "source_model_name", value, f"no model id can be made (slug {slug!r})"
        )
    return slug, slug in known


def resolve(names: pl.DataFrame, model_info: pl.DataFrame | None = None) -> pl.DataFrame:
    """Add `model_id` and `resolved` to rows with `source_id, source_model_name, model_hint`.

    `resolved` is True when the catalog names the model, or when `model_info` (what sources say
    about models) names the same slug. Distinct names are resolved once, so this is fast.
    """
    _check_columns(names, REQUIRED_NAME_COLUMNS, "resolve(names)")
    cat = catalog()
    known = _known_slugs(model_info)
    keys = names.select(REQUIRED_NAME_COLUMNS).unique(maintain_order=True)
    ids: list[str] = []
    flags: list[bool] = []
    problems: list[Problem] = []
    for source_id, name, hint in keys.iter_rows():
        out = _resolve_one(source_id, name, hint, cat, known)
        if isinstance(out, Problem):
            problems.append(out)
            ids.append("")
            flags.append(False)
        else:
            ids.append(out[0])
            flags.append(out[1])
    if problems:
        raise DataError(problems)
    lookup = keys.with_columns(
        pl.Series("model_id", ids, dtype=pl.String), pl.Series("resolved", flags, dtype=pl.Boolean)
    )
    out = names.drop([c for c in ("model_id", "resolved") if c in names.columns])
    return out.join(
        lookup, on=REQUIRED_NAME_COLUMNS, how="left", nulls_equal=True, maintain_order="left"
    )


# --------------------------------------------------------------------------------------------
# build_models
# --------------------------------------------------------------------------------------------

# Source precedence for model facts: Epoch's models database first (curated, dated publication),
# then Epoch's benchmark-stitching version dates, then any other source in id order.
INFO_PRECEDENCE = ["epoch-ai-models", "epoch-benchmark-stitching"]
INFO_FIELDS = [
    "release_date",
    "organization",
    "open_weights",
    "parameters_b",
    "active_parameters_b",
    "reasoning",
]
MODEL_INFO_COLUMNS = [
    "source_id",
    "source_model_name",
    "model_hint",
    "name",
    "organization",
    "release_date",
    "open_weights",
    "parameters_b",
    "active_parameters_b",
    "reasoning",
    "source_locator",
]

# Epoch AI, "LLM inference prices have fallen rapidly but unequally across tasks" (Cottier et al.,
# March 2025; data in epoch-llm-price-trends): its price trends exclude these as reasoning models.
# A source flag wins over this list; other models stay null (never guessed from a name).
EPOCH_REASONING_SOURCE = "epoch-llm-price-trends"
EPOCH_REASONING_MODELS = frozenset(
    {
        "o1",
        "o1-2024-12-17",
        "o1-mini",
        "o1-mini-2024-09-12",
        "o1-preview",
        "o1-preview-2024-09-12",
        "o3-mini",
        "o3-mini-2025-01-31",
        "deepseek-r1",
    }
)


def _empty_info() -> pl.DataFrame:
    schema = {
        "source_id": pl.String,
        "source_model_name": pl.String,
        "model_hint": pl.String,
        "name": pl.String,
    }
    schema |= {c: TABLES["models"].polars_schema[c] for c in INFO_FIELDS}
    return pl.DataFrame(schema={**schema, "source_locator": pl.String})


def _rank_info(info: pl.DataFrame) -> pl.DataFrame:
    order = {s: i for i, s in enumerate(INFO_PRECEDENCE)}
    rank = pl.col("source_id").replace_strict(order, default=len(order), return_dtype=pl.Int64)
    return info.with_columns(rank.alias("_rank")).sort(
        ["model_id", "_rank", "source_id", "release_date", "source_locator"], nulls_last=True
    )


def _first_non_null(info: pl.DataFrame) -> pl.DataFrame:
    """Per model_id, the first non-null value of each field in precedence order, and its source."""
    aggs = []
    for f in [*INFO_FIELDS, "name"]:
        aggs.append(pl.col(f).drop_nulls().first().alias(f))
        aggs.append(pl.col("source_id").filter(pl.col(f).is_not_null()).first().alias(f"_src_{f}"))
    return info.group_by("model_id", maintain_order=True).agg(aggs)


def _info_source() -> pl.Expr:
    order = ["release_date", "organization", "parameters_b", "open_weights", "active_parameters_b"]
    return pl.coalesce([pl.col(f"_src_{f}") for f in order]).alias("info_source_id")


def _aliases(resolved_names: pl.DataFrame) -> pl.DataFrame:
    bad = resolved_names.filter(pl.col("source_model_name").str.contains(";", literal=True))
    if not bad.is_empty():
        r = bad.row(0, named=True)
        raise fail(
            r["source_id"],
            None,
            "source_model_name",
            r["source_model_name"],
            "';' is the alias separator",
        )
    names = resolved_names.select("model_id", "source_model_name").unique()
    counted = names.group_by("model_id").agg(
        pl.col("source_model_name").sort().str.join(";").alias("aliases"),
        pl.col("source_model_name").sort().first().alias("_first_name"),
    )
    return counted
