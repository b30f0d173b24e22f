"""What a data version cannot show, and the quotes of a page that leaves parts out."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import data
from analysis.report import left_out
from analysis.report.quote import PLACEHOLDER, Quote, QuoteNotFound, Quotes

# Release 2026-12-01 predates the tables of the autumn-2026 sources; 2026-12-01.2 has them.
OLD, NEW = "2026-12-01", "2026-12-01.2"
TOU = left_out.Needs("time-of-use rate cards", tables=("tou_windows",))
V6 = left_out.Needs(
    "MLPerf Inference v6.0 results",
    rows=("mlperf_results", lambda f: f.filter(pl.col("round") == "v6.0")),
)


def test_a_missing_table_is_named_with_the_first_release_that_has_it():
    why = left_out.reason(TOU, OLD)
    assert why.startswith(f"Data version {OLD} predates the table tou_windows")
    assert "(time-of-use rate cards)" in why
    assert f"render with BOOK_DATA_VERSION={NEW} or later" in why


def test_missing_rows_of_a_held_table_are_named_too():
    assert "mlperf_results" in data.tables(OLD)
    why = left_out.reason(V6, OLD)
    assert why.startswith(f"Data version {OLD} has no MLPerf Inference v6.0 results")
    assert f"BOOK_DATA_VERSION={NEW}" in why


def test_a_release_that_has_the_data_leaves_nothing_out():
    assert left_out.reason(TOU, NEW) is None
    assert left_out.reason(V6, NEW) is None
    assert left_out.reasons({"tou": TOU, "v6": V6}, NEW, {"both": ("tou", "v6")}) == {}


def test_nothing_later_has_it_so_no_release_is_suggested():
    never = left_out.Needs("a table no release has", tables=("no_such_table",))
    why = left_out.reason(never, NEW)
    assert why.endswith("so this section is left out.")
    assert "BOOK_DATA_VERSION" not in why


def test_a_part_built_on_a_left_out_part_is_left_out_for_its_reason():
    found = left_out.reasons({"v6": V6}, OLD, {"costs": ("v6",)})
    assert set(found) == {"v6", "costs"}
    assert found["costs"] == found["v6"]


def test_quotes_answer_uncomputed_names_with_the_placeholder_only_after_leave_out():
    q = Quotes("page", {"price": Quote(2.5, "usd")})
    with pytest.raises(QuoteNotFound, match="has no quote 'rate'"):
        _ = q.rate
    q.leave_out()
    assert q.price.text == "$2.50"  # computed quotes are unchanged
    assert q.rate.text == PLACEHOLDER
    assert q.rate.ci.text == q["trend"].window.text == PLACEHOLDER
