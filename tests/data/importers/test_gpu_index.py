"""henryzhang GPU price index back-series: published months only, index, raw and per-provider rows."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import gpu_index

HEADER = (
    "period,index_code,status,value,provider_count,observation_count,snapshot_count,dispersion,"
    "min_provider_value,max_provider_value,providers,withheld_reason,flags,raw_on_demand_median,"
    "reserved_raw_median,reserved_providers,spot_raw_median,spot_providers,matched_providers,"
    "matched_log_change,methodology_version,label"
)
LABEL = (
    '"reconstructed from archived public rate cards; list prices, not transactions; not the index"'
)
ROWS = [
    f"2023-01,GIX-H100,withheld,,0,0,0,,,,,min_providers: 0 of 3 required,,,,0,,0,0,,1.1.0,{LABEL}",
    f"2023-09,GIX-H100,published,3.3775,3,10,4,0.3689,2.5372,4.7433,datacrunch=3.377;lambda=2.537;runpod=4.743,,,3.5000,2.8584,2,3.2400,1,2,,1.1.0,{LABEL}",
    f"2023-10,GIX-A100,published,2.2496,3,6,5,0.3404,1.7331,3.2846,lambda=1.733;paperspace=3.285;runpod=2.250,,,1.7450,,0,,0,3,0.000000,1.1.0,{LABEL}",
]
FILE = "2026-09_series__backfill_ratecards.csv"


def _write(folder: Path, rows: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / FILE
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    folder = tmp_path / "gpu-prices-henryzhang-backfill"
    _write(folder, ROWS)
    (folder / "_PROVENANCE.tsv").write_text(
        "file\trepo\tcommit\tcommit_date\tpath_in_repo\tbytes\tsha256\n"
        f"gpu-prices-henryzhang-backfill/{FILE}\thenryzhangpku/gpu-price-index\t"
        "f741b56d6f8615757008a24372d340cc13f9d2f4\t(unknown)\tseries/backfill_ratecards.csv\t0\tx\n"
    )
    return tmp_path


def test_published_month_gives_index_raw_spot_and_provider_rows(sources: Path) -> None:
    df = gpu_index.build(sources)["gpu_hour_prices"]
    h100 = df.filter(pl.col("gpu") == "h100")
    assert set(h100["date"]) == {dt.date(2023, 9, 1)}
    own = h100.filter(pl.col("provider") == "gpu-price-index")
    got = {(r["pricing"], r["statistic"]): r["usd_per_gpu_hour"] for r in own.iter_rows(named=True)}
    assert got == {
        ("index", "index-restated"): 3.3775,
        ("on-demand", "median-raw"): 3.5,
        ("spot", "median-raw"): 3.24,
    }
    per_provider = h100.filter(pl.col("statistic") == "median-restated")
    assert dict(zip(per_provider["provider"], per_provider["usd_per_gpu_hour"], strict=True)) == {
        "datacrunch": 3.377,
        "lambda": 2.537,
        "runpod": 4.743,
    }
    assert set(h100["source_gpu_name"]) == {"GIX-H100"}
    assert set(h100["source_locator"]) == {
        f"gpu-prices-henryzhang-backfill/{FILE}@f741b56d6f86#row 2"
    }


def test_withheld_months_reserved_and_empty_side_columns_are_left_out(sources: Path) -> None:
    df = gpu_index.build(sources)["gpu_hour_prices"]
    assert dt.date(2023, 1, 1) not in df["date"].to_list()
    assert "reserved" not in " ".join(df["statistic"])
    a100 = df.filter((pl.col("gpu") == "a100") & (pl.col("provider") == "gpu-price-index"))
    assert sorted(a100["pricing"]) == ["index", "on-demand"]  # no spot median that month
    assert df.height == (3 + 3) + (2 + 3)


def test_a_published_month_without_value_is_an_error(tmp_path: Path) -> None:
    bad = ROWS[1].replace("published,3.3775", "published,")
    path = _write(tmp_path, [bad])
    with pytest.raises(DataError) as err:
        gpu_index.parse_backfill(path)
    assert (err.value.problems[0].row, err.value.problems[0].column) == (1, "value")


def test_an_unknown_index_code_is_an_error(tmp_path: Path) -> None:
    path = _write(tmp_path, [ROWS[1].replace("GIX-H100", "GIX-ZZ9")])
    with pytest.raises(DataError, match="GIX-ZZ9"):
        gpu_index.parse_backfill(path)


def test_real_series_runs_2023_09_to_2026_09_for_four_gpus(sources_dir: Path) -> None:
    df = gpu_index.build(sources_dir)["gpu_hour_prices"]
    index = df.filter(pl.col("pricing") == "index")
    assert set(index["gpu"]) == {"a100", "b200", "h100", "h200"}
    assert index["date"].min() == dt.date(2023, 9, 1)
    assert index["date"].max() == dt.date(2026, 9, 1)
    firsts = index.group_by("gpu").agg(pl.col("date").min()).sort("gpu")
    assert firsts["date"].to_list() == [
        dt.date(2023, 9, 1),
        dt.date(2025, 7, 1),
        dt.date(2023, 9, 1),
        dt.date(2024, 11, 1),
    ]
    assert df["provider"].n_unique() >= 10  # per-provider medians for hyperscaler vs small-cloud
