"""Tests of analysis.methods.inference_cost on small hand-made frames with answers by hand."""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from analysis.methods import inference_cost as ic


def _runs() -> pl.DataFrame:
    rows = [
        # model, accelerator, isl, osl, framework, tokens/s per GPU, output tokens/s, user tok/s
        ("m", "h100", 1024, 1024, "a", 4000.0, 2000.0, 10.0),  # fastest, but below the bar
        ("m", "h100", 1024, 1024, "b", 3000.0, 1000.0, 30.0),  # the pick
        ("m", "h100", 1024, 1024, "c", 2000.0, 900.0, 60.0),
        ("m", "h100", 8192, 1024, "d", 9000.0, 5000.0, 90.0),  # another workload
        ("m", "b200", 1024, 1024, "e", 8000.0, 3600.0, 25.0),
    ]
    cols = [
        "benchmark_model",
        "accelerator",
        "isl_tokens",
        "osl_tokens",
        "framework",
        "tokens_per_s_per_gpu",
        "output_tokens_per_s_per_gpu",
        "median_tokens_per_s_per_user",
    ]
    frame = pl.DataFrame(rows, schema=cols, orient="row")
    return frame.with_columns(
        pl.lit("fp4").alias("precision"),
        pl.lit("none").alias("spec_decoding"),
        pl.lit(False).alias("disaggregated"),
        pl.lit(64).alias("concurrency"),
    )


def _tco() -> pl.DataFrame:
    rows = []
    for gpu, prices in {"h100": (1.0, 3.6, 2.0), "b200": (2.0, 7.2, 3.0)}.items():
        for ownership, usd in zip(ic.OWNERSHIPS, prices, strict=True):
            rows.append({"gpu": gpu, "ownership": ownership, "usd_per_gpu_hour": usd})
    return pl.DataFrame(rows).with_columns(pl.lit(False).alias("provisional"))


def test_select_configs_takes_the_fastest_run_meeting_the_bar():
    picked = ic.select_configs(_runs(), isl=1024, osl=1024, min_interactivity=20.0)
    h100 = picked.filter(pl.col("accelerator") == "h100").row(0, named=True)
    assert h100["framework"] == "b"
    assert (h100["n_configs"], h100["n_meeting"]) == (3, 2)
    assert picked.height == 2


def test_select_configs_names_a_missing_workload():
    with pytest.raises(LookupError, match="isl 2048 and osl 1024"):
        ic.select_configs(_runs(), isl=2048, osl=1024, min_interactivity=0)


def test_cost_comparison_prices_output_tokens_at_each_ownership_case():
    picked = ic.select_configs(_runs(), isl=1024, osl=1024, min_interactivity=20.0)
    mlperf = pl.DataFrame(
        {
            "benchmark_model": ["m"],
            "accelerator": ["h100"],
            "mlperf_accelerator": ["h100-sxm"],
            "mlperf_system": ["s"],
            "mlperf_tokens_per_s_per_gpu": [500.0],
        }
    )
    api = pl.DataFrame({"benchmark_model": ["m"], "api_median_usd_per_mtok": [1.0]})
    out = ic.cost_comparison(picked, mlperf, _tco(), api)
    h100 = out.filter(pl.col("accelerator") == "h100").row(0, named=True)
    # $3.60 an hour over 1,000 output tokens/s = 3.6 M tokens an hour: $1.00 per M.
    assert h100["imax_usd_per_mtok_neocloud"] == pytest.approx(1.0)
    assert h100["imax_usd_per_mtok_hyperscaler-owned"] == pytest.approx(1.0 / 3.6)
    # MLPerf's 500 tokens/s at the same $3.60: 1.8 M tokens an hour, $2.00 per M.
    assert h100["mlperf_usd_per_mtok_neocloud"] == pytest.approx(2.0)
    b200 = out.filter(pl.col("accelerator") == "b200").row(0, named=True)
    assert b200["imax_usd_per_mtok_neocloud"] == pytest.approx(7.2 / (3600 * 3600 / 1e6))
    assert b200["mlperf_tokens_per_s_per_gpu"] is None
    assert out["api_median_usd_per_mtok"].to_list() == [1.0, 1.0]


def test_attach_tco_falls_back_to_the_family_and_drops_unpriced():
    rows = pl.DataFrame({"accelerator": ["h100-sxm", "l40s"]})
    out = ic.attach_tco(rows, _tco())
    assert out["tco_gpu"].to_list() == ["h100"]


def test_tco_wide_names_a_missing_ownership():
    with pytest.raises(LookupError, match="3-year-rental"):
        ic.tco_wide(_tco().filter(pl.col("ownership") != "3-year-rental"))


def test_api_workload_prices_add_the_prompt_at_the_workloads_ratio():
    rows = [
        # provider, input, output
        ("p1", 0.10, 0.40),
        ("p2", 0.20, 0.60),
        ("p3", 0.30, 1.00),
    ]
    prices = pl.DataFrame(rows, schema=["provider", "input", "output"], orient="row").select(
        pl.lit("m-id").alias("model_id"),
        "provider",
        pl.lit(False).alias("first_party"),
        pl.lit("USD").alias("currency"),
        pl.lit("list").alias("price_kind"),
        pl.lit(date(2026, 3, 5)).alias("date"),
        pl.lit(None, dtype=pl.Date).alias("last_seen"),
        pl.col("input").alias("input_usd_per_mtok"),
        pl.col("output").alias("output_usd_per_mtok"),
    )
    out = ic.api_workload_prices(prices, {"m": "m-id"}, date(2026, 3, 1), isl=2048, osl=1024)
    row = out.row(0, named=True)
    # Per provider: output + 2 x input = 0.60, 1.00, 1.60.
    assert row["api_median_usd_per_mtok"] == pytest.approx(1.00)
    assert row["api_min_usd_per_mtok"] == pytest.approx(0.60)
    assert row["n_api_providers"] == 3


def test_mlperf_best_groups_by_accelerator_family():
    per_acc = pl.DataFrame(
        {
            "round": ["v6.0", "v6.0", "v6.0", "v5.1"],
            "scenario": ["Server", "Server", "Offline", "Server"],
            "base_model": ["m", "m", "m", "m"],
            "accelerator": ["h100-sxm", "h100-sxm", "h100-sxm", "h100-sxm"],
            "system": ["a", "b", "c", "d"],
            "tokens_per_s_per_accelerator": [10.0, 20.0, 99.0, 50.0],
        }
    )
    out = ic.mlperf_best(per_acc, round_="v6.0", scenario="Server", models=["m"])
    assert out.rows() == [("m", "h100", "h100-sxm", "b", 20.0)]


# InferenceMAX's raw artefact, by hand (sources README II.2.3):
# inferencemax-raw-mantile/2026-01-28_HEAD/reconcile/sources/inferencemax/raw/
# run_20321908209/agg_bmk.json, row 1: gb200, dynamo-trt, fp4, DeepSeek-R1-0528, isl 8192,
# osl 1024, conc 269, prefill 5 workers x tp 4 = num_prefill_gpu 20, decode 1 worker x tp 32 =
# num_decode_gpu 32, tput_per_gpu 4314.996754953565, output_tput_per_gpu 778.794573040406,
# input_tput_per_gpu 9972.920246014619. By hand: 9972.920246 x 20 + 778.794573 x 32 =
# 199,458.40 + 24,921.43 = 224,379.83 tokens/s, and / 52 GPUs = 4314.997 = tput_per_gpu: the
# total is over all 52 GPUs, the output figure over the 32 decode GPUs, the input over the 20
# prefill GPUs. Output per GPU of all 52: 24,921.426 / 52 = 479.258 tokens/s.
RAW_ROW = {
    "benchmark_model": "deepseek-r1",
    "accelerator": "gb200",
    "isl_tokens": 8192,
    "osl_tokens": 1024,
    "framework": "dynamo-trt",
    "precision": "fp4",
    "spec_decoding": "none",
    "disaggregated": True,
    "concurrency": 269,
    "prefill_gpus": 20,
    "decode_gpus": 32,
    "tokens_per_s_per_gpu": 4314.996754953565,
    "output_tokens_per_s_per_gpu": 778.794573040406,
    "input_tokens_per_s_per_gpu": 9972.920246014619,
    "median_tokens_per_s_per_user": 109.81418621083381,
}


def test_disaggregated_throughput_is_over_every_gpu_the_run_used():
    aggregated = {**RAW_ROW, "disaggregated": False, "prefill_gpus": None, "decode_gpus": None}
    out = ic.all_gpu_throughput(pl.DataFrame([RAW_ROW, aggregated]))
    disagg, agg = out.row(0, named=True), out.row(1, named=True)
    assert disagg["output_tokens_per_s_per_gpu"] == pytest.approx(24921.426 / 52, rel=1e-6)
    assert disagg["output_tokens_per_s_per_gpu"] == pytest.approx(479.258, abs=1e-3)
    assert disagg["input_tokens_per_s_per_gpu"] == pytest.approx(199458.40 / 52, rel=1e-6)
    # The restated parts add up to the source's own all-GPU total.
    total = disagg["output_tokens_per_s_per_gpu"] + disagg["input_tokens_per_s_per_gpu"]
    assert total == pytest.approx(disagg["tokens_per_s_per_gpu"], rel=1e-6)
    assert disagg["output_tokens_per_s_per_gpu_raw"] == 778.794573040406  # kept as given
    assert (disagg["all_gpus"], disagg["output_gpu_ratio"]) == (52, pytest.approx(52 / 32))
    # An aggregated run's figures are over all its GPUs already.
    assert agg["output_tokens_per_s_per_gpu"] == 778.794573040406 and agg["output_gpu_ratio"] == 1


def test_the_cost_of_a_disaggregated_run_pays_for_prefill_gpus_too():
    # GB200 at $2.75 per GPU-hour (InferenceX neocloud, sources README II.2.2): by hand,
    # 2.75 / (479.258 x 3600 / 1e6) = 2.75 / 1.725329 = $1.5939 per 1M output tokens, against
    # 2.75 / (778.795 x 3600 / 1e6) = $0.9808 on the decode GPUs alone.
    tco = pl.DataFrame(
        [
            {"gpu": "gb200", "ownership": o, "usd_per_gpu_hour": usd, "provisional": False}
            for o, usd in zip(ic.OWNERSHIPS, (2.21, 2.75, 3.30), strict=True)
        ]
    )
    configs = ic.select_configs(pl.DataFrame([RAW_ROW]), isl=8192, osl=1024, min_interactivity=20.0)
    empty_mlperf = pl.DataFrame(
        schema={
            "benchmark_model": pl.String,
            "accelerator": pl.String,
            "mlperf_accelerator": pl.String,
            "mlperf_system": pl.String,
            "mlperf_tokens_per_s_per_gpu": pl.Float64,
        }
    )
    api = pl.DataFrame(schema={"benchmark_model": pl.String})
    row = ic.cost_comparison(configs, empty_mlperf, tco, api).row(0, named=True)
    assert row["imax_usd_per_mtok_neocloud"] == pytest.approx(1.5939, abs=1e-4)
    assert row["imax_output_tokens_per_s_per_gpu_raw"] == 778.794573040406
    assert 2.75 / (row["imax_output_tokens_per_s_per_gpu_raw"] * 3600 / 1e6) == pytest.approx(
        0.9808, abs=1e-4
    )


def test_round_month_is_the_first_of_the_round_s_month_and_names_a_bad_round():
    mlperf = pl.DataFrame(
        {"round": ["v6.0", "v6.0", "v5.1", "v5.0", "v5.0"],
         "date": [date(2026, 3, 26), date(2026, 3, 26), date(2025, 9, 9),
                  date(2025, 4, 2), date(2025, 4, 3)]}
    )  # fmt: skip
    assert ic.round_month(mlperf, "v6.0") == date(2026, 3, 1)
    assert ic.round_month(mlperf, "v5.1") == date(2025, 9, 1)
    for bad in ("v4.1", "v5.0"):  # not held; two dates
        with pytest.raises(LookupError, match=repr(bad)):
            ic.round_month(mlperf, bad)
