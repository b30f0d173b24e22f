"""Spells from snapshots and ranked evidence (issue 19, classes 1-6), each on a small hand-made
snapshot history: what is still listed is decided by each source's newest snapshot (its
retrieval date), not by the largest date a row mentions; a scheduled price is its own spell;
a promotion ends where its source states the price after it; a batch-only row and a secondary
copy never cut a standard spell; a timeline's reported copy of a list price is the same fact."""

from __future__ import annotations

from datetime import date

import polars as pl
import price_runs

from analysis.data.curate import spells
from analysis.data.importers import deepseek_tou, openrouter


def d(s: str) -> date:
    return date.fromisoformat(s)


def runs(rows: list[dict]) -> pl.DataFrame:
    return price_runs.runs(rows, model="m", provider="google")


def spell_rows(table: pl.DataFrame, model: str = "m") -> list[tuple]:
    return (
        table.filter(pl.col("model_id") == model)
        .sort("price_kind", "valid_from", "row_kind")
        .select("price_kind", "row_kind", "valid_from", "valid_to", "input_usd_per_mtok")
        .rows()
    )


# One source ("pages", snapshot read 2026-08-21) lists model m at 1.0 on its newest snapshot;
# another model of the same source carries a price announced from 2027-01-01.
LISTED = [
    {"source_id": "pages", "date": d("2026-06-01"), "last_seen": d("2026-08-21"), "input_usd_per_mtok": 1.0},
    {"source_id": "pages", "model_id": "other", "date": d("2027-01-01"), "input_usd_per_mtok": 9.0},
]  # fmt: skip


def test_a_price_in_the_newest_snapshot_stays_open_beside_a_future_dated_row():
    table, _ = spells.curate_prices(runs(LISTED), newest={"pages": d("2026-08-21")})
    assert spell_rows(table) == [("list", "spell", d("2026-06-01"), None, 1.0)]
    # Taking the newest date a row mentions (2027-01-01) as the newest snapshot would close it
    # at its last sighting: the bug of release 2026-12-01.2 (class 1).
    table, _ = spells.curate_prices(runs(LISTED))
    assert spell_rows(table) == [("list", "spell", d("2026-06-01"), d("2026-08-21"), 1.0)]


def test_a_scheduled_price_is_its_own_spell_from_its_date():
    history = runs(
        [
            {"source_id": "pages", "date": d("2026-09-20"), "last_seen": d("2026-10-07"), "input_usd_per_mtok": 0.75},
            # the same page, read 2026-10-07, states 1.50 from 2027-01-01 (no sighting yet)
            {"source_id": "pages", "date": d("2027-01-01"), "input_usd_per_mtok": 1.5},
        ]
    )  # fmt: skip
    table, _ = spells.curate_prices(history, newest={"pages": d("2026-10-07")})
    assert spell_rows(table) == [
        ("list", "spell", d("2026-09-20"), d("2026-12-31"), 0.75),
        ("list", "spell", d("2027-01-01"), None, 1.5),
    ]


def test_a_promotion_with_a_stated_end_ends_the_day_before_the_price_its_source_states():
    # "Half price through December 31, 2026 - $0.75 ..., going to $1.50 on January 1, 2027",
    # read on 2026-09-20 and 2026-10-07 (the newest snapshot).
    history = runs(
        [
            {"source_id": "pages", "price_kind": "promotional", "date": d("2026-09-20"), "last_seen": d("2026-10-07"), "input_usd_per_mtok": 0.75},
            {"source_id": "pages", "date": d("2027-01-01"), "input_usd_per_mtok": 1.5},
        ]
    )  # fmt: skip
    table, _ = spells.curate_prices(history, newest={"pages": d("2026-10-07")})
    assert spell_rows(table) == [
        ("list", "spell", d("2027-01-01"), None, 1.5),
        ("promotional", "spell", d("2026-09-20"), d("2026-12-31"), 0.75),
    ]
    # Another source's later list price does not end the page's promotion.
    other = history.with_columns(
        pl.when(pl.col("price_kind") == "list")
        .then(pl.lit("elsewhere"))
        .otherwise(pl.col("source_id"))
        .alias("source_id")
    )
    table, _ = spells.curate_prices(other, newest={"pages": d("2026-10-07")})
    promo = table.filter(pl.col("price_kind") == "promotional")
    assert promo["valid_to"].to_list() == [None]


def test_a_promotion_that_replaces_the_list_price_ends_the_list_spell_the_day_before():
    # A price library ("library", read 2026-07-09 and 2026-09-01) keeps copying the 5.0 list
    # price; the notes page ("notes", read 2026-09-23) gives 5.0 as the list price up to
    # 2026-08-20 and the promotion 4.0 from 2026-08-21 ("pre-August-21 usage retains $5").
    history = runs(
        [
            {"source_id": "library", "date": d("2026-07-09"), "last_seen": d("2026-09-01"), "input_usd_per_mtok": 5.0},
            {"source_id": "notes", "date": d("2026-08-20"), "last_seen": d("2026-08-20"), "input_usd_per_mtok": 5.0},
            {"source_id": "notes", "price_kind": "promotional", "date": d("2026-08-21"), "last_seen": d("2026-09-23"), "input_usd_per_mtok": 4.0},
        ]
    )  # fmt: skip
    newest = {"library": d("2026-09-01"), "notes": d("2026-09-23")}
    table, _ = spells.curate_prices(history, newest=newest)
    assert spell_rows(table) == [
        ("list", "spell", d("2026-07-09"), d("2026-08-20"), 5.0),
        ("promotional", "spell", d("2026-08-21"), None, 4.0),
    ]
    # A promotion from a source that never showed the list price replaces nothing: the
    # library's own newest snapshot still lists 5.0.
    alone = history.filter(pl.col("price_kind") == "promotional").vstack(history.head(1))
    table, _ = spells.curate_prices(alone, newest=newest)
    assert spell_rows(table)[0] == ("list", "spell", d("2026-07-09"), None, 5.0)
    # Nor does a promotion whose source still shows the list price on or after its start.
    still = history.with_columns(
        pl.when(pl.col("date") == d("2026-08-20"))
        .then(pl.lit(d("2026-09-23")))
        .otherwise(pl.col("last_seen"))
        .alias("last_seen")
    )
    table, _ = spells.curate_prices(still, newest=newest)
    assert spell_rows(table)[0] == ("list", "spell", d("2026-07-09"), None, 5.0)
    # Nor does a one-day promotion inside a list spell of a table of dated price points
    # (Gundlach's qwen-3-235b-a22b-thinking-2507: list 2025-07-01 to 2026-01-31, promotion
    # on 2025-12-01): the list price outlasts the discount.
    table = pl.DataFrame(
        {
            "model_id": ["q", "q"], "price_kind": ["list", "promotional"],
            "valid_from": [d("2025-07-01"), d("2025-12-01")],
            "valid_to": [d("2026-01-31"), d("2025-12-01")],
            "source_ids": ["points", "points"], "row_kind": ["spell", "spell"], "row_id": ["a", "b"],
        }
    )  # fmt: skip
    table = table.with_columns(
        pl.lit(None, pl.String).alias(c) for c in spells.OFFER if c not in table.columns
    )
    obs = pl.LazyFrame(
        {
            "row_id": ["a"],
            "source_id": ["points"],
            "date": [d("2025-07-01")],
            "last_seen": [d("2025-07-01")],
        }
    )
    out = spells.end_replaced_by_promotion(table, obs)
    assert out["valid_to"].to_list() == [d("2026-01-31"), d("2025-12-01")]


def test_a_replacement_in_a_newer_snapshot_closes_the_old_spell_the_day_before():
    history = runs(
        [
            {"source_id": "pages", "date": d("2026-07-01"), "last_seen": d("2026-08-01"), "input_usd_per_mtok": 3.0},
            {"source_id": "pages", "date": d("2026-09-01"), "last_seen": d("2026-10-01"), "input_usd_per_mtok": 2.0},
        ]
    )  # fmt: skip
    table, _ = spells.curate_prices(history, newest={"pages": d("2026-10-01")})
    assert spell_rows(table) == [
        ("list", "spell", d("2026-07-01"), d("2026-08-31"), 3.0),
        ("list", "spell", d("2026-09-01"), None, 2.0),
    ]


def test_a_batch_only_row_does_not_end_a_standard_spell():
    history = runs(
        [
            {"source_id": "openrouter-sui414", "provider": "openai", "date": d("2026-07-17"), "last_seen": d("2026-08-08"), "input_usd_per_mtok": 1.25, "output_usd_per_mtok": 10.0},
            {"source_id": "openrouter-sui414", "provider": "openai", "price_kind": "batch-only", "date": d("2026-08-08"), "last_seen": d("2026-08-08"), "batch_input_usd_per_mtok": 0.625},
        ]
    )  # fmt: skip
    table, _ = spells.curate_prices(history, newest={"openrouter-sui414": d("2026-08-08")})
    assert spell_rows(table) == [
        ("batch-only", "spell", d("2026-08-08"), None, None),
        ("list", "spell", d("2026-07-17"), None, 1.25),
    ]


def test_the_openrouter_importer_calls_an_endpoint_with_only_a_batch_price_batch_only():
    batch = {
        "provider": "openai", "date": d("2026-08-08"), "last_seen": d("2026-08-08"),
        "input_usd_per_mtok": 0.625, "output_usd_per_mtok": 5.0, "cached_input_usd_per_mtok": None,
        "price_kind": "list", "source_model_name": "openai/gpt-5", "where": "row 7",
    }  # fmt: skip
    (row,) = openrouter._merge_batch({}, [(("k",), batch)])
    assert row["price_kind"] == "batch-only"
    assert (row["input_usd_per_mtok"], row["output_usd_per_mtok"]) == (None, None)
    assert (row["batch_input_usd_per_mtok"], row["batch_output_usd_per_mtok"]) == (0.625, 5.0)
    standard = dict(batch, input_usd_per_mtok=1.25, output_usd_per_mtok=10.0, where="row 6")
    (row,) = openrouter._merge_batch({("k",): standard}, [(("k",), batch)])
    assert row["price_kind"] == "list" and row["input_usd_per_mtok"] == 1.25


def test_a_secondary_copy_dated_at_its_head_does_not_cut_the_direct_scrape():
    # The daily scrape of OpenRouter (newest 2026-08-08) shows 0.8; genai-prices' copy of
    # OpenRouter's list, dated at its HEAD 2026-08-21, says 0.2 for the same offer.
    history = runs(
        [
            {"source_id": "openrouter-sui414", "provider": "openrouter", "date": d("2026-07-17"), "last_seen": d("2026-08-08"), "input_usd_per_mtok": 0.8},
            {"source_id": "genai-prices", "provider": "openrouter", "date": d("2026-08-21"), "last_seen": d("2026-08-21"), "input_usd_per_mtok": 0.2},
            # at the scrape's price, the copy is evidence like any other
            {"source_id": "openrouter-sui414", "provider": "openrouter", "model_id": "n", "date": d("2026-07-17"), "last_seen": d("2026-08-08"), "input_usd_per_mtok": 0.5},
            {"source_id": "genai-prices", "provider": "openrouter", "model_id": "n", "date": d("2026-08-21"), "last_seen": d("2026-08-21"), "input_usd_per_mtok": 0.5},
        ]
    )  # fmt: skip
    newest = {"openrouter-sui414": d("2026-08-08"), "genai-prices": d("2026-08-21")}
    table, _ = spells.curate_prices(history, newest=newest)
    assert spell_rows(table) == [
        ("list", "copy", None, None, 0.2),
        ("list", "spell", d("2026-07-17"), None, 0.8),
    ]
    n = table.filter(pl.col("model_id") == "n")
    assert n.select("row_kind", "valid_from", "valid_to", "source_ids").rows() == [
        ("spell", d("2026-07-17"), None, "genai-prices;openrouter-sui414")
    ]
    # The same copy of another seller (not a copy of the scrape) is an ordinary source.
    other = history.with_columns(pl.lit("groq").alias("provider"))
    table, _ = spells.curate_prices(other, newest=newest)
    assert "copy" not in table["row_kind"].to_list()


def test_a_timelines_reported_copy_of_a_list_price_is_the_same_fact():
    history = runs(
        [
            {"source_id": "pages", "date": d("2026-07-09"), "last_seen": d("2026-08-21"), "input_usd_per_mtok": 5.0, "output_usd_per_mtok": 30.0},
            {"source_id": "token-tariff", "price_kind": "reported", "date": d("2026-08-01"), "last_seen": d("2026-08-01"), "input_usd_per_mtok": 5.0, "output_usd_per_mtok": 30.0},
            # a reported price no list row states stays reported; a digest's claim stays a claim
            {"source_id": "token-tariff", "price_kind": "reported", "model_id": "n", "date": d("2026-08-01"), "last_seen": d("2026-08-01"), "input_usd_per_mtok": 4.0},
            {"source_id": "digest-2026-09-27", "price_kind": "reported", "date": d("2026-09-27"), "last_seen": d("2026-09-27"), "input_usd_per_mtok": 5.0, "output_usd_per_mtok": 30.0},
        ]
    )  # fmt: skip
    newest = {"pages": d("2026-08-21"), "token-tariff": d("2026-08-03")}
    table, _ = spells.curate_prices(history, newest=newest)
    m = table.filter(pl.col("model_id") == "m").sort("price_kind")
    assert m.select("price_kind", "source_ids").rows() == [
        ("list", "pages;token-tariff"),
        ("reported", "digest-2026-09-27"),
    ]
    assert table.filter(pl.col("model_id") == "n")["price_kind"].to_list() == ["reported"]


def test_a_later_rule_closes_the_windows_every_copy_states_open():
    every, week = "mon;tue;wed;thu;fri;sat;sun", "mon;tue;wed;thu;fri"
    w = {"provider": "deepseek", "start": 1, "effective_until_utc": None}
    windows = [
        w | {"weekdays": every, "effective_from_utc": "2026-08-16T16:00:00Z", "observed": d("2026-08-13")},
        w | {"weekdays": every, "effective_from_utc": "2026-08-16T16:00:00Z", "observed": d("2026-08-24")},
        w | {"weekdays": every, "effective_from_utc": "2026-08-16T16:00:00Z", "observed": d("2026-08-22"), "effective_until_utc": "2026-08-22T16:00:00Z"},
        w | {"weekdays": week, "effective_from_utc": "2026-08-22T16:00:00Z", "observed": d("2026-08-22")},
    ]  # fmt: skip
    out = deepseek_tou.close_superseded(windows)
    assert [r["effective_until_utc"] for r in out] == [
        "2026-08-22T16:00:00Z",
        "2026-08-22T16:00:00Z",
        "2026-08-22T16:00:00Z",
        None,
    ]


def test_a_cancelled_schedule_is_not_in_force_and_the_old_price_is_not_stale():
    # A library read 2026-08-21 lists 2/10 and announces 3/15 from 2026-09-01; a page read
    # 2026-09-23 still shows 2/10 ("the increase scheduled for 1 Sep was cancelled").
    history = runs(
        [
            {"source_id": "library", "date": d("2026-07-09"), "last_seen": d("2026-08-21"), "input_usd_per_mtok": 2.0},
            {"source_id": "library", "date": d("2026-09-01"), "input_usd_per_mtok": 3.0},
            {"source_id": "page", "date": d("2026-09-23"), "last_seen": d("2026-09-23"), "input_usd_per_mtok": 2.0},
        ]
    )  # fmt: skip
    newest = {"library": d("2026-08-21"), "page": d("2026-09-23")}
    table, _ = spells.curate_prices(history, newest=newest)
    assert spell_rows(table) == [
        ("list", "cancelled", None, None, 3.0),
        ("list", "spell", d("2026-07-09"), None, 2.0),
    ]
    # Without the later page the schedule stands: its own spell from its date.
    table, _ = spells.curate_prices(history.head(2), newest={"library": d("2026-08-21")})
    assert spell_rows(table) == [
        ("list", "spell", d("2026-07-09"), d("2026-08-31"), 2.0),
        ("list", "spell", d("2026-09-01"), None, 3.0),
    ]


def test_a_time_of_use_card_ends_the_all_day_list_price_of_the_offer():
    history = runs(
        [
            # a mirror's all-day price, last read 2026-07-24 (its newest snapshot)
            {"source_id": "mirror", "provider": "deepseek", "date": d("2026-07-01"), "last_seen": d("2026-07-24"), "input_usd_per_mtok": 0.435},
            {"source_id": "card", "provider": "deepseek", "price_kind": "off-peak", "date": d("2026-08-16"), "last_seen": d("2026-08-22"), "input_usd_per_mtok": 0.66},
            {"source_id": "card", "provider": "deepseek", "price_kind": "peak", "date": d("2026-08-17"), "last_seen": d("2026-08-22"), "input_usd_per_mtok": 1.32},
        ]
    )  # fmt: skip
    newest = {"mirror": d("2026-07-24"), "card": d("2026-08-22")}
    table, _ = spells.curate_prices(history, newest=newest)
    assert spell_rows(table) == [
        ("list", "spell", d("2026-07-01"), d("2026-08-15"), 0.435),
        ("off-peak", "spell", d("2026-08-16"), None, 0.66),
        ("peak", "spell", d("2026-08-17"), None, 1.32),
    ]
