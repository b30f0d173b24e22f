"""FRED exchange rates and CPI-U, as republished by datasets/exchange-rates and datasets/cpi-us."""

from __future__ import annotations

import hashlib
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import fred

FX = """Date,Country,Exchange rate
2026-05-01,Australia,0.6512
2026-05-01,China,6.8021
2026-06-01,China,6.7758
2026-06-01,Euro,1.0834
2026-06-01,Japan,160.7700
"""
CPI = """Date,Index,Inflation
2026-04-01,333.02,0.85
2026-05-01,335.123,0.63
"""


def write_sources(root: Path, fx: str = FX, cpi: str = CPI) -> Path:
    files = {
        "fx-usd-exchange-rates/2026-07-21_HEAD/data/monthly.csv": fx,
        "cpi-us/2026-07-01_HEAD/data/cpiai.csv": cpi,
    }
    for folder in ("fx-usd-exchange-rates", "cpi-us"):
        rows = ["file\trepo\tcommit\tcommit_date\tpath_in_repo\tbytes\tsha256"]
        for rel, text in files.items():
            if rel.startswith(folder):
                path = root / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                digest = hashlib.sha256(text.encode()).hexdigest()
                rows.append(
                    f"{rel}\tdatasets/{folder}\t{'a' * 40}\t2026-07-01\tdata/x.csv\t{len(text)}\t{digest}"
                )
        (root / folder / "_PROVENANCE.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return root


def test_keeps_only_currencies_quoted_per_usd(tmp_path):
    out = fred.build(write_sources(tmp_path))
    fx = out["fx_rates"]
    assert fx.select("currency", "month", "per_usd").rows() == [
        ("CNY", date(2026, 5, 1), 6.8021),
        ("CNY", date(2026, 6, 1), 6.7758),
        ("JPY", date(2026, 6, 1), 160.77),
    ]
    # AUD and EUR are quoted as USD per unit by FRED: left out rather than inverted.
    assert (
        fx["source_locator"][0]
        == "fx-usd-exchange-rates/2026-07-21_HEAD/data/monthly.csv@aaaaaaaaaaaa#row 2"
    )


def test_cpi_index_is_carried_and_the_derived_inflation_left_out(tmp_path):
    cpi = fred.build(write_sources(tmp_path))["cpi"]
    assert cpi.columns == ["month", "cpi_u", "source_id", "source_locator"]
    assert cpi["cpi_u"].to_list() == [333.02, 335.123]
    assert cpi["source_id"].unique().to_list() == [fred.CPI_SOURCE]


@pytest.mark.parametrize(
    ("fx", "row", "column", "value"),
    [
        ("Date,Country,Exchange rate\n2026-05-01,China,abc\n", 1, "Exchange rate", "abc"),
        ("Date,Country,Exchange rate\n2026-05-01,China,-7\n", 1, "Exchange rate", "-7"),
        ("Date,Country,Exchange rate\n2026-05-15,China,7\n", 1, "Date", "2026-05-15"),
    ],
)
def test_bad_rows_are_located(tmp_path, fx, row, column, value):
    with pytest.raises(DataError) as err:
        fred.build(write_sources(tmp_path, fx=fx))
    problem = err.value.problems[0]
    assert (problem.row, problem.column, problem.value) == (row, column, value)
    assert problem.file.endswith("monthly.csv")


def test_missing_column_is_named(tmp_path):
    with pytest.raises(DataError, match="column 'Index'"):
        fred.build(write_sources(tmp_path, cpi="Date,Value\n2026-05-01,1\n"))


def test_real_sources(sources_dir):
    out = fred.build(sources_dir)
    cny = out["fx_rates"].filter(pl.col("currency") == "CNY")
    assert cny["month"].min() <= date(2020, 1, 1) and cny["month"].max() >= date(2026, 6, 1)
    assert out["cpi"].filter(pl.col("month") == date(2026, 5, 1))["cpi_u"][0] == 335.123
