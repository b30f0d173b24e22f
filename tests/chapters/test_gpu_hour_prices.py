"""Tests of analysis.chapters.gpu_hour_prices: the section functions on small hand-made frames (which row
each quoted value comes from, and how it is written), and the whole chapter on the released data
(every key the prose quotes exists, the values equal what analysis.methods.gpu_prices returns, and the
verdicts the prose states in words still hold)."""

from __future__ import annotations

import re
from datetime import date

import polars as pl
import pytest

from analysis.chapters import gpu_hour_prices as gh
from analysis.data import release as data
from analysis.data.paths import ROOT
from analysis.figures import hardware as hv
from analysis.methods import gpu_prices

CHAPTER = ROOT / "chapters" / "gpu-hour-prices.qmd"


# ------------------------------------------------------------------ hand-made frames


def _steps() -> pl.DataFrame:
    rows = [
        # gpu, pricing, provider, from, from $, to, to $, ratio, flat months before, after
        ("h200", "spot", "a-cloud", date(2024, 5, 1), 1.0, date(2024, 6, 1), 4.0, 4.0, 2, 2),
        ("h200", "spot", "index", date(2025, 3, 1), 0.5, date(2025, 4, 1), 3.59, 7.18, 5, 4),
        ("h200", "on-demand", "b-cloud", date(2025, 1, 1), 1.0, date(2025, 2, 1), 9.0, 9.0, 1, 1),
        ("b200", "spot", "index", date(2025, 8, 1), 0.8, date(2025, 9, 1), 5.98, 7.475, 1, 9),
    ]
    cols = ["gpu_group", "pricing", "provider", "from_month", "from_value", "to_month"]
    cols += ["to_value", "ratio", "months_at_from_value", "months_at_to_value"]
    return pl.DataFrame(rows, schema=cols, orient="row")


def test_step_numbers_quote_the_largest_spot_step_of_each_gpu():
    n = gh.step_numbers(_steps())
    # h200: the index's 7.18x spot step, not the smaller spot step or the larger on-demand one.
    assert n["h200_step_from_usd"] == "$0.50"
    assert n["h200_step_to_usd"] == "$3.59"
    assert n["h200_step_to_month"] == "April 2025"
    assert n["h200_step_ratio"] == "7.2"
    assert (n["h200_step_months_before"], n["h200_step_months_after"]) == ("5", "4")
    assert n["b200_step_from_month"] == "August 2025"
    assert n.raw["b200_step_ratio"] == 7.475
    assert n["step_threshold"] == "3"
    with pytest.raises(LookupError, match="b300 spot series"):
        gh.step_numbers(_steps(), gpus=["b300"])


def test_flagged_series_are_the_pairs_with_a_step():
    assert gh.flagged_series(_steps()) == [
        ("h200", "spot"),
        ("h200", "spot"),
        ("h200", "on-demand"),
        ("b200", "spot"),
    ]
    assert gh.flagged_series(pl.DataFrame(schema={"gpu_group": pl.String})) == []


def _rates() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "gpu_group": ["h100", "h200", "h100"],
            "pricing": ["on-demand", "on-demand", "index"],
            "n": [261, 125, 39],
            "n_providers": [24, 10, 2],
            "factor_per_year": [1.06357, 0.9553, 1.0954],
            "ci90_low": [1.0403, 0.93, 1.0411],
            "ci90_high": [1.0873, 0.98, 1.1534],
            "pct_per_year": [-5.976, 4.68, -8.71],
        }
    )


def test_decline_numbers_write_factors_and_percent_magnitudes():
    quoted = {"h100_od": ("h100", "on-demand"), "h200_od": ("h200", "on-demand")}
    quoted["h100_index"] = ("h100", "index")
    n = gh.decline_numbers(_rates(), quoted, min_n=10)
    assert (n["h100_od_factor"], n["h100_od_factor_low"], n["h100_od_factor_high"]) == (
        "1.064",
        "1.040",
        "1.087",
    )
    # Falls and rises both read as magnitudes; the prose's verb carries the sign.
    assert (n["h100_od_pct"], n["h200_od_pct"]) == ("6%", "5%")
    assert n.raw["h200_od_pct"] == 4.68
    assert (n["h100_od_n"], n["h100_index_n_providers"]) == ("261", "2")
    assert (n["level"], n["decline_min_n"]) == ("90%", "10")
    with pytest.raises(LookupError, match="spot decline rate of h100"):
        gh.decline_numbers(_rates(), {"h100_spot": ("h100", "spot")})


def _index(high_ci_low: float = 1.18) -> tuple[pl.DataFrame, dict]:
    rows = [
        (date(2023, 9, 1), 1.0, 1.0, 1.0, 10),
        (date(2023, 10, 1), 1.2, 0.9, 1.5, 30),
        (date(2024, 2, 1), 1.49, high_ci_low, 1.89, 35),
        (date(2024, 3, 1), 1.04, 0.8, 1.3, 33),
        (date(2025, 8, 1), 0.81, 0.65, 1.02, 40),
        (date(2026, 9, 1), 0.99, 0.79, 1.23, 42),
    ]
    index = pl.DataFrame(
        rows, schema=["period", "index", "ci_low", "ci_high", "n_obs"], orient="row"
    )
    summary = {
        "start": date(2023, 9, 1),
        "base_period": date(2023, 9, 1),
        "n": 1223,
        "r_squared": 0.9612,
    }
    return index, summary


def test_hedonic_numbers_find_low_high_and_the_months_apart_from_one():
    n = gh.hedonic_numbers(*_index())
    assert (n["index_start"], n["index_n"], n["index_r2"]) == ("September 2023", "1,223", "0.96")
    assert (n["index_low"], n["index_low_month"]) == ("0.81", "August 2025")
    assert (n["index_low_ci_low"], n["index_low_ci_high"]) == ("0.65", "1.02")
    assert (n["index_high"], n["index_high_month"]) == ("1.49", "February 2024")
    assert n["index_after_high"] == "1.04"  # March 2024, the month after the high
    assert (n["index_last"], n["index_last_month"]) == ("0.99", "September 2026")
    assert n["index_base_n_obs"] == "10"
    assert n["index_n_months"] == "6"
    # Only February 2024's interval (1.18 to 1.89) leaves out 1.
    assert n["index_n_months_apart"] == "1 month"
    assert n["index_months_apart"] == "February 2024"


def test_hedonic_numbers_say_none_when_every_interval_holds_one():
    n = gh.hedonic_numbers(*_index(high_ci_low=0.95))
    assert n["index_n_months_apart"] == "0 months"
    assert n["index_months_apart"] == "none"
    assert n.raw["index_months_apart"] == []


def test_hedonic_numbers_need_a_month_after_the_high():
    index, summary = _index()
    with pytest.raises(LookupError, match="month after the index's highest"):
        gh.hedonic_numbers(index.filter(pl.col("period") <= date(2024, 2, 1)), summary)


def test_gap_numbers_one_decimal_and_months():
    gap = {
        "geometric_mean_ratio": 2.456,
        "ci90_low": 2.04,
        "ci90_high": 2.96,
        "median_ratio": 2.31,
        "n": 16,
        "n_gpus": 6,
        "start": date(2022, 8, 1),
        "end": date(2025, 3, 1),
    }
    n = gh.gap_numbers(gap)
    assert [n[k] for k in ("gap_ratio", "gap_ci_low", "gap_ci_high", "gap_median")] == [
        "2.5",
        "2.0",
        "3.0",
        "2.3",
    ]
    assert (n["gap_n"], n["gap_start"], n["gap_end"]) == ("16", "August 2022", "March 2025")


def test_age_numbers_take_each_gpus_latest_month_and_the_months_before_release():
    by_age = pl.DataFrame(
        {
            "gpu_group": ["a100", "a100", "h100", "h200", "b200", "b200"],
            "month": [
                *(date(2026, 9, 1), date(2025, 1, 1), date(2026, 9, 1)),
                *(date(2023, 10, 1), date(2024, 1, 1), date(2024, 2, 1)),
            ],
            "usd_per_gpu_hour": [2.31, 2.9, 3.79, 5.0, 6.0, 6.5],
            "age_months": [78.0, 57.0, 46.8, -1.0, -2.5, -1.5],
        }
    )
    n = gh.age_numbers(by_age)
    assert (n["a100_age_years"], n["a100_age_usd"]) == ("6.5", "$2.31")
    assert (n["h100_age_years"], n["h100_age_usd"]) == ("3.9", "$3.79")
    assert n["before_release_gpus"] == "B200 and H200"
    assert n["n_before_release"] == "3 months"


def test_flops_numbers_signed_growth_and_the_cheapest_recent_chips():
    at_release = pl.DataFrame(
        {
            "gpu": ["gtx-1080", "rtx-4090", "a100-40gb", "h100-sxm"],
            "release_date": [
                *(date(2016, 5, 27), date(2022, 10, 12)),
                *(date(2020, 5, 14), date(2022, 9, 20)),
            ],
            "flop_per_s_per_usd": [1e9, 5e10, 1.5e9, 2e9],
        }
    )
    purchase = {
        "n": 70,
        "pct_per_year": 16.2,
        "ci90_low": 1.114,
        "ci90_high": 1.21,
        "r_squared": 0.3391,
        "epoch_reference_pct_per_year": 30.0,
    }
    rental = {**purchase, "pct_per_year": -3.4, "ci90_low": 0.9, "ci90_high": 1.02}
    n = gh.flops_numbers(at_release, purchase, rental)
    assert (n["purchase_pct"], n["purchase_pct_low"], n["purchase_pct_high"]) == (
        "+16%",
        "+11%",
        "+21%",
    )
    assert (n["rental_pct"], n["rental_pct_low"], n["rental_pct_high"]) == ("-3%", "-10%", "+2%")
    assert (n["purchase_n"], n["purchase_r2"], n["epoch_pct"]) == ("70", "0.34", "30%")
    # The 2016 card is cheapest but not recent: the two lowest since 2020 are named.
    assert n["low_chips"] == "A100-40GB and H100-SXM"


def test_implied_peak_hand_computed():
    # A 64% fall ending at $2.85 started at 2.85 / 0.36 = $7.9167; 75% to $3.50 from $14.
    assert gh.implied_peak(2.85, 64) == pytest.approx(7.916667, rel=1e-6)
    assert gh.implied_peak(3.50, 75) == pytest.approx(14.0)
    assert gh.implied_peak(3.0, 0) == 3.0
    with pytest.raises(ValueError, match=r"\[0, 100\)"):
        gh.implied_peak(3.0, 100)


# ------------------------------------------------------------------ the released data


@pytest.fixture(scope="module")
def tables() -> dict[str, pl.DataFrame]:
    version = data.current_version()
    names = ["gpu_hour_prices", "gpu_specs", "claims", "mlperf_results"]
    return {"version": version, **{name: data.load(name, version) for name in names}}


@pytest.fixture(scope="module")
def chapter(tables) -> gh.GpuHourChapter:
    return gh.build(
        tables["gpu_hour_prices"],
        tables["gpu_specs"],
        tables["claims"],
        tables["mlperf_results"],
        version=tables["version"],
    )


def test_every_value_the_prose_quotes_is_there(chapter):
    keys = set(re.findall(r'numbers\["([a-z0-9_]+)"\]', CHAPTER.read_text(encoding="utf-8")))
    assert len(keys) > 100
    assert keys <= set(chapter.numbers), keys - set(chapter.numbers)
    assert all(isinstance(v, str) and v for v in chapter.numbers.values())
    assert set(chapter.numbers.raw) == set(chapter.numbers)


def test_numbers_equal_what_gpu_prices_returns(chapter, tables):
    prices, specs = tables["gpu_hour_prices"], tables["gpu_specs"]
    raw = chapter.numbers.raw
    rates = gpu_prices.decline_rates(prices)
    h100 = rates.filter(pl.col("gpu_group") == "h100", pl.col("pricing") == "on-demand")
    assert raw["h100_od_factor"] == pytest.approx(h100["factor_per_year"][0])
    assert raw["h100_od_pct"] == pytest.approx(h100["pct_per_year"][0])
    assert raw["h100_od_n"] == h100["n"][0]
    assert chapter.rates.equals(rates.with_columns(pl.lit(tables["version"]).alias("data_version")))

    start = gpu_prices.unbroken_months_start(prices)
    index, summary = gpu_prices.hedonic_index(prices, base_month=start, start=start)
    assert raw["index_start"] == start
    assert raw["index_low"] == pytest.approx(index["index"].min())
    assert raw["index_high"] == pytest.approx(index["index"].max())
    assert raw["index_n"] == summary["n"]

    dd = gpu_prices.drawdown_from_peak(prices).filter(
        pl.col("gpu_group") == "h100", pl.col("pricing") == "on-demand"
    )
    assert raw["h100_drawdown"] == pytest.approx(dd["drawdown_pct"][0])
    per_provider = gpu_prices.provider_drawdowns(prices, gpus=["h100"], min_months=6)
    assert raw["deepest_drawdown"] == pytest.approx(per_provider["drawdown_pct"].min())
    assert raw["n_providers_own_peak"] == per_provider.height

    _, gap = gpu_prices.hyperscaler_gap(prices)
    assert raw["gap_ratio"] == pytest.approx(gap["geometric_mean_ratio"])
    purchase = gpu_prices.flops_per_dollar_trend(gpu_prices.flops_per_dollar_at_release(specs))
    assert raw["purchase_pct"] == pytest.approx(purchase["pct_per_year"])

    steps = gpu_prices.step_changes(prices, gpus=hv.MAIN_GPUS)
    assert sorted(chapter.flagged) == sorted(zip(steps["gpu_group"], steps["pricing"], strict=True))


def test_claim_numbers_and_findings_follow_the_claims_table(chapter, tables):
    prices, claims = tables["gpu_hour_prices"], tables["claims"]
    raw = chapter.numbers.raw
    settled_claim = hv.claim_row(claims, gh.SETTLED_CLAIM)
    drawdown_claim = hv.claim_row(claims, gh.DRAWDOWN_CLAIM)
    series = gpu_prices.monthly_median_across_providers(prices, pricing="on-demand").filter(
        pl.col("gpu_group") == "h100"
    )
    settled = gpu_prices.settled_range_check(
        series,
        settled_claim["value"],
        settled_claim["value_high"],
        end=settled_claim["claim_date"],
        months=12,
    )
    assert (raw["settled_min"], raw["settled_max"]) == (settled["min"], settled["max"])
    assert raw["settled_n_in_range"] == round(settled["share_in_range"] * settled["n_months"])
    assert raw["implied_peak_low"] == pytest.approx(
        settled_claim["value"] / (1 - drawdown_claim["value"] / 100)
    )
    shows = dict(zip(*chapter.claim_checks.select("claim_id", "data_shows"), strict=True))
    assert list(shows) == [gh.SETTLED_CLAIM, gh.DRAWDOWN_CLAIM, gh.TPU_CLAIM]
    assert shows[gh.SETTLED_CLAIM] == (
        f"Monthly median on-demand H100 price across providers, {settled['start']:%Y-%m} to "
        f"{settled['end']:%Y-%m}: {hv.usd(settled['min'])} to {hv.usd(settled['max'])} (median "
        f"{hv.usd(settled['median'])}); {raw['settled_n_in_range']} of {settled['n_months']} "
        "months inside the claimed range."
    )
    b200 = (
        gpu_prices.monthly_median_across_providers(prices, pricing="on-demand")
        .filter(pl.col("gpu_group") == "b200")
        .sort("month")["usd_per_gpu_hour"][-1]
    )
    advantage = hv.claim_row(claims, gh.TPU_CLAIM)["value"] / 100
    edge = gpu_prices.price_for_advantage(tables["gpu_specs"], "tpu-v7", "b200", b200, advantage)
    assert (
        f"at or below {hv.usd(edge['max_challenger_usd_per_hour'])} per chip-hour"
        in (shows[gh.TPU_CLAIM])
    )
    assert shows[gh.DRAWDOWN_CLAIM].startswith(
        f"Median across providers: {hv.pct(raw['h100_drawdown'], True)} from "
    )


def test_the_prose_verdicts_hold_on_the_released_data(chapter):
    """The prose states some findings in words, not numbers; each must still be true."""
    raw = chapter.numbers.raw
    # "A100 prices fall more slowly"; "The publishers' H100 indices fall faster";
    # "The young GPUs move the other way: ... H200 prices rise ... and B200 prices".
    assert raw["h100_od_pct"] < raw["a100_od_pct"] < 0
    assert raw["h100_index_pct"] < raw["h100_od_pct"]
    assert raw["h200_od_pct"] > 0 and raw["b200_od_pct"] > 0
    # "One month stands out ... which does not persist"; "became cheaper and then dearer again".
    assert raw["index_after_high"] < raw["index_high"]
    assert raw["index_low"] < 1 and raw["index_last"] > raw["index_low"]
    # "Hyperscalers charge ... times as much".
    assert raw["gap_ci_low"] > 1
    # "The level is about right": the median month sits inside the claimed range.
    assert raw["settled_claim_low"] <= raw["settled_median"] <= raw["settled_claim_high"]
    # "No provider fell as far as the claim says".
    assert -raw["deepest_drawdown"] < raw["drawdown_claim_low"]
    # "At release prices ... against Epoch's 30%"; rental FLOP/s per dollar "grows".
    assert raw["rental_pct_low"] > 0
    # "The data cannot test this": no TPU v7 price and no TPU MLPerf result.
    assert raw["n_tpu7_prices"] == 0 and raw["n_tpu_mlperf"] == 0
