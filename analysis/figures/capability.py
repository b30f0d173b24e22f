"""Charts, tables and sensitivity runs for the chapter on the price of a fixed capability."""

from __future__ import annotations

from datetime import date

import altair as alt
import polars as pl
from great_tables import GT

from analysis.figures.theme import PALETTE
from analysis.methods import fixed_capability as fc
from analysis.methods.trends import fit_log_trend

BENCHMARK_NAMES = {
    "mmlu": "MMLU",
    "mmlu-pro": "MMLU-Pro",
    "gpqa-diamond": "GPQA Diamond",
    "humaneval": "HumanEval",
    "math-500": "MATH-500",
    "math-level-5": "MATH level 5",
    "arena-elo": "Arena Elo",
    "eci": "Epoch Capabilities Index",
}


def staircase_chart(
    obs: pl.DataFrame, benchmark: str, threshold_model: str, threshold_score: float
) -> alt.LayerChart:
    """Every model at or above the threshold (grey), the cheapest-so-far staircase (coloured), and
    the fitted trend through the staircase, on a log price scale."""
    above = obs.filter(pl.col("score") >= threshold_score).with_columns(
        pl.lit("at or above the threshold").alias("kind")
    )
    steps = fc.staircase(obs, threshold_score)
    fit = fit_log_trend(steps["date"].to_list(), steps["price"].to_list(), min_points=fc.MIN_POINTS)
    line = pl.DataFrame({"date": [fit.start_date, fit.end_date]}).with_columns(
        pl.col("date")
        .map_elements(
            lambda d: 10 ** (fit.intercept + fit.slope_per_day * d.toordinal()),
            return_dtype=pl.Float64,
        )
        .alias("price")
    )
    name = BENCHMARK_NAMES.get(benchmark, benchmark)
    y = alt.Y(
        "price:Q", scale=alt.Scale(type="log"), title="USD per 1M tokens (3:1 blend, log scale)"
    )
    base = (
        alt.Chart(above)
        .mark_point(color="#BBBBBB", filled=True)
        .encode(
            x=alt.X("date:T", title="Date of price"),
            y=y,
            tooltip=["model:N", "date:T", "price:Q", "score:Q"],
        )
    )
    stairs = (
        alt.Chart(steps)
        .mark_line(point=True, interpolate="step-after", color=PALETTE[0])
        .encode(x="date:T", y="price:Q", tooltip=["model:N", "date:T", "price:Q", "score:Q"])
    )
    trend = (
        alt.Chart(line)
        .mark_line(strokeDash=[6, 4], color=PALETTE[3])
        .encode(x="date:T", y="price:Q")
    )
    return (base + stairs + trend).properties(
        title=alt.Title(
            f"{name} >= {threshold_score:g} ({threshold_model}'s score)",
            subtitle=f"falls {fit.factor_per_year:,.0f}x per year (90% CI {fit.ci90_low:,.0f}x to {fit.ci90_high:,.0f}x), n = {fit.n}",
        ),
        description=f"Price of models scoring at least {threshold_score:g} on {name}, with the cheapest-so-far staircase and its fitted trend",
    )


def factors_chart(table: pl.DataFrame, title: str) -> alt.Chart:
    """Each trend's factor per year with its 90% interval, by benchmark (log scale)."""
    df = table.with_columns(
        pl.col("benchmark")
        .replace_strict(BENCHMARK_NAMES, default=pl.col("benchmark"))
        .alias("benchmark_name"),
        # Benchmark in the label: one model can set thresholds on several benchmarks.
        pl.format(
            "{}: {} ({})",
            pl.col("benchmark"),
            pl.col("threshold_model"),
            pl.col("threshold_score").round(1),
        ).alias("threshold"),
    )
    x = alt.X(
        "factor_per_year:Q",
        scale=alt.Scale(type="log"),
        title="Price falls by this factor per year (log scale)",
    )
    points = (
        alt.Chart(df)
        .mark_point(filled=True, size=60)
        .encode(
            x=x,
            y=alt.Y("threshold:N", sort=None, title=None),
            color=alt.Color("benchmark_name:N", title="Benchmark"),
            tooltip=[
                "benchmark_name:N",
                "threshold:N",
                "n:Q",
                "factor_per_year:Q",
                "ci90_low:Q",
                "ci90_high:Q",
            ],
        )
    )
    bars = (
        alt.Chart(df)
        .mark_rule()
        .encode(
            x="ci90_low:Q",
            x2="ci90_high:Q",
            y=alt.Y("threshold:N", sort=None),
            color="benchmark_name:N",
        )
    )
    return (bars + points).properties(title=title, height=alt.Step(16), description=title)


def trends_table(table: pl.DataFrame, *, bootstrap: bool = False) -> GT:
    df = table.with_columns(
        pl.col("benchmark").replace_strict(BENCHMARK_NAMES, default=pl.col("benchmark"))
    )
    cols = list(fc.RESULT_COLUMNS)
    if bootstrap:
        cols += ["boot90_low", "boot90_high"]
    gt = (
        GT(df.select(cols), groupname_col="benchmark")
        .cols_label(
            threshold_model="Threshold set by",
            threshold_score="Score",
            n="Points",
            start_date="From",
            end_date="To",
            factor_per_year="Factor / year",
            ci90_low="90% CI low",
            ci90_high="90% CI high",
            r_squared="R²",
        )
        .fmt_number(["threshold_score"], decimals=1)
        .fmt_number(["factor_per_year", "ci90_low", "ci90_high"], n_sigfig=3)
        .fmt_number(["r_squared"], decimals=2)
    )
    if bootstrap:
        gt = gt.cols_label(boot90_low="Bootstrap low", boot90_high="Bootstrap high").fmt_number(
            ["boot90_low", "boot90_high"], n_sigfig=3
        )
    return gt


def sensitivity(
    token_prices: pl.DataFrame,
    scores: pl.DataFrame,
    models: pl.DataFrame,
    benchmark: str,
    threshold_model: str,
) -> pl.DataFrame:
    """One threshold's factor per year under other choices: blend ratio, reasoning models, window."""
    rows = []

    def run(label: str, obs: pl.DataFrame) -> None:
        try:
            score = obs.filter(pl.col("model") == threshold_model)["score"][0]
            r = fc.trend(obs, benchmark, threshold_model, score)
        except (IndexError, ValueError) as err:  # too few points, or the model absent
            rows.append(
                {
                    "variant": label,
                    "n": None,
                    "factor_per_year": None,
                    "ci90_low": None,
                    "ci90_high": None,
                    "note": str(err),
                }
            )
            return
        rows.append(
            {
                "variant": label,
                **{k: r[k] for k in ("n", "factor_per_year", "ci90_low", "ci90_high")},
                "note": "",
            }
        )

    for ratio in [(3, 1), (1, 1), (1, 3), (10, 1)]:
        obs = fc.full_observations(token_prices, scores, models, benchmark, ratio=ratio)
        run(f"blend {ratio[0]}:{ratio[1]} input:output", obs)
        if ratio != (3, 1):
            # Epoch's rows give only a 3:1 blend, so other blends lose the 2021-2023 history.
            rows[-1]["note"] = (
                rows[-1]["note"] + " Sources giving only a 3:1 blend are left out."
            ).strip()
    run(
        "reasoning models included",
        fc.full_observations(token_prices, scores, models, benchmark, include_reasoning=True),
    )
    base = fc.full_observations(token_prices, scores, models, benchmark)
    run("prices up to 2024-12-31 only", base.filter(pl.col("date") <= date(2024, 12, 31)))
    run("prices up to 2025-06-30 only", base.filter(pl.col("date") <= date(2025, 6, 30)))
    return pl.DataFrame(
        rows,
        schema={
            "variant": pl.String,
            "n": pl.Int64,
            "factor_per_year": pl.Float64,
            "ci90_low": pl.Float64,
            "ci90_high": pl.Float64,
            "note": pl.String,
        },
    )


def sensitivity_table(df: pl.DataFrame) -> GT:
    return (
        GT(df)
        .cols_label(
            variant="Variant",
            n="Points",
            factor_per_year="Factor / year",
            ci90_low="90% CI low",
            ci90_high="90% CI high",
            note="Note",
        )
        .fmt_number(["factor_per_year", "ci90_low", "ci90_high"], n_sigfig=3)
        .sub_missing(missing_text="")
    )


def a16z_chart(series: pl.DataFrame, fit: dict) -> alt.LayerChart:
    """The monthly cheapest price of a model with MMLU >= 42 (1:1 blend), log scale, with the
    fitted trend over a16z's window."""
    start, end = fit["start_month"], fit["end_month"]
    slope = pl.Series([fit["factor_per_year"]]).log(10)[0] / 365
    # An OLS line passes through the means: anchor the fitted slope at the window's mean date and log price.
    window = series.filter(pl.col("month").is_between(start, end))
    centre_day = sum(d.toordinal() for d in window["month"]) / window.height
    centre_log = window["price"].log(10).mean()
    line = pl.DataFrame({"month": [start, end]}).with_columns(
        pl.col("month")
        .map_elements(
            lambda d: 10 ** (centre_log - slope * (d.toordinal() - centre_day)),
            return_dtype=pl.Float64,
        )
        .alias("price")
    )
    points = (
        alt.Chart(series)
        .mark_line(point=True, interpolate="step-after", color=PALETTE[0])
        .encode(
            x=alt.X("month:T", title="Month"),
            y=alt.Y(
                "price:Q",
                scale=alt.Scale(type="log"),
                title="USD per 1M tokens (1:1 blend, log scale)",
            ),
            tooltip=["month:T", "model_id:N", "provider:N", "price:Q", "mmlu:Q", "source:N"],
        )
    )
    trend = (
        alt.Chart(line)
        .mark_line(strokeDash=[6, 4], color=PALETTE[3])
        .encode(x="month:T", y="price:Q")
    )
    return (points + trend).properties(
        title=alt.Title(
            "Cheapest model with MMLU >= 42, each month",
            subtitle=f"trend over {start:%b %Y}-{end:%b %Y}: {fit['factor_per_year']:.1f}x per year (90% CI {fit['ci90_low']:.1f}x to {fit['ci90_high']:.1f}x)",
        ),
        description="Monthly cheapest 1:1-blended price of a model scoring at least 42 on MMLU, with the fitted trend over a16z's window",
    )


def a16z_table(fits_frame: pl.DataFrame) -> GT:
    df = fits_frame.select(
        "window",
        "start_month",
        "end_month",
        "n",
        "factor_per_year",
        "ci90_low",
        "ci90_high",
        "endpoint_factor_per_year",
        "first_model",
        "first_price",
        "last_model",
        "last_price",
    ).with_columns(
        pl.col("start_month").dt.strftime("%Y-%m"), pl.col("end_month").dt.strftime("%Y-%m")
    )
    return (
        GT(df)
        .cols_label(
            window="Window and rule",
            start_month="From",
            end_month="To",
            n="Months",
            factor_per_year="Fitted factor / year",
            ci90_low="90% CI low",
            ci90_high="90% CI high",
            endpoint_factor_per_year="First-to-last factor / year",
            first_model="First month's model",
            first_price="Price",
            last_model="Last month's model",
            last_price="Price",
        )
        .fmt_number(
            ["factor_per_year", "ci90_low", "ci90_high", "endpoint_factor_per_year"], n_sigfig=3
        )
        .fmt_number(["first_price", "last_price"], n_sigfig=3)
    )
