"""The chapter's view builders on small frames: the fields each layer encodes, the number of
layers, and the rows of each table. Inputs come from the analysis functions themselves, run on
synthetic data, so the views are tested against the shapes those functions really return."""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np
import polars as pl
import pytest

from analysis.figures import outlook as views
from analysis.methods import hedonic, outlook

START = date(2023, 1, 1)
BREAK = date(2024, 6, 1)


@pytest.fixture(scope="module")
def hedonic_obs() -> pl.DataFrame:
    """40 models whose ln price falls 10x a year at a fixed score; a quarter are open weights."""
    rng = np.random.default_rng(5)
    days = rng.integers(0, 2 * 365, 40)
    score = rng.uniform(20, 80, 40)
    p = score / 100
    ln_price = -np.log(10) / 365 * days + 1.5 * np.log(p / (1 - p)) + rng.normal(0, 0.3, 40)
    return pl.DataFrame(
        {
            "model_id": [f"m{i}" for i in range(40)],
            "date": [START + timedelta(days=int(d)) for d in days],
            "price": np.exp(ln_price),
            "score": score,
            "open_weights": [i % 4 == 0 for i in range(40)],
        }
    ).sort("date")


@pytest.fixture(scope="module")
def table(hedonic_obs) -> pl.DataFrame:
    rows = []
    for bench in ["gpqa-diamond", "mmlu"]:
        for name in ["frontier", "all"]:
            rows.append(hedonic.fit_hedonic(hedonic.sample(hedonic_obs, name), bench, name))
    rows.append({"benchmark": "mmlu", "sample": "open-weights", "n": 2, "note": "too few"})
    return pl.DataFrame(rows, infer_schema_length=None)


@pytest.fixture(scope="module")
def staircase() -> pl.DataFrame:
    """A falling series that slows at BREAK: 10x a year, then 1.6x."""
    rng = np.random.default_rng(2)
    dates = sorted(START + timedelta(days=int(d)) for d in rng.choice(3 * 365, 16, replace=False))
    kink = (BREAK - START).days / 365
    logs = [
        (1 - t if t < kink else 1 - kink - 0.2 * (t - kink)) + rng.normal(0, 0.05)
        for t in ((d - START).days / 365 for d in dates)
    ]
    return pl.DataFrame(
        {"model": [f"m{i}" for i in range(16)], "date": dates, "price": [10**v for v in logs]}
    )


@pytest.fixture(scope="module")
def result(staircase) -> dict:
    return outlook.outlook(staircase, n_boot=19)


def layers(chart) -> list[dict]:
    return chart.to_dict()["layer"]


def fields(layer: dict) -> set[str]:
    """Every field a layer encodes, tooltips included."""
    channels = [c for v in layer["encoding"].values() for c in (v if isinstance(v, list) else [v])]
    return {c["field"] for c in channels if isinstance(c, dict) and "field" in c}


# --- hedonic -----------------------------------------------------------------------------------


def test_hedonic_table_has_a_row_per_fit_and_keeps_the_unfitted_row_with_its_note(table):
    gt = views.hedonic_gt(table)
    assert gt._tbl_data.height == 5
    assert "note" in gt._tbl_data.columns
    assert set(gt._tbl_data["benchmark"]) == {"GPQA Diamond", "MMLU"}
    html = gt.as_raw_html()
    assert "Factor / year" in html and "90% CI low" in html and "too few" in html


def test_hedonic_table_without_notes_has_no_note_column(table):
    gt = views.hedonic_gt(table.filter(pl.col("note").is_null()))
    assert gt._tbl_data.height == 4
    assert "note" not in gt._tbl_data.columns


def test_date_rule_table_puts_each_rule_side_by_side(table):
    stacked = pl.concat(
        [
            table.with_columns(pl.lit(rule).alias("date_from"), pl.col("factor_per_year") * (i + 1))
            for i, rule in enumerate(hedonic.DATE_RULES)
        ]
    )
    gt = views.date_rule_gt(stacked)
    data = gt._tbl_data
    assert data.height == table.height
    for rule in hedonic.DATE_RULES:
        assert {f"factor_per_year_{rule}", f"n_{rule}"} <= set(data.columns)
    first = data.filter(pl.col("sample") == "Frontier").row(0, named=True)
    assert first["factor_per_year_release"] == pytest.approx(2 * first["factor_per_year_latest"])
    assert "Later of release and first price" in gt.as_raw_html()


def test_index_chart_draws_band_line_and_points_per_sample(hedonic_obs):
    frontier = hedonic.sample(hedonic_obs, "frontier")
    score = hedonic.reference_score(frontier)
    index = pl.concat(
        [
            hedonic.price_index(
                hedonic.sample(hedonic_obs, name), score, benchmark="gpqa-diamond", sample_name=name
            )
            for name in ["frontier", "all"]
        ]
    )
    points = hedonic.quality_adjusted_prices(frontier, score).with_columns(
        pl.lit("frontier").alias("sample")
    )
    chart = views.index_chart(index, points)
    band, line, dots = layers(chart)
    assert band["mark"]["type"] == "area" and {"ci_low", "ci_high", "sample"} <= fields(band)
    assert line["mark"]["type"] == "line" and {"month", "price", "sample"} <= fields(line)
    assert dots["mark"]["type"] == "point" and {"date", "adjusted_price"} <= fields(dots)
    assert band["encoding"]["color"]["scale"]["domain"] == ["Frontier", "All models"]
    assert "GPQA Diamond" in chart.to_dict()["title"]["text"]
    assert len(layers(views.index_chart(index))) == 2


# --- breaks and forecasts ----------------------------------------------------------------------


def test_breaks_chart_layers_points_by_segment_and_both_rules(staircase, result):
    best = result["break_search"]["best_date"]
    segs = result["segments"]
    chart = views.breaks_chart(
        outlook.segment_of(staircase, segs),
        segs,
        outlook.segment_lines(staircase, segs),
        outlook.trend_fit(staircase),
        best,
        named_date=BREAK,
        named_label="named",
    )
    whole, segments, points, rules = layers(chart)
    assert whole["mark"]["strokeDash"] == [6, 4]
    assert {"date", "price", "line"} <= fields(segments)
    assert {"date", "price", "line", "model"} <= fields(points)
    labels = [views.segment_label(s) for s in result["segments"].iter_rows(named=True)]
    assert points["encoding"]["color"]["scale"]["domain"] == labels
    assert len(rules["encoding"]["strokeDash"]["scale"]["domain"]) == 2
    # Each point is coloured by the segment its date falls in.
    spec = chart.to_dict()
    rows = spec["datasets"][points["data"]["name"]]
    before = [r["line"] for r in rows if r["date"] < str(best)]
    assert set(before) == {labels[0]}
    # The lines drawn are the ones given: the whole series' fit and each segment's.
    whole_rows = spec["datasets"][whole["data"]["name"]]
    assert {r["line"] for r in whole_rows} == {"whole series"}
    segment_rows = spec["datasets"][segments["data"]["name"]]
    assert [r["line"] for r in segment_rows] == [labels[0], labels[0], labels[1], labels[1]]


def test_forecast_chart_has_bands_lines_fits_and_points(staircase, result):
    forecasts = {"whole": result["forecast"], "since": result["forecast_since_break"]}
    since = result["break_search"]["best_date"]
    fitted = {
        "whole": outlook.trend_fit(staircase).line(until=result["forecast"]["date"].min()),
        "since": outlook.trend_fit(staircase, since=since).line(),
    }
    chart = views.forecast_chart(staircase, forecasts, fitted=fitted)
    band, line, fitted, observed = layers(chart)
    assert {"pi_low", "pi_high", "forecast"} <= fields(band)
    assert {"date", "mean", "forecast"} <= fields(line)
    assert fitted["mark"]["strokeDash"] == [6, 4]
    fitted_rows = chart.to_dict()["datasets"][fitted["data"]["name"]]
    assert [r["forecast"] for r in fitted_rows] == ["whole", "whole", "since", "since"]
    assert {"date", "mean", "model"} <= fields(observed)
    assert len(layers(views.forecast_chart(staircase, forecasts))) == 3


def test_breaks_table_has_one_row_per_test(staircase, result):
    named = outlook.chow_test(staircase["date"].to_list(), staircase["price"].to_list(), BREAK)
    gt = views.breaks_gt([{**named, "test": "named"}, {**result["break_search"], "test": "sup-F"}])
    data = gt._tbl_data
    assert data["test"].to_list() == ["named", "sup-F"]
    assert data["p_method"][1] == result["break_search"]["p_value_method"]
    assert data["f_stat"][1] == pytest.approx(result["break_search"]["sup_f"])
    assert data["n_before"][0] == named["n_before"] and data["n_before"][1] is None


def test_outlook_rows_put_each_forecast_on_the_trend_it_extrapolates(result):
    rows = views.outlook_rows(result)
    assert rows["trend"].to_list() == ["Before the break", "From the break on", "Whole series"]
    before, after, whole = rows.iter_rows(named=True)
    assert before["price_at_until"] is None
    since = result["forecast_since_break_summary"]
    assert after["price_at_until"] == pytest.approx(since["price_at_until"])
    assert after["factor_per_year"] == pytest.approx(since["factor_per_year"])
    assert whole["pi_high"] == pytest.approx(result["forecast_summary"]["pi_high_at_until"])
    assert "Forecast price on" in views.outlook_gt(result).as_raw_html()


def test_window_fits_gt_sets_the_paper_window_beside_2026():
    t = pl.DataFrame(
        {
            "benchmark": ["aa-intelligence-index"],
            "score_source": ["aa-leaderboards-oolong"],
            "sample": ["frontier"],
            "n": [10],
            "start_date": [date(2023, 1, 1)],
            "end_date": [date(2026, 7, 1)],
            "factor_per_year": [15.9],
            "ci90_low": [8.4],
            "ci90_high": [29.8],
            "n_short": [5],
            "end_short": [date(2025, 10, 1)],
            "factor_short": [37.2],
            "ci90_low_short": [None],
            "ci90_high_short": [None],
        }
    )
    html = views.window_fits_gt(t).as_raw_html()
    assert "To the end of the paper&#x27;s data" in html or "To the end of the paper's data" in html
    assert "Artificial Analysis Intelligence Index (Artificial Analysis, latest snapshot)" in html
    assert "37.2" in html and "15.9" in html
