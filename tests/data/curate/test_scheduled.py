"""Scheduled prices and stated ends (issue 19, item 3), on small hand-made snapshot histories:
a price announced before its date keeps its kind, says when it was announced (`announced`) and
is in force from its date only; a promotion's end as its source states it (`stated_end`) is its
own column, apart from the spell's end (`valid_to`)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import polars as pl
import price_runs

from analysis.data.curate import spells
from analysis.data.importers import frontier_prices
from analysis.methods import prices


def d(s: str) -> date:
    return date.fromisoformat(s)


def runs(rows: list[dict]) -> pl.DataFrame:
    ends = [r.pop("stated_end", None) for r in rows]
    out = price_runs.runs(rows, model="m", provider="google")
    return out.with_columns(pl.Series("stated_end", ends, dtype=pl.Date))


# "pages" (newest snapshot 2026-10-07) lists 0.75 in force since 2026-09-20 and 1.50 from
# 2027-01-01; "lib" (one snapshot, 2026-09-25) listed the 1.50 ahead too.
SCHEDULE = [
    {"source_id": "pages", "date": d("2026-09-20"), "last_seen": d("2026-10-07"), "input_usd_per_mtok": 0.75},
    {"source_id": "pages", "date": d("2027-01-01"), "input_usd_per_mtok": 1.5},
    {"source_id": "lib", "date": d("2027-01-01"), "input_usd_per_mtok": 1.5},
]  # fmt: skip
NEWEST = {"pages": d("2026-10-07"), "lib": d("2026-09-25")}


def curated(history: pl.DataFrame, newest: dict | None) -> pl.DataFrame:
    """The spells, and `announced` from their evidence, as a build makes them."""
    table, obs = spells.curate_prices(history, newest=newest)
    return spells.announce(table, obs, newest)


def test_a_scheduled_price_says_when_it_was_announced_and_keeps_its_kind():
    table = curated(runs([dict(r) for r in SCHEDULE]), NEWEST)
    got = table.sort("valid_from").select("price_kind", "valid_from", "valid_to", "announced")
    assert got.rows() == [
        ("list", d("2026-09-20"), d("2026-12-31"), None),  # seen in force: not announced
        # listed before its date by both sources; the earlier of their snapshots
        ("list", d("2027-01-01"), None, d("2026-09-25")),
    ]


def test_a_scheduled_price_is_in_force_from_its_date_and_not_before():
    table = curated(runs([dict(r) for r in SCHEDULE]), NEWEST)
    # a chapter's reader of list prices: `price_kind == "list"`, then the price in force
    listed = table.filter(pl.col("price_kind") == "list")
    for on, want in [("2026-10-01", 0.75), ("2026-12-31", 0.75), ("2027-01-01", 1.5)]:
        got = prices.price_in_force(listed, d(on))["input_usd_per_mtok"].to_list()
        assert got == [want], on


def test_a_promotions_stated_end_is_its_own_column_and_the_latest_stated_wins():
    history = runs(
        [
            # "$0.75 through December 31, 2026." read 2026-09-20; on 2026-10-07 "through
            # January 31, 2027." at the same price (an extension)
            {"source_id": "pages", "price_kind": "promotional", "date": d("2026-09-20"), "last_seen": d("2026-09-20"), "input_usd_per_mtok": 0.75, "stated_end": d("2026-12-31")},
            {"source_id": "pages", "price_kind": "promotional", "date": d("2026-10-07"), "last_seen": d("2026-10-07"), "input_usd_per_mtok": 0.75, "stated_end": d("2027-01-31")},
            {"source_id": "pages", "date": d("2026-06-01"), "last_seen": d("2026-10-07"), "input_usd_per_mtok": 1.5},
        ]
    )  # fmt: skip
    table, _ = spells.curate_prices(history, newest={"pages": d("2026-10-07")})
    got = table.sort("price_kind").select("price_kind", "valid_to", "stated_end").rows()
    # valid_to stays the spell's end from the evidence (both still listed: open)
    assert got == [("list", None, None), ("promotional", None, d("2027-01-31"))]


def test_runs_without_the_column_give_a_table_without_it():
    # the runs of a release before the column (`panel.released_runs`) state no end
    history = price_runs.runs(
        [{"source_id": "pages", "date": d("2026-06-01"), "input_usd_per_mtok": 1.0}]
    )
    table = curated(history, None)
    assert "stated_end" not in table.columns
    # without snapshot dates nothing can be told announced
    assert table["announced"].to_list() == [None]


PLANS = """\
generated: 2026-09-20
plans:
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
- name: Gemini 3.5 Flash input (paid)
  price_text: $1.50
  price: 1.5
  unit: per 1M tokens
- name: Gemini 3.5 Flash output (paid)
  price_text: $9.00
  price: 9.0
  unit: per 1M tokens
"""


def test_the_plans_reader_keeps_the_through_date_as_the_stated_end(tmp_path: Path):
    path = tmp_path / "2026-09-20_api-evangelist-gemini__plans__gemini-plans-pricing.yml"
    path.write_text(PLANS, encoding="utf-8")
    rows = frontier_prices.parse_plans(path)
    got = sorted(
        (r["source_model_name"], r["price_kind"], r["date"], r["stated_end"]) for r in rows
    )
    assert got == [
        ("Gemini 3.5 Flash", "list", d("2026-09-20"), None),
        ("Gemini 3.8 Flash", "list", d("2027-01-01"), None),  # the scheduled price: no end
        ("Gemini 3.8 Flash", "promotional", d("2026-09-20"), d("2026-12-31")),
    ]
