"""Tests of analysis.methods.gpu_prices on synthetic data with known answers."""

from __future__ import annotations

import math
from datetime import date

import numpy as np
import polars as pl
import pytest

from analysis.methods import gpu_prices as gp
from analysis.methods.claims import claim_row


def _months(n: int, start: date = date(2022, 1, 1)) -> list[date]:
    return [
        date(start.year + (start.month - 1 + k) // 12, (start.month - 1 + k) % 12 + 1, 1)
        for k in range(n)
    ]


def _prices(rows: list[tuple]) -> pl.DataFrame:
    """rows: (gpu, provider, date, pricing, usd)."""
    return pl.DataFrame(
        rows,
        schema=["gpu", "provider", "date", "pricing", "usd_per_gpu_hour"],
        orient="row",
    ).with_columns(pl.lit("quote").alias("statistic"))


def test_decline_recovers_known_rate_within_interval():
    rng = np.random.default_rng(7)
    months = _months(36)
    true_factor = 1.25  # price divided by 1.25 each year = -20% per year
    rows = []
    for provider, level in [("lambda", 2.0), ("runpod", 3.0), ("aws-like", 5.0)]:
        for m in months:
            years = (m - months[0]).days / 365
            price = level * true_factor**-years * math.exp(rng.normal(0, 0.05))
            rows.append(("h100-sxm", provider, m, "on-demand", price))
    out = gp.decline_rates(_prices(rows))
    row = out.row(0, named=True)
    assert row["method"] == "log-linear trend, provider fixed effects"
    assert row["ci90_low"] < true_factor < row["ci90_high"]
    assert row["pct_ci90_low"] < -20.0 < row["pct_ci90_high"]
    assert row["n"] == 108


def test_one_groups_decline_is_that_groups_row_of_all_and_no_other():
    """`only` fits one (gpu_group, pricing) group: an H100 falling 25% a year and an A100 flat,
    two providers each; the H100's row alone, recovering its rate, as among all groups."""
    months = _months(24)
    rows = []
    for provider, level in [("lambda", 2.0), ("runpod", 3.0)]:
        for m in months:
            years = (m - months[0]).days / 365
            rows.append(("h100-sxm", provider, m, "on-demand", level * 1.25**-years))
            rows.append(("a100", provider, m, "on-demand", level))
    every = gp.decline_rates(_prices(rows))
    one = gp.decline_rates(_prices(rows), only=("h100", "on-demand"))
    assert one.height == 1 and every.height == 2
    assert one.row(0, named=True) == every.filter(pl.col("gpu_group") == "h100").row(0, named=True)
    assert one["factor_per_year"][0] == pytest.approx(1.25, rel=1e-9)


def test_decline_without_provider_effects_is_biased_by_provider_mix():
    # Flat prices per provider; a cheap provider appears only in the second half.
    months = _months(24)
    rows = [("a100", "dear", m, "on-demand", 4.0) for m in months]
    rows += [("a100", "cheap", m, "on-demand", 1.0) for m in months[12:]]
    within = gp.decline_rates(_prices(rows)).row(0, named=True)
    pooled = gp.decline_rates(_prices(rows), provider_effects=False).row(0, named=True)
    assert within["factor_per_year"] == pytest.approx(1.0, abs=1e-9)
    assert pooled["factor_per_year"] > 1.5


def test_decline_notes_groups_too_short():
    rows = [("b200", "x", m, "on-demand", 5.0) for m in _months(3)]
    row = gp.decline_rates(_prices(rows)).row(0, named=True)
    assert row["factor_per_year"] is None
    assert "days" in row["note"]


def test_hedonic_index_recovers_month_effects():
    rng = np.random.default_rng(3)
    months = _months(6)
    effects = [1.0, 0.95, 0.9, 0.92, 0.8, 0.75]
    gpu_level = {"h100-sxm": 3.0, "a100-80gb-sxm": 1.5}
    prov_level = {"lambda": 1.0, "aws": 1.8, "runpod": 1.1}
    rows = []
    for m, e in zip(months, effects, strict=True):
        for g, gl in gpu_level.items():
            for p, pv in prov_level.items():
                price = gl * pv * e * math.exp(rng.normal(0, 0.01))
                rows.append((g, p, m, "on-demand", price))
    index, summary = gp.hedonic_index(_prices(rows), base_month=date(2022, 1, 15))
    assert summary["base_period"] == date(2022, 1, 1)
    assert summary["n"] == 36
    got = index["index"].to_list()
    assert got == pytest.approx(effects, rel=0.02)
    for lo, hi, e in zip(index["ci_low"], index["ci_high"], effects, strict=True):
        assert lo <= e <= hi


def test_drawdown_on_hand_made_series():
    series = pl.DataFrame(
        {
            "gpu_group": ["h100"] * 5,
            "pricing": ["on-demand"] * 5,
            "month": _months(5),
            "usd_per_gpu_hour": [3.0, 4.0, 3.5, 2.5, 2.0],
        }
    )
    row = gp.drawdown_table(series, ["gpu_group", "pricing"]).row(0, named=True)
    assert row["peak_month"] == date(2022, 2, 1)
    assert row["peak_usd_per_gpu_hour"] == 4.0
    assert row["latest_usd_per_gpu_hour"] == 2.0
    assert row["drawdown_pct"] == pytest.approx(-50.0)
    assert row["months_since_peak"] == 3


def test_drawdown_uses_median_across_providers():
    m1, m2 = _months(2)
    rows = [
        ("h100-sxm", "a", m1, "on-demand", 2.0),
        ("h100-sxm", "b", m1, "on-demand", 4.0),
        ("h100-sxm", "b", m1, "on-demand", 6.0),  # b's monthly median is 5: counts once
        ("h100-sxm", "a", m2, "on-demand", 1.0),
        ("h100-sxm", "b", m2, "on-demand", 2.0),
    ]
    row = gp.drawdown_from_peak(_prices(rows)).row(0, named=True)
    assert row["peak_usd_per_gpu_hour"] == pytest.approx(3.5)
    assert row["latest_usd_per_gpu_hour"] == pytest.approx(1.5)


def test_hyperscaler_gap_is_ratio_of_medians():
    m = date(2024, 3, 1)
    rows = [
        ("a100-80gb-sxm", "amazon-web-services", m, "on-demand", 4.0),
        ("a100-80gb-sxm", "google-cloud", m, "on-demand", 6.0),
        ("a100-80gb-sxm", "lambda", m, "on-demand", 2.0),
        ("a100-80gb-sxm", "runpod", m, "on-demand", 3.0),
        ("a100-80gb-sxm", "vast.ai", m, "on-demand", 0.5),  # marketplace: excluded
        ("h100-sxm", "microsoft-azure", m, "on-demand", 9.0),
        ("h100-sxm", "coreweave", m, "on-demand", 3.0),
    ]
    pairs, summary = gp.hyperscaler_gap(_prices(rows))
    ratios = dict(zip(pairs["gpu_group"], pairs["ratio"], strict=True))
    assert ratios == pytest.approx({"a100": 5.0 / 2.5, "h100": 3.0})
    assert summary["n"] == 2
    assert summary["geometric_mean_ratio"] == pytest.approx(math.sqrt(2.0 * 3.0))
    assert summary["ci90_low"] < summary["geometric_mean_ratio"] < summary["ci90_high"]


def test_age_from_release_date_with_family_fallback():
    specs = pl.DataFrame(
        {"gpu": ["h100-sxm", "h100-pcie"], "release_date": [date(2022, 9, 20), date(2022, 9, 20)]}
    )
    panel = pl.DataFrame(
        {"gpu_group": ["h100", "h100-sxm", "z9"], "month": [date(2024, 9, 20)] * 3}
    )
    out = gp.with_gpu_age(panel, specs)
    ages = out.sort("gpu_group")["age_months"].to_list()
    assert ages[0] == pytest.approx(731 / (365.25 / 12))
    assert ages[1] == pytest.approx(ages[0])
    assert ages[2] is None


def test_flops_per_dollar_growth_recovered():
    dates = _months(60, date(2015, 1, 1))
    specs = pl.DataFrame(
        {
            "gpu": [f"g{i}" for i in range(60)],
            "release_date": dates,
            "release_price_usd": [1000.0] * 60,
            "fp32_tflop_per_s": [10 * 1.3 ** ((d - dates[0]).days / 365) for d in dates],
        }
    )
    frame = gp.flops_per_dollar_at_release(specs)
    assert frame["flop_per_s_per_usd"][0] == pytest.approx(10e12 / 1000)
    trend = gp.flops_per_dollar_trend(frame)
    assert trend["growth_factor_per_year"] == pytest.approx(1.3, rel=1e-9)
    assert trend["pct_per_year"] == pytest.approx(30.0, rel=1e-6)


def test_pct_change_per_year():
    assert gp.pct_change_per_year(1.25) == pytest.approx(-20.0)
    assert gp.pct_change_per_year(0.8) == pytest.approx(25.0)


def test_step_changes_flag_a_placeholder_jump_with_its_flat_runs():
    months = _months(9)
    spot = [0.5] * 5 + [3.59] * 4  # flat, a 7.18x step, flat
    rows = [("h200", "index-co", m, "spot", p) for m, p in zip(months, spot, strict=True)]
    rows += [("h100", "lambda", m, "on-demand", 3.0 - 0.1 * k) for k, m in enumerate(months)]
    steps = gp.step_changes(_prices(rows), threshold=3.0)
    assert steps.height == 1  # the smooth on-demand series is not flagged
    step = steps.row(0, named=True)
    assert (step["gpu_group"], step["pricing"], step["provider"]) == ("h200", "spot", "index-co")
    assert (step["from_month"], step["to_month"]) == (months[4], months[5])
    assert step["ratio"] == pytest.approx(7.18)
    assert (step["months_at_from_value"], step["months_at_to_value"]) == (5, 4)
    assert gp.step_changes(_prices(rows), threshold=8.0).height == 0


def test_unbroken_months_start_stops_at_the_last_gap():
    months = _months(12)
    kept = months[:3] + months[5:]  # months 4 and 5 missing
    rows = [("a100", "lambda", m, "on-demand", 2.0) for m in kept]
    rows += [("a100", "gpu-price-index", months[3], "on-demand", 2.0)]  # aggregates do not count
    assert gp.unbroken_months_start(_prices(rows)) == months[5]


def test_settled_range_check_counts_months_inside_the_range():
    series = pl.DataFrame(
        {"month": _months(6, date(2026, 4, 1)), "usd_per_gpu_hour": [4.0, 3.0, 2.9, 3.4, 3.6, 2.0]}
    )
    # The 4 months to 2026-09-15: June to September 2026 = 2.9, 3.4, 3.6, 2.0; two inside.
    out = gp.settled_range_check(series, 2.85, 3.5, end=date(2026, 9, 15), months=4)
    assert (out["start"], out["end"], out["n_months"]) == (date(2026, 6, 1), date(2026, 9, 1), 4)
    assert out["share_in_range"] == pytest.approx(0.5)
    assert (out["min"], out["max"]) == (2.0, 3.6)


def test_provider_drawdowns_compare_each_provider_with_itself():
    months = _months(6)
    lambda_prices = [4.0, 3.0, 3.0, 2.0, 2.0, 2.0]
    rows = [
        ("h100-sxm", "lambda", m, "on-demand", p)
        for m, p in zip(months, lambda_prices, strict=True)
    ]
    rows += [("h100-sxm", "aws", m, "on-demand", 10.0) for m in months]
    rows += [("h100-sxm", "short", m, "on-demand", 9.0) for m in months[:2]]
    out = gp.provider_drawdowns(_prices(rows), min_months=6)
    got = {
        r["provider"]: (r["drawdown_pct"], r["provider_class"]) for r in out.iter_rows(named=True)
    }
    assert got == {"lambda": (pytest.approx(-50.0), "smaller cloud"), "aws": (0.0, "hyperscaler")}


def test_drawdown_table_carries_provider_counts_of_peak_and_latest():
    series = pl.DataFrame(
        {
            "gpu_group": ["h100"] * 3,
            "pricing": ["on-demand"] * 3,
            "month": _months(3),
            "usd_per_gpu_hour": [3.0, 7.0, 3.5],
            "n_providers": [5, 2, 8],
        }
    )
    row = gp.drawdown_table(series, ["gpu_group", "pricing"]).row(0, named=True)
    assert (row["peak_n_providers"], row["latest_n_providers"]) == (2, 8)
    assert row["drawdown_pct"] == pytest.approx(-50.0)


def test_price_for_advantage_from_peak_ratio():
    specs = pl.DataFrame({"gpu": ["tpu-x", "gpu-y"], "fp8_tflop_per_s": [4614.0, 4500.0]})
    out = gp.price_for_advantage(specs, "tpu-x", "gpu-y", 6.6, 0.5)
    # 4614 / 4500 = 1.025333; 6.6 x 1.025333 / 1.5 = 4.511467 per hour
    assert out["peak_ratio"] == pytest.approx(1.025333, rel=1e-6)
    assert out["max_challenger_usd_per_hour"] == pytest.approx(4.511467, rel=1e-6)
    with pytest.raises(gp.InsufficientData, match="fp8_tflop_per_s for tpu-z"):
        gp.price_for_advantage(specs, "tpu-z", "gpu-y", 6.6, 0.5)


def test_trend_values_follow_the_fit_and_the_reference_slope():
    dates = _months(60, date(2015, 1, 1))
    frame = pl.DataFrame(
        {
            "release_date": dates,
            "flop_per_s_per_usd": [1e9 * 1.2 ** ((d - dates[0]).days / 365) for d in dates],
        }
    )
    trend = gp.flops_per_dollar_trend(frame)
    ends = [trend["start_date"], trend["end_date"]]
    assert gp.trend_values(trend, ends) == pytest.approx(
        [frame["flop_per_s_per_usd"][0], frame["flop_per_s_per_usd"][-1]], rel=1e-9
    )
    ref = gp.trend_values(trend, ends, growth_per_year=0.3)
    years = (ends[1] - ends[0]).days / 365
    assert ref[1] / ref[0] == pytest.approx(1.3**years, rel=1e-9)


@pytest.mark.parametrize("price", [1.26, 0.9])
def test_decline_of_a_constant_price_has_no_r_squared_and_no_warning(recwarn, price):
    rows = [("tpu-v3", "google-cloud", m, "1-year", price) for m in _months(12)]
    row = gp.decline_rates(_prices(rows)).row(0, named=True)
    assert row["factor_per_year"] == pytest.approx(1.0)
    assert row["r_squared"] is None
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_flops_trend_gives_the_growth_interval_in_percent():
    # Doubling every year, exactly: growth factor 2, +100% a year, interval [2, 2].
    dates = _months(25)
    values = [2 ** ((d - dates[0]).days / 365) for d in dates]
    frame = pl.DataFrame({"release_date": dates, "flop_per_s_per_usd": values})
    trend = gp.flops_per_dollar_trend(frame)
    assert trend["pct_per_year"] == pytest.approx(100.0)
    assert trend["pct_ci90_low"] == pytest.approx((trend["ci90_low"] - 1) * 100)
    assert trend["pct_ci90_high"] == pytest.approx((trend["ci90_high"] - 1) * 100)
    assert trend["pct_ci90_low"] <= trend["pct_per_year"] <= trend["pct_ci90_high"]


def test_fitted_rates_keep_fitted_groups_with_enough_points_less_the_excluded():
    rates = pl.DataFrame(
        {
            "gpu_group": ["h100", "h200", "b200", "a100"],
            "pricing": ["on-demand", "spot", "on-demand", "on-demand"],
            "n": [200, 30, 40, 5],
            "factor_per_year": [1.0636, 0.37, None, 1.1],
        }
    )
    kept = gp.fitted_rates(rates, min_n=10, exclude=[("h200", "spot")])
    # b200 is not fitted, a100 has 5 provider-months, the h200 spot series has a step.
    assert kept["gpu_group"].to_list() == ["h100"]
    assert gp.fitted_rates(rates, min_n=5)["gpu_group"].to_list() == ["h100", "h200", "a100"]
    # Two variants' rates stack in the order given, each filtered by the same rule.
    both = gp.fitted_rates(rates, rates.head(1), min_n=10)
    assert both.height == gp.fitted_rates(rates, min_n=10).height + 1


def test_one_row_names_what_is_missing():
    frame = pl.DataFrame({"gpu": ["h100", "b200"], "v": [1, 2]})
    assert gp.one_row(frame, "b200", pl.col("gpu") == "b200") == {"gpu": "b200", "v": 2}
    assert gp.one_row(frame, "any row")["gpu"] == "h100"
    with pytest.raises(LookupError, match="no row for the a100 price"):
        gp.one_row(frame, "the a100 price", pl.col("gpu") == "a100")


def test_claim_checks_keep_the_order_asked_and_add_the_finding():
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
    checks = gp.claim_checks(claims, {"b": "not in the data", "a": "49% in the data"})
    assert checks["claim_id"].to_list() == ["b", "a"]
    assert checks["data_shows"].to_list() == ["not in the data", "49% in the data"]
    assert checks["value_high"].to_list() == [None, 75.0]
    assert claim_row(claims, "b")["claim"] == "B is 2x"
    with pytest.raises(LookupError, match="no claim_id 'zz'"):
        claim_row(claims, "zz")


def test_panel_evidence_counts_provider_months_per_class():
    # Two providers, three months: "a" listed by its own page in Jan and Feb, "b" a restated
    # reconstruction in Jan, Feb and Mar; a p25 tail row does not count (not central).
    rows = [
        ("a", date(2026, 1, 5), "quote", "observed-listing"),
        ("a", date(2026, 1, 20), "quote", "observed-listing"),  # same provider-month
        ("a", date(2026, 2, 5), "quote", "observed-listing"),
        ("b", date(2026, 1, 1), "median-restated", "restated-reconstruction"),
        ("b", date(2026, 2, 1), "median-restated", "restated-reconstruction"),
        ("b", date(2026, 3, 1), "median-restated", "restated-reconstruction"),
        ("c", date(2026, 3, 1), "p25", "marketplace-median"),
    ]
    frame = pl.DataFrame(
        [
            {
                "gpu": "h100",
                "provider": p,
                "pricing": "on-demand",
                "date": d,
                "statistic": s,
                "usd_per_gpu_hour": 2.0,
                "evidence_class": c,
            }
            for p, d, s, c in rows
        ]
    )
    ev = gp.panel_evidence(frame, "h100", "on-demand")
    assert ev["n"] == 5 and ev["n_providers"] == 2
    assert ev["n_by_class"] == {"observed-listing": 2, "restated-reconstruction": 3}
    assert ev["min_month_providers"] == 1  # March: "b" alone


def test_the_named_selections_of_drawdowns_series_and_ages():
    drawdowns = pl.DataFrame(
        {
            "gpu_group": ["h100", "h100", "tpu-v5e", "a100"],
            "pricing": ["on-demand", "spot", "on-demand", "on-demand"],
            "n_months": [12, 3, 20, 6],
            "drawdown_pct": [-50.0, -10.0, -5.0, -20.0],
        }
    )
    rows = gp.main_series(drawdowns, ["h100", "a100"], min_months=6)
    assert rows.select("gpu_group", "pricing").rows() == [
        ("h100", "on-demand"),
        ("a100", "on-demand"),
    ]
    assert gp.series_drawdown(drawdowns, "h100", "spot")["drawdown_pct"] == -10.0
    with pytest.raises(LookupError, match="on-demand drawdown of b200"):
        gp.series_drawdown(drawdowns, "b200")
    by_age = pl.DataFrame(
        {
            "gpu_group": ["h100", "h100", "b200"],
            "month": [date(2026, 8, 1), date(2026, 9, 1), date(2024, 1, 1)],
            "age_months": [46.0, 47.0, -2.0],
        }
    )
    assert gp.latest_month_of(by_age, "h100")["age_months"] == 47.0
    assert gp.before_release(by_age)["gpu_group"].to_list() == ["b200"]
