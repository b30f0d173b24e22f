"""Frontier price notes: aimeter's table and notes, yoagent's tiers, Google's dated price steps."""

from __future__ import annotations

import datetime as dt
import json

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import frontier_prices
from analysis.data.schema import TABLES

TOKEN_PRICES_KEY = TABLES["token_prices"].primary_key

FOLDER = "frontier-price-notes-2026-09"
AIMETER = """# Pricing and usage verification

Updated on 2026-09-23. Amounts below are USD per million tokens at standard/global API rates.

| Model | Input | Output | Cache read | Cache write |
| --- | ---: | ---: | ---: | ---: |
| Claude Opus 5.5 | 4 | 20 | 0.20 | 5 (5m), 8 (1h) |
| GPT-6 Sol | 2 | 10 | 0.20 | 2.50 |
| GPT-5.6 Sol | 4 | 20 | 0.40 | 5 |

## Sources and date rules

- [August 21 Sol promotion](https://openai.com/index/gpt-5-6/): pre-August-21 usage retains $5/$30 and its original cache/long-context prices.
"""
YOAGENT = {
    "schema": 1,
    "providers": {
        "openai": {
            "gpt-6-sol": {
                "input": 2.0,
                "output": 10.0,
                "cache_read": 0.2,
                "cache_write": 2.5,
                "tiers": [
                    {"above_prompt_tokens": 272000, "input": 4.0, "output": 15.0, "cache_read": 0.4}
                ],
                "verified": "2026-09-25",
            },
            "gpt-5.5": {
                "input": 5.0,
                "output": 30.0,
                "cache_read": 0.5,
                "tiers": [
                    {
                        "above_prompt_tokens": 272000,
                        "input": 10.0,
                        "output": 45.0,
                        "cache_read": 1.0,
                    }
                ],
                "note": "The >272K cache_read ($1.00) is UNVERIFIED. Input $10 and output $45 are stated.",
                "verified": "2026-09-25",
            },
        },
        "typesafe": {
            "jev-1.13.0": {
                "input": 0.042,
                "output": 0.0,
                "note": "A decision model (feature `decision`).",
                "verified": "2026-09-26",
            }
        },
    },
}
GEMINI = """generated: '2026-09-20'
source: https://ai.google.dev/gemini-api/docs/pricing
plans:
- name: Paid
  price_text: Upgrade to Paid
  period: none
- name: Gemini 3.8 Flash input (paid)
  price_text: $0.75 through December 31, 2026.
  price: 0.75
  unit: per 1M tokens
  overage: $1.50 starting January 1, 2027.
- name: Gemini 3.8 Flash output (paid)
  price_text: $3.75 through December 31, 2026.
  price: 3.75
  unit: per 1M tokens (including thinking tokens)
  overage: $7.50 starting January 1, 2027.
- name: Gemini 3.1 Pro Preview input
  price_text: $2.00, prompts <= 200k tokens
  price: 2
  unit: per 1M tokens
  overage: $4.00, prompts > 200k tokens
- name: Gemini 3.1 Pro Preview output
  price_text: $12.00, prompts <= 200k tokens
  price: 12
  unit: per 1M tokens
  overage: $18.00, prompts > 200k
- name: Gemini 2.5 Flash input
  price_text: $0.30 (text / image / video)
  price: 0.3
  unit: per 1M tokens
  overage: $1.00 (audio)
- name: Veo 3.1 Standard video with audio
  price_text: $0.40 (720p and 1080p)
  price: 0.4
  unit: per second
"""


def _prices(tree, files: dict[str, str], key=TOKEN_PRICES_KEY) -> pl.DataFrame:
    for name, text in files.items():
        tree.add(f"{FOLDER}/{name}", text)
    return frontier_prices.build(tree.root, key=key)["token_prices"]


def _one(df, **eq):
    f = df
    for k, v in eq.items():
        f = f.filter(pl.col(k) == v)
    [row] = f.rows(named=True)
    return row


def test_aimeter_rows_are_dated_by_the_table_and_the_promotion_by_its_note(tree):
    df = _prices(tree, {"2026-09-23_aimeter__docs__pricing.md": AIMETER})
    opus = _one(df, source_model_name="Claude Opus 5.5")
    assert (opus["provider"], opus["date"], opus["price_kind"]) == (
        "anthropic",
        dt.date(2026, 9, 23),
        "list",
    )
    assert (
        opus["input_usd_per_mtok"],
        opus["output_usd_per_mtok"],
        opus["cached_input_usd_per_mtok"],
    ) == (4, 20, 0.2)
    promo = _one(df, source_model_name="GPT-5.6 Sol", price_kind="promotional")
    assert (promo["date"], promo["last_seen"], promo["input_usd_per_mtok"]) == (
        dt.date(2026, 8, 21),
        dt.date(2026, 9, 23),
        4,
    )
    before = _one(df, source_model_name="GPT-5.6 Sol", price_kind="list")
    assert (before["date"], before["input_usd_per_mtok"], before["output_usd_per_mtok"]) == (
        dt.date(2026, 8, 20),
        5,
        30,
    )
    assert opus["source_locator"] == (
        f"{FOLDER}/2026-09-23_aimeter__docs__pricing.md@c0ffee000000#line 7 (Claude Opus 5.5) (secondary copy)"
    )


def test_aimeter_without_the_note_it_relies_on_is_an_error(tree):
    text = AIMETER.replace("pre-August-21 usage retains $5/$30", "earlier usage keeps its price")
    with pytest.raises(DataError, match="retains"):
        _prices(tree, {"2026-09-23_aimeter__docs__pricing.md": text})


def test_aimeter_a_cell_that_is_no_number_names_line_and_column(tree):
    with pytest.raises(DataError) as err:
        _prices(
            tree,
            {"2026-09-23_aimeter__docs__pricing.md": AIMETER.replace("| 2 | 10 |", "| two | 10 |")},
        )
    assert (err.value.problems[0].row, err.value.problems[0].column) == (8, "Input")


def test_yoagent_tiers_are_rows_of_their_own_and_unverified_cache_rates_empty(tree):
    df = _prices(tree, {"2026-10-07_yoagent__src__provider__prices.json": json.dumps(YOAGENT)})
    sol = _one(df, source_model_name="gpt-6-sol", context_tier=">272k")
    assert (
        sol["input_usd_per_mtok"],
        sol["output_usd_per_mtok"],
        sol["cached_input_usd_per_mtok"],
    ) == (4, 15, 0.4)
    assert sol["date"] == dt.date(2026, 9, 25)
    gpt55 = _one(df, source_model_name="gpt-5.5", context_tier=">272k")
    assert (gpt55["input_usd_per_mtok"], gpt55["cached_input_usd_per_mtok"]) == (10, None)
    assert "jev-1.13.0" not in set(df["source_model_name"])  # a decision model, not a price


def test_under_todays_key_tier_rows_are_set_aside(tree):
    key = ["model_id", "provider", "date", "price_kind", "source_id", "source_model_name"]
    df = _prices(
        tree, {"2026-10-07_yoagent__src__provider__prices.json": json.dumps(YOAGENT)}, key=key
    )
    assert set(df["context_tier"].fill_null("")) == {""} and df.height == 2


def test_google_scheduled_doubling_and_long_context_tier(tree):
    df = _prices(
        tree, {"2026-09-20_api-evangelist-gemini__plans__gemini-plans-pricing.yml": GEMINI}
    )
    now = _one(df, source_model_name="Gemini 3.8 Flash", price_kind="promotional")
    assert (now["date"], now["input_usd_per_mtok"], now["output_usd_per_mtok"]) == (
        dt.date(2026, 9, 20),
        0.75,
        3.75,
    )
    later = _one(df, source_model_name="Gemini 3.8 Flash", price_kind="list")
    assert (later["date"], later["last_seen"]) == (dt.date(2027, 1, 1), None)
    assert (later["input_usd_per_mtok"], later["output_usd_per_mtok"]) == (1.5, 7.5)
    tier = _one(df, source_model_name="Gemini 3.1 Pro Preview", context_tier=">200k")
    assert (tier["input_usd_per_mtok"], tier["output_usd_per_mtok"]) == (4, 18)
    assert "Gemini 2.5 Flash" not in set(df["source_model_name"])  # input side only
    assert set(df["provider"]) == {"google"}


def test_google_price_text_and_price_must_agree(tree):
    text = GEMINI.replace("  price: 0.75\n", "  price: 0.7\n")
    with pytest.raises(DataError) as err:
        _prices(tree, {"2026-09-20_api-evangelist-gemini__plans__gemini-plans-pricing.yml": text})
    assert (err.value.problems[0].column, err.value.problems[0].value) == ("plans[1].price", "0.7")


def test_google_input_and_output_must_state_the_same_dates(tree):
    text = GEMINI.replace("$3.75 through December 31, 2026.", "$3.75")
    with pytest.raises(DataError, match="same dates"):
        _prices(tree, {"2026-09-20_api-evangelist-gemini__plans__gemini-plans-pricing.yml": text})


def test_real_notes_confirm_the_readme_prices(sources_dir):
    df = frontier_prices.build(sources_dir, key=TOKEN_PRICES_KEY)["token_prices"]
    # README II.1.2 / II.5: Opus 5.5 at $4/$20 and GPT-6 Sol at $2/$10 in two dated files.
    for name in ("Claude Opus 5.5", "claude-opus-5-5"):
        assert _one(df, source_model_name=name)["input_usd_per_mtok"] == 4
    sol = df.filter(
        pl.col("source_model_name").is_in(["GPT-6 Sol", "gpt-6-sol"])
        & (pl.col("context_tier") == "")
    )
    assert sol.select("input_usd_per_mtok", "output_usd_per_mtok").unique().rows() == [(2, 10)]
    flash = df.filter(
        (pl.col("source_model_name") == "Gemini 3.8 Flash") & (pl.col("price_kind") == "list")
    )
    assert set(flash["date"]) == {dt.date(2027, 1, 1)} and flash.height == 2  # both page reads


def test_cache_writes_are_the_five_minute_rate_and_null_where_unstated(tree):
    """aimeter's "Cache write" cell: the `(5m)` rate of "5 (5m), 8 (1h)", else the bare number;
    yoagent's `cache_write` per base and tier; the Gemini plans state none."""
    df = _prices(
        tree,
        {
            "2026-09-23_aimeter__docs__pricing.md": AIMETER,
            "2026-10-07_yoagent__src__provider__prices.json": json.dumps(YOAGENT),
        },
    )
    aimeter = df.filter(pl.col("source_id") == frontier_prices.AIMETER)
    assert _one(aimeter, source_model_name="Claude Opus 5.5")["cache_write_usd_per_mtok"] == 5
    assert _one(aimeter, source_model_name="GPT-6 Sol")["cache_write_usd_per_mtok"] == 2.5
    # GPT-5.6 Sol's earlier $5/$30 kept "its original cache prices", which the note does not state
    earlier = _one(aimeter, source_model_name="GPT-5.6 Sol", price_kind="list")
    assert earlier["cache_write_usd_per_mtok"] is None
    sol = _one(df, source_model_name="gpt-6-sol", context_tier="")
    assert sol["cache_write_usd_per_mtok"] == 2.5
    assert (
        _one(df, source_model_name="gpt-5.5", context_tier="")["cache_write_usd_per_mtok"] is None
    )


def test_aimeter_a_cache_write_cell_without_a_number_names_line_and_column(tree):
    text = AIMETER.replace("| 5 (5m), 8 (1h) |", "| five |")
    with pytest.raises(DataError, match=r"row 7, column .Cache write.: value .five."):
        _prices(tree, {"2026-09-23_aimeter__docs__pricing.md": text})
