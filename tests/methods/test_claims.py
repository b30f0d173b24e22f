"""The verdict rule, on hand-made evidence whose verdict follows from the rule's words, and the
ledger built from a hand-made claims table."""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from analysis.methods.claims import (
    CLAIM_TYPES,
    CONTRADICTED,
    NO_EVIDENCE,
    PARTLY,
    SUPPORTED,
    TYPE_RULES,
    UNIT_TOLERANCES,
    UNTESTABLE,
    VERDICTS,
    Evidence,
    ledger,
    ratio_to_claim,
    rule,
    rule_table,
    tolerance_for,
    verdict,
    verdict_counts,
)


def ev(value, low=None, high=None, testable=True) -> Evidence:
    return Evidence("c", value, "hand-made", "chapters/x.qmd", low, high, testable=testable)


@pytest.mark.parametrize(
    ("claimed", "high", "evidence", "kind", "tol", "expected"),
    [
        (13, None, ev(12.0), "point", 0.10, SUPPORTED),  # 12 >= 11.7 = 13 * 0.9
        (13, None, ev(11.5), "point", 0.10, PARTLY),  # below 11.7, above 10.4 = 13 * 0.8
        (13, None, ev(10.0), "point", 0.10, CONTRADICTED),  # below 10.4
        # 13x/yr at its unit's 15%: supported 11.05..14.95, partly 9.1..16.9.
        (13, None, ev(24.9), "point", 0.15, CONTRADICTED),
        (13, None, ev(9.0), "point", 0.15, CONTRADICTED),  # 9 < 9.1: must not pass
        (13, None, ev(45.9, low=9.0, high=84.0), "point", 0.15, CONTRADICTED),  # a spread: no
        (
            13,
            None,
            Evidence("c", 24.9, "t", "s", 12.0, 40.0, interval="ci90"),
            "point",
            0.15,
            PARTLY,  # its 90% CI reaches 14.95
        ),
        (9, None, ev(2.0, low=2.0, high=13.1), "upper bound", 0.10, SUPPORTED),  # one does
        (9, None, ev(2.0, low=2.0, high=7.5), "upper bound", 0.10, PARTLY),  # 7.5 >= 7.2 = 9*0.8
        (9, None, ev(2.0, low=2.0, high=7.0), "upper bound", 0.10, CONTRADICTED),
        (0.01, None, ev(0.03, low=0.004, high=0.05), "ceiling", 0.10, SUPPORTED),  # the least
        (0.01, None, ev(0.0115), "ceiling", 0.10, PARTLY),  # 1.15 cents: within 1.2
        (0.01, None, ev(0.015), "ceiling", 0.10, CONTRADICTED),
        (0.01, None, ev(0.01), "ceiling", 0.10, PARTLY),  # 1 cent is not below 1 cent
        (2.85, 3.50, ev(3.2), "band", 0.10, SUPPORTED),  # inside the band
        (2.85, 3.50, ev(2.0), "band", 0.10, CONTRADICTED),  # 2.0 < 2.28 = 2.85 * 0.8
        # "raised 2.3-4.5x": both ends must match. 2.175 alone read as a point would pass.
        (2.3, 4.5, ev(2.175), "point", 0.10, SUPPORTED),
        (2.3, 4.5, ev(2.175, low=1.5, high=4.5), "span", 0.10, PARTLY),  # 1.5 < 2.07
        (2.3, 4.5, ev(3.0, low=2.2, high=4.4), "span", 0.10, SUPPORTED),
        (2.3, 4.5, ev(1.2, low=1.1, high=1.3), "span", 0.10, CONTRADICTED),  # no overlap
        (1, None, ev(1.0), "rank", 0.0, SUPPORTED),
        (1, None, ev(2.0), "rank", 0.0, CONTRADICTED),
        (2, None, ev(-0.5), "direction", 0.0, CONTRADICTED),
        (2, None, ev(None, testable=False), "point", 0.10, UNTESTABLE),
        (2, None, None, "point", 0.10, UNTESTABLE),
    ],
)
def test_verdict_rule(claimed, high, evidence, kind, tol, expected):
    assert verdict(claimed, high, evidence, kind, tol) == expected


def test_every_unit_of_the_digest_claims_has_a_tolerance_and_every_type_a_rule():
    from analysis.data.importers.digests import CLAIMS

    for c in CLAIMS:
        tol, reason = tolerance_for(c.unit)
        assert 0 <= tol < 0.5 and reason, c.claim_id
    assert tolerance_for("factor per year")[0] == 0.15  # not the 10% of "factor"
    assert tolerance_for("rank (first)")[0] == 0.0
    with pytest.raises(LookupError, match="unit 'furlongs' has no tolerance"):
        tolerance_for("furlongs")
    for kind, _words in CLAIM_TYPES.values():
        assert kind in TYPE_RULES
    tables = rule_table()
    assert tables["types"]["claim_type"].to_list() == list(TYPE_RULES)
    assert tables["tolerances"].height == len(UNIT_TOLERANCES)


# ---------------------------------------------------------------- the rule in words, the ledger


def test_the_rule_in_words_carries_its_numbers():
    words = rule(tolerance=0.25, band=3)
    assert list(words) == list(VERDICTS)
    assert "25%" in words[SUPPORTED]
    assert "within 3 times the tolerance" in words[PARTLY]
    assert "than 3 times its tolerance" in words[CONTRADICTED]


@pytest.mark.parametrize(
    ("claimed", "high", "value", "kind", "expected"),
    [
        (13, None, 26.0, "point", 2.0),  # twice the claim
        (13, None, 6.5, "point", 0.5),
        (2.85, 3.50, 3.0, "band", 1.0),  # inside the band
        (2.85, 3.50, 7.0, "band", 2.0),  # over the upper end: 7 / 3.5
        (2.85, 3.50, 1.425, "band", 0.5),  # under the lower end: 1.425 / 2.85
        (0.01, None, 0.004, "ceiling", 1.0),  # within "below 1 cent"
        (0.01, None, 0.03, "ceiling", 3.0),
        (50, None, 80.0, "upper bound", 1.0),  # reaches 50
        (13, None, None, "point", None),
        (13, None, 0.0, "point", None),
    ],
)
def test_ratio_to_claim(claimed, high, value, kind, expected):
    got = ratio_to_claim(claimed, high, value, kind)
    assert got == (None if expected is None else pytest.approx(expected))


def _claims() -> pl.DataFrame:
    rows = [
        ("a", "roughly 13x", 13.0, None, "factor"),
        ("b", "$2.85-3.50", 2.85, 3.5, "USD per GPU-hour"),
        ("c", "below 1 cent", 0.01, None, "USD per 1M tokens (upper bound)"),
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
    evidence = {"a": _ev("a", 5.0), "b": _ev("b", 3.0, 2.9, 3.1), "c": _ev("c", 0.0115)}
    out = ledger(_claims(), evidence, {"c": "ceiling"})
    assert out["claim_id"].to_list() == ["a", "b", "c", "d"]
    # a: 5 is far below 13 * 0.8; b: inside the band; c: 1.15 cents over a 1-cent ceiling,
    # within its 20% partly band; d: no evidence.
    assert out["verdict"].to_list() == [CONTRADICTED, SUPPORTED, PARTLY, UNTESTABLE]
    assert out["claim_type"].to_list() == ["point", "band", "ceiling", "point"]
    assert out["tolerance"].to_list() == [0.10, 0.10, 0.10, 0.10]
    assert out["rule_applied"][2].startswith("ceiling: the least the data show")
    assert out["ratio_to_claim"].to_list()[:3] == pytest.approx([5 / 13, 1.0, 1.15])
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


def test_ledger_rejects_evidence_and_types_for_unknown_claims_and_misfiled_evidence():
    with pytest.raises(KeyError, match="evidence for claims not in the claims table: zz"):
        ledger(_claims(), {"zz": _ev("zz", 1.0)}, {})
    with pytest.raises(KeyError, match="types for claims not in the claims table: yy"):
        ledger(_claims(), {}, {"yy": "ceiling"})
    with pytest.raises(ValueError, match="evidence filed under 'a' is for claim 'b'"):
        ledger(_claims(), {"a": _ev("b", 1.0)}, {})


def test_docs_results_prints_the_rule_the_code_applies():
    from analysis.data.paths import ROOT
    from analysis.methods.claims import rule_markdown

    text = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    block = text.split("<!-- verdict-rule -->\n", 1)[1].split("<!-- /verdict-rule -->", 1)[0]
    assert block.strip() == rule_markdown().strip()
