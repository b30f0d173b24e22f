"""The data-versions appendix's tables: releases, changes per table and source, and vintages."""

from __future__ import annotations

import polars as pl
from great_tables import GT

from analysis.figures import theme


def releases_gt(releases: pl.DataFrame) -> GT:
    return GT(releases.with_columns(theme.reader_text("description"))).cols_label(
        version="Version", released="Released", description="What it is"
    )


def changes_gt(changes: pl.DataFrame) -> GT:
    """Rows added, changed and removed, one row per table and source."""
    return (
        GT(changes, groupname_col="table")
        .cols_label(source_id="Source", added="Added", changed="Changed", removed="Removed")
        .fmt_integer(["added", "changed", "removed"])
        .sub_missing(missing_text="")
    )


def vintages_gt(vintages: pl.DataFrame) -> GT:
    """Every headline estimate in each release, with the previous release's value."""
    return (
        GT(
            vintages.select(
                "estimate_id",
                "data_version",
                "value",
                "ci90_low",
                "ci90_high",
                "n",
                "previous_value",
                "change_ratio",
            ),
            groupname_col="estimate_id",
        )
        .cols_label(
            data_version="Release",
            value="Value",
            ci90_low="90% CI low",
            ci90_high="90% CI high",
            n="n",
            previous_value="Previous release",
            change_ratio="New / previous",
        )
        .fmt_number(
            ["value", "ci90_low", "ci90_high", "previous_value", "change_ratio"], n_sigfig=3
        )
        .sub_missing(missing_text="")
    )
