"""What "The autumn-2026 price war" chapter's prose quotes, and the evidence for the digest
claims it discusses.

The page itself shows, in folded cells, how it loads the prices and makes each figure and table
(`price_war.cuts`, `time_of_use.offer_on` and `rises_over_flat_card`, `price_war.cny_cards`);
the quote functions here (`cut_quotes` and one per section) call the same methods and name each
quote literally. `compute(version)` returns a `PriceWar`: the data version, the day the
time-of-use section reads the cards on, `q` (the chapter's `Quotes`) and the evidence;
`claim_evidence(version)` gives one `claims.Evidence` per claim the chapter discusses (the
claims ledger gathers them).

Every choice the prose states is a named constant here: the window of the cuts, each new
model's predecessor, the trend the cuts are set against, the workload a budget is costed on,
the rate card source and model of the time-of-use section.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import polars as pl

from analysis.data.cache import cached
from analysis.data.reads import memo
from analysis.methods import list_prices, price_war, prices
from analysis.methods import time_of_use as tou
from analysis.methods.claims import Evidence, claim_row, untestable
from analysis.report import estimates, left_out, results, verdicts
from analysis.report.quote import Quote, Quotes
from analysis.report.verdicts import TOU_MODEL, TOU_PROVIDER, TOU_SOURCE, WORKLOAD

SLUG = "price-war"
PAGE = "chapters/price-war.qmd"
# The price war's window: the September-October 2026 price tables.
WINDOW = (date(2026, 9, 1), date(2026, 10, 31))
# Each new model of the window -> the model of the same line and tier it replaced. GPT-6 Astra
# has no predecessor at its tier (no GPT-5.6 model at its price), so it is not a cut.
PREDECESSORS = {
    "claude-opus-5.5": "claude-opus-5",
    "claude-fable-5.1": "claude-fable-5",
    "gpt-6-sol": "gpt-5.6-sol",
    "gpt-6-luna": "gpt-5.6-luna",
    "gemini-3.8-flash": "gemini-3.7-flash",
}
# The trend the cuts are set against: the cheapest-model series the token-prices chapter shows
# (a16z's monthly minimum, fitted over the full data); the quality-adjusted frontier trend is
# the robustness check.
TREND = "a16z-full-window"
FRONTIER_TREND = "hedonic-gpqa-frontier"
# The stated workload (`verdicts.WORKLOAD`: 300M input and 100M output tokens a month)
# and the time-of-use rate card, provider and model: the routing claim's evidence is built in
# the report layer (`verdicts.batch_routing`), and this page reads the same offer.
SCHEDULED_MODEL = "gemini-3.8-flash"
TOU_MODELS = ["deepseek-v4-flash", "deepseek-v4-pro"]
# The day the section reads the cards on: the date of the digests' batch-routing claim.
TOU_CLAIM = verdicts.ROUTING_CLAIM
TOU_CURRENCIES = ["USD", "CNY"]
RISE_CURRENCY = "CNY"  # the flat card survives in the CNY table only
RISE_BUCKETS = ("input", "output")  # cache-hit rates are a few fen: ratios of them mislead
OPEN_MODEL_CLAIM = verdicts.SPREAD_CLAIM
SUB_CENT_CLAIM = "sub-cent-token-rates"
CNY_CLAIM = "deepseek-flash-idle-price-cny"
# DeepSeek's Flash models: V4 Flash, and V4.1 Flash (API name deepseek-flash) from 2026-09-10.
FLASH_MODELS = ["deepseek-v4-flash", "deepseek-flash"]

# The whole page needs the autumn-2026 sources: releases before 2026-12-01.2 leave it out.
NEEDS = left_out.Needs(
    "DeepSeek's time-of-use rate cards, and prices dated September-October 2026",
    tables=("tou_windows",),
    rows=("token_prices", lambda prices: prices.filter(pl.col("date").is_between(*WINDOW))),
    scope="chapter",
)

SECTIONS = {
    "cuts": f"{PAGE}#sec-price-war-cuts",
    "gemini": f"{PAGE}#sec-price-war-gemini",
    "tou": verdicts.ROUTING_SECTION,
    "cny": f"{PAGE}#sec-price-war-cny",
    "spread": verdicts.SPREAD_SECTION,
}
CLAIM_IDS = [
    "opus-5.5-input-price",
    "opus-5.5-output-price",
    "gpt-6-sol-input-price",
    "gpt-6-sol-output-price",
    "gemini-3.8-flash-price-doubling",
    "deepseek-flash-idle-price-cny",
    "deepseek-flash-idle-price-usd",
    "deepseek-api-price-rise",
    "deepseek-v4-pro-peak-multiple",
    "deepseek-v4-pro-peak-windows",
    "deepseek-batch-routing-saving",
    "glm-5.3-flash-price",
    "glm-5.3-flash-discount",
    "open-model-provider-spread",
    "sub-cent-token-rates",
]
# Claimed list prices: claim id -> (model id in the data, price column).
PRICE_CLAIMS = {
    "opus-5.5-input-price": ("claude-opus-5.5", "input_usd_per_mtok"),
    "opus-5.5-output-price": ("claude-opus-5.5", "output_usd_per_mtok"),
    "gpt-6-sol-input-price": ("gpt-6-sol", "input_usd_per_mtok"),
    "gpt-6-sol-output-price": ("gpt-6-sol", "output_usd_per_mtok"),
}


@dataclass(frozen=True)
class PriceWar:
    """What the page's cells read besides the tables (the data version, the day of the cards,
    the heatmap's model and source), its quotes, and its claim evidence."""

    version: str  # the data version; the page finds its cuts from it (price_war.cuts)
    tou_on: date | None  # the day the time-of-use section reads DeepSeek's cards on
    tou_model_name: str  # the heatmap's model and source
    tou_source: str
    evidence: dict[str, Evidence]
    q: Quotes
    # Why the data version cannot show the page (`NEEDS`), or None; its cells draw nothing then.
    left_out: str | None = None

    @property
    def shown(self) -> bool:
        return self.left_out is None


def compute(version: str | None = None) -> PriceWar:
    """The chapter's analysis of data version `version` (None: the current one), once per
    version and process."""
    return _compute(results.version(version))


def claim_evidence(version: str | None = None) -> dict[str, Evidence]:
    """One Evidence per claim id of `CLAIM_IDS`, in the claim's own unit."""
    return compute(version).evidence


@memo
@cached  # on disk too: the second output format, and later renders, reuse the result
def _compute(v: str) -> PriceWar:
    why = left_out.reason(NEEDS, v)
    if why:
        return _left_out(v, why)
    token_prices, claims, models = (
        results.table(t, v) for t in ("token_prices", "claims", "models")
    )
    fx_rates, windows = results.table("fx_rates", v), results.table("tou_windows", v)
    named = price_war.names(models)
    q = Quotes(SLUG)
    evidence: dict[str, Evidence] = {}
    q["version"] = Quote(v)
    q["removed"] = Quote(results.removed_text(("token_prices",), v))

    trend = estimates.estimate(TREND, v)
    cut_frame = price_war.named_by_id(
        price_war.cuts(token_prices, PREDECESSORS, *WINDOW, trend.interval)
    )
    q.update(cut_quotes(cut_frame, token_prices))
    q["trend_factor"] = trend
    frontier = estimates.estimate(FRONTIER_TREND, v)
    robust = price_war.cuts(token_prices, PREDECESSORS, *WINDOW, frontier.interval)
    same = (robust["verdict"] == cut_frame["verdict"]).sum()
    q["frontier_factor"] = frontier
    q["n_same_verdict"] = Quote(int(same), "count")
    evidence.update(price_claims(token_prices, claims))

    evidence.update(gemini_section(token_prices, claims, q))
    evidence.update(tou_section(token_prices, windows, claims, q, v))
    evidence.update(cny_section(token_prices, fx_rates, claims, named, q))
    evidence.update(spread_section(v, named, q))
    evidence.update(lowest_section(token_prices, claims, named, q))
    evidence.update(glm_evidence(token_prices, claims))
    missing = set(CLAIM_IDS) ^ set(evidence)
    if missing:
        raise AssertionError(f"claim evidence does not match CLAIM_IDS: {sorted(missing)}")
    return PriceWar(
        version=v,
        tou_on=claim_row(claims, TOU_CLAIM)["claim_date"],
        tou_model_name=named.get(TOU_MODEL, TOU_MODEL),
        tou_source=TOU_SOURCE,
        evidence={c: evidence[c] for c in CLAIM_IDS},
        q=q,
    )


def _left_out(v: str, why: str) -> PriceWar:
    """The page for a data version without the autumn-2026 sources: the reason, and the digest
    claims it holds marked untestable for it."""
    q = Quotes(SLUG)
    q["version"] = Quote(v)
    q["left_out"] = Quote(why)
    q.leave_out()
    return PriceWar(
        version=v,
        tou_on=None,
        tou_model_name=TOU_MODEL,
        tou_source=TOU_SOURCE,
        evidence=left_out_evidence(v, why),
        q=q,
        left_out=why,
    )


def left_out_evidence(v: str, why: str) -> dict[str, Evidence]:
    """The claims of `CLAIM_IDS` the claims table holds, for a data version without the autumn
    sources: untestable for `why`, but those whose evidence the report layer builds
    (`verdicts.EVIDENCE`) keep that evidence, so the ledger says one thing of them."""
    claims = results.table("claims", v)
    mine = [c for c in CLAIM_IDS if c not in verdicts.EVIDENCE]
    out = untestable(mine, claims, why, SECTIONS["cuts"])
    built = {c: verdicts.EVIDENCE[c](v) for c in CLAIM_IDS if c in verdicts.EVIDENCE}
    out.update({c: e for c, e in built.items() if e is not None})
    return {c: out[c] for c in CLAIM_IDS if c in out}


# ------------------------------------------------------------------ the cuts


def cut_quotes(cut_frame: pl.DataFrame, token_prices: pl.DataFrame) -> dict[str, Quote]:
    """What the prose of the cuts section quotes, each by its name."""
    opus = price_war.cut_of(cut_frame, "claude-opus-5.5")
    sol = price_war.cut_of(cut_frame, "gpt-6-sol")
    luna = price_war.cut_of(cut_frame, "gpt-6-luna")
    fable = price_war.cut_of(cut_frame, "claude-fable-5.1")
    gemini = price_war.cut_of(cut_frame, "gemini-3.8-flash")
    out = {
        "window": Quote(WINDOW, "day"),
        "n_cuts": Quote(cut_frame.height, "count"),
        "n_break": Quote(price_war.n_verdict(cut_frame, price_war.BREAK), "count"),
        "n_no_cut": Quote(price_war.n_verdict(cut_frame, price_war.NO_CUT), "count"),
        "opus_name": Quote(opus["model_id"], "model"),
        "opus_prev_name": Quote(opus["previous_model_id"], "model"),
        "opus_date": Quote(opus["date"], "day"),
        "opus_input": Quote(opus["input"], "usd"),
        "opus_output": Quote(opus["output"], "usd"),
        "opus_prev_input": Quote(opus["previous_input"], "usd"),
        "opus_prev_output": Quote(opus["previous_output"], "usd"),
        "opus_factor": Quote(opus["factor"], "factor"),
        "opus_days": Quote(opus["days"], "count"),
        "opus_per_year": Quote(opus["factor_per_year"], "factor"),
        "opus_trend_span": Quote(opus["trend_factor_over_span"], "factor"),
        "opus_verdict": Quote(opus["verdict"]),
        "sol_name": Quote(sol["model_id"], "model"),
        "sol_prev_name": Quote(sol["previous_model_id"], "model"),
        "sol_input": Quote(sol["input"], "usd"),
        "sol_output": Quote(sol["output"], "usd"),
        "sol_prev_input": Quote(sol["previous_input"], "usd"),
        "sol_prev_output": Quote(sol["previous_output"], "usd"),
        "sol_factor": Quote(sol["factor"], "factor"),
        "sol_days": Quote(sol["days"], "count"),
        "sol_per_year": Quote(sol["factor_per_year"], "factor"),
        "sol_verdict": Quote(sol["verdict"]),
        "luna_name": Quote(luna["model_id"], "model"),
        "luna_prev_name": Quote(luna["previous_model_id"], "model"),
        "luna_factor": Quote(luna["factor"], "factor"),
        "luna_days": Quote(luna["days"], "count"),
        "luna_per_year": Quote(luna["factor_per_year"], "factor"),
        "fable_name": Quote(fable["model_id"], "model"),
        "gemini_name": Quote(gemini["model_id"], "model"),
    }
    # GPT-5.6 Sol was also sold at a promotional price before GPT-6 Sol: the cut against it.
    promo = price_war.promotional_before(token_prices, sol["previous_model_id"], sol["date"])
    if promo:
        out["sol_promo_input"] = Quote(promo["input_usd_per_mtok"], "usd")
        out["sol_promo_output"] = Quote(promo["output_usd_per_mtok"], "usd")
        out["sol_promo_since"] = Quote(promo["date"], "day")
        out["sol_promo_factor"] = Quote(promo[price_war.BLENDED] / sol["blended"], "factor")
    return out


def price_claims(token_prices: pl.DataFrame, claims: pl.DataFrame) -> dict[str, Evidence]:
    """The claimed list prices against the first-party price tables (digest rows left out)."""
    rows = price_war.comparable_rows(token_prices).filter(pl.col("price_kind") == "list")
    out = {}
    for claim_id, (model, col) in PRICE_CLAIMS.items():
        own = rows.filter(pl.col("model_id") == model, pl.col("date").is_between(*WINDOW))
        if own.height == 0:
            raise LookupError(f"{claim_id}: no list price of {model} in {WINDOW}")
        sources = sorted({s for ids in own["source_ids"] for s in ids.split(";")})
        out[claim_id] = Evidence(
            claim_id,
            float(own[col].median()),
            f"First-party list price of {model} ({col}) in the price tables of "
            f"{', '.join(sources)}, standard context tier, digest rows left out: "
            f"{own[col].min():g} to {own[col].max():g} USD per 1M tokens.",
            SECTIONS["cuts"],
            low=float(own[col].min()),
            high=float(own[col].max()),
            n=len(sources),
            window=f"{own['date'].min()} to {own['last_seen'].max()}",
        )
    return out


# ------------------------------------------------------------------ Gemini's scheduled doubling


def gemini_section(
    token_prices: pl.DataFrame, claims: pl.DataFrame, q: Quotes
) -> dict[str, Evidence]:
    claim = claim_row(claims, "gemini-3.8-flash-price-doubling")
    on = claim["claim_date"]
    budget = price_war.scheduled_change(
        token_prices, SCHEDULED_MODEL, on, WORKLOAD.input_mtok, WORKLOAD.output_mtok
    )
    rows = price_war.comparable_rows(token_prices).filter(pl.col("model_id") == SCHEDULED_MODEL)
    before = rows.filter(pl.col("date") == budget.before_date).row(0, named=True)
    after = rows.filter(pl.col("date") == on).row(0, named=True)
    q.update(
        {
            "workload_input": Quote(WORKLOAD.input_mtok, "number"),
            "workload_output": Quote(WORKLOAD.output_mtok, "number"),
            "gemini_change_date": Quote(on, "day"),
            "gemini_before_kind": Quote(before["price_kind"]),
            "gemini_before_input": Quote(before["input_usd_per_mtok"], "usd"),
            "gemini_before_output": Quote(before["output_usd_per_mtok"], "usd"),
            "gemini_after_input": Quote(after["input_usd_per_mtok"], "usd"),
            "gemini_after_output": Quote(after["output_usd_per_mtok"], "usd"),
            "gemini_bill_before": Quote(budget.before, "usd"),
            "gemini_bill_after": Quote(budget.after, "usd"),
            "gemini_bill_factor": Quote(budget.factor, "factor"),
            "gemini_bill_extra": Quote(budget.after - budget.before, "usd"),
            "gemini_seen": Quote(before["date"], "day"),
            "gemini_last_seen": Quote(before["last_seen"], "day"),
        }
    )
    factors = (budget.input_factor, budget.output_factor)
    return {
        "gemini-3.8-flash-price-doubling": Evidence(
            "gemini-3.8-flash-price-doubling",
            budget.factor,
            f"Gemini 3.8 Flash's price dated {on} over the one it replaces (first seen "
            f"{before['date']}, {before['price_kind']}): input x{budget.input_factor:g}, output "
            f"x{budget.output_factor:g}; a workload of {WORKLOAD.input_mtok:g}M input and "
            f"{WORKLOAD.output_mtok:g}M output tokens a month costs x{budget.factor:g}.",
            SECTIONS["gemini"],
            low=min(factors),
            high=max(factors),
            n=2,
            window=f"{before['date']} to {on}",
        )
    }


# ------------------------------------------------------------------ DeepSeek time of use


def tou_section(
    token_prices: pl.DataFrame, windows: pl.DataFrame, claims: pl.DataFrame, q: Quotes, v: str
) -> dict[str, Evidence]:
    # The routing claim's evidence and the offer it reads (one computation with the ledger's).
    routing = verdicts.batch_routing(v)
    on, offer, saving = routing.on, routing.offer, routing.saving
    start = tou.regime_start(windows, TOU_SOURCE)
    flat_on = tou.flat_card_day(windows, TOU_SOURCE)
    live, schedule, peak, off = offer.windows, offer.schedule, offer.peak, offer.off_peak
    hourly = tou.hourly_prices(schedule, peak, off, WORKLOAD)

    # Peak / off-peak multiples, every bucket, both currencies.
    multiples = []
    for cur in TOU_CURRENCIES:
        o = tou.offer_on(token_prices, windows, TOU_SOURCE, TOU_PROVIDER, TOU_MODEL, cur, on)
        multiples += [r["ratio"] for r in tou.rate_ratios(o.peak, o.off_peak, cur)]
    workload_multiple = tou.bill(peak, WORKLOAD) / tou.bill(off, WORKLOAD)

    # The rise against the flat card the time-of-use card replaced.
    rises = tou.rises_over_flat_card(
        token_prices, windows, TOU_SOURCE, TOU_PROVIDER, TOU_MODELS, RISE_CURRENCY, on
    )
    counted = rises.filter(pl.col("bucket").is_in(RISE_BUCKETS))
    pro = tou.offer_on(
        token_prices, windows, TOU_SOURCE, TOU_PROVIDER, TOU_MODEL, RISE_CURRENCY, on
    )
    pro_flat = tou.flat_card(
        token_prices, windows, TOU_SOURCE, TOU_PROVIDER, TOU_MODEL, RISE_CURRENCY
    )
    pro_spread = tou.routing_saving(schedule, pro.peak, pro.off_peak, WORKLOAD).spread
    pro_rise = pro_spread / tou.bill(pro_flat, WORKLOAD)

    weekday, weekend = tou.windows_per_day(live, "mon"), tou.windows_per_day(live, "sat")
    spans = sorted({(r["start_hour_utc"], r["end_hour_utc"]) for r in live.iter_rows(named=True)})
    q.update(
        {
            "tou_start": Quote(start.date(), "day"),
            "tou_start_hour": Quote(f"{start:%H:%M} UTC"),
            "tou_on": Quote(on, "day"),
            "tou_windows_text": Quote(" and ".join(f"{s:02d}:00-{e:02d}:00" for s, e in spans)),
            "tou_n_windows": Quote(weekday, "count"),
            "tou_n_weekend_windows": Quote(weekend, "count"),
            "tou_peak_hours": Quote(saving.peak_hours_per_week, "count"),
            "tou_peak_share": Quote(saving.peak_hours_per_week / tou.HOURS_PER_WEEK, "share"),
            "tou_peak_input": Quote(peak.input, "usd"),
            "tou_peak_output": Quote(peak.output, "usd"),
            "tou_off_input": Quote(off.input, "usd"),
            "tou_off_output": Quote(off.output, "usd"),
            "tou_multiple": Quote(workload_multiple, "factor"),
            "tou_multiple_range": Quote(
                "the same in every bucket of both currencies"
                if min(multiples) == max(multiples)
                else f"from {Quote((min(multiples), max(multiples)), 'factor').text} across buckets and currencies"
            ),
            "tou_bill_peak": Quote(saving.all_peak, "usd"),
            "tou_bill_spread": Quote(saving.spread, "usd"),
            "tou_bill_off": Quote(saving.off_peak, "usd"),
            "tou_saving_spread": Quote(saving.saving_from_spread, "share"),
            "tou_saving_peak": Quote(saving.saving_from_peak, "share"),
            "tou_hour_low": Quote(hourly["price_per_mtok"].min(), "usd"),
            "tou_hour_high": Quote(hourly["price_per_mtok"].max(), "usd"),
            "rise_claim": Quote(
                (
                    claim_row(claims, "deepseek-api-price-rise")["value"],
                    claim_row(claims, "deepseek-api-price-rise")["value_high"],
                ),
                "stated_factor",
            ),
            "rise_flat_on": Quote(flat_on, "day"),
            "rise_range": Quote((counted["ratio"].min(), counted["ratio"].max()), "factor"),
            "rise_off_range": Quote(
                tuple(counted.filter(pl.col("card") == "off-peak")["ratio"].sort()[[0, -1]]),
                "factor",
            ),
            "rise_peak_range": Quote(
                tuple(counted.filter(pl.col("card") == "peak")["ratio"].sort()[[0, -1]]), "factor"
            ),
            "rise_pro_workload": Quote(pro_rise, "factor"),
            "rise_n": Quote(counted.height, "count"),
            "rise_cached_max": Quote(
                rises.filter(pl.col("bucket") == "cached_input")["ratio"].max(), "factor"
            ),
        }
    )
    window = f"{start.date()} to {on}"
    rise_claim = claim_row(claims, "deepseek-api-price-rise")
    evidence = {
        "deepseek-v4-pro-peak-multiple": Evidence(
            "deepseek-v4-pro-peak-multiple",
            workload_multiple,
            f"{TOU_MODEL} peak over off-peak rate in force on {on} ({TOU_SOURCE}): every bucket in "
            f"USD and CNY {min(multiples):g}x to {max(multiples):g}x; the stated workload's bill "
            f"x{workload_multiple:g}.",
            SECTIONS["tou"],
            low=min(multiples),
            high=max(multiples),
            n=len(multiples),
            window=window,
        ),
        "deepseek-v4-pro-peak-windows": Evidence(
            "deepseek-v4-pro-peak-windows",
            float(weekday),
            f"Peak windows in force on {on} in {TOU_SOURCE}'s newest copy: {weekday} a weekday "
            f"({' and '.join(f'{s:02d}-{e:02d}' for s, e in spans)} UTC), {weekend} on weekends.",
            SECTIONS["tou"],
            n=live.height,
            window=window,
        ),
        TOU_CLAIM: routing.evidence,
        "deepseek-api-price-rise": Evidence(
            "deepseek-api-price-rise",
            pro_rise,
            f"Time-of-use {RISE_CURRENCY} rates over the flat card in force on {flat_on}, "
            f"{' and '.join(TOU_MODELS)}, {' and '.join(RISE_BUCKETS)} tokens, off-peak and peak: "
            f"{counted['ratio'].min():g}x to {counted['ratio'].max():g}x ({counted.height} rates); "
            f"{TOU_MODEL}'s bill for the stated workload spread over the week x{pro_rise:.3g}.",
            SECTIONS["tou"],
            low=float(counted["ratio"].min()),
            high=float(counted["ratio"].max()),
            n=counted.height,
            window=f"{flat_on} to {rise_claim['claim_date']}",
        ),
    }
    return evidence


# ------------------------------------------------------------------ CNY prices


def cny_section(
    token_prices: pl.DataFrame,
    fx_rates: pl.DataFrame,
    claims: pl.DataFrame,
    named: dict[str, str],
    q: Quotes,
) -> dict[str, Evidence]:
    """The time-of-use source's CNY cards at the month's rate, beside its separately published
    USD card; and the digest's conversion of the claimed Flash price."""
    cards = price_war.cny_cards(token_prices, fx_rates, TOU_PROVIDER, TOU_SOURCE, TOU_MODELS, named)
    gap = price_war.largest_conversion_gap(cards)

    claim = claim_row(claims, CNY_CLAIM)
    usd_claim = claim_row(claims, "deepseek-flash-idle-price-usd")
    at = prices.to_usd(
        pl.DataFrame({"currency": ["CNY"], "date": [claim["claim_date"]], "cny": [claim["value"]]}),
        fx_rates,
        ["cny"],
        max_carry_months=list_prices.MAX_FX_CARRY_MONTHS,
    ).row(0, named=True)
    flash = cards.filter(pl.col("name") == named.get("deepseek-v4-flash", "deepseek-v4-flash"))
    flash_off = flash.filter(pl.col("card") == "off-peak").row(-1, named=True)
    off_row = token_prices.filter(
        pl.col("model_id") == "deepseek-v4-flash",
        pl.col("price_kind") == "off-peak",
        pl.col("currency") == "CNY",
    ).row(0, named=True)
    q.update(
        {
            "fx_month": Quote(cards["fx_month"].max(), "month"),
            "fx_rate": Quote(cards["fx_per_usd"].max(), "number"),
            "fx_obs_month": Quote(cards["valid_from"].max(), "month"),
            "fx_gap": Quote(gap, "share"),
            "n_cny_cards": Quote(cards.height, "count"),
            "flash_claim_cny": Quote(claim["value"], "number"),
            "flash_claim_usd": Quote(usd_claim["value"], "usd"),
            "flash_claim_date": Quote(claim["claim_date"], "day"),
            "flash_claim_fx_month": Quote(at["fx_month"], "month"),
            "flash_claim_at_rate": Quote(at["cny_usd"], "usd"),
        }
    )
    flash_card = _flash_card_evidence(token_prices, claim, off_row)
    # What the page says of the claimed price follows the evidence: a card of the claim's day
    # (from a later source, or entered by hand with `data add`) makes it testable.
    q["flash_card"] = Quote(
        f"A card seen on {claim['claim_date']} charges {flash_card.value:g} yuan for off-peak "
        "cache-miss input, as the digest says"
        if flash_card.testable and abs(flash_card.value - claim["value"]) < 1e-9
        else (
            f"A card seen on {claim['claim_date']} charges {flash_card.value:g} yuan for off-peak "
            "cache-miss input, not what the digest says"
            if flash_card.testable
            else f"The price itself the data cannot test: the newest stored card, last seen on "
            f"{off_row['last_seen']}, still charges {flash_off['input_original_per_mtok']:g} yuan "
            f"for off-peak cache-miss input, and no copy of the card of {claim['claim_date']} is "
            "stored"
        ),
        "text",
    )
    # The conversion is tested on the price the data find, not on the digest's own number: a
    # conversion of a price the data cannot find cannot be tested either.
    usd_id = "deepseek-flash-idle-price-usd"
    fx_text = (
        f"FRED's CNY per USD rate of {at['fx_month']:%B %Y} ({at['fx_per_usd']:g}; the latest "
        f"month the series covers before {claim['claim_date']})"
    )
    usd_evidence = (
        Evidence(
            usd_id,
            flash_card.value / at["fx_per_usd"],
            f"The off-peak Flash price the data find ({flash_card.value:g} CNY per 1M cache-miss "
            f"input tokens) at {fx_text}.",
            SECTIONS["cny"],
            n=flash_card.n,
            window=f"{at['fx_month']:%Y-%m}",
            like_for_like="the card's own CNY price converted, not the digest's CNY number",
        )
        if flash_card.testable
        else Evidence(
            usd_id,
            None,
            f"The digest converts a price the data cannot find ({CNY_CLAIM}): its arithmetic "
            f"({claim['value']:g} CNY at {fx_text} is {at['cny_usd']:.3f} USD) is not the fact. "
            "A dated copy of DeepSeek's card of that day would settle both.",
            SECTIONS["cny"],
            window=f"{at['fx_month']:%Y-%m}",
            testable=False,
        )
    )
    return {CNY_CLAIM: flash_card, usd_id: usd_evidence}


def _flash_card_evidence(token_prices: pl.DataFrame, claim: dict, newest: dict) -> Evidence:
    """The claimed off-peak Flash input price against a CNY card of DeepSeek's Flash models seen
    on the claim's day (a digest's own row is a claim, not evidence); untestable without one."""
    on = claim["claim_date"]
    seen = token_prices.filter(
        pl.col("provider") == "deepseek",
        pl.col("model_id").is_in(FLASH_MODELS),
        pl.col("price_kind") == "off-peak",
        pl.col("currency") == "CNY",
        ~pl.col("source_id").str.starts_with("digest-"),
        pl.col("input_original_per_mtok").is_not_null(),
        pl.col("date") <= on,
        pl.coalesce("last_seen", "date") >= on,
    )
    if seen.is_empty():
        return Evidence(
            CNY_CLAIM,
            None,
            f"No stored rate card postdates {newest['last_seen']}: the newest off-peak card of "
            f"DeepSeek's Flash model (V4 Flash, from {newest['valid_from']}) charges "
            f"{newest['input_original_per_mtok']:g} CNY per 1M cache-miss input tokens; the claim "
            f"is about the card of {on}. A dated copy of DeepSeek's pricing page after that day "
            "would settle it.",
            SECTIONS["cny"],
            window=f"{newest['valid_from']} to {newest['last_seen']}",
            testable=False,
        )
    values = seen["input_original_per_mtok"]
    return Evidence(
        CNY_CLAIM,
        float(values.median()),
        f"Off-peak cache-miss input price, CNY per 1M tokens, of DeepSeek's Flash models on the "
        f"cards seen on {on} ({', '.join(sorted(set(seen['source_id'])))}).",
        SECTIONS["cny"],
        low=float(values.min()),
        high=float(values.max()),
        n=seen.height,
        window=f"{on}",
    )


# ------------------------------------------------------------------ the spread of open models


def spread_section(v: str, named: dict[str, str], q: Quotes) -> dict[str, Evidence]:
    """The provider spread of open models in the newest month of the data (dispersion's
    baseline selection), as the ledger's evidence builds it (`verdicts.open_model_spread`)."""
    spread = verdicts.open_model_spread(v)
    check, top = spread.check, spread.check["ratio_max_model"]
    q.update(
        {
            "spread_month": Quote(spread.month, "month"),
            "spread_claim": Quote(spread.threshold, "stated_factor"),
            "spread_n_models": Quote(check["n_models"], "count"),
            "spread_median": Quote(check["ratio_median"], "number"),
            "spread_p90": Quote(check["ratio_p90"], "number"),
            "spread_max": Quote(check["ratio_max"], "number"),
            "spread_max_model": Quote(named.get(top, top)),
            "spread_hits": Quote(check["n_model_months_reaching"], "count"),
            "spread_share": Quote(check["share_reaching"], "share"),
        }
    )
    return {OPEN_MODEL_CLAIM: spread.evidence}


# ------------------------------------------------------------------ the lowest rates


def lowest_section(
    token_prices: pl.DataFrame, claims: pl.DataFrame, named: dict[str, str], q: Quotes
) -> dict[str, Evidence]:
    claim = claim_row(claims, SUB_CENT_CLAIM)
    on = claim["claim_date"]
    low = price_war.lowest_rates(token_prices, on)
    by = {r["bucket"]: r for r in low.iter_rows(named=True)}
    cheapest = low.sort("usd_per_mtok").row(0, named=True)
    q.update(
        {
            "sub_cent_date": Quote(on, "day"),
            "low_input": Quote(by["input"]["usd_per_mtok"], "usd"),
            "low_input_model": Quote(named.get(by["input"]["model_id"], by["input"]["model_id"])),
            "low_cached": Quote(by["cached input"]["usd_per_mtok"], "usd"),
            "low_cached_model": Quote(
                named.get(by["cached input"]["model_id"], by["cached input"]["model_id"])
            ),
            "low_output": Quote(by["output"]["usd_per_mtok"], "usd"),
            # The rate of a time-of-use offer (DeepSeek's) that lowest_rates counts.
            "low_tou_rate": Quote(prices.TOU_STANDARD),
        }
    )
    # The claim is about the rates services offer: standard (list) input and output rates,
    # not cached-input, promotional, off-peak or batch ones.
    standard = price_war.lowest_rates(token_prices.filter(pl.col("price_kind") == "list"), on)
    standard = standard.filter(pl.col("bucket") != "cached input").sort("usd_per_mtok")
    best = standard.row(0, named=True)
    return {
        SUB_CENT_CLAIM: Evidence(
            SUB_CENT_CLAIM,
            best["usd_per_mtok"],
            f"Lowest positive standard (list) input or output rate in USD in force on {on}, any "
            f"seller, digests left out: {best['usd_per_mtok']:g} ({best['bucket']}, "
            f"{best['model_id']} at {best['provider']}). Of every kind: "
            + "; ".join(
                f"{b} {r['usd_per_mtok']:g} ({r['model_id']} at {r['provider']})"
                for b, r in by.items()
            )
            + f"; the lowest of all, {cheapest['usd_per_mtok']:g}, is a {cheapest['bucket']} rate.",
            SECTIONS["spread"],
            n=int(standard["n_rows"].max()),
            window=str(on),
            like_for_like=(
                "standard list rates for input or output tokens, the rates a service offers; "
                "cached-input, promotional, off-peak and batch rates are left out"
            ),
        )
    }


def glm_evidence(token_prices: pl.DataFrame, claims: pl.DataFrame) -> dict[str, Evidence]:
    """GLM-5.3-Flash: the only price in the data is the digest's own row."""
    rows = token_prices.filter(pl.col("model_id") == "glm-5.3-flash")
    others = rows.filter(~pl.col("source_id").str.starts_with(price_war.DIGEST_PREFIX))
    text = (
        f"The data price GLM-5.3-Flash only in the digest's own row ({others.height} rows from "
        "other sources); a dated copy of Zhipu's price page (CNY, with the promotion's terms) "
        "would settle it."
    )
    return {
        cid: Evidence(cid, None, text, SECTIONS["cny"], testable=False)
        for cid in ("glm-5.3-flash-price", "glm-5.3-flash-discount")
    }
