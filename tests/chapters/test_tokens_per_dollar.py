"""Tests of analysis.chapters.tokens_per_dollar: the section functions on small hand-made frames (which
row each quote comes from, and how the page prints it), and the whole chapter on the released data
(every inline expression of the page names a quote, the values equal what
analysis.methods.tokens_per_dollar returns when called directly, the MLPerf headline cost is the
registry's, and the verdicts the prose states in words still hold)."""

from __future__ import annotations

import re
from datetime import date

import polars as pl
import pytest

from analysis.chapters import tokens_per_dollar as tc
from analysis.data import release as data
from analysis.data.paths import ROOT
from analysis.figures.hardware import and_join
from analysis.methods import inference_cost, prices, training_scale
from analysis.methods import tokens_per_dollar as tpd
from analysis.methods.claims import Evidence
from analysis.report import estimates, results
from analysis.report.names import gpu_name
from analysis.report.quote import Estimate, Quote


def gpus(*ids: str) -> str:
    """GPU ids as the prose names them (the release's gpu_specs names, else the id in capitals)."""
    return and_join([gpu_name(i) for i in ids])


V40, V51 = date(2024, 3, 27), date(2025, 9, 4)


def _texts(quotes: dict[str, Quote]) -> dict[str, str]:
    return {name: quote.text for name, quote in quotes.items()}


# ------------------------------------------------------------------ hand-made frames


def _per_acc() -> pl.DataFrame:
    rows = [
        # round, date, accelerator, base model, scenario, tokens/s per accelerator, pair identical
        ("v4.0", V40, "h100-sxm", "llama2-70b", "Offline", 3000.0, True),
        ("v4.0", V40, "h100-sxm", "llama2-70b", "Offline", 2800.0, False),
        ("v5.1", V51, "h100-sxm", "llama2-70b", "Offline", 3900.0, True),
        ("v5.1", V51, "b200", "llama2-70b", "Offline", 12000.0, False),
        ("v5.1", V51, "gb200", "llama2-70b", "Server", 20000.0, False),
        ("v5.1", V51, "l40s", "llama3.1-8b", "Offline", 50000.0, True),
    ]
    cols = ["round", "date", "accelerator", "base_model", "scenario"]
    cols += ["tokens_per_s_per_accelerator", "accuracy_pair_identical"]
    return pl.DataFrame(rows, schema=cols, orient="row")


def test_throughput_quotes_follow_the_h100_and_name_the_fastest():
    per_acc = _per_acc()
    t = _texts(tc.throughput_quotes(per_acc, tpd.throughput_summary(per_acc), "2026-11-30"))
    assert (t["n_results"], t["n_accelerators"], t["n_identical_pairs"]) == ("6", "4", "3")
    assert (t["rounds"], t["latest_round"], t["version"]) == ("v4.0 and v5.1", "v5.1", "2026-11-30")
    # The H100's best result per round: 3,000 in v4.0 (not 2,800), 3,900 in v5.1: 1.30 times.
    assert (t["h100_first_tokens"], t["h100_first_round"]) == ("3,000", "v4.0")
    assert (t["h100_last_tokens"], t["h100_last_round"]) == ("3,900", "v5.1")
    assert t["h100_gain"] == "1.30"
    # The fastest Offline Llama 2 70B result in v5.1: GB200 ran Server only, L40S another model.
    assert (t["best_accelerator"], t["best_tokens"]) == (gpus("b200"), "12,000")


def _costs(rows: list[tuple]) -> pl.DataFrame:
    """(round, date, accelerator, tokens/s, $ per GPU-hour) -> a `mlperf_usd_per_mtok` frame."""
    cols = ["round", "date", "accelerator", "tokens_per_s_per_accelerator", "usd_per_gpu_hour"]
    frame = pl.DataFrame(rows, schema=cols, orient="row")
    return frame.with_columns(
        pl.lit("llama2-70b").alias("base_model"),
        pl.lit("Offline").alias("scenario"),
        pl.lit("NVIDIA").alias("submitter"),
        pl.format("sys-{}", pl.col("accelerator")).alias("system"),
        pl.col("accelerator").alias("price_gpu"),
        pl.col("date").dt.truncate("1mo").alias("price_month"),
        pl.lit("on-demand").alias("price_pricing"),
        tpd.usd_per_mtok_expr("usd_per_gpu_hour", "tokens_per_s_per_accelerator").alias(
            "hardware_usd_per_mtok"
        ),
    )


def _latest(usd: float) -> Estimate:
    return Estimate(usd, "usd", estimate_id="mlperf-llama2-70b-cost")


def test_cost_quotes_cheapest_per_round_and_the_h100s_own():
    costs = _costs(
        [
            # $4.78/h at 2,786 tokens/s: 4.78 / (2786 x 3600 / 1e6) = $0.4766 per M tokens
            ("v4.0", V40, "h100-sxm", 2786.0, 4.78),
            ("v5.1", V51, "h100-sxm", 3902.0, 3.03),  # $0.2157
            ("v5.1", V51, "b200", 13000.0, 5.75),  # $0.1229: the cheapest in v5.1
        ]
    )
    unmatched = pl.DataFrame({"accelerator": ["gaudi2", "b200", "gb200", "gaudi2"]})
    latest = _latest(5.75 / (13000 * 3600 / 1e6))
    q = tc.cost_quotes(costs, unmatched, latest)
    t = _texts(q)
    assert (t["pricing"], t["max_lag"], t["n_priced"]) == ("on-demand", "3", "3")
    assert (t["never_priced"], t["sometimes_priced"]) == (gpus("gaudi2", "gb200"), gpus("b200"))
    assert (t["llama_cost_first_usd"], t["llama_cost_first_accelerator"]) == (
        "$0.48",
        gpus("h100-sxm"),
    )
    assert q["llama_cost_last_usd"] is latest
    assert (t["llama_cost_last_usd"], t["llama_cost_last_accelerator"]) == ("$0.12", gpus("b200"))
    assert t["llama_cost_last_round"] == "v5.1"
    assert q["llama_cost_fall"].value == pytest.approx((4.78 / 2786) / (5.75 / 13000))
    assert t["llama_cost_fall"] == "3.88"
    assert (t["h100_cost_first_usd"], t["h100_cost_last_usd"]) == ("$0.48", "$0.22")
    assert t["h100_cost_last_gpu_hour_usd"] == "$3.03"


def test_cost_quotes_need_a_priced_h100_result():
    costs = _costs([("v5.1", V51, "b200", 13000.0, 5.75)])
    with pytest.raises(LookupError, match="priced h100-sxm result"):
        tc.cost_quotes(costs, pl.DataFrame({"accelerator": ["gaudi2"]}), _latest(0.12))


def test_price_coverage_splits_never_and_sometimes_priced():
    costs = pl.DataFrame({"accelerator": ["h200", "b200"]})
    unmatched = pl.DataFrame({"accelerator": ["mi300x", "h200", "gaudi2", "h200"]})
    assert tc.price_coverage(costs, unmatched) == (["gaudi2", "mi300x"], ["h200"])


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


def test_floor_quotes_h100_bounds_and_share_reached():
    floors = tpd.floor_table(_specs(), ["h100-sxm", "b200"], _models())
    # Compute bound: 989.4e12 / (2 x 70e9) = 7,067 tokens/s; 3,902 of it is 55%.
    q = tc.floor_quotes(floors, 3902.0)
    t = _texts(q)
    assert t["fp16_gpus"] == gpus("h100-sxm")  # the B200 has an FP8 rate
    assert (t["h100_floor_precision"], t["h100_floor_compute"]) == ("FP16", "7,067")
    assert t["h100_floor_memory"] == "23.9"  # 3.35e12 / (2 bytes x 70e9) = 23.93
    assert q["h100_floor_compute"].value == pytest.approx(989.4e12 / 140e9)
    assert t["h100_share_of_bound"] == "55%"
    assert (t["mixtral_active_b"], t["deepseek_active_b"]) == ("12.9", "37.0")


def _ladder() -> pl.DataFrame:
    frame = pl.DataFrame(
        {
            "base_model": ["llama3.1-8b", "llama2-70b", "llama3.1-405b"],
            "round": ["v5.1"] * 3,
            "accelerator": ["b200", "b200", "gb200"],
            "active_parameters_b": [8.0, 70.0, 405.0],
            "floor_usd_per_mtok": [0.0056, 0.0494, 0.2855],
            "hardware_usd_per_mtok": [0.0105, 0.1229, 7.65],
            "api_min_usd_per_mtok": [0.02, 0.8, None],
            "api_median_usd_per_mtok": [0.069, 2.03, 3.5],
        }
    )
    return frame.with_columns(*tpd.ladder_ratio_exprs())


def test_ladder_quotes_rungs_ratios_and_ranges():
    t = _texts(tc.ladder_quotes(_ladder()))
    assert (t["ladder_round"], t["ladder_n_models"], t["llama_rung_accelerator"]) == (
        "v5.1",
        "3",
        gpus("b200"),
    )
    assert (t["llama_rung_floor_usd"], t["llama_rung_hardware_usd"]) == ("$0.049", "$0.12")
    assert t["llama_rung_api_usd"] == "$2.03"
    # 0.1229 / 0.0494 = 2.488; 2.03 / 0.1229 = 16.52; 2.03 / 0.0494 = 41.09
    assert t["llama_rung_hardware_over_floor"] == "2.49"
    assert t["llama_rung_api_over_hardware"] == "16.5"
    assert t["llama_rung_api_over_floor"] == "41.1"
    # Hardware over floor: 1.875 (8B), 2.488, 26.80 (405B); API over floor: 12.26 (405B) to 41.09.
    assert t["hardware_over_floor_range"] == "1.88 to 26.8"
    assert t["api_over_floor_range"] == "12.3 to 41.1"
    assert (t["big_rung_hardware_usd"], t["big_rung_api_usd"]) == ("$7.65", "$3.50")


def test_ladder_order_puts_the_fewest_active_parameters_on_top():
    ladder = pl.DataFrame(
        {"base_model": ["llama3.1-405b", "llama3.1-8b", "llama2-70b"],
         "active_parameters_b": [405.0, 8.0, 70.0]}
    )  # fmt: skip
    assert tc.ladder_order(ladder) == ["Llama 3.1 8B", "Llama 2 70B", "Llama 3.1 405B"]


def test_cost_points_are_one_mark_per_measure_in_rows_cost_order_lists():
    costs = pl.DataFrame(
        {"benchmark_model": ["gpt-oss-120b", "gpt-oss-120b", "deepseek-r1"],
         "accelerator": ["mi355x", "b200", "b200"],
         "imax_usd_per_mtok_neocloud": [0.05, 0.02, 0.30],
         "mlperf_usd_per_mtok_neocloud": [None, 0.01, 0.20],
         "api_min_usd_per_mtok": [0.40, 0.40, 2.0],
         "api_median_usd_per_mtok": [0.60, 0.60, 3.0]}
    )  # fmt: skip
    points = tc.cost_points(costs)
    order = tc.cost_order(costs)
    assert order == [
        "DeepSeek-R1: API", "DeepSeek-R1 on B200",
        "gpt-oss-120b: API", "gpt-oss-120b on B200", "gpt-oss-120b on MI355X",
    ]  # fmt: skip
    assert set(points["row"]) == set(order)  # every mark has its row in the figure
    # 3 InferenceMAX costs, 2 MLPerf costs (the MI355X has none), 2 API prices per model.
    assert points.height == 3 + 2 + 2 * 2
    b200 = points.filter(pl.col("row") == "gpt-oss-120b on B200")
    assert dict(zip(b200["measure"], b200["usd_per_mtok"], strict=True)) == {
        "InferenceMAX at InferenceX price": 0.02,
        "MLPerf at InferenceX price": 0.01,
    }
    api = points.filter(pl.col("row") == "DeepSeek-R1: API")
    assert sorted(api["usd_per_mtok"]) == [2.0, 3.0]


def test_claim_findings_are_the_evidence_texts_in_the_evidence_order():
    found = {
        "b": Evidence("b", None, "not in the data", "s", testable=False),
        "a": Evidence("a", 2.0, "twice", "s"),
    }
    assert tc.claim_findings(found) == {"b": "not in the data", "a": "twice"}


def test_ladder_rungs_name_models_and_rungs_in_the_figures_order():
    rungs = tc.ladder_rungs(_ladder())
    assert rungs.columns == ["model", "accelerator", "round", "rung", "usd_per_mtok"]
    # Four rungs of each model, less the 405B's missing cheapest API price.
    assert rungs.height == 3 * 4 - 1
    assert rungs.filter(pl.col("model") == "Llama 3.1 405B")["rung"].to_list() == [
        "Physical floor (compute bound)",
        "MLPerf on rented GPU, 100% busy",
        "API list price, median",
    ]


def test_break_even_quotes_take_the_latest_round_offline():
    break_even = pl.DataFrame(
        {
            "round": ["v4.0", "v5.1", "v5.1", "v5.1", "v5.1"],
            "scenario": ["Offline", "Offline", "Server", "Offline", "Offline"],
            "base_model": [
                "llama2-70b",
                "llama2-70b",
                "llama2-70b",
                "llama3.1-8b",
                "llama3.1-405b",
            ],
            "break_even_utilisation": [0.5, 0.0605, 0.9, 0.48, 2.18],
            "break_even_utilisation_at_min_price": [0.9, 0.1536, 0.95, 4.318, 25.5],
            "api_min_usd_per_mtok": [0.7, 0.8, 0.8, 0.0243, 0.3],
        }
    )
    t = _texts(tc.break_even_quotes(break_even, "v5.1"))
    assert (t["be_llama"], t["be_llama_at_min_price"]) == ("6%", "15%")
    assert (t["be_small"], t["be_small_at_min_price"], t["be_small_api_min_usd"]) == (
        "48%",
        "432%",
        "$0.024",
    )
    assert t["be_big"] == "218%"
    with pytest.raises(LookupError, match=r"v4\.0 break-even of llama3\.1-8b"):
        tc.break_even_quotes(break_even, "v4.0")


# ------------------------------------------------------------------ the released data


@pytest.fixture(scope="module")
def tables() -> dict[str, pl.DataFrame]:
    version = data.current_version()
    names = [
        "mlperf_results",
        "gpu_hour_prices",
        "gpu_specs",
        "token_prices",
        "models",
        "claims",
        "inference_benchmarks",
        "tco_assumptions",
        "mlperf_training_results",
        "mlperf_training_systems",
    ]
    # What the analyses read: the release less the rows an anomaly rule flags (prices.clean).
    return {"version": version, **{n: prices.clean(data.load(n, version))[0] for n in names}}


@pytest.fixture(scope="module")
def chapter() -> tc.TokensPerDollar:
    return tc.compute()


def test_compute_is_cached_per_version(chapter, tables):
    assert tc.compute() is chapter
    assert tc.compute(tables["version"]) is chapter
    assert chapter.q["version"].text == tables["version"]


def test_quotes_equal_what_tokens_per_dollar_returns(chapter, tables):
    mlperf, prices = tables["mlperf_results"], tables["gpu_hour_prices"]
    specs, models, token_prices = tables["gpu_specs"], tables["models"], tables["token_prices"]
    q = chapter.q
    per_acc = tpd.mlperf_per_accelerator(mlperf)
    costs = tpd.mlperf_usd_per_mtok(per_acc, prices, pricing="on-demand", max_lag_months=3)
    assert (q["n_results"].value, q["n_priced"].value) == (per_acc.height, costs.height)
    rounds = per_acc.sort("date")["round"].unique(maintain_order=True).to_list()
    assert q["rounds"].text == ", ".join(rounds[:-1]) + " and " + rounds[-1]

    # The headline cost is the registry's, and it is the cheapest latest-round Offline
    # Llama 2 70B result priced here directly.
    latest = estimates.estimate("mlperf-llama2-70b-cost", tables["version"])
    assert q["llama_cost_last_usd"] == latest
    offline = tpd.cheapest_by_round(costs).filter(
        pl.col("base_model") == "llama2-70b", pl.col("scenario") == "Offline"
    )
    assert latest.value == pytest.approx(offline.sort("date")["hardware_usd_per_mtok"][-1])

    floors = tpd.floor_table(specs, ["h100-sxm", "h200", "b200"], models)
    h100_floor = floors.filter(pl.col("base_model") == "llama2-70b", pl.col("gpu") == "h100-sxm")
    best_h100 = (
        tpd.throughput_summary(per_acc)
        .filter(
            pl.col("base_model") == "llama2-70b",
            pl.col("scenario") == "Offline",
            pl.col("accelerator") == "h100-sxm",
        )
        .sort("date")["best_tokens_per_s_per_acc"][-1]
    )
    share = best_h100 / h100_floor["compute_bound_tokens_per_s"][0]
    assert q["h100_share_of_bound"].value == pytest.approx(share)

    ladder = tpd.cost_ladder(costs, specs, models, token_prices)
    llama = ladder.filter(pl.col("base_model") == "llama2-70b").row(0, named=True)
    assert q["llama_rung_api_over_floor"].value == pytest.approx(llama["api_over_floor"])
    assert q["api_over_floor_range"].value[1] == pytest.approx(ladder["api_over_floor"].max())

    be = tpd.break_even_utilisation(costs, token_prices, models).filter(
        pl.col("scenario") == "Offline", pl.col("round") == q["latest_round"].value
    )
    small = be.filter(pl.col("base_model") == "llama3.1-8b").row(0, named=True)
    assert q["be_small"].value == pytest.approx(small["break_even_utilisation"])


def test_the_prose_verdicts_hold_on_the_released_data(chapter, tables):
    """The prose states some findings in words, not numbers; each must still be true."""
    q = {name: quote.value for name, quote in chapter.q.items()}
    # "... times the throughput from the same chip"; "... times less"; the H100's cost "fell".
    assert q["h100_gain"] > 1 and q["llama_cost_fall"] > 1
    assert q["h100_cost_last_usd"] < q["h100_cost_first_usd"]
    # "Llama 3.1 405B breaks the ladder" only when its MLPerf cost is above the median API price.
    above = q["big_rung_hardware_usd"] > q["big_rung_api_usd"]
    assert q["big_rung_verdict"].startswith("breaks" if above else "stays")
    # "at the cheapest price ... no on-demand GPU pays for itself"; the 405B share is "above 100%".
    # ... or the words that say otherwise, chosen by the same comparison.
    assert q["be_small_min_reading"].startswith("no " if q["be_small_at_min_price"] > 1 else "an ")
    assert q["be_big_reading"].startswith("above" if q["be_big"] > 1 else "below")
    # v6.0: "on the same chips, the gain is close to a doubling" (the range meets 2x +- 10%).
    assert q["v6_gain_range"][0] <= 2.2 and q["v6_gain_range"][1] >= 1.8
    # v6.0: "Read as a generation step, it is smaller" than the round-on-round gain.
    assert q["v6_gen_range"][1] < q["v6_gain"]
    # InferenceMAX: "every accelerator run has a configuration meeting" the bar; the API price
    # is a multiple of the cheapest hardware cost; the stricter bar makes tokens dearer.
    work = tables["inference_benchmarks"].filter(
        pl.col("isl_tokens") == tc.WORKLOAD_ISL, pl.col("osl_tokens") == tc.WORKLOAD_OSL
    )
    assert q["imax_n_chosen"] == work.select("benchmark_model", "accelerator").unique().height
    assert q["oss_api_min_over_imax"] > 1 and q["r1_api_min_over_imax"] > 1
    assert q["oss_strict_over"] >= 1 and q["r1_strict_over"] >= 1
    # "both on the B200 ... renting by the hour on demand is the dearest way to hold a GPU".
    assert q["oss_od_accelerator"] == q["r1_od_accelerator"] and q["oss_od_over_tco"] > 1
    # Training: "close to the halving of perfect scaling"; the pooled slope is "flatter".
    assert q["train_slope_ci"][0] < -0.8 and q["train_doubling_share"] < 0.6
    assert q["train_pooled_slope"] > q["train_slope"]
    # Cisco: "Cisco was not the first" to submit systems of several vendors in one round.
    assert q["cisco_n_earlier"] > 0
    # "the fastest accelerator on it" in the latest round is the one quoted.
    assert q["best_tokens"] >= q["h100_last_tokens"]


def test_the_page_prints_quotes_in_the_house_formats(chapter):
    q = chapter.q
    # Below $1, two significant figures; a multiple "times", three significant figures.
    assert re.fullmatch(r"\$0\.\d\d", q["llama_cost_first_usd"].text)
    assert re.fullmatch(r"\$0\.0\d\d", q["llama_rung_floor_usd"].text)
    assert re.fullmatch(r"\d\.\d\d", q["h100_gain"].text)
    assert q["h100_share_of_bound"].text.endswith("%")
    assert q["max_lag"].text == str(tpd.MAX_LAG_MONTHS)


# ------------------------------------------------------------------ the digests' claims


def _coreweave_pairs(mlperf: pl.DataFrame) -> list[float]:
    """CoreWeave v6.0 against the best v5.1 result, same accelerator, benchmark (accuracy
    suffix dropped, 99% row where both exist) and scenario, closed division: from the rows."""
    closed = mlperf.filter(pl.col("division") == "closed").with_columns(
        pl.col("benchmark_model").str.replace(r"-99(\.9)?$", "").alias("base"),
        (pl.col("tokens_per_s") / pl.col("accelerator_count")).alias("per_acc"),
    )
    best: dict[tuple, float] = {}
    for r in closed.filter(pl.col("round") == "v5.1").iter_rows(named=True):
        k = (r["accelerator"], r["base"], r["scenario"])
        best[k] = max(best.get(k, 0.0), r["per_acc"])
    mine: dict[tuple, float] = {}
    for r in closed.filter(pl.col("round") == "v6.0", pl.col("submitter") == "CoreWeave").iter_rows(
        named=True
    ):
        k = (r["accelerator"], r["base"], r["scenario"])
        mine[k] = max(mine.get(k, 0.0), r["per_acc"])
    return [mine[k] / best[k] for k in sorted(mine) if k in best]


def test_claim_evidence_gives_exactly_the_chapters_claims(chapter, tables):
    evidence = tc.claim_evidence()
    assert set(evidence) == {
        "coreweave-mlperf-v6.0-gain",
        "tpu-v7-perf-per-dollar",
        "mlperf-training-v61-rl-gpus",
        "mlperf-training-v61-rl-params",
        "cisco-first-multivendor-mlperf",
    }
    claims = tables["claims"]
    for cid, e in evidence.items():
        assert e.claim_id == cid
        assert e.section.startswith("chapters/tokens-per-dollar.qmd#sec-tokens-per-dollar-")
        assert e.section.split("#")[1] in (ROOT / "chapters" / "tokens-per-dollar.qmd").read_text()
        assert claims.filter(pl.col("claim_id") == cid).height == 1
    for cid in (
        "tpu-v7-perf-per-dollar",
        "mlperf-training-v61-rl-gpus",
        "cisco-first-multivendor-mlperf",
    ):
        assert not evidence[cid].testable and evidence[cid].value is None


def _generation_pairs(mlperf: pl.DataFrame) -> list[float]:
    """CoreWeave's v6.0 GB200/GB300 results over the best v6.0 Hopper result (H100, H200, GH200)
    on the same benchmark and scenario, closed division, per accelerator: from the rows."""
    closed = mlperf.filter(pl.col("division") == "closed", pl.col("round") == "v6.0").with_columns(
        pl.col("benchmark_model").str.replace(r"-99(\.9)?$", "").alias("base"),
        (pl.col("tokens_per_s") / pl.col("accelerator_count")).alias("per_acc"),
    )
    hopper: dict[tuple, float] = {}
    for r in closed.filter(pl.col("accelerator").str.contains("^(h100|h200|gh200)")).iter_rows(
        named=True
    ):
        k = (r["base"], r["scenario"])
        hopper[k] = max(hopper.get(k, 0.0), r["per_acc"])
    mine: dict[tuple, float] = {}
    cw = closed.filter(
        pl.col("submitter") == "CoreWeave", pl.col("accelerator").is_in(["gb200", "gb300"])
    )
    for r in cw.iter_rows(named=True):
        k = (r["accelerator"], r["base"], r["scenario"])
        mine[k] = max(mine.get(k, 0.0), r["per_acc"])
    return [mine[k] / hopper[k[1:]] for k in sorted(mine) if k[1:] in hopper]


def test_coreweave_evidence_is_a_generation_comparison_from_the_release_rows(tables):
    ratios = _generation_pairs(tables["mlperf_results"])
    e = tc.claim_evidence()["coreweave-mlperf-v6.0-gain"]
    # The claims table states the claim as a factor; the evidence is one.
    unit = tables["claims"].filter(pl.col("claim_id") == e.claim_id)["unit"][0]
    assert unit == "factor"
    assert e.n == len(ratios) == 4
    geo = 1.0
    for r in ratios:
        geo *= r
    assert e.value == pytest.approx(geo ** (1 / len(ratios)))
    assert (e.low, e.high) == (pytest.approx(min(ratios)), pytest.approx(max(ratios)))
    assert "generations" in e.like_for_like
    # By hand from the summary: CoreWeave's GB200 gpt-oss-120b Offline, 12,102 tokens/s per
    # accelerator in v6.0, against the one H200 result of that benchmark and scenario, 3,585.
    assert min(ratios) == pytest.approx(12102.171875 / 3585.0, rel=1e-6)
    # About 4x, not a doubling: contradicted by the rule (2 * 1.2 = 2.4 < 3.4).
    from analysis.methods.claims import CONTRADICTED, claim_verdict

    claim = tables["claims"].filter(pl.col("claim_id") == e.claim_id).row(0, named=True)
    assert claim_verdict(claim, e) == CONTRADICTED


def test_cisco_evidence_counts_the_vendors_in_the_rows(chapter, tables):
    rows = tables["mlperf_results"].filter(
        pl.col("submitter") == "Cisco", pl.col("round") == "v6.0"
    )
    names = rows["source_accelerator_name"].unique().to_list()
    assert chapter.q["cisco_n_systems"].value == rows["system"].n_unique()
    assert {n.split()[0] for n in names} == {"NVIDIA", "AMD"}
    assert chapter.q["cisco_vendors"].text == "AMD and NVIDIA"
    # Dell's v4.1 systems already ran on both AMD and NVIDIA accelerators.
    dell = tables["mlperf_results"].filter(pl.col("submitter") == "Dell", pl.col("round") == "v4.1")
    assert any(a.startswith("mi") for a in dell["accelerator"].to_list())
    assert chapter.q["cisco_first_submitter"].text == "Dell"


def test_inferencemax_cost_matches_the_release_rows(chapter, tables):
    """The cheapest gpt-oss-120b token, by hand: the 1k/1k run with the most tokens/s per GPU
    among those giving a user at least the bar, per accelerator, at InferenceX's neocloud price,
    over the output tokens of an hour."""
    runs = tables["inference_benchmarks"]
    tco = {
        r["gpu"]: r["usd_per_gpu_hour"]
        for r in tables["tco_assumptions"]
        .filter(pl.col("ownership") == "neocloud")
        .iter_rows(named=True)
    }
    best: dict[str, dict] = {}
    for r in runs.iter_rows(named=True):
        if (r["benchmark_model"], r["isl_tokens"], r["osl_tokens"]) != ("gpt-oss-120b", 1024, 1024):
            continue
        if r["median_tokens_per_s_per_user"] < tc.MIN_INTERACTIVITY:
            continue
        a = r["accelerator"]
        if a not in best or r["tokens_per_s_per_gpu"] > best[a]["tokens_per_s_per_gpu"]:
            best[a] = r

    # Output tokens per GPU of every GPU the run used: a disaggregated run's output figure is
    # per decode GPU in the source, so it is multiplied back to the run's total and divided by
    # prefill + decode GPUs (the all-GPU rule of analysis.methods.inference_cost).
    def per_gpu(r: dict) -> float:
        if not r["disaggregated"]:
            return r["output_tokens_per_s_per_gpu"]
        total = r["output_tokens_per_s_per_gpu"] * r["decode_gpus"]
        return total / (r["prefill_gpus"] + r["decode_gpus"])

    costs = {a: tco[a] / (per_gpu(r) * 3600 / 1e6) for a, r in best.items()}
    cheapest = min(costs, key=costs.get)
    q = chapter.q
    assert any(r["disaggregated"] for r in best.values())  # the rule matters here
    # named as MLPerf v6.0 writes it (gpu_names.csv, read by hand), else the id in capitals
    named = {
        "gb200": "NVIDIA GB200",
        "rtx-pro-6000-server": "NVIDIA RTX PRO 6000 Blackwell Server Edition",
    }
    assert q["oss_imax_accelerator"].text == named.get(cheapest, cheapest.upper())
    assert q["oss_imax_usd"].value == pytest.approx(costs[cheapest])
    assert q["oss_n"].value == len(costs)
    # The page's cost table, by the calls of its folded cell.
    isl, osl = tc.WORKLOAD_ISL, tc.WORKLOAD_OSL
    configs = inference_cost.select_configs(
        tables["inference_benchmarks"], isl=isl, osl=osl, min_interactivity=tc.MIN_INTERACTIVITY
    )
    month = inference_cost.round_month(tables["mlperf_results"], tc.V6_ROUND)
    api = inference_cost.api_workload_prices(
        tables["token_prices"], tc.OPEN_MODELS, month, isl=isl, osl=osl
    )
    mlperf_v6 = inference_cost.mlperf_best(
        tpd.mlperf_per_accelerator(tables["mlperf_results"]),
        round_=tc.V6_ROUND,
        scenario=tc.COMPARE_SCENARIO,
        models=list(tc.OPEN_MODELS),
    )
    inference = inference_cost.cost_comparison(configs, mlperf_v6, tables["tco_assumptions"], api)
    table = inference.filter(pl.col("benchmark_model") == "gpt-oss-120b")
    for a, usd in costs.items():
        row = table.filter(pl.col("accelerator") == a)
        assert row["imax_usd_per_mtok_neocloud"][0] == pytest.approx(usd)


def test_training_fit_matches_least_squares_on_the_rows(chapter, tables):
    """The slope by numpy least squares on the release rows: median run per system, the
    Nebius v5.1 resubmission (same runs as v5.0) once, one intercept per accelerator."""
    import numpy as np

    runs = tables["mlperf_training_results"].filter(pl.col("benchmark") == "llama31_405b")
    systems = {}
    for (rnd, sub, _system, acc, n), g in runs.group_by(
        "round", "submitter", "system", "accelerator", "accelerator_count"
    ):
        times = tuple(sorted(g["run_minutes"].to_list()))
        systems.setdefault((sub, acc, n, times), (rnd, float(np.median(times))))
    accs = sorted({k[1] for k in systems})
    x, y = [], []
    for (_, acc, n, _), (_, minutes) in systems.items():
        x.append([np.log10(n)] + [1.0 if acc == a else 0.0 for a in accs])
        y.append(np.log10(minutes))
    coef = np.linalg.lstsq(np.array(x), np.array(y), rcond=None)[0]
    page_systems = training_scale.system_times(
        tables["mlperf_training_results"], benchmark=tc.TRAINING_BENCHMARK
    )
    fit = training_scale.scaling_fit(page_systems, level=tc.LEVEL)  # the page's folded cell
    assert fit.n == len(systems) == 20
    assert fit.slope == pytest.approx(coef[0], abs=1e-9)
    assert (
        chapter.q["train_max_gpus"].value
        == tables["mlperf_training_systems"]["accelerator_count"].max()
    )


def test_all_gpu_quotes_count_the_disaggregated_runs_by_hand(chapter, tables):
    """The restated runs and the ratio range, counted in plain Python from the release rows:
    a disaggregated run's output per GPU shrinks by (prefill + decode) / decode GPUs."""
    ratios = [
        (r["prefill_gpus"] + r["decode_gpus"]) / r["decode_gpus"]
        for r in tables["inference_benchmarks"].iter_rows(named=True)
        if r["disaggregated"]
    ]
    q = chapter.q
    assert q["imax_n_disagg"].value == len(ratios)
    assert q["imax_ratio_range"].value == (pytest.approx(min(ratios)), pytest.approx(max(ratios)))
    assert all(x > 1 for x in ratios)


def test_the_mlperf_cost_names_its_gpu_hour_price_and_range(chapter):
    latest = chapter.q["llama_cost_last_usd"]
    used = latest.extra["price"]
    assert chapter.q["llama_cost_last_gpu_hour"].value == used["usd_per_gpu_hour"]
    low, high = chapter.q["llama_cost_last_range"].value
    assert low <= latest.value <= high
    # Each defensible price's cost is the formula at the latest result's throughput.
    costs = results.mlperf_costs(chapter.version)
    row = tc.benchmark_rows(tpd.cheapest_by_round(costs)).sort("date").row(-1, named=True)
    for p in latest.extra["defensible"]:
        expected = p["usd_per_gpu_hour"] / (row["tokens_per_s_per_accelerator"] * 3600 / 1e6)
        assert p["usd_per_mtok"] == pytest.approx(expected)


def test_the_page_says_once_which_drawn_accelerators_no_source_names(chapter):
    """The InferenceMAX figure draws gpt-oss-120b on h100 (InferenceMAX's source_hw "h100"; no
    h100 row in gpu_specs.csv, checked by grep): RunPod's depth history writes that id "H100"
    (../shared/sources/openrouter-sui414/2026-08-08_HEAD/data-static/
    runpod_depth_history_afhubbard.csv line 9, gpu_type), kept in gpu_names.csv; GB200 and the RTX
    PRO 6000 server card are named as MLPerf writes them, so every drawn accelerator has a name."""
    assert chapter.q["unnamed_accelerators"].text == (
        "Every accelerator there is shown by the name a source gives it."
    )
