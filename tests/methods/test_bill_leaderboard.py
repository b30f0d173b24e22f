"""A leaderboard's published cost of a benchmark run against the book's bill for its tokens
(`bill.leaderboard_costs`), worked by hand from the raw leaderboard file and a raw rate card.

The run: Artificial Analysis's Intelligence Index run of "GPT-5.6 Sol (high)",
../shared/sources/aa-leaderboards-oolong/2026-07-10_llms.json, lines 64158 and 64161
("inputTokens": 340868286, "outputTokens": 21248736, = answer 4569051 + reasoning 16679685)
and lines 63984-63988 ("price_1m_input_tokens": 5, "price_1m_output_tokens": 30,
"intelligence_index_cost_total": 955.5499374665286, "intelligence_index_cost_input":
318.0878574665286, "intelligence_index_cost_output": 637.46208).
The card: GPT-5.6 Sol at OpenAI, ../shared/sources/llm-prices-simonw/2026-08-05_data/openai.json
lines 529-533: input 5.0, output 30.0, input_cached 0.50 (no from_date: in force from the start).
"""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import aa_leaderboards
from analysis.methods import bill

RUN = bill.PublishedRun(
    "GPT-5.6 Sol (high)",
    "gpt-5.6-sol",
    "openai",
    date(2026, 7, 10),
    input_tokens=340_868_286,
    output_tokens=21_248_736,
    published_input=318.0878574665286,
    published_output=637.46208,
    published_total=955.5499374665286,
    published_input_rate=5,
    published_output_rate=30,
)
CARD = pl.DataFrame(
    {
        "model_id": ["gpt-5.6-sol"],
        "provider": ["openai"],
        "price_kind": ["list"],
        "context_tier": [None],
        "quantization": [None],
        "offer": [None],
        "region": [None],
        "currency": ["USD"],
        "date": [date(2025, 1, 1)],
        "valid_from": [date(2025, 1, 1)],
        "valid_to": [None],
        "input_usd_per_mtok": [5.0],
        "output_usd_per_mtok": [30.0],
        "cached_input_usd_per_mtok": [0.5],
        "row_id": ["sol-card"],
    },
    schema_overrides={
        "context_tier": pl.String,
        "quantization": pl.String,
        "offer": pl.String,
        "region": pl.String,
        "valid_to": pl.Date,
    },
)
WINDOWS = pl.DataFrame(
    {
        "provider": ["deepseek"],
        "start_hour_utc": [1],
        "end_hour_utc": [4],
        "weekdays": ["mon;tue;wed;thu;fri"],
        "effective_from_utc": ["2026-01-01T00:00:00Z"],
        "effective_until_utc": [None],
    },
    schema_overrides={"effective_until_utc": pl.String},
)


def test_the_gpt_5_6_sol_run_by_hand():
    (row,) = bill.leaderboard_costs(CARD, WINDOWS, [RUN]).to_dicts()
    # output: 21,248,736 x 30 / 1M = 637.46208, the published output cost exactly
    assert row["book_output"] == pytest.approx(637.46208, abs=1e-9)
    assert row["output_gap"] == pytest.approx(0, abs=1e-12)
    # input: 340,868,286 x 5 / 1M = 1,704.34143 at the list rate; x 0.5 = 170.434143 all cached
    assert row["book_input_uncached"] == pytest.approx(1704.34143, abs=1e-9)
    assert row["book_input_all_cached"] == pytest.approx(170.434143, abs=1e-9)
    # the hit share h with (1 - h) x 1,704.34143 + h x 170.434143 = 318.0878574665286:
    # h = (1,704.34143 - 318.0878574665286) / (1,704.34143 - 170.434143)
    #   = 1,386.2535725334714 / 1,533.907287 = 0.90374...
    assert row["implied_cache_hit_share"] == pytest.approx(1386.2535725334714 / 1533.907287)
    assert 0.9037 < row["implied_cache_hit_share"] < 0.9038
    assert row["book_total_uncached"] == pytest.approx(1704.34143 + 637.46208)
    assert (row["book_input_rate"], row["book_output_rate"]) == pytest.approx((5, 30))
    assert row["row_ids"] == "sol-card"


def test_a_run_on_a_day_no_card_is_in_force_is_an_error():
    early = bill.PublishedRun(**{**RUN.__dict__, "on": date(2024, 7, 10)})
    with pytest.raises(DataError, match="no USD price in force on 2024-07-10"):
        bill.leaderboard_costs(CARD, WINDOWS, [early])


def test_the_raw_file_states_the_numbers_typed_above(sources_dir):
    """The build's importer reads the raw file's run and published cost as typed in RUN."""
    path = sources_dir / aa_leaderboards.FOLDER / "2026-07-10_llms.json"
    _, entries = aa_leaderboards.parse_snapshot(path)
    (e,) = [e for e in entries if e["source_model_name"] == "GPT-5.6 Sol (high)"]
    assert (e["run"]["input_tokens"], e["run"]["output_tokens"]) == (
        RUN.input_tokens,
        RUN.output_tokens,
    )
    assert (e["index_cost_input_usd"], e["index_cost_output_usd"], e["index_cost_usd"]) == (
        RUN.published_input,
        RUN.published_output,
        RUN.published_total,
    )
    assert (e["input_usd_per_mtok"], e["output_usd_per_mtok"]) == (5, 30)
