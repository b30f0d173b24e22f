"""Charts and tables for the chapter on quality-adjusted prices and the outlook.

Every builder takes the frames and dicts that `analysis.methods.hedonic` and
`analysis.methods.outlook` return, and computes nothing: fitted lines come in as frames
(`outlook.segment_lines`, `DeclineFit.line()`) or as a `DeclineFit`, points already carry their
segment (`outlook.segment_of`). `BENCHMARK_NAMES` and `benchmark_name` are the display names
other pages use too.
"""

from __future__ import annotations

from datetime import date

import altair as alt
import polars as pl
from great_tables import GT

from analysis.figures.capability import BENCHMARK_NAMES as _FIXED_NAMES
from analysis.figures.capability import SOURCE_NAMES
from analysis.figures.theme import PALETTE, named

BENCHMARK_NAMES = {
    **_FIXED_NAMES,
    "aa-intelligence-index": "Artificial Analysis Intelligence Index",
}
SAMPLE_NAMES = {
    "frontier": "Frontier",
    "all": "All models",
    "open-weights": "Open weights",
    "open-weights frontier": "Open-weights frontier",
}
DATE_RULE_NAMES = {
    "latest": "Later of release and first price",
    "release": "Release date",
    "price": "First price date",
}
PRICE_AXIS = "USD per 1M tokens (3:1 blend, log scale)"


def benchmark_name(benchmark: str) -> str:
    return BENCHMARK_NAMES.get(benchmark, benchmark)


def _names(df: pl.DataFrame) -> pl.DataFrame:
    """Readable benchmark and sample names, replacing the ids."""
    out = df
    if "benchmark" in df.columns:
        out = out.with_columns(
            pl.col("benchmark").replace_strict(BENCHMARK_NAMES, default=pl.col("benchmark"))
        )
    if "sample" in df.columns:
        out = out.with_columns(
            pl.col("sample").replace_strict(SAMPLE_NAMES, default=pl.col("sample"))
        )
    return out


# --- hedonic ------------------------------------------------------------------------------------


def hedonic_gt(table: pl.DataFrame) -> GT:
    """`hedonic.hedonic_table`: one row per benchmark x sample, grouped by benchmark: models,
    window, factor per year with its 90% interval, R². Fits with too few models keep their row and
    show the reason."""
    cols = [
        "benchmark",
        "sample",
        "n",
        "start_date",
        "end_date",
        "factor_per_year",
        "ci90_low",
        "ci90_high",
        "r_squared",
    ]
    has_notes = "note" in table.columns and table["note"].drop_nulls().len() > 0
    df = _names(table.select(cols + (["note"] if has_notes else [])))
    gt = (
        GT(df, groupname_col="benchmark", rowname_col="sample")
        .cols_label(
            n="Models",
            start_date="From",
            end_date="To",
            factor_per_year="Factor / year",
            ci90_low="90% CI low",
            ci90_high="90% CI high",
            r_squared="R²",
        )
        .fmt_number(["factor_per_year", "ci90_low", "ci90_high"], n_sigfig=3)
        .fmt_number(["r_squared"], decimals=2)
        .sub_missing(missing_text="")
    )
    if has_notes:
        gt = gt.cols_label(note="Note")
    return gt


def window_fits_gt(table: pl.DataFrame) -> GT:
    """`hedonic.window_fits` per one-snapshot series: each sample's factor on every price to
    2026 beside its factor on the prices to the end of the paper's window."""
    df = _names(table).with_columns(
        pl.format(
            "{} ({})",
            pl.col("benchmark"),
            pl.col("score_source").replace_strict(SOURCE_NAMES, default=pl.col("score_source")),
        ).alias("series")
    )
    cols = ["series", "sample", "n_short", "end_short", "factor_short"]
    cols += ["n", "end_date", "factor_per_year", "ci90_low", "ci90_high"]
    return (
        GT(df.select(cols), groupname_col="series", rowname_col="sample")
        .tab_spanner("To the end of the paper's data", ["n_short", "end_short", "factor_short"])
        .tab_spanner("To 2026", ["n", "end_date", "factor_per_year", "ci90_low", "ci90_high"])
        .cols_label(
            n_short="Models",
            end_short="Last",
            factor_short="Factor / year",
            n="Models",
            end_date="Last",
            factor_per_year="Factor / year",
            ci90_low="90% CI low",
            ci90_high="90% CI high",
        )
        .fmt_number(["factor_short", "factor_per_year", "ci90_low", "ci90_high"], n_sigfig=3)
        .sub_missing(missing_text="")
    )


def date_rule_gt(tables: pl.DataFrame) -> GT:
    """Factors per year under each date rule: `hedonic_table` run once per `date_from` and
    stacked. One row per benchmark x sample, a factor and a model count per rule."""
    rules = [r for r in DATE_RULE_NAMES if r in tables["date_from"].unique().to_list()]
    wide = (
        tables.select("benchmark", "sample", "date_from", "factor_per_year", "n")
        .pivot(on="date_from", index=["benchmark", "sample"], values=["factor_per_year", "n"])
        .select(
            "benchmark",
            "sample",
            *[c for r in rules for c in (f"factor_per_year_{r}", f"n_{r}")],
        )
    )
    gt = GT(_names(wide), groupname_col="benchmark", rowname_col="sample")
    for r in rules:
        gt = gt.tab_spanner(DATE_RULE_NAMES[r], [f"factor_per_year_{r}", f"n_{r}"])
        gt = gt.cols_label(**{f"factor_per_year_{r}": "Factor / year", f"n_{r}": "Models"})
    return gt.fmt_number([f"factor_per_year_{r}" for r in rules], n_sigfig=3).sub_missing(
        missing_text=""
    )


def _band_and_line(df, x, y, low: str, high: str, colour, tooltip) -> list:
    """An interval band (`low`..`high`, log scale) under its central line, one per colour."""
    band = (
        alt.Chart(df)
        .mark_area(opacity=0.2)
        .encode(x=x, y=alt.Y(f"{low}:Q", scale=alt.Scale(type="log")), y2=f"{high}:Q", color=colour)
    )
    line = alt.Chart(df).mark_line().encode(x=x, y=y, color=colour, tooltip=tooltip)
    return [band, line]


def _kept_sources(frame: pl.DataFrame) -> list[str]:
    """The columns naming the sources of a frame's rows: kept in the chart's data (and so in the
    figure kit's CSV), never drawn."""
    return [c for c in frame.columns if c in ("sources", "score_source")]


def index_chart(index: pl.DataFrame, points: pl.DataFrame | None = None) -> alt.LayerChart:
    """Quality-adjusted price index by month (`hedonic.price_index`, one or more samples stacked),
    each with its confidence band, on a log scale; optionally the models' own prices moved to the
    reference score (`hedonic.quality_adjusted_prices`, with a `sample` column) as points."""
    df = _names(index)
    samples = df["sample"].unique(maintain_order=True).to_list()
    colour = alt.Color(
        "sample:N",
        title="Sample",
        scale=alt.Scale(domain=samples, range=PALETTE[: len(samples)]),
    )
    x = alt.X("month:T", title="Date")
    y = alt.Y("price:Q", scale=alt.Scale(type="log"), title=PRICE_AXIS)
    tooltip = ["sample:N", "month:T", "price:Q", "ci_low:Q", "ci_high:Q"]
    layers = _band_and_line(df, x, y, "ci_low", "ci_high", colour, tooltip)
    if points is not None and points.height:
        pts = _names(
            points.select(
                "model_id",
                "date",
                "price",
                "score",
                "adjusted_price",
                "sample",
                *_kept_sources(points),
            )
        ).with_columns(named("model_id", "model").alias("model"))
        layers.append(
            alt.Chart(pts)
            .mark_point(filled=True, opacity=0.6, size=30)
            .encode(
                x="date:T",
                y=alt.Y("adjusted_price:Q", scale=alt.Scale(type="log")),
                color=colour,
                tooltip=[
                    alt.Tooltip("model:N", title="Model"),
                    "date:T",
                    "price:Q",
                    "score:Q",
                    "adjusted_price:Q",
                ],
            )
        )
    bench = benchmark_name(index["benchmark"][0]) if "benchmark" in index.columns else ""
    score = index["score"][0]
    title = f"Quality-adjusted price, {bench} score {score:g}"
    return alt.layer(*layers).properties(
        title=alt.Title(title, subtitle="fitted price with its 90% confidence band"),
        description=f"Fitted price of a model scoring {score:g} on {bench}, by month, with its confidence band",
    )


# --- breaks and forecasts ----------------------------------------------------------------------

DATE_AXIS = alt.Axis(format="%b %Y", tickCount={"interval": "month", "step": 6}, labelAngle=0)


def segment_label(segment: dict) -> str:
    """`Nov 2023 to Dec 2024: 15.9x / year` for a row of `outlook.segmented_trends`."""
    s = segment
    return f"{s['start_date']:%b %Y} to {s['end_date']:%b %Y}: {s['factor_per_year']:.3g}x / year"


def breaks_chart(
    points: pl.DataFrame,
    segments: pl.DataFrame,
    lines: pl.DataFrame,
    whole,
    break_date: date,
    *,
    named_date: date | None = None,
    named_label: str = "",
    title: str = "",
) -> alt.LayerChart:
    """Staircase points (`outlook.segment_of`: model, date, price, segment) coloured by segment,
    each segment's fitted trend (`outlook.segment_lines`, solid), the one trend of the whole
    series (`whole`, a DeclineFit; dashed grey), a solid rule at the break the search found and,
    dotted, a rule at a named date. `segments` (`outlook.segmented_trends`) names the segments."""
    names = {
        s["segment"]: segment_label(s) for s in segments.sort("start_date").iter_rows(named=True)
    }
    labels = list(names.values())

    label = pl.col("segment").replace_strict(names, return_dtype=pl.String).alias("line")
    pts = points.select(named("model", "model"), "date", "price", label, *_kept_sources(points))
    segment_trends = lines.select(label, "date", "price")
    whole_trend = whole.line().select(pl.lit("whole series").alias("line"), "date", "price")
    colour = alt.Color(
        "line:N",
        title="Trend per segment",
        scale=alt.Scale(domain=labels, range=PALETTE[: len(labels)]),
        legend=alt.Legend(orient="bottom-left", direction="vertical", labelLimit=0),
    )
    x = alt.X("date:T", title="Date of price", axis=DATE_AXIS)
    y = alt.Y("price:Q", scale=alt.Scale(type="log"), title=PRICE_AXIS)
    layers = [
        alt.Chart(whole_trend).mark_line(strokeDash=[6, 4], color="#999999").encode(x=x, y=y),
        alt.Chart(segment_trends).mark_line().encode(x=x, y=y, color=colour),
        alt.Chart(pts)
        .mark_point(filled=True, size=60)
        .encode(x=x, y=y, color=colour, tooltip=["model:N", "date:T", "price:Q"]),
    ]
    rules = [{"date": break_date, "what": f"break found by the search, {break_date}"}]
    if named_date is not None:
        rules.append({"date": named_date, "what": f"{named_label}, {named_date}".strip(", ")})
    rules_df = pl.DataFrame(rules, schema={"date": pl.Date, "what": pl.String})
    layers.append(
        alt.Chart(rules_df)
        .mark_rule(color="#555555")
        .encode(
            x="date:T",
            strokeDash=alt.StrokeDash(
                "what:N",
                title=None,
                scale=alt.Scale(domain=rules_df["what"].to_list(), range=[[1, 0], [2, 3]]),
                legend=alt.Legend(orient="top-right", labelLimit=0),
            ),
            tooltip=["what:N"],
        )
    )
    return alt.layer(*layers).properties(
        title=alt.Title(
            title or "Two trends or one", subtitle="dashed grey: one trend for the whole series"
        ),
        description="Staircase prices on a log scale with a fitted trend per segment, the single whole-series trend, and rules at the break dates",
    )


def forecast_chart(
    series: pl.DataFrame,
    forecasts: dict[str, pl.DataFrame],
    *,
    fitted: dict[str, pl.DataFrame] | None = None,
    title: str = "",
) -> alt.LayerChart:
    """Observed points (model, date, price), then each forecast (`outlook.forecast`) as a median
    line with its prediction-interval band, on a log scale. With `fitted` (forecast name -> its
    trend's line, date and price, over the points it was fitted to up to its first forecast
    month), each trend is also drawn, dashed."""
    fc = pl.concat(
        [
            f.select("date", "mean", "pi_low", "pi_high").with_columns(pl.lit(k).alias("forecast"))
            for k, f in forecasts.items()
        ]
    )
    names = list(forecasts)
    colour = alt.Color(
        "forecast:N",
        title="Trend extrapolated",
        scale=alt.Scale(domain=names, range=PALETTE[: len(names)]),
        legend=alt.Legend(orient="bottom-left", direction="vertical", labelLimit=0),
    )
    x = alt.X("date:T", title="Date", axis=DATE_AXIS)
    y = alt.Y("mean:Q", scale=alt.Scale(type="log"), title=PRICE_AXIS)
    tooltip = ["forecast:N", "date:T", "mean:Q", "pi_low:Q", "pi_high:Q"]
    layers = _band_and_line(fc, x, y, "pi_low", "pi_high", colour, tooltip)
    if fitted:
        lines = pl.concat(
            [
                line.select(pl.lit(name).alias("forecast"), "date", pl.col("price").alias("mean"))
                for name, line in fitted.items()
            ]
        )
        layers.append(alt.Chart(lines).mark_line(strokeDash=[6, 4]).encode(x=x, y=y, color=colour))
    layers.append(
        alt.Chart(
            series.select(
                named("model", "model"),
                "date",
                pl.col("price").alias("mean"),
                *_kept_sources(series),
            )
        )
        .mark_point(filled=True, color="#000000", size=50)
        .encode(x=x, y=y, tooltip=["model:N", "date:T", alt.Tooltip("mean:Q", title="price")])
    )
    return alt.layer(*layers).properties(
        title=alt.Title(
            title or "Forecasts with 90% prediction intervals",
            # two lines: one is wider than the 1024 px window's column
            subtitle=[
                "black: observed; dashed: fitted trend;",
                "solid: median forecast; bands: 90% prediction interval",
            ],
        ),
        description="Observed staircase prices and two forecasts with prediction-interval bands on a log scale",
    )


def breaks_gt(tests: list[dict]) -> GT:
    """Break tests side by side. Each dict is an `outlook.chow_test` result or an
    `outlook.break_search` summary, with a `test` label added by the caller; a search summary may
    carry `n_before` and `n_after` (from the Chow test at its best date)."""
    rows = []
    for t in tests:
        searched = "sup_f" in t
        rows.append(
            {
                "test": t["test"],
                "date": t["best_date"] if searched else t["break_date"],
                "f_stat": t["sup_f"] if searched else t["f_stat"],
                "p_value": t["p_value"],
                "p_method": t["p_value_method"]
                if searched
                else f"F({t['df_num']}, {t['df_denom']}) distribution",
                "n_before": t.get("n_before"),
                "n_after": t.get("n_after"),
            }
        )
    df = pl.DataFrame(
        rows, schema_overrides={"date": pl.Date, "n_before": pl.Int64, "n_after": pl.Int64}
    )
    return (
        GT(df, rowname_col="test")
        .cols_label(
            date="Break date",
            f_stat="F",
            p_value="p-value",
            p_method="p-value from",
            n_before="Points before",
            n_after="Points from",
        )
        .fmt_number(["f_stat"], decimals=1)
        .fmt_number(["p_value"], n_sigfig=2, drop_trailing_zeros=True)
        .sub_missing(missing_text="")
    )


TREND_COLUMNS = ["n", "start_date", "end_date", "factor_per_year", "ci90_low", "ci90_high"]


def outlook_rows(result: dict) -> pl.DataFrame:
    """`outlook.outlook`'s trends as rows: each segment, then the whole series; the price each
    forecast reaches at its end date with its prediction interval (the since-break forecast on
    the last segment's row, whose trend it is)."""
    seg = result["segments"].sort("segment")
    names = (
        ["Before the break", "From the break on"]
        if seg.height == 2
        else [f"Segment {i}" for i in seg["segment"]]
    )
    whole, since = result["forecast_summary"], result["forecast_since_break_summary"]
    empty = {"price_at_until": None, "pi_low": None, "pi_high": None}

    def ahead(summary: dict) -> dict:
        return {
            "price_at_until": summary["price_at_until"],
            "pi_low": summary["pi_low_at_until"],
            "pi_high": summary["pi_high_at_until"],
        }

    rows = [
        {"trend": name, **{k: s[k] for k in TREND_COLUMNS}, **empty}
        for name, s in zip(names, seg.iter_rows(named=True), strict=True)
    ]
    rows[-1].update(ahead(since))
    rows.append({"trend": "Whole series", **{k: whole[k] for k in TREND_COLUMNS}, **ahead(whole)})
    return pl.DataFrame(
        rows,
        schema={
            "trend": pl.String,
            "n": pl.Int64,
            "start_date": pl.Date,
            "end_date": pl.Date,
            "factor_per_year": pl.Float64,
            "ci90_low": pl.Float64,
            "ci90_high": pl.Float64,
            "price_at_until": pl.Float64,
            "pi_low": pl.Float64,
            "pi_high": pl.Float64,
        },
    )


def outlook_gt(result: dict) -> GT:
    """`outlook_rows` as a table: trends with their 90% intervals, and the forecast prices."""
    until = result["forecast_summary"]["until"]
    return (
        GT(outlook_rows(result), rowname_col="trend")
        .cols_label(
            n="Points",
            start_date="From",
            end_date="To",
            factor_per_year="Factor / year",
            ci90_low="90% CI low",
            ci90_high="90% CI high",
            price_at_until="Median",
            pi_low="90% PI low",
            pi_high="90% PI high",
        )
        .tab_spanner("Trend", TREND_COLUMNS)
        .tab_spanner(
            f"Forecast price on {until} (USD per 1M tokens)",
            ["price_at_until", "pi_low", "pi_high"],
        )
        .fmt_number(["factor_per_year", "ci90_low", "ci90_high"], n_sigfig=3)
        .fmt_number(["price_at_until", "pi_low", "pi_high"], n_sigfig=2)
        .sub_missing(missing_text="")
    )
