"""The verdict rule, on hand-made evidence whose verdict follows from the rule's words, and the
ledger built from a hand-made claims table."""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from analysis.methods.claims import (
    CONTRADICTED,
    NO_EVIDENCE,
    PARTLY,
    SUPPORTED,
    UNTESTABLE,
    VERDICTS,
    Evidence,
    ledger,
    ratio_to_claim,
    rule,
    verdict,
    verdict_counts,
)


def ev(value, low=None, high=None, testable=True) -> Evidence:
    return Evidence("c", value, "hand-made", "chapters/x.qmd", low, high, testable=testable)


@pytest.mark.parametrize(
    ("claimed", "high", "evidence", "bound", "expected"),
    [
        (13, None, ev(12.0), "=", SUPPORTED),  # within 10% of "roughly 13x"
        (13, None, ev(11.5), "=", PARTLY),  # 11.5 < 11.7 = 13 * 0.9, but within 2x
        (13, None, ev(5.0), "=", CONTRADICTED),  # 13 / 5 = 2.6 > 2
        (13, None, ev(9.0, low=6.0, high=14.0), "=", PARTLY),  # 9 is off, its spread holds 13
        (13, None, ev(40.0, low=9.0, high=80.0), "=", PARTLY),  # 3x off, but the spread holds 13
        (13, None, ev(40.0, low=20.0, high=80.0), "=", CONTRADICTED),  # 20 > 14.3 = 13 * 1.1
        (9, None, ev(2.0, low=2.0, high=13.1), ">=", SUPPORTED),  # "can cost 9x": one does
        (9, None, ev(2.0, low=2.0, high=7.0), ">=", PARTLY),  # the most is 7x, within 2x
        (0.01, None, ev(0.03, low=0.004, high=0.05), "<=", SUPPORTED),  # the least is below
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


# ---------------------------------------------------------------- the rule in words, the ledger


def test_the_rule_in_words_carries_its_two_numbers():
    words = rule(tolerance=0.25, factor=3.0)
    assert list(words) == list(VERDICTS)
    assert "25% on each side" in words[SUPPORTED]
    assert "factor of 3" in words[PARTLY] and "factor of 3" in words[CONTRADICTED]


@pytest.mark.parametrize(
    ("claimed", "high", "value", "bound", "expected"),
    [
        (13, None, 26.0, "=", 2.0),  # twice the claim
        (13, None, 6.5, "=", 0.5),
        (2.85, 3.50, 3.0, "=", 1.0),  # inside the range
        (2.85, 3.50, 7.0, "=", 2.0),  # over the upper end: 7 / 3.5
        (2.85, 3.50, 1.425, "=", 0.5),  # under the lower end: 1.425 / 2.85
        (0.01, None, 0.004, "<=", 1.0),  # within "below 1 cent"
        (0.01, None, 0.03, "<=", 3.0),
        (50, None, 80.0, ">=", 1.0),  # at least 50
        (13, None, None, "=", None),
        (13, None, 0.0, "=", None),
    ],
)
def test_ratio_to_claim(claimed, high, value, bound, expected):
    got = ratio_to_claim(claimed, high, value, bound)
    assert got == (None if expected is None else pytest.approx(expected))


def _claims() -> pl.DataFrame:
    rows = [
        ("a", "roughly 13x", 13.0, None, "factor"),
        ("b", "$2.85-3.50", 2.85, 3.5, "USD"),
        ("c", "below 1 cent", 0.01, None, "USD (upper bound)"),
        ("d", "a rumour", 7.5, None, "billion USD"),
    ]
    frame = pl.DataFrame(
        rows, schema=["claim_id", "claim", "value", "value_high", "unit"], orient="row"
    )
    return frame.with_columns(
        subject=pl.lit("s"),
        claim_date=pl.lit(date(2026, 9, 27)),
        digest_file=pl.lit("000.txt"),
        source_id=pl.lit("digest"),
        source_locator=pl.lit("line 1"),
    )


def _ev(cid, value, low=None, high=None, testable=True) -> Evidence:
    return Evidence(
        cid, value, f"hand-made {cid}", "chapters/x.qmd#sec-x", low, high, 4, "w", testable
    )


def test_ledger_has_one_row_per_claim_with_its_verdict():
    evidence = {"a": _ev("a", 5.0), "b": _ev("b", 3.0, 2.9, 3.1), "c": _ev("c", 0.015)}
    out = ledger(_claims(), evidence, {"c": "<="})
    assert out["claim_id"].to_list() == ["a", "b", "c", "d"]
    # a: 13 / 5 = 2.6 > 2; b: inside the range; c: 1.5 cents over a 1-cent bound, within 2x;
    # d: no evidence.
    assert out["verdict"].to_list() == [CONTRADICTED, SUPPORTED, PARTLY, UNTESTABLE]
    assert out["bound"].to_list() == ["=", "=", "<=", "="]
    assert out["ratio_to_claim"].to_list()[:3] == pytest.approx([5 / 13, 1.0, 1.5])
    d = out.row(3, named=True)
    assert (d["evidence"], d["section"], d["ratio_to_claim"]) == (NO_EVIDENCE, "", None)
    b = out.row(1, named=True)
    assert b["evidence_low"] == 2.9
    # b's value 3.0 lies inside the claim: its interval is measured against the value itself.
    assert (b["ratio_low"], b["ratio_high"]) == pytest.approx((2.9 / 3.0, 3.1 / 3.0))
    assert out.row(0, named=True)["ratio_low"] is None  # a has no interval
    assert verdict_counts(out) == {SUPPORTED: 1, PARTLY: 1, CONTRADICTED: 1, UNTESTABLE: 1}


def test_untestable_evidence_has_no_ratio():
    out = ledger(_claims(), {"d": _ev("d", None, testable=False)}, {})
    assert out.filter(pl.col("claim_id") == "d")["ratio_to_claim"].to_list() == [None]
    assert out.filter(pl.col("claim_id") == "d")["evidence"].to_list() == ["hand-made d"]


def test_ledger_rejects_evidence_and_bounds_for_unknown_claims_and_misfiled_evidence():
    with pytest.raises(KeyError, match="evidence for claims not in the claims table: zz"):
        ledger(_claims(), {"zz": _ev("zz", 1.0)}, {})
    with pytest.raises(KeyError, match="bounds for claims not in the claims table: yy"):
        ledger(_claims(), {}, {"yy": "<="})
    with pytest.raises(ValueError, match="evidence filed under 'a' is for claim 'b'"):
        ledger(_claims(), {"a": _ev("b", 1.0)}, {})
