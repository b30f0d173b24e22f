"""GPU markets importer: tugot17 snapshots, Ornn index, vast.ai and RunPod files."""

from __future__ import annotations

import datetime as dt
import gzip
import json
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import gpu_markets
from analysis.data.schema import TABLES

COMMIT_T = "718a831c495f202f8c290d290b1f652aa7ed70d9"
COMMIT_S = "83ec0dd32d3c132382396cf19f27568a4c42ae99"


def _snapshot(stamp: str, median: float) -> str:
    stats = {
        "min": 1.0,
        "p10": 1.8,
        "p25": 1.99,
        "median": median,
        "p75": 2.49,
        "p90": 2.7,
        "max": 3.29,
        "mean": 2.13,
    }
    snap = {
        "timestamp": stamp,
        "gpu_type": "H100_80GB",
        "socket_type": "SXM5",
        "price_stats": stats,
    }
    return json.dumps(snap | {"by_provider": {"runpod": {"count": 4, "min": 2.69, "avg": 2.7}}})


VAST_HEADER = "scraped_at,rental_type,gpu_name,num_offers,total_gpus,dph_per_gpu_min,dph_per_gpu_p25,dph_per_gpu_median,dph_per_gpu_p75,dph_per_gpu_max,verified_median,median_reliability"
VAST_ROWS = [
    "2026-07-20T05:19:05+00:00,on-demand,H100 SXM,40,200,1.2,1.6,1.9,2.2,3.0,1.9,0.99",
    "2026-07-20T05:19:05+00:00,bid,H100 SXM,40,200,0.8,1.0,1.2,1.4,2.0,1.2,0.99",
    "2026-07-20T23:19:05+00:00,on-demand,H100 SXM,41,210,1.1,1.5,1.8,2.1,3.0,1.8,0.99",
    "2026-07-20T23:19:05+00:00,on-demand,RTX 3060 laptop,2,2,0.05,0.06,0.07,0.08,0.09,0.07,0.95",
]
RUNPOD_DAILY = [
    "date,gpu_id,display_name,memory_gb,secure_price,community_price,spot_bid_floor,on_demand_floor,stock_status,stock_2x,stock_4x,stock_8x,price_1wk,price_1mo,price_3mo,price_6mo,price_cluster,available_dcs,listed_dcs,scraped_at",
    "2026-07-28,NVIDIA H100 80GB HBM3,H100 SXM,80,2.99,2.69,2.69,2.69,High,High,Medium,Low,,,2.99,2.99,3.588,9,14,2026-07-28T16:44:29+00:00",
    "2026-07-28,NVIDIA B200,B200,180,5.89,5.98,,5.98,Low,Low,,,,,5.89,5.89,7.068,4,5,2026-07-28T16:44:29+00:00",
    "2026-07-28,NVIDIA RTX PRO 6000 Blackwell Server Edition MIG 1g.24gb,PRO 6000 MIG 24GB,24,0.5,,,,Low,,,,,,,,,1,1,2026-07-28T16:44:29+00:00",
]
RUNPOD_DEPTH = [
    "date,gpu_type,gpu_count,sku_listings,min_price_per_hour",
    "2026-03-02,H200,1,3,2.29",
    "2026-03-02,H200,8,10,18.32",
]
ORNN = [
    "gpu_type,timestamp,index_value,last_scraped_at",
    "A100 SXM4,2026-04-20T20:00:00.000Z,1.07,2026-07-21T16:25:00+00:00",
    "H100 SXM,2026-04-20T20:00:00.000Z,1.71,2026-07-21T16:25:00+00:00",
]


def _provenance(folder: Path, files: list[Path], repo: str, commit: str, sources: Path) -> None:
    lines = ["file\trepo\tcommit\tcommit_date\tpath_in_repo\tbytes\tsha256"]
    for f in files:
        rel = f.relative_to(sources).as_posix()
        lines.append(f"{rel}\t{repo}\t{commit}\t2026-08-08\t{rel.split('_HEAD/', 1)[1]}\t0\tx")
    (folder / "_PROVENANCE.tsv").write_text("\n".join(lines) + "\n")


def _write(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    tugot = tmp_path / "gpu-prices-tugot17-primeintellect"
    jsonl = _write(
        tugot / "2025-11-16_HEAD" / "data" / "summary" / "H100_80GB_SXM5.jsonl",
        [
            _snapshot("2025-10-19T21:01:58.727366+00:00", 1.99),
            _snapshot("2025-10-19T23:31:58.100000+00:00", 2.05),
            _snapshot("2025-10-20T00:01:58.000000+00:00", 2.10),
        ],
    )
    _provenance(tugot, [jsonl], "tugot17/gpu-price-tracker", COMMIT_T, tmp_path)
    sui = tmp_path / "openrouter-sui414"
    head = sui / "2026-08-08_HEAD"
    vast_gz = head / "data" / "csv" / "vast_market" / "date=2026-07-20.csv.gz"
    vast_gz.parent.mkdir(parents=True)
    with gzip.open(vast_gz, "wt", encoding="utf-8") as fh:
        fh.write("\n".join([VAST_HEADER, *VAST_ROWS]) + "\n")
    files = [
        vast_gz,
        _write(
            head / "data" / "csv" / "vast_market" / "date=2026-07-21.csv",
            [VAST_HEADER, VAST_ROWS[0].replace("07-20", "07-21")],
        ),
        _write(head / "data" / "csv" / "ornn_gpu_index.csv", ORNN),
        _write(head / "data" / "csv" / "runpod_daily.csv", RUNPOD_DAILY),
        _write(head / "data-static" / "runpod_depth_history_afhubbard.csv", RUNPOD_DEPTH),
    ]
    _provenance(sui, files, "sui414/openrouter-pricing-data", COMMIT_S, tmp_path)
    return tmp_path


@pytest.fixture
def prices(sources: Path) -> pl.DataFrame:
    return gpu_markets.build(sources)["gpu_hour_prices"]


def _values(df: pl.DataFrame) -> dict:
    return {
        (r["date"], r["pricing"], r["statistic"]): r["usd_per_gpu_hour"]
        for r in df.iter_rows(named=True)
    }


def test_tugot17_keeps_the_last_snapshot_of_each_day(prices: pl.DataFrame) -> None:
    tugot = prices.filter(pl.col("source_id") == "gpu-tracker-tugot17")
    assert set(tugot["gpu"]) == {"h100-sxm"}
    assert set(tugot["provider"]) == {"primeintellect"}
    got = _values(tugot)
    day1, day2 = dt.date(2025, 10, 19), dt.date(2025, 10, 20)
    assert got[(day1, "marketplace", "median")] == 2.05  # 23:31, not 21:01
    assert got[(day2, "marketplace", "median")] == 2.10
    assert got[(day1, "marketplace", "p25")] == 1.99
    assert {s for _, _, s in got} == {"min", "p25", "median", "p75"}
    first = tugot.filter(pl.col("date") == day1)["source_locator"].unique().to_list()
    assert first == [
        f"gpu-prices-tugot17-primeintellect/2025-11-16_HEAD/data/summary/H100_80GB_SXM5.jsonl@{COMMIT_T[:12]}#line 2"
    ]


def test_vast_last_record_per_day_and_bid_is_spot(prices: pl.DataFrame) -> None:
    vast = prices.filter(pl.col("source_id") == "vast-market-sui414")
    assert set(vast["gpu"]) == {"h100-sxm"}  # the laptop part has no id
    got = _values(vast)
    day = dt.date(2026, 7, 20)
    assert got[(day, "on-demand", "median")] == 1.8  # 23:19 record
    assert got[(day, "on-demand", "p25")] == 1.5
    assert got[(day, "spot", "median")] == 1.2
    assert (dt.date(2026, 7, 21), "on-demand", "median") in got  # the plain .csv file is read too
    assert set(vast["provider"]) == {"vast.ai"}


def test_runpod_daily_secure_community_spot_and_display_name_form(prices: pl.DataFrame) -> None:
    daily = prices.filter((pl.col("source_id") == "runpod-sui414") & (pl.col("statistic") != "min"))
    h100 = daily.filter(pl.col("source_gpu_name") == "NVIDIA H100 80GB HBM3")
    assert set(h100["gpu"]) == {"h100-sxm"}
    assert _values(h100) == {
        (dt.date(2026, 7, 28), "on-demand", "secure-cloud"): 2.99,
        (dt.date(2026, 7, 28), "on-demand", "community-cloud"): 2.69,
        (dt.date(2026, 7, 28), "spot", "bid-floor"): 2.69,
    }
    b200 = daily.filter(pl.col("gpu") == "b200")
    assert sorted(b200["statistic"]) == [
        "community-cloud",
        "secure-cloud",
    ]  # no spot floor that day
    assert not any("MIG" in n for n in daily["source_gpu_name"])  # slices are not whole GPUs


def test_runpod_depth_keeps_only_single_gpu_prices(prices: pl.DataFrame) -> None:
    depth = prices.filter((pl.col("source_id") == "runpod-sui414") & (pl.col("statistic") == "min"))
    assert depth.select("gpu", "usd_per_gpu_hour", "gpus_per_instance").rows() == [
        ("h200", 2.29, 1)
    ]


def test_ornn_is_an_index_dated_by_its_timestamp(prices: pl.DataFrame) -> None:
    ornn = prices.filter(pl.col("source_id") == "ornn-gpu-index").sort("gpu")
    assert ornn.select("gpu", "date", "pricing", "usd_per_gpu_hour").rows() == [
        ("a100-sxm", dt.date(2026, 4, 20), "index", 1.07),
        ("h100-sxm", dt.date(2026, 4, 20), "index", 1.71),
    ]


def test_frame_has_schema_columns_and_unique_key(prices: pl.DataFrame) -> None:
    table = TABLES["gpu_hour_prices"]
    assert prices.columns == table.column_names
    assert not prices.select(table.primary_key).is_duplicated().any()


def test_bad_vast_rental_type_is_located(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "date=2026-07-20.csv",
        [VAST_HEADER, VAST_ROWS[0].replace("on-demand", "reserved")],
    )
    with pytest.raises(DataError) as err:
        gpu_markets.parse_vast(path)
    problem = err.value.problems[0]
    assert (problem.row, problem.column, problem.value) == (1, "rental_type", "reserved")


def test_bad_tugot_price_is_located(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "H100.jsonl",
        [_snapshot("2025-10-19T21:01:58+00:00", 1.99).replace("1.99", '"n/a"', 1)],
    )
    with pytest.raises(DataError) as err:
        gpu_markets.parse_tugot17(path)
    assert (err.value.problems[0].row, err.value.problems[0].column) == (1, "price_stats.p25")


def test_real_sources_cover_many_gpus_and_four_windows(sources_dir: Path) -> None:
    df = gpu_markets.build(sources_dir)["gpu_hour_prices"]
    by_source = {
        r["source_id"]: r
        for r in df.group_by("source_id")
        .agg(
            pl.len().alias("n"),
            pl.col("gpu").n_unique().alias("gpus"),
            pl.col("date").min().alias("first"),
            pl.col("date").max().alias("last"),
        )
        .iter_rows(named=True)
    }
    assert by_source["gpu-tracker-tugot17"]["gpus"] == 7
    assert by_source["gpu-tracker-tugot17"]["first"] == dt.date(2025, 10, 19)
    assert by_source["ornn-gpu-index"]["n"] == 546
    assert by_source["vast-market-sui414"]["gpus"] >= 80
    assert by_source["runpod-sui414"]["last"] == dt.date(2026, 8, 8)
    assert by_source["runpod-sui414"]["first"] == dt.date(2026, 1, 12)
    assert not df.select(TABLES["gpu_hour_prices"].primary_key).is_duplicated().any()
