"""pydantic/genai-prices importer: dated price sets, off-peak, tiers, what is left out."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import genai_prices

HEAD = dt.date(2026, 8, 21)

OPENAI = """\
# yaml-language-server: $schema=.schema.json
name: OpenAI
id: openai
pricing_urls:
  - https://platform.openai.com/docs/pricing
api_pattern: 'https://api\\.openai\\.com'
models:
  - id: gpt-4o
    name: gpt 4o
    match:
      starts_with: gpt-4o
    prices_checked: 2025-07-12
    prices:
      input_mtok: 2.5
      cache_read_mtok: 1.25
      output_mtok: 10
  - id: o3
    match:
      equals: o3
    prices_checked: 2025-07-12
    prices:
      - prices:
          input_mtok: 10
          cache_read_mtok: 0.5
          output_mtok: 40
      - constraint:
          start_date: 2025-06-10
        prices:
          input_mtok: 2
          cache_read_mtok: 0.5
          output_mtok: 8
  - id: gpt-5.4
    match:
      equals: gpt-5.4
    prices:
      input_mtok:
        base: 2.5
        tiers:
          - start: 272000
            price: 5
      cache_read_mtok: 0.25
      output_mtok:
        base: 15
        tiers:
          - start: 272000
            price: 22.5
  - id: text-embedding-3-small
    match:
      equals: text-embedding-3-small
    prices:
      input_mtok: 0.02
  - id: gpt-image-1
    match:
      equals: gpt-image-1
    prices:
      input_mtok: 5
      input_image_mtok: 10
      output_mtok: 40
  - id: gpt-4o-mini-tts
    match:
      equals: gpt-4o-mini-tts
    prices:
      input_mtok: 0.6
      output_audio_mtok: 12
      output_mtok: 12
  - id: davinci-legacy
    removed: true
    match:
      equals: davinci-legacy
    prices:
      input_mtok: 20
      output_mtok: 20
"""

DEEPSEEK = """\
name: Deepseek
id: deepseek
api_pattern: 'https://api\\.deepseek\\.com'
models:
  - id: deepseek-chat
    match:
      starts_with: deepseek-chat
    prices_checked: 2025-07-12
    prices:
      - prices:
          input_mtok: 0.135
          cache_read_mtok: 0.035
          output_mtok: 0.55
      - constraint:
          start_time: '00:30:00Z'
          end_time: '16:30:00Z'
        prices:
          input_mtok: 0.27
          cache_read_mtok: 0.07
          output_mtok: 1.1
"""

AWS = """\
name: AWS Bedrock
id: aws
api_pattern: 'https://bedrock-runtime\\.[a-z0-9-]+\\.amazonaws\\.com(/|$)'
models:
  - id: global.anthropic.claude-sonnet-4-5-20250929-v1:0
    match:
      contains: claude-sonnet-4-5
    prices_checked: 2026-06-30
    prices:
      input_mtok: 3
      cache_read_mtok: 0.3
      output_mtok: 15
  - id: mistral-small:free
    match:
      equals: mistral-small:free
    prices: {}
"""


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _rows(rows: list[dict], model_id: str) -> list[dict]:
    return sorted((r for r in rows if r["source_model_name"] == model_id), key=lambda r: r["date"])


def test_undated_price_uses_prices_checked_and_head_keeps_it_in_view(tmp_path):
    rows = genai_prices.parse_provider_file(_write(tmp_path, "openai.yml", OPENAI), HEAD)
    [gpt4o] = _rows(rows, "gpt-4o")
    assert (gpt4o["date"], gpt4o["last_seen"]) == (dt.date(2025, 7, 12), HEAD)
    assert (
        gpt4o["input_usd_per_mtok"],
        gpt4o["output_usd_per_mtok"],
        gpt4o["cached_input_usd_per_mtok"],
    ) == (
        2.5,
        10.0,
        1.25,
    )
    assert (gpt4o["provider"], gpt4o["price_kind"], gpt4o["currency"]) == ("openai", "list", "USD")
    [gpt54] = _rows(rows, "gpt-5.4")  # no prices_checked: dated by the HEAD commit
    assert gpt54["date"] == HEAD


def test_dated_price_change_gives_the_old_price_its_last_day(tmp_path):
    rows = genai_prices.parse_provider_file(_write(tmp_path, "openai.yml", OPENAI), HEAD)
    old, new = _rows(rows, "o3")
    assert (old["date"], old["last_seen"], old["input_usd_per_mtok"]) == (
        dt.date(2025, 6, 9),
        dt.date(2025, 6, 9),
        10.0,
    )
    assert (new["date"], new["last_seen"], new["input_usd_per_mtok"]) == (
        dt.date(2025, 6, 10),
        HEAD,
        2.0,
    )
    assert new["where"] == "provider openai, model o3, prices[1]"


def test_tiered_prices_give_the_base_row_and_tier_rows_only_when_asked(tmp_path):
    path = _write(tmp_path, "openai.yml", OPENAI)
    [base] = _rows(genai_prices.parse_provider_file(path, HEAD), "gpt-5.4")
    assert (base["input_usd_per_mtok"], base["output_usd_per_mtok"], base["context_tier"]) == (
        2.5,
        15.0,
        "",
    )
    with_tiers = _rows(genai_prices.parse_provider_file(path, HEAD, tiers=True), "gpt-5.4")
    assert len(with_tiers) == 2
    tier = next(r for r in with_tiers if r["context_tier"])
    assert (tier["context_tier"], tier["input_usd_per_mtok"], tier["output_usd_per_mtok"]) == (
        ">272k",
        5.0,
        22.5,
    )
    assert tier["cached_input_usd_per_mtok"] == 0.25  # a fixed price applies to every tier


def test_embeddings_image_speech_and_removed_models_are_left_out(tmp_path):
    rows = genai_prices.parse_provider_file(_write(tmp_path, "openai.yml", OPENAI), HEAD)
    assert {r["source_model_name"] for r in rows} == {"gpt-4o", "o3", "gpt-5.4"}


def test_time_of_day_prices_become_peak_and_off_peak(tmp_path):
    rows = genai_prices.parse_provider_file(_write(tmp_path, "deepseek.yml", DEEPSEEK), HEAD)
    by_kind = {r["price_kind"]: r for r in rows}
    assert by_kind["off-peak"]["input_usd_per_mtok"] == 0.135
    assert by_kind["peak"]["input_usd_per_mtok"] == 0.27
    assert by_kind["peak"]["date"] == by_kind["off-peak"]["date"] == dt.date(2025, 7, 12)
    assert "list" not in by_kind  # the dearer rate is the peak rate, not a list price


def test_bedrock_ids_get_provider_bedrock_and_a_clean_hint_and_empty_free_sets_are_skipped(
    tmp_path,
):
    [row] = genai_prices.parse_provider_file(_write(tmp_path, "aws.yml", AWS), HEAD)
    assert row["provider"] == "bedrock"
    assert row["model_hint"] == "claude-sonnet-4-5-20250929"
    assert (
        genai_prices.model_hint("meta-llama/Llama-3.3-70B-Instruct:free")
        == "llama-3.3-70b-instruct"
    )


def test_bad_price_names_file_model_and_field(tmp_path):
    bad = OPENAI.replace(
        "input_mtok: 2.5\n      cache_read_mtok: 1.25",
        "input_mtok: two\n      cache_read_mtok: 1.25",
    )
    path = _write(tmp_path, "openai.yml", bad)
    with pytest.raises(
        DataError, match=r"openai.yml, column 'provider openai, model gpt-4o, prices.input_mtok'"
    ):
        genai_prices.parse_provider_file(path, HEAD)


def test_build_dates_by_the_head_commit_and_writes_locators(tmp_path):
    folder = tmp_path / "genai-prices-pydantic"
    rel = "genai-prices-pydantic/2026-08-21_HEAD/prices/providers/deepseek.yml"
    _write(tmp_path, rel, DEEPSEEK)
    header = "file\trepo\tcommit\tcommit_date\tpath_in_repo\tbytes\tsha256\n"
    line = f"{rel}\tpydantic/genai-prices\t47df840a5ab10bbc\t2026-08-21\tprices/providers/deepseek.yml\t0\t-\n"
    _write(folder, "_PROVENANCE.tsv", header + line)
    prices = genai_prices.build(tmp_path)["token_prices"]
    assert prices["last_seen"].to_list() == [HEAD, HEAD]
    # The dearer, time-constrained set (prices[1]) is the peak rate.
    peak = prices.filter(pl.col("price_kind") == "peak")
    assert peak["source_locator"].to_list() == [
        f"{rel}@47df840a5ab1#provider deepseek, model deepseek-chat, prices[1]"
    ]
    assert "model_hint" in prices.columns and "model_id" not in prices.columns


@pytest.mark.sources
def test_real_head_covers_thirty_providers_and_records_o3_price_cut(sources_dir):
    prices = genai_prices.build(sources_dir)["token_prices"]
    assert prices["provider"].n_unique() >= 30
    assert len(prices) > 1000
    key = ["source_model_name", "provider", "date", "price_kind"]
    assert not prices.select(key).is_duplicated().any()
    o3 = prices.filter(
        (pl.col("provider") == "openai") & (pl.col("source_model_name") == "o3")
    ).sort("date")
    assert o3.select("date", "input_usd_per_mtok").rows() == [
        (dt.date(2025, 6, 9), 10.0),
        (dt.date(2025, 6, 10), 2.0),
    ]
    assert not prices["source_model_name"].str.contains("embedding").any()
    assert {"bedrock", "xai", "together", "groq", "anthropic"} <= set(prices["provider"])


ANTHROPIC_CACHING = """\
name: Anthropic
id: anthropic
models:
  - id: claude-opus-4-1
    match:
      starts_with: claude-opus-4-1
    prices_checked: 2026-06-30
    prices:
      input_mtok: 15
      cache_write_mtok: 18.75
      cache_read_mtok: 1.5
      output_mtok: 75
  - id: claude-sonnet-4-5
    match:
      contains: claude-sonnet-4-5
    prices:
      input_mtok:
        base: 3
        tiers:
          - start: 200000
            price: 6
      cache_write_mtok:
        base: 3.75
        tiers:
          - start: 200000
            price: 7.5
      cache_read_mtok: 0.3
      output_mtok: 15
  - id: claude-haiku-3
    match:
      equals: claude-haiku-3
    prices:
      input_mtok: 0.25
      output_mtok: 1.25
"""


def test_cache_write_mtok_is_the_cache_write_price_per_tier_and_null_where_unstated(tmp_path):
    path = _write(tmp_path, "anthropic.yml", ANTHROPIC_CACHING)
    rows = genai_prices.parse_provider_file(path, HEAD, tiers=True)
    [opus] = _rows(rows, "claude-opus-4-1")
    assert (opus["cache_write_usd_per_mtok"], opus["cached_input_usd_per_mtok"]) == (18.75, 1.5)
    sonnet = {r["context_tier"]: r for r in _rows(rows, "claude-sonnet-4-5")}
    assert sonnet[""]["cache_write_usd_per_mtok"] == 3.75
    assert sonnet[">200k"]["cache_write_usd_per_mtok"] == 7.5
    [haiku] = _rows(rows, "claude-haiku-3")
    assert haiku["cache_write_usd_per_mtok"] is None  # not stated: no price, not zero
