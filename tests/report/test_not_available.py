"""An estimate the data are too thin for is reported as not available, with the method's
reason, never a traceback (issue 21): the registry turns InsufficientData into an Estimate
without a value, which the estimates table holds as an empty value."""

from __future__ import annotations

from analysis.methods.trends import InsufficientData
from analysis.report import estimates
from analysis.report.quote import NOT_AVAILABLE


def test_too_thin_data_is_not_available(monkeypatch):
    def thin(v: str):
        raise InsufficientData("hedonic index window needs a month with at least 3 observations")

    monkeypatch.setitem(estimates.REGISTRY, "thin-test", thin)
    e = estimates.estimate("thin-test", "2026-12-01.3")
    assert e.value is None and e.data_version == "2026-12-01.3"
    assert (
        e.description
        == f"{NOT_AVAILABLE}: hedonic index window needs a month with at least 3 observations"
    )
    assert str(e) == NOT_AVAILABLE
    row = e.as_row()
    assert row["value"] is None and row["estimate_id"] == "thin-test"
