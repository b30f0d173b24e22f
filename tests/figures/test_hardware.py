"""Tests of analysis.figures.hardware, the charts and tables of the hardware chapters, on small
hand-made frames: what each draws or shows from the frame it is given."""

from __future__ import annotations

from datetime import date

import altair as alt
import hardware_frames as frames
import polars as pl
import pytest
import vl_convert as vlc
from great_tables import GT

from analysis.figures import hardware as hv
from analysis.methods import tokens_per_dollar as tpd


def _encoding_fields(spec: dict) -> dict[str, str]:
    """channel -> field of a single-view spec (facet inner spec or plain chart)."""
    inner = spec.get("spec", spec)
    return {ch: enc["field"] for ch, enc in inner["encoding"].items() if "field" in enc}


def _layer_fields(spec: dict) -> set[str]:
    return {
        enc["field"]
        for layer in spec["layer"]
        for enc in layer.get("encoding", {}).values()
        if isinstance(enc, dict) and "field" in enc
    }


# ------------------------------------------------------------------ GPU-hour price views


def test_price_history_chart_facets_by_pricing_with_gpu_colours():
    series = pl.DataFrame(
        {
            "gpu_group": ["h100", "a100", "h100"],
            "pricing": ["spot", "on-demand", "on-demand"],
            "month": [date(2024, 1, 1)] * 3,
            "usd_per_gpu_hour": [2.0, 1.5, 3.0],
            "n_sources": [1, 2, 3],
        }
    )
    spec = hv.price_history_chart(series, ["v100", "a100", "h100"]).to_dict()
    assert spec["facet"]["column"]["field"] == "pricing"
    assert spec["facet"]["column"]["sort"] == ["on-demand", "spot"]
    fields = _encoding_fields(spec)
    assert fields == {"x": "month", "y": "usd_per_gpu_hour", "color": "gpu"}
    # Colours in the order given, for the GPUs the series holds.
    assert spec["spec"]["encoding"]["color"]["sort"] == ["A100", "H100"]


def test_hedonic_chart_has_band_line_and_base_rule():
    index = pl.DataFrame(
        {
            "period": [date(2024, 1, 1), date(2024, 2, 1)],
            "index": [1.0, 0.9],
            "ci_low": [1.0, 0.8],
            "ci_high": [1.0, 1.0],
            "n_obs": [5, 6],
        }
    )
    spec = hv.hedonic_chart(index, date(2024, 1, 1)).to_dict()
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["area", "line", "rule"]
    assert {"period", "index", "ci_low", "ci_high"} <= _layer_fields(spec)
    assert spec["layer"][0]["encoding"]["y"]["title"] == "Index (Jan 2024 = 1)"


def test_decline_gt_writes_factors_and_percentages_with_intervals():
    rates = pl.DataFrame(
        {
            "gpu_group": ["h100", "h200"],
            "pricing": ["on-demand", "spot"],
            "n": [200, 30],
            "n_providers": [20, 3],
            "start_date": [date(2023, 6, 1)] * 2,
            "end_date": [date(2026, 9, 1)] * 2,
            "factor_per_year": [1.0636, 0.37],
            "ci90_low": [1.0403, 0.25],
            "ci90_high": [1.0873, 0.54],
            "pct_per_year": [-5.97, 171.5],
            "pct_ci90_low": [-8.03, 85.2],
            "pct_ci90_high": [-3.87, 298.0],
        }
    )
    table = hv.decline_gt(rates)
    assert isinstance(table, GT)
    data = table._tbl_data
    assert data["GPU"].to_list() == ["H100", "H200"]
    assert data["Window"][0] == "2023-06 to 2026-09"
    assert data["Factor per year [90% CI]"][0] == "1.064 [1.040, 1.087]"
    assert data["% per year [90% CI]"][0] == "-6.0 [-8.0, -3.9]"
    assert "Evidence" not in data.columns  # a frame without the evidence variant
    named = hv.decline_gt(rates.with_columns(pl.Series("evidence", ["direct", "all"])))
    assert named._tbl_data["Evidence"].to_list() == [
        "Direct observations",
        "All rows (restated included)",
    ]


def test_age_series_drops_unknown_ages_and_adds_name_and_years():
    by_age = pl.DataFrame(
        {
            "gpu_group": ["a100", "x1"],
            "month": [date(2026, 9, 1), date(2024, 2, 1)],
            "usd_per_gpu_hour": [2.31, 1.0],
            "age_months": [78.0, None],
        }
    )
    series = hv.age_series(by_age)
    assert "x1" not in series["gpu_group"].to_list()
    assert series.columns[-2:] == ["gpu", "age_years"]  # the figure kit's CSV column order
    assert series["gpu"][0] == "A100"
    assert series["age_years"][0] == pytest.approx(6.5)  # 78 months / 12


def test_age_chart_plots_years_since_release_on_a_log_price_scale():
    by_age = pl.DataFrame(
        {
            "gpu": ["A100", "H100"],
            "month": [date(2024, 1, 1)] * 2,
            "usd_per_gpu_hour": [1.5, 3.0],
            "n_providers": [3, 5],
            "age_years": [3.8, 1.3],
        }
    )
    spec = hv.age_chart(by_age, ["v100", "a100", "h100"]).to_dict()
    assert _encoding_fields(spec) == {"x": "age_years", "y": "usd_per_gpu_hour", "color": "gpu"}
    assert spec["encoding"]["y"]["scale"]["type"] == "log"
    assert spec["encoding"]["color"]["sort"] == ["V100", "A100", "H100"]


def test_drawdown_table_shows_provider_counts_and_fraction():
    drawdowns = pl.DataFrame(
        {
            "gpu_group": ["h100", "h100", "rtx-4090"],
            "pricing": ["on-demand", "spot", "on-demand"],
            "n_months": [36, 2, 20],
            "peak_month": [date(2023, 10, 1)] * 3,
            "peak_usd_per_gpu_hour": [7.38, 2.0, 1.0],
            "latest_month": [date(2026, 9, 1)] * 3,
            "latest_usd_per_gpu_hour": [3.79, 2.0, 0.5],
            "drawdown_pct": [-48.66, 0.0, -50.0],
            "months_since_peak": [35, 0, 35],
            "peak_n_providers": [2, 1, 1],
            "latest_n_providers": [8, 1, 1],
        }
    )
    data = hv.drawdown_gt(drawdowns)._tbl_data
    assert data["GPU"].to_list() == ["H100", "H100", "RTX-4090"]
    assert data["Peak month"][0] == "2023-10"
    assert data["Providers"].to_list() == ["2 / 8", "1 / 1", "1 / 1"]
    assert data["Drawdown"][0] == pytest.approx(-0.4866)


def test_flops_chart_draws_the_points_and_the_lines_it_is_given():
    frame = pl.DataFrame(
        {
            "gpu": ["a", "b"],
            "release_date": [date(2015, 1, 1), date(2020, 1, 1)],
            "release_price_usd": [1000.0, 1000.0],
            "tflop_per_s": [10.0, 20.0],
            "flop_per_s_per_usd": [1e10, 2e10],
        }
    )
    lines = pl.DataFrame(
        {
            "release_date": [date(2015, 1, 1), date(2020, 1, 1)] * 2,
            "flop_per_s_per_usd": [1e10, 1e10, 5e9, 2e10],
            "line": ["Fit: +0% per year"] * 2 + ["Epoch AI: +30% per year"] * 2,
        }
    )
    spec = hv.flops_per_dollar_chart(frame, lines).to_dict()
    drawn = spec["datasets"][spec["layer"][1]["data"]["name"]]
    assert [row["flop_per_s_per_usd"] for row in drawn] == [1e10, 1e10, 5e9, 2e10]
    # The legend keeps the lines' order: the fit first, solid; Epoch's reference dashed.
    color = spec["layer"][1]["encoding"]["color"]
    assert color["sort"] == ["Fit: +0% per year", "Epoch AI: +30% per year"]
    assert spec["layer"][1]["encoding"]["strokeDash"]["scale"]["range"] == [[1, 0], [6, 4]]


def test_claims_gt_states_the_digest_value_and_the_finding():
    checks = pl.DataFrame(
        {
            "claim_id": ["b", "a"],
            "claim": ["B is 2x", "A fell 64-75%"],
            "value": [2.0, 64.0],
            "value_high": [None, 75.0],
            "unit": ["factor", "percent"],
            "claim_date": [date(2026, 9, 27)] * 2,
            "data_shows": ["not in the data", "49% in the data"],
        }
    )
    table = hv.claims_gt(checks)._tbl_data
    assert table["Claimed"].to_list() == ["2 factor", "64 to 75 percent"]
    assert table["Digest date"].to_list() == ["2026-09-27"] * 2
    assert table["What the data shows"].to_list() == ["not in the data", "49% in the data"]


# ------------------------------------------------------------------ tokens-per-dollar views


def test_throughput_chart_labels_accelerators_and_models_and_orders_rounds():
    summary = pl.DataFrame(
        {
            "round": ["v5.1", "v4.1", "v5.1"],
            "date": [frames.ROUND_DATE, date(2024, 8, 28), frames.ROUND_DATE],
            "accelerator": ["h100-sxm", "h100-sxm", "b200"],
            "base_model": ["llama2-70b", "llama2-70b", "gptj"],
            "scenario": ["Offline"] * 3,
            "n_systems": [5, 10, 3],
            "best_tokens_per_s_per_acc": [3900.0, 3000.0, 12000.0],
            "median_tokens_per_s_per_acc": [3800.0, 2900.0, 11000.0],
        }
    )
    spec = hv.throughput_chart(summary, "Offline").to_dict()
    rows = spec["datasets"][spec["data"]["name"]]
    assert {row["Accelerator"] for row in rows} == {"H100-SXM", "B200"}
    assert {row["model"] for row in rows} == {"Llama 2 70B", "GPT-J 6B"}
    assert _encoding_fields(spec) == {
        "x": "round",
        "y": "best_tokens_per_s_per_acc",
        "color": "Accelerator",
    }
    assert spec["spec"]["encoding"]["x"]["sort"] == ["v4.1", "v5.1"]  # by date
    assert spec["title"] == "MLPerf Inference throughput per accelerator (Offline)"


def test_ladder_chart_draws_rungs_in_the_given_order_on_a_log_scale():
    rungs = pl.DataFrame(
        {
            "model": ["Llama 2 70B", "Llama 3.1 8B", "Llama 2 70B"],
            "accelerator": ["b200"] * 3,
            "round": ["v5.1"] * 3,
            "rung": [
                "Physical floor (compute bound)",
                "Physical floor (compute bound)",
                "API list price, median",
            ],
            "usd_per_mtok": [0.05, 0.006, 2.03],
        }
    )
    chart = hv.ladder_chart(rungs, ["Llama 3.1 8B", "Llama 2 70B"])
    assert isinstance(chart, alt.LayerChart)
    spec = chart.to_dict()
    assert spec["layer"][1]["encoding"]["y"]["sort"] == ["Llama 3.1 8B", "Llama 2 70B"]
    assert spec["layer"][1]["encoding"]["x"]["scale"]["type"] == "log"
    # the legend lists the rungs drawn, in the ladder's order (the frame has the median last)
    rung_order = ["Physical floor (compute bound)", "API list price, median"]
    for channel in ("color", "shape"):
        assert spec["layer"][1]["encoding"][channel]["scale"]["domain"] == rung_order


def test_cost_and_break_even_tables_label_price_and_scenario():
    costs = frames.costs("h100-sxm", 2.0, 3500.0)
    table = hv.cost_gt(costs)._tbl_data
    assert "Scenario" not in table.columns  # a single scenario is named in the caption
    assert table["Price (type, month)"].to_list() == ["on-demand 2025-09"]
    break_even = costs.with_columns(
        pl.lit(0.8).alias("api_median_usd_per_mtok"),
        pl.lit(2).alias("n_api_providers"),
        (pl.col("hardware_usd_per_mtok") / 0.8).alias("break_even_utilisation"),
    )
    be = hv.break_even_gt(break_even)._tbl_data
    assert be["Break-even utilisation"][0] == pytest.approx((2.0 / 12.6) / 0.8)
    assert be["Accelerator"].to_list() == ["H100-SXM"]


def test_floor_table_view_groups_by_model():
    floors = tpd.floor_table(frames.specs(), ["h100-sxm", "b200"], frames.models())
    assert floors.height == 2 * len(tpd.MLPERF_MODEL_IDS)
    data = hv.floor_gt(floors)._tbl_data
    h100_70b = data.filter(pl.col("Model") == "Llama 2 70B", pl.col("GPU") == "H100-SXM")
    assert h100_70b["Compute bound"][0] == pytest.approx(989.4e12 / 140e9)
    assert h100_70b["Memory bound, batch 1"][0] == pytest.approx(3.35e12 / 140e9)
    assert h100_70b["Precision"][0] == "FP16"


def test_and_join_and_gpu_names_list_ids_as_the_prose_writes_them():
    assert hv.and_join([]) == ""
    assert hv.and_join(["v5.1"]) == "v5.1"
    assert hv.and_join(["B200", "H200"]) == "B200 and H200"
    assert hv.and_join(iter(["v4.0", "v4.1", "v5.1"])) == "v4.0, v4.1 and v5.1"
    assert hv.gpu_names(["h100-sxm", "b200"]) == ["H100-SXM", "B200"]


# ------------------------------------------------------------------ v6.0, InferenceMAX, training


def test_gain_gt_labels_the_rounds_and_cites_the_source():
    gain = pl.DataFrame(
        {
            "accelerator": ["gb300"],
            "base_model": ["deepseek-r1"],
            "scenario": ["Offline"],
            "to_tokens_per_s": [9820.5],
            "from_tokens_per_s": [6005.9],
            "ratio": [1.635],
            "own_from_tokens_per_s": [None],
            "own_ratio": [None],
            "submitter": ["CoreWeave"],
            "from_round": ["v5.1"],
            "to_round": ["v6.0"],
        }
    )
    html = hv.gain_gt(gain).as_raw_html()
    for text in ("CoreWeave v6.0", "Best v5.1", "DeepSeek-R1", "GB300", "9,820", "1.64", "Source:"):
        assert text in html


def test_inference_cost_chart_orders_rows_and_names_measures():
    points = pl.DataFrame(
        {
            "row": ["m: API", "m on B200", "m on B200"],
            "measure": [
                hv.COST_MEASURES["api_median"],
                hv.COST_MEASURES["imax"],
                hv.COST_MEASURES["mlperf"],
            ],
            "usd_per_mtok": [1.0, 0.1, 0.2],
        }
    )
    spec = hv.inference_cost_chart(points, ["m: API", "m on B200"]).to_dict()
    assert spec["encoding"]["y"]["sort"] == ["m: API", "m on B200"]
    assert spec["encoding"]["x"]["scale"]["type"] == "log"
    # the legend lists the measures drawn in COST_MEASURES' order, not the frame's
    drawn = [hv.COST_MEASURES[k] for k in ("imax", "mlperf", "api_median")]
    for channel in ("color", "shape"):
        assert spec["encoding"][channel]["scale"]["domain"] == drawn
    assert " ".join(spec["title"]["subtitle"]).startswith("Sources: InferenceMAX runs")


def test_training_scale_chart_is_log_log_with_points_and_lines():
    systems = pl.DataFrame(
        {
            "round": ["v5.0", "v5.0"],
            "submitter": ["s", "s"],
            "system": ["a", "b"],
            "accelerator": ["gb200", "gb200"],
            "accelerator_count": [512, 1024],
            "minutes": [100.0, 52.0],
        }
    )
    line = systems.select("accelerator", "accelerator_count", "minutes")
    spec = hv.training_scale_chart(systems, line).to_dict()
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks == ["point", "line"]
    for layer in spec["layer"]:
        assert layer["encoding"]["x"]["scale"]["type"] == "log"
        assert layer["encoding"]["y"]["scale"]["type"] == "log"
    assert "Source:" in spec["title"]["subtitle"]


def test_inference_cost_gt_shows_one_ownership_case_and_blanks_missing_runs():
    costs = pl.DataFrame(
        {
            "benchmark_model": ["gpt-oss-120b", "gpt-oss-120b"],
            "accelerator": ["b200", "b300"],
            "framework": ["trt", None],
            "precision": ["fp4", None],
            "concurrency": [128, None],
            "median_tokens_per_s_per_user": [78.4, None],
            "imax_output_tokens_per_s_per_gpu": [9781.0, None],
            "mlperf_tokens_per_s_per_gpu": [10930.0, 13832.0],
            "usd_neocloud": [2.34, 2.808],
            "imax_usd_per_mtok_neocloud": [0.0664, None],
            "mlperf_usd_per_mtok_neocloud": [0.0595, 0.0564],
            "api_median_usd_per_mtok": [0.75, 0.75],
        }
    )
    html = hv.inference_cost_gt(costs, "neocloud").as_raw_html()
    for text in ("trt fp4 c128", "B300", "$2.34", "$0.066", "9,781", "Sources:"):
        assert text in html
    assert "None" not in html


def test_the_book_renderer_gives_figures_the_display_names():
    from analysis.book import show
    from analysis.figures import theme

    theme.use_names(show.names.display_name)  # what importing show does once per process

    # gpu_specs.csv: h100-sxm,NVIDIA H100 SXM5 80GB; provider_names.csv: deepinfra-turbo
    assert hv.gpu_name("h100-sxm") == "NVIDIA H100 SXM5 80GB"
    # gpu_specs has no h200-nvl: gpu_names.csv gives it as RunPod writes it (runpod_daily.csv
    # line 25, gpu_id "NVIDIA H200 NVL"); an id no table names is written in capitals, no guess
    assert hv.gpu_name("h200-nvl") == "NVIDIA H200 NVL"
    assert hv.gpu_name("no-such-gpu") == "NO-SUCH-GPU"
    assert theme.display_name("provider", "deepinfra-turbo") == "DeepInfra Turbo"
    frame = pl.DataFrame({"gpu_group": ["h100-sxm", None]})
    assert frame.select(hv.gpu_label())["gpu_group"].to_list() == ["NVIDIA H100 SXM5 80GB", None]


def legends(chart: alt.TopLevelMixin) -> list[list[tuple[str, str]]]:
    """Each legend vl-convert draws for `chart`: its (label, symbol shape) entries."""
    found: list[list[tuple[str, str]]] = []

    def walk(node: dict, legend: list | None) -> None:
        for item in node.get("items") or []:
            role = node.get("role")
            if role == "legend":
                legend = []
                found.append(legend)
            if legend is not None and role == "legend-symbol":
                legend.append(("symbol", item.get("shape")))
            if legend is not None and role == "legend-label":
                legend.append(("label", item.get("text")))
            if "items" in item:
                walk(item, legend)

    walk(vlc.vegalite_to_scenegraph(chart.to_dict())["scenegraph"], None)
    return found


def test_the_cost_charts_have_one_legend_in_the_marks_shapes():
    """Colour and shape of one field: one legend, whose symbols are the marks' shapes (with the
    shape legend hidden, as before, every symbol was a circle: three of four marks differ)."""
    points = pl.DataFrame(
        {
            "row": ["M: API", "M on G", "M on G", "M: API"],
            "measure": [
                hv.COST_MEASURES["api_min"],
                hv.COST_MEASURES["imax"],
                hv.COST_MEASURES["mlperf"],
                hv.COST_MEASURES["api_median"],
            ],
            "usd_per_mtok": [0.5, 0.1, 0.2, 0.9],
        }
    )
    (legend,) = legends(hv.inference_cost_chart(points, ["M: API", "M on G"]))
    shapes = [value for kind, value in legend if kind == "symbol"]
    assert len(shapes) == 4 and len(set(shapes)) == 4, legend
    labels = [value for kind, value in legend if kind == "label"]
    assert labels == list(hv.COST_MEASURES.values())  # the measures' order, not the data's
