"""The book's quotable estimates in one table, for memos: `python -m analysis estimates`.

Each row is one number a reader might cite, with its interval, sample size, window, method,
the chapter that explains it and the data version it comes from. The numbers are computed by
the same functions the chapters call; nothing is typed here.
"""

from __future__ import annotations

import polars as pl

from analysis.data import release as data

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


def _row(
    estimate_id,
    description,
    value,
    unit,
    *,
    low=None,
    high=None,
    n=None,
    start=None,
    end=None,
    method,
    chapter,
) -> dict:
    return {
        "estimate_id": estimate_id,
        "description": description,
        "value": float(value),
        "unit": unit,
        "ci90_low": None if low is None else float(low),
        "ci90_high": None if high is None else float(high),
        "n": n,
        "window_start": start,
        "window_end": end,
        "method": method,
        "chapter": chapter,
    }


def _from_trend(estimate_id: str, description: str, r: dict, method: str, chapter: str) -> dict:
    return _row(
        estimate_id,
        description,
        r["factor_per_year"],
        "factor per year (price falls)",
        low=r["ci90_low"],
        high=r["ci90_high"],
        n=r["n"],
        start=r["start_date"],
        end=r["end_date"],
        method=method,
        chapter=chapter,
    )


def token_price_estimates(version: str) -> list[dict]:
    from analysis.methods import dispersion, fixed_capability, hedonic, llmflation

    tp, scores, models = (
        data.load("token_prices", version),
        data.load("benchmark_scores", version),
        data.load("models", version),
    )
    rows = []
    epoch = fixed_capability.reproduce_epoch(tp, scores, models)
    gpqa = epoch.filter(
        (pl.col("benchmark") == "gpqa-diamond") & (pl.col("threshold_model") == "GPT-4-0314")
    ).row(0, named=True)
    rows.append(
        _from_trend(
            "epoch-gpqa-gpt4-level",
            "Price of GPT-4-level performance on GPQA Diamond, Epoch AI's data and method",
            gpqa,
            "Epoch AI staircase, OLS of log10 price on date, 3:1 blend, reasoning models excluded",
            "fixed-capability",
        )
    )
    ext = fixed_capability.extension_trends(tp, scores, models)
    gpqa_ext = ext.filter(
        (pl.col("benchmark") == "gpqa-diamond") & (pl.col("threshold_model") == "gpt-4-0314")
    ).row(0, named=True)
    rows.append(
        _from_trend(
            "full-data-gpqa-gpt4-level",
            "Price of GPT-4-level performance on GPQA Diamond, all sources to the end of the data",
            gpqa_ext,
            "Epoch AI staircase on the full data, 3:1 blend, reasoning models excluded",
            "fixed-capability",
        )
    )
    rows.append(
        _row(
            "full-data-median-factor",
            "Median fixed-capability decline factor across benchmarks and thresholds, full data",
            ext["factor_per_year"].median(),
            "factor per year (price falls)",
            n=ext.height,
            start=ext["start_date"].min(),
            end=ext["end_date"].max(),
            method="median over every threshold's staircase trend (MMLU, MMLU-Pro, GPQA Diamond, Arena Elo, ECI)",
            chapter="fixed-capability",
        )
    )
    _, fits = llmflation.reproduce_a16z(version)
    for key, label in (("a16z_window", "a16z's window"), ("full_window", "the full data")):
        f = fits[key]
        rows.append(
            _row(
                f"a16z-{key.replace('_', '-')}",
                f"Cheapest model with MMLU >= 42 each month, 1:1 blend, fitted over {label}",
                f["factor_per_year"],
                "factor per year (price falls)",
                low=f["ci90_low"],
                high=f["ci90_high"],
                n=f["n"],
                start=f["start_month"],
                end=f["end_month"],
                method="a16z LLMflation monthly minimum; OLS of log10 price on date (intervals too narrow: autocorrelated)",
                chapter="fixed-capability",
            )
        )
    hed = hedonic.hedonic_table(
        tp, scores, models, benchmarks=["gpqa-diamond"], samples=["frontier"]
    ).row(0, named=True)
    rows.append(
        _from_trend(
            "hedonic-gpqa-frontier",
            "Quality-adjusted price decline, GPQA Diamond, running Pareto frontier",
            hed,
            "Gundlach et al.: OLS ln(price) = a days + b logit(score) + c, HC3 errors, t(n-3)",
            "quality-adjusted",
        )
    )
    spread = dispersion.summary(tp, models, data.load("claims", version))["blended"]
    rows.append(
        _row(
            "open-model-spread-share",
            f"Share of open-model months where the dearest provider charges at least {spread['threshold']:g}x the cheapest",
            spread["share_reaching"],
            "share of model-months",
            n=spread["n_model_months"],
            start=spread["first_month"],
            end=spread["last_month"],
            method="blended 3:1 list prices in force per model, provider and month",
            chapter="token-prices",
        )
    )
    return rows


def hardware_estimates(version: str) -> list[dict]:
    from analysis.chapters import tokens_per_dollar as tokens_chapter
    from analysis.methods import gpu_prices, tokens_per_dollar

    prices = data.load("gpu_hour_prices", version)
    rows = []
    rates = gpu_prices.decline_rates(prices, data_version=version)
    h100 = rates.filter((pl.col("gpu_group") == "h100") & (pl.col("pricing") == "on-demand")).row(
        0, named=True
    )
    rows.append(
        _from_trend(
            "h100-on-demand-decline",
            "H100 on-demand GPU-hour price decline",
            h100,
            "OLS of log price on date with provider fixed effects, monthly provider medians",
            "gpu-hour-prices",
        )
    )
    index, info = gpu_prices.hedonic_index(
        prices, data_version=version, start=gpu_prices.unbroken_months_start(prices)
    )
    last = index.sort("period").row(-1, named=True)
    rows.append(
        _row(
            "gpu-hedonic-index-latest",
            f"Time-dummy hedonic index of GPU-hour prices, latest month (base {info['base_period']:%Y-%m} = 1)",
            last["index"],
            "index",
            low=last["ci_low"],
            high=last["ci_high"],
            n=info["n"],
            start=info["start"],
            end=info["end"],
            method=info["method"],
            chapter="gpu-hour-prices",
        )
    )
    per_acc = tokens_per_dollar.mlperf_per_accelerator(data.load("mlperf_results", version))
    # The tokens-per-dollar chapter's own settings, so the memo number is the chapter's number.
    costs = tokens_per_dollar.mlperf_usd_per_mtok(
        per_acc,
        prices,
        pricing=tokens_chapter.PRICING,
        max_lag_months=tokens_chapter.MAX_LAG_MONTHS,
    )
    cheapest = (
        tokens_per_dollar.cheapest_by_round(costs)
        .filter(
            (pl.col("base_model") == tokens_chapter.BENCHMARK)
            & (pl.col("scenario") == tokens_chapter.SCENARIO)
        )
        .sort("date")
    )
    latest = cheapest.row(-1, named=True)
    rows.append(
        _row(
            "mlperf-llama2-70b-cost",
            f"Hardware cost per million generated tokens, Llama 2 70B, MLPerf {latest['round']} (best system, on-demand GPU-hours, full utilisation)",
            latest["hardware_usd_per_mtok"],
            "USD per 1M output tokens",
            start=latest["date"],
            end=latest["date"],
            method="USD per GPU-hour / (tokens/s per accelerator x 3600 / 1e6)",
            chapter="tokens-per-dollar",
        )
    )
    return rows


def headline(version: str | None = None) -> pl.DataFrame:
    """Every quotable estimate of one data version, one row each."""
    v = data.current_version(version)
    rows = token_price_estimates(v) + hardware_estimates(v)
    return pl.DataFrame([{**r, "data_version": v} for r in rows], schema=COLUMNS)
