"""time_of_use on hand-made windows and rate cards, each expected number worked by hand."""

from __future__ import annotations

import datetime as dt
from datetime import date

import polars as pl
import pytest

from analysis.methods import time_of_use as tou

UTC = dt.UTC


def _windows() -> pl.DataFrame:
    # Copy 1 (observed Aug 20): one window 01-04 every day. Copy 2 (Aug 22): the same window
    # every day until Aug 22 16:00, then weekdays only, plus 06-10 on weekdays.
    every = "mon;tue;wed;thu;fri;sat;sun"
    week = "mon;tue;wed;thu;fri"
    rows = [
        (1, 4, every, "2026-08-16T16:00:00Z", None, date(2026, 8, 20)),
        (1, 4, every, "2026-08-16T16:00:00Z", "2026-08-22T16:00:00Z", date(2026, 8, 22)),
        (1, 4, week, "2026-08-22T16:00:00Z", None, date(2026, 8, 22)),
        (6, 10, week, "2026-08-22T16:00:00Z", None, date(2026, 8, 22)),
    ]
    return pl.DataFrame(
        rows,
        schema=[
            "start_hour_utc",
            "end_hour_utc",
            "weekdays",
            "effective_from_utc",
            "effective_until_utc",
            "observed",
        ],
        orient="row",
    ).with_columns(pl.lit("src").alias("source_id"))


def test_newest_copy_and_instant_decide_the_windows():
    w = _windows()
    late = tou.windows_in_force(w, dt.datetime(2026, 9, 1, tzinfo=UTC), "src")
    assert sorted(late["start_hour_utc"].to_list()) == [1, 6]  # copy 1's rule is superseded
    early = tou.windows_in_force(w, dt.datetime(2026, 8, 20, tzinfo=UTC), "src")
    assert early["weekdays"].to_list() == ["mon;tue;wed;thu;fri;sat;sun"]
    assert tou.regime_start(w, "src") == dt.datetime(2026, 8, 16, 16, tzinfo=UTC)
    with pytest.raises(LookupError, match="no rows of source 'other'"):
        tou.windows_in_force(w, dt.datetime(2026, 9, 1, tzinfo=UTC), "other")


def test_weekly_schedule_counts_peak_hours_and_windows():
    live = tou.windows_in_force(_windows(), dt.datetime(2026, 9, 1, tzinfo=UTC), "src")
    s = tou.weekly_schedule(live)
    assert s.height == 168
    # (4 - 1) + (10 - 6) = 7 hours on each of 5 weekdays = 35.
    assert s["peak"].sum() == 35
    mon = s.filter(pl.col("day") == "mon", pl.col("peak"))["hour_utc"].to_list()
    assert mon == [1, 2, 3, 6, 7, 8, 9]  # end hours are exclusive
    assert not s.filter(pl.col("day") == "sun")["peak"].any()
    assert tou.windows_per_day(live, "mon") == 2
    assert tou.windows_per_day(live, "sat") == 0


PEAK = tou.Rates("USD", input=2.0, output=8.0, cached_input=0.2)
OFF = tou.Rates("USD", input=1.0, output=4.0, cached_input=0.1)


def test_bill_and_saving_by_hand():
    w = tou.Workload("w", input_mtok=30, output_mtok=10)
    assert tou.bill(PEAK, w) == 30 * 2 + 10 * 8  # 140
    assert tou.bill(OFF, w) == 70
    live = tou.windows_in_force(_windows(), dt.datetime(2026, 9, 1, tzinfo=UTC), "src")
    s = tou.routing_saving(tou.weekly_schedule(live), PEAK, OFF, w)
    # Even spread: (35 x 140 + 133 x 70) / 168 = 84.583...; off-peak saves 1 - 70 / 84.583.
    spread = (35 * 140 + 133 * 70) / 168
    assert s.spread == pytest.approx(spread)
    assert s.saving_from_spread == pytest.approx(1 - 70 / spread)
    assert s.saving_from_peak == pytest.approx(0.5)
    hourly = tou.hourly_prices(tou.weekly_schedule(live), PEAK, OFF, w)
    # 40M tokens: 140 / 40 = 3.5 per 1M at peak, 70 / 40 = 1.75 off-peak.
    assert sorted(set(hourly["price_per_mtok"].to_list())) == [1.75, 3.5]


def test_a_card_without_a_bucket_refuses_tokens_in_it():
    no_cache = tou.Rates("CNY", input=1.0, output=2.0, cached_input=None)
    with pytest.raises(ValueError, match="no cached_input tokens"):
        tou.bill(no_cache, tou.Workload("w", 1, 1, cached_input_mtok=5))


def test_rate_ratios_skip_buckets_a_card_lacks():
    flat = tou.Rates("CNY", input=1.0, output=2.0, cached_input=None)
    rows = tou.rate_ratios(tou.Rates("CNY", 3.0, 9.0, 0.1), flat, "peak")
    assert [(r["bucket"], r["ratio"]) for r in rows] == [("input", 3.0), ("output", 4.5)]


def _prices() -> pl.DataFrame:
    rows = [
        # flat card, retired Aug 16; off-peak from Aug 16; peak from Aug 17 (open spells)
        ("m", "list", "CNY", 1.0, 2.0, date(2026, 8, 13), date(2026, 8, 16)),
        ("m", "off-peak", "CNY", 1.5, 4.5, date(2026, 8, 16), None),
        ("m", "list", "CNY", 3.0, 9.0, date(2026, 8, 17), None),
    ]
    return pl.DataFrame(
        rows,
        schema=[
            "model_id",
            "price_kind",
            "currency",
            "input_original_per_mtok",
            "output_original_per_mtok",
            "valid_from",
            "valid_to",
        ],
        orient="row",
    ).with_columns(
        pl.lit("p").alias("provider"),
        pl.lit(None, dtype=pl.String).alias("context_tier"),
        *[
            pl.lit(None, dtype=pl.Float64).alias(c)
            for c in ["cached_input_original_per_mtok", "input_usd_per_mtok"]
        ],
        pl.col("valid_from").alias("date"),
    )


def test_card_reads_the_spell_in_force():
    p = _prices()
    assert tou.card(p, "m", "p", "list", "CNY", date(2026, 8, 15)).input == 1.0
    assert tou.card(p, "m", "p", "list", "CNY", date(2026, 9, 1)).output == 9.0
    assert tou.card(p, "m", "p", "off-peak", "CNY", date(2026, 9, 1)).input == 1.5
    with pytest.raises(LookupError, match="expected one off-peak USD card"):
        tou.card(p, "m", "p", "off-peak", "USD", date(2026, 9, 1))


def test_an_offer_on_a_day_and_its_rises_over_the_flat_card():
    # The hand-made windows start Aug 16 16:00 UTC, so the flat card's last day is Aug 15. The
    # old-release `list` row open from Aug 17 is the peak rate (3/9); off-peak 1.5/4.5; the
    # flat card 1/2: off-peak rises 1.5x (input) and 2.25x (output), peak 3x and 4.5x.
    p, w = _prices(), _windows()
    assert tou.flat_card_day(w, "src") == date(2026, 8, 15)
    assert tou.flat_card(p, w, "src", "p", "m", "CNY").output == 2.0
    offer = tou.offer_on(p, w, "src", "p", "m", "CNY", date(2026, 9, 1))
    assert (offer.peak.input, offer.off_peak.input) == (3.0, 1.5)
    assert offer.schedule["peak"].sum() == 35  # the newest copy's two weekday windows
    assert sorted(offer.windows["start_hour_utc"].to_list()) == [1, 6]
    rises = tou.rises_over_flat_card(p, w, "src", "p", ["m"], "CNY", date(2026, 9, 1))
    got = {(r["card"], r["bucket"]): r["ratio"] for r in rises.iter_rows(named=True)}
    assert got == {
        ("off-peak", "input"): 1.5,
        ("off-peak", "output"): 2.25,
        ("peak", "input"): 3.0,
        ("peak", "output"): 4.5,
    }
