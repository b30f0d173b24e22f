"""What changed between two releases, per table and source, on a release derived by hand."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from analysis.data import changes
from analysis.data.paths import DATA_DIR

BASE = "2026-11-30"
NEW = "2026-12-02"


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    """The released version and a copy of it with one token price removed, one changed and one
    added (a known source each), under a temporary data root."""
    root = tmp_path_factory.mktemp("data")
    shutil.copytree(DATA_DIR / BASE, root / BASE)
    shutil.copytree(DATA_DIR / BASE, root / NEW)
    path = root / NEW / "token_prices.csv"
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    header = list(rows[0])
    removed, changed, template = rows[0], rows[1], rows[2]
    changed["input_usd_per_mtok"] = str(float(changed["input_usd_per_mtok"] or 0) + 1.0)
    added = {**template, "date": "2026-12-01"}
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, header, lineterminator="\n")
        writer.writeheader()
        writer.writerows([*rows[1:], added])
    index = json.loads((DATA_DIR / "versions.json").read_text(encoding="utf-8"))
    base = next(r for r in index["releases"] if r["version"] == BASE)
    index["releases"] = [base, {**base, "version": NEW}]
    (root / "versions.json").write_text(json.dumps(index), encoding="utf-8")
    root.joinpath("expected.json").write_text(
        json.dumps(
            {
                k: r["source_id"]
                for k, r in [("removed", removed), ("changed", changed), ("added", added)]
            }
        )
    )
    return root


def test_one_row_added_changed_and_removed_each_under_its_source(root):
    expected = json.loads((root / "expected.json").read_text())
    table = changes.changes(BASE, NEW, root)
    assert set(table["table"]) == {"token_prices"}  # the other tables are untouched
    for what, source in expected.items():
        assert table.filter(pl.col("source_id") == source)[what].sum() == 1, what
    assert table.select(pl.sum_horizontal("added", "changed", "removed")).to_series().sum() == 3


def test_a_release_compared_with_itself_has_no_changes(root):
    assert changes.changes(BASE, BASE, root).height == 0


def test_previous_release_and_new_ids(root):
    assert changes.previous_release(NEW, root) == BASE
    assert changes.previous_release(BASE, root) is None
    assert changes.new_ids(BASE, NEW, "model_id", root=root) == []
