"""The digests' claims against the data: what the data say about each one, and the verdict rule.

A chapter that tests a claim returns an `Evidence` for it (the number computed from the data, in
the claim's unit, with its n and window, and the section that discusses it); the claims-ledger
appendix gathers them and decides each verdict with `verdict`, one rule for every claim:

- **cannot be tested with this data**: no evidence, or evidence marked not testable (its text
  says what data would settle the claim);
- **supported**: the claimed value (or range), widened by `TOLERANCE` on each side, overlaps the
  evidence (its interval where it has one, else its value). A claim that is a bound ("up to 50%",
  "below 1 cent") is supported when the evidence is within the bound;
- **partly supported**: not supported, but the evidence is within a factor of `PARTLY` of the
  claim (of the nearer end of a range, or of the bound);
- **contradicted**: otherwise.

Digest numbers are rounded ("~60%", "roughly 13x"): 10% is the rounding such words allow; a
factor of 2 separates "the right order, wrong size" from "wrong".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

SUPPORTED = "supported"
PARTLY = "partly supported"
CONTRADICTED = "contradicted"
UNTESTABLE = "cannot be tested with this data"
VERDICTS = (SUPPORTED, PARTLY, CONTRADICTED, UNTESTABLE)

TOLERANCE = 0.10
PARTLY_FACTOR = 2.0

Bound = Literal["=", "<=", ">="]


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


def verdict(
    claimed: float, claimed_high: float | None, evidence: Evidence | None, bound: Bound = "="
) -> str:
    """The verdict of one claim (`claimed`..`claimed_high`, or a bound) on its evidence."""
    if evidence is None or not evidence.testable or evidence.value is None:
        return UNTESTABLE
    lo, hi = sorted((claimed, claimed if claimed_high is None else claimed_high))
    e_lo = evidence.value if evidence.low is None else evidence.low
    e_hi = evidence.value if evidence.high is None else evidence.high
    if bound == "<=":
        lo = float("-inf")
    elif bound == ">=":
        hi = float("inf")
    if e_lo <= hi * (1 + TOLERANCE) and e_hi >= lo * (1 - TOLERANCE):
        return SUPPORTED
    nearest = lo if evidence.value < lo else hi
    if nearest > 0 and evidence.value > 0:
        ratio = evidence.value / nearest
        if 1 / PARTLY_FACTOR <= ratio <= PARTLY_FACTOR:
            return PARTLY
    return CONTRADICTED
