"""Tests of analysis.figures.hardware (the charts and tables of the hardware chapters, the prose
formatters and `Numbers`) and of the floor-to-API ratio behind the ladder chart, on small
hand-made frames."""

from __future__ import annotations

from datetime import date

import altair as alt
import polars as pl
import pytest
from great_tables import GT

from analysis.figures import hardware as hv
from analysis.methods import tokens_per_dollar as tpd

ROUND_DATE = date(2025, 9, 4)


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


# ------------------------------------------------------------------ the floor-to-API ratio


def _specs() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "gpu": ["h100-sxm", "b200"],
            "fp16_tflop_per_s": [989.4, 2250.0],
            "fp8_tflop_per_s": [None, 4500.0],
            "memory_bandwidth_tb_per_s": [3.35, 8.0],
        }
    )


def _models() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "model_id": list(tpd.MLPERF_MODEL_IDS.values()),
            "parameters_b": [70.0, 405.0, 8.0, 46.7, 671.0],
            "active_parameters_b": [None, None, None, 12.9, 37.0],
        }
    )


def _costs(accelerator: str, usd_per_gpu_hour: float, tokens_per_s: float) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "round": ["v5.1"],
            "date": [ROUND_DATE],
            "base_model": ["llama2-70b"],
            "scenario": ["Offline"],
            "accelerator": [accelerator],
            "submitter": ["NVIDIA"],
            "system": ["DGX"],
            "tokens_per_s_per_accelerator": [tokens_per_s],
            "usd_per_gpu_hour": [usd_per_gpu_hour],
            "price_gpu": [accelerator],
            "price_month": [date(2025, 9, 1)],
            "price_pricing": ["on-demand"],
            "hardware_usd_per_mtok": [tpd.usd_per_mtok(usd_per_gpu_hour, tokens_per_s)],
        }
    )


def _token_prices(output_prices: dict[str, float]) -> pl.DataFrame:
    n = len(output_prices)
    return pl.DataFrame(
        {
            "model_id": ["llama-2-70b"] * n,
            "provider": list(output_prices),
            "first_party": [False] * n,
            "date": [date(2025, 8, 1)] * n,
            "last_seen": [date(2025, 10, 1)] * n,
            "output_usd_per_mtok": list(output_prices.values()),
            "currency": ["USD"] * n,
            "price_kind": ["list"] * n,
        }
    )


def test_floor_to_api_ratio_hand_computed():
    # H100 SXM, FP16 989.4 TFLOP/s, Llama 2 70B (2 x 70e9 FLOP per token):
    # bound = 989.4e12 / 140e9 = 7,067.142857 tokens/s = 25.441714 M tokens per hour;
    # at $2.00 per GPU-hour the floor is 2 / 25.441714 = $0.0786111 per M tokens.
    floor = 2.0 / (989.4e12 / 140e9 * 3600 / 1e6)
    assert floor == pytest.approx(0.0786111, rel=1e-6)
    # An API price of $0.90 is 0.90 / 0.0786111 = 11.4488 times the floor.
    assert tpd.floor_to_api_ratio(floor, 0.90) == pytest.approx(11.4488, rel=1e-4)
    assert tpd.floor_to_api_ratio(0.5, 0.5) == 1.0


def test_cost_ladder_rungs_and_ratios_hand_computed():
    # H100 SXM at $2/h doing 3,500 tokens/s: 12.6 M tokens per hour -> $0.158730 per M.
    costs = _costs("h100-sxm", 2.0, 3500.0)
    prices = _token_prices({"together": 0.9, "deepinfra": 0.7, "unspecified": 0.1})
    row = tpd.cost_ladder(costs, _specs(), _models(), prices).row(0, named=True)
    floor = 2.0 / (989.4e12 / 140e9 * 3600 / 1e6)  # FP16: the chip data has no H100 FP8 rate
    hardware = 2.0 / 12.6
    assert row["precision"] == "fp16"
    assert row["floor_usd_per_mtok"] == pytest.approx(floor, rel=1e-9)
    assert row["hardware_usd_per_mtok"] == pytest.approx(hardware, rel=1e-9)
    # The unnamed provider is not a seller: the median of 0.9 and 0.7 is 0.8, the minimum 0.7.
    assert row["n_api_providers"] == 2
    assert row["api_median_usd_per_mtok"] == pytest.approx(0.8)
    assert row["api_min_usd_per_mtok"] == pytest.approx(0.7)
    assert row["hardware_over_floor"] == pytest.approx(hardware / floor)  # 2.0192
    assert row["api_over_hardware"] == pytest.approx(0.8 / hardware)  # 5.04
    assert row["api_over_floor"] == pytest.approx(tpd.floor_to_api_ratio(floor, 0.8))  # 10.18


def test_cost_ladder_uses_fp8_where_the_chip_data_has_it():
    costs = _costs("b200", 6.0, 12_000.0)
    row = tpd.cost_ladder(costs, _specs(), _models(), _token_prices({"a": 2.0})).row(0, named=True)
    assert row["precision"] == "fp8"
    assert row["bound_tokens_per_s"] == pytest.approx(4500e12 / 140e9)


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
    spec = hv.price_history_chart(series).to_dict()
    assert spec["facet"]["column"]["field"] == "pricing"
    assert spec["facet"]["column"]["sort"] == ["on-demand", "spot"]
    fields = _encoding_fields(spec)
    assert fields == {"x": "month", "y": "usd_per_gpu_hour", "color": "gpu"}
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


def test_decline_table_drops_unfitted_small_and_excluded_groups():
    rates = pl.DataFrame(
        {
            "gpu_group": ["h100", "h200", "b200", "a100"],
            "pricing": ["on-demand", "spot", "on-demand", "on-demand"],
            "n": [200, 30, 40, 5],
            "n_providers": [20, 3, 4, 1],
            "start_date": [date(2023, 6, 1)] * 4,
            "end_date": [date(2026, 9, 1)] * 4,
            "factor_per_year": [1.0636, 0.37, None, 1.1],
            "ci90_low": [1.0403, 0.25, None, 1.0],
            "ci90_high": [1.0873, 0.54, None, 1.2],
            "pct_per_year": [-5.97, 171.5, None, -9.1],
            "pct_ci90_low": [-8.03, 85.2, None, -16.7],
            "pct_ci90_high": [-3.87, 298.0, None, 0.0],
        }
    )
    table = hv.decline_table(rates, min_n=10, exclude=[("h200", "spot")])
    assert isinstance(table, GT)
    data = table._tbl_data
    assert data["GPU"].to_list() == ["H100"]
    assert data["Factor per year [90% CI]"][0] == "1.064 [1.040, 1.087]"
    assert data["% per year [90% CI]"][0] == "-6.0 [-8.0, -3.9]"


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
    data = hv.drawdown_gt(drawdowns)._tbl_data  # short series and non-main GPUs are left out
    assert data["GPU"].to_list() == ["H100"]
    assert data["Providers"].to_list() == ["2 / 8"]
    assert data["Drawdown"][0] == pytest.approx(-0.4866)


def test_flops_chart_draws_fit_and_epoch_lines_from_the_trend():
    frame = pl.DataFrame(
        {
            "gpu": ["a", "b"],
            "release_date": [date(2015, 1, 1), date(2020, 1, 1)],
            "release_price_usd": [1000.0, 1000.0],
            "tflop_per_s": [10.0, 20.0],
            "flop_per_s_per_usd": [1e10, 2e10],
        }
    )
    trend = {
        "start_date": date(2015, 1, 1),
        "end_date": date(2020, 1, 1),
        "intercept_log10": 10.0,
        "slope_log10_per_day": 0.0,
        "pct_per_year": 0.0,
        "epoch_reference_pct_per_year": 30.0,
    }
    spec = hv.flops_per_dollar_chart(frame, trend).to_dict()
    lines = spec["datasets"][spec["layer"][1]["data"]["name"]]
    assert {row["line"] for row in lines} == {"Fit: +0% per year", "Epoch AI: +30% per year"}
    fit = [row["flop_per_s_per_usd"] for row in lines if row["line"].startswith("Fit")]
    assert fit == pytest.approx([1e10, 1e10])


def test_claim_checks_keep_order_and_state_the_digest_value():
    claims = pl.DataFrame(
        {
            "claim_id": ["a", "b"],
            "claim": ["A fell 64-75%", "B is 2x"],
            "value": [64.0, 2.0],
            "value_high": [75.0, None],
            "unit": ["percent", "factor"],
            "claim_date": [date(2026, 9, 27)] * 2,
        }
    )
    checks = hv.claim_checks(claims, {"b": "not in the data", "a": "49% in the data"})
    assert checks["claim_id"].to_list() == ["b", "a"]
    assert checks["claimed"].to_list() == ["2 factor", "64 to 75 percent"]
    assert hv.claims_gt(checks)._tbl_data["What the data shows"].to_list() == [
        "not in the data",
        "49% in the data",
    ]
    with pytest.raises(LookupError, match="no claim_id 'zz'"):
        hv.claim_row(claims, "zz")


# ------------------------------------------------------------------ tokens-per-dollar views


def test_throughput_chart_keeps_the_top_accelerators_of_one_scenario():
    summary = pl.DataFrame(
        {
            "round": ["v4.1", "v5.1", "v5.1", "v5.1"],
            "date": [date(2024, 8, 28), ROUND_DATE, ROUND_DATE, ROUND_DATE],
            "accelerator": ["h100-sxm", "h100-sxm", "b200", "l40s"],
            "base_model": ["llama2-70b"] * 4,
            "scenario": ["Offline", "Offline", "Offline", "Server"],
            "n_systems": [10, 5, 3, 50],
            "best_tokens_per_s_per_acc": [3000.0, 3900.0, 12000.0, 400.0],
            "median_tokens_per_s_per_acc": [2900.0, 3800.0, 11000.0, 380.0],
        }
    )
    spec = hv.throughput_chart(summary, top=1).to_dict()
    rows = spec["datasets"][spec["data"]["name"]]
    assert {row["Accelerator"] for row in rows} == {"H100-SXM"}  # l40s is Server, b200 fewer
    assert {row["model"] for row in rows} == {"Llama 2 70B"}
    assert _encoding_fields(spec) == {
        "x": "round",
        "y": "best_tokens_per_s_per_acc",
        "color": "Accelerator",
    }
    assert spec["spec"]["encoding"]["x"]["sort"] == ["v4.1", "v5.1"]


def test_ladder_long_has_one_row_per_known_rung():
    ladder = pl.DataFrame(
        {
            "base_model": ["llama2-70b", "llama3.1-8b"],
            "accelerator": ["b200", "b200"],
            "round": ["v5.1", "v5.1"],
            "active_parameters_b": [70.0, 8.0],
            "floor_usd_per_mtok": [0.05, 0.006],
            "hardware_usd_per_mtok": [0.12, 0.09],
            "api_min_usd_per_mtok": [0.8, None],
            "api_median_usd_per_mtok": [2.03, None],
        }
    )
    long = hv.ladder_long(ladder)
    assert long.filter(pl.col("model") == "Llama 2 70B").height == 4
    assert long.filter(pl.col("model") == "Llama 3.1 8B")["rung"].to_list() == [
        "Physical floor (compute bound)",
        "MLPerf on rented GPU, 100% busy",
    ]
    chart = hv.ladder_chart(ladder)
    assert isinstance(chart, alt.LayerChart)
    spec = chart.to_dict()
    assert spec["layer"][1]["encoding"]["y"]["sort"] == ["Llama 3.1 8B", "Llama 2 70B"]
    assert spec["layer"][1]["encoding"]["x"]["scale"]["type"] == "log"


def test_cost_and_break_even_tables_label_price_and_scenario():
    costs = _costs("h100-sxm", 2.0, 3500.0)
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
    assert hv.break_even_gt(break_even, scenario="Server")._tbl_data.height == 0


def test_floor_table_view_groups_by_model():
    floors = tpd.floor_table(_specs(), ["h100-sxm", "b200"], _models())
    assert floors.height == 2 * len(tpd.MLPERF_MODEL_IDS)
    data = hv.floor_gt(floors)._tbl_data
    h100_70b = data.filter(pl.col("Model") == "Llama 2 70B", pl.col("GPU") == "H100-SXM")
    assert h100_70b["Compute bound"][0] == pytest.approx(989.4e12 / 140e9)
    assert h100_70b["Memory bound, batch 1"][0] == pytest.approx(3.35e12 / 140e9)
    assert h100_70b["Precision"][0] == "FP16"


# ------------------------------------------------------------------ prose formatters and Numbers


def test_prose_formatters_write_numbers_as_the_prose_shows_them():
    assert hv.usd(1234.567) == "$1,234.57"
    assert hv.usd(0.04912, 3) == "$0.049"
    assert hv.factor(1.06357) == "1.064"
    assert hv.month(date(2025, 4, 1)) == "April 2025"
    assert hv.times(1234.56) == "1,234.6"
    assert hv.share(0.0549) == "5%"
    assert hv.share(4.318) == "432%"


def test_pct_is_a_magnitude_unless_signed():
    # The prose says "fall by 6%" and "rise 5%": the unsigned form drops the sign.
    assert hv.pct(-5.97) == "6%"
    assert hv.pct(4.6) == "5%"
    assert hv.pct(-5.97, signed=True) == "-6%"
    assert hv.pct(16.2, signed=True) == "+16%"


def test_count_is_singular_only_for_one():
    assert hv.count(1, "month") == "1 month"
    assert hv.count(0, "month") == "0 months"
    assert hv.count(2, "provider") == "2 providers"
    assert hv.count(1200, "result") == "1,200 results"


def test_and_join_lists_items_in_prose():
    assert hv.and_join([]) == ""
    assert hv.and_join(["v5.1"]) == "v5.1"
    assert hv.and_join(["B200", "H200"]) == "B200 and H200"
    assert hv.and_join(iter(["v4.0", "v4.1", "v5.1"])) == "v4.0, v4.1 and v5.1"
    assert hv.gpu_names(["h100-sxm", "b200"]) == ["H100-SXM", "B200"]


def test_numbers_keep_text_and_raw_value():
    n = hv.Numbers()
    n.add("n_rows", 11106, ",")
    n.add("peak", 7.3812, hv.usd)
    n.add("start", date(2023, 9, 1), "%Y-%m")
    n.add("n", 12)
    assert dict(n) == {"n_rows": "11,106", "peak": "$7.38", "start": "2023-09", "n": "12"}
    assert n.raw == {"n_rows": 11106, "peak": 7.3812, "start": date(2023, 9, 1), "n": 12}
    assert n["peak"] == "$7.38"
    assert "n_rows" in n and len(n) == 4
    with pytest.raises(KeyError, match="'n' is set twice"):
        n.add("n", 13)


def test_numbers_merge_refuses_a_key_set_twice():
    a, b, c = hv.Numbers(), hv.Numbers(), hv.Numbers()
    a.add("x", 1)
    b.add("y", 2.5, ".1f")
    c.add("x", 3)
    merged = hv.Numbers.merge(a, b)
    assert dict(merged) == {"x": "1", "y": "2.5"}
    assert merged.raw == {"x": 1, "y": 2.5}
    with pytest.raises(KeyError, match="'x' is set twice"):
        hv.Numbers.merge(a, b, c)


def test_one_row_names_what_is_missing():
    frame = pl.DataFrame({"gpu": ["h100", "b200"], "v": [1, 2]})
    assert hv.one_row(frame, "b200", pl.col("gpu") == "b200") == {"gpu": "b200", "v": 2}
    assert hv.one_row(frame, "any row")["gpu"] == "h100"
    with pytest.raises(LookupError, match="no row for the a100 price"):
        hv.one_row(frame, "the a100 price", pl.col("gpu") == "a100")
