"""An estimate the data are too thin for is reported as not available, with the method's
reason, never a traceback (issue 21): the registry turns InsufficientData into an Estimate
without a value, which the estimates table holds as an empty value, and every quote of it (the
value, its interval, window, sample size) states that instead of failing the page."""

from __future__ import annotations

from datetime import date

import pytest

from analysis.methods.trends import InsufficientData
from analysis.report import estimates
from analysis.report.quote import NOT_AVAILABLE, Estimate

REASON = "hedonic index window needs a month with at least 3 observations"


def test_too_thin_data_is_not_available(monkeypatch):
    def thin(v: str):
        raise InsufficientData(REASON)

    monkeypatch.setitem(estimates.REGISTRY, "thin-test", thin)
    e = estimates.estimate("thin-test", "2026-12-01.3")
    assert e.value is None and e.data_version == "2026-12-01.3" and not e.available
    assert e.description == f"{NOT_AVAILABLE}: {REASON}"
    # The value says it, and why, in one clause; its parts read as not available.
    assert str(e) == f"{NOT_AVAILABLE} on data version 2026-12-01.3 ({REASON})"
    assert [x.text for x in (e.ci, e.window, e.start, e.end, e.n_text)] == [NOT_AVAILABLE] * 5
    assert e.statement.text == f"The estimate thin-test is {e.text}."
    row = e.as_row()
    assert row["value"] is None and row["estimate_id"] == "thin-test"


def test_an_available_estimate_is_quoted_as_before():
    e = Estimate(0.5, "number", estimate_id="x", low=0.4, high=0.6, n=12,
                 window_start=date(2024, 1, 1), window_end=date(2024, 6, 1))  # fmt: skip
    assert (e.text, e.ci.text, e.window.text, e.n_text.text) == (
        "0.500", "0.400 to 0.600", "January 2024 to June 2024", "12"
    )  # fmt: skip
    with pytest.raises(ValueError, match="has no interval"):
        Estimate(0.5, "number", estimate_id="x").ci  # noqa: B018 (a chapter's error, still raised)
