"""price_war on hand-made price rows, each expected number worked by hand."""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from analysis.methods import price_war as pw

COLUMNS = [
    "model_id",
    "date",
    "input_usd_per_mtok",
    "output_usd_per_mtok",
    "price_kind",
    "source_id",
    "context_tier",
]


def _prices(rows) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=COLUMNS, orient="row").with_columns(
        pl.lit(True).alias("first_party"),
        pl.lit("USD").alias("currency"),
        pl.lit(None, dtype=pl.String).alias("blend"),
        pl.lit(None, dtype=pl.Float64).alias("blended_usd_per_mtok"),
        pl.lit("p").alias("provider"),
    )


ROWS = [
    # old model: $5/$25 since Jan 1 (seen again Mar 1), a long-context tier, a digest row
    ("old", date(2026, 1, 1), 5.0, 25.0, "list", "a", None),
    ("old", date(2026, 3, 1), 5.0, 25.0, "list", "b", None),
    ("old", date(2026, 3, 1), 10.0, 40.0, "list", "b", ">200k"),
    # new model: the digest says $1/$1 first, the price table $2.5/$12.5 (half the old price)
    ("new", date(2026, 9, 1), 1.0, 1.0, "reported", "digest-x", None),
    ("new", date(2027, 1, 1), 2.5, 12.5, "list", "c", None),
    ("fast", date(2026, 1, 3), 1.0, 1.0, "list", "c", None),
    ("fast-old", date(2026, 1, 1), 10.0, 10.0, "list", "a", None),
]


def test_comparable_rows_leave_out_digests_tiers_and_reported_rows():
    rows = pw.comparable_rows(_prices(ROWS))
    assert "digest-x" not in rows["source_id"].to_list()
    assert rows["context_tier"].null_count() == rows.height
    # blend (3 x 5 + 25) / 4 = 10
    assert rows.filter(pl.col("model_id") == "old")["blended"].to_list() == [10.0, 10.0]


def test_a_cut_of_two_over_a_year_against_a_trend():
    # old $5/$25 (blend 10) since 2026-01-01; new $2.5/$12.5 (blend 5) on 2027-01-01: 365 days.
    cuts = pw.cuts(
        _prices(ROWS), {"new": "old"}, date(2026, 6, 1), date(2027, 6, 1), (3.0, 2.5, 4.0)
    )
    r = cuts.row(0, named=True)
    assert (r["factor"], r["days"], r["previous_since"]) == (2.0, 365, date(2026, 1, 1))
    assert r["factor_per_year"] == pytest.approx(2.0)
    assert r["trend_factor_over_span"] == pytest.approx(3.0)
    assert r["verdict"] == pw.SLOWER  # 2 a year is below the interval 2.5 to 4


def test_a_fast_cut_is_a_break_and_equal_prices_no_cut():
    # 10x in 2 days annualises to 10 ** (365 / 2): far above any trend.
    cuts = pw.cuts(
        _prices(ROWS), {"fast": "fast-old"}, date(2026, 1, 2), date(2026, 1, 5), (3.0, 2.5, 4.0)
    )
    assert cuts["verdict"][0] == pw.BREAK
    assert pw.against_trend(1.0, 1.0, 2.5, 4.0) == pw.NO_CUT
    assert pw.against_trend(1.5, 3.0, 2.5, 4.0) == pw.IN_LINE
    assert pw.against_trend(0.8, 0.5, 2.5, 4.0) == pw.NO_CUT  # a rise


def test_annualised_by_hand_and_errors():
    assert pw.annualised(4.0, 730) == pytest.approx(2.0)  # 4 over two years is 2 a year
    with pytest.raises(ValueError, match="at least one day"):
        pw.annualised(2.0, 0)
    with pytest.raises(LookupError, match="no comparable price of old dated"):
        pw.cuts(_prices(ROWS), {"old": "new"}, date(2030, 1, 1), date(2030, 2, 1), (3, 2, 4))


def test_scheduled_change_costs_a_workload_before_and_after():
    rows = [
        ("g", date(2026, 9, 20), 0.75, 3.75, "promotional", "s", None),
        ("g", date(2027, 1, 1), 1.5, 7.5, "list", "s", None),
    ]
    b = pw.scheduled_change(_prices(rows), "g", date(2027, 1, 1), 300, 100)
    # 300 x 0.75 + 100 x 3.75 = 600; 300 x 1.5 + 100 x 7.5 = 1,200.
    assert (b.before, b.after, b.factor) == (600.0, 1200.0, 2.0)
    assert (b.input_factor, b.output_factor) == (2.0, 2.0)
    with pytest.raises(LookupError, match="expected one price of g dated 2028-01-01"):
        pw.scheduled_change(_prices(rows), "g", date(2028, 1, 1), 1, 1)


def test_lowest_rates_skip_zero_and_digest_rows():
    frame = pl.DataFrame(
        {
            "model_id": ["a", "b", "c", "d", "e", "e"],
            "provider": ["x", "y", "z", "w", "v", "v"],
            "price_kind": ["list", "list", "list", "list", "off-peak", "peak"],
            "currency": ["USD"] * 6,
            "source_id": ["s", "s", "digest-1", "s", "s", "s"],
            "input_usd_per_mtok": [0.0, 0.02, 0.001, 0.05, 0.03, 0.015],
            "output_usd_per_mtok": [0.1, 0.04, 0.001, 0.03, 0.06, 0.03],
            "cached_input_usd_per_mtok": [None, 0.005, None, None, None, None],
            "valid_from": [date(2026, 1, 1)] * 6,
            "valid_to": [None, None, None, date(2026, 2, 1), None, None],
        }
    ).with_columns(pl.col("valid_to").cast(pl.Date))
    low = pw.lowest_rates(frame, date(2026, 6, 1))
    by = {r["bucket"]: r for r in low.iter_rows(named=True)}
    # 0 skipped; e's peak rate (a made-up 0.015, below b's) is not its standard rate.
    assert (by["input"]["model_id"], by["input"]["usd_per_mtok"]) == ("b", 0.02)
    assert by["output"]["model_id"] == "b"  # d's spell ended; c is a digest
    assert by["cached input"]["usd_per_mtok"] == 0.005


def test_the_cuts_named_by_id_and_one_cut_by_its_model():
    cuts = pw.cuts(
        _prices(ROWS),
        {"new": "old", "fast": "fast-old"},
        date(2026, 1, 2),
        date(2027, 6, 1),
        (3.0, 2.5, 4.0),
    )
    named = pw.named_by_id(cuts)
    assert named["name"].to_list() == named["model_id"].to_list()
    assert named["previous_name"].to_list() == named["previous_model_id"].to_list()
    # new: blend (3 x 2.5 + 12.5) / 4 = 5 against old's 10.
    assert pw.cut_of(named, "new")["factor"] == 2.0
    assert pw.cut_of(named, "new")["previous_model_id"] == "old"
    with pytest.raises(LookupError, match="old is not a new model of the cuts"):
        pw.cut_of(named, "old")
    # fast (10x in 2 days) is a break, new (2 a year, below 2.5 to 4) slower than the trend.
    assert pw.n_verdict(named, pw.BREAK) == 1
    assert pw.n_verdict(named, pw.SLOWER) == 1
    assert pw.n_verdict(named, pw.NO_CUT) == 0


def test_the_latest_promotional_price_before_a_day():
    rows = [
        ("m", date(2026, 1, 1), 4.0, 8.0, "list", "s", None),
        ("m", date(2026, 2, 1), 2.0, 4.0, "promotional", "s", None),
        ("m", date(2026, 3, 1), 1.0, 2.0, "promotional", "s", None),
        ("m", date(2026, 4, 1), 0.5, 1.0, "promotional", "s", None),
    ]
    p = pw.promotional_before(_prices(rows), "m", date(2026, 4, 1))
    assert (p["date"], p["input_usd_per_mtok"], p["output_usd_per_mtok"]) == (
        date(2026, 3, 1),
        1.0,
        2.0,
    )
    assert p["blended"] == (3 * 1.0 + 2.0) / 4
    assert pw.promotional_before(_prices(rows), "m", date(2026, 2, 1)) is None


def test_cny_cards_converted_at_the_month_beside_the_usd_card():
    # One source publishes a CNY and a USD off-peak card of one model; another source's row is
    # not its card. At 7.0 CNY per USD, 7 and 14 yuan are 1 and 2 dollars; the USD card says
    # 1.01 and 2, so the largest gap is 1 / 1.01 - 1, about 0.99%.
    base = {
        "provider": "ds",
        "model_id": "m",
        "price_kind": "off-peak",
        "valid_from": date(2026, 9, 1),
        "valid_to": None,
        "date": date(2026, 9, 1),
    }
    rows = [
        {**base, "source_ids": "src", "currency": "CNY", "in_cny": 7.0, "out_cny": 14.0},
        {**base, "source_ids": "src", "currency": "USD", "in_usd": 1.01, "out_usd": 2.0},
        {**base, "source_ids": "other", "currency": "CNY", "in_cny": 70.0, "out_cny": 140.0},
    ]
    tp = pl.DataFrame(
        [
            {
                **{k: v for k, v in r.items() if not k.startswith(("in_", "out_"))},
                "input_original_per_mtok": r.get("in_cny"),
                "output_original_per_mtok": r.get("out_cny"),
                "input_usd_per_mtok": r.get("in_usd"),
                "output_usd_per_mtok": r.get("out_usd"),
            }
            for r in rows
        ]
    )
    fx = pl.DataFrame({"currency": ["CNY"], "month": [date(2026, 9, 1)], "per_usd": [7.0]})
    cards = pw.cny_cards(tp, fx, "ds", "src", ["m"], {"m": "Model M"})
    assert cards.height == 1
    card = cards.row(0, named=True)
    assert (card["name"], card["card"]) == ("Model M", "off-peak")
    assert card["input_original_per_mtok_usd"] == pytest.approx(1.0)
    assert card["output_original_per_mtok_usd"] == pytest.approx(2.0)
    assert card["published_input_usd"] == 1.01
    assert pw.largest_conversion_gap(cards) == pytest.approx(1 - 1 / 1.01)


def test_names_fall_back_to_the_id():
    models = pl.DataFrame({"model_id": ["a", "b"], "name": ["A one", None]})
    assert pw.names(models) == {"a": "A one", "b": "b"}
