"""The estimate registry: every headline estimate of the book, each defined once.

Each estimate is a function of the data version returning an `Estimate` (value, 90% interval, n,
window, method, chapter). The chapters, the summary page and `python -m analysis estimates` all
call `estimate(id, version)`, so a number cannot be selected two ways. Nothing is typed here: the
values come from `analysis.report.results`.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from analysis.data import gpu_evidence
from analysis.methods import llmflation, tokens_per_dollar
from analysis.methods.trends import InsufficientData
from analysis.report import results
from analysis.report.quote import Estimate

COLUMNS = {
    "estimate_id": pl.String,
    "description": pl.String,
    "value": pl.Float64,
    "unit": pl.String,
    "ci90_low": pl.Float64,
    "ci90_high": pl.Float64,
    "n": pl.Int64,
    "window_start": pl.Date,
    "window_end": pl.Date,
    "method": pl.String,
    "chapter": pl.String,
    "data_version": pl.String,
}

FACTOR_UNIT = "factor per year (price falls)"

# The trends the headline estimates follow (benchmark, the model whose score sets the threshold).
GPT4_GPQA = ("gpqa-diamond", "gpt-4-0314")

REGISTRY: dict[str, Callable[[str], Estimate]] = {}


def _register(fn: Callable[[str], Estimate]) -> Callable[[str], Estimate]:
    REGISTRY[fn.__name__.replace("_", "-")] = fn
    return fn


def _trend(estimate_id: str, v: str, r: dict, **fields) -> Estimate:
    """An estimate from one fitted trend row (factor per year with its t-interval)."""
    return Estimate(
        r["factor_per_year"],
        "factor",
        estimate_id=estimate_id,
        unit=FACTOR_UNIT,
        low=r["ci90_low"],
        high=r["ci90_high"],
        n=r["n"],
        window_start=r.get("start_date", r.get("start_month")),
        window_end=r.get("end_date", r.get("end_month")),
        data_version=v,
        **fields,
    )


@_register
def epoch_gpqa_gpt4_level(v: str) -> Estimate:
    return _trend(
        "epoch-gpqa-gpt4-level",
        v,
        results.trend_row(results.epoch(v), *GPT4_GPQA),
        description="Price of GPT-4-level performance on GPQA Diamond, Epoch AI's data and method",
        method="Epoch AI staircase, OLS of log10 price on date, 3:1 blend, reasoning models excluded",
        chapter="fixed-capability",
    )


@_register
def full_data_gpqa_gpt4_level(v: str) -> Estimate:
    return _trend(
        "full-data-gpqa-gpt4-level",
        v,
        results.trend_row(results.extension(v), *GPT4_GPQA),
        description="Price of GPT-4-level performance on GPQA Diamond, all sources to the end of the data",
        method="Epoch AI staircase on the full data, 3:1 blend, reasoning models excluded",
        chapter="fixed-capability",
    )


@_register
def full_data_median_factor(v: str) -> Estimate:
    ext = results.extension(v)
    return Estimate(
        ext["factor_per_year"].median(),
        "factor",
        estimate_id="full-data-median-factor",
        description="Median fixed-capability decline factor across benchmarks and thresholds, full data",
        unit=FACTOR_UNIT,
        n=ext.height,
        window_start=ext["start_date"].min(),
        window_end=ext["end_date"].max(),
        method="median over every threshold's staircase trend (MMLU, MMLU-Pro, GPQA Diamond, Arena Elo, ECI)",
        chapter="fixed-capability",
        data_version=v,
    )


def _a16z(estimate_id: str, v: str, key: str, label: str) -> Estimate:
    return _trend(
        estimate_id,
        v,
        results.a16z(v)[1][key],
        description=(
            f"Cheapest model with MMLU >= {llmflation.A16Z_THRESHOLD:g} each month, 1:1 blend, "
            f"fitted over {label}"
        ),
        method="a16z LLMflation monthly minimum; OLS of log10 price on date (intervals too narrow: autocorrelated)",
        chapter="fixed-capability",
    )


@_register
def a16z_a16z_window(v: str) -> Estimate:
    return _a16z("a16z-a16z-window", v, "a16z_window", "a16z's window")


@_register
def a16z_full_window(v: str) -> Estimate:
    return _a16z("a16z-full-window", v, "full_window", "the full data")


@_register
def hedonic_gpqa_frontier(v: str) -> Estimate:
    fits = results.hedonic_fits(v)
    row = fits.filter(
        (pl.col("benchmark") == "gpqa-diamond") & (pl.col("sample") == "frontier")
    ).row(0, named=True)
    return _trend(
        "hedonic-gpqa-frontier",
        v,
        row,
        description="Quality-adjusted price decline, GPQA Diamond, running Pareto frontier",
        method="Gundlach et al.: OLS ln(price) = a days + b logit(score) + c, HC3 errors, t(n-3)",
        chapter="quality-adjusted",
    )


@_register
def open_model_spread_share(v: str) -> Estimate:
    spread = results.spread(v)["blended"]
    return Estimate(
        spread["share_reaching"],
        "share",
        estimate_id="open-model-spread-share",
        description=(
            "Share of open-model months where the dearest provider charges at least "
            f"{spread['threshold']:g}x the cheapest"
        ),
        unit="share of model-months",
        n=spread["n_model_months"],
        window_start=spread["first_month"],
        window_end=spread["last_month"],
        method="blended 3:1 list prices in force per model, provider and month",
        chapter="token-prices",
        data_version=v,
        extra={"threshold": spread["threshold"]},
    )


def _h100_decline(v: str, estimate_id: str, evidence: str, label: str) -> Estimate:
    """The H100 on-demand decline on one evidence variant (`gpu_evidence.VARIANTS`), naming its
    evidence classes and provider count in the method (issue 19, class 10)."""
    row = results.gpu_decline(v, "h100", "on-demand", evidence)
    ev = results.gpu_panel_evidence(v, "h100", "on-demand", evidence)
    per_class = ", ".join(f"{gpu_evidence.LABELS[c]} {ev['n_by_class'][c]}" for c in ev["classes"])
    return _trend(
        estimate_id,
        v,
        row,
        description=f"H100 on-demand GPU-hour price decline, {label}",
        method=(
            "OLS of log price on date with provider fixed effects, monthly provider medians; "
            f"evidence: {gpu_evidence.describe(ev['classes'])} (provider-months: {per_class}); "
            f"{row['n_providers']} providers"
        ),
        chapter="gpu-hour-prices",
        extra={
            "evidence": evidence,
            "evidence_classes": ev["classes"],
            "n_by_class": ev["n_by_class"],
            "n_providers": row["n_providers"],
        },
    )


@_register
def h100_on_demand_decline(v: str) -> Estimate:
    return _h100_decline(
        v, "h100-on-demand-decline", "direct", "direct observations (listings, marketplaces)"
    )


@_register
def h100_on_demand_decline_without_restated(v: str) -> Estimate:
    return _h100_decline(
        v,
        "h100-on-demand-decline-without-restated",
        "without-restated",
        "all rows but the index's restated reconstructions",
    )


@_register
def h100_on_demand_decline_all(v: str) -> Estimate:
    return _h100_decline(
        v, "h100-on-demand-decline-all", "all", "all rows, restated reconstructions included"
    )


@_register
def gpu_hedonic_index_latest(v: str) -> Estimate:
    index, info = results.gpu_index(v)
    last = index.sort("period").row(-1, named=True)
    ev = results.gpu_index_evidence(v)
    return Estimate(
        last["index"],
        "number",
        estimate_id="gpu-hedonic-index-latest",
        description=(
            "Time-dummy hedonic index of GPU-hour prices, latest month "
            f"(base {info['base_period']:%Y-%m} = 1)"
        ),
        unit="index",
        low=last["ci_low"],
        high=last["ci_high"],
        n=info["n"],
        window_start=info["start"],
        window_end=info["end"],
        method=(
            f"{info['method']}; evidence: {gpu_evidence.describe(ev['classes'])} (rows: "
            + ", ".join(f"{gpu_evidence.LABELS[c]} {n}" for c, n in ev["n_by_class"].items())
            + f"); {ev['n_providers']} providers"
        ),
        chapter="gpu-hour-prices",
        data_version=v,
        extra={"base_period": info["base_period"], **ev},
    )


@_register
def mlperf_llama2_70b_cost(v: str) -> Estimate:
    cheapest = (
        tokens_per_dollar.cheapest_by_round(results.mlperf_costs(v))
        .filter(
            (pl.col("base_model") == tokens_per_dollar.BENCHMARK)
            & (pl.col("scenario") == tokens_per_dollar.SCENARIO)
        )
        .sort("date")
    )
    latest = cheapest.row(-1, named=True)
    costs = tokens_per_dollar.cost_range(
        results.defensible_prices(v, latest["accelerator"], latest["date"]),
        latest["tokens_per_s_per_accelerator"],
    )
    used = costs.filter(pl.col("usd_per_gpu_hour") == latest["usd_per_gpu_hour"]).row(0, named=True)
    low, high = costs["usd_per_mtok"].min(), costs["usd_per_mtok"].max()
    return Estimate(
        latest["hardware_usd_per_mtok"],
        "usd",
        estimate_id="mlperf-llama2-70b-cost",
        description=(
            "Hardware cost per million generated tokens, Llama 2 70B, MLPerf "
            f"{latest['round']} (best system, on-demand GPU-hours, full utilisation)"
        ),
        unit="USD per 1M output tokens",
        window_start=latest["date"],
        window_end=latest["date"],
        method=(
            "USD per GPU-hour / (tokens/s per accelerator x 3600 / 1e6); GPU-hour price: "
            f"{used['price_gpu']} {used['price']} ${used['usd_per_gpu_hour']:.2f} "
            f"({used['price_month']:%Y-%m}, {used['n_providers']} providers, evidence: "
            f"{used['evidence']}); range over {costs.height} defensible prices "
            f"${low:.3f} to ${high:.3f} per 1M tokens ("
            + ", ".join(
                f"{r['price']} ${r['usd_per_gpu_hour']:.2f}" for r in costs.iter_rows(named=True)
            )
            + ")"
        ),
        chapter="tokens-per-dollar",
        data_version=v,
        extra={
            "price": used,
            "range_low": low,
            "range_high": high,
            "defensible": costs.to_dicts(),
        },
    )


def estimate(estimate_id: str, version: str | None = None) -> Estimate:
    """One headline estimate of a data version (None: the current one)."""
    if estimate_id not in REGISTRY:
        raise KeyError(f"no estimate {estimate_id!r}; known: {', '.join(REGISTRY)}")
    v = results.version(version)
    try:
        return REGISTRY[estimate_id](v)
    except InsufficientData as err:  # data too thin for the method: stated, never a traceback
        return Estimate.not_available(estimate_id, str(err), v)


def all_estimates(version: str | None = None) -> dict[str, Estimate]:
    return {key: estimate(key, version) for key in REGISTRY}


def headline(version: str | None = None) -> pl.DataFrame:
    """Every headline estimate of one data version, one row each."""
    rows = [e.as_row() for e in all_estimates(version).values()]
    return pl.DataFrame(rows, schema=COLUMNS)
