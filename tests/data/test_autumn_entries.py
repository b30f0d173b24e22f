"""The hand-entered autumn-2026 rows (data/entries/2026-12-02-autumn-first-party.csv): every
number is written in the quoted text of its locator, every row names its URL and the day it was
read, the file cuts a version with the book's own `data add` (on a copy of the data folder), and
once a release holds the rows they carry the file's values."""

from __future__ import annotations

import csv
import shutil

import polars as pl
import pytest

from analysis.data import add as data_add
from analysis.data import release as data
from analysis.data.paths import ROOT

ENTRIES = ROOT / "data" / "entries" / "2026-12-02-autumn-first-party.csv"
NUMBERS = ("input_original_per_mtok", "output_original_per_mtok", "cached_input_original_per_mtok")


def rows() -> list[dict[str, str]]:
    with ENTRIES.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_every_number_is_in_its_quote_and_every_row_says_where_it_was_read():
    for i, r in enumerate(rows(), start=1):
        assert r["source_url"].startswith("https://github.com/") and "/blob/" in r["source_url"]
        assert len(r["source_url"].split("/blob/")[1].split("/")[0]) == 40  # a pinned commit
        assert r["accessed"] and r["entered_by"] and r["source_title"], i
        for col in NUMBERS:
            if r[col]:
                assert f"{r[col]} " in r["source_locator"], (i, col, r[col])
        assert f"audited {r['date']}" in r["source_locator"], i  # the date is the page's


def test_data_add_cuts_a_version_from_the_file(tmp_path):
    root = tmp_path / "data"
    shutil.copytree(ROOT / "data", root, ignore=shutil.ignore_patterns("entries"))
    added = data_add.add(ENTRIES, new_model=True, root=root, version="2026-12-30")
    prices = data.load("token_prices", added.version, root=root)
    got = prices.filter(pl.col("source_id").str.starts_with("hand-github.com-laisky"))
    assert got.height == len(rows())
    for r in rows():
        row = got.filter(pl.col("source_model_name") == r["model"]).row(0, named=True)
        assert (row["provider"], row["currency"], row["price_kind"]) == (
            r["provider"],
            r["currency"],
            r["price_kind"],
        )
        for col in NUMBERS:
            assert row[col] == pytest.approx(float(r[col]))


def test_a_release_that_holds_the_rows_carries_the_files_values():
    prices = data.load("token_prices")
    held = prices.filter(pl.col("source_id").str.starts_with("hand-github.com-laisky"))
    if held.is_empty():
        pytest.skip("the latest release predates the autumn entries (the lead runs data add)")
    for r in rows():
        row = held.filter(pl.col("source_model_name") == r["model"]).row(0, named=True)
        for col in NUMBERS:
            assert row[col] == pytest.approx(float(r[col]))


def test_the_entries_folder_is_no_release():
    """The loader reads releases from versions.json only: data/entries is not one."""
    versions = [r.version for r in data.releases()]
    assert "entries" not in versions and ENTRIES.parent.name == "entries"
