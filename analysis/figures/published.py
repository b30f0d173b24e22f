"""The published-figures appendix's tables."""

from __future__ import annotations

import polars as pl
from great_tables import GT


def published_gt(table: pl.DataFrame) -> GT:
    """Each published figure, its published and reproduced values and the command."""
    shown = table.select(
        "figure", "publication", "stated", "reproduced", "difference", "within_rounding", "command"
    ).with_columns(
        pl.col("within_rounding").replace_strict(
            {True: "yes", False: "no"}, default="not tested", return_dtype=pl.String
        )
    )
    return (
        GT(shown)
        .cols_label(
            figure="Figure",
            publication="Published in",
            stated="Published",
            reproduced="Reproduced",
            difference="Difference",
            within_rounding="Within its rounding",
            command="Command",
        )
        .fmt_number(["reproduced", "difference"], n_sigfig=3)
        .sub_missing(missing_text="")
    )


def decomposition_gt(steps: pl.DataFrame) -> GT:
    """From the paper's factor to the book's, one row per step."""
    cols = [
        c
        for c in (
            "step",
            "change",
            "n",
            "start_date",
            "end_date",
            "factor_per_year",
            "ci90_low",
            "ci90_high",
            "ratio_to_previous",
        )
        if c in steps.columns
    ]
    gt = GT(steps.select(cols)).cols_label(
        step="Step",
        change="Change",
        **{
            k: v
            for k, v in {
                "n": "n",
                "start_date": "From",
                "end_date": "To",
                "factor_per_year": "Factor / year",
                "ci90_low": "90% CI low",
                "ci90_high": "90% CI high",
                "ratio_to_previous": "x previous",
            }.items()
            if k in cols
        },
    )
    numbers = [
        c for c in ("factor_per_year", "ci90_low", "ci90_high", "ratio_to_previous") if c in cols
    ]
    return gt.fmt_number(numbers, n_sigfig=3).sub_missing(missing_text="") if numbers else gt
