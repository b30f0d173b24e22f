"""Blends, currency conversion, constant dollars and Epoch's one-price-per-model selection."""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from analysis.methods import prices


def test_blends():
    df = pl.DataFrame({"input_usd_per_mtok": [3.0], "output_usd_per_mtok": [15.0]})
    assert df.select(prices.blend())[0, 0] == pytest.approx((3 * 3 + 15) / 4)
    assert df.select(prices.blend(ratio=prices.A16Z_BLEND))[0, 0] == pytest.approx(9.0)
    assert df.select(prices.blend(ratio=(10, 1)))[0, 0] == pytest.approx((30 + 15) / 11)


def test_blended_price_uses_a_source_blend_only_when_it_is_the_requested_one():
    df = pl.DataFrame(
        {
            "input_usd_per_mtok": [1.0, None, None],
            "output_usd_per_mtok": [5.0, None, None],
            "blended_usd_per_mtok": [None, 7.5, 4.0],
            "blend": [None, "3:1", "unknown"],
        }
    )
    out = df.select(prices.blended_price()).to_series().to_list()
    assert out == [pytest.approx(2.0), 7.5, None]
    assert df.select(prices.blended_price(prices.A16Z_BLEND)).to_series().to_list() == [
        3.0,
        None,
        None,
    ]


FX = pl.DataFrame(
    {
        "currency": ["CNY", "CNY"],
        "month": [date(2026, 8, 1), date(2026, 9, 1)],
        "per_usd": [7.2, 7.0],
    }
)


def test_cny_converts_at_the_rate_of_the_observations_month():
    df = pl.DataFrame(
        {
            "date": [date(2026, 9, 10), date(2026, 8, 31), date(2026, 9, 1)],
            "currency": ["CNY", "CNY", "USD"],
            "amount": [1.0, 7.2, 3.0],
        }
    )
    out = prices.to_usd(df, FX, ["amount"])
    assert out["amount_usd"].to_list() == [pytest.approx(1 / 7.0), pytest.approx(1.0), 3.0]
    assert out["fx_per_usd"].to_list() == [7.0, 7.2, None]


def test_missing_rate_names_currency_and_month():
    df = pl.DataFrame({"date": [date(2026, 10, 5)], "currency": ["CNY"], "amount": [1.0]})
    with pytest.raises(ValueError, match=r"no exchange rate for CNY in 2026-10"):
        prices.to_usd(df, FX, ["amount"])


def test_latest_rate_is_carried_forward_only_when_asked_and_stated():
    df = pl.DataFrame({"date": [date(2026, 11, 5)], "currency": ["CNY"], "amount": [7.0]})
    out = prices.to_usd(df, FX, ["amount"], max_carry_months=2)
    assert out["amount_usd"][0] == pytest.approx(1.0) and out["fx_month"][0] == date(2026, 9, 1)
    with pytest.raises(ValueError, match="max_carry_months=1"):
        prices.to_usd(df, FX, ["amount"], max_carry_months=1)


CPI = pl.DataFrame({"month": [date(2020, 1, 1), date(2025, 1, 1)], "cpi_u": [250.0, 300.0]})


def test_constant_dollars_restate_in_the_base_month():
    df = pl.DataFrame({"date": [date(2020, 1, 15), date(2025, 1, 2)], "usd": [10.0, 10.0]})
    out = prices.constant_dollars(df, CPI, ["usd"], base_month=date(2025, 1, 1))
    assert out["usd_real"].to_list() == [pytest.approx(12.0), pytest.approx(10.0)]
    with pytest.raises(ValueError, match="base month 2019-01"):
        prices.constant_dollars(df, CPI, ["usd"], base_month=date(2019, 1, 1))


def test_first_party_price_wins_else_median_across_providers():
    df = pl.DataFrame(
        {
            "model_id": ["m", "m", "m", "open", "open", "open"],
            "date": [date(2024, 1, 1)] * 6,
            "provider": ["lab", "cloud-a", "cloud-b", "x", "y", "z"],
            "first_party": [True, False, False, False, False, False],
            "price": [10.0, 1.0, 2.0, 1.0, 2.0, 9.0],
        }
    )
    out = prices.one_price_per_model_date(df, "price").sort("model_id")
    assert out["price"].to_list() == [10.0, 2.0]
    assert out["selection"].to_list() == ["first-party", "median of 3 providers"]


def test_price_in_force_on_a_date():
    df = pl.DataFrame(
        {
            "model_id": ["m"] * 3,
            "provider": ["p"] * 3,
            "date": [date(2024, 1, 1), date(2024, 6, 1), date(2025, 1, 1)],
            "output_usd_per_mtok": [10.0, 5.0, 2.0],
        }
    )
    assert prices.price_on(df, "m", "p", date(2024, 12, 31)) == 5.0
    assert prices.price_on(df, "m", "p", date(2023, 12, 31)) is None


# --- curated releases: clean() and price_in_force() -----------------------------------------


def _flagged() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "model_id": ["a", "b", "c", "d"],
            "flags": [None, "superseded_stale", "output_below_input;superseded_stale", ""],
        }
    )


def test_clean_drops_flagged_rows_and_counts_each_rule():
    kept, removed = prices.clean(_flagged())
    assert kept["model_id"].to_list() == ["a", "d"]
    # a row with two flags counts under both rules
    assert removed == {"output_below_input": 1, "superseded_stale": 2}
    assert kept.columns == ["model_id", "flags"]


def test_clean_can_keep_one_rule_to_show_an_estimate_with_and_without_it():
    kept, removed = prices.clean(_flagged(), keep=("superseded_stale",))
    assert kept["model_id"].to_list() == ["a", "b", "d"]
    assert removed == {"output_below_input": 1}


def test_clean_keeps_everything_of_a_release_without_flags():
    df = pl.DataFrame({"model_id": ["a", "b"]})
    kept, removed = prices.clean(df)
    assert kept.equals(df) and removed == {}


def _spells() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "model_id": ["o3", "o3", "o3"],
            "provider": ["openai"] * 3,
            "date": [date(2025, 5, 1), date(2025, 6, 10), date(2025, 10, 10)],
            "valid_from": [date(2025, 5, 1), date(2025, 6, 10), None],  # the last is a stale copy
            "valid_to": [date(2025, 6, 9), None, None],
            "output_usd_per_mtok": [40.0, 8.0, 40.0],
        }
    )


@pytest.mark.parametrize(
    ("on", "expected"),
    [
        (date(2025, 4, 30), []),
        (date(2025, 5, 1), [40.0]),
        (date(2025, 6, 9), [40.0]),  # valid_to is the last day in force
        (date(2025, 6, 10), [8.0]),
        (date(2026, 11, 1), [8.0]),  # open-ended; the stale copy is never in force
    ],
)
def test_price_in_force_reads_spells(on, expected):
    assert prices.price_in_force(_spells(), on)["output_usd_per_mtok"].to_list() == expected


def test_an_open_spell_ends_where_a_later_version_opens_the_next():
    """A version cut from a release adds the new price's spell and leaves the released one open
    (released rows are never rewritten): the new spell closes it the day before it begins."""
    later = pl.DataFrame(
        {
            "model_id": ["o3"],
            "provider": ["openai"],
            "date": [date(2026, 7, 24)],
            "valid_from": [date(2026, 7, 24)],
            "valid_to": [None],
            "output_usd_per_mtok": [4.0],
        }
    )
    both = pl.concat([_spells(), later], how="diagonal_relaxed")
    out = {d: prices.price_in_force(both, d)["output_usd_per_mtok"].to_list() for d in (
        date(2026, 7, 23), date(2026, 7, 24), date(2026, 11, 1))}  # fmt: skip
    assert out == {date(2026, 7, 23): [8.0], date(2026, 7, 24): [4.0], date(2026, 11, 1): [4.0]}
    # another seller's spell does not close it
    other = later.with_columns(pl.lit("azure").alias("provider"))
    mixed = pl.concat([_spells(), other], how="diagonal_relaxed")
    assert prices.price_in_force(mixed, date(2026, 8, 1))["output_usd_per_mtok"].to_list() == [
        8.0,
        4.0,
    ]


def test_price_in_force_on_a_release_without_spells_is_the_latest_observation():
    old = (
        _spells()
        .drop("valid_from", "valid_to")
        .with_columns(pl.Series("output_usd_per_mtok", [40.0, 8.0, 40.0]))
    )
    assert prices.price_in_force(old, date(2025, 7, 1))["output_usd_per_mtok"].to_list() == [8.0]
    # the old release keeps showing stale copies as the latest observation: that is why spells
    assert prices.price_in_force(old, date(2025, 11, 1))["output_usd_per_mtok"].to_list() == [40.0]
    assert prices.price_on(old, "o3", "openai", date(2025, 11, 1)) == 40.0


def _tou_offer() -> tuple[pl.DataFrame, pl.DataFrame]:
    """DeepSeek-like: a peak and an off-peak card from 2026-08-16 and, after the 2026-08-22
    rule, peak windows 01-04 and 06-10 UTC on weekdays only (before it, every day)."""
    cards = pl.DataFrame(
        {
            "model_id": ["v4-pro", "v4-pro", "other"],
            "provider": ["deepseek", "deepseek", "acme"],
            "price_kind": ["peak", "off-peak", "list"],
            "currency": ["USD", "USD", "USD"],
            "date": [date(2026, 8, 17), date(2026, 8, 16), date(2026, 1, 1)],
            "valid_from": [date(2026, 8, 17), date(2026, 8, 16), date(2026, 1, 1)],
            "valid_to": [None, None, None],
            "input_usd_per_mtok": [1.32, 0.66, 1.0],
        },
        schema_overrides={"valid_to": pl.Date},
    )
    every, week = "mon;tue;wed;thu;fri;sat;sun", "mon;tue;wed;thu;fri"
    rows = [
        (1, 4, every, "2026-08-16T16:00:00Z", "2026-08-22T16:00:00Z"),
        (6, 10, every, "2026-08-16T16:00:00Z", "2026-08-22T16:00:00Z"),
        (1, 4, week, "2026-08-22T16:00:00Z", None),
        (6, 10, week, "2026-08-22T16:00:00Z", None),
    ]
    windows = pl.DataFrame(
        rows,
        schema=[
            "start_hour_utc",
            "end_hour_utc",
            "weekdays",
            "effective_from_utc",
            "effective_until_utc",
        ],
        orient="row",
    ).with_columns(pl.lit("deepseek").alias("provider"))
    return cards, windows


@pytest.mark.parametrize(
    ("on", "hour", "kind"),
    [
        (date(2026, 9, 14), 2, "peak"),  # a Monday, 02 UTC: in 01-04
        (date(2026, 9, 14), 4, "off-peak"),  # the window ends at 04:00
        (date(2026, 9, 14), 9, "peak"),  # in 06-10
        (date(2026, 9, 14), 12, "off-peak"),
        (date(2026, 9, 12), 2, "off-peak"),  # a Saturday after the weekend rule
        (date(2026, 8, 22), 2, "peak"),  # Saturday 22 Aug 02 UTC: before the rule (16:00)
    ],
)
def test_price_in_force_at_an_hour_takes_the_time_of_use_rate_billed_then(on, hour, kind):
    cards, windows = _tou_offer()
    got = prices.price_in_force(cards, on, hour=hour, windows=windows)
    deepseek = got.filter(pl.col("provider") == "deepseek")
    assert deepseek["price_kind"].to_list() == [kind]
    assert got.filter(pl.col("provider") == "acme").height == 1  # no windows: its one price


def test_price_in_force_without_an_hour_gives_both_rates_and_names_the_default():
    cards, windows = _tou_offer()
    got = prices.price_in_force(cards, date(2026, 9, 14))
    assert sorted(got.filter(pl.col("provider") == "deepseek")["price_kind"]) == [
        "off-peak",
        "peak",
    ]
    assert prices.TOU_STANDARD == "off-peak"
    with pytest.raises(ValueError, match="tou_windows"):
        prices.price_in_force(cards, date(2026, 9, 14), hour=2)
    with pytest.raises(ValueError, match=r"0\.\.23"):
        prices.price_in_force(cards, date(2026, 9, 14), hour=24, windows=windows)


def test_each_price_keeps_the_sources_of_the_rows_it_was_chosen_from():
    """By hand: model m has a first-party row (two sources state it) and two cloud rows; its
    price is the first party's, so only those two sources. Model open has three providers; the
    median counts all three, so all their sources, once each, sorted. A row without a
    `source_ids` cell falls back to its `source_id`."""
    df = pl.DataFrame(
        {
            "model_id": ["m", "m", "m", "open", "open", "open"],
            "date": [date(2024, 1, 1)] * 6,
            "provider": ["lab", "cloud-a", "cloud-b", "x", "y", "z"],
            "first_party": [True, False, False, False, False, False],
            "price": [10.0, 1.0, 2.0, 1.0, 2.0, 9.0],
            "source_id": ["lab-page", "scrape-a", "scrape-b", "s-x", "s-y", "s-z"],
            "source_ids": ["lab-page;copy", None, None, "s-x", "s-y;s-x", None],
        }
    )
    out = prices.one_price_per_model_date(df, "price").sort("model_id")
    assert out["sources"].to_list() == ["copy;lab-page", "s-x;s-y;s-z"]
    assert (
        "sources"
        not in prices.one_price_per_model_date(df.drop("source_id", "source_ids"), "price").columns
    )
