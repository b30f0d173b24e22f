"""Model identity: normalization rules, catalog resolution, the models table, first party."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import polars as pl
import pytest

from analysis.data import models
from analysis.data.curate.first_party import (
    first_party_by_organization_expr,
    is_first_party_by_organization,
)
from analysis.data.curate.models_table import build_models
from analysis.data.errors import DataError
from analysis.data.models import (
    RULES,
    load_catalog,
    normalize,
    resolve,
)
from analysis.data.schema import SLUG, TABLES

RULE = {r.name: r.apply for r in RULES}


# --- one test per normalization rule (the rule alone, then the whole pipeline) --------------

RULE_CASES = [
    ("casefold", "  GPT-4o\u00a0", "gpt-4o"),
    ("casefold", "Claude\u2019s", "claude's"),
    (
        "route_prefix",
        "together_ai/meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo",
        "Meta-Llama-3.1-70B-Instruct-Turbo",
    ),
    ("route_prefix", "gpt-4o", "gpt-4o"),
    ("run_settings", "o3-2025-04-16_high", "o3-2025-04-16"),
    ("run_settings", "claude-sonnet-4-20250514_16k", "claude-sonnet-4-20250514"),
    ("run_settings", "gpt-5 (minimal)", "gpt-5"),
    ("run_settings", "claude 4.5 sonnet (reasoning) option 2", "claude 4.5 sonnet"),
    ("run_settings", "deepseek/deepseek-r1:free", "deepseek/deepseek-r1"),
    (
        "run_settings",
        "gemini-2.5-flash-preview-04-17 (16k thinking)",
        "gemini-2.5-flash-preview-04-17",
    ),
    ("bedrock_ids", "us.anthropic.claude-3-5-sonnet-20240620-v1:0", "claude-3-5-sonnet-20240620"),
    ("bedrock_ids", "anthropic.claude-v2:1", "claude-2.1"),
    ("bedrock_ids", "anthropic.claude-instant-v1", "claude-instant-1"),
    ("bedrock_ids", "deepseek.r1-v1:0", "deepseek-r1"),
    ("bedrock_ids", "meta.llama3-1-70b-instruct-v1:0", "llama3-1-70b-instruct"),
    ("bedrock_ids", "openai.gpt-oss-20b-1:0", "gpt-oss-20b"),
    ("dates", "gpt-4o (2024-08-06)", "gpt-4o  2024-08-06 "),
    ("dates", "claude-3-5-sonnet-20241022", "claude-3-5-sonnet-2024-10-22"),
    ("dates", "claude-3-5-sonnet@20240620", "claude-3-5-sonnet-2024-06-20"),
    ("dates", "gpt-4o (aug '24)", "gpt-4o  2024-08 "),
    ("dates", "deepseek v3 (mar' 25)", "deepseek v3  2025-03 "),
    ("dates", "gpt-4o (march 2025)", "gpt-4o  2025-03 "),
    ("dates", "gemini-2.5-flash-preview-09-2025", "gemini-2.5-flash-preview-2025-09"),
    ("dates", "chatgpt-4o-11-25-2024", "chatgpt-4o-2024-11-25"),
    ("dates", "gpt-4-0613", "gpt-4-0613"),  # MMDD vs YYMM is ambiguous: kept
    ("dates", "mistral-large-2407", "mistral-large-2407"),
    ("separators", "llama 3.1_70b: (x)", "llama-3.1-70b-x"),
    ("fireworks_dots", "llama-v3p1-70b-instruct", "llama-v3.1-70b-instruct"),
    ("fireworks_dots", "qwen2p5-coder-1p5b", "qwen2.5-coder-1.5b"),
    ("family_version", "llama3.1-70b", "llama-3.1-70b"),
    ("family_version", "llama-v3.1-70b", "llama-3.1-70b"),
    ("family_version", "qwen2.5-72b", "qwen-2.5-72b"),
    ("family_version", "gpt4o", "gpt-4o"),
    ("family_version", "codeqwen1.5-7b", "codeqwen1.5-7b"),  # not the Qwen family word
    ("dashed_versions", "llama-3-1-70b", "llama-3.1-70b"),
    ("dashed_versions", "llama-3-70b", "llama-3-70b"),
    ("dashed_versions", "claude-3-5-sonnet-2024-10-22", "claude-3.5-sonnet-2024-10-22"),
    ("dashed_versions", "claude-opus-4-1", "claude-opus-4.1"),
    ("vendor_words", "meta-llama-3.1-70b", "llama-3.1-70b"),
    ("claude_order", "claude-sonnet-3.5", "claude-3.5-sonnet"),
    ("claude_order", "claude-4-sonnet", "claude-sonnet-4"),
    ("claude_order", "claude-4.5-haiku-2025-10-01", "claude-haiku-4.5-2025-10-01"),
    ("tuning_words", "llama-3.1-70b-instruct", "llama-3.1-70b"),
    ("tuning_words", "llama-2-70b-chat-hf", "llama-2-70b"),
    ("tuning_words", "gemma-2-9b-it", "gemma-2-9b"),
    ("tuning_words", "gpt-3.5-turbo-instruct", "gpt-3.5-turbo-instruct"),
    ("tuning_words", "deepseek-chat", "deepseek-chat"),
    ("serving_words", "llama-3.1-70b-turbo", "llama-3.1-70b"),
    ("serving_words", "llama-3.1-405b-bf16", "llama-3.1-405b"),
    ("serving_words", "llama-4-maverick-17b-128e-fp8", "llama-4-maverick-17b-128e"),
    ("serving_words", "qwen-2.5-coder-32b-q8-0-gguf", "qwen-2.5-coder-32b"),
    ("serving_words", "llama-3-8b-lite", "llama-3-8b"),
    ("serving_words", "gpt-4-turbo", "gpt-4-turbo"),
    ("serving_words", "gpt-3.5-turbo", "gpt-3.5-turbo"),
    ("serving_words", "gemini-2.0-flash-lite", "gemini-2.0-flash-lite"),
    ("tidy", "-t\u00fclu--3-.", "tulu-3"),
    ("tidy", "dall\u00b7e-3", "dall-e-3"),
    ("tidy", "gemini-2.0-flash-thinking-exp.-2024-12", "gemini-2.0-flash-thinking-exp-2024-12"),
]


@pytest.mark.parametrize(("rule", "raw", "expected"), RULE_CASES)
def test_each_rule(rule: str, raw: str, expected: str) -> None:
    assert RULE[rule](raw) == expected


def test_every_rule_has_a_case() -> None:
    assert {r.name for r in RULES} == {c[0] for c in RULE_CASES}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Meta-Llama-3.1-70B-Instruct", "llama-3.1-70b"),
        ("llama-3.1-70b-instruct", "llama-3.1-70b"),
        ("llama3.1-70b", "llama-3.1-70b"),
        ("together_ai/meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo", "llama-3.1-70b"),
        ("fireworks_ai/accounts/fireworks/models/llama-v3p1-70b-instruct", "llama-3.1-70b"),
        ("bedrock/us-west-2/meta.llama3-1-70b-instruct-v1:0", "llama-3.1-70b"),
        ("GPT-4o (Aug '24)", "gpt-4o-2024-08"),
        ("Claude 3.5 Sonnet (Oct '24)", "claude-3.5-sonnet-2024-10"),
        ("bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0", "claude-3.5-sonnet-2024-06-20"),
        ("gpt-5.1-2025-11-13_high", "gpt-5.1-2025-11-13"),
        ("Qwen3 235B A22B (Reasoning)", "qwen-3-235b-a22b"),
        ("Llama-3.1-Instruct-405B", "llama-3.1-405b"),
        ("\u00a0", ""),
    ],
)
def test_normalize_pipeline(raw: str, expected: str) -> None:
    assert normalize(raw) == expected


def test_normalize_is_idempotent_on_catalog_ids() -> None:
    ids = load_catalog().entries["model_id"].to_list()
    assert [normalize(i) for i in ids] == ids


# --- resolution across sources ---------------------------------------------------------------

# Real names from the sources (source folder in the comment), one model per group.
SAME_MODEL = {
    "gpt-4o-2024-08-06": [
        ("litellm", "gpt-4o-2024-08-06"),  # litellm key
        ("litellm", "azure/global-standard/gpt-4o-2024-08-06"),
        ("openrouter", "openai/gpt-4o-2024-08-06"),
        ("gundlach", "GPT-4o (Aug '24)"),  # Artificial-Analysis style
        ("epoch-llm-price-trends", "GPT-4o-2024-08"),
        ("lmarena", "gpt-4o-2024-08-06"),
        ("epoch-benchmark-stitching", "gpt-4o-2024-08-06"),
    ],
    "claude-3.5-sonnet-2024-06-20": [
        ("litellm", "bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0"),
        ("litellm", "vertex_ai/claude-3-5-sonnet@20240620"),
        ("lmarena", "claude-3-5-sonnet-20240620"),
        ("gundlach", "Claude 3.5 Sonnet (June)"),
        ("epoch-llm-price-trends", "Claude-3.5-Sonnet-2024-06"),
        ("epoch-benchmark-stitching", "claude-3-5-sonnet-20240620"),
    ],
    "llama-3.1-70b": [
        ("litellm", "together_ai/meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo"),
        ("litellm", "bedrock/us-west-2/meta.llama3-1-70b-instruct-v1:0"),
        ("litellm", "cerebras/llama3.1-70b"),
        ("openrouter", "meta-llama/llama-3.1-70b-instruct"),
        ("gundlach", "Llama 3.1 70B"),
        ("epoch-llm-price-trends", "Llama-3.1-Instruct-70B"),
        ("epoch-benchmark-stitching", "Llama-3.1-70B-Instruct"),
        ("genai-prices", "llama-3.1-70b-instruct"),
    ],
    "deepseek-v3": [
        ("litellm", "deepinfra/deepseek-ai/DeepSeek-V3"),
        ("litellm", "fireworks_ai/accounts/fireworks/models/deepseek-v3"),
        ("openrouter", "deepseek/deepseek-v3"),
        ("gundlach", "DeepSeek V3 (Dec '24)"),
        ("epoch-ai-models", "DeepSeek-V3"),
        ("lmarena", "deepseek-v3"),
    ],
    "gemini-1.5-pro-002": [
        ("litellm", "gemini/gemini-1.5-pro-002"),
        ("litellm", "vertex_ai/gemini-1.5-pro-002"),
        ("gundlach", "Gemini 1.5 Pro (Sep)"),
        ("epoch-llm-price-trends", "Gemini-1.5-Pro-2024-09"),
        ("lmarena", "gemini-1.5-pro-002"),
        ("epoch-benchmark-stitching", "gemini-1.5-pro-002"),
    ],
    "llama-3.1-405b": [
        ("lmarena", "llama-3.1-405b-instruct-bf16"),
        ("epoch-ai-models", "Llama 3.1-405B"),
        ("gundlach", "Llama 3.1 405B"),
        ("litellm", "together_ai/meta-llama/Meta-Llama-3.1-405B-Instruct-Turbo"),
        ("openrouter", "meta-llama/llama-3.1-405b-instruct"),
    ],
}


def _names(pairs: list[tuple[str, str]]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "source_id": [s for s, _ in pairs],
            "source_model_name": [n for _, n in pairs],
            "model_hint": [n.rsplit("/", 1)[-1].lower() for _, n in pairs],
        }
    )


@pytest.mark.parametrize("model_id", sorted(SAME_MODEL))
def test_same_model_from_many_sources_is_one_id(model_id: str) -> None:
    out = resolve(_names(SAME_MODEL[model_id]))
    assert out["model_id"].to_list() == [model_id] * len(SAME_MODEL[model_id])
    assert out["resolved"].all()
    assert out["source_id"].n_unique() >= 5


@pytest.mark.parametrize(
    "group",
    [
        [
            "gpt-4",
            "gpt-4-turbo",
            "gpt-4o",
            "gpt-4o-mini",
            "gpt-4-32k",
            "gpt-3.5-turbo",
            "gpt-3.5-turbo-instruct",
        ],
        [
            "llama-3.1-8b-instruct",
            "llama-3.1-70b-instruct",
            "llama-3.1-405b-instruct",
            "llama-3-70b",
            "llama-3.3-70b",
        ],
        [
            "claude-3-5-sonnet-20240620",
            "claude-3-5-sonnet-20241022",
            "claude-3-5-sonnet",
            "claude-3-7-sonnet",
        ],
        ["o1", "o1-mini", "o1-preview", "o3", "o3-mini", "o4-mini"],
        ["gemini-1.5-pro-001", "gemini-1.5-pro-002", "gemini-1.5-flash-002", "gemini-1.5-flash-8b"],
        [
            "deepseek-v3",
            "DeepSeek V3 (Mar' 25)",
            "deepseek-r1",
            "deepseek-r1-0528",
            "deepseek-chat",
        ],
        [
            "Qwen3 235B A22B 2507 (Reasoning)",
            "Qwen3 235B A22B 2507 (Non-reasoning)",
            "Qwen3 235B A22B",
        ],
        ["mistral-large-2402", "mistral-large-2407", "mistral-large-2411"],
    ],
)
def test_different_models_never_collapse(group: list[str]) -> None:
    out = resolve(_names([("t", n) for n in group]))
    assert out["model_id"].n_unique() == len(group), out.select(
        "source_model_name", "model_id"
    ).rows()


def test_month_only_date_picks_the_one_snapshot_of_that_month() -> None:
    out = resolve(
        _names([("t", "GPT-4o (May '24)"), ("t", "GPT-4o (Nov '24)"), ("t", "GPT-4o (Jan '23)")])
    )
    assert out["model_id"].to_list() == ["gpt-4o-2024-05-13", "gpt-4o-2024-11-20", "gpt-4o-2023-01"]
    assert out["resolved"].to_list() == [True, True, False]


def test_exact_alias_beats_normalization() -> None:
    # Bedrock's `deepseek.v3-v1:0` is DeepSeek-V3.1 (LiteLLM flags it supports_reasoning), though it
    # normalizes like DeepSeek-V3; the catalog says so with an exact-only alias.
    out = resolve(
        _names([("litellm", "bedrock/us-west-2/deepseek.v3-v1:0"), ("litellm", "deepseek.r1-v1:0")])
    )
    assert out["model_id"].to_list() == ["deepseek-v3.1", "deepseek-r1"]


def test_dated_name_of_a_family_without_snapshots_resolves_to_the_family() -> None:
    out = resolve(_names([("t", "gpt-4o-mini-2024-07-18"), ("t", "claude-3-haiku-20240307")]))
    assert out["model_id"].to_list() == ["gpt-4o-mini", "claude-3-haiku"]


def test_unknown_name_keeps_its_slug_and_model_info_marks_it_resolved() -> None:
    names = _names([("t", "acme/Frobnicator-7B-Instruct")])
    assert resolve(names).select("model_id", "resolved").row(0) == ("frobnicator-7b", False)
    info = _names([("epoch-ai-models", "Frobnicator 7B")])
    assert resolve(names, info)["resolved"].to_list() == [True]


def test_resolve_keeps_extra_columns_order_and_rows() -> None:
    names = _names([("a", "gpt-4o"), ("b", "gpt-4o"), ("a", "gpt-4o")]).with_columns(
        pl.Series("x", [1, 2, 3])
    )
    out = resolve(names)
    assert out.columns == [
        "source_id",
        "source_model_name",
        "model_hint",
        "x",
        "model_id",
        "resolved",
    ]
    assert out["x"].to_list() == [1, 2, 3]


def test_resolve_uses_the_name_when_the_hint_is_null() -> None:
    names = pl.DataFrame(
        {"source_id": ["t"], "source_model_name": ["Llama 3.3 70B"], "model_hint": [None]}
    )
    assert resolve(names, None)["model_id"].to_list() == ["llama-3.3-70b"]


def test_resolve_rejects_names_that_make_no_id() -> None:
    with pytest.raises(DataError, match=r"src-x.*source_model_name.*no model id"):
        resolve(_names([("src-x", "???")]))


def test_resolve_requires_its_columns() -> None:
    with pytest.raises(DataError, match="model_hint"):
        resolve(pl.DataFrame({"source_id": ["a"], "source_model_name": ["b"]}))


def test_resolve_gives_every_spelling_of_a_name_one_id_on_60k_rows() -> None:
    # Its speed is measured by benchmarks/bench_data.py, not here.
    base = [(f"s{i % 7}", f"vendor/model-{i % 5000}-{i % 3}b-instruct") for i in range(60_000)]
    out = resolve(_names(base))
    assert out.height == 60_000
    ids = out.group_by("source_model_name").agg(pl.col("model_id").n_unique().alias("ids"))
    assert ids["ids"].max() == 1


def test_catalog_ids_are_slugs_and_cover_the_book_models() -> None:
    cat = load_catalog()
    ids = set(cat.entries["model_id"])
    assert cat.entries["model_id"].str.contains(SLUG).all()
    assert len(ids) == cat.entries.height >= 80
    for needed in ["gpt-3-davinci", "gpt-4", "gpt-4o", "o1", "o3-mini", "claude-3-opus", "gemini-2.5-pro",
                   "llama-3.1-405b", "mixtral-8x7b", "deepseek-r1", "qwen-2.5-72b", "gpt-5"]:  # fmt: skip
        assert needed in ids


def _write_catalog(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "catalog.csv"
    path.write_text("model_id,name,organization,aliases\n" + text, encoding="utf-8")
    return path


def test_catalog_rejects_an_alias_claimed_twice(tmp_path: Path) -> None:
    path = _write_catalog(tmp_path, "gpt-4,GPT-4,OpenAI,\ngpt-4-0613,GPT-4 0613,OpenAI,GPT-4\n")
    with pytest.raises(DataError, match=r"row 2, column 'aliases'.*claimed by two models"):
        load_catalog(path)


def test_catalog_rejects_an_id_that_is_not_normalized(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"row 1, column 'model_id'.*normalized slug"):
        load_catalog(_write_catalog(tmp_path, "GPT-4,GPT-4,OpenAI,\n"))


def test_exact_only_alias_does_not_claim_its_normalized_form(tmp_path: Path) -> None:
    cat = load_catalog(
        _write_catalog(tmp_path, "a-2507,A,X,\na-thinking-2507,A T,X,=A 2507 (Reasoning)\n")
    )
    assert cat.exact["a 2507 (reasoning)"] == "a-thinking-2507"
    assert cat.by_slug["a-2507"] == "a-2507"


# --- build_models ----------------------------------------------------------------------------


def _info(rows: list[dict]) -> pl.DataFrame:
    base = {c: None for c in models.MODEL_INFO_COLUMNS}
    schema = {
        "source_id": pl.String, "source_model_name": pl.String, "model_hint": pl.String, "name": pl.String,
        "organization": pl.String, "release_date": pl.Date, "open_weights": pl.Boolean,
        "parameters_b": pl.Float64, "active_parameters_b": pl.Float64, "reasoning": pl.Boolean,
        "source_locator": pl.String,
    }  # fmt: skip
    return pl.DataFrame([base | r for r in rows], schema=schema)


def test_build_models_precedence_aliases_and_schema() -> None:
    names = resolve(_names([("litellm", "together_ai/meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo"),
                            ("openrouter", "meta-llama/llama-3.1-70b-instruct"),
                            ("litellm", "together_ai/meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo"),
                            ("x", "Frobnicator 7B")]))  # fmt: skip
    info = _info(
        [
            {"source_id": "zz-other", "source_model_name": "Llama 3.1 70B", "release_date": dt.date(2024, 7, 1),
             "parameters_b": 71.0, "organization": "Meta Platforms", "source_locator": "z#1"},
            {"source_id": "epoch-ai-models", "source_model_name": "Llama 3.1-70B", "release_date": dt.date(2024, 7, 23),
             "open_weights": True, "source_locator": "e#1"},
        ]
    )  # fmt: skip
    out = build_models(names, info)
    assert out.columns == TABLES["models"].column_names
    assert dict(out.schema) == TABLES["models"].polars_schema
    llama = out.filter(pl.col("model_id") == "llama-3.1-70b").row(0, named=True)
    assert llama["release_date"] == dt.date(2024, 7, 23)  # Epoch first
    assert llama["info_source_id"] == "epoch-ai-models"
    assert llama["parameters_b"] == 71.0  # only the other source says it
    assert llama["organization"] == "Meta Platforms"  # a source beats the catalog
    assert (
        llama["aliases"]
        == "meta-llama/llama-3.1-70b-instruct;together_ai/meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo"
    )
    assert llama["name"] == "Llama 3.1 70B" and llama["resolved"]
    frob = out.filter(pl.col("model_id") == "frobnicator-7b").row(0, named=True)
    assert frob == frob | {
        "name": "Frobnicator 7B",
        "resolved": False,
        "info_source_id": None,
        "reasoning": None,
    }


def test_build_models_reasoning_flag_source_wins_then_epoch_list() -> None:
    names = resolve(
        _names([("t", "o1-mini"), ("t", "deepseek-r1"), ("t", "gpt-4o"), ("t", "o3-mini")])
    )
    info = _info(
        [
            {
                "source_id": "s",
                "source_model_name": "o3-mini",
                "reasoning": False,
                "source_locator": "s#1",
            }
        ]
    )
    out = build_models(names, info)
    flags = dict(out.select("model_id", "reasoning").rows())
    assert flags == {"o1-mini": True, "deepseek-r1": True, "gpt-4o": None, "o3-mini": False}


def test_build_models_rejects_the_alias_separator_in_a_name() -> None:
    with pytest.raises(DataError, match="alias separator"):
        build_models(resolve(_names([("t", "a;b")])), None)


# --- first party -----------------------------------------------------------------------------

FIRST_PARTY_CASES = [
    ("openai", "OpenAI", True),
    ("azure", "OpenAI", False),
    ("anthropic", "Anthropic", True),
    ("bedrock", "Anthropic", False),
    ("vertex-ai", "Anthropic", False),
    ("google", "Google DeepMind", True),
    ("vertex-ai", "Google DeepMind", True),
    ("google-ai-studio", "Google", True),
    ("deepseek", "DeepSeek", True),
    ("together", "DeepSeek", False),
    ("mistral", "Mistral AI", True),
    ("xai", "xAI", True),
    ("cohere", "Cohere", True),
    ("bedrock", "Amazon", True),
    ("meta", "Meta AI", True),  # Meta's own API (Llama API, Muse Spark)
    ("together", "Meta", False),
    ("dashscope", "Alibaba", True),
    ("openai", None, None),  # unknown only when the developer is unknown
    ("unspecified", "OpenAI", None),  # the source does not say who sells it
    ("azure", "Microsoft", True),
    ("huggingface-novita", "Meta", False),
]


@pytest.mark.parametrize(("provider", "org", "expected"), FIRST_PARTY_CASES)
def test_is_first_party(provider: str, org: str | None, expected: bool) -> None:
    assert is_first_party_by_organization(provider, org) is expected


def test_first_party_expr_agrees_with_the_scalar_helper() -> None:
    df = pl.DataFrame(
        FIRST_PARTY_CASES, schema=["provider", "organization", "expected"], orient="row"
    )
    assert (
        df.select(first_party_by_organization_expr())["first_party"].to_list()
        == df["expected"].to_list()
    )


# --- real sources ----------------------------------------------------------------------------


def test_real_source_names_resolve(sources_dir: Path) -> None:
    """Names read from four real files resolve to the expected catalog ids."""
    litellm = json.loads(
        (
            sources_dir
            / "litellm-prices-rocry-mirror/2025-02-06_model_prices_and_context_window.json"
        ).read_text()
    )
    aa = pl.read_csv(sources_dir / "inference-price-trends-gundlach/2026-04-27_HEAD/data/inference_data_new_large.csv",
                     infer_schema=False, columns=["Model"])  # fmt: skip
    trends = pl.read_csv(sources_dir / "epoch-llm-price-trends/2025-03-13_HEAD/data/aa_data_with_math5.csv",
                         infer_schema=False, columns=["Model Name"])  # fmt: skip
    pairs = [("litellm", k) for k in litellm] + [("gundlach", n) for n in aa["Model"].drop_nulls()]
    pairs += [("epoch-llm-price-trends", n) for n in trends["Model Name"]]
    out = resolve(_names(pairs))
    ids = set(out["model_id"])
    for mid in [
        "gpt-4o-2024-08-06",
        "claude-3.5-sonnet-2024-10-22",
        "llama-3.1-405b",
        "gemini-1.5-pro-002",
    ]:
        assert mid in ids
    assert out["model_id"].str.contains(SLUG).all()
    share = out.filter(pl.col("source_id") == "epoch-llm-price-trends")["resolved"].mean()
    assert share >= 0.9  # the price-trend paper's models are all curated
