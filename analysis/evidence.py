"""The evidence registry: for each digest claim, the page whose analysis gives its evidence.

`PROVIDERS` names, page slug -> function, every chapter that gives `claim_evidence(version)`;
each is imported here by name, so import-linter sees the claims ledger's dependencies.
`collect(version)` gathers them (raising when two pages give evidence for one claim);
`ledger(version)` is the claims table with each claim's evidence and verdict, which the
claims-ledger page, its figure-kit CSV and `python -m analysis claims` print.

One verdict everywhere: a page sentence that discusses a digest claim quotes the ledger's verdict
(and, where it says so, its evidence), never a verdict of its own.
`analysis.report.verdicts.PAGE_VERDICTS` names, per page, each such quote and its claim; the
page's setup cell adds them to its chapter's quotes with `with_verdicts(slug, c.q)`, so the prose
reads `q.routing_verdict` like any other quote. A page whose claims' evidence is all built in the
report layer (`verdicts.EVIDENCE`: the summary and token-prices, on the spread claim) calls
`verdicts.with_verdicts` instead, and so depends on no chapter but its own.
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
from analysis.data.cache import cached
from analysis.data.reads import memo
from analysis.methods.claims import Evidence
from analysis.report import results, verdicts
from analysis.report.quote import Quotes


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
    id. The registry's own providers' evidence is kept on disk (`_collected`)."""
    if providers is PROVIDERS:
        return _collected(results.version(version))
    return _gather(version, providers)


@memo
@cached  # on disk too: the ledger page's second output format (a fresh kernel) reuses the first's
def _collected(v: str) -> dict[str, Evidence]:
    return _gather(v, PROVIDERS)


def _gather(
    version: str | None, providers: dict[str, Callable[[str | None], dict[str, Evidence]]]
) -> dict[str, Evidence]:
    found: dict[str, Evidence] = {}
    owner: dict[str, str] = {}
    for page, gives in providers.items():
        for cid, e in gives(version).items():
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
    """The ledger's row of one claim (`verdicts.ledger_row`: the same Evidence and the same
    verdict rule as the whole ledger's), from the report layer's evidence where it is built
    there, else from the first page that gives it, so a page quoting one verdict runs, and reads
    the tables of, only what it needs, not every chapter."""
    v = results.version(version)
    if claim_id in verdicts.EVIDENCE:
        return verdicts.row(claim_id, v)
    return _chapter_claim(claim_id, v)


@memo
@cached  # on disk too: the page's second output format (a fresh kernel) reuses the first's row
def _chapter_claim(claim_id: str, v: str) -> dict | None:
    for page in PROVIDERS:
        found = _page_evidence(page, v)
        if claim_id in found:
            return verdicts.ledger_row(claim_id, found[claim_id], v)
    return verdicts.ledger_row(claim_id, None, v)


def with_verdicts(slug: str, q: Quotes, version: str | None = None) -> Quotes:
    """The page's quotes `q` and, named as `verdicts.PAGE_VERDICTS[slug]` says, the
    ledger's verdict (or finding) of each claim the page discusses, whichever layer builds its
    evidence; a left-out page's quotes stay left out."""
    return verdicts.with_verdicts(slug, q, version, row_of=_claim)
