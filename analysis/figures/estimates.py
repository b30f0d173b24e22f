"""The table of headline estimates on the summary page (`analysis.report.estimates.headline`)."""

from __future__ import annotations

import polars as pl
from great_tables import GT

NUMBERS = ["value", "ci90_low", "ci90_high"]


def estimates_gt(headline: pl.DataFrame) -> GT:
    """Every headline estimate with its 90% interval, n, window, method and chapter; the data
    version and unit columns are left out (the page states the version)."""
    return (
        GT(headline)
        .cols_hide(["data_version", "unit"])
        .fmt_number(NUMBERS, n_sigfig=3)
        .sub_missing(missing_text="")
        .cols_label(
            estimate_id="Estimate",
            description="What it is",
            value="Value",
            ci90_low="90% CI low",
            ci90_high="90% CI high",
            n="n",
            window_start="From",
            window_end="To",
            method="Method",
            chapter="Chapter",
        )
    )
