"""Tests of the LiteLLM-format token-price importer on hand-written snapshots and on the real mirrors."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import litellm
from analysis.data.schema import TABLES

ROCRY = litellm.ROCRY_DIR
TOKENCOST = litellm.TOKENCOST_DIR
ROCRY_NAME = "model_prices_and_context_window.json"

GPT_4O = {
    "input_cost_per_token": 2.5e-06,
    "output_cost_per_token": 1e-05,
    "cache_read_input_token_cost": 1.25e-06,
    "input_cost_per_token_batches": 1.25e-06,
    "output_cost_per_token_batches": 5e-06,
    "input_cost_per_token_priority": 4.25e-06,
    "litellm_provider": "openai",
    "max_input_tokens": 128000,
    "mode": "chat",
}
LLAMA_TOGETHER = {
    "input_cost_per_token": 8.8e-07,
    "output_cost_per_token": 8.8e-07,
    "litellm_provider": "together_ai",
    "mode": "chat",
}
CLAUDE_VERTEX = {
    "input_cost_per_token": 3e-06,
    "output_cost_per_token": 1.5e-05,
    "litellm_provider": "vertex_ai-anthropic_models",
    "mode": "chat",
}
AZURE_GPT35 = {
    "input_cost_per_token": 2e-07,
    "output_cost_per_token": 2e-06,
    "litellm_provider": "azure",
    "mode": "chat",
}
DEEPSEEK_CHAT = {
    "input_cost_per_token": 2.7e-07,
    "output_cost_per_token": 1.1e-06,
    "input_cost_per_token_cache_hit": 7e-08,
    "litellm_provider": "deepseek",
    "mode": "chat",
}


def gemini_pro(input_price: float, output_price: float) -> dict:
    return {
        "input_cost_per_token": input_price,
        "output_cost_per_token": output_price,
        "input_cost_per_token_above_128k_tokens": 2 * input_price,
        "output_cost_per_token_above_128k_tokens": 2 * output_price,
        "litellm_provider": "gemini",
        "mode": "chat",
    }


SKIPPED = {
    "sample_spec": {
        "input_cost_per_token": 0.0,
        "output_cost_per_token": 0.0,
        "litellm_provider": "one of https://docs.litellm.ai/docs/providers",
        "mode": "one of: chat, embedding, completion, image_generation",
    },
    "text-embedding-3-small": {
        "input_cost_per_token": 2e-08,
        "output_cost_per_token": 0.0,
        "litellm_provider": "openai",
        "mode": "embedding",
    },
    "ollama/llama3": {
        "input_cost_per_token": 0.0,
        "output_cost_per_token": 0.0,
        "litellm_provider": "ollama",
        "mode": "chat",
    },
    "fireworks-ai-up-to-4b": {
        "input_cost_per_token": 2e-07,
        "output_cost_per_token": 2e-07,
        "litellm_provider": "fireworks_ai",
    },
    "ft:gpt-4o-mini-2024-07-18": {
        "input_cost_per_token": 3e-07,
        "output_cost_per_token": 1.2e-06,
        "litellm_provider": "openai",
        "mode": "chat",
    },
    "wandb/deepseek-ai/DeepSeek-R1-0528": {
        "input_cost_per_token": 0.135,
        "output_cost_per_token": 0.54,
        "litellm_provider": "wandb",
        "mode": "chat",
    },
    "chat-bison": {
        "input_cost_per_character": 2.5e-07,
        "output_cost_per_character": 5e-07,
        "litellm_provider": "vertex_ai-chat-models",
        "mode": "chat",
    },
}

# Three monthly snapshots: gpt-4o steady, Gemini cut in April, the Together route missing in March.
ROCRY_SNAPSHOTS = {
    "2025-02-06": {
        **SKIPPED,
        "gpt-4o": GPT_4O,
        "together_ai/meta-llama/Llama-3.3-70B-Instruct-Turbo": LLAMA_TOGETHER,
        "vertex_ai/claude-3-5-sonnet@20240620": CLAUDE_VERTEX,
        "gemini/gemini-1.5-pro": gemini_pro(3.5e-06, 1.05e-05),
        "deepseek/deepseek-chat": DEEPSEEK_CHAT,
        "azure/gpt-35-turbo-0301": AZURE_GPT35,
        "last_updated": "2025-02-06T00:37:26.012094+00:00",
    },
    "2025-03-02": {
        "gpt-4o": GPT_4O,
        "vertex_ai/claude-3-5-sonnet@20240620": CLAUDE_VERTEX,
        "gemini/gemini-1.5-pro": gemini_pro(3.5e-06, 1.05e-05),
        "last_updated": "2025-03-02T17:06:48.166663+00:00",
    },
    "2025-04-01": {
        "gpt-4o": GPT_4O,
        "together_ai/meta-llama/Llama-3.3-70B-Instruct-Turbo": LLAMA_TOGETHER,
        "gemini/gemini-1.5-pro": gemini_pro(1.25e-06, 5e-06),
        "last_updated": "2025-04-01T00:37:26.012094+00:00",
    },
}

# tokencost: the January 2024 file states no provider; March does.
TOKENCOST_JANUARY = {
    "gpt-4": {"input_cost_per_token": 3e-05, "output_cost_per_token": 6e-05, "mode": "chat"},
    "anthropic.claude-v2": {
        "input_cost_per_token": 8e-06,
        "output_cost_per_token": 2.4e-05,
        "mode": "chat",
    },
    "openrouter/anthropic/claude-2": {
        "input_cost_per_token": 1.102e-05,
        "output_cost_per_token": 3.268e-05,
        "mode": "chat",
    },
}
TOKENCOST_MARCH = {
    "gpt-4": {**TOKENCOST_JANUARY["gpt-4"], "litellm_provider": "openai"},
    "anthropic.claude-v2": {
        **TOKENCOST_JANUARY["anthropic.claude-v2"],
        "litellm_provider": "bedrock",
    },
    "openrouter/anthropic/claude-2": {
        **TOKENCOST_JANUARY["openrouter/anthropic/claude-2"],
        "litellm_provider": "openrouter",
    },
    "claude-2": {
        "input_cost_per_token": 8e-06,
        "output_cost_per_token": 2.4e-05,
        "litellm_provider": "anthropic",
        "mode": "chat",
    },
}
TOKENCOST_YAML = """
# Prices last updated Jan 1, 2024 from: https://openai.com/pricing

gpt-4:
  max_prompt: 8192
  prompt: 300
  completion: 600
claude-2:
  max_prompt: 100000
  prompt: 80
  completion: 240
text-embedding-ada-002:
  max_prompt: 8191
  prompt: 1
  completion: 0
text-davinci-003:
  max_prompt: 4097
  prompt: 20
  completion: 20
"""


def write_sources(root: Path, files: dict[str, str]) -> Path:
    """Write raw files and, per folder, the `_PROVENANCE.tsv` that describes them."""
    folders: dict[str, list[str]] = {}
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        folders.setdefault(rel.split("/", 1)[0], []).append(rel)
    header = "file\trepo\tcommit\tcommit_date\tpath_in_repo\tbytes\tsha256"
    for folder, rels in folders.items():
        lines = [header]
        for rel in rels:
            data = (root / rel).read_bytes()
            sha = hashlib.sha256(data).hexdigest()
            commit = hashlib.sha1(data).hexdigest()
            day = Path(rel).name[:10]
            lines.append(
                f"{rel}\tsome/repo\t{commit}\t{day}\t{Path(rel).name[11:]}\t{len(data)}\t{sha}"
            )
        (root / folder / "_PROVENANCE.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


@pytest.fixture
def fixture_dir(tmp_path: Path) -> Path:
    files = {
        f"{ROCRY}/{day}_{ROCRY_NAME}": json.dumps(snap) for day, snap in ROCRY_SNAPSHOTS.items()
    }
    files[f"{TOKENCOST}/2024-01-30_tokencost__model_prices.json"] = json.dumps(TOKENCOST_JANUARY)
    files[f"{TOKENCOST}/2024-03-25_tokencost__model_prices.json"] = json.dumps(TOKENCOST_MARCH)
    files[f"{TOKENCOST}/2024-01-01_model_prices.yaml"] = TOKENCOST_YAML
    return write_sources(tmp_path, files)


@pytest.fixture
def prices(fixture_dir: Path) -> pl.DataFrame:
    return litellm.build(fixture_dir)["token_prices"]


def rows_of(prices: pl.DataFrame, key: str, source_id: str = "litellm-rocry") -> list[dict]:
    picked = prices.filter(pl.col("source_model_name") == key, pl.col("source_id") == source_id)
    return picked.sort("date").to_dicts()


def test_prices_are_converted_to_usd_per_million_tokens(prices):
    [row] = rows_of(prices, "gpt-4o")
    assert (row["input_usd_per_mtok"], row["output_usd_per_mtok"]) == (2.5, 10.0)
    assert row["cached_input_usd_per_mtok"] == 1.25
    assert (row["batch_input_usd_per_mtok"], row["batch_output_usd_per_mtok"]) == (1.25, 5.0)
    assert (row["currency"], row["price_kind"], row["context_tier"]) == ("USD", "list", "")
    assert row["provider"] == "openai"
    assert row["model_hint"] == "gpt-4o"


def test_float_noise_is_rounded_away(prices):
    [row] = rows_of(prices, "azure/gpt-35-turbo-0301")
    assert 2e-07 * 1e6 == 0.19999999999999998  # the raw product carries float noise
    assert (row["input_usd_per_mtok"], row["output_usd_per_mtok"]) == (0.2, 2.0)


def test_a_steady_price_is_one_row_spanning_its_snapshots(prices):
    [row] = rows_of(prices, "gpt-4o")
    assert (row["date"], row["last_seen"]) == (date(2025, 2, 6), date(2025, 4, 1))


def test_a_price_change_starts_a_new_row(prices):
    before, after = rows_of(prices, "gemini/gemini-1.5-pro")
    assert (before["date"], before["last_seen"]) == (date(2025, 2, 6), date(2025, 3, 2))
    assert (before["input_usd_per_mtok"], before["output_usd_per_mtok"]) == (3.5, 10.5)
    assert (after["date"], after["last_seen"]) == (date(2025, 4, 1), date(2025, 4, 1))
    assert (after["input_usd_per_mtok"], after["output_usd_per_mtok"]) == (1.25, 5.0)


def test_a_key_missing_from_a_snapshot_never_bridges_the_gap(prices):
    runs = rows_of(prices, "together_ai/meta-llama/Llama-3.3-70B-Instruct-Turbo")
    assert [(r["date"], r["last_seen"]) for r in runs] == [
        (date(2025, 2, 6), date(2025, 2, 6)),
        (date(2025, 4, 1), date(2025, 4, 1)),
    ]


def test_only_priced_text_models_become_rows(prices):
    names = set(prices["source_model_name"])
    assert names.isdisjoint(SKIPPED), (
        "sample_spec, embeddings, $0, size buckets, ft:, unit slips, per-character"
    )
    assert "last_updated" not in names


def test_context_tiers_above_the_base_are_not_rows(prices):
    gemini = rows_of(prices, "gemini/gemini-1.5-pro")
    assert [r["context_tier"] for r in gemini] == ["", ""]
    assert gemini[0]["input_usd_per_mtok"] == 3.5  # base price, not the >128k price (7.0)


def test_deepseek_cache_hit_price_is_the_cached_price(prices):
    [row] = rows_of(prices, "deepseek/deepseek-chat")
    assert row["cached_input_usd_per_mtok"] == 0.07


def test_providers_are_clean_slugs(prices):
    rocry = prices.filter(pl.col("source_id") == "litellm-rocry")
    assert set(rocry["provider"]) == {
        "openai",
        "together",
        "vertex-ai",
        "google",
        "deepseek",
        "azure",
    }
    assert not prices["provider"].str.contains("_").any()


@pytest.mark.parametrize(
    ("litellm_provider", "slug"),
    [
        ("together_ai", "together"),
        ("vertex_ai-anthropic_models", "vertex-ai"),
        ("vertex_ai-language-models", "vertex-ai"),
        ("bedrock_converse", "bedrock"),
        ("azure_ai", "azure-ai"),
        ("fireworks_ai", "fireworks"),
        ("text-completion-openai", "openai"),
        ("gemini", "google"),
        ("nvidia_nim", "nvidia-nim"),
        ("openrouter", "openrouter"),
    ],
)
def test_provider_slug(litellm_provider, slug):
    assert litellm.provider_slug(litellm_provider) == slug


@pytest.mark.parametrize(
    ("key", "hint"),
    [
        ("bedrock/anthropic.claude-3-sonnet-20240229-v1:0", "claude-3-sonnet-20240229"),
        ("us.anthropic.claude-3-5-sonnet-20241022-v2:0", "claude-3-5-sonnet-20241022"),
        ("bedrock/us-east-1/anthropic.claude-v2:1", "claude-v2.1"),
        ("eu.anthropic.claude-opus-4-6-v1", "claude-opus-4-6"),
        ("anthropic.claude-instant-v1", "claude-instant-v1"),
        ("mistral.mistral-7b-instruct-v0:2", "mistral-7b-instruct-v0.2"),
        ("meta.llama3-1-405b-instruct-v1:0", "llama3-1-405b-instruct"),
        ("us.deepseek.r1-v1:0", "deepseek-r1"),
        ("vertex_ai/claude-3-5-sonnet@20240620", "claude-3-5-sonnet-20240620"),
        ("vertex_ai/mistral-large@2407", "mistral-large-2407"),
        ("text-bison@001", "text-bison"),
        ("openrouter/meta-llama/llama-3-8b-instruct:free", "llama-3-8b-instruct"),
        ("together_ai/meta-llama/Llama-3.3-70B-Instruct-Turbo", "llama-3.3-70b-instruct-turbo"),
        ("azure/gpt-35-turbo-16k", "gpt-3.5-turbo-16k"),
        ("azure/eu/gpt-4o-2024-08-06", "gpt-4o-2024-08-06"),
        ("groq/llama3-70b-8192", "llama3-70b-8192"),
        ("claude-3-5-sonnet-20240620", "claude-3-5-sonnet-20240620"),
        ("ollama/llama2:13b", "llama2:13b"),
    ],
)
def test_model_hint(key, hint):
    assert litellm.model_hint(key) == hint


def test_missing_providers_come_from_the_route_or_the_nearest_snapshot(prices):
    january = prices.filter(pl.col("source_id") == "tokencost", pl.col("date") == date(2024, 1, 30))
    providers = dict(zip(january["source_model_name"], january["provider"], strict=True))
    assert providers == {
        "gpt-4": "openai",  # stated for the key in 2024-03-25
        "anthropic.claude-v2": "bedrock",  # stated for the key in 2024-03-25
        "openrouter/anthropic/claude-2": "openrouter",  # route prefix
    }


def test_tokencost_yaml_is_read_as_tenths_of_a_dollar_per_million(prices):
    yaml_rows = prices.filter(pl.col("source_id") == "tokencost-yaml").sort("source_model_name")
    assert yaml_rows.select("source_model_name", "provider").rows() == [
        ("claude-2", "anthropic"),
        ("gpt-4", "openai"),
    ], "embedding and the key no snapshot names a provider for are left out"
    gpt4 = yaml_rows.row(1, named=True)
    assert (gpt4["input_usd_per_mtok"], gpt4["output_usd_per_mtok"]) == (30.0, 60.0)
    assert gpt4["date"] == date(2024, 1, 1)


def test_locator_names_file_commit_and_key_of_the_first_snapshot(prices, fixture_dir):
    _, after = rows_of(prices, "gemini/gemini-1.5-pro")
    rel = f"{ROCRY}/2025-04-01_{ROCRY_NAME}"
    commit = hashlib.sha1((fixture_dir / rel).read_bytes()).hexdigest()[:12]
    assert after["source_locator"] == f"{rel}@{commit}#key gemini/gemini-1.5-pro"


def test_columns_follow_the_schema_and_output_is_deterministic(fixture_dir, prices):
    expected = [
        c for c in TABLES["token_prices"].column_names if c not in ("model_id", "first_party")
    ]
    assert prices.columns == [*expected, "model_hint"]
    assert prices.equals(litellm.build(fixture_dir)["token_prices"])
    key = ["provider", "date", "source_id", "source_model_name"]
    assert not prices.select(key).is_duplicated().any()


def test_model_info_is_empty_but_shaped(fixture_dir):
    info = litellm.build(fixture_dir)["model_info"]
    assert info.height == 0
    assert "release_date" in info.columns and info.schema["release_date"] == pl.Date()


def test_a_price_that_is_not_a_number_is_reported_with_file_key_and_value(tmp_path):
    rel = f"{ROCRY}/2025-02-06_{ROCRY_NAME}"
    bad = {"gpt-4o": {**GPT_4O, "output_cost_per_token": "1e-05"}}
    root = write_sources(tmp_path, {rel: json.dumps(bad)})
    with pytest.raises(DataError) as err:
        litellm.build(root)
    message = str(err.value)
    assert (
        rel.split("/")[1] in message and "gpt-4o" in message and "output_cost_per_token" in message
    )
    assert "'1e-05'" in message and "must be a number" in message


def test_a_negative_price_is_an_error(tmp_path):
    path = tmp_path / f"2025-02-06_{ROCRY_NAME}"
    path.write_text(json.dumps({"gpt-4o": {**GPT_4O, "input_cost_per_token": -1e-06}}))
    with pytest.raises(DataError, match="must not be negative"):
        litellm.read_litellm_json(path)


def test_a_missing_mirror_is_an_error_not_an_empty_table(tmp_path):
    root = write_sources(
        tmp_path, {f"{ROCRY}/2025-02-06_{ROCRY_NAME}": json.dumps({"gpt-4o": GPT_4O})}
    )
    with pytest.raises(DataError, match=f"{TOKENCOST}.*no snapshot file"):
        litellm.build(root)


def test_a_snapshot_file_needs_its_date_in_the_name(tmp_path):
    with pytest.raises(DataError, match="YYYY-MM-DD"):
        litellm.snapshot_date(tmp_path / ROCRY_NAME)


def test_sources_rows_have_the_sources_columns():
    columns = set(TABLES["sources"].column_names)
    assert {s["source_id"] for s in litellm.SOURCES} == {
        "litellm-rocry",
        "tokencost",
        "tokencost-yaml",
    }
    assert all(set(s) == columns for s in litellm.SOURCES)


# --- the real mirrors ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_prices(sources_dir: Path) -> pl.DataFrame:
    return litellm.build(sources_dir)["token_prices"]


def test_real_mirrors_give_thousands_of_prices_from_2024_to_2026(real_prices):
    assert real_prices.height > 3000
    spans = {
        r["source_id"]: (r["first"], r["last"])
        for r in real_prices.group_by("source_id")
        .agg(first=pl.col("date").min(), last=pl.col("last_seen").max())
        .to_dicts()
    }
    assert spans["tokencost-yaml"] == (date(2024, 1, 1), date(2024, 1, 4))
    assert spans["tokencost"] == (date(2024, 1, 30), date(2025, 9, 1))
    assert spans["litellm-rocry"] == (date(2025, 2, 6), date(2026, 7, 24))
    assert not real_prices["provider"].str.contains("_").any()
    key = ["provider", "date", "source_id", "source_model_name"]
    assert not real_prices.select(key).is_duplicated().any()


@pytest.mark.parametrize("source_id", ["litellm-rocry", "tokencost"])
def test_real_gpt_4o_at_openai_lists_2_50_and_10_in_2025(real_prices, source_id):
    runs = real_prices.filter(
        pl.col("source_id") == source_id,
        pl.col("source_model_name") == "gpt-4o",
        pl.col("provider") == "openai",
        pl.col("date") <= date(2025, 12, 31),
        pl.col("last_seen") >= date(2025, 1, 1),
    )
    assert runs.height >= 1
    assert runs.select("input_usd_per_mtok", "output_usd_per_mtok").unique().rows() == [(2.5, 10.0)]


# Anthropic's key as LiteLLM writes it (cf. the 2026-07-24 RoCry snapshot's claude-opus-4-1):
# the 5-minute write, the 1-hour write and a long-context write are three prices.
CLAUDE_CACHING = {
    "input_cost_per_token": 1.5e-05,
    "output_cost_per_token": 7.5e-05,
    "cache_read_input_token_cost": 1.5e-06,
    "cache_creation_input_token_cost": 1.875e-05,
    "cache_creation_input_token_cost_above_1hr": 3e-05,
    "cache_creation_input_token_cost_above_200k_tokens": 3.75e-05,
    "litellm_provider": "anthropic",
    "mode": "chat",
}


def test_the_cache_write_is_the_default_write_and_a_change_in_it_starts_a_run(tmp_path):
    """`cache_creation_input_token_cost` x 1e6 is the cache-write price (18.75, not the 1-hour
    30 or the long-context 37.5); a key without it states none (null, never zero); a changed
    write is a changed price vector, so a new row."""
    changed = {**CLAUDE_CACHING, "cache_creation_input_token_cost": 2e-05}
    snaps = {
        "2025-02-06": {"claude-opus-4-1": CLAUDE_CACHING, "gpt-4o": GPT_4O},
        "2025-03-02": {"claude-opus-4-1": CLAUDE_CACHING, "gpt-4o": GPT_4O},
        "2025-04-01": {"claude-opus-4-1": changed, "gpt-4o": GPT_4O},
    }
    files = {f"{ROCRY}/{day}_{ROCRY_NAME}": json.dumps(s) for day, s in snaps.items()}
    files[f"{TOKENCOST}/2024-01-30_tokencost__model_prices.json"] = json.dumps(TOKENCOST_JANUARY)
    files[f"{TOKENCOST}/2024-01-01_model_prices.yaml"] = TOKENCOST_YAML
    prices = litellm.build(write_sources(tmp_path, files))["token_prices"]
    first, second = rows_of(prices, "claude-opus-4-1")
    assert first["cache_write_usd_per_mtok"] == 18.75
    assert (first["date"], first["last_seen"]) == (date(2025, 2, 6), date(2025, 3, 2))
    assert second["cache_write_usd_per_mtok"] == 20.0
    assert second["input_usd_per_mtok"] == first["input_usd_per_mtok"] == 15.0
    [gpt] = rows_of(prices, "gpt-4o")
    assert gpt["cache_write_usd_per_mtok"] is None
    assert (
        prices.filter(pl.col("source_id") == "tokencost-yaml")["cache_write_usd_per_mtok"]
        .is_null()
        .all()
    )
