"""The new-source importers as a set, and the helpers they share."""

from __future__ import annotations

import datetime as dt
import importlib
from pathlib import Path

import pytest

from analysis.data.errors import DataError
from analysis.data.importers import new_sources
from analysis.data.importers.common import MODEL_INFO_SCHEMA
from analysis.data.schema import TABLES

TOKEN_PRICES_KEY = TABLES["token_prices"].primary_key
# The key before long-context tiers and currency joined it.
NEW_TABLES = [
    "inference_benchmarks",
    "tco_assumptions",
    "tou_windows",
    "mlperf_training_systems",
    "mlperf_training_results",
    "aa_snapshots",
]
OLD_KEY = ["model_id", "provider", "date", "price_kind", "source_id", "source_model_name"]


def price(tier="", currency="USD", where="a", **over):
    row = {
        "provider": "openai",
        "date": dt.date(2026, 9, 25),
        "price_kind": "list",
        "context_tier": tier,
        "currency": currency,
        "source_id": "s",
        "source_model_name": "gpt-6-sol",
        "source_locator": where,
    }
    return row | over


def test_under_the_old_key_the_base_tier_in_usd_is_kept():
    rows = [price(tier=">272k", where="t"), price(currency="CNY", where="c"), price(where="b")]
    kept, dropped = new_sources.fit_token_price_key(rows, OLD_KEY)
    assert [r["source_locator"] for r in kept] == ["b"] and dropped == 2


def test_under_the_extended_key_every_row_stays_in_order():
    rows = [price(tier=">272k", where="t"), price(currency="CNY", where="c"), price(where="b")]
    kept, dropped = new_sources.fit_token_price_key(rows, TOKEN_PRICES_KEY)
    assert [r["source_locator"] for r in kept] == ["t", "c", "b"] and dropped == 0


def test_a_real_duplicate_names_both_locators():
    with pytest.raises(DataError) as err:
        new_sources.fit_token_price_key([price(where="x"), price(where="y")], TOKEN_PRICES_KEY)
    p = err.value.problems[0]
    assert p.file == "x" and "also y" in p.rule


def test_spells_join_consecutive_equal_values_and_split_on_change():
    d = dt.date
    rows = [
        {"g": 1, "v": 5, "date": d(2026, 6, 1), "last_seen": d(2026, 6, 1), "loc": "jun"},
        {"g": 1, "v": 5, "date": d(2026, 7, 1), "last_seen": d(2026, 7, 1), "loc": "jul"},
        {"g": 1, "v": 4, "date": d(2026, 7, 10), "last_seen": None, "loc": "jul10"},
        {"g": 1, "v": 5, "date": d(2026, 8, 1), "last_seen": d(2026, 8, 1), "loc": "aug"},
        {"g": 2, "v": 5, "date": d(2026, 6, 1), "last_seen": d(2026, 6, 1), "loc": "other"},
    ]
    out = new_sources.spells(rows, ("g",), ("v",))
    got = [(r["g"], r["v"], r["date"], r["last_seen"], r["loc"]) for r in out]
    assert got == [
        (1, 5, d(2026, 6, 1), d(2026, 7, 1), "jun"),
        (1, 4, d(2026, 7, 10), None, "jul10"),
        (1, 5, d(2026, 8, 1), d(2026, 8, 1), "aug"),  # a price back to 5 is a new spell
        (2, 5, d(2026, 6, 1), d(2026, 6, 1), "other"),
    ]


def test_file_date_reads_the_name_and_names_a_file_without_one():
    assert new_sources.file_date(Path("x/2026-09-23_aimeter__docs.md")) == dt.date(2026, 9, 23)
    assert new_sources.file_date(Path("x/2026-01-28_HEAD/agg.json")) == dt.date(2026, 1, 28)
    with pytest.raises(DataError, match=r"pricing\.json"):
        new_sources.file_date(Path("x/pricing.json"))


def test_number_rejects_negatives_booleans_and_text():
    assert new_sources.number(Path("f"), 3, "c", "1.5") == 1.5
    for bad in (-1, True, "x", float("nan")):
        with pytest.raises(DataError) as err:
            new_sources.number(Path("f"), 3, "c", bad)
        assert (err.value.problems[0].row, err.value.problems[0].column) == (3, "c")


def test_every_new_table_has_required_keys_and_frictionless_schema():
    for table in (TABLES[t] for t in NEW_TABLES):
        required = {c.name for c in table.columns if c.required}
        assert set(table.primary_key) <= required, table.name
        assert table.frictionless()["primaryKey"] == table.primary_key


@pytest.mark.parametrize("name", new_sources.NEW_IMPORTERS)
def test_each_importer_keeps_the_contract_on_the_real_sources(name, sources_dir):
    module = importlib.import_module(name)
    columns = set(TABLES["sources"].column_names)
    assert module.SOURCES and all(set(s) == columns for s in module.SOURCES)
    ids = {s["source_id"] for s in module.SOURCES}
    frames = module.build(sources_dir)
    again = module.build(sources_dir)
    for table, df in frames.items():
        assert df.height > 0, (name, table)
        assert df.equals(again[table]), (name, table)  # deterministic: same files, same rows
        if table == "model_info":
            assert list(df.schema) == list(MODEL_INFO_SCHEMA)
            continue
        spec = TABLES[table]
        expected = [c for c in spec.column_names if c not in ("model_id", "first_party")]
        assert df.columns[: len(expected)] == expected, (name, table)
        assert set(df["source_id"]) <= ids, (name, table)
        assert df["source_locator"].null_count() == 0
        key = spec.primary_key
        key = [c for c in key if c in df.columns]
        assert not df.select(key).is_duplicated().any(), (name, table)
