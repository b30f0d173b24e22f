"""The verdict rule, on hand-made evidence whose verdict follows from the rule's words."""

from __future__ import annotations

import pytest

from analysis.methods.claims import (
    CONTRADICTED,
    PARTLY,
    SUPPORTED,
    UNTESTABLE,
    Evidence,
    verdict,
)


def ev(value, low=None, high=None, testable=True) -> Evidence:
    return Evidence("c", value, "hand-made", "chapters/x.qmd", low, high, testable=testable)


@pytest.mark.parametrize(
    ("claimed", "high", "evidence", "bound", "expected"),
    [
        (13, None, ev(12.0), "=", SUPPORTED),  # within 10% of "roughly 13x"
        (13, None, ev(11.5), "=", PARTLY),  # 11.5 < 11.7 = 13 * 0.9, but within 2x
        (13, None, ev(5.0), "=", CONTRADICTED),  # 13 / 5 = 2.6 > 2
        (13, None, ev(9.0, low=6.0, high=14.0), "=", SUPPORTED),  # the interval holds 13
        (2.85, 3.50, ev(3.2), "=", SUPPORTED),  # inside a claimed range
        (2.85, 3.50, ev(2.0), "=", PARTLY),  # below the range, 2.85 / 2.0 < 2
        (0.01, None, ev(0.004), "<=", SUPPORTED),  # "below 1 cent": 0.4 cent is below
        (0.01, None, ev(0.015), "<=", PARTLY),  # 1.5 cents: over the bound, within 2x
        (50, None, ev(80.0), "<=", PARTLY),  # "up to 50%": 80% exceeds it by 1.6x
        (2, None, ev(None, testable=False), "=", UNTESTABLE),
        (2, None, None, "=", UNTESTABLE),
    ],
)
def test_verdict_rule(claimed, high, evidence, bound, expected):
    assert verdict(claimed, high, evidence, bound) == expected
