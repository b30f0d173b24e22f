"""The fixed-capability chapter's charts and tables on small frames.

The inputs come from the methods themselves, run on a hand-made staircase, so the builders are
tested against the shapes the methods really return; the charts draw what they are given and
compute nothing (the trend line is the fit's own `line()`).
"""

from __future__ import annotations

from datetime import date, timedelta

import polars as pl
import pytest
import vl_convert as vlc

from analysis.figures import capability as fig
from analysis.methods import fixed_capability as fc
from analysis.methods import llmflation, sensitivity
from analysis.methods.trends import fit_log_trend

START = date(2023, 1, 1)


@pytest.fixture(scope="module")
def obs() -> pl.DataFrame:
    """Five models falling exactly 10x a year, and one dear model above the threshold."""
    rows = [
        (f"m{i}", START + timedelta(days=150 * i), 100 * 10 ** (-150 * i / 365), 50.0 + i)
        for i in range(5)
    ]
    rows.append(("dear", START + timedelta(days=200), 500.0, 60.0))
    rows.append(("below", START + timedelta(days=300), 0.01, 20.0))
    return pl.DataFrame(
        rows,
        schema={"model": pl.String, "date": pl.Date, "price": pl.Float64, "score": pl.Float64},
        orient="row",
    )


@pytest.fixture(scope="module")
def table(obs) -> pl.DataFrame:
    return fc.trends(obs, "humaneval", bootstrap=True)


def layers(chart) -> list[dict]:
    return chart.to_dict()["layer"]


def rows(chart, layer: dict) -> list[dict]:
    """The rows a layer draws: its own data, else the chart's."""
    spec = chart.to_dict()
    return spec["datasets"][(layer.get("data") or spec["data"])["name"]]


def test_staircase_chart_draws_the_points_the_staircase_and_the_fit_s_line(obs, table):
    trend = table.row(0, named=True)
    above = obs.filter(pl.col("score") >= trend["threshold_score"])
    steps = fc.staircase(obs, trend["threshold_score"])
    fit = fit_log_trend(steps["date"].to_list(), steps["price"].to_list())
    chart = fig.staircase_chart(above, steps, fit, trend)
    points, stairs, line = layers(chart)
    assert {r["model"] for r in rows(chart, points)} == {"m0", "m1", "m2", "m3", "m4", "dear"}
    assert {r["kind"] for r in rows(chart, points)} == {"at or above the threshold"}
    assert [r["model"] for r in rows(chart, stairs)] == ["m0", "m1", "m2", "m3", "m4"]
    assert stairs["mark"]["interpolate"] == "step-after"
    # The dashed line runs from $100 to the price 600 days later, 10x a year.
    ends = [r["price"] for r in rows(chart, line)]
    assert ends == pytest.approx([100.0, 100 * 10 ** (-600 / 365)], rel=1e-9)
    assert line["mark"]["strokeDash"] == [6, 4]
    title = chart.to_dict()["title"]
    assert title["text"] == "HumanEval >= 50 (m0's score)"
    assert "falls 10x per year" in title["subtitle"]


def test_factors_chart_labels_each_threshold_with_its_benchmark(table):
    chart = fig.factors_chart(table, "Trends")
    bars, points = layers(chart)
    data = rows(chart, points)
    assert data[0]["benchmark_name"] == "HumanEval"
    # the benchmark's name keys the row; the axis shows the part after it (the colour names it)
    assert data[0]["threshold"] == "HumanEval: m0 (50.0)"
    svg = vlc.vegalite_to_svg(chart.to_dict())
    assert ">m0 (50.0)<" in svg and ">HumanEval: m0" not in svg
    assert bars["encoding"]["x2"]["field"] == "ci90_high"


def test_the_threshold_axis_draws_a_long_name_whole_or_shortened_never_cut(table):
    """A threshold named after a model with a long name was cut to "deepseek-reasoner
    (DeepSeek API m…" at 215 px. Now a name past 30 characters loses its parenthesis where every
    label stays distinct (the tooltip keeps the whole name), and is drawn whole where it would
    not; no label is cut."""
    long = "deepseek-reasoner (DeepSeek API moving alias)"
    one = table.with_columns(pl.lit(long).alias("threshold_model"))
    svg = vlc.vegalite_to_svg(fig.factors_chart(one, "T").to_dict())
    assert "…" not in svg
    assert ">deepseek-reasoner (50.0)<" in svg
    # two thresholds of one benchmark and score whose names differ only in the parenthesis
    first = one.head(1)
    other = first.with_columns(
        pl.lit("deepseek-reasoner (other alias, May 2025)").alias("threshold_model")
    )
    twins = pl.concat([first, other])
    svg = vlc.vegalite_to_svg(fig.factors_chart(twins, "T").to_dict())
    assert "…" not in svg
    assert ">deepseek-reasoner (DeepSeek API moving alias) (50.0)<" in svg


def test_trends_table_shows_the_bootstrap_interval_only_when_asked(table):
    with_boot = fig.trends_gt(table, bootstrap=True)
    assert {"boot90_low", "boot90_high"} <= set(with_boot._tbl_data.columns)
    plain = fig.trends_gt(table.drop("boot90_low", "boot90_high"))
    assert plain._tbl_data.columns == fig.TREND_COLUMNS
    # Every result column but the one-model id, which the names of every tied model replace.
    assert set(fig.TREND_COLUMNS) == set(fc.RESULT_COLUMNS) - {"threshold_model"}
    assert "Factor / year" in plain.as_raw_html()


def test_sensitivity_table_leaves_a_variant_without_an_estimate_blank():
    df = pl.DataFrame(
        [
            {"variant": "base", "n": 5, "factor_per_year": 10.0, "ci90_low": 8.0, "ci90_high": 12.0, "note": ""},
            {"variant": "short", "n": None, "factor_per_year": None, "ci90_low": None, "ci90_high": None, "note": "too few"},
        ],
        schema=sensitivity.SCHEMA,
    )  # fmt: skip
    html = fig.sensitivity_gt(df).as_raw_html()
    assert "too few" in html and "None" not in html and "Variant" in html


def test_a16z_chart_draws_the_series_and_the_line_it_is_given():
    months = pl.date_range(date(2021, 11, 1), date(2022, 10, 1), "1mo", eager=True)
    series = pl.DataFrame(
        {
            "month": months,
            "model_id": "m",
            "provider": "p",
            "price": [60.0 * 0.8**i for i in range(len(months))],
            "mmlu": 50.0,
            "source": "s",
        }
    )
    fit = llmflation.a16z_fit(series, None, None, window="test")
    line = pl.DataFrame({"month": [fit["start_month"], fit["end_month"]], "price": [60.0, 5.0]})
    chart = fig.a16z_chart(series, line, fit)
    points, trend = layers(chart)
    assert len(rows(chart, points)) == len(months)
    assert [r["price"] for r in rows(chart, trend)] == [60.0, 5.0]
    assert "trend over Nov 2021-Oct 2022" in chart.to_dict()["title"]["subtitle"]
    table = fig.a16z_gt(llmflation.fits_table({"data_version": "v", "test": fit})).as_raw_html()
    assert "2021-11" in table and "First-to-last factor / year" in table


# --- the 2026 extension -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def window(obs) -> pl.DataFrame:
    return fc.window_comparison(obs, "humaneval", START + timedelta(days=460)).with_columns(
        pl.lit("epoch-benchmarking-hub-2026-04").alias("score_source")
    )


def test_window_chart_draws_both_fits_of_each_threshold_and_names_the_source(window):
    import vl_convert as vlc

    chart = fig.window_chart(window)
    _, points = layers(chart)
    drawn = rows(chart, points)
    assert window.height >= 1 and len(drawn) == 2 * window.height
    assert {r["window"] for r in drawn} == {"to the end of Epoch's window", "to 2026"}
    # The short fit's factor is the method's, not recomputed.
    short = [r["factor_per_year"] for r in drawn if r["window"] != "to 2026"]
    assert short == window["factor_short"].to_list()
    assert {r["score_source"] for r in drawn} == {"epoch-benchmarking-hub-2026-04"}
    assert "Epoch Benchmarking Hub, April 2026 export" in drawn[0]["series"]
    # Fits the 749 px text column.
    svg = vlc.vegalite_to_svg(chart.to_dict())
    width = float(svg.split('width="', 1)[1].split('"', 1)[0])
    assert width <= 749


def test_series_gt_groups_the_trends_by_series(table):
    t = table.with_columns(pl.lit("aa-leaderboards-oolong").alias("score_source"))
    html = fig.series_gt(t).as_raw_html()
    assert "Artificial Analysis, latest snapshot" in html
    assert "Threshold set by" in html
