"""The digests' claims against the data: what the data say about each one, and the verdict rule.

A chapter that tests a claim returns an `Evidence` for it (the number computed from the data, in
the claim's unit, with its n and window, and the section that discusses it); the claims-ledger
appendix gathers them and decides each verdict with `verdict`, one rule for every claim:

- **cannot be tested with this data**: no evidence, or evidence marked not testable (its text
  says what data would settle the claim);
- **supported**: the evidence's value lies in the claimed value (or range) widened by
  `TOLERANCE` on each side. A claim that is a bound is supported when the data reach it: an
  "up to" or "below" claim (`<=`) by the least the data show (the value, or the interval's low
  end), a "can cost 9x more" claim (`>=`) by the most they show (the interval's high end);
- **partly supported**: not supported, but the evidence's interval (the spread of the rows or
  series behind the value, or a confidence interval) overlaps the widened claim, or the value
  is within a factor of `PARTLY_FACTOR` of the claim (of the nearer end of a range, or of the
  bound);
- **contradicted**: otherwise.

Digest numbers are rounded ("~60%", "roughly 13x"): 10% is the rounding such words allow; a
factor of 2 separates "the right order, wrong size" from "wrong".

`rule` gives the rule in words with its two numbers, for the page that states it; `ratio_to_claim`
how far the evidence sits from the claim; `ledger` the claims table with each claim's evidence and
verdict, one row per claim.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

import polars as pl

SUPPORTED = "supported"
PARTLY = "partly supported"
CONTRADICTED = "contradicted"
UNTESTABLE = "cannot be tested with this data"
VERDICTS = (SUPPORTED, PARTLY, CONTRADICTED, UNTESTABLE)

TOLERANCE = 0.10
PARTLY_FACTOR = 2.0

Bound = Literal["=", "<=", ">="]


# Claims whose words make them bounds, with the words that do: claim_id -> (bound, words).
# Every other claim is a value or a range ("=").
BOUNDS: dict[str, tuple[Bound, str]] = {
    "sub-cent-token-rates": ("<=", "below 1 cent"),
    "tpu-v7-perf-per-dollar": ("<=", "up to 50%"),
    "deepseek-revenue-before": ("<=", "<$500M"),
    "open-model-provider-spread": (">=", "can cost 9x more"),
    "deepseek-batch-routing-saving": (">=", "can reportedly halve bills"),
}


@dataclass(frozen=True)
class Evidence:
    """What the data say about one claim, in the claim's own unit."""

    claim_id: str
    value: float | None  # None when the data cannot give the number
    text: str  # one sentence: what was computed from what (or what data would settle it)
    section: str  # the page and section that discusses it: "chapters/price-war.qmd#sec-tou"
    low: float | None = None  # an interval, where the data give one (a CI, a range of rows)
    high: float | None = None
    n: int | None = None  # observations behind the number
    window: str = ""  # dates the number covers: "2026-09-01 to 2026-10-31"
    testable: bool = True


def claim_row(claims: pl.DataFrame, claim_id: str) -> dict:
    """One row of the claims table as a dict; raises naming the id if it is absent."""
    rows = claims.filter(pl.col("claim_id") == claim_id)
    if rows.height == 0:
        raise LookupError(f"claims table has no claim_id {claim_id!r}")
    return rows.row(0, named=True)


def claim_verdict(claim: dict, evidence: Evidence | None) -> str:
    """`verdict` of a claims-table row, under the bound its words make it (`BOUNDS`)."""
    bound = BOUNDS.get(claim["claim_id"], ("=", ""))[0]
    return verdict(claim["value"], claim["value_high"], evidence, bound)


def verdict(
    claimed: float, claimed_high: float | None, evidence: Evidence | None, bound: Bound = "="
) -> str:
    """The verdict of one claim (`claimed`..`claimed_high`, or a bound) on its evidence."""
    if evidence is None or not evidence.testable or evidence.value is None:
        return UNTESTABLE
    lo, hi = sorted((claimed, claimed if claimed_high is None else claimed_high))
    e_lo = evidence.value if evidence.low is None else min(evidence.low, evidence.value)
    e_hi = evidence.value if evidence.high is None else max(evidence.high, evidence.value)
    # A value claim is judged by the value; a bound by the end of the data nearest the bound.
    judged = evidence.value
    if bound == "<=":
        lo, judged = float("-inf"), e_lo
    elif bound == ">=":
        hi, judged = float("inf"), e_hi
    lo_tol, hi_tol = lo * (1 - TOLERANCE), hi * (1 + TOLERANCE)
    if lo_tol <= judged <= hi_tol:
        return SUPPORTED
    if e_lo <= hi_tol and e_hi >= lo_tol:
        return PARTLY
    nearest = lo if judged < lo else hi
    if nearest > 0 and judged > 0:
        ratio = judged / nearest
        if 1 / PARTLY_FACTOR <= ratio <= PARTLY_FACTOR:
            return PARTLY
    return CONTRADICTED


def rule(tolerance: float = TOLERANCE, factor: float = PARTLY_FACTOR) -> dict[str, str]:
    """The verdict rule in words, verdict -> its condition, with `tolerance` and `factor` written
    in (the words of this module's docstring, which `verdict` implements)."""
    pct, times = f"{tolerance:.0%}", f"{factor:g}"
    return {
        SUPPORTED: (
            f"the evidence's value lies in the claimed value or range widened by {pct} on each "
            "side; a claim that is a bound is supported when the data reach it, with "
            f"{pct} to spare: an \u201cup to\u201d or \u201cbelow\u201d claim by the least "
            "the data show, a \u201ccan cost 9x more\u201d claim by the most they show"
        ),
        PARTLY: (
            "not supported, but the spread of the rows behind the evidence (or its confidence "
            f"interval) overlaps the widened claim, or the value is within a factor of {times} "
            "of the claim (of the nearer end of a range, or of the bound)"
        ),
        CONTRADICTED: f"the evidence is more than a factor of {times} from the claim",
        UNTESTABLE: (
            "no chapter gives evidence, or the data cannot give the number; the evidence then "
            "says what data would settle the claim"
        ),
    }


def claim_reference(
    claimed: float, claimed_high: float | None, value: float | None, bound: Bound = "="
) -> float | None:
    """What the evidence's value is measured against: the nearer end of the claim (of a range,
    or the bound) when the value lies outside it, the value itself when inside; None without a
    positive value or reference."""
    if value is None or value <= 0:
        return None
    lo, hi = sorted((claimed, claimed if claimed_high is None else claimed_high))
    if bound == "<=":
        lo = float("-inf")
    elif bound == ">=":
        hi = float("inf")
    if lo <= value <= hi:
        return value
    nearest = lo if value < lo else hi
    return nearest if nearest > 0 else None


def ratio_to_claim(
    claimed: float, claimed_high: float | None, value: float | None, bound: Bound = "="
) -> float | None:
    """The evidence's value over the nearer end of the claim: 1 inside a claimed range or
    within a bound, None without a positive value to compare. 0.5 is half the claim."""
    ref = claim_reference(claimed, claimed_high, value, bound)
    return None if ref is None else value / ref


LEDGER_SCHEMA = {
    "claim_id": pl.String,
    "claim": pl.String,
    "digest_file": pl.String,
    "digest_date": pl.Date,
    "claim_date": pl.Date,
    "subject": pl.String,
    "claimed": pl.Float64,
    "claimed_high": pl.Float64,
    "unit": pl.String,
    "bound": pl.String,
    "verdict": pl.String,
    "evidence_value": pl.Float64,
    "evidence_low": pl.Float64,
    "evidence_high": pl.Float64,
    "evidence_n": pl.Int64,
    "evidence_window": pl.String,
    "evidence": pl.String,
    "section": pl.String,
    "ratio_to_claim": pl.Float64,
    "ratio_low": pl.Float64,  # the evidence's interval over the same reference
    "ratio_high": pl.Float64,
    "source_id": pl.String,
    "source_locator": pl.String,
}
NO_EVIDENCE = "No chapter gives evidence for this claim."


def ledger(
    claims: pl.DataFrame, evidence: Mapping[str, Evidence], bounds: Mapping[str, Bound]
) -> pl.DataFrame:
    """One row per claim of `claims` (the release's claims table, with the digest's date as
    `digest_date` where the caller has it), in its order: the claim, its
    evidence (from `evidence`, by claim_id; missing evidence leaves the evidence columns empty)
    and its verdict under the claim's bound (`bounds`, by claim_id; "=" where absent).

    Raises naming the claim ids when `evidence` or `bounds` name a claim the table lacks, or an
    Evidence is filed under another claim's id."""
    known = set(claims["claim_id"])
    for what, ids in (("evidence", evidence), ("bounds", bounds)):
        unknown = sorted(set(ids) - known)
        if unknown:
            raise KeyError(f"{what} for claims not in the claims table: {', '.join(unknown)}")
    for cid, e in evidence.items():
        if e.claim_id != cid:
            raise ValueError(f"evidence filed under {cid!r} is for claim {e.claim_id!r}")
    rows = []
    for c in claims.iter_rows(named=True):
        e, bound = evidence.get(c["claim_id"]), bounds.get(c["claim_id"], "=")
        tested = e is not None and e.testable
        ref = claim_reference(c["value"], c["value_high"], e.value, bound) if tested else None
        rows.append(
            {
                "claim_id": c["claim_id"],
                "claim": c["claim"],
                "digest_file": c["digest_file"],
                "digest_date": c.get("digest_date"),
                "claim_date": c["claim_date"],
                "subject": c["subject"],
                "claimed": c["value"],
                "claimed_high": c["value_high"],
                "unit": c["unit"],
                "bound": bound,
                "verdict": verdict(c["value"], c["value_high"], e, bound),
                "evidence_value": e.value if e else None,
                "evidence_low": e.low if e else None,
                "evidence_high": e.high if e else None,
                "evidence_n": e.n if e else None,
                "evidence_window": e.window if e else "",
                "evidence": e.text if e else NO_EVIDENCE,
                "section": e.section if e else "",
                "ratio_to_claim": None if ref is None else e.value / ref,
                "ratio_low": None if ref is None or e.low is None else e.low / ref,
                "ratio_high": None if ref is None or e.high is None else e.high / ref,
                "source_id": c["source_id"],
                "source_locator": c["source_locator"],
            }
        )
    return pl.DataFrame(rows, schema=LEDGER_SCHEMA)


def verdict_counts(ledger: pl.DataFrame) -> dict[str, int]:
    """Claims per verdict, every verdict listed (0 where none)."""
    return {v: ledger.filter(pl.col("verdict") == v).height for v in VERDICTS}
