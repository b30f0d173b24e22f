"""Exchange rates and consumer prices, both FRED series as republished by datasets/*.

- `fx-usd-exchange-rates/<date>_HEAD/data/monthly.csv` (github.com/datasets/exchange-rates,
  PDDL-1.0, commit of 2026-07-21): monthly averages from FRED, columns `Date, Country,
  Exchange rate`. Kept: China (CNY) and Japan (JPY), which FRED quotes as units per USD, the
  convention of `fx_rates.per_usd`. Left out: the other countries (no prices in their
  currencies yet) and the series FRED quotes as USD per unit (EUR, GBP, AUD, NZD, IEP), which
  would need inverting; add them when a price in those currencies arrives.
- `cpi-us/<date>_HEAD/data/cpiai.csv` (github.com/datasets/cpi-us, PDDL-1.0, commit of
  2026-07-01): CPI-U all items, U.S. city average, 1982-84 = 100, monthly 1913-01 .. 2026-05.
  The `Inflation` column is derived by the republisher and is left out.
"""

from __future__ import annotations

import csv
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.importers.common import frame, locator

FX_SOURCE = "fred-fx-datasets"
CPI_SOURCE = "fred-cpi-datasets"
SOURCES = [
    {
        "source_id": FX_SOURCE,
        "title": "Exchange rates (monthly), from FRED, Federal Reserve Bank of St. Louis",
        "publisher": "datasets/exchange-rates (Frictionless Data core datasets)",
        "url": "https://github.com/datasets/exchange-rates",
        "licence": "PDDL-1.0",
        "retrieved": "2026-07-21",
        "notes": "China is quoted in CNY per USD; AUD, EUR, IEP, NZD and GBP in USD per unit.",
    },
    {
        "source_id": CPI_SOURCE,
        "title": "CPI-U all items, U.S. city average (CPIAUCNS), from the U.S. Bureau of Labor Statistics",
        "publisher": "datasets/cpi-us (Frictionless Data core datasets)",
        "url": "https://github.com/datasets/cpi-us",
        "licence": "PDDL-1.0",
        "retrieved": "2026-07-01",
        "notes": "1982-84 = 100, not seasonally adjusted.",
    },
]

# FRED country name -> ISO currency, only for series quoted as units of currency per USD.
PER_USD_COUNTRIES = {"China": "CNY", "Japan": "JPY"}


def _positive_number(path: Path, row: int, column: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise fail(path, row, column, text, "must be a number") from None
    if value <= 0:
        raise fail(path, row, column, text, "must be positive")
    return value


def _month(path: Path, row: int, column: str, text: str) -> str:
    if len(text) != 10 or not text.endswith("-01"):
        raise fail(path, row, column, text, "must be the first day of a month, YYYY-MM-01")
    return text


def read_fx_monthly(path: Path) -> list[dict]:
    """Rows of FRED monthly exchange rates, for the per-USD currencies we keep."""
    out = []
    with Path(path).open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        for col in ("Date", "Country", "Exchange rate"):
            if col not in (reader.fieldnames or []):
                raise fail(path, None, col, None, "required column is missing")
        for i, r in enumerate(reader, start=1):
            currency = PER_USD_COUNTRIES.get(r["Country"])
            if currency is None or not r["Exchange rate"]:
                continue
            out.append(
                {
                    "currency": currency,
                    "month": _month(path, i, "Date", r["Date"]),
                    "per_usd": _positive_number(path, i, "Exchange rate", r["Exchange rate"]),
                    "row": i,
                }
            )
    return out


def read_cpi(path: Path) -> list[dict]:
    out = []
    with Path(path).open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        for col in ("Date", "Index"):
            if col not in (reader.fieldnames or []):
                raise fail(path, None, col, None, "required column is missing")
        for i, r in enumerate(reader, start=1):
            out.append(
                {
                    "month": _month(path, i, "Date", r["Date"]),
                    "cpi_u": _positive_number(path, i, "Index", r["Index"]),
                    "row": i,
                }
            )
    return out


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    fx_path = next((sources_dir / "fx-usd-exchange-rates").glob("*_HEAD/data/monthly.csv"))
    cpi_path = next((sources_dir / "cpi-us").glob("*_HEAD/data/cpiai.csv"))
    fx = [
        {
            **r,
            "source_id": FX_SOURCE,
            "source_locator": locator(sources_dir, fx_path, f"row {r['row']}"),
        }
        for r in read_fx_monthly(fx_path)
    ]
    cpi = [
        {
            **r,
            "source_id": CPI_SOURCE,
            "source_locator": locator(sources_dir, cpi_path, f"row {r['row']}"),
        }
        for r in read_cpi(cpi_path)
    ]
    return {
        "fx_rates": frame("fx_rates", fx).drop("row").sort("currency", "month"),
        "cpi": frame("cpi", cpi).drop("row").sort("month"),
    }
