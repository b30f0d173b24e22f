"""Prices as spells: merging the same fact, stale copies, open spells, regions, provenance."""

from __future__ import annotations

from datetime import date

import polars as pl
from price_runs import runs

from analysis.data.curate import spells


def d(s: str) -> date:
    return date.fromisoformat(s)


# o3 at OpenAI: 10/40 from its release, 2/8 from the cut of 2025-06-10. LiteLLM and tokencost
# move to the new price; lmarena and simonw keep showing 10/40 for months.
O3 = runs(
    [
        {"source_id": "litellm-rocry", "date": d("2025-05-01"), "last_seen": d("2025-06-02"), "input_usd_per_mtok": 10.0, "output_usd_per_mtok": 40.0, "cached_input_usd_per_mtok": 2.5},
        {"source_id": "tokencost", "date": d("2025-05-07"), "last_seen": d("2025-06-01"), "input_usd_per_mtok": 10.0, "output_usd_per_mtok": 40.0},
        {"source_id": "lmarena-catalog", "date": d("2025-05-06"), "last_seen": d("2025-12-17"), "input_usd_per_mtok": 10.0, "output_usd_per_mtok": 40.0},
        {"source_id": "genai-prices", "date": d("2025-06-10"), "last_seen": d("2026-08-21"), "input_usd_per_mtok": 2.0, "output_usd_per_mtok": 8.0},
        {"source_id": "litellm-rocry", "date": d("2025-07-03"), "last_seen": d("2026-07-24"), "input_usd_per_mtok": 2.0, "output_usd_per_mtok": 8.0},
        {"source_id": "simonw-llm-prices", "date": d("2025-10-10"), "last_seen": d("2026-08-05"), "input_usd_per_mtok": 10.0, "output_usd_per_mtok": 40.0},
        # lmarena also shows other models on these dates: its snapshots
        {"source_id": "lmarena-catalog", "model_id": "x", "date": d("2025-11-05"), "last_seen": d("2025-11-05"), "input_usd_per_mtok": 1.0},
        {"source_id": "simonw-llm-prices", "model_id": "x", "date": d("2026-08-05"), "last_seen": d("2026-08-05"), "input_usd_per_mtok": 1.0},
    ]
)  # fmt: skip


def test_a_cut_closes_the_old_spell_and_stale_copies_do_not_reopen_it():
    table, obs = spells.curate_prices(O3)
    o3 = table.filter(pl.col("model_id") == "o3").sort("date")
    rows = o3.select("row_kind", "valid_from", "valid_to", "input_usd_per_mtok").rows()
    assert rows == [
        ("spell", d("2025-05-01"), d("2025-06-09"), 10.0),  # in force up to the day before the cut
        ("spell", d("2025-06-10"), None, 2.0),  # still in the newest snapshots
        ("stale", None, None, 10.0),  # lmarena after the cut, simonw throughout
    ]
    stale = o3.filter(pl.col("row_kind") == "stale").row(0, named=True)
    assert stale["date"] == d("2025-10-10")  # simonw's first copy after the cut
    assert stale["last_seen"] == d("2026-08-05")
    assert stale["source_ids"] == "simonw-llm-prices;lmarena-catalog"
    # Every source of the old price is kept; the row's own locator is the earliest evidence.
    old = o3.row(0, named=True)
    assert old["source_ids"] == "litellm-rocry;tokencost;lmarena-catalog"
    assert old["source_locator"] == "litellm-rocry#0"
    assert old["cached_input_usd_per_mtok"] == 2.5  # from the one source that states it
    # Provenance: lmarena's run backs the spell (to its last sighting in force) and the stale row.
    lm = obs.filter(pl.col("source_locator") == "lmarena-catalog#2").sort("date")
    assert lm.select("row_id", "date", "last_seen").rows() == [
        (old["row_id"], d("2025-05-06"), d("2025-05-06")),
        (stale["row_id"], d("2025-11-05"), d("2025-12-17")),
    ]
    assert obs.filter(pl.col("row_id").is_in(o3["row_id"].to_list())).height == 7


def test_a_source_that_itself_moves_back_reopens_the_old_price():
    df = runs(
        [
            {"source_id": "a", "date": d("2025-01-01"), "last_seen": d("2025-02-01"), "input_usd_per_mtok": 1.0},
            {"source_id": "a", "date": d("2025-03-01"), "last_seen": d("2025-04-01"), "input_usd_per_mtok": 2.0},
            {"source_id": "a", "date": d("2025-05-01"), "last_seen": d("2025-06-01"), "input_usd_per_mtok": 1.0},
            {"source_id": "b", "date": d("2025-06-01"), "last_seen": d("2025-07-01"), "input_usd_per_mtok": 9.0, "model_id": "y"},
        ]
    )  # fmt: skip
    table, _ = spells.curate_prices(df)
    got = table.filter(pl.col("model_id") == "o3").sort("date")
    assert got.select("row_kind", "valid_from", "valid_to", "input_usd_per_mtok").rows() == [
        ("spell", d("2025-01-01"), d("2025-02-28"), 1.0),
        ("spell", d("2025-03-01"), d("2025-04-30"), 2.0),
        # a's newest snapshot (2025-06-01) still shows it: open
        ("spell", d("2025-05-01"), None, 1.0),
    ]


def test_keys_of_one_route_at_one_price_are_one_fact_and_a_dearer_region_keeps_its_own():
    df = runs(
        [
            {"source_id": "litellm-rocry", "provider": "bedrock", "source_model_name": "bedrock/us-east-1/m", "region": "us-east-1", "date": d("2025-02-06"), "last_seen": d("2026-07-24"), "input_usd_per_mtok": 8.0, "output_usd_per_mtok": 24.0},
            {"source_id": "litellm-rocry", "provider": "bedrock", "source_model_name": "m", "date": d("2025-02-06"), "last_seen": d("2026-07-24"), "input_usd_per_mtok": 8.0, "output_usd_per_mtok": 24.0},
            {"source_id": "litellm-rocry", "provider": "bedrock", "source_model_name": "bedrock/eu-west-3/m", "region": "eu-west-3", "date": d("2025-02-06"), "last_seen": d("2026-07-24"), "input_usd_per_mtok": 10.4, "output_usd_per_mtok": 31.2},
            {"source_id": "tokencost", "provider": "bedrock", "source_model_name": "m", "date": d("2024-04-11"), "last_seen": d("2025-09-01"), "input_usd_per_mtok": 8.0, "output_usd_per_mtok": 24.0},
        ]
    )  # fmt: skip
    table, obs = spells.curate_prices(df)
    assert table.select("region", "input_usd_per_mtok", "valid_from").sort("input_usd_per_mtok").rows() == [
        (None, 8.0, d("2024-04-11")),
        ("eu-west-3", 10.4, d("2025-02-06")),
    ]  # fmt: skip
    main = table.filter(pl.col("region").is_null()).row(0, named=True)
    assert main["source_ids"] == "litellm-rocry;tokencost"
    assert obs.filter(pl.col("row_id") == main["row_id"]).height == 3


def test_prices_of_different_offers_never_mix():
    df = runs(
        [
            {"source_id": "a", "date": d("2025-01-01"), "input_usd_per_mtok": 3.0},
            {"source_id": "a", "date": d("2025-01-01"), "input_usd_per_mtok": 5.0, "offer": "fast"},
            {"source_id": "a", "date": d("2025-01-01"), "input_usd_per_mtok": 6.0, "context_tier": ">200k"},
        ]
    )  # fmt: skip
    table, _ = spells.curate_prices(df)
    assert table.height == 3 and table["valid_to"].is_null().all()
    assert table.filter(pl.col("context_tier").is_null()).height == 2  # '' is written as empty


def test_row_ids_are_stable_and_distinct():
    a, _ = spells.curate_prices(O3)
    b, _ = spells.curate_prices(O3.reverse())
    assert sorted(a["row_id"]) == sorted(b["row_id"]) and a["row_id"].n_unique() == a.height
