"""Epoch AI hardware importer: cloud quotes carried over exactly, chip specs in table units."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import epoch_hardware
from analysis.data.schema import TABLES

PRICE_HEADER = [
    "Price source",
    "Price date",
    "Hardware model",
    "Manufacturer",
    "Vendor",
    "Location",
    "Price per chip-hour (on-demand)",
    "Price per chip-hour (1-year CUD)",
    "Price per chip-hour (3-year CUD)",
    "Price (hardware purchase)",
    "Notes",
    "Cloud GPU description",
    "Number of GPUs",
]
AWS_P4D = [
    "https://web.archive.org/web/2023/https://aws.amazon.com/ec2/instance-types/p4/",
    "2023-08-01",
    "NVIDIA A100 SXM4 40 GB",
    "NVIDIA",
    "Amazon Web Services",
    "US East (Northern Virginia)",
    "4.10",
    "2.40",
    "1.45",
    "",
    "$32.77 (On-demand, per hour, per 8 GPUs) / 8 = $4.1;\n$19.22 (1-year CUD) / 8 = $2.4",
    "",
    "8",
]
PRICE_ROWS = [
    [
        "https://www.nvidia.com",
        "2014-11-17",
        "NVIDIA Tesla K80",
        "NVIDIA",
        "",
        "",
        "",
        "",
        "",
        "5000.00",
        "Single-unit list price",
        "",
        "1",
    ],
    AWS_P4D,
    [
        "https://lambdalabs.com",
        "2023-03-01",
        "NVIDIA H100 PCIe",
        "NVIDIA",
        "Lambda Labs",
        "",
        "2.40",
        "",
        "",
        "",
        "",
        "H100 PCIe (80GB)",
        "",
    ],
    AWS_P4D,  # listed twice in the file
]

CHIP_HEADER = [
    "Hardware name",
    "Manufacturer",
    "Type",
    "Release date",
    "Release price (USD)",
    "FP32 (single precision) performance (FLOP/s)",
    "TF32 (TensorFloat-32) performance (FLOP/s)",
    "Tensor-FP16/BF16 performance (FLOP/s)",
    "FP8 performance (FLOP/s)",
    "INT8 performance (OP/s)",
    "Memory size per board (Byte)",
    "Memory bandwidth (byte/s)",
    "TDP (W)",
]
CHIP_ROWS = [
    [
        "NVIDIA H100 SXM5 80GB",
        "NVIDIA",
        "GPU",
        "2022-09-20",
        "$44489.88",
        "66910000000000",
        "494700000000000",
        "989400000000000",
        "",
        "1979000000000000",
        "80000000000",
        "3350000000000",
        "700.0",
    ],
    ["AMD A10-9700", "AMD", "CPU", "2016-07-27", "", "", "", "", "", "", "", "", "65"],
    [
        "NVIDIA Tesla V100 SXM2",
        "NVIDIA",
        "GPU",
        "2017-05-10",
        "",
        "15670000000000",
        "",
        "",
        "",
        "",
        "",
        "",
        "300",
    ],
    [
        "NVIDIA Tesla V100 SXM2 32 GB",
        "NVIDIA",
        "GPU",
        "2018-03-27",
        "$11458.00",
        "15670000000000",
        "",
        "125000000000000",
        "",
        "",
        "32000000000",
        "898000000000",
        "300.0",
    ],
]


def _write_csv(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)
    return path


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    data = tmp_path / "epoch-hardware-prices" / "2026-04-01_HEAD" / "data"
    _write_csv(data / "Hardware prices.csv", PRICE_HEADER, PRICE_ROWS)
    _write_csv(data / "Chip dataset-Grid view.csv", CHIP_HEADER, CHIP_ROWS)
    lines = ["file\trepo\tcommit\tcommit_date\tpath_in_repo\tbytes\tsha256"]
    for name in ("Hardware prices.csv", "Chip dataset-Grid view.csv"):
        rel = f"epoch-hardware-prices/2026-04-01_HEAD/data/{name}"
        lines.append(
            f"{rel}\tepoch-research/training-cost-trends\t263c40a159307e917213d1dc433c617e47d55bfe\t2026-04-01\tdata/{name}\t0\tx"
        )
    (tmp_path / "epoch-hardware-prices" / "_PROVENANCE.tsv").write_text("\n".join(lines) + "\n")
    return tmp_path


def test_each_price_column_present_gives_a_row_with_the_value_unchanged(sources: Path) -> None:
    prices = epoch_hardware.build(sources)["gpu_hour_prices"]
    aws = prices.filter(pl.col("provider") == "amazon-web-services").sort("pricing")
    assert aws["pricing"].to_list() == ["1-year", "3-year", "on-demand"]
    assert aws["usd_per_gpu_hour"].to_list() == [2.40, 1.45, 4.10]
    assert set(aws["gpu"]) == {"a100-40gb"}
    assert set(aws["gpus_per_instance"]) == {8}
    assert set(aws["region"]) == {"US East (Northern Virginia)"}
    assert set(aws["date"]) == {dt.date(2023, 8, 1)}
    assert set(aws["statistic"]) == {"quote"}
    assert set(aws["source_locator"]) == {
        "epoch-hardware-prices/2026-04-01_HEAD/data/Hardware prices.csv@263c40a15930#row 2"
    }


def test_purchase_rows_and_verbatim_repeats_are_left_out(sources: Path) -> None:
    prices = epoch_hardware.build(sources)["gpu_hour_prices"]
    assert "k80" not in prices["gpu"].to_list()
    assert prices.height == 3 + 1  # AWS once (3 terms) + Lambda on-demand
    lambda_row = prices.filter(pl.col("provider") == "lambda-labs").row(0, named=True)
    assert (lambda_row["gpu"], lambda_row["gpus_per_instance"], lambda_row["region"]) == (
        "h100-pcie",
        None,
        None,
    )


def test_frames_have_the_schema_columns(sources: Path) -> None:
    out = epoch_hardware.build(sources)
    for table, df in out.items():
        assert df.columns == TABLES[table].column_names


def test_chip_specs_are_converted_to_table_units(sources: Path) -> None:
    specs = epoch_hardware.build(sources)["gpu_specs"]
    h100 = specs.filter(pl.col("gpu") == "h100-sxm").row(0, named=True)
    assert h100["fp16_tflop_per_s"] == pytest.approx(989.4)
    assert h100["tf32_tflop_per_s"] == pytest.approx(494.7)
    assert h100["int8_tops"] == pytest.approx(1979.0)
    assert h100["memory_gb"] == pytest.approx(80.0)
    assert h100["memory_bandwidth_tb_per_s"] == pytest.approx(3.35)
    assert h100["release_price_usd"] == pytest.approx(44489.88)
    assert h100["fp8_tflop_per_s"] is None
    assert h100["release_date"] == dt.date(2022, 9, 20)


def test_cpus_are_skipped_and_the_most_complete_duplicate_kept(sources: Path) -> None:
    specs = epoch_hardware.build(sources)["gpu_specs"]
    assert specs["gpu"].to_list() == ["h100-sxm", "v100"]
    v100 = specs.filter(pl.col("gpu") == "v100").row(0, named=True)
    assert v100["name"] == "NVIDIA Tesla V100 SXM2 32 GB"
    assert v100["source_locator"].endswith("#row 4")


def test_a_bad_price_is_reported_with_file_row_column_and_value(tmp_path: Path) -> None:
    bad = [*PRICE_ROWS[:2], [*PRICE_ROWS[2][:6], "2,40 USD", *PRICE_ROWS[2][7:]]]
    path = _write_csv(tmp_path / "Hardware prices.csv", PRICE_HEADER, bad)
    with pytest.raises(DataError) as err:
        epoch_hardware.parse_hardware_prices(path)
    problem = err.value.problems[0]
    assert (problem.row, problem.column, problem.value) == (
        3,
        "Price per chip-hour (on-demand)",
        "2,40 USD",
    )


def test_a_missing_column_is_reported(tmp_path: Path) -> None:
    path = _write_csv(
        tmp_path / "Hardware prices.csv", PRICE_HEADER[:-1], [r[:-1] for r in PRICE_ROWS]
    )
    with pytest.raises(DataError, match="Number of GPUs"):
        epoch_hardware.parse_hardware_prices(path)


def test_real_file_covers_2017_to_2025_with_three_terms(sources_dir: Path) -> None:
    out = epoch_hardware.build(sources_dir)
    prices = out["gpu_hour_prices"]
    assert prices.filter(pl.col("pricing") == "on-demand").height >= 450
    assert set(prices["pricing"]) == {"on-demand", "1-year", "3-year"}
    assert prices["date"].min() == dt.date(2017, 2, 10)
    assert prices["date"].max() == dt.date(2025, 3, 17)
    assert {"a100-80gb-sxm", "h100-sxm", "v100", "t4", "k80", "tpu-v3"} <= set(prices["gpu"])
    specs = out["gpu_specs"]
    b200 = specs.filter(pl.col("gpu") == "b200").row(0, named=True)
    assert b200["memory_bandwidth_tb_per_s"] == pytest.approx(8.0)
    assert {"h100-sxm", "h200", "mi300x", "tpu-v5e", "a100-80gb-sxm"} <= set(specs["gpu"])
