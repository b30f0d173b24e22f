"""Epoch AI hardware data: cloud GPU-hour quotes and accelerator specifications.

Where and when: `epoch-research/training-cost-trends`, folder `data/`, commit 263c40a1 of
2026-04-01 (the price file last changed 2025-06-20). Two files are read:

- `Hardware prices.csv` -> `gpu_hour_prices`. Every row with a cloud chip-hour price gives one row
  per price column present: on-demand, 1-year CUD (`1-year`), 3-year CUD (`3-year`); statistic
  "quote", date = `Price date`, provider = slug of `Vendor`, region = `Location`,
  gpus_per_instance = `Number of GPUs`. Values are carried over exactly. The columns are headed
  "Price per chip-hour"; where a row's Notes show arithmetic (e.g. "$98,32/8 = 12,29 US$",
  "$32.77 (On-demand, per hour, per 8 GPUs) / 8 = $4.1") Epoch has already divided the instance
  price by the GPU count, and no row's Notes or description says its value is per instance, so
  nothing is divided here. `source_gpu_name` is Epoch's `Hardware model`, even where the
  `Cloud GPU description` names another GPU (a few Azure/GCP rows say "Tesla P4" but "P100 (16 GB)").
- `Chip dataset-Grid view.csv` -> `gpu_specs`, for chips with a canonical id (see
  `analysis.data.gpus`) that are not CPUs. Units converted: FLOP/s and OP/s / 1e12 -> TFLOP/s and TOP/s;
  memory bytes / 1e9 -> GB (decimal, as the file gives 80000000000 for an 80 GB H100); bandwidth
  byte/s / 1e12 -> TB/s; release price "$1599.00" -> 1599.0. FP16 is the
  `Tensor-FP16/BF16 performance` column (Epoch's values are dense, e.g. 989.4 TFLOP/s for the
  H100 SXM5); the plain `FP16 (half precision)` column mixes vector and tensor rates and is left
  out. Where several chip rows map to one id (V100 SXM2 16 GB / 32 GB, ...), the row with the most
  spec values is kept (then the first in the file); `name` says which.

Left out, and why:
- Rows repeated verbatim in the price file (same values in every column) are kept once.
- Purchase prices (`Price (hardware purchase)`): not per hour, so not gpu_hour_prices; and they are
  dated quotes (some DGX system prices divided by GPU count, some estimates for TPUs), not the
  release prices that `gpu_specs.release_price_usd` holds, so they are not in gpu_specs either.
- `PCU518210518210.csv` (FRED PPI for data processing and hosting) and `All ML Systems` are not
  part of any table yet.

Note for the primary key: the file often lists several quotes for one GPU, vendor and date
(instance sizes: `p3.2xlarge`, `p3.8xlarge`; or unnamed configurations at Cudo Compute). Every quote
is kept; only `source_locator` (the file row) tells them apart.
"""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.gpus import canonical_gpu
from analysis.data.importers.common import frame, iso_date, locator, number, slug

FOLDER = "epoch-hardware-prices"
SOURCE_ID = "epoch-hardware"

SOURCES = [
    {
        "source_id": SOURCE_ID,
        "title": "Epoch AI hardware prices and ML hardware (chip) dataset, training-cost-trends snapshot",
        "publisher": "Epoch AI",
        "url": "https://github.com/epoch-research/training-cost-trends",
        "licence": "none stated",
        "retrieved": "2026-04-01",
        "notes": "List prices per chip-hour (on-demand, 1- and 3-year commitments), USD, "
        "2017-02 to 2025-03, irregular dates, no fixed panel. Several quotes per GPU, vendor and "
        "date where instance sizes differ. Chip specs are Epoch's (dense FLOP/s).",
    }
]

PRICE_COLUMNS = {
    "Price per chip-hour (on-demand)": "on-demand",
    "Price per chip-hour (1-year CUD)": "1-year",
    "Price per chip-hour (3-year CUD)": "3-year",
}
PRICE_FILE_COLUMNS = ["Price date", "Hardware model", "Vendor", "Location", "Number of GPUs"]

# gpu_specs column -> (chip dataset column, divisor to the table's unit)
SPEC_COLUMNS = {
    "fp32_tflop_per_s": ("FP32 (single precision) performance (FLOP/s)", 1e12),
    "tf32_tflop_per_s": ("TF32 (TensorFloat-32) performance (FLOP/s)", 1e12),
    "fp16_tflop_per_s": ("Tensor-FP16/BF16 performance (FLOP/s)", 1e12),
    "fp8_tflop_per_s": ("FP8 performance (FLOP/s)", 1e12),
    "int8_tops": ("INT8 performance (OP/s)", 1e12),
    "memory_gb": ("Memory size per board (Byte)", 1e9),
    "memory_bandwidth_tb_per_s": ("Memory bandwidth (byte/s)", 1e12),
    "tdp_w": ("TDP (W)", 1.0),
}
CHIP_FILE_COLUMNS = ["Hardware name", "Manufacturer", "Type", "Release date", "Release price (USD)"]


def _read(path: Path, needed: list[str]) -> pl.DataFrame:
    df = pl.read_csv(path, infer_schema=False, encoding="utf8-lossy")
    missing = [c for c in needed if c not in df.columns]
    if missing:
        raise fail(path, None, missing[0], None, "column missing from the header")
    return df


def _gpu_count(path: Path, row: int, value: str | None) -> int | None:
    if value is None or value.strip() == "":
        return None
    if not re.fullmatch(r"\d+", value.strip()) or int(value) < 1:
        raise fail(path, row, "Number of GPUs", value, "must be a whole number >= 1")
    return int(value)


def parse_hardware_prices(path: Path) -> list[dict]:
    """Cloud quotes of `Hardware prices.csv`: one dict per row and price column present.

    Keys: the gpu_hour_prices columns minus `source_locator`, plus `row` (1-based data row).
    Rows whose hardware model has no canonical id are skipped (none in the 2026-04-01 file).
    """
    df = _read(path, PRICE_FILE_COLUMNS + list(PRICE_COLUMNS))
    seen: set[tuple] = set()
    out: list[dict] = []
    for i, rec in enumerate(df.iter_rows(named=True), start=1):
        prices = {
            pricing: number(path, i, col, rec[col], strip="$,", minimum=0)
            for col, pricing in PRICE_COLUMNS.items()
        }
        if all(v is None for v in prices.values()):
            continue  # a purchase-price row
        fingerprint = tuple(rec.values())
        if fingerprint in seen:
            continue  # the same record listed twice
        seen.add(fingerprint)
        name = (rec["Hardware model"] or "").strip()
        gpu = canonical_gpu(name)
        if gpu is None:
            continue
        when = iso_date(path, i, "Price date", rec["Price date"])
        if when is None:
            raise fail(path, i, "Price date", rec["Price date"], "a cloud quote needs a date")
        vendor = (rec["Vendor"] or "").strip()
        if not vendor:
            raise fail(path, i, "Vendor", rec["Vendor"], "a cloud quote needs a vendor")
        for pricing, value in prices.items():
            if value is None:
                continue
            out.append(
                {
                    "gpu": gpu,
                    "source_gpu_name": name,
                    "provider": slug(vendor),
                    "date": when,
                    "pricing": pricing,
                    "usd_per_gpu_hour": value,
                    "statistic": "quote",
                    "region": (rec["Location"] or "").strip() or None,
                    "gpus_per_instance": _gpu_count(path, i, rec["Number of GPUs"]),
                    "source_id": SOURCE_ID,
                    "row": i,
                }
            )
    return out


def _spec_row(path: Path, i: int, rec: dict) -> dict:
    out = {
        "name": rec["Hardware name"].strip(),
        "manufacturer": (rec["Manufacturer"] or "").strip() or None,
        "release_date": iso_date(path, i, "Release date", rec["Release date"]),
        "release_price_usd": number(
            path, i, "Release price (USD)", rec["Release price (USD)"], strip="$,", minimum=0
        ),
    }
    for column, (source_column, divisor) in SPEC_COLUMNS.items():
        value = number(path, i, source_column, rec[source_column], strip="$,", minimum=0)
        out[column] = None if value is None else value / divisor
    return out


def parse_chip_dataset(path: Path) -> list[dict]:
    """Specs of every non-CPU chip with a canonical id, one dict per id (see module docstring).

    Keys: the gpu_specs columns minus `source_id`/`source_locator`, plus `row`.
    """
    df = _read(path, CHIP_FILE_COLUMNS + [c for c, _ in SPEC_COLUMNS.values()])
    best: dict[str, dict] = {}
    for i, rec in enumerate(df.iter_rows(named=True), start=1):
        name = (rec["Hardware name"] or "").strip()
        if (rec["Type"] or "").strip() == "CPU":
            continue
        gpu = canonical_gpu(name)
        if gpu is None:
            continue
        spec = {"gpu": gpu, **_spec_row(path, i, rec), "row": i}
        filled = sum(spec[c] is not None for c in SPEC_COLUMNS)
        if gpu not in best or filled > best[gpu]["_filled"]:
            best[gpu] = {**spec, "_filled": filled}
    return [{k: v for k, v in s.items() if k != "_filled"} for s in best.values()]


def _located(sources_dir: Path, path: Path, rec: dict) -> dict:
    """The record with its `row` turned into a `source_locator`."""
    out = {k: v for k, v in rec.items() if k != "row"}
    out["source_locator"] = locator(sources_dir, path, f"row {rec['row']}")
    return out


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    heads = sorted((sources_dir / FOLDER).glob("*_HEAD"))
    if not heads:
        raise fail(sources_dir / FOLDER, None, None, None, "no <date>_HEAD snapshot folder")
    data = heads[-1] / "data"
    prices_path = data / "Hardware prices.csv"
    chips_path = data / "Chip dataset-Grid view.csv"
    prices = [_located(sources_dir, prices_path, r) for r in parse_hardware_prices(prices_path)]
    specs = [
        _located(sources_dir, chips_path, {**s, "source_id": SOURCE_ID})
        for s in parse_chip_dataset(chips_path)
    ]
    price_key = ["gpu", "provider", "date", "pricing", "statistic", "source_locator"]
    return {
        "gpu_hour_prices": frame("gpu_hour_prices", prices).sort(price_key, nulls_last=True),
        "gpu_specs": frame("gpu_specs", specs).sort("gpu"),
    }
