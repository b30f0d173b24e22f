"""Charts and tables for the chapter on the price of a fixed capability.

They draw what the page's cells make with `analysis.methods.fixed_capability` and `llmflation`
and compute nothing: the staircase, its fit (a `trends.DeclineFit`, whose `line()` is the trend
drawn), the a16z series and its fitted line come in ready. `BENCHMARK_NAMES` are the display names other pages use too.
"""

from __future__ import annotations

import altair as alt
import polars as pl
from great_tables import GT

from analysis.figures.theme import PALETTE, display_name, named

BENCHMARK_NAMES = {
    "mmlu": "MMLU",
    "mmlu-pro": "MMLU-Pro",
    "gpqa-diamond": "GPQA Diamond",
    "humaneval": "HumanEval",
    "math-500": "MATH-500",
    "math-level-5": "MATH level 5",
    "arena-elo": "Arena Elo",
    "eci": "Epoch Capabilities Index",
    "aa-intelligence-index": "Artificial Analysis Intelligence Index",
}
# The score sources of the one-snapshot series (the 2026 extension).
SOURCE_NAMES = {
    "aa-leaderboards-oolong": "Artificial Analysis, latest snapshot",
    "epoch-benchmarking-hub-2026-04": "Epoch Benchmarking Hub, April 2026 export",
}
# The columns of a fixed-capability trends table (`fixed_capability.RESULT_COLUMNS`) it shows.
# One row per distinct threshold, naming every model that set it (tied models share a row).
TREND_COLUMNS = [
    "benchmark",
    "threshold_models",
    "threshold_score",
    "n",
    "start_date",
    "end_date",
    "factor_per_year",
    "ci90_low",
    "ci90_high",
    "r_squared",
]


def staircase_chart(above: pl.DataFrame, steps: pl.DataFrame, fit, trend: dict) -> alt.LayerChart:
    """Every model at or above the threshold (`above`, grey), the cheapest-so-far staircase
    (`steps`, coloured), and the trend fitted through the staircase (`fit`, a DeclineFit), on a
    log price scale. `trend` is the threshold's row of a fixed-capability trends table (its
    benchmark, threshold model and score name the chart)."""
    benchmark, threshold_model = trend["benchmark"], display_name("model", trend["threshold_model"])
    threshold_score = trend["threshold_score"]
    above = above.with_columns(
        pl.lit("at or above the threshold").alias("kind"), named("model", "model")
    )
    steps = steps.with_columns(named("model", "model"))
    line = fit.line()
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
        named("threshold_model", "model").alias("threshold_name"),
    )
    df = df.with_columns(_threshold_label(df).alias("threshold"))
    x = alt.X(
        "factor_per_year:Q",
        scale=alt.Scale(type="log"),
        title="Price falls by this factor per year (log scale)",
        axis=FACTOR_AXIS,
    )
    y = alt.Y("threshold:N", sort=None, title=None, axis=ROW_AXIS)
    points = (
        alt.Chart(df)
        .mark_point(filled=True, size=60)
        .encode(
            x=x,
            y=y,
            color=alt.Color(
                "benchmark_name:N",
                title="Benchmark",
                legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=0),
            ),
            tooltip=[
                "benchmark_name:N",
                alt.Tooltip("threshold_name:N", title="threshold model"),
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
            y=y,
            color="benchmark_name:N",
        )
    )
    return (bars + points).properties(title=title, height=alt.Step(ROW_STEP), description=title)


def trends_gt(table: pl.DataFrame, *, bootstrap: bool = False) -> GT:
    """A fixed-capability trends table grouped by benchmark; with `bootstrap`, the bootstrap
    interval beside the t-interval."""
    df = table.with_columns(
        pl.col("benchmark").replace_strict(BENCHMARK_NAMES, default=pl.col("benchmark"))
    )
    cols = list(TREND_COLUMNS)
    if bootstrap:
        cols += ["boot90_low", "boot90_high"]
    gt = _trend_columns(GT(df.select(cols), groupname_col="benchmark"))
    if bootstrap:
        gt = gt.cols_label(boot90_low="Bootstrap low", boot90_high="Bootstrap high").fmt_number(
            ["boot90_low", "boot90_high"], n_sigfig=3
        )
    return gt


def sensitivity_gt(df: pl.DataFrame) -> GT:
    """`sensitivity.sensitivity`: one row per variant, blank where a variant has no estimate."""
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


def a16z_chart(series: pl.DataFrame, line: pl.DataFrame, fit: dict) -> alt.LayerChart:
    """The monthly cheapest price of a model with MMLU >= 42 (1:1 blend, `llmflation.monthly_minimum`),
    log scale, with the fitted trend over a16z's window (`line`: month, price; `fit`: its
    `llmflation.a16z_fit`)."""
    start, end = fit["start_month"], fit["end_month"]
    points = (
        alt.Chart(
            series.with_columns(
                named("model_id", "model").alias("model"),
                named("provider", "provider").alias("seller"),
            )
        )
        .mark_line(point=True, interpolate="step-after", color=PALETTE[0])
        .encode(
            x=alt.X("month:T", title="Month"),
            y=alt.Y(
                "price:Q",
                scale=alt.Scale(type="log"),
                title="USD per 1M tokens (1:1 blend, log scale)",
            ),
            tooltip=[
                "month:T",
                alt.Tooltip("model:N", title="Model"),
                alt.Tooltip("seller:N", title="Sold by"),
                "price:Q",
                "mmlu:Q",
                "source:N",
            ],
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


def a16z_gt(fits_frame: pl.DataFrame) -> GT:
    """`llmflation.fits_table`: each window and rule, fitted and first-to-last factors."""
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
        pl.col("start_month").dt.strftime("%Y-%m"),
        pl.col("end_month").dt.strftime("%Y-%m"),
        named("first_model", "model"),
        named("last_model", "model"),
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


# A threshold's row in the trend charts is keyed "Benchmark: Model (score)" (one model can set
# thresholds on several benchmarks, and each keeps its own row) and labelled with what follows
# the benchmark's name, which the colour or the shape gives: the label fits the 1024 px window's
# column (215 px: a 222 px label, "GPT-4 Turbo preview (Nov 2023) (42.4)", ran 6 px past the
# left edge at 541 px). The tooltip keeps the whole key.
# "Model (score)", the benchmark cut off (the colour says it), on one line and never cut (the
# rows are too close for two); a long model name is shortened (`_threshold_label`). The label
# column is at least 225 px, room for 40 characters of 11 px text in a font wider than
# Helvetica (a fallback sans-serif): Vega sizes it to the widest label as it measures it.
ROW_AXIS = alt.Axis(
    labelExpr="split(datum.label, ': ')[1]", labelLimit=0, labelFontSize=11, minExtent=225
)
# The windows figure's thresholds (model names without scores, at most 30 characters) fit as
# they are; its width is fixed, so its label column takes no more than it needs.
WINDOW_ROW_AXIS = alt.Axis(labelExpr="split(datum.label, ': ')[1]", labelLimit=215)
ROW_STEP = 16
# A model name longer than this is shown on the threshold axis without its parenthesis
# ("deepseek-reasoner (DeepSeek API moving alias)" reads "deepseek-reasoner"), where that leaves
# every label of the chart distinct; the tooltip keeps the whole name.
ROW_NAME_CHARS = 30


def _threshold_label(df: pl.DataFrame) -> pl.Expr:
    """ "Benchmark: Model (score)", the model's display name shortened past ROW_NAME_CHARS."""

    def label(name: pl.Expr) -> pl.Expr:
        return pl.format(
            "{}: {} ({})", pl.col("benchmark_name"), name, pl.col("threshold_score").round(1)
        )

    whole = pl.col("threshold_name")
    short = (
        pl.when(whole.str.len_chars() > ROW_NAME_CHARS)
        .then(whole.str.split(" (").list.first())
        .otherwise(whole)
    )
    distinct = (
        df.select(label(short).n_unique()).item() == df.select(label(whole).n_unique()).item()
    )
    return label(short) if distinct else label(whole)


# A log axis over five decades: where the plot is narrow (a 1024 px window) "10,000" and
# "100,000" ran into each other; Vega drops a label that would touch another.
FACTOR_AXIS = alt.Axis(labelOverlap="greedy", labelSeparation=4)


def _series_names(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns(
        pl.format(
            "{} ({})",
            pl.col("benchmark").replace_strict(BENCHMARK_NAMES, default=pl.col("benchmark")),
            pl.col("score_source").replace_strict(SOURCE_NAMES, default=pl.col("score_source")),
        ).alias("series")
    )


def _trend_columns(gt: GT) -> GT:
    """The labels and number formats of the TREND_COLUMNS, shared by the trend tables."""
    return (
        gt.cols_label(
            threshold_models="Threshold set by",
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
        .fmt(_model_list, columns="threshold_models")
    )


def _model_list(ids: str) -> str:
    """ "a; b" of model ids as display names (fixed_capability.THRESHOLD_MODELS_SEP)."""
    return "; ".join(display_name("model", i) for i in ids.split("; "))


def series_gt(table: pl.DataFrame) -> GT:
    """The one-snapshot trends (`fixed_capability.trends` per series, with `score_source`),
    grouped by series."""
    cols = [c for c in TREND_COLUMNS if c != "benchmark"]
    return _trend_columns(
        GT(_series_names(table).select(["series", *cols]), groupname_col="series")
    )


def window_chart(window: pl.DataFrame) -> alt.LayerChart:
    """`fixed_capability.window_comparison` per series: each threshold's factor on prices to the
    end of Epoch's window and on prices to 2026, joined by a rule (log scale)."""
    df = _series_names(window).with_columns(
        pl.format(
            "{}: {}",
            pl.col("benchmark").replace_strict(BENCHMARK_NAMES, default=pl.col("benchmark")),
            named("threshold_model", "model"),
        ).alias("threshold")
    )
    long = pl.concat(
        [
            df.select(
                "series",
                "score_source",
                "threshold",
                pl.col(f"factor_{k}").alias("factor_per_year"),
                pl.col(f"n_{k}").alias("n"),
                pl.col(f"end_{k}").alias("prices_to"),
                pl.lit(label).alias("window"),
            )
            for k, label in (("short", "to the end of Epoch's window"), ("full", "to 2026"))
        ]
    )
    x = alt.X(
        "factor_per_year:Q",
        scale=alt.Scale(type="log"),
        title="Price falls by this factor per year (log scale)",
        axis=FACTOR_AXIS,
    )
    y = alt.Y("threshold:N", sort=None, title=None, axis=WINDOW_ROW_AXIS)
    rules = (
        alt.Chart(df).mark_rule(color="#BBBBBB").encode(x="factor_short:Q", x2="factor_full:Q", y=y)
    )
    points = (
        alt.Chart(long)
        .mark_point(filled=True, size=60)
        .encode(
            x=x,
            y=y,
            # above the plot: under it the series legend needs the column's whole width
            color=alt.Color("window:N", title="Prices", legend=alt.Legend(orient="top")),
            shape=alt.Shape(
                "series:N",
                title="Series",
                # "Benchmark (source)" in two lines: one is wider than the column
                legend=alt.Legend(
                    orient="bottom",
                    direction="vertical",
                    labelLimit=0,
                    labelExpr="[split(datum.label, ' (')[0], '(' + split(datum.label, ' (')[1]]",
                ),
            ),
            tooltip=[
                "series:N",
                "threshold:N",
                "window:N",
                "n:Q",
                "prices_to:T",
                "factor_per_year:Q",
            ],
        )
    )
    title = "One threshold, two windows"
    return (rules + points).properties(
        title=alt.Title(
            title,
            subtitle="thresholds set by the end of Epoch's window; the same prices, cut there or not",
        ),
        height=alt.Step(16),
        width=520,
        description="Each threshold's fixed-capability decline factor with prices to the end of Epoch's window and to 2026",
    )
