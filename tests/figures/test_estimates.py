"""The summary page's estimates table on registry-shaped rows: three significant figures, no
data version or unit column, blanks where an estimate has no interval."""

from __future__ import annotations

import re
from datetime import date

import polars as pl

from analysis.figures import estimates as fig
from analysis.report.estimates import COLUMNS
from analysis.report.quote import Estimate


def cells(gt) -> list[str]:
    html = gt.as_raw_html()
    found = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", html, re.S)
    return [re.sub(r"<[^>]+>", "", c).strip() for c in found]


def test_estimates_table_prints_three_significant_figures_and_hides_version_and_unit():
    rows = [
        Estimate(
            42.04, "factor", estimate_id="a", description="A", unit="factor per year",
            low=4.4012, high=401.3, n=6, window_start=date(2023, 3, 1),
            window_end=date(2024, 12, 1), method="OLS", chapter="fixed-capability",
            data_version="2026-11-30",
        ),
        Estimate(
            0.1234, "usd", estimate_id="b", description="B", unit="USD",
            method="cost", chapter="tokens-per-dollar", data_version="2026-11-30",
        ),
    ]  # fmt: skip
    frame = pl.DataFrame([r.as_row() for r in rows], schema=COLUMNS)
    text = cells(fig.estimates_gt(frame))
    assert {"Estimate", "What it is", "90% CI low", "90% CI high", "From", "To"} <= set(text)
    assert {"42.0", "4.40", "401", "0.123"} <= set(text)
    assert "2026-11-30" not in text and "factor per year" not in text  # hidden columns
    assert "None" not in text and "" in text  # no interval: blank cells
