"""Tests of analysis.chapters.gpu_hour_prices: the section functions on small hand-made frames (which
row each quote comes from, and how the page prints it), and the whole chapter on the released data
(every inline expression of the page names a quote, the values equal what analysis.methods.gpu_prices
returns when called directly, the headline numbers are the registry's, and the verdicts the prose
states in words still hold)."""

from __future__ import annotations

import re
from datetime import date

import polars as pl
import pytest

from analysis.chapters import gpu_hour_prices as gh
from analysis.data import gpu_evidence
from analysis.data import release as data
from analysis.figures.hardware import and_join
from analysis.methods import gpu_prices, prices
from analysis.methods.claims import claim_row
from analysis.report import estimates, results
from analysis.report.names import gpu_name
from analysis.report.quote import Estimate, Quote


def gpus(*ids: str) -> str:
    """GPU ids as the prose names them (the release's gpu_specs names, else the id in capitals)."""
    return and_join([gpu_name(i) for i in ids])


# `{python} q.name` or, on an Estimate, `{python} q.name.ci` (or .n_text, .window, .start, .end).


def _texts(quotes: dict[str, Quote]) -> dict[str, str]:
    return {name: quote.text for name, quote in quotes.items()}


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


def test_step_quotes_take_the_largest_spot_step_of_each_gpu():
    q = gh.step_quotes(_steps())
    t = _texts(q)
    # h200: the index's 7.18x spot step, not the smaller spot step or the larger on-demand one.
    assert (t["h200_step_from_usd"], t["h200_step_to_usd"]) == ("$0.50", "$3.59")
    assert t["h200_step_to_month"] == "April 2025"
    assert t["h200_step_ratio"] == "7.18"
    assert (t["h200_step_months_before"], t["h200_step_months_after"]) == ("5", "4")
    assert t["b200_step_from_month"] == "August 2025"
    assert q["b200_step_ratio"].value == 7.475
    assert t["step_threshold"] == "3"
    with pytest.raises(LookupError, match="b300 spot series"):
        gh.spot_step(_steps(), "b300")


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
            "gpu_group": ["h100", "h200", "h100", "a100", "b200"],
            "pricing": ["on-demand", "on-demand", "index", "on-demand", "on-demand"],
            "n": [261, 125, 39, 80, 40],
            "n_providers": [24, 10, 2, 12, 6],
            "factor_per_year": [1.06357, 0.9553, 1.0954, 1.02, 0.9],
            "ci90_low": [1.0403, 0.93, 1.0411, 1.0, 0.85],
            "ci90_high": [1.0873, 0.98, 1.1534, 1.04, 0.95],
            "pct_per_year": [-5.976, 4.68, -8.71, -1.96, 11.1],
        }
    )


def _headline() -> Estimate:
    return Estimate(
        1.06357, "factor", estimate_id="h100-on-demand-decline", low=1.0403, high=1.0873, n=261
    )


def test_decline_quotes_print_factors_and_percent_magnitudes():
    q = gh.decline_quotes(_rates(), _headline(), min_n=10)
    # The headline is the registry's estimate, printed with its interval and n as the page does.
    assert q["h100_od_factor"].text == "1.06x"
    assert q["h100_od_factor"].ci.text == "1.04x to 1.09x"
    assert q["h100_od_factor"].n_text.text == "261"
    # Falls and rises both read as magnitudes; the prose's verb carries the sign.
    assert (q["h100_od_pct"].text, q["h200_od_pct"].text) == ("6%", "5%")
    assert q["h200_od_pct"].value == pytest.approx(0.0468)
    assert q["h100_index_n_providers"].text == "2"
    assert (q["level"].text, q["decline_min_n"].text) == ("90%", "10")
    assert (q["a100_od_pct"].text, q["b200_od_pct"].text) == ("2%", "11%")
    with pytest.raises(LookupError, match="spot decline rate of h100"):
        gh.quoted_rate(_rates(), "h100", "spot")


def _index(high_ci_low: float = 1.18) -> tuple[pl.DataFrame, dict, Estimate]:
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
    latest = Estimate(
        0.99,
        "number",
        low=0.79,
        high=1.23,
        window_start=date(2023, 9, 1),
        window_end=date(2026, 9, 1),
    )
    return index, summary, latest


def test_hedonic_quotes_find_low_high_and_the_months_apart_from_one():
    t = _texts(gh.hedonic_quotes(*_index()))
    assert (t["index_start"], t["index_n"], t["index_r2"]) == ("September 2023", "1,223", "0.961")
    assert (t["index_low"], t["index_low_month"]) == ("0.810", "August 2025")
    assert t["index_low_ci"] == "0.650 to 1.02"
    assert (t["index_high"], t["index_high_month"]) == ("1.49", "February 2024")
    assert t["index_after_high"] == "1.04"  # March 2024, the month after the high
    assert t["index_last"] == "0.990"
    assert t["index_base_n_obs"] == "10"
    assert t["index_n_months"] == "6"
    # Only February 2024's interval (1.18 to 1.89) leaves out 1.
    assert t["index_n_months_apart"] == "1 month"
    assert t["index_months_apart"] == "February 2024"


def test_hedonic_quotes_say_none_when_every_interval_holds_one():
    t = _texts(gh.hedonic_quotes(*_index(high_ci_low=0.95)))
    assert t["index_n_months_apart"] == "0 months"
    assert t["index_months_apart"] == "none"


def test_hedonic_quotes_need_a_month_after_the_high():
    index, summary, latest = _index()
    with pytest.raises(LookupError, match="month after the index's highest"):
        gh.hedonic_quotes(index.filter(pl.col("period") <= date(2024, 2, 1)), summary, latest)


def test_gap_quotes_ratios_and_months():
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
    t = _texts(gh.gap_quotes(gap))
    assert [t[k] for k in ("gap_ratio", "gap_ci", "gap_median")] == [
        "2.46",
        "2.04 to 2.96",
        "2.31",
    ]
    assert (t["gap_n"], t["gap_start"], t["gap_end"]) == ("16", "August 2022", "March 2025")


def _by_age() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "gpu_group": ["a100", "a100", "h100", "h200", "b200", "b200", "x1"],
            "month": [
                *(date(2026, 9, 1), date(2025, 1, 1), date(2026, 9, 1)),
                *(date(2023, 10, 1), date(2024, 1, 1), date(2024, 2, 1), date(2024, 2, 1)),
            ],
            "usd_per_gpu_hour": [2.31, 2.9, 3.79, 5.0, 6.0, 6.5, 1.0],
            "age_months": [78.0, 57.0, 46.8, -1.0, -2.5, -1.5, None],
            "n_providers": [2, 5, 1, 1, 1, 1, 1],
        }
    )


def test_age_quotes_take_each_gpus_latest_month_and_the_months_before_release():
    t = _texts(gh.age_quotes(_by_age()))
    assert (t["a100_age_years"], t["a100_age_usd"]) == ("6.50", "$2.31")
    assert (t["h100_age_years"], t["h100_age_usd"]) == ("3.90", "$3.79")  # 46.8 / 12
    assert (t["a100_age_providers"], t["h100_age_providers"]) == ("2 providers", "1 provider")
    assert t["a100_age_month"] == "September 2026"
    before = _texts(gh.before_release_quotes(_by_age()))
    assert before["before_release_gpus"] == gpus("b200", "h200")
    assert before["n_before_release"] == "3 months"


def _trend(**fields) -> dict:
    return {
        "n": 70,
        "pct_per_year": 16.2,
        "pct_ci90_low": 11.4,
        "pct_ci90_high": 21.0,
        "r_squared": 0.3391,
        "epoch_reference_pct_per_year": 30.0,
        **fields,
    }


def test_flops_quotes_growth_intervals_and_the_cheapest_recent_chips():
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
    rental = _trend(pct_per_year=-3.4, pct_ci90_low=-10.0, pct_ci90_high=2.0)
    t = _texts(gh.flops_quotes(at_release, _trend(), rental))
    assert (t["purchase_pct"], t["purchase_pct_ci"]) == ("16%", "11% to 21%")
    assert (t["rental_pct"], t["rental_pct_ci"]) == ("-3%", "-10% to 2%")
    assert (t["purchase_n"], t["purchase_r2"], t["epoch_pct"]) == ("70", "0.339", "30%")
    # The 2016 card is cheapest but not recent: the two lowest since 2020 are named.
    assert t["low_chips"] == gpus("a100-40gb", "h100-sxm")


def test_flops_lines_follow_the_fit_and_epochs_rate_through_its_middle():
    # A flat fit at 1e10 FLOP/s per $ from 2015 to 2021: Epoch's +30% a year (years of 365 days,
    # as the trend methods count them) through the middle, 1,096 days in, is 1e10 / 1.3**(1096/365)
    # at the start and 1e10 x 1.3**(1096/365) at the end.
    trend = _trend(
        start_date=date(2015, 1, 1),
        end_date=date(2021, 1, 1),
        intercept_log10=10.0,
        slope_log10_per_day=0.0,
        pct_per_year=0.0,
    )
    lines = gh.flops_lines(trend)
    assert lines.columns == ["release_date", "flop_per_s_per_usd", "line"]
    assert lines["line"].to_list() == ["Fit: +0% per year"] * 2 + ["Epoch AI: +30% per year"] * 2
    assert lines["flop_per_s_per_usd"][:2].to_list() == pytest.approx([1e10, 1e10])
    half = (date(2021, 1, 1) - date(2015, 1, 1)).days / 2 / 365
    assert lines["flop_per_s_per_usd"][2] == pytest.approx(1e10 / 1.3**half)
    assert lines["flop_per_s_per_usd"][3] == pytest.approx(1e10 * 1.3**half)


def test_implied_peak_hand_computed():
    # A 64% fall ending at $2.85 started at 2.85 / 0.36 = $7.9167; 75% to $3.50 from $14.
    assert gh.implied_peak(2.85, 64) == pytest.approx(7.916667, rel=1e-6)
    assert gh.implied_peak(3.50, 75) == pytest.approx(14.0)
    assert gh.implied_peak(3.0, 0) == 3.0
    with pytest.raises(ValueError, match=r"\[0, 100\)"):
        gh.implied_peak(3.0, 100)


def test_counted_is_singular_only_for_one():
    assert gh.counted(1, "month").text == "1 month"
    assert gh.counted(0, "month").text == "0 months"
    assert gh.counted(1200, "provider").text == "1,200 providers"


# ------------------------------------------------------------------ the released data


@pytest.fixture(scope="module")
def tables() -> dict[str, pl.DataFrame]:
    version = data.current_version()
    names = ["gpu_hour_prices", "gpu_specs", "claims", "mlperf_results"]
    # What the analyses read: the release less the rows an anomaly rule flags (prices.clean).
    tables = {n: prices.clean(data.load(n, version))[0] for n in names}
    # Direct observations, named here by hand (issue 19): a seller's listing or a marketplace's
    # median; the indices and the restated reconstructions are left out.
    tables["gpu_hour_prices"] = gpu_evidence.with_evidence_class(tables["gpu_hour_prices"])
    tables["direct"] = tables["gpu_hour_prices"].filter(
        pl.col("evidence_class").is_in(["observed-listing", "marketplace-median"])
    )
    return {"version": version, **tables}


@pytest.fixture(scope="module")
def chapter() -> gh.GpuHourPrices:
    return gh.compute()


@pytest.fixture(scope="module")
def rates(tables) -> pl.DataFrame:
    """The decline fits of the page's folded cell, one per evidence variant, stacked."""
    return pl.concat(
        [results.gpu_declines(tables["version"], evidence=e) for e in gh.TABLE_VARIANTS]
    )


def test_compute_is_cached_per_version(chapter, tables):
    assert gh.compute() is chapter
    assert gh.compute(tables["version"]) is chapter
    assert chapter.q["version"].text == tables["version"]


def test_headline_quotes_are_the_registrys_estimates(chapter, tables):
    v = tables["version"]
    assert chapter.q["h100_od_factor"] == estimates.estimate("h100-on-demand-decline", v)
    assert chapter.q["index_last"] == estimates.estimate("gpu-hedonic-index-latest", v)
    # ... and the registry's H100 decline is the method's on the released table, called directly.
    # ... on direct observations only: the released rows of the two direct evidence classes
    # (observed listings, marketplace medians), chosen here from source and statistic by hand.
    direct = {
        "epoch-hardware": {"quote"},
        "runpod-sui414": {"bid-floor", "community-cloud", "min", "secure-cloud"},
        "gpu-tracker-tugot17": {"median", "min", "p25", "p75"},
        "vast-market-sui414": {"median", "p25"},
    }
    rows = tables["gpu_hour_prices"]
    keep = pl.lit(False)
    for source, stats in direct.items():
        keep = keep | ((pl.col("source_id") == source) & pl.col("statistic").is_in(list(stats)))
    rates = gpu_prices.decline_rates(rows.filter(keep))
    h100 = rates.filter(pl.col("gpu_group") == "h100", pl.col("pricing") == "on-demand")
    q = chapter.q["h100_od_factor"]
    assert q.value == pytest.approx(h100["factor_per_year"][0])
    assert (q.low, q.high, q.n) == (h100["ci90_low"][0], h100["ci90_high"][0], h100["n"][0])
    assert chapter.q["h100_od_pct"].value == pytest.approx(-h100["pct_per_year"][0] / 100)
    # The chapter's level is the one the shared fits use.
    assert results.gpu_index(tables["version"])[1]["level"] == gh.LEVEL


def test_quotes_equal_what_gpu_prices_returns(chapter, tables):
    prices, specs = tables["gpu_hour_prices"], tables["gpu_specs"]
    q = chapter.q
    assert q["n_rows"].value == prices.height
    assert (q["first_date"].value, q["last_date"].value) == (
        prices["date"].min(),
        prices["date"].max(),
    )

    start = gpu_prices.unbroken_months_start(prices)
    index, summary = gpu_prices.hedonic_index(prices, base_month=start, start=start)
    assert q["index_start"].value == start
    assert q["index_low"].value == pytest.approx(index["index"].min())
    assert q["index_high"].value == pytest.approx(index["index"].max())
    assert q["index_last"].value == pytest.approx(index.sort("period")["index"][-1])
    assert q["index_n"].value == summary["n"]

    # Drawdowns and the hyperscaler gap are of direct observations by default (issue 19).
    direct = tables["direct"]
    dd = gpu_prices.drawdown_from_peak(direct).filter(
        pl.col("gpu_group") == "h100", pl.col("pricing") == "on-demand"
    )
    assert q["h100_drawdown"].value == pytest.approx(-dd["drawdown_pct"][0] / 100)
    dd_all = gpu_prices.drawdown_from_peak(prices).filter(
        pl.col("gpu_group") == "h100", pl.col("pricing") == "on-demand"
    )
    assert q["h100_drawdown_all"].value == pytest.approx(-dd_all["drawdown_pct"][0] / 100)
    per_provider = gpu_prices.provider_drawdowns(direct, gpus=["h100"], min_months=6)
    assert q["deepest_drawdown"].value == pytest.approx(-per_provider["drawdown_pct"].min() / 100)
    assert q["n_providers_own_peak"].value == per_provider.height

    _, gap = gpu_prices.hyperscaler_gap(direct)
    assert q["gap_ratio"].value == pytest.approx(gap["geometric_mean_ratio"])
    _, gap_all = gpu_prices.hyperscaler_gap(prices)
    assert q["gap_all_ratio"].value == pytest.approx(gap_all["geometric_mean_ratio"])

    # Rental FLOP/s per dollar: direct observations by default, all rows as the named variant.
    def rental_growth(rows: pl.DataFrame) -> float:
        flops = gpu_prices.flops_per_rental_dollar(rows, specs)
        trend = gpu_prices.flops_per_dollar_trend(flops, date_col="month", value_col="flop_per_usd")
        return trend["pct_per_year"] / 100

    assert q["rental_pct"].value == pytest.approx(rental_growth(direct))
    assert q["rental_all_pct"].value == pytest.approx(rental_growth(prices))
    assert q["rental_n"].value == gpu_prices.flops_per_rental_dollar(direct, specs).height
    purchase = gpu_prices.flops_per_dollar_trend(gpu_prices.flops_per_dollar_at_release(specs))
    assert q["purchase_pct"].value == pytest.approx(purchase["pct_per_year"] / 100)
    # The interval in percent is the growth factor's interval less one.
    assert q["purchase_pct_ci"].value == pytest.approx(
        (purchase["ci90_low"] - 1, purchase["ci90_high"] - 1)
    )

    # Steps are looked for in the source series as published, flagged rows included.
    steps = gpu_prices.step_changes(data.load("gpu_hour_prices"), gpus=gh.MAIN_GPUS)
    flagged = gh.flagged_series(steps)
    assert sorted(flagged) == sorted(zip(steps["gpu_group"], steps["pricing"], strict=True))
    # The decline table leaves out every flagged series and every group under 10 provider-months.
    rates = [results.gpu_declines(tables["version"], evidence=e) for e in gh.TABLE_VARIANTS]
    declines = gpu_prices.fitted_rates(*rates, min_n=gh.MIN_PROVIDER_MONTHS, exclude=flagged)
    shown = set(declines.select("gpu_group", "pricing").rows())
    assert not shown & set(flagged)
    assert declines["n"].min() >= gh.MIN_PROVIDER_MONTHS


def test_claim_quotes_and_findings_follow_the_claims_table(chapter, tables):
    prices, claims = tables["direct"], tables["claims"]
    q = chapter.q
    settled_claim = claim_row(claims, gh.SETTLED_CLAIM)
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
    assert (q["settled_min"].value, q["settled_max"].value) == (settled["min"], settled["max"])
    assert q["settled_n_in_range"].value == round(settled["share_in_range"] * settled["n_months"])
    # The digest: "stabilized at $2.85–3.50/hr after a 64–75% drawdown". A 64% fall to $2.85
    # starts at 2.85 / 0.36 = $7.92; a 75% fall to $3.50 at 3.50 / 0.25 = $14.
    assert q["drawdown_claim"].text == "64% to 75%"
    assert q["settled_claim_range"].text == "$2.85 to $3.50"
    assert q["implied_peak"].text == "$7.92 to $14.00"
    checks = gpu_prices.claim_checks(claims, gh.claim_findings(chapter.q))  # the page's table
    shows = dict(zip(*checks.select("claim_id", "data_shows"), strict=True))
    assert list(shows) == [gh.SETTLED_CLAIM, gh.DRAWDOWN_CLAIM, gh.TPU_CLAIM]
    assert shows[gh.SETTLED_CLAIM] == (
        "Monthly median on-demand H100 price across providers, direct observations, "
        f"{settled['start']:%Y-%m} to "
        f"{settled['end']:%Y-%m}: ${settled['min']:.2f} to ${settled['max']:.2f} (median "
        f"${settled['median']:.2f}); {q['settled_n_in_range'].value} of {settled['n_months']} "
        "months inside the claimed range."
    )
    b200 = (
        gpu_prices.monthly_median_across_providers(prices, pricing="on-demand")
        .filter(pl.col("gpu_group") == "b200")
        .sort("month")["usd_per_gpu_hour"][-1]
    )
    advantage = claim_row(claims, gh.TPU_CLAIM)["value"] / 100
    edge = gpu_prices.price_for_advantage(tables["gpu_specs"], "tpu-v7", "b200", b200, advantage)
    assert (
        f"at or below ${edge['max_challenger_usd_per_hour']:.2f} per chip-hour"
        in (shows[gh.TPU_CLAIM])
    )
    assert shows[gh.DRAWDOWN_CLAIM].startswith(
        f"Median across providers, direct observations: -{q['h100_drawdown'].value:.0%} from "
    )


def test_the_prose_verdicts_hold_on_the_released_data(chapter, rates):
    """The prose states some findings in words, not numbers; each must still be true."""
    # H100 and A100 from direct observations; H200 and B200 only on all rows (restated
    # reconstructions included), as the prose says.
    direct = rates.filter(pl.col("pricing") == "on-demand", pl.col("evidence") == "direct")
    every = rates.filter(pl.col("pricing") == "on-demand", pl.col("evidence") == "all")
    pct = dict(zip(direct["gpu_group"], direct["pct_per_year"], strict=True))
    pct_all = dict(zip(every["gpu_group"], every["pct_per_year"], strict=True))
    assert pct["h200"] is None and pct["b200"] is None  # too few direct observations to fit
    # "The steeper figure rests on the reconstruction": all rows fall faster than direct ones.
    assert chapter.q["h100_od_all"].value > chapter.q["h100_od_factor"].value
    assert chapter.q["h100_od_all_n_restated"].value > 0
    pct["h200"], pct["b200"] = pct_all["h200"], pct_all["b200"]
    index_pct = rates.filter(
        pl.col("gpu_group") == "h100", pl.col("pricing") == "index", pl.col("evidence") == "all"
    )
    q = {name: quote.value for name, quote in chapter.q.items()}
    # "A100 prices fall more slowly"; "The publishers' H100 indices fall faster";
    # "The young GPUs move the other way: ... H200 prices rise ... and B200 prices".
    assert pct["h100"] < pct["a100"] < 0
    assert index_pct["pct_per_year"][0] < pct["h100"]
    assert pct["h200"] > 0 and pct["b200"] > 0
    # "One month stands out ... which does not persist"; "became cheaper and then dearer again".
    assert q["index_after_high"] < q["index_high"]
    assert q["index_low"] < 1 and q["index_last"] > q["index_low"]
    # "Hyperscalers charge ... times as much".
    assert q["gap_ci"][0] > 1
    # "The level the claim states is the reconstructions' level, not that of prices anyone was
    # seen to list": on all rows the median month sits inside the claimed range, on direct
    # observations it does not.
    low, high = q["settled_claim_range"]
    assert low <= q["settled_all_median"] <= high
    assert not low <= q["settled_median"] <= high
    # "No provider fell as far as the claim says", on either variant.
    assert q["deepest_drawdown_all"] < q["drawdown_claim"][0]
    assert q["deepest_drawdown"] < q["drawdown_claim"][0]
    # Rental FLOP/s per dollar "grows".
    assert q["rental_pct_ci"][0] > 0
    # "The data cannot test this": no TPU v7 price and no TPU MLPerf result.
    assert q["n_tpu7_prices"] == 0 and q["n_tpu_mlperf"] == 0


def test_the_page_prints_quotes_in_the_house_formats(chapter):
    q = chapter.q
    # A factor per year: three significant figures and an x (1.064 was printed "1.064").
    # (From direct observations the interval spans 1: no change is inside it.)
    low, high = q["h100_od_factor"].low, q["h100_od_factor"].high
    assert 0 < low < high < 10
    assert q["h100_od_factor"].ci.text == f"{low:.3g}x to {high:.3g}x"
    # Dollars: cents from $1; months spelt out; counts with thousands separators.
    assert re.fullmatch(r"\$\d+\.\d\d", q["h100_peak_usd"].text)
    assert re.fullmatch(r"[A-Z][a-z]+ \d{4}", q["h100_peak_month"].text)
    assert q["n_rows"].text == f"{q['n_rows'].value:,}"
    # Markdown metacharacters from the data reach the page escaped.
    assert q["h100_peak_usd"]._repr_markdown_().startswith("\\$")


def test_claim_evidence_gives_the_two_h100_claims_from_the_series(chapter, tables):
    """The evidence by hand from the monthly median across providers: the drawdown is the last
    month against the highest (a magnitude, in percent as the claims table states it), the
    settled level the median, lowest and highest month over the year to the claim."""
    evidence = gh.claim_evidence()
    assert set(evidence) == {"h100-cloud-price-drawdown", "h100-cloud-price-settled"}
    claims = tables["claims"]
    units = dict(claims.select("claim_id", "unit").iter_rows())
    assert units["h100-cloud-price-drawdown"] == "percent"
    assert units["h100-cloud-price-settled"] == "USD per GPU-hour"
    series = (
        gpu_prices.monthly_median_across_providers(tables["direct"], pricing="on-demand")
        .filter(pl.col("gpu_group") == "h100")
        .sort("month")
    )
    values = series["usd_per_gpu_hour"].to_list()
    drawdown = evidence["h100-cloud-price-drawdown"]
    assert drawdown.value == pytest.approx((1 - values[-1] / max(values)) * 100)
    assert drawdown.n == len(values)
    claim_date = claims.filter(pl.col("claim_id") == "h100-cloud-price-settled")["claim_date"][0]
    end = date(claim_date.year, claim_date.month, 1)
    start = date(end.year - 1, end.month + 1, 1) if end.month < 12 else date(end.year, 1, 1)
    year = series.filter(pl.col("month") >= start, pl.col("month") <= end)["usd_per_gpu_hour"]
    settled = evidence["h100-cloud-price-settled"]
    assert settled.n == year.len()  # the months direct observations quote in the year
    # On all rows every month of the year is quoted (the restated reconstructions fill it).
    assert chapter.q["settled_all_n_months"].value == 12
    assert settled.value == pytest.approx(year.median())
    assert (settled.low, settled.high) == (pytest.approx(year.min()), pytest.approx(year.max()))
    for e in evidence.values():
        assert e.testable and e.section == "chapters/gpu-hour-prices.qmd#sec-gpu-hour-prices-claims"


def test_evidence_quotes_name_the_classes_and_the_variants():
    direct = Estimate(
        1.01,
        "factor",
        estimate_id="h100-on-demand-decline",
        low=0.9,
        high=1.1,
        n=26,
        extra={
            "evidence_classes": ["marketplace-median", "observed-listing"],
            "n_providers": 14,
            "n_by_class": {"marketplace-median": 2, "observed-listing": 24},
        },
    )
    every = Estimate(
        1.25,  # a 1.25x fall is a 20% fall a year: 1 / 1.25 = 0.8
        "factor",
        estimate_id="h100-on-demand-decline-all",
        low=1.2,
        high=1.3,
        n=261,
        extra={
            "n_providers": 24,
            "n_by_class": {"observed-listing": 56, "restated-reconstruction": 205},
        },
    )
    q = gh.evidence_quotes(direct, every, every)
    assert q["h100_od_evidence"].text == "observed listing and marketplace median"
    assert q["h100_od_direct_providers"].text == "14"
    assert q["h100_od_all"] is every
    assert q["h100_od_all_pct"].value == pytest.approx(0.20)
    assert (q["h100_od_all_providers"].text, q["h100_od_all_n_restated"].text) == ("24", "205")


def test_the_decline_table_shows_both_evidence_variants(chapter, rates):
    variants = set(rates["evidence"].unique().to_list())
    assert variants == set(gh.TABLE_VARIANTS)
    direct = rates.filter(
        pl.col("evidence") == "direct",
        pl.col("gpu_group") == "h100",
        pl.col("pricing") == "on-demand",
    )
    assert direct["n"][0] == chapter.q["h100_od_factor"].n


def test_interval_reading_says_whether_no_change_is_inside():
    assert gh.interval_reading(0.91, 1.12) == "an interval that includes no change at all"
    assert gh.interval_reading(1.04, 1.09) == "a fall throughout the interval"
    assert gh.interval_reading(0.8, 0.95) == "a rise throughout the interval"


def _evidence_prices() -> pl.DataFrame:
    """Hand-made H100 and V100 on-demand quotes: two sellers' own listings, 2024-01 to 2024-06,
    and one restated reconstruction at $9 in 2024-03 that would make the H100's peak."""
    rows = []
    for month in range(1, 7):
        for provider, usd in (("a-cloud", 4.0 - 0.2 * month), ("b-cloud", 3.0 - 0.1 * month)):
            for gpu in ("h100-sxm", "v100"):
                rows.append((gpu, provider, date(2024, month, 1), usd, "observed-listing"))
    rows.append(("h100-sxm", "c-cloud", date(2024, 3, 1), 9.0, "restated-reconstruction"))
    frame = pl.DataFrame(
        rows, schema=["gpu", "provider", "date", "usd_per_gpu_hour", "evidence_class"], orient="row"
    )
    return frame.with_columns(
        pl.lit("on-demand").alias("pricing"), pl.lit("quote").alias("statistic")
    )


def test_drawdowns_are_of_direct_observations_and_name_their_evidence():
    """By hand: the sellers' medians run from (3.8 + 2.9) / 2 = 3.35 in January to
    (2.8 + 2.4) / 2 = 2.6 in June, a fall of 1 - 2.6 / 3.35 = 22.4% from a January peak. The
    restated $9 quote only enters the all-rows variant: its March median is the median of 3.4,
    2.7 and 9.0 = 3.4, so the peak is March's 3.4 and the fall 1 - 2.6 / 3.4 = 23.5%."""
    q = gh.drawdown_quotes(_evidence_prices(), min_months=6)
    t = _texts(q)
    assert q["h100_drawdown"].value == pytest.approx(1 - 2.6 / 3.35)
    assert t["h100_peak_month"] == "January 2024"
    assert (t["h100_drawdown_evidence"], t["h100_drawdown_providers"]) == (
        "observed listing",
        "2 providers",
    )
    assert q["h100_drawdown_all"].value == pytest.approx(1 - 2.6 / 3.4)
    assert (t["h100_drawdown_all_providers"], t["h100_drawdown_all_n_restated"]) == (
        "3 providers",
        "1",
    )
    # Each seller against its own peak: a-cloud 1 - 2.8 / 3.8 = 26.3%, b-cloud 1 - 2.4 / 2.9.
    assert t["providers_own_peak"] == "2 providers"
    assert t["deepest_provider"] == "a-cloud"
    assert q["deepest_drawdown"].value == pytest.approx(1 - 2.8 / 3.8)
