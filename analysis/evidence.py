"""The evidence registry: for each digest claim, the page whose analysis gives its evidence.

`PROVIDERS` names, page slug -> function, every chapter that gives `claim_evidence(version)`;
each is imported here by name, so import-linter sees the claims ledger's dependencies.
`collect(version)` gathers them (raising when two pages give evidence for one claim);
`ledger(version)` is the claims table with each claim's evidence and verdict, which the
claims-ledger page, its figure-kit CSV and `python -m analysis claims` print.

One verdict everywhere: a page sentence that discusses a digest claim quotes the ledger's verdict
(and, where it says so, its evidence), never a verdict of its own. `PAGE_VERDICTS` names, per
page, each such quote and its claim; the page's setup cell adds them to its chapter's quotes with
`with_verdicts(slug, c.q)`, so the prose reads `q.spread_verdict` like any other quote.
tests/chapters/test_claims_consistency.py reads every page for a sentence that disagrees.

It sits above the chapter modules (a layer of its own, between the book and the chapters): a
chapter never imports another chapter, the claims ledger included; its page passes it what this
registry collects.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from analysis.chapters import (
    claims_ledger,
    fixed_capability,
    gpu_hour_prices,
    price_war,
    tokens_per_dollar,
    workload_costs,
)
from analysis.data.reads import memo
from analysis.methods.claims import Evidence
from analysis.report import names, results
from analysis.report.quote import Quote, Quotes


def workload_evidence(version: str | None = None) -> dict[str, Evidence]:
    """The digests' workload claims judged on the bill calculator's numbers, as the workload
    page computes them (`workload_costs.claim_values`; its quotes give the spread across the
    coding agent's offers)."""
    page = workload_costs.compute(version)
    values = None if not page.shown else workload_costs.claim_values(version)
    spread = None if values is None else page.q["agent_output_share_range"].value
    return claims_ledger.workload_evidence(values, spread, page.left_out, version)


# The page that discusses each claim gives its evidence; the claims ledger gives the claims no
# chapter discusses.
PROVIDERS: dict[str, Callable[[str | None], dict[str, Evidence]]] = {
    price_war.SLUG: price_war.claim_evidence,
    tokens_per_dollar.SLUG: tokens_per_dollar.claim_evidence,
    gpu_hour_prices.SLUG: gpu_hour_prices.claim_evidence,
    fixed_capability.SLUG: fixed_capability.claim_evidence,
    workload_costs.SLUG: workload_evidence,
    claims_ledger.SLUG: claims_ledger.claim_evidence,
}


def collect(
    version: str | None = None,
    providers: dict[str, Callable[[str | None], dict[str, Evidence]]] = PROVIDERS,
) -> dict[str, Evidence]:
    """Every Evidence the providers give, by claim_id. Raises naming both pages when two give
    evidence for one claim, and naming the page when it files an Evidence under another claim's
    id."""
    found: dict[str, Evidence] = {}
    owner: dict[str, str] = {}
    for page, claim_evidence in providers.items():
        for cid, e in claim_evidence(version).items():
            if e.claim_id != cid:
                raise ValueError(f"{page}: evidence filed under {cid!r} is for {e.claim_id!r}")
            if cid in found:
                raise ValueError(f"claim {cid!r} has evidence from both {owner[cid]} and {page}")
            found[cid], owner[cid] = e, page
    return found


def ledger(version: str | None = None) -> pl.DataFrame:
    """The claims table with each claim's evidence and verdict (`claims_ledger.ledger`)."""
    return _ledger(results.version(version))


@memo
def _ledger(v: str) -> pl.DataFrame:
    return claims_ledger.ledger(collect(v), v)


@memo
def _page_evidence(page: str, v: str) -> dict[str, Evidence]:
    return PROVIDERS[page](v)


def _claim(claim_id: str, version: str | None) -> dict | None:
    """The ledger's row of one claim, from the evidence of the first page that gives it (the
    same Evidence and the same verdict rule as the whole ledger's), so a page quoting one
    verdict runs, and reads the tables of, only the pages it needs, not every chapter."""
    v = results.version(version)
    evidence: dict[str, Evidence] = {}
    for page in PROVIDERS:
        found = _page_evidence(page, v)
        if claim_id in found:
            evidence = {claim_id: found[claim_id]}
            break
    rows = claims_ledger.ledger(evidence, v).filter(pl.col("claim_id") == claim_id)
    return rows.row(0, named=True) if rows.height else None


NOT_HELD = "not judged here: this release's claims table does not hold the claim"

# The summary and the token-prices page point to the ledger for the spread claim instead of
# quoting its verdict: quoting it would make them import every chapter (through this module),
# and the page tracker would then re-run them whenever any chapter's code or tables change.
# Page slug -> {quote name: (claim_id, "verdict" or "finding")}: each quote a page's sentence
# about a digest claim reads for the ledger's verdict (`verdict`) or verdict and evidence
# (`finding`).
PAGE_VERDICTS: dict[str, dict[str, tuple[str, str]]] = {
    "price-war": {
        "gemini_doubling_verdict": ("gemini-3.8-flash-price-doubling", "verdict"),
        "routing_verdict": ("deepseek-batch-routing-saving", "verdict"),
        "rise_verdict": ("deepseek-api-price-rise", "verdict"),
        "flash_cny_verdict": ("deepseek-flash-idle-price-cny", "verdict"),
        "flash_usd_verdict": ("deepseek-flash-idle-price-usd", "verdict"),
        "glm_price_verdict": ("glm-5.3-flash-price", "verdict"),
        "glm_discount_verdict": ("glm-5.3-flash-discount", "verdict"),
        "spread_verdict": ("open-model-provider-spread", "verdict"),
        "sub_cent_verdict": ("sub-cent-token-rates", "verdict"),
    },
    "quality-adjusted": {"deepseek_rise_finding": ("deepseek-api-price-rise", "finding")},
    "workload-costs": {
        "agent_share_verdict": ("agent-bill-output-share", "verdict"),
        "ratio_verdict": ("opus-5-vs-grok-4.6-cost", "verdict"),
        "routing_verdict": ("deepseek-batch-routing-saving", "verdict"),
    },
}


def verdict(claim_id: str, version: str | None = None) -> Quote:
    """The ledger's verdict of one claim, for a page sentence that discusses it."""
    row = _claim(claim_id, version)
    return Quote(row["verdict"] if row else NOT_HELD)


def finding(claim_id: str, version: str | None = None) -> Quote:
    """The ledger's verdict of one claim and its evidence in one phrase: "supported (the
    evidence's sentence)"."""
    row = _claim(claim_id, version)
    if row is None:
        return Quote(NOT_HELD)
    return Quote(f"{row['verdict']} ({names.in_text(row['evidence']).rstrip('.')})")


def with_verdicts(slug: str, q: Quotes, version: str | None = None) -> Quotes:
    """The page's quotes `q` and, named as `PAGE_VERDICTS[slug]` says, the ledger's verdict (or
    finding) of each claim the page discusses; a left-out page's quotes stay left out."""
    quote = {"verdict": verdict, "finding": finding}
    extra = {
        name: quote[kind](claim_id, version)
        for name, (claim_id, kind) in PAGE_VERDICTS[slug].items()
    }
    out = Quotes(slug, {**q, **extra})
    if q._leaves_out:  # the page's prose still runs, reading placeholders for what it lacks
        out.leave_out()
    return out
