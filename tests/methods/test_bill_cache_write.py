"""Cache writes in analysis.methods.bill, on hand-made rate cards: every number worked by hand.

A cache write is billed at `cache_write_usd_per_mtok`; an offer that states no such rate (an
empty cell, or a release that predates the column) cannot bill one: an error naming the offer
and the missing rate, never a zero and never the input rate.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from datetime import date
from decimal import Decimal

import polars as pl
import pytest

from analysis.data import workloads
from analysis.data.errors import DataError
from analysis.data.workloads import Offer, Workload
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
    "cache_write_usd_per_mtok": pl.Float64,
    "batch_input_usd_per_mtok": pl.Float64,
    "batch_output_usd_per_mtok": pl.Float64,
    "row_id": pl.String,
}
# No seller here sells by the hour: one window of another seller's.
WINDOWS = pl.DataFrame(
    {
        "provider": ["elsewhere"],
        "start_hour_utc": [1],
        "end_hour_utc": [4],
        "weekdays": ["mon;tue;wed;thu;fri"],
        "effective_from_utc": ["2026-01-01T00:00:00Z"],
        "effective_until_utc": [None],
    },
    schema_overrides={"effective_until_utc": pl.String},
)


def card(model, kind, inp, out, cached, write, rid, region=None) -> dict:
    start = date(2026, 1, 1)
    return {
        "model_id": model,
        "provider": "lab",
        "price_kind": kind,
        "region": region,
        "currency": "USD",
        "date": start,
        "valid_from": start,
        "valid_to": None,
        "input_usd_per_mtok": inp,
        "output_usd_per_mtok": out,
        "cached_input_usd_per_mtok": cached,
        "cache_write_usd_per_mtok": write,
        "row_id": rid,
    }


# "a": input 4, output 20, cache read 0.2, cache write 5 (the shape of a Claude card);
# "b": the same without a cache-write rate; "b" also sells a second offer (region eu) that has one.
PRICES = pl.DataFrame(
    [
        card("a", "list", 4.0, 20.0, 0.2, 5.0, "a-list"),
        card("b", "list", 4.0, 20.0, 0.2, None, "b-list"),
        card("b", "list", 4.4, 22.0, 0.22, 5.5, "b-eu", region="eu"),
    ],
    schema=COLUMNS,
)
AT = dt.datetime(2026, 6, 1, 12)


def test_cache_writes_are_input_tokens_billed_at_the_write_rate():
    # 100k input: 60k read from the cache, 30k written to it, 10k neither; 2k output.
    request = bill.Request.from_usage(
        input=100_000, cached=60_000, output=2_000, cache_write=30_000
    )
    assert request.tokens() == {
        "input": 10_000,
        "cached_input": 60_000,
        "cache_write": 30_000,
        "output": 2_000,
        "reasoning": 0,
    }
    (b,), _ = bill.request_bills(PRICES, request, "a", AT, windows=WINDOWS, provider="lab")
    # 10k x 4 + 60k x 0.2 + 30k x 5 + 2k x 20 per 1M = 0.04 + 0.012 + 0.15 + 0.04
    assert b.cost("cache_write") == Decimal("0.15")
    assert b.total == Decimal("0.242")
    assert b.row()["cache_write_rate_per_mtok"] == "5"


def test_more_writes_than_uncached_input_is_refused():
    with pytest.raises(ValueError, match="cache-write tokens"):
        bill.Request.from_usage(input=100, cached=60, cache_write=41)


def test_an_offer_without_a_write_rate_is_an_error_naming_the_offer_and_the_rate():
    request = bill.Request.from_usage(input=1_000, output=10, cache_write=500)
    with pytest.raises(DataError) as err:
        bill.request_bills(PRICES, request, "b", AT, windows=WINDOWS, provider="lab")
    text = str(err.value)
    for words in ("b at lab", "cache_write_usd_per_mtok", "no list USD rate for cache_write"):
        assert words in text, text
    assert "token_prices has no such column" not in text  # the column is there, the cell empty


def test_across_sellers_the_offer_without_a_write_rate_is_left_out_with_its_reason():
    request = bill.Request.from_usage(input=1_000, output=10, cache_write=500)
    bills, left_out = bill.request_bills(PRICES, request, "b", AT, windows=WINDOWS)
    assert [(x.provider, x.offer) for x in bills] == [("lab", "eu")]
    # 500 x 4.4 + 500 x 5.5 + 10 x 22 per 1M = 0.0022 + 0.00275 + 0.00022
    assert bills[0].total == Decimal("0.00517")
    assert len(left_out) == 1 and "cache_write_usd_per_mtok" in left_out[0]


@pytest.mark.parametrize(
    "kw, words",
    [
        # no source states a batch cache-write rate: a batch write has none
        ({"batch": True}, ["batch_cache_write_usd_per_mtok", "no such column"]),
        # nor a CNY one
        ({"currency": "CNY"}, ["no CNY price"]),
    ],
)
def test_batch_and_cny_cache_writes_have_no_rate(kw, words):
    request = bill.Request.from_usage(input=1_000, output=10, cache_write=500)
    frame = PRICES.with_columns(
        batch_input_usd_per_mtok=pl.lit(2.0), batch_output_usd_per_mtok=pl.lit(10.0)
    )
    with pytest.raises(DataError) as err:
        bill.request_bills(frame, request, "a", AT, windows=WINDOWS, provider="lab", **kw)
    for w in words:
        assert w in str(err.value), str(err.value)


def test_a_workloads_writes_come_out_of_its_uncached_input():
    w = Workload(
        name="w",
        requests_per_day=10,
        input_tokens=100_000,
        output_tokens=1_000,
        cache_write_tokens=20_000,
        cache_hit_share=0.5,
        compare=(Offer("a", "lab"),),
        date=date(2026, 6, 1),
    )
    (daily,) = bill.workload_bills(PRICES, WINDOWS, w)
    # a request: 30k x 4 + 50k x 0.2 + 20k x 5 + 1k x 20 per 1M = 0.12 + 0.01 + 0.1 + 0.02
    assert daily.by_bucket["cache_write"] == pytest.approx(10 * 0.1)
    assert daily.per_day == pytest.approx(10 * 0.25)
    none = replace(w, compare=(Offer("b", "lab"),))
    with pytest.raises(DataError, match="cache_write_usd_per_mtok"):
        bill.workload_bills(PRICES.filter(pl.col("row_id") != "b-eu"), WINDOWS, none)


def test_a_workload_file_with_more_writes_than_uncached_input_is_refused(tmp_path):
    text = (
        "name: w\nrequests_per_day: 1\n"
        "tokens_per_request: {input: 1000, output: 10, cache_write: 700}\n"
        "cache_hit_share: 0.5\ncompare:\n  - {model: a}\n"
    )
    path = tmp_path / "w.yaml"
    path.write_text(text)
    with pytest.raises(DataError) as err:
        workloads.read(path)
    assert "'tokens_per_request.cache_write'" in str(err.value)
    assert "w.yaml:3" in str(err.value)
