"""Charts and tables for the hardware chapters ("GPU-hour prices", "Tokens per dollar").

Every builder takes a frame (or dict) that `analysis.chapters.gpu_hour_prices` or
`analysis.chapters.tokens_per_dollar` prepares from `analysis.methods.gpu_prices` and
`analysis.methods.tokens_per_dollar`, and only selects, labels and formats: nothing is fitted,
filtered or aggregated here. Charts (`*_chart`) are Altair (the house theme comes from
`analysis.figures.theme`), tables (`*_gt`) are great_tables GT objects.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

import altair as alt
import polars as pl
from great_tables import GT

from analysis.figures.theme import PALETTE, colour_and_shape, display_name, two_lines_centred

PRICING_ORDER = ["on-demand", "spot", "index", "1-year", "3-year", "marketplace"]
MODEL_LABELS = {
    "llama3.1-8b": "Llama 3.1 8B",
    "mixtral-8x7b": "Mixtral 8x7B",
    "deepseek-r1": "DeepSeek-R1",
    "llama2-70b": "Llama 2 70B",
    "llama3.1-405b": "Llama 3.1 405B",
    "gptj": "GPT-J 6B",
    "gpt-oss-120b": "gpt-oss-120b",
}
PANEL_WIDTH = 150
# GPU names are long ("NVIDIA H100 SXM5 80GB"): their legend goes under the chart, where it
# takes the column's width instead of the plot's.
GPU_LEGEND = alt.Legend(orient="bottom", columns=2, labelLimit=0)


def gpu_name(gpu: str) -> str:
    """A GPU's display name (gpu_specs' `name`: `h100-sxm` reads "NVIDIA H100 SXM5 80GB"); an id
    the table does not name is written in capitals, as GPU names are (`mi350x` -> `MI350X`)."""
    name = display_name("gpu", gpu)
    return gpu.upper() if name == gpu else name


def gpu_label(col: str = "gpu_group") -> pl.Expr:
    """`col`'s GPU ids as display names (`gpu_name`)."""
    return pl.col(col).map_elements(gpu_name, return_dtype=pl.String)


def model_label(col: str = "base_model") -> pl.Expr:
    """`llama2-70b` -> `Llama 2 70B`: MLPerf benchmark models as the charts name them."""
    return pl.col(col).replace(MODEL_LABELS)


def _interval_text(value: str, low: str, high: str, fmt: str = "{:.3f}") -> pl.Expr:
    """'1.064 [1.040, 1.087]' from three numeric columns (null where the value is null)."""
    parts = [pl.col(c).map_elements(fmt.format, return_dtype=pl.String) for c in (value, low, high)]
    return pl.format("{} [{}, {}]", *parts)


def _months_text(start: str, end: str) -> pl.Expr:
    return pl.format(
        "{} to {}", pl.col(start).dt.to_string("%Y-%m"), pl.col(end).dt.to_string("%Y-%m")
    )


def and_join(items: Iterable[str]) -> str:
    """`a, b and c`; `a` for one item, `` for none: names listed in prose."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def gpu_names(ids: Iterable[str]) -> list[str]:
    """GPU ids as display names (`gpu_name`), in order."""
    return [gpu_name(i) for i in ids]


# ------------------------------------------------------------------ GPU-hour prices: charts


def price_history_chart(series: pl.DataFrame, gpus: list[str]) -> alt.FacetChart:
    """Monthly price per GPU, one panel per pricing type (from `gpu_prices.history_series`),
    coloured in the order of the GPU ids `gpus`."""
    pricings = [p for p in PRICING_ORDER if p in set(series["pricing"].to_list())]
    names = gpu_names(g for g in gpus if g in set(series["gpu_group"].to_list()))
    df = series.with_columns(gpu_label().alias("gpu"))
    return (
        alt.Chart(df, description="Monthly GPU-hour price by GPU, one panel per pricing type")
        .mark_line(point=alt.OverlayMarkDef(size=14))
        .encode(
            x=alt.X("month:T", title=None),
            y=alt.Y("usd_per_gpu_hour:Q", title="USD per GPU-hour (monthly median)"),
            color=alt.Color("gpu:N", sort=names, title="GPU", legend=GPU_LEGEND),
            tooltip=[
                "gpu:N",
                "pricing:N",
                alt.Tooltip("month:T", format="%Y-%m"),
                alt.Tooltip("usd_per_gpu_hour:Q", format="$.2f"),
                "n_sources:Q",
            ],
        )
        .properties(width=PANEL_WIDTH, height=220)
        .facet(column=alt.Column("pricing:N", sort=pricings, title=None))
        .properties(title="GPU-hour prices by GPU and pricing type")
    )


def hedonic_chart(index: pl.DataFrame, base_period: date) -> alt.LayerChart:
    """The time-dummy hedonic index with its interval band and a rule at the base (= 1)."""
    base = alt.Chart(index, description="Hedonic GPU-hour price index with 90% interval band")
    x = alt.X("period:T", title=None)
    band = base.mark_area(opacity=0.25, color=PALETTE[0]).encode(
        x=x,
        y=alt.Y("ci_low:Q", scale=alt.Scale(zero=False), title=f"Index ({base_period:%b %Y} = 1)"),
        y2="ci_high:Q",
    )
    line = base.mark_line(point=True, color=PALETTE[0]).encode(
        x=x,
        y="index:Q",
        tooltip=[
            alt.Tooltip("period:T", format="%Y-%m"),
            alt.Tooltip("index:Q", format=".3f"),
            alt.Tooltip("ci_low:Q", format=".3f"),
            alt.Tooltip("ci_high:Q", format=".3f"),
            "n_obs:Q",
        ],
    )
    one = alt.Chart(pl.DataFrame({"y": [1.0]})).mark_rule(strokeDash=[4, 4], color="grey")
    return (band + line + one.encode(y="y:Q")).properties(
        title="Quality-adjusted GPU-hour price index"
    )


def age_series(by_age: pl.DataFrame) -> pl.DataFrame:
    """The age figure's rows (from `gpu_prices.on_demand_by_age`): the months with a known age,
    with the GPU's name and its age in years."""
    return by_age.filter(pl.col("age_months").is_not_null()).with_columns(
        gpu_label().alias("gpu"), (pl.col("age_months") / 12).alias("age_years")
    )


def age_chart(by_age: pl.DataFrame, gpus: list[str]) -> alt.Chart:
    """Monthly median price against the GPU's age in years: a frame with gpu (the name),
    age_years, month, usd_per_gpu_hour and n_providers (`age_series`),
    coloured in the order of the GPU ids `gpus`."""
    return (
        alt.Chart(by_age, description="GPU-hour price against years since the GPU's release")
        .mark_line(point=alt.OverlayMarkDef(size=14))
        .encode(
            x=alt.X(
                "age_years:Q", scale=alt.Scale(nice=False), title="Years since the GPU's release"
            ),
            y=alt.Y(
                "usd_per_gpu_hour:Q",
                scale=alt.Scale(type="log"),
                title="USD per GPU-hour (on-demand, log scale)",
            ),
            color=alt.Color("gpu:N", sort=gpu_names(gpus), title="GPU", legend=GPU_LEGEND),
            tooltip=[
                "gpu:N",
                alt.Tooltip("month:T", format="%Y-%m"),
                alt.Tooltip("age_years:Q", format=".1f"),
                alt.Tooltip("usd_per_gpu_hour:Q", format="$.2f"),
                "n_providers:Q",
            ],
        )
        .properties(title="What a GPU-hour costs as the GPU ages")
    )


def flops_per_dollar_chart(frame: pl.DataFrame, lines: pl.DataFrame) -> alt.LayerChart:
    """FLOP/s per purchase dollar at release (from `gpu_prices.flops_per_dollar_at_release`)
    and the lines of `lines` (release_date, flop_per_s_per_usd, line: the fitted trend and
    Epoch's reference slope, `gpu_hour_prices.flops_lines`), legend in their order."""
    names = lines["line"].unique(maintain_order=True).to_list()
    y = alt.Y(
        "flop_per_s_per_usd:Q",
        scale=alt.Scale(type="log"),
        axis=alt.Axis(format="~s"),
        title="FLOP/s per dollar at release (FP32, log scale)",
    )
    points = (
        alt.Chart(
            frame.with_columns(gpu_label("gpu").alias("gpu_name")),
            description="FLOP/s per dollar of GPUs at release, with trend lines",
        )
        .mark_point(filled=True, opacity=0.6, color="grey")
        .encode(
            x=alt.X("release_date:T", title="Release date"),
            y=y,
            tooltip=[
                alt.Tooltip("gpu_name:N", title="GPU"),
                alt.Tooltip("release_date:T"),
                alt.Tooltip("release_price_usd:Q", format="$,.0f"),
                alt.Tooltip("tflop_per_s:Q", format=".1f"),
            ],
        )
    )
    trend_lines = (
        alt.Chart(lines)
        .mark_line(strokeWidth=2.5)
        .encode(
            x="release_date:T",
            y=y,
            color=alt.Color(
                "line:N", sort=names, title=None, legend=alt.Legend(orient="top-left", labelLimit=0)
            ),
            strokeDash=alt.StrokeDash(
                "line:N", sort=names, scale=alt.Scale(range=[[1, 0], [6, 4]]), legend=None
            ),
        )
    )
    return (points + trend_lines).properties(title="Hardware FLOP/s per dollar")


# ------------------------------------------------------------------ GPU-hour prices: tables


# The evidence variants of a decline table (analysis.data.gpu_evidence.VARIANTS), as shown.
EVIDENCE_LABELS = {
    "direct": "Direct observations",
    "without-restated": "All but restated",
    "all": "All rows (restated included)",
}


def decline_gt(rates: pl.DataFrame) -> GT:
    """Decline rates with 90% intervals, one row per GPU group and pricing type (the rows of
    `gpu_prices.decline_rates` that `gpu_prices.fitted_rates` keeps)."""
    evidence = (
        [pl.col("evidence").replace(EVIDENCE_LABELS).alias("Evidence")]
        if "evidence" in rates.columns
        else []
    )
    table = rates.select(
        gpu_label().alias("GPU"),
        pl.col("pricing").alias("Pricing"),
        *evidence,
        pl.col("n").alias("Provider-months"),
        pl.col("n_providers").alias("Providers"),
        _months_text("start_date", "end_date").alias("Window"),
        _interval_text("factor_per_year", "ci90_low", "ci90_high").alias(
            "Factor per year [90% CI]"
        ),
        _interval_text("pct_per_year", "pct_ci90_low", "pct_ci90_high", "{:+.1f}").alias(
            "% per year [90% CI]"
        ),
    )
    return GT(table).tab_source_note(
        "Factor > 1: prices fall by that factor each year; < 1: they rise. Log-linear OLS with "
        "provider fixed effects where the group has several providers. Evidence: direct "
        "observations are sellers' listed prices and marketplace medians; all rows add the "
        "indices and the index's restated reconstructions of archived rate cards."
    )


def drawdown_gt(drawdowns: pl.DataFrame) -> GT:
    """Peak-to-latest drawdowns (rows of `gpu_prices.drawdown_from_peak`), by GPU and pricing."""
    table = drawdowns.sort("gpu_group", "pricing").select(
        gpu_label().alias("GPU"),
        pl.col("pricing").alias("Pricing"),
        pl.col("n_months").alias("Months"),
        pl.col("peak_month").dt.to_string("%Y-%m").alias("Peak month"),
        pl.col("peak_usd_per_gpu_hour").alias("Peak"),
        pl.col("latest_month").dt.to_string("%Y-%m").alias("Latest month"),
        pl.col("latest_usd_per_gpu_hour").alias("Latest"),
        pl.format("{} / {}", "peak_n_providers", "latest_n_providers").alias("Providers"),
        (pl.col("drawdown_pct") / 100).alias("Drawdown"),
    )
    return (
        GT(table)
        .fmt_currency(["Peak", "Latest"], decimals=2)
        .fmt_percent("Drawdown", decimals=0)
        .tab_spanner("USD per GPU-hour", ["Peak", "Latest"])
        .tab_source_note("Providers: providers quoted in the peak month / in the latest month.")
    )


def hyperscaler_gt(pairs: pl.DataFrame) -> GT:
    """Hyperscaler against smaller-cloud median prices, same GPU and month."""
    table = pairs.select(
        gpu_label().alias("GPU"),
        pl.col("month").dt.to_string("%Y-%m").alias("Month"),
        pl.col("hyperscaler_usd_per_gpu_hour").alias("Hyperscalers"),
        pl.col("n_hyperscalers").alias("n (hyperscalers)"),
        pl.col("smaller_usd_per_gpu_hour").alias("Smaller clouds"),
        pl.col("n_providers_smaller").alias("n (smaller)"),
        pl.col("ratio").alias("Ratio"),
    )
    return (
        GT(table)
        .fmt_currency(["Hyperscalers", "Smaller clouds"], decimals=2)
        .fmt_number("Ratio", decimals=2)
        .tab_spanner("Median USD per GPU-hour", ["Hyperscalers", "Smaller clouds"])
    )


def flops_trend_gt(trends: dict[str, dict]) -> GT:
    """Growth of FLOP/s per dollar per measure (from `gpu_prices.flops_per_dollar_trend`)."""
    rows = [
        {
            "Measure": name,
            "n": t["n"],
            "Window": f"{t['start_date']:%Y-%m} to {t['end_date']:%Y-%m}",
            "Growth per year [90% CI]": f"{t['pct_per_year']:+.1f}% "
            f"[{t['pct_ci90_low']:+.1f}%, {t['pct_ci90_high']:+.1f}%]",
            "R²": t["r_squared"],
            "Epoch AI": f"{t['epoch_reference_pct_per_year']:+.0f}%",
        }
        for name, t in trends.items()
    ]
    return GT(pl.DataFrame(rows)).fmt_number("R²", decimals=2)


def claims_gt(checks: pl.DataFrame) -> GT:
    """Digest claims against the data (from `gpu_prices.claim_checks`): columns claim_id, claim,
    claim_date, value, value_high, unit and data_shows (the chapter's finding)."""
    claimed = [claimed_text(row) for row in checks.iter_rows(named=True)]
    table = checks.select(
        pl.col("claim").alias("Claim (digest's words)"),
        pl.col("claim_date").dt.to_string("%Y-%m-%d").alias("Digest date"),
        pl.Series("Claimed", claimed, dtype=pl.String),
        pl.col("data_shows").alias("What the data shows"),
    )
    return GT(table).tab_source_note(
        "From the claims table; claim ids: " + ", ".join(checks["claim_id"].to_list())
    )


def claimed_text(claim: dict) -> str:
    """'64 to 75 percent' or '2 factor': a claims row's value as the digest states it."""
    value = f"{claim['value']:g}"
    if claim["value_high"] is not None:
        value += f" to {claim['value_high']:g}"
    return f"{value} {claim['unit']}"


# ------------------------------------------------------------------ tokens per dollar: charts


def throughput_chart(summary: pl.DataFrame, scenario: str) -> alt.FacetChart:
    """Best tokens/s per accelerator by round, one panel per benchmark model: the rows of
    `tokens_per_dollar.throughput_summary` in `scenario` that `top_accelerators` keeps."""
    df = summary.with_columns(
        gpu_label("accelerator").alias("Accelerator"), model_label().alias("model")
    )
    rounds = summary.sort("date")["round"].unique(maintain_order=True).to_list()
    return (
        alt.Chart(df, description="Best MLPerf tokens per second per accelerator by round")
        .mark_line(point=alt.OverlayMarkDef(size=40))
        .encode(
            x=alt.X(
                "round:O", sort=rounds, title="MLPerf Inference round", axis=alt.Axis(labelAngle=0)
            ),
            y=alt.Y(
                "best_tokens_per_s_per_acc:Q",
                scale=alt.Scale(type="log"),
                title="Tokens/s per accelerator (best system)",
            ),
            # under the panels, whole: a name such as "NVIDIA RTX PRO 6000 Blackwell Server
            # Edition" is wider than a legend beside them may be
            color=alt.Color("Accelerator:N", legend=GPU_LEGEND),
            tooltip=[
                "round:N",
                "Accelerator:N",
                "model:N",
                "n_systems:Q",
                alt.Tooltip("best_tokens_per_s_per_acc:Q", format=",.0f"),
                alt.Tooltip("median_tokens_per_s_per_acc:Q", format=",.0f"),
            ],
        )
        .properties(width=PANEL_WIDTH, height=180)
        .facet(facet=alt.Facet("model:N", title=None), columns=2)
        .resolve_scale(y="independent")
        .properties(title=f"MLPerf Inference throughput per accelerator ({scenario})")
    )


LADDER_RUNGS = {
    "floor_usd_per_mtok": "Physical floor (compute bound)",
    "hardware_usd_per_mtok": "MLPerf on rented GPU, 100% busy",
    "api_min_usd_per_mtok": "API list price, cheapest",
    "api_median_usd_per_mtok": "API list price, median",
}


def ladder_chart(rungs: pl.DataFrame, order: list[str]) -> alt.LayerChart:
    """Per model, $ per million tokens from the physical floor to the API list price (log x):
    one row per model and rung (`tokens_per_dollar.ladder_long` with `LADDER_RUNGS`), models
    from top to bottom in `order` (their names)."""
    y = alt.Y("model:N", sort=order, title=None)
    x = alt.X(
        "usd_per_mtok:Q",
        scale=alt.Scale(type="log", nice=False, padding=20),
        title="USD per million output tokens (log scale)",
    )
    base = alt.Chart(
        rungs.with_columns(gpu_label("accelerator").alias("accelerator_name")),
        description="Cost per million tokens from physical floor to API price",
    )
    span = base.mark_rule(color="lightgrey", strokeWidth=3).encode(
        y=y, x=alt.X("min(usd_per_mtok):Q"), x2="max(usd_per_mtok):Q"
    )
    dots = base.mark_point(filled=True, size=120, opacity=1).encode(
        y=y,
        x=x,
        **colour_and_shape(
            "rung:N", LADDER_RUNGS.values(), rungs["rung"], orient="bottom", columns=2, labelLimit=0
        ),
        tooltip=[
            "model:N",
            "rung:N",
            alt.Tooltip("accelerator_name:N", title="Accelerator"),
            "round:N",
            alt.Tooltip("usd_per_mtok:Q", format="$.4f"),
        ],
    )
    return (span + dots).properties(height=240, title="From the physical floor to the API price")


# ------------------------------------------------------------------ tokens per dollar: tables


def cost_gt(cheapest: pl.DataFrame) -> GT:
    """Cheapest hardware $/Mtok per round and benchmark (from `cheapest_by_round`)."""
    table = cheapest.sort("base_model", "scenario", "date").select(
        model_label().alias("Model"),
        pl.col("scenario").alias("Scenario"),
        pl.col("round").alias("Round"),
        gpu_label("accelerator").alias("Accelerator"),
        pl.col("tokens_per_s_per_accelerator").alias("Tokens/s per GPU"),
        pl.format(
            "{} {}", pl.col("price_pricing"), pl.col("price_month").dt.to_string("%Y-%m")
        ).alias("Price (type, month)"),
        pl.col("usd_per_gpu_hour").alias("USD per GPU-hour"),
        pl.col("hardware_usd_per_mtok").alias("USD per M tokens"),
    )
    if table["Scenario"].n_unique() == 1:
        table = table.drop("Scenario")  # one scenario: the caption names it
    return (
        GT(table, groupname_col="Model")
        .fmt_number("Tokens/s per GPU", decimals=0)
        .fmt_currency("USD per GPU-hour", decimals=2)
        .fmt_currency("USD per M tokens", decimals=3)
    )


def floor_gt(floors: pl.DataFrame) -> GT:
    """Physical bounds per model and GPU (from `tokens_per_dollar.floor_table`)."""
    table = floors.select(
        model_label().alias("Model"),
        gpu_label("gpu").alias("GPU"),
        pl.col("active_parameters_b").alias("Active params (B)"),
        pl.col("precision").str.to_uppercase().alias("Precision"),
        pl.col("peak_tflop_per_s").alias("Peak TFLOP/s"),
        pl.col("memory_bandwidth_tb_per_s").alias("TB/s"),
        pl.col("compute_bound_tokens_per_s").alias("Compute bound"),
        pl.col("memory_bound_tokens_per_s").alias("Memory bound, batch 1"),
        pl.col("crossover_batch").alias("Crossover batch"),
    )
    return (
        GT(table, groupname_col="Model")
        .fmt_number(["Compute bound", "Memory bound, batch 1", "Peak TFLOP/s"], decimals=0)
        .fmt_number(["Active params (B)", "TB/s"], decimals=2, drop_trailing_zeros=True)
        .fmt_number("Crossover batch", decimals=0)
        .tab_spanner("Tokens/s per GPU, at most", ["Compute bound", "Memory bound, batch 1"])
    )


def break_even_gt(break_even: pl.DataFrame) -> GT:
    """Break-even utilisation (rows of `tokens_per_dollar.break_even_utilisation`, one
    scenario)."""
    table = break_even.sort("base_model", "date").select(
        model_label().alias("Model"),
        pl.col("round").alias("Round"),
        gpu_label("accelerator").alias("Accelerator"),
        pl.col("hardware_usd_per_mtok").alias("Hardware"),
        pl.col("api_median_usd_per_mtok").alias("API median"),
        pl.col("n_api_providers").alias("API providers"),
        pl.col("break_even_utilisation").alias("Break-even utilisation"),
    )
    return (
        GT(table)
        .fmt_currency(["Hardware", "API median"], decimals=3)
        .fmt_percent("Break-even utilisation", decimals=0)
        .tab_spanner("USD per M output tokens", ["Hardware", "API median"])
    )


def ladder_gt(ladder: pl.DataFrame) -> GT:
    """The ladder's rungs and ratios per model (from `tokens_per_dollar.cost_ladder`)."""
    table = ladder.select(
        model_label().alias("Model"),
        gpu_label("accelerator").alias("Accelerator"),
        pl.col("floor_usd_per_mtok").alias("Floor"),
        pl.col("hardware_usd_per_mtok").alias("Hardware"),
        pl.col("api_median_usd_per_mtok").alias("API median"),
        pl.col("hardware_over_floor").alias("Hardware / floor"),
        pl.col("api_over_hardware").alias("API / hardware"),
        pl.col("api_over_floor").alias("API / floor"),
    )
    return (
        GT(table)
        .fmt_currency(["Floor", "Hardware", "API median"], decimals=3)
        .fmt_number(["Hardware / floor", "API / hardware", "API / floor"], decimals=1)
        .tab_spanner("USD per M output tokens", ["Floor", "Hardware", "API median"])
        .tab_spanner("Times", ["Hardware / floor", "API / hardware", "API / floor"])
        .sub_missing(missing_text="")
    )


# ------------------------------------------------------------------ tokens per dollar: v6.0, InferenceMAX, training

COST_MEASURES = {
    "imax": "InferenceMAX at InferenceX price",
    "mlperf": "MLPerf at InferenceX price",
    "api_min": "API price, cheapest",
    "api_median": "API price, median",
}


def gain_gt(gain: pl.DataFrame) -> GT:
    """A submitter's results against the previous round on the same accelerator (from
    `tokens_per_dollar.submitter_gain`)."""
    first = gain.row(0, named=True)
    table = gain.select(
        model_label().alias("Model"),
        gpu_label("accelerator").alias("Accelerator"),
        pl.col("scenario").alias("Scenario"),
        pl.col("to_tokens_per_s").alias("to"),
        pl.col("from_tokens_per_s").alias("from_best"),
        pl.col("ratio").alias("Ratio"),
        pl.col("own_from_tokens_per_s").alias("from_own"),
        pl.col("own_ratio").alias("Ratio to own"),
    )
    return (
        GT(table)
        .cols_label(
            to=f"{first['submitter']} {first['to_round']}",
            from_best=f"Best {first['from_round']}",
            from_own=f"{first['submitter']} {first['from_round']}",
        )
        .fmt_number(["to", "from_best", "from_own"], decimals=0)
        .fmt_number(["Ratio", "Ratio to own"], decimals=2)
        .tab_spanner("Tokens/s per accelerator", ["to", "from_best", "from_own"])
        .sub_missing(missing_text="")
        .tab_source_note("Source: MLPerf Inference summaries (closed division), mlperf_results.")
    )


def inference_cost_chart(points: pl.DataFrame, order: list[str]) -> alt.Chart:
    """$ per million output tokens per model and accelerator (log x), one mark per measure
    (`COST_MEASURES`): rows with `row` (the y label), `measure` and `usd_per_mtok` as the
    chapter prepares them, rows top to bottom in `order`."""
    return (
        alt.Chart(points, description="Cost per million output tokens: InferenceMAX, MLPerf, API")
        .mark_point(filled=True, size=90, opacity=0.9)
        .encode(
            # "Model on GPU" in two lines (the GPU's name is long), centred on its row;
            # "Model: API" stays on one line
            y=alt.Y(
                "row:N",
                sort=order,
                title=None,
                axis=alt.Axis(
                    labelExpr="split(datum.label, ' on ')",
                    labelLimit=0,
                    labelOffset=two_lines_centred("indexof(datum.label, ' on ') > 0"),
                ),
            ),
            x=alt.X(
                "usd_per_mtok:Q",
                scale=alt.Scale(type="log", nice=False, padding=10),
                title="USD per million output tokens (log scale)",
                # "0.04" and "0.05" touched at 1024 px: Vega drops a label that would touch another
                axis=alt.Axis(labelOverlap="greedy", labelSeparation=4),
            ),
            **colour_and_shape(
                "measure:N",
                COST_MEASURES.values(),
                points["measure"],
                orient="bottom",
                columns=1,
                labelLimit=0,
            ),
            tooltip=["row:N", "measure:N", alt.Tooltip("usd_per_mtok:Q", format="$.3f")],
        )
        .properties(
            height=alt.Step(30),
            title=alt.Title(
                "What a million output tokens costs, three ways",
                subtitle=[
                    "Sources: InferenceMAX runs, InferenceX $/GPU-hour,",
                    "MLPerf Inference v6.0, API price lists",
                ],
            ),
        )
    )


def inference_cost_gt(costs: pl.DataFrame, ownership: str) -> GT:
    """The cost comparison (from `inference_cost.cost_comparison`) at one ownership case."""
    table = costs.select(
        model_label("benchmark_model").alias("Model"),
        gpu_label("accelerator").alias("Accelerator"),
        pl.format("{} {} c{}", "framework", "precision", "concurrency").alias("Configuration"),
        pl.col("median_tokens_per_s_per_user").alias("Tok/s per user"),
        pl.col("imax_output_tokens_per_s_per_gpu").alias("imax_tps"),
        pl.col("mlperf_tokens_per_s_per_gpu").alias("mlperf_tps"),
        pl.col(f"usd_{ownership}").alias("USD per GPU-hour"),
        pl.col(f"imax_usd_per_mtok_{ownership}").alias("imax_usd"),
        pl.col(f"mlperf_usd_per_mtok_{ownership}").alias("mlperf_usd"),
        pl.col("api_median_usd_per_mtok").alias("API median"),
    )
    return (
        GT(table, groupname_col="Model")
        .cols_label(
            imax_tps="InferenceMAX",
            mlperf_tps="MLPerf",
            imax_usd="InferenceMAX",
            mlperf_usd="MLPerf",
        )
        .fmt_number(["Tok/s per user"], decimals=0)
        .fmt_number(["imax_tps", "mlperf_tps"], decimals=0)
        .fmt_currency(["USD per GPU-hour"], decimals=2)
        .fmt_currency(["imax_usd", "mlperf_usd", "API median"], decimals=3)
        .tab_spanner("Output tokens/s per GPU", ["imax_tps", "mlperf_tps"])
        .tab_spanner("USD per M output tokens", ["imax_usd", "mlperf_usd", "API median"])
        .sub_missing(missing_text="")
        .tab_source_note(
            "Sources: InferenceMAX run aggregates (inference_benchmarks), InferenceX $/GPU-hour "
            "(tco_assumptions), MLPerf Inference v6.0 (mlperf_results), API price lists "
            "(token_prices)."
        )
    )


def training_scale_chart(systems: pl.DataFrame, line: pl.DataFrame) -> alt.LayerChart:
    """Time to train against GPU count on log-log axes: one point per system (from
    `training_scale.system_times`) and each accelerator's fitted line (`fitted_points`)."""
    pts = systems.with_columns(gpu_label("accelerator").alias("Accelerator"))
    fit = line.with_columns(gpu_label("accelerator").alias("Accelerator"))
    x = alt.X("accelerator_count:Q", scale=alt.Scale(type="log"), title="GPUs in the system")
    y = alt.Y("minutes:Q", scale=alt.Scale(type="log"), title="Minutes to train (median run)")
    dots = (
        alt.Chart(pts, description="MLPerf Training Llama 3.1 405B: minutes against GPUs")
        .mark_point(filled=True, size=70)
        .encode(
            x=x,
            y=y,
            color=alt.Color("Accelerator:N"),
            tooltip=[
                "round:N",
                "submitter:N",
                "system:N",
                "Accelerator:N",
                "accelerator_count:Q",
                alt.Tooltip("minutes:Q", format=".1f"),
            ],
        )
    )
    lines = alt.Chart(fit).mark_line(strokeDash=[4, 3]).encode(x=x, y=y, color="Accelerator:N")
    return (dots + lines).properties(
        height=300,
        title=alt.Title(
            "MLPerf Training: time to train Llama 3.1 405B against GPU count",
            subtitle="Source: MLPerf Training v5.0 and v5.1 result logs; dashed: the log-log fit",
        ),
    )
