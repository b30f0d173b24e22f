"""New observations added to a release (`panel.extend`): the rows a version cut from it adds.

A small release is built here with the build's own curation from importer-shaped rows, then
extended. o3 at OpenAI: 10/40 from its release, 2/8 from the cut of 2025-06-10 (as in
test_spells.py); simonw's list keeps 10/40 after the cut (a stale copy). The later prices (1/4
from 2025-11-01, 2/8 again from 2025-12-01) are a synthetic series: the rows expected follow
from the spell rules by hand.
"""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from analysis.data import build, update
from analysis.data.curate import panel
from analysis.data.importers.common import MODEL_INFO_SCHEMA
from analysis.data.schema import TABLES


def d(s: str) -> date:
    return date.fromisoformat(s)


def prices(rows: list[dict]) -> pl.DataFrame:
    """Importer-shaped token_prices rows (names, no model ids)."""
    frame = update._importer_frame("token_prices")
    base = {c: None for c in frame.columns} | {
        "provider": "openai",
        "price_kind": "list",
        "currency": "USD",
        "source_model_name": "o3",
    }
    out = []
    for i, r in enumerate(rows):
        row = base | r
        row["source_locator"] = row["source_locator"] or f"{row['source_id']}#{r['date']}#{i}"
        out.append(row)
    return pl.DataFrame(out, schema=frame.schema)


def released(frames: dict[str, pl.DataFrame]) -> panel.Release:
    """A release built from `frames` by the build's curation, every table as it is written."""
    tables, _ = panel.curate(frames)
    done = {t: build._finish(t, tables[t]) for t in tables if t in TABLES}
    for t in ("benchmark_scores", "gpu_hour_prices"):
        done.setdefault(t, pl.DataFrame(schema=TABLES[t].polars_schema))
    return panel.Release.of(done)


O3 = [
    {"source_id": "genai-prices", "date": d("2025-04-16"), "last_seen": d("2025-06-09"), "input_usd_per_mtok": 10.0, "output_usd_per_mtok": 40.0},
    {"source_id": "genai-prices", "date": d("2025-06-10"), "last_seen": d("2025-09-01"), "input_usd_per_mtok": 2.0, "output_usd_per_mtok": 8.0},
    {"source_id": "litellm-rocry", "date": d("2025-05-01"), "last_seen": d("2025-06-02"), "input_usd_per_mtok": 10.0, "output_usd_per_mtok": 40.0},
    {"source_id": "litellm-rocry", "date": d("2025-07-03"), "last_seen": d("2025-09-01"), "input_usd_per_mtok": 2.0, "output_usd_per_mtok": 8.0},
    {"source_id": "simonw-llm-prices", "date": d("2025-08-01"), "last_seen": d("2025-08-01"), "input_usd_per_mtok": 10.0, "output_usd_per_mtok": 40.0},
]  # fmt: skip


@pytest.fixture(scope="module")
def release() -> panel.Release:
    return released({"token_prices": prices(O3)})


def added(release: panel.Release, rows: list[dict]) -> pl.DataFrame:
    return panel.extend(release, {"token_prices": prices(rows)}).rows["token_prices"]


def test_the_release_is_o3s_two_spells_and_simonws_stale_copy(release):
    tp = release.token_prices.sort("valid_from", nulls_last=True)
    assert tp["output_usd_per_mtok"].to_list() == [40.0, 8.0, 40.0]
    assert tp["valid_from"].to_list() == [d("2025-04-16"), d("2025-06-10"), None]
    assert tp["valid_to"].to_list() == [d("2025-06-09"), None, None]  # 2/8: still listed
    assert tp["flags"].to_list() == [None, None, "superseded_stale"]


def test_the_same_price_seen_again_adds_nothing(release):
    # LiteLLM's next snapshot, and simonw's list still showing the old price: nothing new.
    again = [
        {"source_id": "litellm-rocry", "date": d("2025-10-01"), "last_seen": d("2025-10-01"), "input_usd_per_mtok": 2.0, "output_usd_per_mtok": 8.0},
        {"source_id": "simonw-llm-prices", "date": d("2025-10-10"), "last_seen": d("2025-10-10"), "input_usd_per_mtok": 10.0, "output_usd_per_mtok": 40.0},
    ]  # fmt: skip
    assert added(release, again).height == 0


def test_the_sources_the_release_was_built_from_add_nothing(release):
    assert added(release, O3).height == 0


def test_a_changed_price_opens_a_spell_and_a_return_to_the_old_price_another(release):
    later = [
        {"source_id": "litellm-rocry", "date": d("2025-11-01"), "last_seen": d("2025-11-01"), "input_usd_per_mtok": 1.0, "output_usd_per_mtok": 4.0},
        {"source_id": "litellm-rocry", "date": d("2025-12-01"), "last_seen": d("2026-01-01"), "input_usd_per_mtok": 2.0, "output_usd_per_mtok": 8.0},
    ]  # fmt: skip
    new = added(release, later).sort("valid_from")
    # 1/4 from its first sighting to the day before 2/8 is back; 2/8 again, still listed.
    assert new["output_usd_per_mtok"].to_list() == [4.0, 8.0]
    assert new["valid_from"].to_list() == [d("2025-11-01"), d("2025-12-01")]
    assert new["valid_to"].to_list() == [d("2025-11-30"), None]
    assert not set(new["row_id"]) & set(release.token_prices["row_id"])
    # The released 2/8 spell stays open as released; the new spells close it when read.
    from analysis.methods.prices import price_in_force

    both = pl.concat([release.token_prices, new.select(release.token_prices.columns)])
    on = {day: price_in_force(both, d(day))["output_usd_per_mtok"].to_list()
          for day in ("2025-10-31", "2025-11-15", "2026-02-01")}  # fmt: skip
    assert on == {"2025-10-31": [8.0], "2025-11-15": [4.0], "2026-02-01": [8.0]}


def test_a_stale_copy_of_the_old_price_joins_what_the_release_holds(release):
    # A source that never showed 2/8 lists 10/40 after the cut: stale, and known.
    stale = [{"source_id": "lmarena-catalog", "date": d("2025-09-01"), "last_seen": d("2025-09-01"), "input_usd_per_mtok": 10.0, "output_usd_per_mtok": 40.0}]  # fmt: skip
    assert added(release, stale).height == 0


def test_new_rows_come_with_their_observations_and_flags(release):
    swapped = [{"source_id": "litellm-rocry", "date": d("2025-11-01"), "last_seen": d("2025-11-01"), "input_usd_per_mtok": 8.0, "output_usd_per_mtok": 2.0}]  # fmt: skip
    ext = panel.extend(release, {"token_prices": prices(swapped)})
    (row,) = ext.rows["token_prices"].iter_rows(named=True)
    assert row["flags"] == "output_below_input"
    assert ext.observations["row_id"].to_list() == [row["row_id"]]
    assert ext.observations["source_locator"].to_list() == [row["source_locator"]]
    counts = {c["rule"]: c for c in ext.flag_counts(ext.rows) if c["table"] == "token_prices"}
    assert (counts["output_below_input"]["flagged"], counts["output_below_input"]["rows"]) == (1, 1)


def info(rows: list[dict]) -> pl.DataFrame:
    base = {c: None for c in MODEL_INFO_SCHEMA} | {"source_id": "epoch-ai-models"}
    return pl.DataFrame(
        [base | r | {"source_locator": f"m#{i}"} for i, r in enumerate(rows)],
        schema=MODEL_INFO_SCHEMA,
    )


def test_a_name_keeps_the_model_the_release_gave_it():
    """Groq's `-instant` is an offer word only on public weights: the release knew Llama 3.1
    8B's weights are open (model metadata); this update's rows alone do not say so."""
    name = "groq/llama-3.1-8b-instant"
    row = {"source_id": "litellm-rocry", "provider": "groq", "source_model_name": name}
    first = {**row, "date": d("2025-05-01"), "last_seen": d("2025-06-01"), "input_usd_per_mtok": 0.05, "output_usd_per_mtok": 0.08}  # fmt: skip
    rel = released(
        {
            "token_prices": prices([first]),
            "model_info": info([{"source_model_name": "Llama 3.1 8B", "open_weights": True}]),
        }
    )
    assert rel.token_prices.select("model_id", "offer").row(0) == ("llama-3.1-8b", "instant")
    cut = {**row, "date": d("2025-09-01"), "last_seen": d("2025-09-01"), "input_usd_per_mtok": 0.04, "output_usd_per_mtok": 0.06}  # fmt: skip
    new = added(rel, [cut])
    assert new.select("model_id", "offer", "input_usd_per_mtok").rows() == [
        ("llama-3.1-8b", "instant", 0.04)
    ]


def test_a_new_snapshot_is_dated_by_its_retrieval_not_by_the_largest_date_a_row_mentions(release):
    # A new source read on 2025-11-01 lists o4-mini at 1/4 and announces o3-pro from
    # 2026-01-01 (a scheduled row, not yet seen). Its newest snapshot is 2025-11-01, so
    # o4-mini is still listed: its spell stays open (issue 19, class 1, as a build decides).
    rows = [
        {"source_id": "pages", "source_model_name": "o4-mini", "date": d("2025-11-01"), "last_seen": d("2025-11-01"), "input_usd_per_mtok": 1.0, "output_usd_per_mtok": 4.0},
        {"source_id": "pages", "source_model_name": "o3-pro", "date": d("2026-01-01"), "input_usd_per_mtok": 20.0, "output_usd_per_mtok": 80.0},
    ]  # fmt: skip
    snapshot = pl.DataFrame({"source_id": ["pages"], "retrieved": [d("2025-11-01")]})
    new = panel.extend(release, {"token_prices": prices(rows)}, sources=snapshot)
    o4 = new.rows["token_prices"].filter(pl.col("input_usd_per_mtok") == 1.0)
    assert o4.select("valid_from", "valid_to").rows() == [(d("2025-11-01"), None)]
    # Taking the largest date a row mentions (2026-01-01) as the newest snapshot, as
    # `data add` and `data update` did before, closes it at its last sighting.
    old = panel.extend(release, {"token_prices": prices(rows)}).rows["token_prices"]
    old = old.filter(pl.col("input_usd_per_mtok") == 1.0)
    assert old.select("valid_from", "valid_to").rows() == [(d("2025-11-01"), d("2025-11-01"))]
    # The release's own sources table dates its sources the same way.
    with_sources = panel.Release(**{**release.__dict__, "sources": snapshot})
    again = panel.extend(with_sources, {"token_prices": prices(rows)}).rows["token_prices"]
    assert again.filter(pl.col("input_usd_per_mtok") == 1.0)["valid_to"].to_list() == [None]
