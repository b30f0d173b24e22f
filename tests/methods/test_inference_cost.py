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
