"""The published-figures appendix: counts of the table, and the decomposition said in words."""

from __future__ import annotations

import polars as pl

from analysis.chapters import published as chapter


def test_decomposition_sentence_names_both_ends_and_the_largest_step():
    steps = pl.DataFrame(
        {
            "step": [0, 1, 2],
            "change": ["paper reproduced", "price variable", "frontier rule"],
            "factor_per_year": [9.026, 9.35, 27.17],
            "ratio_to_previous": [None, 1.036, 2.906],
        }
    )
    text = chapter.decomposition_sentence(steps)
    assert "9.03x per year" in text and "27.2x" in text
    assert "\u201cfrontier rule\u201d, which multiplies the factor by 2.91" in text
    empty = pl.DataFrame(schema={"step": pl.Int64, "change": pl.String})
    assert "raw sources" in chapter.decomposition_sentence(empty)


def test_counts_add_up_to_every_published_figure():
    c = chapter.compute()
    q = c.q
    assert q.n_within.value + q.n_outside.value + q.n_untested.value == q.n_figures.value
    assert q.n_figures.value == c.table.height
