"""DeepSeek time-of-use cards: peak/off-peak/flat rates per currency, dated in UTC; the windows."""

from __future__ import annotations

import copy
import datetime as dt
import json

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import deepseek_tou
from analysis.data.schema import TABLES

TOKEN_PRICES_KEY = TABLES["token_prices"].primary_key

FOLDER = "deepseek-tou-ratecards"
PEAK_UTC = [h in (1, 2, 3, 6, 7, 8, 9) for h in range(24)]


def rates(hit, miss, out):
    return {"hit": hit, "miss": miss, "out": out}


DSH_V1 = {
    "schema": "dsh-meter/pricing@1",
    "unit": "currency per 1M tokens",
    "timeOfUse": {
        "since": "2026-08-16T16:00:00.000Z",
        "peakWindowsUtc": [
            {"startHourUtc": 1, "endHourUtc": 4},
            {"startHourUtc": 6, "endHourUtc": 10},
        ],
        "scheduleUtc": ["peak" if p else "offpeak" for p in PEAK_UTC],
        "offPeakIsHalfOfPeak": True,
        "anchor": {
            "timezone": "Asia/Shanghai",
            "utcOffsetHours": 8,
            "observesDaylightSaving": False,
        },
    },
    "models": {
        "deepseek-v4-flash": {
            "rates": {
                "offpeak": {"usd": rates(0.007, 0.22, 0.66), "cny": rates(0.05, 1.5, 4.5)},
                "peak": {"usd": rates(0.014, 0.44, 1.32), "cny": rates(0.1, 3, 9)},
            },
            "retired": {
                "flat": {
                    "usd": rates(0.0028, 0.14, 0.28),
                    "cny": rates(0.02, 1, 2),
                    "until": "2026-08-16T16:00:00.000Z",
                }
            },
        }
    },
}


def dsh_v2():
    doc = copy.deepcopy(DSH_V1)
    doc["schema"] = "dsh-meter/pricing@2"
    tou = doc["timeOfUse"]
    del tou["scheduleUtc"]
    tou["weekend"] = {
        "offPeakAllDay": True,
        "daysBeijing": [0, 6],
        "since": "2026-08-22T16:00:00.000Z",
    }
    weekday = ["peak" if h in (9, 10, 11, 14, 15, 16, 17) else "offpeak" for h in range(24)]
    tou["scheduleBeijing"] = [["offpeak"] * 24, *[weekday] * 5, ["offpeak"] * 24]
    return doc


PDF = {
    "_comment": ["高峰时段北京时间 9:00-12:00、14:00-18:00，即 UTC 01:00-04:00、06:00-10:00。"],
    "source": {"deepseek": "https://api-docs.deepseek.com/zh-cn/quick_start/pricing"},
    "checked_at": "2026-08-24",
    "regimes": [
        {
            "effective_from": "1970-01-01T00:00:00Z",
            "peak_hours_utc": [],
            "rates": {
                "deepseek-v4-pro": {
                    "off_peak": {"cache_hit": 0.025, "cache_miss": 3.0, "output": 6.0}
                },
                "gpt-5.6-luna": {
                    "off_peak": {
                        "cache_hit": 0.02,
                        "cache_miss": 0.2,
                        "output": 1.2,
                        "cache_write": 0.25,
                    }
                },
            },
        },
        {
            "effective_from": "2026-08-16T16:00:00Z",
            "peak_hours_utc": [[1, 4], [6, 10]],
            "rates": {
                "deepseek-v4-pro": {
                    "off_peak": {"cache_hit": 0.15, "cache_miss": 4.5, "output": 13.5},
                    "peak": {"cache_hit": 0.3, "cache_miss": 9.0, "output": 27.0},
                },
                "gpt-5.6-luna": {
                    "off_peak": {
                        "cache_hit": 0.02,
                        "cache_miss": 0.2,
                        "output": 1.2,
                        "cache_write": 0.25,
                    }
                },
            },
        },
    ],
}


def _add(tree, name, doc, day):
    tree.add(
        f"{FOLDER}/{day}_{name}", json.dumps(doc, ensure_ascii=False, indent=2), commit_date=day
    )


def _prices(df, model, kind, currency):
    f = df.filter(
        (pl.col("source_model_name") == model)
        & (pl.col("price_kind") == kind)
        & (pl.col("currency") == currency)
    )
    return f.sort("date").rows(named=True)


def test_each_tariff_and_currency_is_a_row_dated_when_first_billed(tree):
    _add(tree, "dsh-meter__docs__pricing.json", DSH_V1, "2026-08-20")
    tp = deepseek_tou.build(tree.root, key=TOKEN_PRICES_KEY)["token_prices"]
    off = _prices(tp, "deepseek-v4-flash", "off-peak", "CNY")[0]
    # 16:00 UTC on Sunday 2026-08-16 is midnight in Beijing: off-peak billed from that day.
    assert (off["date"], off["last_seen"]) == (dt.date(2026, 8, 16), dt.date(2026, 8, 20))
    assert (off["input_original_per_mtok"], off["output_original_per_mtok"]) == (1.5, 4.5)
    assert off["cached_input_original_per_mtok"] == 0.05 and off["input_usd_per_mtok"] is None
    # The peak rate is its own kind (`peak`), the flat card the standard `list` price.
    [flat] = _prices(tp, "deepseek-v4-flash", "list", "USD")
    [peak] = _prices(tp, "deepseek-v4-flash", "peak", "USD")
    # The flat card was billed until 16:00 that Sunday; the first peak hour is Monday 01:00 UTC.
    assert (flat["date"], flat["last_seen"], flat["input_usd_per_mtok"]) == (
        dt.date(2026, 8, 16),
        dt.date(2026, 8, 16),
        0.14,
    )
    assert (peak["date"], peak["output_usd_per_mtok"], peak["cached_input_usd_per_mtok"]) == (
        dt.date(2026, 8, 17),
        1.32,
        0.014,
    )
    assert peak["source_locator"] == (
        f"{FOLDER}/2026-08-20_dsh-meter__docs__pricing.json@c0ffee000000"
        "#models.deepseek-v4-flash.rates.peak.usd (third-party copy of api-docs.deepseek.com)"
    )


def test_under_todays_key_the_usd_table_is_kept_and_cny_set_aside(tree):
    _add(tree, "dsh-meter__docs__pricing.json", DSH_V1, "2026-08-20")
    key = ["model_id", "provider", "date", "price_kind", "source_id", "source_model_name"]
    tp = deepseek_tou.build(tree.root, key=key)["token_prices"]
    assert set(tp["currency"]) == {"USD"} and tp.height == 3


def test_two_copies_of_one_source_are_one_spell(tree):
    _add(tree, "dsh-meter__docs__pricing.json", DSH_V1, "2026-08-20")
    _add(tree, "dsh-meter__docs__pricing.v2.json", dsh_v2(), "2026-08-22")
    tp = deepseek_tou.build(tree.root, key=TOKEN_PRICES_KEY)["token_prices"]
    [off] = _prices(tp, "deepseek-v4-flash", "off-peak", "USD")
    assert (off["date"], off["last_seen"]) == (dt.date(2026, 8, 16), dt.date(2026, 8, 22))
    assert "2026-08-20_dsh-meter" in off["source_locator"]  # located in the earliest copy


def test_the_weekend_rule_restricts_peak_windows_to_weekdays(tree):
    _add(tree, "dsh-meter__docs__pricing.v2.json", dsh_v2(), "2026-08-22")
    w = deepseek_tou.build(tree.root)["tou_windows"].sort("effective_from_utc", "start_hour_utc")
    assert w.select(
        "start_hour_utc", "end_hour_utc", "weekdays", "effective_from_utc", "effective_until_utc"
    ).rows() == [
        (1, 4, "mon;tue;wed;thu;fri;sat;sun", "2026-08-16T16:00:00Z", "2026-08-22T16:00:00Z"),
        (6, 10, "mon;tue;wed;thu;fri;sat;sun", "2026-08-16T16:00:00Z", "2026-08-22T16:00:00Z"),
        (1, 4, "mon;tue;wed;thu;fri", "2026-08-22T16:00:00Z", None),
        (6, 10, "mon;tue;wed;thu;fri", "2026-08-22T16:00:00Z", None),
    ]
    assert w.select("start_hour_local", "end_hour_local").unique().sort(
        "start_hour_local"
    ).rows() == [
        (9, 12),
        (14, 18),
    ]


def test_a_schedule_that_disagrees_with_the_windows_is_an_error(tree):
    doc = dsh_v2()
    doc["timeOfUse"]["scheduleBeijing"][0][10] = "peak"  # a Sunday peak hour, against the rule
    _add(tree, "dsh-meter__docs__pricing.v2.json", doc, "2026-08-22")
    with pytest.raises(DataError) as err:
        deepseek_tou.build(tree.root)
    p = err.value.problems[0]
    assert p.column == "timeOfUse.scheduleBeijing" and p.file.endswith("pricing.v2.json")


def test_a_missing_rate_names_its_path(tree):
    doc = copy.deepcopy(DSH_V1)
    del doc["models"]["deepseek-v4-flash"]["rates"]["peak"]["cny"]["out"]
    _add(tree, "dsh-meter__docs__pricing.json", doc, "2026-08-20")
    with pytest.raises(DataError) as err:
        deepseek_tou.build(tree.root)
    assert err.value.problems[0].column == "models.deepseek-v4-flash.rates.peak.cny.out"


def test_regimes_flat_from_the_beginning_and_a_rate_that_carries_on(tree):
    _add(tree, "PDFMathTranslate__webapp__pricing.json", PDF, "2026-08-24")
    t = deepseek_tou.build(tree.root, key=TOKEN_PRICES_KEY)
    tp = t["token_prices"]
    [flat] = _prices(tp, "deepseek-v4-pro", "list", "CNY")
    [peak] = _prices(tp, "deepseek-v4-pro", "peak", "CNY")
    # "1970" means no known start: the flat card is dated by the last day it was in force.
    assert (flat["date"], flat["last_seen"], flat["input_original_per_mtok"]) == (
        dt.date(2026, 8, 16),
        dt.date(2026, 8, 16),
        3.0,
    )
    assert (peak["date"], peak["input_original_per_mtok"]) == (dt.date(2026, 8, 17), 9.0)
    # OpenAI's rate is the same in both regimes and has no peak: one all-day USD list price.
    [luna] = _prices(tp, "gpt-5.6-luna", "list", "USD")
    assert (luna["provider"], luna["date"], luna["input_usd_per_mtok"]) == (
        "openai",
        dt.date(2026, 8, 24),
        0.2,
    )
    assert _prices(tp, "gpt-5.6-luna", "off-peak", "USD") == []
    assert luna["cache_write_usd_per_mtok"] == 0.25  # the file's `cache_write`
    # DeepSeek's cards state no cache write (the app bills writes at the miss rate: its rule)
    assert tp.filter(pl.col("provider") == "deepseek")["cache_write_usd_per_mtok"].is_null().all()
    assert t["tou_windows"].height == 2


def test_a_card_announced_before_it_applies_has_no_last_seen(tree):
    _add(tree, "PDFMathTranslate__webapp__pricing.json", PDF, "2026-08-13")
    tp = deepseek_tou.build(tree.root, key=TOKEN_PRICES_KEY)["token_prices"]
    [off] = _prices(tp, "deepseek-v4-pro", "off-peak", "CNY")
    assert (off["date"], off["last_seen"]) == (dt.date(2026, 8, 16), None)
    [flat] = _prices(tp, "deepseek-v4-pro", "list", "CNY")
    assert (flat["date"], flat["last_seen"]) == (dt.date(2026, 8, 13), dt.date(2026, 8, 13))


def test_a_model_of_no_known_vendor_is_an_error(tree):
    doc = copy.deepcopy(PDF)
    doc["regimes"][0]["rates"]["glm-5"] = doc["regimes"][0]["rates"]["deepseek-v4-pro"]
    _add(tree, "PDFMathTranslate__webapp__pricing.json", doc, "2026-08-24")
    with pytest.raises(DataError, match="glm-5"):
        deepseek_tou.build(tree.root)


def test_first_peak_day_respects_the_rule_in_force():
    start = dt.datetime(2026, 8, 22, 16, tzinfo=dt.UTC)  # Saturday 16:00 UTC
    weekdays = ["mon", "tue", "wed", "thu", "fri"]
    rule = deepseek_tou._rule(1, 4, weekdays, start, None, "w")
    assert deepseek_tou.first_peak_day(start, [rule]) == dt.date(2026, 8, 24)  # Monday


def test_real_cards_match_the_readme(sources_dir):
    t = deepseek_tou.build(sources_dir, key=TOKEN_PRICES_KEY)
    tp = t["token_prices"].filter(pl.col("source_id") == "deepseek-tou-dsh-meter")
    cny = {
        (r["source_model_name"], r["price_kind"], r["date"]): (
            r["cached_input_original_per_mtok"],
            r["input_original_per_mtok"],
            r["output_original_per_mtok"],
        )
        for r in tp.filter(pl.col("currency") == "CNY").iter_rows(named=True)
    }
    # README II.1.1: flash off-peak 0.05/1.5/4.5, peak 0.1/3/9; pro flat 0.025/3/6.
    assert cny[("deepseek-v4-flash", "off-peak", dt.date(2026, 8, 16))] == (0.05, 1.5, 4.5)
    assert cny[("deepseek-v4-flash", "peak", dt.date(2026, 8, 17))] == (0.1, 3, 9)
    assert cny[("deepseek-v4-pro", "list", dt.date(2026, 8, 16))] == (0.025, 3, 6)
    w = t["tou_windows"]
    assert set(zip(w["start_hour_utc"], w["end_hour_utc"], strict=True)) == {(1, 4), (6, 10)}
    weekend = w.filter(pl.col("effective_from_utc") == "2026-08-22T16:00:00Z")
    assert set(weekend["weekdays"]) == {"mon;tue;wed;thu;fri"}
    # The weekend rule closes the everyday windows of every copy, also of copies that never
    # saw it (the 2026-08-20 copy): only the weekday windows stay open.
    still = w.filter(pl.col("effective_until_utc").is_null())
    assert set(still["weekdays"]) == {"mon;tue;wed;thu;fri"} and still.height == 2
