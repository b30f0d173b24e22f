"""The summary page's estimates table on registry-shaped rows: three significant figures, a unit
column, no id, method or data version column, blanks where an estimate has no interval."""

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


def test_estimates_table_prints_three_significant_figures_and_units_not_ids():
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
    assert {"What it is", "Unit", "90% CI low", "90% CI high", "From", "To"} <= set(text)
    assert {"42.0", "4.40", "401", "0.123", "factor per year", "USD"} <= set(text)
    assert text.index("42.0") + 1 == text.index("factor per year")  # the unit follows the value
    hidden = {"Estimate", "a", "b", "OLS", "cost", "2026-11-30"}  # ids, methods, version
    assert hidden & set(text) == set()
    assert "None" not in text and "" in text  # no interval: blank cells
    assert {"fixed-capability", "tokens-per-dollar"} <= set(text)  # no titles: the file names
    titled = cells(fig.estimates_gt(frame, {"fixed-capability": "The cost of a capability"}))
    assert "The cost of a capability" in titled and "fixed-capability" not in titled
    assert "tokens-per-dollar" in titled  # a chapter the titles lack keeps its file name


def test_headline_chart_draws_the_labelled_factors_in_order_with_their_intervals():
    rows = [
        Estimate(
            10.0, "factor", estimate_id=k, description=k.upper(), unit=unit, low=5.0, high=20.0,
            n=3, method="OLS", chapter="c", data_version="v",
        )
        for k, unit in [("x", fig.FACTOR_UNIT), ("y", fig.FACTOR_UNIT), ("s", "share"), ("z", fig.FACTOR_UNIT)]
    ]  # fmt: skip
    frame = pl.DataFrame([r.as_row() for r in rows], schema=COLUMNS)
    spec = fig.headline_chart(frame, {"y": "Why", "x": "Ex", "s": "Share"}).to_dict()
    values = spec["datasets"][next(iter(spec["datasets"]))]
    assert [v["label"] for v in values] == ["Ex", "Why"]  # not the share, not the unlabelled z
    assert spec["layer"][0]["encoding"]["y"]["sort"] == ["Why", "Ex"]  # the labels' order
    assert spec["layer"][0]["encoding"]["x"]["scale"] == {"type": "log"}
    assert (values[0]["ci90_low"], values[0]["ci90_high"]) == (5.0, 20.0)
