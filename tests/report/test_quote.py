"""The quote layer: one house format per kind of quantity, escaped Markdown, located misses."""

from __future__ import annotations

from datetime import date

import pytest

from analysis.report.quote import Estimate, Quote, QuoteNotFound, Quotes, escape_markdown


@pytest.mark.parametrize(
    ("value", "kind", "shown"),
    [
        # factors: three significant figures, whole numbers with separators from 1,000
        (4.398155, "factor", "4.40x"),
        (42.018998, "factor", "42.0x"),
        (401.44, "factor", "401x"),
        (11146.2, "factor", "11,146x"),
        (1.0644, "factor", "1.06x"),
        # a source's own factor, digits as the source gives them
        (40.0, "stated_factor", "40x"),
        (13.0, "stated_factor", "13x"),
        (2.5, "stated_factor", "2.5x"),
        # dollars: cents from $1, whole dollars from $100, two significant figures below $1
        (0.4812, "usd", "$0.48"),
        (0.06, "usd", "$0.060"),
        (0.0085, "usd", "$0.0085"),
        (2.85, "usd", "$2.85"),
        (155.3, "usd", "$155"),
        (12500, "usd", "$12,500"),
        # shares and counts
        (0.2137, "share", "21%"),
        (0.004, "share", "0.4%"),
        (8063, "count", "8,063"),
        (0.06, "percent", "6%"),
        (0.98765, "number", "0.988"),
        (7.31, "number", "7.31"),
        (56.0, "score", "56"),
        (35.7, "score", "35.7"),
        (0.0030, "p_value", "0.003"),
        (0.0000025, "p_value", "0.0000025"),
        (date(2023, 3, 14), "month", "March 2023"),
        (date(2023, 3, 4), "day", "March 4, 2023"),
        (date(2023, 8, 1), "quarter", "2023 Q3"),
        ("", "text", "not available"),  # Quarto would leave an empty inline value as code
    ],
)
def test_house_format_of_each_kind(value, kind, shown):
    assert Quote(value, kind).text == shown


def test_an_interval_shows_both_ends_in_the_format_of_its_kind():
    assert Quote((4.398155, 401.44), "factor").text == "4.40x to 401x"
    assert Quote((date(2023, 11, 1), date(2024, 12, 1)), "month").text == (
        "November 2023 to December 2024"
    )


def test_unknown_kind_is_refused_naming_it():
    with pytest.raises(ValueError, match="unknown quote kind 'factr'"):
        Quote(1.0, "factr")


def test_estimate_quotes_its_interval_n_and_window():
    e = Estimate(
        42.019,
        "factor",
        estimate_id="x",
        low=4.398,
        high=401.44,
        n=6,
        window_start=date(2023, 3, 14),
        window_end=date(2024, 12, 13),
    )
    assert (e.text, e.ci.text, e.n_text.text) == ("42.0x", "4.40x to 401x", "6")
    assert e.window.text == "March 2023 to December 2024"
    assert e.as_row()["ci90_low"] == 4.398


def test_markdown_from_the_data_is_escaped():
    name = 'gpt-<script>alert("x")</script> *bold* $5 @fig-x'
    shown = Quote(name)._repr_markdown_()
    assert "<script>" not in shown and "\\<script\\>" in shown
    assert "\\*bold\\*" in shown and "\\$5" in shown and "\\@fig-x" in shown
    # Every escape is a backslash before the character itself: removing them gives the text back.
    assert escape_markdown(name).replace("\\", "") == name.replace("\\", "")


def test_a_missing_quote_names_the_chapter_the_name_and_the_closest():
    q = Quotes("fixed-capability", {"gpqa_factor": Quote(42.0, "factor")})
    assert str(q.gpqa_factor) == "42.0x"
    with pytest.raises(
        QuoteNotFound, match=r"'fixed-capability' has no quote 'gpqa_factr'.*gpqa_factor"
    ):
        _ = q.gpqa_factr


def test_quotes_refuse_unformatted_values_and_duplicates():
    q = Quotes("data")
    with pytest.raises(TypeError, match="quote 'n_rows' must be a Quote"):
        q["n_rows"] = "8,063"
    q["n_rows"] = Quote(8063, "count")
    with pytest.raises(ValueError, match="'n_rows' is defined twice"):
        q["n_rows"] = Quote(1, "count")
