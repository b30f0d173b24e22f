"""The ledger's verdict of one claim for a page sentence, and the evidence of the claims built in
the report layer (from methods over the release's tables, importing no chapter).

The evidence of most digest claims is a chapter's (`claim_evidence(version)` of the chapter that
discusses it; `analysis.evidence` gathers them). A claim whose evidence is one method over the
release's tables is built here instead (`EVIDENCE`), once per data version: the chapter that
discusses it calls the same function for its evidence and its quotes, so the ledger and the
chapter cannot disagree, and a page that quotes the claim's verdict (the summary, token-prices,
workload-costs) depends on this module, the method and the tables it reads, not on every chapter.

- `open-model-provider-spread`: the provider spread of open models in the newest month of the
  data (`dispersion`'s baseline selection), which the price-war chapter shows;
- `deepseek-batch-routing-saving`: what moving the price-war chapter's stated workload, spread
  evenly over the week's hours, into DeepSeek's off-peak hours saves on the card in force on the
  claim's day (`time_of_use.routing_saving`), and the bound, a bill run wholly at peak.

`ledger_row` is the ledger's row of one claim on given evidence (`methods.claims.ledger` on that
claim's row of the claims table: the same type, tolerance and verdict rule as the whole ledger's).
`PAGE_VERDICTS` names, per page, each quote a sentence about a digest claim reads for the
ledger's verdict or finding; `with_verdicts(slug, q)` adds them to a page's quotes, for pages
whose claims are all built here (`analysis.evidence.with_verdicts` for the others).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import polars as pl

from analysis.data.cache import cached
from analysis.data.reads import memo
from analysis.methods import claims as cl
from analysis.methods import dispersion
from analysis.methods import time_of_use as tou
from analysis.methods.claims import Evidence
from analysis.report import left_out, names, results
from analysis.report.quote import Quote, Quotes

PRICE_WAR = "chapters/price-war.qmd"
SPREAD_SECTION = f"{PRICE_WAR}#sec-price-war-spread"
ROUTING_SECTION = f"{PRICE_WAR}#sec-price-war-tou"

SPREAD_CLAIM = dispersion.CLAIM_ID
ROUTING_CLAIM = "deepseek-batch-routing-saving"
# The price-war chapter's stated workload, millions of tokens a month: an assistant reading
# three tokens for each one it writes (the 3:1 blend the book uses), with no cache hits.
WORKLOAD = tou.Workload("assistant, 3:1", input_mtok=300.0, output_mtok=100.0)
# Time of use: the rate-card copy that states the weekend rule, and the claims' model.
TOU_SOURCE = "deepseek-tou-dsh-meter"
TOU_PROVIDER = "deepseek"
TOU_MODEL = "deepseek-v4-pro"
TOU_NEEDS = left_out.Needs("DeepSeek's time-of-use rate cards", tables=("tou_windows",))


def _held(claims: pl.DataFrame, claim_id: str) -> bool:
    return claims.filter(pl.col("claim_id") == claim_id).height > 0


# ------------------------------------------------------------------ the spread of open models


@dataclass(frozen=True)
class Spread:
    """The provider spread of open models in the newest month: the claim's multiple, the check
    (`dispersion.claim_check`) and the ledger's evidence."""

    month: date | None
    threshold: float
    check: dict
    evidence: Evidence


def open_model_spread(version: str | None = None) -> Spread | None:
    """The spread claim's evidence and its check; None when the claims table lacks the claim."""
    return _open_model_spread(results.version(version))


@memo
def _open_model_spread(v: str) -> Spread | None:
    claims = results.table("claims", v)
    if not _held(claims, SPREAD_CLAIM):
        return None
    threshold = dispersion.claim_value(claims, SPREAD_CLAIM)
    spreads = dispersion.spreads(
        dispersion.provider_prices(results.table("token_prices", v), results.table("models", v))
    )
    newest = spreads["month"].max()
    check = dispersion.claim_check(spreads.filter(pl.col("month") == newest), threshold)
    if check["ratio_max"] is None:
        evidence = Evidence(
            SPREAD_CLAIM,
            None,
            "No open model has two or more providers priced in one month of this release; "
            "prices of one open model at several providers would settle the claim.",
            SPREAD_SECTION,
            testable=False,
        )
        return Spread(newest, threshold, check, evidence)
    top = check["ratio_max_model"]
    evidence = Evidence(
        SPREAD_CLAIM,
        check["ratio_max"],
        f"Dearest over cheapest provider's blended 3:1 list price of each open model with two "
        f"or more providers in {newest:%B %Y}: median {check['ratio_median']:.3g}, largest "
        f"{check['ratio_max']:.3g} ({top}); {check['n_model_months_reaching']} of "
        f"{check['n_models']} models reach {threshold:g}x.",
        SPREAD_SECTION,
        low=check["ratio_median"],
        high=check["ratio_max"],
        n=check["n_models"],
        window=f"{newest:%Y-%m}",
    )
    return Spread(newest, threshold, check, evidence)


# ------------------------------------------------------------------ off-peak routing


@dataclass(frozen=True)
class Routing:
    """DeepSeek's time-of-use offer on the routing claim's day, what moving `WORKLOAD` off-peak
    saves on it (`time_of_use.routing_saving`) and the ledger's evidence; `offer` and `saving`
    are None when the release cannot test the claim."""

    on: date
    offer: tou.Offer | None
    saving: tou.Saving | None
    evidence: Evidence


def batch_routing(version: str | None = None) -> Routing | None:
    """The routing claim's evidence and the saving behind it; None when the claims table lacks
    the claim."""
    return _batch_routing(results.version(version))


@memo
def _batch_routing(v: str) -> Routing | None:
    claims = results.table("claims", v)
    if not _held(claims, ROUTING_CLAIM):
        return None
    on = cl.claim_row(claims, ROUTING_CLAIM)["claim_date"]
    why = left_out.reason(TOU_NEEDS, v)
    if why:
        evidence = Evidence(ROUTING_CLAIM, None, why, ROUTING_SECTION, testable=False)
        return Routing(on, None, None, evidence)
    windows = results.table("tou_windows", v)
    token_prices = results.table("token_prices", v)
    start = tou.regime_start(windows, TOU_SOURCE)
    offer = tou.offer_on(token_prices, windows, TOU_SOURCE, TOU_PROVIDER, TOU_MODEL, "USD", on)
    saving = tou.routing_saving(offer.schedule, offer.peak, offer.off_peak, WORKLOAD)
    evidence = Evidence(
        ROUTING_CLAIM,
        100 * saving.saving_from_spread,
        f"{TOU_MODEL}, USD card in force on {on}, workload of {WORKLOAD.input_mtok:g}M input and "
        f"{WORKLOAD.output_mtok:g}M output tokens a month: moving it off-peak saves "
        f"{saving.saving_from_spread:.1%} if it was spread evenly over the week's hours "
        f"({saving.peak_hours_per_week} of {tou.HOURS_PER_WEEK} are peak), "
        f"{saving.saving_from_peak:.0%} if it all ran in peak hours.",
        ROUTING_SECTION,
        low=100 * saving.saving_from_spread,
        high=100 * saving.saving_from_peak,
        n=tou.HOURS_PER_WEEK,
        window=f"{start.date()} to {on}",
    )
    return Routing(on, offer, saving, evidence)


# ------------------------------------------------------------------ one claim's ledger row


def _spread_evidence(v: str) -> Evidence | None:
    found = open_model_spread(v)
    return None if found is None else found.evidence


def _routing_evidence(v: str) -> Evidence | None:
    found = batch_routing(v)
    return None if found is None else found.evidence


# claim_id -> its evidence on a data version (None when the claims table lacks the claim).
EVIDENCE: dict[str, Callable[[str], Evidence | None]] = {
    SPREAD_CLAIM: _spread_evidence,
    ROUTING_CLAIM: _routing_evidence,
}


def ledger_row(claim_id: str, evidence: Evidence | None, version: str | None = None) -> dict | None:
    """The ledger's row of one claim on `evidence` (None: no evidence), judged as the whole
    ledger judges it; None when the claims table lacks the claim. Reads the claims table only
    (the whole ledger adds each digest's date, which no verdict reads)."""
    claims = results.table("claims", results.version(version))
    one = claims.filter(pl.col("claim_id") == claim_id)
    if one.height == 0:
        return None
    return cl.ledger(one, {claim_id: evidence} if evidence else {}).row(0, named=True)


def row(claim_id: str, version: str | None = None) -> dict | None:
    """The ledger's row of a claim whose evidence is built here; raises naming the claim when a
    chapter gives its evidence (analysis.evidence has those)."""
    if claim_id not in EVIDENCE:
        raise LookupError(
            f"claim {claim_id!r}: its evidence is a chapter's, not built in "
            "analysis.report.verdicts; analysis.evidence gives its verdict"
        )
    return _row(claim_id, results.version(version))


@memo
@cached  # on disk too: the page's second output format (a fresh kernel) reuses the first's row
def _row(claim_id: str, v: str) -> dict | None:
    return ledger_row(claim_id, EVIDENCE[claim_id](v), v)


NOT_HELD = "not judged here: this release's claims table does not hold the claim"


def verdict_quote(row: dict | None) -> Quote:
    """The ledger's verdict of one claim, for a page sentence that discusses it."""
    return Quote(row["verdict"] if row else NOT_HELD)


def finding_quote(row: dict | None) -> Quote:
    """The ledger's verdict of one claim and its evidence in one phrase: "supported (the
    evidence's sentence)"."""
    if row is None:
        return Quote(NOT_HELD)
    return Quote(f"{row['verdict']} ({names.in_text(row['evidence']).rstrip('.')})")


QUOTE_KINDS = {"verdict": verdict_quote, "finding": finding_quote}

# Page slug -> {quote name: (claim_id, "verdict" or "finding")}: each quote a page's sentence
# about a digest claim reads for the ledger's verdict (`verdict`) or verdict and evidence
# (`finding`). tests/chapters/test_claims_consistency.py reads every such sentence.
PAGE_VERDICTS: dict[str, dict[str, tuple[str, str]]] = {
    "index": {"spread_verdict": (SPREAD_CLAIM, "verdict")},
    "token-prices": {"spread_verdict": (SPREAD_CLAIM, "verdict")},
    "price-war": {
        "gemini_doubling_verdict": ("gemini-3.8-flash-price-doubling", "verdict"),
        "routing_verdict": (ROUTING_CLAIM, "verdict"),
        "rise_verdict": ("deepseek-api-price-rise", "verdict"),
        "flash_cny_verdict": ("deepseek-flash-idle-price-cny", "verdict"),
        "flash_usd_verdict": ("deepseek-flash-idle-price-usd", "verdict"),
        "glm_price_verdict": ("glm-5.3-flash-price", "verdict"),
        "glm_discount_verdict": ("glm-5.3-flash-discount", "verdict"),
        "spread_verdict": (SPREAD_CLAIM, "verdict"),
        "sub_cent_verdict": ("sub-cent-token-rates", "verdict"),
    },
    "quality-adjusted": {"deepseek_rise_finding": ("deepseek-api-price-rise", "finding")},
    "workload-costs": {
        "agent_share_verdict": ("agent-bill-output-share", "verdict"),
        "ratio_verdict": ("opus-5-vs-grok-4.6-cost", "verdict"),
        "routing_verdict": (ROUTING_CLAIM, "verdict"),
    },
}


def with_verdicts(
    slug: str,
    q: Quotes,
    version: str | None = None,
    row_of: Callable[[str, str | None], dict | None] = row,
) -> Quotes:
    """The page's quotes `q` and, named as `PAGE_VERDICTS[slug]` says, the ledger's verdict (or
    finding) of each claim the page discusses, each from `row_of(claim_id, version)` (by default
    `row`: claims built here only); a left-out page's quotes stay left out."""
    extra = {
        name: QUOTE_KINDS[kind](row_of(claim_id, version))
        for name, (claim_id, kind) in PAGE_VERDICTS[slug].items()
    }
    out = Quotes(slug, {**q, **extra})
    if q._leaves_out:  # the page's prose still runs, reading placeholders for what it lacks
        out.leave_out()
    return out
