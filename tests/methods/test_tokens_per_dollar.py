"""Tests of analysis.methods.tokens_per_dollar: the $/Mtok formula, accuracy-variant rule, price joins
and the physical floor, each against a hand-computed example."""

from __future__ import annotations

from datetime import date

import hardware_frames as frames
import polars as pl
import pytest

from analysis.methods import tokens_per_dollar as tpd


def _mlperf(rows: list[tuple]) -> pl.DataFrame:
    """rows: (round, date, system, platform, accelerator, count, benchmark_model, scenario,
    tokens_per_s)."""
    df = pl.DataFrame(
        rows,
        schema=[
            "round",
            "date",
            "system",
            "platform",
            "accelerator",
            "accelerator_count",
            "benchmark_model",
            "scenario",
            "tokens_per_s",
        ],
        orient="row",
    )
    return df.with_columns(pl.lit("NVIDIA").alias("submitter"), pl.lit("closed").alias("division"))


def _prices(rows: list[tuple]) -> pl.DataFrame:
    """rows: (gpu, provider, date, pricing, usd)."""
    return pl.DataFrame(
        rows, schema=["gpu", "provider", "date", "pricing", "usd_per_gpu_hour"], orient="row"
    ).with_columns(pl.lit("quote").alias("statistic"))


def test_usd_per_mtok_hand_computed():
    # 8 x H100 at 24,525 tokens/s, $2 per GPU-hour:
    # 24,525 / 8 = 3,065.625 tokens/s per GPU; x 3600 = 11,036,250 tokens = 11.03625 M per hour;
    # $2 / 11.03625 = $0.181221...
    per_gpu = 24_525 / 8
    assert per_gpu == 3065.625
    expected = 2.0 / 11.03625
    assert tpd.usd_per_mtok(2.0, per_gpu) == pytest.approx(expected, rel=1e-9)
    assert expected == pytest.approx(0.18122, abs=5e-6)
    frame = pl.DataFrame({"price": [2.0], "tps": [per_gpu]})
    got = frame.select(tpd.usd_per_mtok_expr("price", "tps")).item()
    assert got == pytest.approx(expected, rel=1e-9)


def test_accuracy_pairs_counted_once():
    d = date(2024, 8, 28)
    rows = [
        # identical pair: one row
        ("v4.1", d, "DGX H100", "x", "h100-sxm", 8, "llama2-70b-99", "Offline", 24_525.0),
        ("v4.1", d, "DGX H100", "x", "h100-sxm", 8, "llama2-70b-99.9", "Offline", 24_525.0),
        # different pair: the 99% row for the 99% target
        ("v4.1", d, "H200", "y", "h200", 8, "llama2-70b-99", "Offline", 34_000.0),
        ("v4.1", d, "H200", "y", "h200", 8, "llama2-70b-99.9", "Offline", 30_000.0),
        # only 99.9 submitted: it meets the 99% target too
        ("v4.1", d, "GH200", "z", "gh200", 1, "llama2-70b-99.9", "Offline", 4_000.0),
        # a benchmark with one target
        ("v4.1", d, "DGX H100", "x", "h100-sxm", 8, "mixtral-8x7b", "Offline", 52_000.0),
    ]
    out = tpd.mlperf_per_accelerator(_mlperf(rows)).sort("system", "base_model")
    assert out.height == 4
    by = {(r["system"], r["base_model"]): r for r in out.iter_rows(named=True)}
    assert by[("DGX H100", "llama2-70b")]["accuracy_pair_identical"]
    assert by[("DGX H100", "llama2-70b")]["tokens_per_s_per_accelerator"] == 3065.625
    assert by[("H200", "llama2-70b")]["tokens_per_s"] == 34_000.0
    assert not by[("H200", "llama2-70b")]["accuracy_pair_identical"]
    assert by[("GH200", "llama2-70b")]["accuracy"] == "99.9"
    strict = tpd.mlperf_per_accelerator(_mlperf(rows), accuracy="99.9")
    h200 = strict.filter(pl.col("accelerator") == "h200")
    assert h200["tokens_per_s"].to_list() == [30_000.0]


def test_one_name_two_folders_are_two_systems():
    # AMD, v4.1: the 1x and 8x MI300X systems share a name; the results folder separates them.
    d, name = date(2024, 8, 28), "Supermicro AS-8125GS-TNMR2"
    rows = [
        (
            "v4.1",
            d,
            name,
            "1xMI300X_2xEPYC-9374F",
            "mi300x",
            1,
            "llama2-70b-99",
            "Offline",
            3_062.7,
        ),
        (
            "v4.1",
            d,
            name,
            "8xMI300X_2xEPYC-9374F",
            "mi300x",
            8,
            "llama2-70b-99",
            "Offline",
            23_515.0,
        ),
    ]
    out = tpd.mlperf_per_accelerator(_mlperf(rows)).sort("accelerator_count")
    assert out["tokens_per_s"].to_list() == [3_062.7, 23_515.0]


def test_software_gains_same_system_across_rounds():
    v40, v41 = date(2024, 4, 11), date(2024, 8, 28)
    h100 = ("h100-sxm", 8, "llama2-70b-99.9", "Offline")
    rows = [
        ("v4.0", v40, "DGX H100", "DGX_X8_TRT_TRT", *h100, 21_805.8),
        # the same system, its name spaced differently and its results folder renamed
        ("v4.1", v41, "DGX  H100 ", "DGX_X8_TRT", *h100, 23_000.0),
        # another folder of the same system in the round (another software stack): best counts
        ("v4.1", v41, "DGX H100", "DGX_X8_TRT_vLLM", *h100, 24_524.9),
        # same name, half the accelerators: different hardware
        ("v4.1", v41, "DGX H100", "DGX_X4_TRT", "h100-sxm", 4, "llama2-70b-99.9", "Offline", 13e3),
        # another submitter's system of the same name
        ("v4.1", v41, "DGX H100", "DGX_X8_TRT", *h100, 25_000.0),
    ]
    frame = _mlperf(rows).with_columns(
        pl.when(pl.col("tokens_per_s") == 25_000.0)
        .then(pl.lit("Google"))
        .otherwise(pl.col("submitter"))
        .alias("submitter")
    )
    gains = tpd.software_gains(tpd.mlperf_per_accelerator(frame))
    assert gains.height == 1
    assert (gains["submitter"][0], gains["accelerator_count"][0]) == ("NVIDIA", 8)
    assert gains["ratio"][0] == pytest.approx(24_524.9 / 21_805.8)


def test_price_join_exact_then_family_then_earlier_month():
    prices = _prices(
        [
            ("h100", "index-co", date(2024, 6, 3), "on-demand", 3.0),  # family id, June
            ("h100-sxm", "lambda", date(2024, 3, 1), "on-demand", 4.0),  # exact id, March
            ("h100-sxm", "runpod", date(2024, 3, 9), "on-demand", 5.0),
        ]
    )
    rows = pl.DataFrame(
        {"accelerator": ["h100-sxm", "h100-sxm"], "date": [date(2024, 4, 11), date(2024, 8, 28)]}
    )
    out = tpd.attach_gpu_price(rows, prices, max_lag_months=3).sort("date")
    first, second = out.iter_rows(named=True)
    assert (first["usd_per_gpu_hour"], first["price_gpu"], first["price_month"]) == (
        4.5,
        "h100-sxm",
        date(2024, 3, 1),
    )
    assert first["price_n_providers"] == 2
    assert (second["usd_per_gpu_hour"], second["price_gpu"]) == (3.0, "h100")
    assert second["price_pricing"] == "on-demand"


def test_price_join_without_price_raises_naming_gpu_and_month():
    prices = _prices([("h100-sxm", "lambda", date(2024, 1, 1), "on-demand", 4.0)])
    rows = pl.DataFrame({"accelerator": ["mi300x"], "date": [date(2024, 8, 28)]})
    with pytest.raises(tpd.PriceNotFound, match=r"mi300x in 2024-08.*2024-05 \.\. 2024-08"):
        tpd.attach_gpu_price(rows, prices)
    # A price outside the window is not used either.
    late = pl.DataFrame({"accelerator": ["h100-sxm"], "date": [date(2024, 8, 28)]})
    with pytest.raises(tpd.PriceNotFound, match="h100-sxm in 2024-08"):
        tpd.attach_gpu_price(late, prices, max_lag_months=3)
    unmatched = tpd.unmatched_price_rows(pl.concat([rows, late]), prices)
    assert unmatched.height == 2
    assert (
        "searched gpu ids h100-sxm, h100"
        in unmatched.filter(pl.col("accelerator") == "h100-sxm")["reason"][0]
    )


def test_floor_formulas_hand_computed():
    # H100 SXM, FP16 989.4 TFLOP/s, 3.35 TB/s; 70B dense model.
    assert tpd.compute_bound_tokens_per_s(989.4, 70) == pytest.approx(989.4e12 / 140e9)  # 7067.1
    # FP16 weights = 140 GB; 3.35e12 / 140e9 = 23.93 steps/s; x batch 8 = 191.4 tokens/s
    assert tpd.memory_bound_tokens_per_s(3.35, 70, 2.0, 8) == pytest.approx(3.35e12 / 140e9 * 8)
    specs = pl.DataFrame(
        {
            "gpu": ["h100-sxm", "b200"],
            "fp16_tflop_per_s": [989.4, 2250.0],
            "fp8_tflop_per_s": [None, 4500.0],
            "memory_bandwidth_tb_per_s": [3.35, 8.0],
        }
    )
    full = tpd.physical_floor(specs, ["h100-sxm", "b200"], 70).sort("gpu")
    b200, h100 = full.iter_rows(named=True)
    assert (h100["precision"], b200["precision"]) == ("fp16", "fp8")
    assert h100["bound_tokens_per_s"] == pytest.approx(989.4e12 / 140e9)
    assert b200["bound_tokens_per_s"] == pytest.approx(4500e12 / 140e9)
    # crossover: batch at which the memory bound reaches the compute bound = 989.4 x 2 / (2 x 3.35)
    assert h100["crossover_batch"] == pytest.approx(989.4 / 3.35)
    small = tpd.physical_floor(specs, ["b200"], 70, batch=8).row(0, named=True)
    assert small["bound_tokens_per_s"] == pytest.approx(8e12 / 70e9 * 8)  # 1 byte/param at FP8
    # floor $/Mtok at $2/GPU-hour for the H100 compute bound
    assert tpd.usd_per_mtok(2.0, h100["bound_tokens_per_s"]) == pytest.approx(
        2.0 / (989.4e12 / 140e9 * 3600 / 1e6)
    )


def test_api_prices_in_month_and_break_even():
    tp = pl.DataFrame(
        {
            "model_id": ["llama-2-70b"] * 4,
            "provider": ["together", "deepinfra", "meta", "old"],
            "first_party": [False, False, True, False],
            "date": [date(2024, 1, 1), date(2024, 8, 10), date(2024, 1, 1), date(2023, 1, 1)],
            "last_seen": [date(2024, 12, 1), None, None, date(2024, 2, 1)],
            "output_usd_per_mtok": [0.9, 0.7, 0.1, 5.0],
            "currency": ["USD"] * 4,
            "price_kind": ["list"] * 4,
        }
    )
    api = tpd.api_prices_in_month(tp, ["llama-2-70b"], date(2024, 8, 28))
    assert sorted(api["provider"].to_list()) == ["deepinfra", "together"]
    models = pl.DataFrame(
        {
            "model_id": list(tpd.MLPERF_MODEL_IDS.values()),
            "parameters_b": [70.0, 405.0, 8.0, 46.7, 671.0],
            "active_parameters_b": [None, None, None, 12.9, 37.0],
        }
    )
    costs = pl.DataFrame(
        {
            "round": ["v4.1"],
            "date": [date(2024, 8, 28)],
            "base_model": ["llama2-70b"],
            "scenario": ["Offline"],
            "accelerator": ["h100-sxm"],
            "submitter": ["NVIDIA"],
            "system": ["DGX"],
            "tokens_per_s_per_accelerator": [3065.625],
            "usd_per_gpu_hour": [2.0],
            "price_gpu": ["h100-sxm"],
            "price_month": [date(2024, 8, 1)],
            "price_pricing": ["on-demand"],
            "hardware_usd_per_mtok": [2.0 / 11.03625],
        }
    )
    row = tpd.break_even_utilisation(costs, tp, models).row(0, named=True)
    assert row["api_median_usd_per_mtok"] == pytest.approx(0.8)
    assert row["break_even_utilisation"] == pytest.approx(2.0 / 11.03625 / 0.8)
    assert row["n_api_providers"] == 2


def test_api_prices_leave_out_rows_without_a_named_seller():
    tp = pl.DataFrame(
        {
            "model_id": ["llama-2-70b"] * 2,
            "provider": ["together", "unspecified"],
            "first_party": [False, False],
            "date": [date(2024, 8, 1)] * 2,
            "last_seen": [None, None],
            "output_usd_per_mtok": [0.9, 0.1],
            "currency": ["USD"] * 2,
            "price_kind": ["list"] * 2,
        }
    )
    api = tpd.api_prices_in_month(tp, ["llama-2-70b"], date(2024, 8, 28))
    assert api["provider"].to_list() == ["together"]


def test_cheapest_by_round_per_accelerator():
    costs = pl.DataFrame(
        {
            "round": ["v5.1"] * 3,
            "date": [date(2025, 9, 4)] * 3,
            "base_model": ["llama2-70b"] * 3,
            "scenario": ["Offline"] * 3,
            "accelerator": ["h100-sxm", "h100-sxm", "b200"],
            "submitter": ["a", "b", "c"],
            "system": ["x", "y", "z"],
            "tokens_per_s_per_accelerator": [3000.0, 3900.0, 12000.0],
            "usd_per_gpu_hour": [3.0, 3.0, 5.7],
            "price_gpu": ["h100-sxm", "h100-sxm", "b200"],
            "price_month": [date(2025, 9, 1)] * 3,
            "price_pricing": ["on-demand"] * 3,
            "hardware_usd_per_mtok": [0.278, 0.214, 0.132],
        }
    )
    assert tpd.cheapest_by_round(costs)["accelerator"].to_list() == ["b200"]
    per_gpu = tpd.cheapest_by_round(costs, by_accelerator=True).sort("accelerator")
    assert per_gpu["submitter"].to_list() == ["c", "b"]


# ---------------------------------------------------------------- the floor-to-API ladder


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
    costs = frames.costs("h100-sxm", 2.0, 3500.0)
    prices = _token_prices({"together": 0.9, "deepinfra": 0.7, "unspecified": 0.1})
    row = tpd.cost_ladder(costs, frames.specs(), frames.models(), prices).row(0, named=True)
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
    costs = frames.costs("b200", 6.0, 12_000.0)
    row = tpd.cost_ladder(costs, frames.specs(), frames.models(), _token_prices({"a": 2.0})).row(
        0, named=True
    )
    assert row["precision"] == "fp8"
    assert row["bound_tokens_per_s"] == pytest.approx(4500e12 / 140e9)


def test_ladder_long_has_one_row_per_known_rung():
    ladder = pl.DataFrame(
        {
            "model": ["Llama 2 70B", "Llama 3.1 8B"],
            "accelerator": ["b200", "b200"],
            "round": ["v5.1", "v5.1"],
            "floor_usd_per_mtok": [0.05, 0.006],
            "hardware_usd_per_mtok": [0.12, 0.09],
            "api_median_usd_per_mtok": [2.03, None],
        }
    )
    rungs = {
        "floor_usd_per_mtok": "Floor",
        "hardware_usd_per_mtok": "Hardware",
        "api_median_usd_per_mtok": "API",
    }
    long = tpd.ladder_long(ladder, rungs)
    assert long.columns == ["model", "accelerator", "round", "rung", "usd_per_mtok"]
    # Column by column, each model in the ladder's order; the 8B has no API price.
    assert long.rows() == [
        ("Llama 2 70B", "b200", "v5.1", "Floor", 0.05),
        ("Llama 3.1 8B", "b200", "v5.1", "Floor", 0.006),
        ("Llama 2 70B", "b200", "v5.1", "Hardware", 0.12),
        ("Llama 3.1 8B", "b200", "v5.1", "Hardware", 0.09),
        ("Llama 2 70B", "b200", "v5.1", "API", 2.03),
    ]


def test_top_accelerators_of_one_scenario_by_number_of_results():
    summary = pl.DataFrame(
        {
            "accelerator": ["h100-sxm", "h100-sxm", "b200", "l40s", "a100", "mi300x"],
            "scenario": ["Offline", "Offline", "Offline", "Server", "Offline", "Offline"],
            "n_systems": [10, 5, 3, 50, 3, 1],
        }
    )
    # h100-sxm has 15 Offline results; b200 and a100 tie at 3 (a100 first by id); l40s is Server.
    top = tpd.top_accelerators(summary, scenario="Offline", top=2)
    assert top["accelerator"].to_list() == ["h100-sxm", "h100-sxm", "a100"]
    assert set(top["scenario"].to_list()) == {"Offline"}


# ---------------------------------------------------------------- one submitter, round on round


def _rounds() -> pl.DataFrame:
    rows = [
        # round, submitter, system, accelerator, base model, scenario, tokens/s per accelerator
        ("v5.1", "CW", "old", "gb300", "r1", "Offline", 100.0),
        ("v5.1", "Other", "o", "gb300", "r1", "Offline", 120.0),  # the best v5.1 result
        ("v5.1", "Other", "o", "gb200", "r1", "Server", 50.0),
        ("v6.0", "CW", "new", "gb300", "r1", "Offline", 240.0),
        ("v6.0", "CW", "new2", "gb300", "r1", "Offline", 180.0),
        ("v6.0", "CW", "new", "gb200", "r1", "Server", 75.0),
        ("v6.0", "CW", "new", "gb300", "oss", "Offline", 500.0),  # not in v5.1
        ("v6.0", "Other", "x", "gb300", "r1", "Offline", 999.0),  # not the submitter
    ]
    cols = ["round", "submitter", "system", "accelerator", "base_model", "scenario"]
    return pl.DataFrame(rows, schema=[*cols, "tokens_per_s_per_accelerator"], orient="row")


def test_submitter_gain_sets_the_best_result_against_the_previous_round():
    gain = tpd.submitter_gain(_rounds(), submitter="CW", to_round="v6.0", from_round="v5.1")
    rows = {(r["accelerator"], r["scenario"]): r for r in gain.iter_rows(named=True)}
    assert set(rows) == {("gb300", "Offline"), ("gb200", "Server")}  # oss has no v5.1 result
    gb300 = rows[("gb300", "Offline")]
    assert gb300["ratio"] == pytest.approx(240 / 120)
    assert gb300["own_ratio"] == pytest.approx(240 / 100)
    gb200 = rows[("gb200", "Server")]
    assert gb200["ratio"] == pytest.approx(75 / 50)
    assert gb200["own_ratio"] is None


@pytest.mark.parametrize(
    ("accelerator", "vendor"),
    [("mi355x", "AMD"), ("gaudi2", "Intel"), ("arc-pro-b60", "Intel"), ("h100-sxm", "NVIDIA")],
)
def test_accelerator_vendor(accelerator, vendor):
    assert tpd.accelerator_vendor(accelerator) == vendor


def test_vendors_by_submitter_counts_vendors_per_round():
    rows = pl.DataFrame(
        {
            "round": ["v6.0", "v6.0", "v6.0", "v6.0"],
            "date": [date(2026, 3, 26)] * 4,
            "submitter": ["Cisco", "Cisco", "Cisco", "Solo"],
            "system": ["a", "b", "b", "c"],
            "accelerator": ["b300", "mi350x", "mi350x", "h200"],
        }
    )
    out = tpd.vendors_by_submitter(rows)
    cisco = out.filter(pl.col("submitter") == "Cisco").row(0, named=True)
    assert (cisco["n_systems"], cisco["vendors"], cisco["n_vendors"]) == (2, ["AMD", "NVIDIA"], 2)
    assert out.filter(pl.col("submitter") == "Solo")["n_vendors"][0] == 1


def test_defensible_prices_name_each_variant_and_the_tco_costs():
    # One GPU in March 2026: a direct listing at $2 (provider a), a restated reconstruction at
    # $4 (provider b), InferenceX's costs 1.0 / 1.5 / 3.0. Medians by hand: direct $2 (1
    # provider); all rows median(2, 4) = $3 (2 providers). At 1000 tokens/s per GPU a GPU-hour
    # makes 3.6M tokens: $2 -> 0.5556, $3 -> 0.8333, $1 -> 0.2778 per 1M tokens.
    prices = pl.DataFrame(
        [
            {
                "gpu": "h100",
                "provider": p,
                "pricing": "on-demand",
                "date": date(2026, 3, 1),
                "statistic": s,
                "usd_per_gpu_hour": usd,
                "evidence_class": c,
            }
            for p, s, usd, c in (
                ("a", "quote", 2.0, "observed-listing"),
                ("b", "median-restated", 4.0, "restated-reconstruction"),
            )
        ]
    )
    tco = pl.DataFrame(
        {
            "gpu": ["h100"] * 3,
            "ownership": ["hyperscaler-owned", "neocloud", "3-year-rental"],
            "usd_per_gpu_hour": [1.0, 1.5, 3.0],
        }
    )
    found = tpd.defensible_prices(prices, tco, "h100", date(2026, 3, 20))
    by_name = {r["price"]: r for r in found.iter_rows(named=True)}
    assert by_name["on-demand median (direct)"]["usd_per_gpu_hour"] == 2.0
    assert by_name["on-demand median (direct)"]["evidence"] == "observed listing"
    assert by_name["on-demand median (all)"]["usd_per_gpu_hour"] == 3.0
    assert by_name["on-demand median (all)"]["n_providers"] == 2
    assert by_name["InferenceX neocloud"]["usd_per_gpu_hour"] == 1.5
    costs = tpd.cost_range(found, 1000.0)
    assert costs["usd_per_mtok"].min() == pytest.approx(1 / 3.6)
    assert costs["usd_per_mtok"].max() == pytest.approx(3 / 3.6)


def test_in_scenario_keeps_the_rows_of_one_scenario():
    frame = pl.DataFrame({"scenario": ["Offline", "Server", "Offline"], "x": [1, 2, 3]})
    assert tpd.in_scenario(frame, "Offline")["x"].to_list() == [1, 3]
    assert tpd.in_scenario(frame, "Interactive").height == 0
