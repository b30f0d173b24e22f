"""What the "GPU-hour prices" chapter shows: the frames behind its figures and tables, and every
value its prose quotes.

`build` runs the chapter's analysis (all estimates come from `analysis.methods.gpu_prices`) and returns a
`GpuHourChapter`: the frames the figures and tables take, and `numbers`, a
`hardware_views.Numbers` holding each quoted value as the prose shows it
(`` `{python} numbers["h100_od_factor"]` `` -> `1.064`) and unformatted (`numbers.raw`).

The section functions (`step_numbers`, `decline_numbers`, `hedonic_numbers`, ...) take the
frames and dicts that `gpu_prices` returns, so they can be tested on small hand-made frames;
the claim sections take the data tables. Keys are named after what they quote:
`<gpu>_<pricing>_<what>` for decline rates, `index_*` for the hedonic index, `settled_*` for the
settled-price claim, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analysis.figures import hardware as views
from analysis.figures.hardware import Numbers, count, factor, month, one_row, pct, usd
from analysis.methods import gpu_prices

# Choices the chapter states in its prose (each is also quoted from `numbers`).
HISTORY_PRICINGS = ["on-demand", "spot", "index"]
STEP_THRESHOLD = 3.0  # a source series rising more than this from one month to the next
STEP_GPUS = ["h200", "b200"]  # the spot series whose steps the prose describes
LEVEL = 0.90  # confidence level of every interval the chapter quotes
MIN_PROVIDER_MONTHS = 10  # decline table: groups with at least this many provider-months
MIN_MONTHS_PER_PROVIDER = 6  # provider drawdowns: providers quoted in at least this many months
CLAIM_WINDOW_MONTHS = 12  # the settled-price claim is checked over the year to the claim
# Decline rates the prose quotes: key prefix -> (GPU group, pricing type).
QUOTED_DECLINES = {
    "h100_od": ("h100", "on-demand"),
    "a100_od": ("a100", "on-demand"),
    "h200_od": ("h200", "on-demand"),
    "b200_od": ("b200", "on-demand"),
    "h100_index": ("h100", "index"),
}
SETTLED_CLAIM = "h100-cloud-price-settled"
DRAWDOWN_CLAIM = "h100-cloud-price-drawdown"
TPU_CLAIM = "tpu-v7-perf-per-dollar"
TPU_CHALLENGER, TPU_INCUMBENT = "tpu-v7", "b200"


@dataclass(frozen=True)
class GpuHourChapter:
    """The frames the chapter's figures and tables take, and its quoted values."""

    history: pl.DataFrame  # gpu_prices.history_series: the price-history figure
    rates: pl.DataFrame  # gpu_prices.decline_rates: the decline table
    flagged: list[tuple[str, str]]  # (gpu_group, pricing) with a step: left out of the table
    index: pl.DataFrame  # gpu_prices.hedonic_index: the index figure
    index_summary: dict
    drawdowns: pl.DataFrame  # gpu_prices.drawdown_from_peak: the drawdown table
    gap_pairs: pl.DataFrame  # gpu_prices.hyperscaler_gap: the hyperscaler table
    by_age: pl.DataFrame  # on-demand price by age of the main GPUs: the age figure
    at_release: pl.DataFrame  # FLOP/s per dollar at release: the scatter
    purchase: dict  # its trend
    rental: dict  # trend of FLOP per rental dollar
    claim_checks: pl.DataFrame  # hardware_views.claim_checks: the claims table
    numbers: Numbers


def build(
    prices: pl.DataFrame,
    specs: pl.DataFrame,
    claims: pl.DataFrame,
    mlperf: pl.DataFrame,
    *,
    version: str | None = None,
) -> GpuHourChapter:
    """Run the chapter's analysis on the data tables (`gpu_hour_prices`, `gpu_specs`, `claims`,
    `mlperf_results`) of data version `version`."""
    steps = gpu_prices.step_changes(prices, threshold=STEP_THRESHOLD, gpus=views.MAIN_GPUS)
    rates = gpu_prices.decline_rates(prices, level=LEVEL, data_version=version)
    index_start = gpu_prices.unbroken_months_start(prices)
    index, index_summary = gpu_prices.hedonic_index(
        prices, base_month=index_start, start=index_start, level=LEVEL, data_version=version
    )
    drawdowns = gpu_prices.drawdown_from_peak(prices)
    gap_pairs, gap = gpu_prices.hyperscaler_gap(prices, level=LEVEL, data_version=version)
    by_age = on_demand_by_age(prices, specs)
    at_release = gpu_prices.flops_per_dollar_at_release(specs)
    purchase = gpu_prices.flops_per_dollar_trend(at_release, data_version=version)
    rental = gpu_prices.flops_per_dollar_trend(
        gpu_prices.flops_per_rental_dollar(prices, specs),
        date_col="month",
        value_col="flop_per_usd",
        data_version=version,
    )
    numbers = Numbers.merge(
        data_numbers(prices),
        step_numbers(steps),
        decline_numbers(rates),
        hedonic_numbers(index, index_summary),
        drawdown_numbers(prices, drawdowns),
        gap_numbers(gap),
        age_numbers(by_age),
        flops_numbers(at_release, purchase, rental),
        h100_claim_numbers(prices, claims),
        tpu_claim_numbers(prices, specs, mlperf, claims),
    )
    return GpuHourChapter(
        history=gpu_prices.history_series(
            prices, gpus=views.MAIN_GPUS, pricings=HISTORY_PRICINGS, since=views.HISTORY_SINCE
        ),
        rates=rates,
        flagged=flagged_series(steps),
        index=index,
        index_summary=index_summary,
        drawdowns=drawdowns,
        gap_pairs=gap_pairs,
        by_age=by_age,
        at_release=at_release,
        purchase=purchase,
        rental=rental,
        claim_checks=views.claim_checks(claims, claim_findings(numbers)),
        numbers=numbers,
    )


# ------------------------------------------------------------------ frames


def on_demand_by_age(
    prices: pl.DataFrame, specs: pl.DataFrame, gpus: list[str] = views.MAIN_GPUS
) -> pl.DataFrame:
    """`gpu_prices.price_by_age` of the on-demand series of `gpus`: the age figure's data."""
    return gpu_prices.price_by_age(prices, specs).filter(
        pl.col("pricing") == "on-demand", pl.col("gpu_group").is_in(gpus)
    )


def flagged_series(steps: pl.DataFrame) -> list[tuple[str, str]]:
    """(gpu_group, pricing) of each source series with a step (from `gpu_prices.step_changes`),
    for `hardware_views.decline_table(exclude=...)`."""
    if steps.height == 0:
        return []
    return list(zip(steps["gpu_group"], steps["pricing"], strict=True))


def on_demand_series(prices: pl.DataFrame, gpu: str) -> pl.DataFrame:
    """Monthly median on-demand price across providers of one GPU group, by month."""
    return (
        gpu_prices.monthly_median_across_providers(prices, pricing="on-demand")
        .filter(pl.col("gpu_group") == gpu)
        .sort("month")
    )


def implied_peak(end_usd: float, drawdown_pct: float) -> float:
    """The peak a fall of `drawdown_pct` percent (positive: 64 for a 64% fall) started from, if
    it ended at `end_usd`: end / (1 - drawdown / 100)."""
    if not 0 <= drawdown_pct < 100:
        raise ValueError(f"a drawdown must be in [0, 100) percent, got {drawdown_pct}")
    return end_usd / (1 - drawdown_pct / 100)


# ------------------------------------------------------------------ numbers, section by section


def data_numbers(prices: pl.DataFrame) -> Numbers:
    """Size and span of the `gpu_hour_prices` table."""
    n = Numbers()
    n.add("n_rows", prices.height, ",")
    n.add("n_providers", prices["provider"].n_unique(), ",")
    n.add("n_gpus", prices["gpu"].n_unique(), ",")
    n.add("first_date", prices["date"].min(), month)
    n.add("last_date", prices["date"].max(), month)
    return n


def step_numbers(
    steps: pl.DataFrame, gpus: list[str] = STEP_GPUS, threshold: float = STEP_THRESHOLD
) -> Numbers:
    """The steps in the spot series of `gpus` (from `gpu_prices.step_changes`): for each GPU,
    `<gpu>_step_{from,to}_{usd,month}`, `_ratio` and the flat months before and after."""
    n = Numbers()
    n.add("step_threshold", threshold, "g")
    ordered = steps.sort("ratio", descending=True) if steps.height else steps
    for gpu in gpus:
        where = (pl.col("gpu_group") == gpu, pl.col("pricing") == "spot")
        step = one_row(ordered, f"a step in the {gpu} spot series", *where)
        n.add(f"{gpu}_step_from_usd", step["from_value"], usd)
        n.add(f"{gpu}_step_from_month", step["from_month"], month)
        n.add(f"{gpu}_step_to_usd", step["to_value"], usd)
        n.add(f"{gpu}_step_to_month", step["to_month"], month)
        n.add(f"{gpu}_step_ratio", step["ratio"], ".1f")
        n.add(f"{gpu}_step_months_before", step["months_at_from_value"])
        n.add(f"{gpu}_step_months_after", step["months_at_to_value"])
    return n


def decline_numbers(
    rates: pl.DataFrame,
    quoted: dict[str, tuple[str, str]] = QUOTED_DECLINES,
    *,
    min_n: int = MIN_PROVIDER_MONTHS,
    level: float = LEVEL,
) -> Numbers:
    """The decline rates the prose quotes (from `gpu_prices.decline_rates`): for each key of
    `quoted`, `<key>_factor` with `_factor_low`/`_factor_high` (the interval), `_pct` (the
    magnitude: the prose says "fall" or "rise"), `_n` and `_n_providers`."""
    n = Numbers()
    n.add("level", level, ".0%")
    n.add("decline_min_n", min_n)
    for key, (gpu, pricing) in quoted.items():
        where = (pl.col("gpu_group") == gpu, pl.col("pricing") == pricing)
        r = one_row(rates, f"a {pricing} decline rate of {gpu}", *where)
        n.add(f"{key}_factor", r["factor_per_year"], factor)
        n.add(f"{key}_factor_low", r["ci90_low"], factor)
        n.add(f"{key}_factor_high", r["ci90_high"], factor)
        n.add(f"{key}_pct", r["pct_per_year"], pct)
        n.add(f"{key}_n", r["n"])
        n.add(f"{key}_n_providers", r["n_providers"])
    return n


def hedonic_numbers(index: pl.DataFrame, summary: dict) -> Numbers:
    """The hedonic index (from `gpu_prices.hedonic_index`): its start, fit, low point, highest
    month and the month after, latest month, and the months whose interval excludes 1."""
    n = Numbers()
    n.add("index_start", summary["start"], month)
    n.add("index_n", summary["n"], ",")
    n.add("index_r2", summary["r_squared"], ".2f")
    by_level = index.sort("index")
    rows = {
        "low": by_level.row(0, named=True),
        "high": by_level.row(-1, named=True),
        "last": index.sort("period").row(-1, named=True),
    }
    for name, row in rows.items():
        n.add(f"index_{name}", row["index"], ".2f")
        n.add(f"index_{name}_month", row["period"], month)
        n.add(f"index_{name}_ci_low", row["ci_low"], ".2f")
        n.add(f"index_{name}_ci_high", row["ci_high"], ".2f")
    after_high = one_row(
        index.sort("period"),
        "a month after the index's highest",
        pl.col("period") > rows["high"]["period"],
    )
    n.add("index_after_high", after_high["index"], ".2f")
    base = one_row(index, "the base month", pl.col("period") == summary["base_period"])
    n.add("index_base_n_obs", base["n_obs"])
    apart = index.filter((pl.col("ci_high") < 1) | (pl.col("ci_low") > 1))["period"].to_list()
    n.add("index_n_months", index.height)
    n.add("index_n_months_apart", len(apart), lambda k: count(k, "month"))
    n.add("index_months_apart", apart, lambda ds: ", ".join(month(d) for d in ds) or "none")
    return n


def drawdown_numbers(
    prices: pl.DataFrame, drawdowns: pl.DataFrame, *, min_months: int = MIN_MONTHS_PER_PROVIDER
) -> Numbers:
    """Drawdowns: the on-demand H100 and V100 medians across providers (from
    `gpu_prices.drawdown_from_peak`), the providers quoted in the H100's peak month, and each
    H100 provider against its own peak (`gpu_prices.provider_drawdowns`). Percentages are
    magnitudes (`h100_drawdown`: `49%`) except the `_signed` ones the claims table shows."""
    n = Numbers()
    for gpu in ("h100", "v100"):
        dd = one_row(
            drawdowns,
            f"an on-demand drawdown of {gpu}",
            pl.col("gpu_group") == gpu,
            pl.col("pricing") == "on-demand",
        )
        n.add(f"{gpu}_drawdown", dd["drawdown_pct"], pct)
        n.add(f"{gpu}_peak_usd", dd["peak_usd_per_gpu_hour"], usd)
        n.add(f"{gpu}_peak_month", dd["peak_month"], month)
        n.add(f"{gpu}_latest_usd", dd["latest_usd_per_gpu_hour"], usd)
        n.add(f"{gpu}_latest_month", dd["latest_month"], month)
        n.add(f"{gpu}_peak_providers", dd["peak_n_providers"], lambda k: count(k, "provider"))
        n.add(f"{gpu}_latest_providers", dd["latest_n_providers"], lambda k: count(k, "provider"))
    n.add("h100_drawdown_signed", n.raw["h100_drawdown"], lambda x: pct(x, True))

    peak_quotes = gpu_prices.providers_in_month(
        prices, "h100", "on-demand", n.raw["h100_peak_month"]
    )
    top = one_row(peak_quotes, "a provider quoting the H100 in its peak month")
    n.add("peak_n_quotes", peak_quotes.height)
    n.add("peak_top_provider", top["provider"])
    n.add("peak_top_class", top["provider_class"])
    n.add("peak_top_usd", top["usd_per_gpu_hour"], usd)

    per_provider = gpu_prices.provider_drawdowns(prices, gpus=["h100"], min_months=min_months)
    deepest = one_row(per_provider.sort("drawdown_pct"), "an H100 provider's drawdown")
    median = per_provider["drawdown_pct"].median()
    n.add("min_months_per_provider", min_months)
    n.add("n_providers_own_peak", per_provider.height)
    n.add("provider_drawdown_median", median, pct)
    n.add("provider_drawdown_median_signed", median, lambda x: pct(x, True))
    n.add("deepest_drawdown", deepest["drawdown_pct"], pct)
    n.add("deepest_drawdown_signed", deepest["drawdown_pct"], lambda x: pct(x, True))
    n.add("deepest_provider", deepest["provider"])
    n.add("n_at_peak_now", per_provider.filter(pl.col("drawdown_pct") == 0).height)
    return n


def gap_numbers(gap: dict) -> Numbers:
    """Hyperscalers against smaller clouds (the summary of `gpu_prices.hyperscaler_gap`)."""
    n = Numbers()
    n.add("gap_ratio", gap["geometric_mean_ratio"], ".1f")
    n.add("gap_ci_low", gap["ci90_low"], ".1f")
    n.add("gap_ci_high", gap["ci90_high"], ".1f")
    n.add("gap_median", gap["median_ratio"], ".1f")
    n.add("gap_n", gap["n"])
    n.add("gap_n_gpus", gap["n_gpus"])
    n.add("gap_start", gap["start"], month)
    n.add("gap_end", gap["end"], month)
    return n


def age_numbers(by_age: pl.DataFrame) -> Numbers:
    """Price by age (from `on_demand_by_age`): the A100's and H100's latest month, and the
    months priced before the chip data's release date."""
    n = Numbers()
    for gpu in ("a100", "h100"):
        latest = one_row(by_age.sort("month", descending=True), gpu, pl.col("gpu_group") == gpu)
        n.add(f"{gpu}_age_years", latest["age_months"] / 12, ".1f")
        n.add(f"{gpu}_age_usd", latest["usd_per_gpu_hour"], usd)
    before = by_age.filter(pl.col("age_months") < 0)
    gpus = before["gpu_group"].unique().sort().to_list()
    n.add("before_release_gpus", gpus, lambda ids: " and ".join(views.gpu_names(ids)))
    n.add("n_before_release", before.height, lambda k: count(k, "month"))
    return n


def flops_numbers(at_release: pl.DataFrame, purchase: dict, rental: dict) -> Numbers:
    """FLOP/s per dollar: the purchase and rental trends (from `flops_per_dollar_trend`, growth
    in signed percent per year with the interval) and the two recent chips cheapest in FLOP/s
    per dollar at release."""
    n = Numbers()
    n.add("epoch_pct", purchase["epoch_reference_pct_per_year"], lambda x: f"{x:.0f}%")
    for name, trend in (("purchase", purchase), ("rental", rental)):
        n.add(f"{name}_pct", trend["pct_per_year"], lambda x: pct(x, True))
        n.add(f"{name}_pct_low", (trend["ci90_low"] - 1) * 100, lambda x: pct(x, True))
        n.add(f"{name}_pct_high", (trend["ci90_high"] - 1) * 100, lambda x: pct(x, True))
    n.add("purchase_n", purchase["n"])
    n.add("purchase_r2", purchase["r_squared"], ".2f")
    recent = at_release.filter(pl.col("release_date").dt.year() >= 2020)
    low = recent.sort("flop_per_s_per_usd").head(2)["gpu"].to_list()
    n.add("low_chips", low, lambda ids: " and ".join(views.gpu_names(ids)))
    return n


def h100_claim_numbers(
    prices: pl.DataFrame, claims: pl.DataFrame, *, months: int = CLAIM_WINDOW_MONTHS
) -> Numbers:
    """The digests' H100 claims against the data: the settled range (`settled_*`: the on-demand
    median across providers over the `months` to the claim, `gpu_prices.settled_range_check`),
    and the drawdown: the peak it implies (`implied_peak_*`) and the provider-month prices that
    reach it."""
    settled_claim = views.claim_row(claims, SETTLED_CLAIM)
    drawdown_claim = views.claim_row(claims, DRAWDOWN_CLAIM)
    series = on_demand_series(prices, "h100")
    low, high = settled_claim["value"], settled_claim["value_high"]
    settled = gpu_prices.settled_range_check(
        series, low, high, end=settled_claim["claim_date"], months=months
    )
    n = Numbers()
    n.add("settled_claim", settled_claim["claim"])
    n.add("settled_claim_low", low, usd)
    n.add("settled_claim_high", high, usd)
    n.add("claim_window_months", months)
    n.add("settled_start", settled["start"], "%Y-%m")
    n.add("settled_end", settled["end"], month)
    n.add("settled_n_months", settled["n_months"])
    n.add("settled_n_in_range", round(settled["share_in_range"] * settled["n_months"]))
    for stat in ("min", "max", "median"):
        n.add(f"settled_{stat}", settled[stat], usd)
    now = one_row(series.sort("month", descending=True), "an on-demand H100 month")
    n.add("h100_now_month", now["month"], month)
    n.add("h100_now_usd", now["usd_per_gpu_hour"], usd)

    n.add("drawdown_claim_low", drawdown_claim["value"], "g")
    n.add("drawdown_claim_high", drawdown_claim["value_high"], "g")
    peak_low = implied_peak(low, drawdown_claim["value"])
    n.add("implied_peak_low", peak_low, usd)
    n.add("implied_peak_high", implied_peak(high, drawdown_claim["value_high"]), usd)
    panel = gpu_prices.monthly_panel(prices, drop_aggregates=True).filter(
        pl.col("gpu_group") == "h100", pl.col("pricing") == "on-demand"
    )
    above = panel.filter(pl.col("usd_per_gpu_hour") >= peak_low).with_columns(
        gpu_prices.provider_class_expr()
    )
    dearest = one_row(panel.sort("usd_per_gpu_hour", descending=True), "an H100 on-demand price")
    n.add("h100_n_provider_months", panel.height, ",")
    n.add("n_above_implied_peak", above.height)
    n.add(
        "n_above_implied_peak_hyperscalers",
        above.filter(pl.col("provider_class") == "hyperscaler").height,
    )
    n.add("dearest_usd", dearest["usd_per_gpu_hour"], usd)
    n.add("dearest_provider", dearest["provider"])
    n.add("dearest_month", dearest["month"], month)
    return n


def tpu_claim_numbers(
    prices: pl.DataFrame, specs: pl.DataFrame, mlperf: pl.DataFrame, claims: pl.DataFrame
) -> Numbers:
    """The TPU v7 performance-per-dollar claim: how many TPU v7 prices and TPU MLPerf results the
    data holds, and the TPU v7 price at which its peak FP8 per dollar would beat the B200's
    latest on-demand median by the claimed margin (`gpu_prices.price_for_advantage`)."""
    claim = views.claim_row(claims, TPU_CLAIM)
    b200 = one_row(
        on_demand_series(prices, TPU_INCUMBENT).sort("month", descending=True),
        f"an on-demand {TPU_INCUMBENT} month",
    )
    edge = gpu_prices.price_for_advantage(
        specs, TPU_CHALLENGER, TPU_INCUMBENT, b200["usd_per_gpu_hour"], claim["value"] / 100
    )
    n = Numbers()
    n.add("tpu_claim", claim["claim"])
    n.add("tpu_claim_pct", claim["value"], "g")
    n.add("n_tpu7_prices", prices.filter(pl.col("gpu") == TPU_CHALLENGER).height, ",")
    n_mlperf = mlperf.filter(pl.col("accelerator").str.starts_with("tpu")).height
    n.add("n_tpu_mlperf", n_mlperf, ",")
    n.add("tpu_peak_ratio", edge["peak_ratio"], ".2f")
    n.add("tpu_max_usd", edge["max_challenger_usd_per_hour"], usd)
    n.add("b200_now_usd", b200["usd_per_gpu_hour"], usd)
    n.add("b200_now_month", b200["month"], month)
    return n


def claim_findings(numbers: Numbers) -> dict[str, str]:
    """What the data shows for each digest claim (claim_id -> text for the claims table), from
    the values `h100_claim_numbers`, `drawdown_numbers` and `tpu_claim_numbers` put in
    `numbers`."""
    t, raw = numbers, numbers.raw
    return {
        SETTLED_CLAIM: (
            "Monthly median on-demand H100 price across providers, "
            f"{t['settled_start']} to {raw['settled_end']:%Y-%m}: {t['settled_min']} to "
            f"{t['settled_max']} (median {t['settled_median']}); {t['settled_n_in_range']} of "
            f"{t['settled_n_months']} months inside the claimed range."
        ),
        DRAWDOWN_CLAIM: (
            f"Median across providers: {t['h100_drawdown_signed']} from {t['h100_peak_usd']} "
            f"({raw['h100_peak_month']:%Y-%m}) to {t['h100_latest_usd']}. Each of "
            f"{t['n_providers_own_peak']} providers against its own peak: median "
            f"{t['provider_drawdown_median_signed']}, deepest {t['deepest_drawdown_signed']} "
            f"({t['deepest_provider']})."
        ),
        TPU_CLAIM: (
            f"Not testable: {t['n_tpu7_prices']} TPU v7 prices and {t['n_tpu_mlperf']} TPU MLPerf "
            f"results in the data. On the spec sheet TPU v7 has {t['tpu_peak_ratio']}x B200's "
            f"peak FP8, so the claim needs TPU v7 at or below {t['tpu_max_usd']} per chip-hour "
            f"against B200's {t['b200_now_usd']}."
        ),
    }
