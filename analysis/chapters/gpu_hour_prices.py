"""What the "GPU-hour prices" chapter shows: the frames behind its figures and tables, and every
value its prose quotes.

`compute(version)` runs the chapter's analysis on one data release and returns a
`GpuHourPrices`: the frames the figures and tables take (prepared here, so
`analysis.figures.hardware` only draws) and `q`, the chapter's `Quotes`
(`` `{python} q.h100_od_factor` `` -> `1.06x`). The headline numbers (the H100 on-demand decline,
the latest hedonic index) are the registry's estimates (`analysis.report.estimates`); the fits
behind them come from `analysis.report.results`, so the chapter and the summary page share one
computation.

The section functions (`step_quotes`, `decline_quotes`, `hedonic_quotes`, ...) take the frames
and dicts that `analysis.methods.gpu_prices` returns and give a dict of quotes, so they can be
tested on small hand-made frames; the claim sections take the data tables. Quotes are named
after what they quote: `<gpu>_<pricing>_<what>` for decline rates, `index_*` for the hedonic
index, `settled_*` for the settled-price claim, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import polars as pl

from analysis import data
from analysis.data import gpu_evidence
from analysis.data.cache import cached
from analysis.data.reads import memo
from analysis.figures import hardware as fig
from analysis.methods import gpu_prices
from analysis.methods.claims import Evidence, claim_row, claim_verdict
from analysis.methods.gpu_prices import one_row, pct_change_per_year
from analysis.report import estimates, results
from analysis.report.names import gpu_name
from analysis.report.quote import Estimate, Quote, Quotes, fmt_count, fmt_month

SLUG = "gpu-hour-prices"

# Choices the chapter states in its prose (each is also a quote).
MAIN_GPUS = ["v100", "a100", "h100", "h200", "b200"]  # data-centre GPUs, longest price series
HISTORY_PRICINGS = ["on-demand", "spot", "index"]
# The price-history figure starts with the A100 era: before 2021 the data has a few V100 and
# TPU quotes a year, too thin for a monthly line.
HISTORY_SINCE = date(2021, 1, 1)
STEP_THRESHOLD = 3  # a source series rising more than this many times from one month to the next
STEP_GPUS = ["h200", "b200"]  # the spot series whose steps the prose describes
LEVEL = 0.90  # confidence level of every interval the chapter quotes
MIN_PROVIDER_MONTHS = 10  # decline table: groups with at least this many provider-months
MIN_MONTHS_PER_PROVIDER = 6  # provider drawdowns: providers quoted in at least this many months
DRAWDOWN_MIN_MONTHS = 6  # drawdown table: series of at least half a year
CLAIM_WINDOW_MONTHS = 12  # the settled-price claim is checked over the year to the claim
RECENT_SINCE_YEAR = 2020  # FLOP/s per dollar: the recent chips the prose names lie below the line
# The decline table shows each group on these variants, in this order.
TABLE_VARIANTS = ("direct", "all")
# The H100 decline's named variants (issue 19): without the restated reconstructions, and all rows.
H100_WITHOUT_RESTATED = "h100-on-demand-decline-without-restated"
H100_ALL = "h100-on-demand-decline-all"
H100_DECLINE = "h100-on-demand-decline"
LATEST_INDEX = "gpu-hedonic-index-latest"
SETTLED_CLAIM = "h100-cloud-price-settled"
DRAWDOWN_CLAIM = "h100-cloud-price-drawdown"
TPU_CLAIM = "tpu-v7-perf-per-dollar"
H100_CLAIMS = [DRAWDOWN_CLAIM, SETTLED_CLAIM]  # the claims whose evidence this chapter gives
SEC_CLAIMS = "sec-gpu-hour-prices-claims"  # the section that discusses them
TPU_CHALLENGER, TPU_INCUMBENT = "tpu-v7", "b200"
# The rows of the FLOP/s-per-dollar table: measure -> which trend.
FLOPS_MEASURES = {
    "purchase": "Purchase, FP32 at release",
    "rental": "Rental, FP16 per GPU-hour, direct observations",
    "rental_all": "Rental, FP16 per GPU-hour, all rows",
}


@dataclass(frozen=True)
class GpuHourPrices:
    """What the page reads besides its folded cells (which call the methods themselves): the
    data version, the evidence for the digests' claims, and the quotes."""

    version: str  # the data version the chapter ran on
    evidence: dict[str, Evidence]  # claim_evidence: the two H100 claims
    q: Quotes


def compute(version: str | None = None) -> GpuHourPrices:
    """The chapter's analysis of data version `version` (None: the current one), once per
    version and process."""
    return _compute(results.version(version))


@memo
@cached  # on disk too: the second output format, and later renders, reuse the result
def _compute(v: str) -> GpuHourPrices:
    prices = results.table("gpu_hour_prices", v)
    specs, claims = results.table("gpu_specs", v), results.table("claims", v)
    # Steps are a property of a source's series as published: look for them before the anomaly
    # rules drop rows (the rules remove some of the same points as thin medians).
    raw = data.load("gpu_hour_prices", v)
    steps = gpu_prices.step_changes(raw, threshold=STEP_THRESHOLD, gpus=MAIN_GPUS)
    rates = pl.concat([results.gpu_declines(v, evidence=e) for e in TABLE_VARIANTS])
    index, index_summary = results.gpu_index(v)
    # Direct observations by default (issue 19): the restated series is the named variant "all".
    direct = gpu_evidence.select(prices)
    drawdowns = gpu_prices.drawdown_from_peak(direct)
    _, gap = results.hyperscaler_gap(v, level=LEVEL)  # on direct observations
    by_age = gpu_prices.on_demand_by_age(direct, specs, MAIN_GPUS)
    at_release = gpu_prices.flops_per_dollar_at_release(specs)
    flops = results.flops_trends(v)
    purchase, rental, rental_all = flops["purchase"], flops["rental"], flops["rental_all"]
    rental_rows = gpu_prices.flops_per_rental_dollar(direct, specs)  # direct observations
    q = Quotes(SLUG)
    for part in (
        data_quotes(prices, v),
        step_quotes(steps),
        decline_quotes(rates, estimates.estimate(H100_DECLINE, v)),
        evidence_quotes(
            estimates.estimate(H100_DECLINE, v),
            estimates.estimate(H100_WITHOUT_RESTATED, v),
            estimates.estimate(H100_ALL, v),
        ),
        hedonic_quotes(index, index_summary, estimates.estimate(LATEST_INDEX, v)),
        drawdown_quotes(prices),
        gap_quotes(gap),
        gap_variant_quotes(gap, prices),
        age_quotes(by_age),
        before_release_quotes(gpu_prices.on_demand_by_age(prices, specs, MAIN_GPUS)),
        flops_quotes(at_release, purchase, rental),
        rental_variant_quotes(rental_rows, direct, rental_all),
        h100_claim_quotes(prices, claims),
        tpu_claim_quotes(prices, specs, results.table("mlperf_results", v), claims),
    ):
        q.update(part)
    # The rows the anomaly rules took out of the tables this page reads (issue 9).
    with_thin = results.gpu_declines(v, keep=("thin_median",), evidence="direct").filter(
        (pl.col("gpu_group") == "h100") & (pl.col("pricing") == "on-demand")
    )
    q["h100_od_with_thin"] = Quote(with_thin["factor_per_year"][0], "factor")
    q["removed"] = Quote(results.removed_text(("gpu_hour_prices",), v))
    # Where an index on direct observations alone could start (issue 19).
    direct_start = gpu_prices.unbroken_months_start(results.gpu_prices_of(v, "direct"))
    q["index_direct_start"] = Quote(direct_start, "month")
    evidence = h100_evidence(q, drawdowns)
    for cid, key in ((DRAWDOWN_CLAIM, "drawdown_verdict"), (SETTLED_CLAIM, "settled_verdict")):
        claim = claim_row(claims, cid)
        q[key] = Quote(claim_verdict(claim, evidence[cid]))
    return GpuHourPrices(version=v, evidence=evidence, q=q)


def claim_evidence(version: str | None = None) -> dict[str, Evidence]:
    """The evidence this chapter gives for the digests' two H100 claims (H100_CLAIMS)."""
    return compute(version).evidence


def h100_evidence(q: Quotes, drawdowns: pl.DataFrame) -> dict[str, Evidence]:
    """The H100 claims' evidence, in the claims' units, from the quotes of `drawdown_quotes`
    and `h100_claim_quotes`: the drawdown of the monthly median on-demand price across
    providers from its peak (percent, a magnitude; the per-provider falls in the text), and the
    median, lowest and highest monthly median over the CLAIM_WINDOW_MONTHS to the claim."""
    t = {name: quote.text for name, quote in q.items()}
    section = f"chapters/{SLUG}.qmd#{SEC_CLAIMS}"
    dd = one_row(
        drawdowns,
        "the on-demand H100 drawdown",
        pl.col("gpu_group") == "h100",
        pl.col("pricing") == "on-demand",
    )
    start, end = q["settled_start"].value, q["settled_end"].value
    return {
        DRAWDOWN_CLAIM: Evidence(
            claim_id=DRAWDOWN_CLAIM,
            value=q["h100_drawdown"].value * 100,
            n=dd["n_months"],
            window=f"{dd['peak_month']:%Y-%m} to {dd['latest_month']:%Y-%m}",
            section=section,
            text=(
                f"Monthly median on-demand H100 price across providers, direct observations "
                f"({t['h100_drawdown_evidence']}, {t['h100_drawdown_providers']}): "
                f"{t['h100_drawdown']} below its peak of {t['h100_peak_usd']} "
                f"({dd['peak_month']:%Y-%m}, {t['h100_peak_providers']}) at "
                f"{t['h100_latest_usd']} ({dd['latest_month']:%Y-%m}); with the restated "
                f"reconstructions, {t['h100_drawdown_all']} below; each of "
                f"{t['providers_own_peak_all']} against its own peak (all rows): median "
                f"{t['provider_drawdown_median_all']}, deepest {t['deepest_drawdown_all']} "
                f"({t['deepest_provider_all']})."
            ),
        ),
        SETTLED_CLAIM: Evidence(
            claim_id=SETTLED_CLAIM,
            value=q["settled_median"].value,
            low=q["settled_min"].value,
            high=q["settled_max"].value,
            n=q["settled_n_months"].value,
            window=f"{start:%Y-%m} to {end:%Y-%m}",
            section=section,
            text=(
                "Monthly median on-demand H100 price across providers, direct observations, "
                f"{start:%Y-%m} to {end:%Y-%m}: median {t['settled_median']}, {t['settled_min']} to "
                f"{t['settled_max']}; {t['settled_n_in_range']} of {t['settled_n_months']} "
                "months inside the claimed range."
            ),
        ),
    }


# ------------------------------------------------------------------ frames


def flops_lines(trend: dict) -> pl.DataFrame:
    """The two lines of the FLOP/s-per-dollar figure over the fit's window: the fitted trend
    and Epoch AI's reference rate drawn through the middle of the fit (`gpu_prices.trend_values`),
    each named with its rate."""
    ends = [trend["start_date"], trend["end_date"]]
    epoch = trend["epoch_reference_pct_per_year"]
    names = [f"Fit: {trend['pct_per_year']:+.0f}% per year", f"Epoch AI: {epoch:+.0f}% per year"]
    return pl.DataFrame(
        {
            "release_date": ends * 2,
            "flop_per_s_per_usd": gpu_prices.trend_values(trend, ends)
            + gpu_prices.trend_values(trend, ends, growth_per_year=epoch / 100),
            "line": [names[0]] * 2 + [names[1]] * 2,
        }
    )


def flagged_series(steps: pl.DataFrame) -> list[tuple[str, str]]:
    """(gpu_group, pricing) of each source series with a step (from `gpu_prices.step_changes`),
    for `gpu_prices.fitted_rates(exclude=...)`."""
    if steps.height == 0:
        return []
    return list(zip(steps["gpu_group"], steps["pricing"], strict=True))


def implied_peak(end_usd: float, drawdown_pct: float) -> float:
    """The peak a fall of `drawdown_pct` percent (positive: 64 for a 64% fall) started from, if
    it ended at `end_usd`: end / (1 - drawdown / 100)."""
    if not 0 <= drawdown_pct < 100:
        raise ValueError(f"a drawdown must be in [0, 100) percent, got {drawdown_pct}")
    return end_usd / (1 - drawdown_pct / 100)


# ------------------------------------------------------------------ quotes, section by section


def counted(n: int, noun: str) -> Quote:
    """`1 month`, `3 months`: a count with its noun, plural unless the count is 1."""
    return Quote(f"{fmt_count(n)} {noun}" if n == 1 else f"{fmt_count(n)} {noun}s")


def names(ids: list[str]) -> Quote:
    """GPU ids as the prose lists them: `B200 and H200`."""
    return Quote(fig.and_join([gpu_name(i) for i in ids]))


def fall(pct_per_year: float) -> Quote:
    """A percent change per year as its magnitude (`-5.97` -> `6%`): the prose says "fall" or
    "rise"."""
    return Quote(abs(pct_per_year) / 100, "percent")


def data_quotes(prices: pl.DataFrame, version: str) -> dict[str, Quote]:
    """Size and span of the `gpu_hour_prices` table, and the data version."""
    return {
        "version": Quote(version),
        "n_rows": Quote(prices.height, "count"),
        "n_providers": Quote(prices["provider"].n_unique(), "count"),
        "n_gpus": Quote(prices["gpu"].n_unique(), "count"),
        "first_date": Quote(prices["date"].min(), "month"),
        "last_date": Quote(prices["date"].max(), "month"),
    }


def spot_step(steps: pl.DataFrame, gpu: str) -> dict:
    """The largest step of one GPU's spot series (from `gpu_prices.step_changes`)."""
    ordered = steps.sort("ratio", descending=True) if steps.height else steps
    return one_row(
        ordered,
        f"a step in the {gpu} spot series",
        pl.col("gpu_group") == gpu,
        pl.col("pricing") == "spot",
    )


def step_quotes(steps: pl.DataFrame, threshold: int = STEP_THRESHOLD) -> dict[str, Quote]:
    """The steps in the H200 and B200 spot series (STEP_GPUS; from `gpu_prices.step_changes`):
    from and to (price, month), the ratio, and the flat months before and after."""
    h200, b200 = spot_step(steps, "h200"), spot_step(steps, "b200")
    return {
        "step_threshold": Quote(threshold, "count"),
        "h200_step_from_usd": Quote(h200["from_value"], "usd"),
        "h200_step_to_usd": Quote(h200["to_value"], "usd"),
        "h200_step_to_month": Quote(h200["to_month"], "month"),
        "h200_step_ratio": Quote(h200["ratio"], "number"),
        "h200_step_months_before": Quote(h200["months_at_from_value"], "count"),
        "h200_step_months_after": Quote(h200["months_at_to_value"], "count"),
        "b200_step_from_usd": Quote(b200["from_value"], "usd"),
        "b200_step_from_month": Quote(b200["from_month"], "month"),
        "b200_step_to_usd": Quote(b200["to_value"], "usd"),
        "b200_step_ratio": Quote(b200["ratio"], "number"),
    }


def quoted_rate(rates: pl.DataFrame, gpu: str, pricing: str, evidence: str | None = None) -> dict:
    """One decline rate of `rates` (from `gpu_prices.decline_rates`): GPU group, pricing type
    and, where `rates` has an `evidence` column, the evidence variant."""
    where = [pl.col("gpu_group") == gpu, pl.col("pricing") == pricing]
    if evidence and "evidence" in rates.columns:
        where.append(pl.col("evidence") == evidence)
    return one_row(rates, f"a {pricing} decline rate of {gpu}", *where)


def decline_quotes(
    rates: pl.DataFrame,
    headline: Estimate,
    *,
    min_n: int = MIN_PROVIDER_MONTHS,
    level: float = LEVEL,
) -> dict[str, Quote]:
    """The decline rates the prose quotes (from `gpu_prices.decline_rates`): `h100_od_factor` is
    the registry's estimate `headline` (its interval is `.ci`, its provider-months `.n_text`);
    the others are percent magnitudes (the prose says "fall" or "rise"). Direct observations
    where they can be fitted; the indices are index evidence by definition, and the young GPUs'
    on-demand series exist only with the index's restated reconstructions ("all"), which the
    prose says."""
    h100 = quoted_rate(rates, "h100", "on-demand", "direct")
    a100 = quoted_rate(rates, "a100", "on-demand", "direct")
    h200 = quoted_rate(rates, "h200", "on-demand", "all")
    b200 = quoted_rate(rates, "b200", "on-demand", "all")
    h100_index = quoted_rate(rates, "h100", "index", "all")
    return {
        "level": Quote(level, "share"),
        "decline_min_n": Quote(min_n, "count"),
        "h100_od_factor": headline,
        "h100_od_pct": fall(h100["pct_per_year"]),
        "a100_od_pct": fall(a100["pct_per_year"]),
        "h200_od_pct": fall(h200["pct_per_year"]),
        "b200_od_pct": fall(b200["pct_per_year"]),
        "h100_index_pct": fall(h100_index["pct_per_year"]),
        "h100_index_n_providers": Quote(h100_index["n_providers"], "count"),
    }


def interval_reading(low: float, high: float) -> str:
    """What a decline factor's interval says in words: whether no change (a factor of 1) lies
    inside it."""
    if low <= 1 <= high:
        return "an interval that includes no change at all"
    return "a fall throughout the interval" if low > 1 else "a rise throughout the interval"


def evidence_quotes(
    headline: Estimate, without_restated: Estimate, every: Estimate
) -> dict[str, Quote]:
    """What the H100 on-demand decline rests on (issue 19): the headline's evidence classes
    (`h100_od_evidence`) and providers, and the two named variants (the registry's estimates
    H100_WITHOUT_RESTATED and H100_ALL): each factor (with `.ci` and `.n_text`), percent fall,
    providers and the provider-months that are the index's restated reconstructions."""

    def restated(e: Estimate) -> Quote:
        return Quote(e.extra["n_by_class"].get(gpu_evidence.RESTATED, 0), "count")

    return {
        "h100_od_evidence": Quote(gpu_evidence.describe(headline.extra["evidence_classes"])),
        "h100_od_direct_providers": Quote(headline.extra["n_providers"], "count"),
        "h100_od_interval_reading": Quote(interval_reading(headline.low, headline.high)),
        "h100_od_without_restated": without_restated,
        "h100_od_without_restated_pct": fall(pct_change_per_year(without_restated.value)),
        "h100_od_without_restated_providers": Quote(without_restated.extra["n_providers"], "count"),
        "h100_od_without_restated_n_restated": restated(without_restated),
        "h100_od_all": every,
        "h100_od_all_pct": fall(pct_change_per_year(every.value)),
        "h100_od_all_providers": Quote(every.extra["n_providers"], "count"),
        "h100_od_all_n_restated": restated(every),
    }


def hedonic_quotes(index: pl.DataFrame, summary: dict, latest: Estimate) -> dict[str, Quote]:
    """The hedonic index (from `gpu_prices.hedonic_index`): its start, fit, low point, highest
    month and the month after, and the months whose interval excludes 1. The latest month is
    the registry's estimate `latest` (`index_last`, with `.ci` and `.end`)."""
    by_level = index.sort("index")
    low, high = by_level.row(0, named=True), by_level.row(-1, named=True)
    after_high = one_row(
        index.sort("period"), "a month after the index's highest", pl.col("period") > high["period"]
    )
    base = one_row(index, "the base month", pl.col("period") == summary["base_period"])
    apart = index.filter((pl.col("ci_high") < 1) | (pl.col("ci_low") > 1))["period"].to_list()
    return {
        "index_start": Quote(summary["start"], "month"),
        "index_n": Quote(summary["n"], "count"),
        "index_r2": Quote(summary["r_squared"], "number"),
        "index_low": Quote(low["index"], "number"),
        "index_low_month": Quote(low["period"], "month"),
        "index_low_ci": Quote((low["ci_low"], low["ci_high"]), "number"),
        "index_high": Quote(high["index"], "number"),
        "index_high_month": Quote(high["period"], "month"),
        "index_after_high": Quote(after_high["index"], "number"),
        "index_last": latest,
        # What the index rests on (issue 19): the registry's estimate names its evidence.
        "index_evidence": Quote(gpu_evidence.describe(latest.extra.get("classes", []) or ["index"]))
        if "classes" in latest.extra
        else Quote("not stated"),
        "index_n_restated": Quote(
            latest.extra.get("n_by_class", {}).get(gpu_evidence.RESTATED, 0), "count"
        ),
        "index_n_rows": Quote(sum(latest.extra.get("n_by_class", {}).values()), "count"),
        "index_base_n_obs": Quote(base["n_obs"], "count"),
        "index_n_months": Quote(index.height, "count"),
        "index_n_months_apart": counted(len(apart), "month"),
        "index_months_apart": Quote(", ".join(fmt_month(d) for d in apart) or "none"),
    }


def drawdown_quotes(
    prices: pl.DataFrame, *, min_months: int = MIN_MONTHS_PER_PROVIDER
) -> dict[str, Quote]:
    """Drawdowns from direct observations (issue 19; `prices`: every clean row with its
    `evidence_class`): the on-demand H100 and V100 medians across providers
    (`gpu_prices.drawdown_from_peak`) with the H100 series' evidence classes and providers, the
    providers quoted in the H100's peak month, and each H100 provider against its own peak
    (`gpu_prices.provider_drawdowns`); and the H100 on all rows, restated reconstructions
    included (`*_all`). Falls are magnitudes (`h100_drawdown`: `49%`) except the `_signed` ones
    the claims table shows."""
    direct, every = gpu_evidence.select(prices), gpu_evidence.select(prices, "all")
    drawdowns = gpu_prices.drawdown_from_peak(direct)
    h100 = gpu_prices.series_drawdown(drawdowns, "h100")
    v100 = gpu_prices.series_drawdown(drawdowns, "v100")
    h100_all = gpu_prices.series_drawdown(gpu_prices.drawdown_from_peak(every), "h100")
    h100_evidence = gpu_prices.panel_evidence(direct, "h100", "on-demand", drop_aggregates=True)
    h100_all_evidence = gpu_prices.panel_evidence(every, "h100", "on-demand", drop_aggregates=True)
    peak_quotes = gpu_prices.providers_in_month(direct, "h100", "on-demand", h100["peak_month"])
    top = one_row(peak_quotes, "a provider quoting the H100 in its peak month")
    own = gpu_prices.provider_drawdowns(direct, gpus=["h100"], min_months=min_months)
    own_all = gpu_prices.provider_drawdowns(every, gpus=["h100"], min_months=min_months)
    deepest = one_row(own.sort("drawdown_pct"), "an H100 provider's drawdown")
    deepest_all = one_row(own_all.sort("drawdown_pct"), "an H100 provider's drawdown, all rows")
    median = own["drawdown_pct"].median()
    return {
        "h100_drawdown": fall(h100["drawdown_pct"]),
        "h100_drawdown_signed": Quote(h100["drawdown_pct"] / 100, "percent"),
        "h100_drawdown_evidence": Quote(gpu_evidence.describe(h100_evidence["classes"])),
        "h100_drawdown_providers": counted(h100_evidence["n_providers"], "provider"),
        "h100_peak_usd": Quote(h100["peak_usd_per_gpu_hour"], "usd"),
        "h100_peak_month": Quote(h100["peak_month"], "month"),
        "h100_peak_providers": counted(h100["peak_n_providers"], "provider"),
        "h100_latest_usd": Quote(h100["latest_usd_per_gpu_hour"], "usd"),
        "h100_latest_month": Quote(h100["latest_month"], "month"),
        "h100_drawdown_all": fall(h100_all["drawdown_pct"]),
        "h100_drawdown_all_providers": counted(h100_all_evidence["n_providers"], "provider"),
        "h100_drawdown_all_n_restated": Quote(
            h100_all_evidence["n_by_class"].get(gpu_evidence.RESTATED, 0), "count"
        ),
        "h100_latest_all_usd": Quote(h100_all["latest_usd_per_gpu_hour"], "usd"),
        "h100_latest_all_month": Quote(h100_all["latest_month"], "month"),
        "v100_drawdown": fall(v100["drawdown_pct"]),
        "v100_peak_month": Quote(v100["peak_month"], "month"),
        "v100_peak_providers": counted(v100["peak_n_providers"], "provider"),
        "v100_latest_month": Quote(v100["latest_month"], "month"),
        "v100_latest_providers": counted(v100["latest_n_providers"], "provider"),
        "peak_n_quotes": Quote(peak_quotes.height, "count"),
        "peak_top_provider": Quote(top["provider"], "provider"),
        "peak_top_class": Quote(top["provider_class"]),
        "peak_top_usd": Quote(top["usd_per_gpu_hour"], "usd"),
        "min_months_per_provider": Quote(min_months, "count"),
        "n_providers_own_peak": Quote(own.height, "count"),
        "providers_own_peak": counted(own.height, "provider"),
        "provider_drawdown_median": fall(median),
        "provider_drawdown_median_signed": Quote(median / 100, "percent"),
        "deepest_drawdown": fall(deepest["drawdown_pct"]),
        "deepest_drawdown_signed": Quote(deepest["drawdown_pct"] / 100, "percent"),
        "deepest_provider": Quote(deepest["provider"], "provider"),
        "n_at_peak_now": Quote(own.filter(pl.col("drawdown_pct") == 0).height, "count"),
        "providers_own_peak_all": counted(own_all.height, "provider"),
        "provider_drawdown_median_all": fall(own_all["drawdown_pct"].median()),
        "deepest_drawdown_all": fall(deepest_all["drawdown_pct"]),
        "deepest_provider_all": Quote(deepest_all["provider"], "provider"),
    }


def gap_quotes(gap: dict) -> dict[str, Quote]:
    """Hyperscalers against smaller clouds (the summary of `gpu_prices.hyperscaler_gap`)."""
    return {
        "gap_ratio": Quote(gap["geometric_mean_ratio"], "number"),
        "gap_ci": Quote((gap["ci90_low"], gap["ci90_high"]), "number"),
        "gap_median": Quote(gap["median_ratio"], "number"),
        "gap_n": Quote(gap["n"], "count"),
        "gap_n_gpus": Quote(gap["n_gpus"], "count"),
        "gap_start": Quote(gap["start"], "month"),
        "gap_end": Quote(gap["end"], "month"),
    }


def gap_variant_quotes(
    direct: dict, prices: pl.DataFrame, *, level: float = LEVEL
) -> dict[str, Quote]:
    """What the hyperscaler gap rests on (issue 19): the evidence classes and providers of the
    direct observations it pairs (`direct`: the summary of `gpu_prices.hyperscaler_gap` on
    them), and the gap on all rows of `prices` (every clean row with its `evidence_class`),
    restated reconstructions included (`gap_all_*`)."""
    _, every = gpu_prices.hyperscaler_gap(gpu_evidence.select(prices, "all"), level=level)
    return {
        "gap_evidence": Quote(gpu_evidence.describe(direct["classes"])),
        "gap_providers": counted(direct["n_providers"], "provider"),
        "gap_all_ratio": Quote(every["geometric_mean_ratio"], "number"),
        "gap_all_ci": Quote((every["ci90_low"], every["ci90_high"]), "number"),
        "gap_all_n": Quote(every["n"], "count"),
        "gap_all_providers": counted(every["n_providers"], "provider"),
    }


def age_quotes(by_age: pl.DataFrame) -> dict[str, Quote]:
    """Price by age (from `gpu_prices.on_demand_by_age`, direct observations): the A100's and
    H100's latest month with its providers."""
    a100 = gpu_prices.latest_month_of(by_age, "a100")
    h100 = gpu_prices.latest_month_of(by_age, "h100")
    return {
        "a100_age_years": Quote(a100["age_months"] / 12, "number"),
        "a100_age_usd": Quote(a100["usd_per_gpu_hour"], "usd"),
        "a100_age_month": Quote(a100["month"], "month"),
        "h100_age_years": Quote(h100["age_months"] / 12, "number"),
        "h100_age_usd": Quote(h100["usd_per_gpu_hour"], "usd"),
        "h100_age_month": Quote(h100["month"], "month"),
        "a100_age_providers": counted(a100["n_providers"], "provider"),
        "h100_age_providers": counted(h100["n_providers"], "provider"),
    }


def before_release_quotes(by_age: pl.DataFrame) -> dict[str, Quote]:
    """The months priced before the chip data's release date, in `by_age`
    (`gpu_prices.on_demand_by_age` of every clean row: a source's dating, whatever its evidence
    class)."""
    before = gpu_prices.before_release(by_age)
    return {
        "before_release_gpus": names(before["gpu_group"].unique().sort().to_list()),
        "n_before_release": counted(before.height, "month"),
    }


def flops_quotes(at_release: pl.DataFrame, purchase: dict, rental: dict) -> dict[str, Quote]:
    """FLOP/s per dollar: the purchase and rental trends (from `flops_per_dollar_trend`, growth
    per year with its interval) and the two recent chips cheapest in FLOP/s per dollar at
    release."""
    recent = at_release.filter(pl.col("release_date").dt.year() >= RECENT_SINCE_YEAR)
    return {
        "epoch_pct": Quote(purchase["epoch_reference_pct_per_year"] / 100, "percent"),
        "purchase_pct": Quote(purchase["pct_per_year"] / 100, "percent"),
        "purchase_pct_ci": Quote(
            (purchase["pct_ci90_low"] / 100, purchase["pct_ci90_high"] / 100), "percent"
        ),
        "purchase_n": Quote(purchase["n"], "count"),
        "purchase_r2": Quote(purchase["r_squared"], "number"),
        "rental_pct": Quote(rental["pct_per_year"] / 100, "percent"),
        "rental_pct_ci": Quote(
            (rental["pct_ci90_low"] / 100, rental["pct_ci90_high"] / 100), "percent"
        ),
        "low_chips": names(recent.sort("flop_per_s_per_usd").head(2)["gpu"].to_list()),
    }


def rental_variant_quotes(
    rows: pl.DataFrame, direct: pl.DataFrame, every: dict
) -> dict[str, Quote]:
    """What the rental FLOP/s-per-dollar trend rests on (issue 19): its provider-months and
    providers (`rows`: `gpu_prices.flops_per_rental_dollar` of the direct observations
    `direct`) and their evidence classes, and the trend on all rows, restated reconstructions
    included (`every`, from `flops_per_dollar_trend`)."""
    return {
        "rental_n": Quote(rows.height, "count"),
        "rental_providers": counted(rows["provider"].n_unique(), "provider"),
        "rental_evidence": Quote(
            gpu_evidence.describe(direct[gpu_evidence.COLUMN].unique().to_list())
        ),
        "rental_all_pct": Quote(every["pct_per_year"] / 100, "percent"),
        "rental_all_pct_ci": Quote(
            (every["pct_ci90_low"] / 100, every["pct_ci90_high"] / 100), "percent"
        ),
    }


def h100_claim_quotes(
    prices: pl.DataFrame, claims: pl.DataFrame, *, months: int = CLAIM_WINDOW_MONTHS
) -> dict[str, Quote]:
    """The digests' H100 claims against the data: the settled range (`settled_*`: the on-demand
    median across providers over the `months` to the claim, `gpu_prices.settled_range_check`),
    and the drawdown: the peak it implies (`implied_peak`) and the provider-month prices that
    reach it."""
    settled_claim = claim_row(claims, SETTLED_CLAIM)
    drawdown_claim = claim_row(claims, DRAWDOWN_CLAIM)
    direct = gpu_evidence.select(prices)  # direct observations by default (issue 19)
    series = gpu_prices.on_demand_series(direct, "h100")
    low, high = settled_claim["value"], settled_claim["value_high"]
    settled = gpu_prices.settled_range_check(
        series, low, high, end=settled_claim["claim_date"], months=months
    )
    settled_all = gpu_prices.settled_range_check(
        gpu_prices.on_demand_series(gpu_evidence.select(prices, "all"), "h100"),
        low,
        high,
        end=settled_claim["claim_date"],
        months=months,
    )
    now = one_row(series.sort("month", descending=True), "an on-demand H100 month")
    fall_low, fall_high = drawdown_claim["value"], drawdown_claim["value_high"]
    peak_low = implied_peak(low, fall_low)
    panel = gpu_prices.monthly_panel(direct, drop_aggregates=True).filter(
        pl.col("gpu_group") == "h100", pl.col("pricing") == "on-demand"
    )
    above = panel.filter(pl.col("usd_per_gpu_hour") >= peak_low).with_columns(
        gpu_prices.provider_class_expr()
    )
    dearest = one_row(panel.sort("usd_per_gpu_hour", descending=True), "an H100 on-demand price")
    return {
        "settled_claim": Quote(settled_claim["claim"]),
        "settled_claim_range": Quote((low, high), "usd"),
        "claim_window_months": Quote(months, "count"),
        "settled_start": Quote(settled["start"], "month"),
        "settled_end": Quote(settled["end"], "month"),
        "settled_n_months": Quote(settled["n_months"], "count"),
        "settled_n_in_range": Quote(
            round(settled["share_in_range"] * settled["n_months"]), "count"
        ),
        "settled_min": Quote(settled["min"], "usd"),
        "settled_max": Quote(settled["max"], "usd"),
        "settled_median": Quote(settled["median"], "usd"),
        "settled_all_n_months": Quote(settled_all["n_months"], "count"),
        "settled_all_n_in_range": Quote(
            round(settled_all["share_in_range"] * settled_all["n_months"]), "count"
        ),
        "settled_all_min": Quote(settled_all["min"], "usd"),
        "settled_all_max": Quote(settled_all["max"], "usd"),
        "settled_all_median": Quote(settled_all["median"], "usd"),
        "h100_now_providers": counted(now["n_providers"], "provider"),
        "h100_now_month": Quote(now["month"], "month"),
        "h100_now_usd": Quote(now["usd_per_gpu_hour"], "usd"),
        "drawdown_claim": Quote((fall_low / 100, fall_high / 100), "percent"),
        "implied_peak": Quote((peak_low, implied_peak(high, fall_high)), "usd"),
        "h100_n_provider_months": Quote(panel.height, "count"),
        "n_above_implied_peak": Quote(above.height, "count"),
        "n_above_implied_peak_hyperscalers": Quote(
            above.filter(pl.col("provider_class") == "hyperscaler").height, "count"
        ),
        "dearest_usd": Quote(dearest["usd_per_gpu_hour"], "usd"),
        "dearest_provider": Quote(dearest["provider"], "provider"),
        "dearest_month": Quote(dearest["month"], "month"),
    }


def tpu_claim_quotes(
    prices: pl.DataFrame, specs: pl.DataFrame, mlperf: pl.DataFrame, claims: pl.DataFrame
) -> dict[str, Quote]:
    """The TPU v7 performance-per-dollar claim: how many TPU v7 prices and TPU MLPerf results the
    data holds, and the TPU v7 price at which its peak FP8 per dollar would beat the B200's
    latest on-demand median by the claimed margin (`gpu_prices.price_for_advantage`)."""
    claim = claim_row(claims, TPU_CLAIM)
    b200 = one_row(
        gpu_prices.on_demand_series(gpu_evidence.select(prices), TPU_INCUMBENT).sort(
            "month", descending=True
        ),
        f"an on-demand {TPU_INCUMBENT} month",
    )
    edge = gpu_prices.price_for_advantage(
        specs, TPU_CHALLENGER, TPU_INCUMBENT, b200["usd_per_gpu_hour"], claim["value"] / 100
    )
    n_mlperf = mlperf.filter(pl.col("accelerator").str.starts_with("tpu")).height
    return {
        "tpu_claim": Quote(claim["claim"]),
        "tpu_claim_pct": Quote(claim["value"] / 100, "percent"),
        "n_tpu7_prices": Quote(prices.filter(pl.col("gpu") == TPU_CHALLENGER).height, "count"),
        "n_tpu_mlperf": Quote(n_mlperf, "count"),
        "tpu_peak_ratio": Quote(edge["peak_ratio"], "number"),
        "tpu_max_usd": Quote(edge["max_challenger_usd_per_hour"], "usd"),
        "b200_now_usd": Quote(b200["usd_per_gpu_hour"], "usd"),
        "b200_now_month": Quote(b200["month"], "month"),
        "b200_now_providers": counted(b200["n_providers"], "provider"),
    }


def claim_findings(q: Quotes | dict[str, Quote]) -> dict[str, str]:
    """What the data shows for each digest claim (claim_id -> text for the claims table), from
    the quotes of `h100_claim_quotes`, `drawdown_quotes` and `tpu_claim_quotes`. Months are
    written `2026-09`, as the chapter's tables write them."""
    t = {name: quote.text for name, quote in q.items()}
    return {
        SETTLED_CLAIM: (
            "Monthly median on-demand H100 price across providers, direct observations, "
            f"{q['settled_start'].value:%Y-%m} to {q['settled_end'].value:%Y-%m}: "
            f"{t['settled_min']} to {t['settled_max']} (median {t['settled_median']}); "
            f"{t['settled_n_in_range']} of {t['settled_n_months']} months inside the claimed range."
        ),
        DRAWDOWN_CLAIM: (
            f"Median across providers, direct observations: {t['h100_drawdown_signed']} from {t['h100_peak_usd']} "
            f"({q['h100_peak_month'].value:%Y-%m}) to {t['h100_latest_usd']}; with the restated "
            f"reconstructions, {t['h100_drawdown_all']} below. Each of "
            f"{t['providers_own_peak_all']} against its own peak (all rows): median "
            f"{t['provider_drawdown_median_all']}, deepest {t['deepest_drawdown_all']} "
            f"({t['deepest_provider_all']})."
        ),
        TPU_CLAIM: (
            f"Not testable: {t['n_tpu7_prices']} TPU v7 prices and {t['n_tpu_mlperf']} TPU MLPerf "
            f"results in the data. On the spec sheet TPU v7 has {t['tpu_peak_ratio']}x B200's "
            f"peak FP8, so the claim needs TPU v7 at or below {t['tpu_max_usd']} per chip-hour "
            f"against B200's {t['b200_now_usd']}."
        ),
    }
