"""The frames of analysis.methods.coverage (the data chapter's sources table and coverage charts),
on small hand-made tables."""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from analysis.methods import coverage


def test_monthly_coverage_counts_rows_per_month_and_source():
    df = pl.DataFrame(
        {
            "date": [date(2025, 1, 3), date(2025, 1, 30), date(2025, 2, 1), None],
            "source_id": ["a", "a", "b", "a"],
        }
    )
    cov = coverage.monthly_coverage(df)
    assert cov.rows() == [(date(2025, 1, 1), "a", 2), (date(2025, 2, 1), "b", 1)]


def test_source_rows_and_spans_on_hand_made_tables():
    sources = pl.DataFrame(
        {
            "source_id": ["s1", "s2", "s3"],
            "title": ["One", "Two", "Three"],
            "licence": ["MIT"] * 3,
            "retrieved": [date(2026, 1, 1)] * 3,
        }
    )
    prices = pl.DataFrame(
        {"source_id": ["s1", "s1", "s2"], "date": [date(2024, 5, 1), date(2023, 1, 9), None]}
    )
    scores = pl.DataFrame({"source_id": ["s1"]})
    out = coverage.source_rows(sources, {"token_prices": prices, "benchmark_scores": scores})
    assert out.select("source_id", "tables", "rows").rows() == [
        ("s1", "benchmark_scores, token_prices", 3),
        ("s2", "token_prices", 1),
        ("s3", None, None),
    ]
    assert coverage.source_span(prices, "s1") == (date(2023, 1, 9), date(2024, 5, 1))
    with pytest.raises(LookupError, match="s9"):
        coverage.source_span(prices, "s9")
