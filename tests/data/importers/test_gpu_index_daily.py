"""GIX daily fixings: the revision in force per date, withheld dates left out."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import gpu_index_daily

FOLDER = "gpu-price-index-henryzhang-daily"
FILE = f"{FOLDER}/2026-09-08_series__index_values.csv"
HEADER = (
    "index_code,index_date,revision,status,value,provider_count,observation_count,dispersion,"
    "withheld_reason,methodology_version,published_at,superseded_at,revision_reason,snapshot"
)
ROWS = [
    "GIX-H100,2026-08-27,0,published,3.0889,12,48,0.37,,1.0.0,2026-08-27T20:53:50Z,2026-08-27T20:54:06Z,,a.jsonl.gz",
    "GIX-H100,2026-08-27,1,published,3.5897,12,46,0.39,,1.0.0,2026-08-27T21:35:43Z,,,b.jsonl.gz",
    "GIX-A100,2026-08-27,0,published,1.6851,7,49,0.23,,1.0.0,2026-08-27T20:53:50Z,2026-08-27T21:35:43Z,,a.jsonl.gz",
    "GIX-A100,2026-08-27,1,withheld,,3,20,,dispersion: 0.61 above ceiling,1.0.0,2026-08-27T21:35:43Z,,,b.jsonl.gz",
    "GIX-H100,2026-08-28,0,published,3.1284,12,46,0.37,,1.0.0,2026-08-28T05:17:34Z,,,c.jsonl.gz",
    "GIX-MI300X,2026-08-28,0,withheld,,1,2,,min_providers: 1 of 4 required,1.0.0,2026-08-28T05:17:34Z,,,c.jsonl.gz",
]


def _write(tree, rows):
    # The real file has CRLF line ends (README Part II 2.1); the parser must not care.
    return tree.add(FILE, "\r\n".join([HEADER, *rows]) + "\r\n")


def test_the_revision_in_force_is_kept_and_withheld_dates_dropped(tree):
    _write(tree, ROWS)
    df = gpu_index_daily.build(tree.root)["gpu_hour_prices"]
    got = {(r["gpu"], r["date"]): r["usd_per_gpu_hour"] for r in df.iter_rows(named=True)}
    assert got == {("h100", dt.date(2026, 8, 27)): 3.5897, ("h100", dt.date(2026, 8, 28)): 3.1284}
    row = df.row(0, named=True)
    assert (row["provider"], row["pricing"], row["statistic"]) == (
        "gpu-price-index",
        "index",
        "index-restated",
    )
    assert row["source_gpu_name"] == "GIX-H100"
    assert row["source_locator"] == f"{FILE}@c0ffee000000#row 2"


def test_two_revisions_in_force_for_one_date_is_an_error(tree):
    path = _write(tree, [ROWS[1], ROWS[1].replace(",1,published", ",2,published")])
    with pytest.raises(DataError) as err:
        gpu_index_daily.parse_index_values(path)
    p = err.value.problems[0]
    assert (p.row, p.column) == (2, "superseded_at") and "row 1" in p.rule


def test_a_published_fixing_without_a_value_names_row_and_column(tree):
    path = _write(tree, [ROWS[4].replace("published,3.1284", "published,")])
    with pytest.raises(DataError) as err:
        gpu_index_daily.parse_index_values(path)
    assert (err.value.problems[0].row, err.value.problems[0].column) == (1, "value")


def test_an_unknown_index_code_is_an_error(tree):
    path = _write(tree, [ROWS[4].replace("GIX-H100", "GIX-ZZ9")])
    with pytest.raises(DataError, match="GIX-ZZ9"):
        gpu_index_daily.parse_index_values(path)


def test_real_series_matches_the_readme_ranges(sources_dir):
    df = gpu_index_daily.build(sources_dir)["gpu_hour_prices"]
    days = df.group_by("gpu").agg(pl.len(), pl.col("usd_per_gpu_hour").min().alias("lo"))
    counts = dict(days.select("gpu", "len").iter_rows())
    # README II.2.1: 13 index dates; A100 withheld on 8 of 13; MI300X always withheld.
    assert counts == {"h100": 13, "h200": 13, "b200": 13, "a100": 5}
    h100 = df.filter(pl.col("gpu") == "h100")["usd_per_gpu_hour"]
    assert h100.min() >= 3.065 and h100.max() < 3.635  # "3.07-3.63", rounded
    assert df["date"].min() == dt.date(2026, 8, 27) and df["date"].max() == dt.date(2026, 9, 8)
