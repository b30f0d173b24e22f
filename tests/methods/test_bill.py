"""analysis.methods.bill on hand-made rate cards: every expected number worked by hand here."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from datetime import date
from decimal import Decimal

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.workloads import Offer, Workload, parse
from analysis.methods import bill

COLUMNS = {
    "model_id": pl.String,
    "provider": pl.String,
    "price_kind": pl.String,
    "context_tier": pl.String,
    "quantization": pl.String,
    "offer": pl.String,
    "region": pl.String,
    "currency": pl.String,
    "date": pl.Date,
    "valid_from": pl.Date,
    "valid_to": pl.Date,
    "input_usd_per_mtok": pl.Float64,
    "output_usd_per_mtok": pl.Float64,
    "cached_input_usd_per_mtok": pl.Float64,
    "batch_input_usd_per_mtok": pl.Float64,
    "batch_output_usd_per_mtok": pl.Float64,
    "input_original_per_mtok": pl.Float64,
    "output_original_per_mtok": pl.Float64,
    "cached_input_original_per_mtok": pl.Float64,
    "row_id": pl.String,
}


def card(model, provider, kind, start, end, inp, out, cached=None, batch=(None, None), rid=""):
    return {
        "model_id": model,
        "provider": provider,
        "price_kind": kind,
        "currency": "USD",
        "date": start,
        "valid_from": start,
        "valid_to": end,
        "input_usd_per_mtok": inp,
        "output_usd_per_mtok": out,
        "cached_input_usd_per_mtok": cached,
        "batch_input_usd_per_mtok": batch[0],
        "batch_output_usd_per_mtok": batch[1],
        "row_id": rid,
    }


PRICES = pl.DataFrame(
    [
        card("m", "lab", "list", date(2026, 1, 1), None, 2.0, 8.0, 0.5, (1.0, 4.0), "m-list"),
        # a promotion inside the list spell: billed while it runs
        card(
            "m",
            "lab",
            "promotional",
            date(2026, 3, 1),
            date(2026, 3, 31),
            1.0,
            4.0,
            0.25,
            rid="m-promo",
        ),
        # a scheduled doubling: its own spell from its date
        card(
            "s", "lab", "promotional", date(2026, 1, 1), date(2026, 12, 31), 0.75, 3.75, rid="s-now"
        ),
        card("s", "lab", "list", date(2027, 1, 1), None, 1.5, 7.5, rid="s-2027"),
        # time of use: peak twice off-peak
        card("t", "tou", "off-peak", date(2026, 1, 1), None, 1.0, 3.0, 0.1, rid="t-off"),
        card("t", "tou", "peak", date(2026, 1, 1), None, 2.0, 6.0, 0.2, rid="t-peak"),
    ],
    schema=COLUMNS,
)
# Peak 01-04 and 06-10 UTC on weekdays: 7 hours a weekday, 35 of the week's 168 hours.
WINDOWS = pl.DataFrame(
    {
        "provider": ["tou", "tou"],
        "start_hour_utc": [1, 6],
        "end_hour_utc": [4, 10],
        "weekdays": ["mon;tue;wed;thu;fri"] * 2,
        "effective_from_utc": ["2026-01-01T00:00:00Z"] * 2,
        "effective_until_utc": [None, None],
    },
    schema_overrides={"effective_until_utc": pl.String},
)
REQUEST = bill.Request.from_usage(input=1_000_000, cached=400_000, output=100_000, reasoning=50_000)


def one(model, at, **kw) -> bill.Bill:
    bills, _ = bill.request_bills(PRICES, REQUEST, model, at, windows=WINDOWS, **kw)
    assert len(bills) == 1
    return bills[0]


def test_list_price_buckets_and_reasoning_at_the_output_rate():
    b = one("m", dt.datetime(2026, 2, 10, 12))
    # 600k x 2 + 400k x 0.5 + 100k x 8 + 50k x 8 per 1M = 1.2 + 0.2 + 0.8 + 0.4
    assert b.total == Decimal("2.6")
    assert b.cost("reasoning") == Decimal("0.4")
    assert b.price_kind == "list" and b.row_ids == ("m-list",)


def test_a_promotion_is_billed_while_it_runs_and_the_list_price_after():
    assert one("m", dt.datetime(2026, 3, 15)).total == Decimal("1.3")  # 0.6 + 0.1 + 0.4 + 0.2
    assert one("m", dt.datetime(2026, 4, 1)).total == Decimal("2.6")


def test_a_scheduled_price_applies_from_its_date():
    request = bill.Request.from_usage(input=1_000_000, output=1_000_000)
    before, _ = bill.request_bills(
        PRICES, request, "s", dt.datetime(2026, 12, 31, 23), windows=WINDOWS
    )
    after, _ = bill.request_bills(PRICES, request, "s", dt.datetime(2027, 1, 1, 0), windows=WINDOWS)
    assert before[0].total == Decimal("4.5") and after[0].total == Decimal("9")


def test_peak_hours_on_weekdays_and_off_peak_at_weekends():
    wednesday_peak = one("t", dt.datetime(2026, 11, 18, 2))
    saturday = one("t", dt.datetime(2026, 11, 21, 2))
    wednesday_noon = one("t", dt.datetime(2026, 11, 18, 12))
    # peak: 600k x 2 + 400k x 0.2 + 150k x 6 = 1.2 + 0.08 + 0.9
    assert wednesday_peak.total == Decimal("2.18") and wednesday_peak.price_kind == "peak"
    assert saturday.total == Decimal("1.09") == wednesday_noon.total


def test_batch_uses_the_batch_columns():
    request = bill.Request.from_usage(input=1_000_000, output=1_000_000)
    bills, _ = bill.request_bills(
        PRICES, request, "m", dt.datetime(2026, 2, 1), batch=True, windows=WINDOWS
    )
    assert bills[0].total == Decimal("5") and bills[0].price_kind == "batch"  # 1 + 4


@pytest.mark.parametrize(
    "model, request_, kw, words",
    [
        # no cached rate on the card: an error, not zero and not the input rate
        ("s", bill.Request(input=10, cached_input=10), {}, ["cached_input", "s at lab"]),
        ("t", bill.Request(input=10), {"batch": True}, ["batch", "t at tou"]),
        ("m", bill.Request(input=10, cache_write=10), {}, ["cache_write", "no such column"]),
        ("m", bill.Request(input=10), {"currency": "CNY"}, ["no CNY price"]),
    ],
)
def test_a_missing_rate_is_an_error_naming_it(model, request_, kw, words):
    with pytest.raises(DataError) as err:
        bill.request_bills(
            PRICES,
            request_,
            model,
            dt.datetime(2026, 6, 1),
            provider="lab" if model != "t" else "tou",
            windows=WINDOWS,
            **kw,
        )
    for w in words:
        assert w in str(err.value)


def test_usage_counts_cached_tokens_inside_input():
    assert bill.Request.from_usage(100, 30, 5).tokens() == {
        "input": 70,
        "cached_input": 30,
        "cache_write": 0,
        "output": 5,
        "reasoning": 0,
    }
    with pytest.raises(ValueError):
        bill.Request.from_usage(10, 20)


WORKLOAD = Workload(
    name="w",
    requests_per_day=168,
    input_tokens=1_000_000,
    output_tokens=0,
    compare=(Offer("t", "tou"),),
    date=date(2026, 11, 16),  # a Monday: the week from it has 5 weekdays and a weekend
)


def test_an_even_spread_pays_peak_in_35_of_168_hours():
    (daily,) = bill.workload_bills(PRICES, WINDOWS, WORKLOAD)
    # 168 requests a day, 1M uncached input each; per hour 7 requests; 35 peak hours a week at 2,
    # 133 at 1: a week costs 7 x (35 x 2 + 133 x 1) = 1421, a day 1421 / 7 = 203.
    assert daily.per_day == pytest.approx(203)
    assert daily.share("input") == pytest.approx(1)


def test_routing_saving_bound_and_profile():
    saving = bill.routing_saving(PRICES, WINDOWS, WORKLOAD, WORKLOAD.date)
    # dearest instant: 168 x 2 = 336 a day; cheapest 168 x 1; spread 203 (above)
    assert saving.bound == pytest.approx(0.5)
    assert saving.typical == pytest.approx(1 - 168 / 203)
    assert saving.dear_share == pytest.approx(35 / 168)  # an even spread: 35 peak hours of 168
    noon = replace(WORKLOAD, dispatch_hours_utc=(0,) * 12 + (1,) + (0,) * 11)  # off-peak only
    assert bill.routing_saving(PRICES, WINDOWS, noon, WORKLOAD.date).dear_share == 0


def test_output_share_and_cost_ratio():
    w = replace(WORKLOAD, output_tokens=1_000_000, dispatch_hours_utc=(0,) * 12 + (1,) + (0,) * 11)
    (daily,) = bill.workload_bills(PRICES, WINDOWS, w)  # noon, off-peak: 1 input + 3 output
    assert bill.output_and_reasoning_share(daily) == pytest.approx(0.75)
    other = replace(daily, by_bucket={k: 2 * v for k, v in daily.by_bucket.items()})
    assert bill.cost_ratio(other, daily) == pytest.approx(2)


def test_a_batch_share_per_offer():
    w = replace(
        WORKLOAD,
        output_tokens=1_000_000,
        batch_share=1.0,
        compare=(Offer("m", "lab"), Offer("t", "tou", batch_share=0.0)),
        dispatch_hours_utc=(0,) * 12 + (1,) + (0,) * 11,
        date=date(2026, 6, 1),
    )
    m, t = bill.workload_bills(PRICES, WINDOWS, w)
    assert m.per_day == pytest.approx(168 * 5)  # batch 1 + 4
    assert t.per_day == pytest.approx(168 * 4)  # noon off-peak 1 + 3


def test_parse_reads_a_workload_and_scales_the_profile():
    w = parse(
        {
            "name": "x",
            "requests_per_day": 10,
            "tokens_per_request": {"input": 100, "output": 5, "reasoning": 7},
            "cache_hit_share": 0.5,
            "dispatch_hours_utc": [2] * 12 + [0] * 12,
            "date": date(2026, 12, 1),
            "compare": [{"model": "a"}, {"model": "b", "provider": "p", "batch_share": 0.5}],
        }
    )
    assert w.dispatch_hours_utc[0] == pytest.approx(1 / 12) and w.dispatch_hours_utc[-1] == 0
    assert w.compare == (Offer("a"), Offer("b", "p", 0.5))
    assert (w.reasoning_tokens, w.cache_write_tokens, w.batch_share) == (7, 0, 0.0)


def test_parse_reports_every_problem():
    with pytest.raises(DataError) as err:
        parse({"name": "", "requests_per_day": "many", "tokens_per_request": {"input": 1}})
    text = str(err.value)
    for key in ("'name'", "'requests_per_day'", "'tokens_per_request.output'", "'compare'"):
        assert key in text


def test_a_leaderboard_run_reproduced_from_its_token_counts(sources_dir):
    """GPT-5.6 Sol (high) in aa-leaderboards-oolong/2026-07-10_llms.json: its index run's output
    tokens (answer + reasoning) at the book's output rate give the published output cost; the
    published input cost lies between every input token cached and none (caching closes it)."""
    import json

    from analysis.data import release as data
    from analysis.methods import prices

    raw = json.loads((sources_dir / "aa-leaderboards-oolong/2026-07-10_llms.json").read_text())
    (m,) = [m for m in raw["models"] if m["name"] == "GPT-5.6 Sol (high)"]
    counts, pricing = m["breakdowns"]["intelligence_index_token_counts"], m["pricing"]
    token_prices, _ = prices.clean(data.load("token_prices"))
    r = bill.run_cost(
        token_prices,
        data.load("tou_windows"),
        "gpt-5.6-sol",
        "openai",
        date(2026, 7, 10),
        counts["inputTokens"],
        counts["outputTokens"],
        pricing["intelligence_index_cost_input"],
        pricing["intelligence_index_cost_output"],
    )
    assert r.book_output == pytest.approx(pricing["intelligence_index_cost_output"], abs=0.01)
    assert (
        r.book_input_all_cached < pricing["intelligence_index_cost_input"] < r.book_input_uncached
    )
    assert 0 < r.implied_cache_hit_share < 1


def test_effective_rates_fold_the_week_into_one_rate_per_bucket():
    frame = bill.bills_frame(bill.workload_bills(PRICES, WINDOWS, WORKLOAD))
    (row,) = bill.effective_rates(frame, [WORKLOAD]).to_dicts()
    # 203 a day for 168M input tokens (see the even-spread test): 203 / 168 per 1M
    assert row["input_rate"] == pytest.approx(203 / 168)
    assert row["cached_input_rate"] is None  # no cached tokens: no average rate, not zero
    assert row["reasoning_rate"] == row["output_rate"]
