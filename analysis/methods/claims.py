"""The digests' claims against the data: what the data say about each one, and the verdict rule.

A chapter that tests a claim returns an `Evidence` for it (the number computed from the data, in
the claim's unit, with its n and window, the section that discusses it, and why the comparison is
like-for-like); the claims-ledger appendix gathers them and decides each verdict with `verdict`,
one function for every claim. The rule depends on two things written down here:

- the claim's **type** (`CLAIM_TYPES`, by the claim's own words; else a point, or a band when the
  claim states two numbers): what the evidence must show, and which end of it is judged
  (`TYPE_RULES`);
- the **tolerance** of its unit (`UNIT_TOLERANCES`, with the reason for each number): how far
  the judged number may sit from the claim and still support it. Twice the tolerance is the
  partly-supported band; beyond it a claim is contradicted. A confidence interval (never the
  spread of the rows) that reaches the supported band also makes a claim partly supported.

"cannot be tested with this data" is the verdict without evidence, or with evidence marked not
testable (its text then says what data would settle the claim).

`rule_table` is the rule as a table (claim type, what counts as like-for-like, the unit
tolerances with their reasons), which the appendix and docs/results.md print; `ledger` the
claims table with each claim's evidence, type, tolerance and verdict, one row per claim.
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

TOLERANCE = 0.10  # the tolerance of prices and multiples, the commonest units (UNIT_TOLERANCES)
PARTLY_BAND = 2  # partly supported: within this many tolerances of the claim

ClaimType = Literal[
    "point", "band", "span", "upper bound", "lower bound", "ceiling", "rank", "direction"
]
Interval = Literal["ci90", "spread"]

# What each claim type asserts and which number of the evidence is judged against it.
TYPE_RULES: dict[str, tuple[str, str]] = {
    "point": ("one value (\u201croughly 13x\u201d, \u201c$4\u201d)", "the evidence's value"),
    "band": (
        "the value lies between two numbers (\u201cstabilized at $2.85\u20133.50\u201d)",
        "the evidence's value, against the nearer end of the band",
    ),
    "span": (
        "the cases run from one number to another (\u201craised 2.3\u20134.5x\u201d)",
        "both ends of the evidence's cases, each against its end of the claim",
    ),
    "upper bound": (
        "the most favourable case reaches the number (\u201cup to\u201d, \u201ccan\u201d)",
        "the most the data show (the evidence's high end); supported only as a bound: the "
        "evidence text gives the typical case",
    ),
    "lower bound": (
        "every case is at least the number (\u201cat least\u201d, \u201cmore than\u201d)",
        "the least the data show (the evidence's low end)",
    ),
    "ceiling": (
        "some case (or the value) is below the number (\u201cbelow\u201d, \u201cunder\u201d, "
        "\u201c<\u201d, \u201cwithin\u201d)",
        "the least the data show (the evidence's low end), strictly below the number: the "
        "words set the threshold, so no tolerance widens it; within twice the tolerance above "
        "it is partly supported",
    ),
    "rank": (
        "an order (\u201cthe first\u201d)",
        "the rank the data give: supported when equal, else contradicted",
    ),
    "direction": (
        "only a sign (\u201craised\u201d, \u201ccut\u201d)",
        "the sign of the change the data show: supported when it agrees, else contradicted",
    ),
}

# The claims whose words make them other than a point (or, with two numbers, a band):
# claim_id -> (type, the words of the claim that make it so).
CLAIM_TYPES: dict[str, tuple[ClaimType, str]] = {
    "sub-cent-token-rates": ("ceiling", "below 1 cent"),
    "deepseek-revenue-before": ("ceiling", "<$500M"),
    "tpu-v7-perf-per-dollar": ("upper bound", "up to 50%"),
    "open-model-provider-spread": ("upper bound", "can cost 9x more"),
    "deepseek-batch-routing-saving": ("upper bound", "can reportedly halve bills"),
    "deepseek-api-price-rise": ("span", "raised 2.3\u20134.5x"),
    "cisco-first-multivendor-mlperf": ("rank", "first"),
    "anthropic-openai-cuts-hours-apart": ("ceiling", "within hours"),
}

# Tolerance per unit: (words the claims table's unit starts with or contains, tolerance, reason).
# The first row whose words the unit contains applies.
UNIT_TOLERANCES: list[tuple[str, float, str]] = [
    (
        "factor per year",
        0.15,
        "a yearly decline is a fitted trend: \u201croughly 13x\u201d is two significant figures, "
        "and a trend's factor moves by about this much with its window; 15% keeps 13x apart "
        "from 9x and from 25x",
    ),
    (
        "rank",
        0.0,
        "an order is exact: the second is not the first",
    ),
    (
        "days apart",
        0.0,
        "\u201cwithin hours\u201d means the same day: one day apart already breaks it",
    ),
    (
        "GPUs",
        0.0,
        "a count of accelerators is stated exactly; another count is another system",
    ),
    (
        "parameters",
        0.0,
        "a model's parameter count is stated exactly; another count is another model",
    ),
    (
        "windows per day",
        0.0,
        "a count of daily windows is exact",
    ),
    (
        "percent",
        0.10,
        "digest percentages are rounded to 5 or 10 points (\u201c~60%\u201d, \u201c64\u201375%\u201d); "
        "10% of the value is that rounding at 50\u201375%",
    ),
    (
        "per 1M",
        0.10,
        "digest prices are written to one or two significant figures (\u201c~$0.40\u201d, "
        "\u201cabout \u00a50.13\u201d); 10% is one rounding step of such a number",
    ),
    (
        "per GPU-hour",
        0.10,
        "GPU-hour prices are quoted to the cent of a rounded level; 10% is that rounding",
    ),
    (
        "USD",
        0.10,
        "company figures are rounded (\u201c~$1B\u201d); 10% is the rounding",
    ),
    (
        "ratio",
        0.10,
        "a multiple written \u201c3.6x\u201d or \u201c9x\u201d is rounded to two figures; 10% is that "
        "rounding",
    ),
    (
        "factor",
        0.10,
        "a multiple written \u201cdoubles\u201d or \u201c2.3x\u201d is rounded; 10% is that rounding",
    ),
]

# What counts as like-for-like, whatever the claim: the evidence's own `like_for_like` says how it
# meets these.
LIKE_FOR_LIKE = [
    "the same comparison the claim makes: a gain over previous generations is measured across "
    "hardware generations, a cut against the price it replaced, a spread between providers of "
    "one model",
    "the same price kind: standard (list) rates, not cached-input, promotional, batch or "
    "off-peak rates, unless the claim names one of those",
    "the same quantity the book reports: where the book has a headline estimate of it (the "
    "estimate registry), the evidence is that estimate, so the ledger and the chapter cannot "
    "disagree",
    "direct observations (price listings, marketplaces) before restated reconstructions",
    "the fact itself, not the claim's arithmetic: a conversion of a price the data cannot find "
    "cannot be tested",
]


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
    like_for_like: str = ""  # why the comparison is like-for-like (standard rates, same ...)
    interval: Interval = "spread"  # what low..high is: a 90% confidence interval, or the rows'
    estimate_id: str = ""  # the book's estimate this evidence is, where it is one


def untestable(
    claim_ids: list[str], claims: pl.DataFrame, text: str, section: str
) -> dict[str, Evidence]:
    """The same untestable Evidence (`text` says why) for each of `claim_ids` that the claims
    table holds: what a chapter gives when its data version lacks the data for them."""
    held = set(claims["claim_id"])
    return {
        cid: Evidence(cid, None, text, section, testable=False) for cid in claim_ids if cid in held
    }


def claim_row(claims: pl.DataFrame, claim_id: str) -> dict:
    """One row of the claims table as a dict; raises naming the id if it is absent."""
    rows = claims.filter(pl.col("claim_id") == claim_id)
    if rows.height == 0:
        raise LookupError(f"claims table has no claim_id {claim_id!r}")
    return rows.row(0, named=True)


def claim_type(claim_id: str, claimed_high: float | None) -> ClaimType:
    """The claim's type: `CLAIM_TYPES` by its words, else a band with two numbers, else a
    point."""
    if claim_id in CLAIM_TYPES:
        return CLAIM_TYPES[claim_id][0]
    return "band" if claimed_high is not None else "point"


def tolerance_for(unit: str) -> tuple[float, str]:
    """(tolerance, reason) of a claims-table unit (`UNIT_TOLERANCES`); raises naming the unit
    when no row covers it."""
    for words, tol, reason in UNIT_TOLERANCES:
        if words in unit:
            return tol, reason
    raise LookupError(f"claims table: unit {unit!r} has no tolerance in UNIT_TOLERANCES")


def claim_verdict(claim: dict, evidence: Evidence | None) -> str:
    """`verdict` of a claims-table row, under its type and its unit's tolerance."""
    kind = claim_type(claim["claim_id"], claim["value_high"])
    return verdict(
        claim["value"], claim["value_high"], evidence, kind, tolerance_for(claim["unit"])[0]
    )


def _ends(evidence: Evidence) -> tuple[float, float]:
    """The evidence's low and high ends (its value where it has no interval)."""
    v = evidence.value
    lo = v if evidence.low is None else min(evidence.low, v)
    hi = v if evidence.high is None else max(evidence.high, v)
    return lo, hi


def judged(evidence: Evidence, kind: ClaimType) -> float:
    """The number of the evidence a claim of type `kind` is judged by (`TYPE_RULES`)."""
    lo, hi = _ends(evidence)
    if kind == "upper bound":
        return hi
    if kind in ("lower bound", "ceiling"):
        return lo
    return evidence.value


def _within(x: float, lo: float, hi: float, tol: float) -> bool:
    """x lies in [lo, hi] widened by the share `tol` on each side."""
    return lo * (1 - tol) <= x <= hi * (1 + tol)


def verdict(
    claimed: float,
    claimed_high: float | None,
    evidence: Evidence | None,
    kind: ClaimType = "point",
    tolerance: float = TOLERANCE,
) -> str:
    """The verdict of one claim (`claimed`, or `claimed`..`claimed_high`) of type `kind` on its
    evidence, with the claim's unit's `tolerance` (`tolerance_for`)."""
    if evidence is None or not evidence.testable or evidence.value is None:
        return UNTESTABLE
    lo, hi = sorted((claimed, claimed if claimed_high is None else claimed_high))
    e_lo, e_hi = _ends(evidence)
    x = judged(evidence, kind)
    if kind == "rank":
        return SUPPORTED if x == claimed else CONTRADICTED
    if kind == "direction":
        return SUPPORTED if x * claimed > 0 else CONTRADICTED
    if kind == "span":
        # Both ends of the cases must sit at their ends of the claim.
        if _within(e_lo, lo, lo, tolerance) and _within(e_hi, hi, hi, tolerance):
            return SUPPORTED
        return (
            PARTLY
            if e_lo <= hi * (1 + tolerance) and e_hi >= lo * (1 - tolerance)
            else CONTRADICTED
        )
    if kind in ("upper bound", "lower bound"):
        lo_ok, hi_ok = lo, float("inf")  # the judged end reaches the number (or goes past it)
    elif kind == "ceiling":
        lo_ok, hi_ok = float("-inf"), hi
    else:
        lo_ok, hi_ok = lo, hi
    if kind == "ceiling" and x < hi:  # "below 1 cent": strictly below, whatever the unit
        return SUPPORTED
    if kind != "ceiling" and _within(x, lo_ok, hi_ok, tolerance):
        return SUPPORTED
    if _within(x, lo_ok, hi_ok, PARTLY_BAND * tolerance):
        return PARTLY
    if (
        evidence.interval == "ci90"
        and e_lo <= hi_ok * (1 + tolerance)
        and e_hi >= lo_ok * (1 - tolerance)
    ):
        return PARTLY
    return CONTRADICTED


def rule(tolerance: float = TOLERANCE, band: int = PARTLY_BAND) -> dict[str, str]:
    """The verdict rule in words, verdict -> its condition, with the numbers written in (the
    words of this module's docstring, which `verdict` implements)."""
    return {
        SUPPORTED: (
            "the number the claim's type judges (its value; the most the data show for an "
            "\u201cup to\u201d or \u201ccan\u201d claim; the least for a \u201cbelow\u201d claim; both "
            "ends for a span) lies in the claim widened by its unit's tolerance "
            f"({tolerance:.0%} for prices and multiples); a rank or a sign must agree exactly"
        ),
        PARTLY: (
            f"not supported, but within {band} times the tolerance of the claim, or the "
            "evidence's 90% confidence interval reaches the supported band (the spread of the "
            "rows never does); a span whose cases overlap the claimed span"
        ),
        CONTRADICTED: (
            f"further from the claim than {band} times its tolerance, or a rank or sign that "
            "disagrees"
        ),
        UNTESTABLE: (
            "no chapter gives evidence, or the data cannot give the number; the evidence then "
            "says what data would settle the claim"
        ),
    }


def rule_table() -> dict[str, pl.DataFrame]:
    """The verdict rule as tables: `types` (claim type, what it asserts, what is judged),
    `tolerances` (unit, tolerance, reason) and `like_for_like` (the conditions every piece of
    evidence meets)."""
    types = pl.DataFrame(
        [{"claim_type": k, "asserts": a, "judged_by": j} for k, (a, j) in TYPE_RULES.items()]
    )
    tolerances = pl.DataFrame(
        [
            {
                "unit": words,
                "tolerance": f"{tol:.0%}",
                "partly_within": f"{PARTLY_BAND * tol:.0%}",
                "reason": reason,
            }
            for words, tol, reason in UNIT_TOLERANCES
        ]
    )
    like = pl.DataFrame({"like_for_like": LIKE_FOR_LIKE})
    return {"types": types, "tolerances": tolerances, "like_for_like": like}


def rule_markdown() -> str:
    """The verdict rule as Markdown tables (claim types, then unit tolerances), as
    docs/results.md prints it between its `<!-- verdict-rule -->` markers."""
    tables = rule_table()
    lines = ["| Claim type | Asserts | Judged by |", "|---|---|---|"]
    lines += [
        f"| {r['claim_type']} | {r['asserts']} | {r['judged_by']} |"
        for r in tables["types"].iter_rows(named=True)
    ]
    lines += [
        "",
        "| Unit (contains) | Supported within | Partly within | Why |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {r['unit']} | {r['tolerance']} | {r['partly_within']} | {r['reason']} |"
        for r in tables["tolerances"].iter_rows(named=True)
    ]
    lines += ["", "Like-for-like, for every claim:", ""]
    lines += [f"- {line}" for line in LIKE_FOR_LIKE]
    return "\n".join(lines)


def applied(kind: ClaimType, unit: str) -> str:
    """The rule one claim is judged by, in words: its type, what is judged, its tolerance and
    why."""
    tol, reason = tolerance_for(unit)
    return f"{kind}: {TYPE_RULES[kind][1]}; tolerance {tol:.0%} ({reason})"


def claim_reference(
    claimed: float, claimed_high: float | None, value: float | None, kind: ClaimType = "point"
) -> float | None:
    """What the judged number is measured against: the nearer end of the claim (of a band, or
    the bound) when it lies outside it, the number itself when inside; None without a positive
    number or reference."""
    if value is None or value <= 0:
        return None
    lo, hi = sorted((claimed, claimed if claimed_high is None else claimed_high))
    if kind in ("upper bound", "lower bound"):
        hi = float("inf")
    elif kind == "ceiling":
        lo = float("-inf")
    if lo <= value <= hi:
        return value
    nearest = lo if value < lo else hi
    return nearest if nearest > 0 else None


def ratio_to_claim(
    claimed: float, claimed_high: float | None, value: float | None, kind: ClaimType = "point"
) -> float | None:
    """The judged number over the nearer end of the claim: 1 inside a claimed band or within a
    bound, None without a positive number to compare. 0.5 is half the claim."""
    ref = claim_reference(claimed, claimed_high, value, kind)
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
    "claim_type": pl.String,
    "tolerance": pl.Float64,
    "verdict": pl.String,
    "rule_applied": pl.String,
    "like_for_like": pl.String,
    "estimate_id": pl.String,
    "evidence_value": pl.Float64,
    "evidence_low": pl.Float64,
    "evidence_high": pl.Float64,
    "evidence_interval": pl.String,
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
    claims: pl.DataFrame,
    evidence: Mapping[str, Evidence],
    types: Mapping[str, ClaimType] | None = None,
) -> pl.DataFrame:
    """One row per claim of `claims` (the release's claims table, with the digest's date as
    `digest_date` where the caller has it), in its order: the claim, its type (`types` by
    claim_id, else `claim_type`), its unit's tolerance, its evidence (from `evidence`, by
    claim_id; missing evidence leaves the evidence columns empty) and its verdict.

    Raises naming the claim ids when `evidence` or `types` name a claim the table lacks, or an
    Evidence is filed under another claim's id."""
    types = {} if types is None else types
    known = set(claims["claim_id"])
    for what, ids in (("evidence", evidence), ("types", types)):
        unknown = sorted(set(ids) - known)
        if unknown:
            raise KeyError(f"{what} for claims not in the claims table: {', '.join(unknown)}")
    for cid, e in evidence.items():
        if e.claim_id != cid:
            raise ValueError(f"evidence filed under {cid!r} is for claim {e.claim_id!r}")
    rows = []
    for c in claims.iter_rows(named=True):
        cid = c["claim_id"]
        e = evidence.get(cid)
        kind = types.get(cid, claim_type(cid, c["value_high"]))
        tol = tolerance_for(c["unit"])[0]
        tested = e is not None and e.testable and e.value is not None
        x = judged(e, kind) if tested else None
        ref = claim_reference(c["value"], c["value_high"], x, kind) if tested else None
        rows.append(
            {
                "claim_id": cid,
                "claim": c["claim"],
                "digest_file": c["digest_file"],
                "digest_date": c.get("digest_date"),
                "claim_date": c["claim_date"],
                "subject": c["subject"],
                "claimed": c["value"],
                "claimed_high": c["value_high"],
                "unit": c["unit"],
                "claim_type": kind,
                "tolerance": tol,
                "verdict": verdict(c["value"], c["value_high"], e, kind, tol),
                "rule_applied": applied(kind, c["unit"]),
                "like_for_like": e.like_for_like if e else "",
                "estimate_id": e.estimate_id if e else "",
                "evidence_value": e.value if e else None,
                "evidence_low": e.low if e else None,
                "evidence_high": e.high if e else None,
                "evidence_interval": e.interval if e and e.low is not None else "",
                "evidence_n": e.n if e else None,
                "evidence_window": e.window if e else "",
                "evidence": e.text if e else NO_EVIDENCE,
                "section": e.section if e else "",
                "ratio_to_claim": None if ref is None else x / ref,
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
