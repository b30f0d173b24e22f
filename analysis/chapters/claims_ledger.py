"""What the "The digests' claims, checked" appendix shows: every claim of the release's `claims`
table with the evidence a chapter gives for it and the verdict `analysis.methods.claims.verdict`
decides, and this page's own evidence for the claims no other chapter discusses.

The evidence registry (`analysis.evidence`, a layer above the chapters) gathers each chapter's
`claim_evidence(version)`, this page's included, and passes it in: `ledger(evidence, version)` is
the claims table with evidence and verdict, one row per claim, which the page's table, the
figure kit's CSV and `python -m analysis claims` all print. The claims whose words make
them other than a point ("up to", "below", "can", "raised 2.3-4.5x", "first") are
`analysis.methods.claims.CLAIM_TYPES`, used here and by every chapter that prints a verdict. `compute(evidence, version)` returns the frames the page draws and its `Quotes`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import polars as pl

from analysis.data import titles
from analysis.data.cache import cached
from analysis.methods import claims as cl
from analysis.methods.claims import Evidence
from analysis.report import left_out, names, results
from analysis.report.quote import Quote, Quotes

SLUG = "claims-ledger"
PAGE = "chapters/claims-ledger.qmd"
SEC_DEEPSEEK = f"{PAGE}#sec-claims-ledger-deepseek"
SEC_AGENT = f"{PAGE}#sec-claims-ledger-agent"

# The claims a strategy memo would most want settled, in the order the page lists them: the
# trend every budget extrapolates, two prices a buyer pays, the cheapest way to buy, and what a
# GPU-hour costs.
MEMO_CLAIMS = [
    "epoch-fixed-capability-decline",
    "open-model-provider-spread",
    "deepseek-batch-routing-saving",
    "gemini-3.8-flash-price-doubling",
    "h100-cloud-price-settled",
]

# This page's claims: the digest's agent workload and DeepSeek's company news.
RATIO_CLAIM = "opus-5-vs-grok-4.6-cost"
DEEPSEEK_CLAIMS = [
    "deepseek-2t-model",
    "deepseek-raise",
    "deepseek-revenue-before",
    "deepseek-revenue-after",
    "deepseek-revenue-10x",
]
REVENUE_HEADLINE = "deepseek-revenue-10x"
# The quote of each claim's words the page prints -> its claim id.
CLAIM_QUOTES = {
    "claim_agent_bill_share": "agent-bill-output-share",
    "claim_opus_grok_ratio": RATIO_CLAIM,
    "claim_deepseek_2t_model": "deepseek-2t-model",
    "claim_deepseek_raise": "deepseek-raise",
    "claim_deepseek_revenue_before": "deepseek-revenue-before",
    "claim_deepseek_revenue_after": "deepseek-revenue-after",
    "claim_deepseek_revenue_10x": REVENUE_HEADLINE,
}
OPUS, GROK = "claude-opus-5", "grok-4.6"  # the two models of opus-5-vs-grok-4.6-cost
DEEPSEEK = "deepseek"  # the developer id of DeepSeek's models in the models table
# Powers of ten the claims table's units name (unit column: "billion USD (approximate)").
UNIT_SCALE = {"trillion": 1e12, "billion": 1e9, "million": 1e6}


# The sections older releases cannot show: the Artificial Analysis snapshots (2026-12-01.2 on)
# behind the agent workload, the claims added with the later digest's second reading.
NEEDS = {
    "memo": left_out.Needs(
        f"full set of the {len(MEMO_CLAIMS)} claims a memo needs",
        rows=(
            "claims",
            lambda claims: claims.filter(pl.col("claim_id").is_in(MEMO_CLAIMS)).filter(
                pl.len() == len(MEMO_CLAIMS)
            ),
        ),
    ),
    "agent": left_out.Needs("Artificial Analysis leaderboard snapshots", tables=("aa_snapshots",)),
    "deepseek": left_out.Needs(
        "claim of DeepSeek's revenue headline",
        rows=("claims", lambda claims: claims.filter(pl.col("claim_id") == REVENUE_HEADLINE)),
    ),
}


@dataclass(frozen=True)
class ClaimsLedger:
    version: str
    ledger: pl.DataFrame  # methods.claims.ledger: one row per claim (the CSV)
    table: pl.DataFrame  # the page's table: display columns of the ledger
    chart: pl.DataFrame  # the ledger with dates as text: the figure's data and the kit's CSV
    bands: pl.DataFrame  # the verdict rule's bands for the figure (`rule_bands`)
    rules: dict[str, pl.DataFrame]  # the rule as tables (`methods.claims.rule_table`)
    verdicts: list[str]  # the verdicts of tested claims, in the rule's order (figure colours)
    memo: pl.DataFrame  # the table rows of MEMO_CLAIMS
    q: Quotes
    left_out: dict[str, str]  # section (NEEDS) -> why this data version cannot show it

    def shows(self, part: str) -> bool:
        return part not in self.left_out


# ------------------------------------------------------------------ gathering the evidence


def types(claims: pl.DataFrame) -> dict[str, cl.ClaimType]:
    """claim_id -> type of every claim the table holds (`methods.claims.claim_type`)."""
    return {
        c["claim_id"]: cl.claim_type(c["claim_id"], c["value_high"])
        for c in claims.iter_rows(named=True)
    }


def claims_with_dates(v: str) -> pl.DataFrame:
    """The claims table with each digest's date (the `retrieved` date of its source row)."""
    digests = results.table("sources", v).select(
        "source_id", pl.col("retrieved").alias("digest_date")
    )
    return results.table("claims", v).join(
        digests, on="source_id", how="left", maintain_order="left"
    )


def ledger(evidence: dict[str, Evidence], version: str | None = None) -> pl.DataFrame:
    """The claims table with each claim's evidence (`analysis.evidence.collect`) and verdict
    (`methods.claims.ledger`)."""
    claims = claims_with_dates(results.version(version))
    return cl.ledger(claims, evidence, types(claims))


# ------------------------------------------------------------------ this page's evidence


def usd(value: float, unit: str) -> float:
    """A claimed amount in US dollars, from its unit's power of ten ("million USD" -> x 1e6)."""
    scale = [s for word, s in UNIT_SCALE.items() if unit.startswith(word)]
    if not scale or "USD" not in unit:
        raise ValueError(f"claims table: unit {unit!r} is not a power of ten of USD")
    return value * scale[0]


def millions(amount_usd: float) -> str:
    """`$500M`, `$1B`: an amount in dollars as the digest writes it."""
    if amount_usd >= 1e9:
        return f"${amount_usd / 1e9:,g}B"
    return f"${amount_usd / 1e6:,g}M"


def revenue_rise(claims: pl.DataFrame) -> dict[str, float]:
    """The digest's own revenue figures: the rise "from <$500M to ~$1B" implies (after / before,
    a lower bound since "before" is), and the revenue before that a rise by the headline's
    factor to the same "after" would need."""
    before, after = (
        cl.claim_row(claims, "deepseek-revenue-before"),
        cl.claim_row(claims, "deepseek-revenue-after"),
    )
    headline = cl.claim_row(claims, "deepseek-revenue-10x")["value"]
    before_usd, after_usd = usd(before["value"], before["unit"]), usd(after["value"], after["unit"])
    return {
        "before_usd": before_usd,
        "after_usd": after_usd,
        "implied_factor": after_usd / before_usd,
        "headline_factor": headline,
        "before_for_headline_usd": after_usd / headline,
    }


def index_cost_ratio(aa: pl.DataFrame, numerator: str, denominator: str) -> pl.DataFrame:
    """Per Artificial Analysis snapshot holding both models: the median `index_cost_usd` of each
    model's entries (AA lists reasoning variants as entries of one model) and their ratio."""
    per = (
        aa.filter(pl.col("model_id").is_in([numerator, denominator]))
        .drop_nulls("index_cost_usd")
        .group_by("snapshot_date", "model_id")
        .agg(pl.col("index_cost_usd").median())
    )
    wide = per.pivot(on="model_id", index="snapshot_date", values="index_cost_usd")
    if numerator not in wide.columns or denominator not in wide.columns:
        return pl.DataFrame(schema={"snapshot_date": pl.Date, "ratio": pl.Float64})
    return (
        wide.drop_nulls([numerator, denominator])
        .with_columns((pl.col(numerator) / pl.col(denominator)).alias("ratio"))
        .sort("snapshot_date")
    )


def opus_grok_evidence(
    aa: pl.DataFrame, models: pl.DataFrame, token_prices: pl.DataFrame | None = None
) -> Evidence:
    """opus-5-vs-grok-4.6-cost against AA's cost to run its Intelligence Index, for both models in
    one snapshot; not testable when no snapshot holds both (nor, then, can the bill calculator
    bill the pair when `token_prices` lacks either model)."""
    cid = "opus-5-vs-grok-4.6-cost"
    ratios = index_cost_ratio(aa, OPUS, GROK)
    dates = aa["snapshot_date"].unique().sort()
    window = f"{dates.min()} to {dates.max()}" if dates.len() else ""
    if ratios.height:
        latest = ratios.row(-1, named=True)
        first, last = ratios["snapshot_date"].min(), ratios["snapshot_date"].max()
        return Evidence(
            cid,
            latest["ratio"],
            f"Artificial Analysis's cost to run its Intelligence Index, Claude Opus 5 over Grok "
            f"4.6 in the snapshot of {latest['snapshot_date']} (range over the {ratios.height} "
            "snapshots holding both): a benchmark run, a different workload than the digest's.",
            SEC_AGENT,
            low=ratios["ratio"].min() if ratios.height > 1 else None,
            high=ratios["ratio"].max() if ratios.height > 1 else None,
            n=ratios.height,
            window=f"{first} to {last}",
        )
    in_aa = {m: aa.filter(pl.col("model_id") == m).height for m in (OPUS, GROK)}
    in_models = {m: models.filter(pl.col("model_id") == m).height for m in (OPUS, GROK)}
    absent = [m for m in (OPUS, GROK) if not in_models[m]]
    priced = (
        ""
        if token_prices is None
        else " The bill calculator cannot bill the pair on any workload: the price table has "
        + " and ".join(
            f"{token_prices.filter(pl.col('model_id') == m).height} rows of {m}"
            for m in (OPUS, GROK)
        )
        + "."
    )
    return Evidence(
        cid,
        None,
        f"None of the {dates.len()} Artificial Analysis snapshots ({window}) holds both models "
        f"({in_aa[OPUS]} rows of {OPUS}, {in_aa[GROK]} of {GROK})"
        + (f"; {' and '.join(absent)} is in no table of the release" if absent else "")
        + "."
        + priced
        + " The digest's agent workload (its tokens and each model's bill) would settle the "
        "claim; AA's index cost for both in one snapshot would test it on a different workload.",
        SEC_AGENT,
        n=0,
        window=window,
        testable=False,
    )


CUTS_CLAIM = "anthropic-openai-cuts-hours-apart"
SEC_CUTS = f"{PAGE}#sec-claims-ledger-cuts"
# The two rate cards the digest names for the cuts: (developer's provider id, model id).
CUT_MODELS = {"anthropic": "claude-opus-5.5", "openai": "gpt-6-sol"}
DIGEST_PREFIX = "digest-"


def cuts_apart_evidence(token_prices: pl.DataFrame) -> Evidence:
    """anthropic-openai-cuts-hours-apart: the days between the first first-party list price of
    each model the digest names for the cuts, digests left out; the data are dated by the day a
    page showed a price, so the day is their resolution."""
    first = {}
    for provider, model in CUT_MODELS.items():
        rows = token_prices.filter(
            pl.col("model_id") == model,
            pl.col("provider") == provider,
            pl.col("price_kind") == "list",
            ~pl.col("source_id").str.starts_with(DIGEST_PREFIX),
        ).sort("date")
        if rows.height:
            first[model] = rows.row(0, named=True)
    if len(first) < len(CUT_MODELS):
        missing = sorted(set(CUT_MODELS.values()) - set(first))
        return Evidence(
            CUTS_CLAIM,
            None,
            f"No first-party list price of {' or '.join(missing)} outside the digests; the two "
            "labs' dated rate cards would settle it.",
            SEC_CUTS,
            testable=False,
        )
    a, b = (first[m] for m in CUT_MODELS.values())
    days = abs((a["date"] - b["date"]).days)
    return Evidence(
        CUTS_CLAIM,
        float(days),
        f"First first-party list price of each, digests left out: {a['model_id']} "
        f"{a['input_usd_per_mtok']:g}/{a['output_usd_per_mtok']:g} USD on {a['date']} "
        f"({a['source_id']}), {b['model_id']} {b['input_usd_per_mtok']:g}/"
        f"{b['output_usd_per_mtok']:g} USD on {b['date']} ({b['source_id']}). The data date a "
        "price by the day a page showed it, so \u201cwithin hours\u201d is tested to the day.",
        SEC_CUTS,
        n=2,
        window=f"{min(a['date'], b['date'])} to {max(a['date'], b['date'])}",
        like_for_like=(
            "the first standard list price of each new model the digest names, from "
            "first-party price tables, digests left out"
        ),
    )


BILL_SHARE = "agent-bill-output-share"
SPLIT = ("index_cost_input_usd", "index_cost_output_usd")  # output includes reasoning


def bill_shares(aa: pl.DataFrame) -> pl.DataFrame:
    """Per Artificial Analysis snapshot and entry with the index run's bill split: the share of
    the bill (percent) from output tokens, reasoning included (output / (input + output))."""
    if not set(SPLIT) <= set(aa.columns):
        return pl.DataFrame(schema={"snapshot_date": pl.Date, "share": pl.Float64})
    whole = pl.col(SPLIT[0]) + pl.col(SPLIT[1])
    return (
        aa.drop_nulls(list(SPLIT))
        .filter(whole > 0)
        .select("snapshot_date", (100 * pl.col(SPLIT[1]) / whole).alias("share"))
    )


def bill_share_evidence(aa: pl.DataFrame) -> Evidence:
    """agent-bill-output-share on AA's Intelligence Index run, the one workload the data hold
    with each model's bill split by input, output and reasoning tokens: the median share of the
    newest snapshot holding the split, with the middle half of its models as the spread."""
    shares = bill_shares(aa)
    if shares.is_empty():
        return Evidence(
            BILL_SHARE,
            None,
            "The release's leaderboard snapshots carry only the index run's total cost; the "
            "leaderboard files also split it by input, output and reasoning tokens "
            "(pricing.intelligence_index_cost_input/_output/_reasoning), which a release built "
            "with the current importer holds and which would test the claim on that run. The "
            "digest's own workload would settle it.",
            SEC_AGENT,
            testable=False,
        )
    day = shares["snapshot_date"].max()
    latest = shares.filter(pl.col("snapshot_date") == day)["share"]
    per_day = shares.group_by("snapshot_date").agg(pl.col("share").median()).sort("snapshot_date")
    return Evidence(
        BILL_SHARE,
        float(latest.median()),
        f"Artificial Analysis's Intelligence Index run, the bill of each of {latest.len()} "
        f"models in the snapshot of {day}: median share from output and reasoning tokens (the "
        "interval is the middle half of the models; the medians of the "
        f"{per_day.height} snapshots holding the split run "
        f"{per_day['share'].min():.0f}% to {per_day['share'].max():.0f}%). A benchmark run, "
        "not the digest's workload.",
        SEC_AGENT,
        low=float(latest.quantile(0.25)),
        high=float(latest.quantile(0.75)),
        n=latest.len(),
        window=str(day),
        like_for_like=(
            "one workload's bill split by token kind at each model's list prices, output and "
            "reasoning against input, as the claim splits it"
        ),
    )


PRESET_NOTE = (
    "the preset's token counts are the book's illustration of such a workload, not a survey, "
    "so the share moves with them"
)


def workload_evidence(
    values: dict[str, float] | None,
    spread: tuple[float, float] | None,
    left_out_why: str | None,
    version: str | None = None,
) -> dict[str, Evidence]:
    """agent-bill-output-share, judged on measured token counts: Artificial Analysis's index
    run billed at each model's list prices (`bill_share_evidence`), the one workload the data
    hold with real counts per token kind. The bill calculator's coding-agent preset (`values`,
    the workload page's `claim_values`; `spread` its lowest and highest share across offers)
    is quoted beside it as an illustration, never judged: its token counts are the book's
    choice (PRESET_NOTE), so a verdict on them would be a verdict on that choice."""
    v = results.version(version)
    if BILL_SHARE not in set(results.table("claims", v)["claim_id"]):
        return {}
    preset = (
        f" The bill calculator's coding agent (workloads/coding-agent.yaml) puts output and "
        f"reasoning at {100 * values['agent_output_and_reasoning_share']:.0f}% of its bill on "
        f"Claude Opus 5.5 and {100 * spread[0]:.0f}% to {100 * spread[1]:.0f}% across its offers; "
        f"{PRESET_NOTE}."
        if values is not None and spread is not None
        else ""
    )
    if "agent" in left_out.reasons(NEEDS, v):
        why = left_out_why or "The release holds no leaderboard run with its bill split."
        return {BILL_SHARE: Evidence(BILL_SHARE, None, why + preset, SEC_AGENT, testable=False)}
    measured = bill_share_evidence(results.table("aa_snapshots", v))
    return {BILL_SHARE: replace(measured, text=measured.text + preset)}


def largest_model(models: pl.DataFrame, developer: str) -> dict | None:
    """The developer's model with the most parameters in the models table, or None."""
    rows = models.filter(pl.col("developer") == developer).drop_nulls("parameters_b")
    return rows.sort("parameters_b", descending=True).row(0, named=True) if rows.height else None


def claim_evidence(version: str | None = None) -> dict[str, Evidence]:
    """This page's evidence: the agent workload's claims and DeepSeek's company news (those of
    them the release's claims table holds)."""
    v = results.version(version)
    claims, models = results.table("claims", v), results.table("models", v)
    absent = left_out.reasons(NEEDS, v)
    big = largest_model(models, DEEPSEEK)
    biggest = (
        f"The largest DeepSeek model in the release, {big['model_id']}, has "
        f"{big['parameters_b'] / 1000:g} trillion parameters; a"
        if big
        else "A"
    )
    revenue = "Company revenue is in no table of the release; DeepSeek's own accounts would"
    found = {
        "opus-5-vs-grok-4.6-cost": (
            Evidence("opus-5-vs-grok-4.6-cost", None, absent["agent"], SEC_AGENT, testable=False)
            if "agent" in absent
            else opus_grok_evidence(
                results.table("aa_snapshots", v), models, results.table("token_prices", v)
            )
        ),
        "deepseek-2t-model": Evidence(
            "deepseek-2t-model",
            None,
            f"{biggest} model still in training is in no source: its model card or technical "
            "report, once published, would settle it.",
            SEC_DEEPSEEK,
            testable=False,
        ),
        "deepseek-raise": Evidence(
            "deepseek-raise",
            None,
            "Financing rounds are in no table of the release; an announcement by the company or "
            "its investors would settle it (the digest says the company has not confirmed it).",
            SEC_DEEPSEEK,
            testable=False,
        ),
        "deepseek-revenue-before": Evidence(
            "deepseek-revenue-before", None, f"{revenue} settle it.", SEC_DEEPSEEK, testable=False
        ),
        "deepseek-revenue-after": Evidence(
            "deepseek-revenue-after", None, f"{revenue} settle it.", SEC_DEEPSEEK, testable=False
        ),
    }
    if "deepseek" not in absent:
        rise = revenue_rise(claims)
        found[REVENUE_HEADLINE] = Evidence(
            REVENUE_HEADLINE,
            None,
            f"{revenue} settle it. The digest contradicts its own headline: from under "
            f"{millions(rise['before_usd'])} to about {millions(rise['after_usd'])} is a rise of "
            f"more than {Quote(rise['implied_factor'], 'stated_factor').text}, not "
            f"{Quote(rise['headline_factor'], 'stated_factor').text}, which would need revenue of "
            f"{millions(rise['before_for_headline_usd'])} before.",
            SEC_DEEPSEEK,
            testable=False,
        )
    found[CUTS_CLAIM] = cuts_apart_evidence(results.table("token_prices", v))
    held = set(claims["claim_id"])
    return {cid: e for cid, e in found.items() if cid in held}


# ------------------------------------------------------------------ the page


def compute(evidence: dict[str, Evidence], version: str | None = None) -> ClaimsLedger:
    """The appendix on data version `version` (None: the current one), from the evidence the
    registry collects for it (`analysis.evidence.collect(version)`: each chapter caches its own
    analysis). The table names each claim's section by its chapter's title (read, and
    recorded, at every call: the cached result is keyed by the titles)."""
    return _compute(evidence, results.version(version), titles.chapter_titles())


@cached  # on disk too: the second output format (a fresh kernel) reuses the first's appendix
def _compute(evidence: dict[str, Evidence], v: str, chapter_titles: dict[str, str]) -> ClaimsLedger:
    rows = ledger(evidence, v)
    claims = results.table("claims", v)
    absent = left_out.reasons(NEEDS, v)
    q = Quotes(SLUG)
    for part in (count_quotes(rows, v), rule_quotes(), type_quotes(claims), agent_quotes(rows)):
        q.update(part)
    q.update(own_quotes(claims, results.table("models", v), absent, v))
    q["cuts_sentence"] = Quote(cuts_sentence(rows))
    if absent:
        q.leave_out()  # the prose of the left-out sections still runs, and reads placeholders
    table = table_rows(rows, chapter_titles)
    return ClaimsLedger(
        version=v,
        ledger=rows,
        table=table,
        chart=chart_rows(rows),
        bands=rule_bands(),
        rules=cl.rule_table(),
        verdicts=[cl.SUPPORTED, cl.PARTLY, cl.CONTRADICTED],  # untested claims are not drawn
        memo=memo_rows(table, rows),
        q=q,
        left_out=absent,
    )


def cuts_sentence(rows: pl.DataFrame) -> str:
    """What the page says of CUTS_CLAIM: its verdict and evidence from the ledger, or that the
    release's claims table does not hold it yet."""
    row = rows.filter(pl.col("claim_id") == CUTS_CLAIM)
    if row.is_empty():
        return (
            "This release's claims table does not hold it: the digests' importer now does, and "
            "a release built with it tests it here."
        )
    r = row.row(0, named=True)
    return f"The ledger rates it {r['verdict']}: {names.in_text(r['evidence'])}"


def ledger_row(rows: pl.DataFrame, claim_id: str) -> dict | None:
    """The ledger's row of one claim, or None when the release's claims table lacks it."""
    found = rows.filter(pl.col("claim_id") == claim_id)
    return found.row(0, named=True) if found.height else None


def agent_quotes(rows: pl.DataFrame) -> dict[str, Quote]:
    """The ledger's verdict and evidence of the agent workload's claims, for the page's agent
    section (those of them the release holds)."""
    share, ratio = ledger_row(rows, BILL_SHARE), ledger_row(rows, RATIO_CLAIM)
    q = {}
    if share:
        q["verdict_agent_bill_share"] = Quote(share["verdict"])
        q["evidence_agent_bill_share"] = Quote(names.in_text(share["evidence"]))
    if ratio:
        q["verdict_opus_grok_ratio"] = Quote(ratio["verdict"])
    return q


def count_quotes(rows: pl.DataFrame, v: str) -> dict[str, Quote]:
    """Claims and digests, claims per verdict, the pages the evidence comes from, and the claims
    no chapter gives evidence for."""
    n = cl.verdict_counts(rows)
    n_pages = rows.filter(pl.col("section") != "")["section"].str.split("#").list.first().n_unique()
    missing = rows.filter(pl.col("section") == "")
    # The rule's example: the digests' "roughly 13x" decline and the band its tolerance allows.
    decline = rows.filter(pl.col("claim_id") == "epoch-fixed-capability-decline").row(0, named=True)
    decline_tol, _ = cl.tolerance_for(decline["unit"])
    return {
        "decline_claimed": Quote(decline["claimed"], "stated_factor"),
        "decline_low": Quote(decline["claimed"] * (1 - decline_tol), "stated_factor"),
        "decline_high": Quote(decline["claimed"] * (1 + decline_tol), "stated_factor"),
        "version": Quote(v),
        "n_claims": Quote(rows.height, "count"),
        "n_digests": Quote(rows["digest_file"].n_unique(), "count"),
        "first_digest": Quote(rows["digest_date"].min(), "day"),
        "last_digest": Quote(rows["digest_date"].max(), "day"),
        "n_supported": Quote(n[cl.SUPPORTED], "count"),
        "n_partly": Quote(n[cl.PARTLY], "count"),
        "n_contradicted": Quote(n[cl.CONTRADICTED], "count"),
        "n_untestable": Quote(n[cl.UNTESTABLE], "count"),
        "n_tested": Quote(rows.height - n[cl.UNTESTABLE], "count"),
        "n_modules": Quote(n_pages, "count"),
        "missing": Quote(
            "Every claim has its evidence from a chapter in this rendering."
            if missing.height == 0
            else f"In this rendering {missing.height:,} claims have no chapter's evidence yet; "
            "the rule counts them as claims that cannot be tested."
        ),
    }


def rule_quotes() -> dict[str, Quote]:
    """The verdict rule in words (`methods.claims.rule`) and its two numbers."""
    words = cl.rule()
    return {
        "tolerance": Quote(cl.TOLERANCE, "share"),
        "partly_band": Quote(cl.PARTLY_BAND, "count"),
        "n_claim_types": Quote(len(cl.TYPE_RULES), "count"),
        "n_units": Quote(len(cl.UNIT_TOLERANCES), "count"),
        "like_for_like": Quote("; ".join(cl.LIKE_FOR_LIKE)),
        "rule_supported": Quote(words[cl.SUPPORTED]),
        "rule_partly": Quote(words[cl.PARTLY]),
        "rule_contradicted": Quote(words[cl.CONTRADICTED]),
        "rule_untestable": Quote(words[cl.UNTESTABLE]),
        "verdict_supported": Quote(cl.SUPPORTED),
        "verdict_partly": Quote(cl.PARTLY),
        "verdict_contradicted": Quote(cl.CONTRADICTED),
        "verdict_untestable": Quote(cl.UNTESTABLE),
    }


def and_join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def type_quotes(claims: pl.DataFrame) -> dict[str, Quote]:
    """The claims of the table that `cl.CLAIM_TYPES` reads as other than a point, and the words
    that make them so (an older release holds fewer claims)."""
    held = {cid: tw for cid, tw in cl.CLAIM_TYPES.items() if cid in set(claims["claim_id"])}
    for cid, (_, words) in held.items():
        if words.lower() not in cl.claim_row(claims, cid)["claim"].lower():
            raise ValueError(f"cl.CLAIM_TYPES: the words {words!r} are not in claim {cid!r}")
    return {
        "n_typed": Quote(len(held), "count"),
        "typed_words": Quote(and_join([f"\u201c{w}\u201d ({kind})" for kind, w in held.values()])),
    }


def own_quotes(
    claims: pl.DataFrame, models: pl.DataFrame, absent: dict[str, str], v: str
) -> dict[str, Quote]:
    """This page's sections: the claims' words, the revenue figures, the largest DeepSeek model,
    and the Artificial Analysis snapshots the Opus-Grok claim was looked for in (those of the
    sections the release can show: `absent` names the others)."""
    big = largest_model(models, DEEPSEEK)
    held = set(claims["claim_id"])
    # Each claim's words under a name of its own (`CLAIM_QUOTES`), for the sections that quote it.
    q = {
        name: Quote(cl.claim_row(claims, cid)["claim"])
        for name, cid in CLAIM_QUOTES.items()
        if cid in held
    }
    q.update(
        {
            "n_deepseek_claims": Quote(len(DEEPSEEK_CLAIMS), "count"),
            "deepseek_largest": Quote(big["model_id"], "model") if big else Quote("none"),
            "deepseek_largest_trillion": Quote(big["parameters_b"] / 1000 if big else 0, "number"),
            "opus_name": Quote(OPUS, "model"),
            "grok_name": Quote(GROK, "model"),
        }
    )
    if "deepseek" not in absent:
        rise = revenue_rise(claims)
        q.update(
            {
                "revenue_before": Quote(millions(rise["before_usd"])),
                "revenue_after": Quote(millions(rise["after_usd"])),
                "revenue_implied_factor": Quote(rise["implied_factor"], "stated_factor"),
                "revenue_headline_factor": Quote(rise["headline_factor"], "stated_factor"),
                "revenue_before_for_headline": Quote(millions(rise["before_for_headline_usd"])),
            }
        )
    if "agent" not in absent:
        aa = results.table("aa_snapshots", v)
        dates = aa["snapshot_date"]
        q.update(
            {
                "aa_n_snapshots": Quote(dates.n_unique(), "count"),
                "aa_first": Quote(dates.min(), "day"),
                "aa_last": Quote(dates.max(), "day"),
                "aa_n_opus": Quote(aa.filter(pl.col("model_id") == OPUS).height, "count"),
                "aa_n_grok": Quote(aa.filter(pl.col("model_id") == GROK).height, "count"),
            }
        )
    return q


# ------------------------------------------------------------------ display frames


def claimed_text(value: float, high: float | None, unit: str, kind: str) -> str:
    """The claimed value as the table shows it: `2.85 to 3.5 USD per GPU-hour`, `< 0.01 USD`,
    `up to 50 percent`."""
    shown = f"{value:g}" if high is None else f"{value:g} to {high:g}"
    sign = {"ceiling": "< ", "upper bound": "up to ", "lower bound": "\u2265 "}.get(kind, "")
    return f"{sign}{shown} {unit}"


def evidence_text(row: dict) -> str:
    """Value (interval), n and window, then the evidence's sentence, with display names for the
    ids the chapters' sentences name (`names.in_text`; the ledger's CSV keeps the ids)."""
    parts = []
    if row["evidence_value"] is not None:
        value = Quote(row["evidence_value"], "number").text
        low, high = row["evidence_low"], row["evidence_high"]
        if low is not None and high is not None and low != high:
            value += f" ({Quote((low, high), 'number').text})"
        parts.append(value)
    if row["evidence_n"] is not None:
        parts.append(f"n = {row['evidence_n']:,}")
    if row["evidence_window"]:
        parts.append(row["evidence_window"])
    head = "; ".join(parts)
    text = f"{head}. {row['evidence']}" if head else row["evidence"]
    if row["evidence_value"] is not None:
        text += f" Judged as a {row['claim_type']}, tolerance {row['tolerance']:.0%}."
    if row["like_for_like"]:
        text += f" Like-for-like: {row['like_for_like']}"
    if row["estimate_id"]:
        text += f" The book's estimate `{row['estimate_id']}`."
    return names.in_text(text)


def section_link(section: str, chapter_titles: dict[str, str] | None = None) -> str:
    """`chapters/price-war.qmd#sec-x` as a Markdown link to the rendered page's section, named
    by the chapter's title where `chapter_titles` ({slug: title}) has it."""
    if not section:
        return ""
    page, _, anchor = section.partition("#")
    name = page.removeprefix("chapters/").removesuffix(".qmd")
    shown = (chapter_titles or {}).get(name, name)
    return f"[{shown}]({name}.html{'#' + anchor if anchor else ''})"


def table_rows(rows: pl.DataFrame, chapter_titles: dict[str, str] | None = None) -> pl.DataFrame:
    """The page's table: one row per claim, in display text."""
    return pl.DataFrame(
        [
            {
                "claim": f"\u201c{r['claim']}\u201d",
                "digest": f"{r['digest_date']}" if r["digest_date"] else r["digest_file"],
                "subject": r["subject"],
                "claimed": claimed_text(
                    r["claimed"], r["claimed_high"], r["unit"], r["claim_type"]
                ),
                "verdict": r["verdict"],
                "evidence": evidence_text(r),
                "section": section_link(r["section"], chapter_titles),
            }
            for r in rows.iter_rows(named=True)
        ],
        schema={c: pl.String for c in ("claim", "digest", "subject", "claimed", "verdict")}
        | {"evidence": pl.String, "section": pl.String},
    )


def chart_rows(rows: pl.DataFrame) -> pl.DataFrame:
    """The ledger with dates as ISO text: the figure draws the tested claims, and its data (the
    figure kit's CSV) is the whole ledger."""
    return rows.with_columns(pl.col(pl.Date).cast(pl.String))


def memo_rows(table: pl.DataFrame, rows: pl.DataFrame) -> pl.DataFrame:
    """The page's table rows of `MEMO_CLAIMS`, in that order."""
    order = {cid: i for i, cid in enumerate(MEMO_CLAIMS)}
    picked = table.with_columns(rows["claim_id"]).filter(pl.col("claim_id").is_in(MEMO_CLAIMS))
    return picked.sort(pl.col("claim_id").replace_strict(order)).drop("claim_id")


def rule_bands(tolerance: float = cl.TOLERANCE, band: int = cl.PARTLY_BAND) -> pl.DataFrame:
    """The verdict rule as bands of evidence over claim, for the commonest tolerance (prices and
    multiples): within it a value is supported, within `band` times it partly supported."""
    return pl.DataFrame(
        {
            "band": [
                f"{cl.SUPPORTED}: within {tolerance:.0%}",
                f"{cl.PARTLY}: within {band * tolerance:.0%}",
            ],
            "low": [1 - tolerance, 1 - band * tolerance],
            "high": [1 + tolerance, 1 + band * tolerance],
        }
    )
