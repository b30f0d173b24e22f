"""The price-war chapter: its claim evidence and quotes against independent calculations from
the release rows, and the words its prose states."""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from analysis import data
from analysis.chapters import price_war as pw
from analysis.methods import claims as claims_method
from analysis.methods import price_war, prices
from analysis.report import estimates

ASSIGNED = {
    "opus-5.5-input-price",
    "opus-5.5-output-price",
    "gpt-6-sol-input-price",
    "gpt-6-sol-output-price",
    "gemini-3.8-flash-price-doubling",
    "deepseek-flash-idle-price-cny",
    "deepseek-flash-idle-price-usd",
    "deepseek-api-price-rise",
    "deepseek-v4-pro-peak-multiple",
    "deepseek-v4-pro-peak-windows",
    "deepseek-batch-routing-saving",
    "glm-5.3-flash-price",
    "glm-5.3-flash-discount",
    "open-model-provider-spread",
    "sub-cent-token-rates",
}


@pytest.fixture(scope="module")
def chapter() -> pw.PriceWar:
    return pw.compute()


@pytest.fixture(scope="module")
def tp() -> pl.DataFrame:
    # What the chapter reads: the release less the rows an anomaly rule flags.
    return prices.clean(data.load("token_prices"))[0]


@pytest.fixture(scope="module")
def claims() -> pl.DataFrame:
    return data.load("claims")


def _claim(claims: pl.DataFrame, claim_id: str) -> dict:
    return claims.filter(pl.col("claim_id") == claim_id).row(0, named=True)


def test_claim_evidence_has_exactly_the_assigned_claims(chapter, claims):
    ev = pw.claim_evidence()
    assert set(ev) == ASSIGNED
    assert ev is chapter.evidence
    page = (data.paths.ROOT / pw.PAGE).read_text()
    for e in ev.values():
        assert e.claim_id in set(claims["claim_id"])
        anchor = e.section.split("#")[1]
        assert e.section.startswith(pw.PAGE) and "{#" + anchor + "}" in page
        assert e.text
        assert e.testable == (e.value is not None)


def _first_party(tp, model, col):
    # Independently: the first-party USD rows of the model in September-October 2026, any
    # source but the digests, standard tier.
    rows = tp.filter(
        pl.col("model_id") == model,
        pl.col("currency") == "USD",
        pl.col("context_tier").is_null(),
        pl.col("price_kind") == "list",
        ~pl.col("source_id").str.starts_with("digest"),
        pl.col("date") >= date(2026, 9, 1),
    )
    return rows[col].to_list()


@pytest.mark.parametrize(
    "claim_id, model, col",
    [
        ("opus-5.5-input-price", "claude-opus-5.5", "input_usd_per_mtok"),
        ("opus-5.5-output-price", "claude-opus-5.5", "output_usd_per_mtok"),
        ("gpt-6-sol-input-price", "gpt-6-sol", "input_usd_per_mtok"),
        ("gpt-6-sol-output-price", "gpt-6-sol", "output_usd_per_mtok"),
    ],
)
def test_price_claims_match_the_price_tables(chapter, tp, claims, claim_id, model, col):
    values = _first_party(tp, model, col)
    e = chapter.evidence[claim_id]
    assert values and (e.low, e.high) == (min(values), max(values))
    # Both late-September tables agree with the digest's price.
    assert e.value == _claim(claims, claim_id)["value"]
    assert claims_method.verdict(_claim(claims, claim_id)["value"], None, e) == "supported"


def test_gemini_doubling_from_the_two_rows(chapter, tp):
    g = tp.filter(
        pl.col("model_id") == "gemini-3.8-flash", ~pl.col("source_id").str.starts_with("digest")
    )
    before = g.filter(pl.col("date") < date(2027, 1, 1)).row(0, named=True)
    after = g.filter(pl.col("date") == date(2027, 1, 1)).row(0, named=True)
    bill = lambda r: 300 * r["input_usd_per_mtok"] + 100 * r["output_usd_per_mtok"]  # noqa: E731
    assert chapter.evidence["gemini-3.8-flash-price-doubling"].value == pytest.approx(
        bill(after) / bill(before)
    )
    assert chapter.q["gemini_bill_before"].value == pytest.approx(bill(before))
    assert (pw.WORKLOAD.input_mtok, pw.WORKLOAD.output_mtok) == (300, 100)


def _card(tp, model, kind, currency, on):
    cols = (
        ("input_usd_per_mtok", "output_usd_per_mtok")
        if currency == "USD"
        else (
            "input_original_per_mtok",
            "output_original_per_mtok",
        )
    )
    rows = tp.filter(
        pl.col("model_id") == model,
        pl.col("provider") == "deepseek",
        pl.col("price_kind") == kind,
        pl.col("currency") == currency,
        pl.col("valid_from") <= on,
        pl.col("valid_to").is_null() | (pl.col("valid_to") >= on),
        pl.col(cols[0]).is_not_null(),
    )
    assert rows.height == 1, (model, kind, currency, on)
    return rows.select(cols).row(0)


def test_time_of_use_evidence_by_hand(chapter, tp):
    on = date(2026, 9, 27)
    # The peak rate is price_kind `peak` from release 2026-12-01.3 (it was `list` before).
    peak_in, peak_out = _card(tp, "deepseek-v4-pro", "peak", "USD", on)
    off_in, off_out = _card(tp, "deepseek-v4-pro", "off-peak", "USD", on)
    ev = chapter.evidence
    assert ev["deepseek-v4-pro-peak-multiple"].value == pytest.approx(
        (300 * peak_in + 100 * peak_out) / (300 * off_in + 100 * off_out)
    )
    # Windows on a weekday, from the newest dsh-meter copy in force on the claim's date.
    w = data.load("tou_windows").filter(pl.col("source_id") == "deepseek-tou-dsh-meter")
    w = w.filter(
        pl.col("observed") == pl.col("observed").max(), pl.col("effective_until_utc").is_null()
    )
    weekday = w.filter(pl.col("weekdays").str.contains("mon"))
    assert ev["deepseek-v4-pro-peak-windows"].value == weekday.height
    peak_hours = 5 * sum(weekday["end_hour_utc"] - weekday["start_hour_utc"])
    assert chapter.q["tou_peak_hours"].value == peak_hours
    hi, lo = 300 * peak_in + 100 * peak_out, 300 * off_in + 100 * off_out
    spread = (peak_hours * hi + (168 - peak_hours) * lo) / 168
    e = ev["deepseek-batch-routing-saving"]
    assert e.value == pytest.approx(100 * (1 - lo / spread))
    assert e.high == pytest.approx(100 * (1 - lo / hi))


def test_price_rise_against_the_flat_card(chapter, tp):
    flat_on, on = date(2026, 8, 15), date(2026, 9, 27)
    ratios = []
    for model in ["deepseek-v4-flash", "deepseek-v4-pro"]:
        flat = _card(tp, model, "list", "CNY", flat_on)
        for kind in ["peak", "off-peak"]:
            new = _card(tp, model, kind, "CNY", on)
            ratios += [new[0] / flat[0], new[1] / flat[1]]
    e = chapter.evidence["deepseek-api-price-rise"]
    assert (e.low, e.high, e.n) == (pytest.approx(min(ratios)), pytest.approx(max(ratios)), 8)


def test_cny_conversion_at_the_latest_month_of_the_rate(chapter, claims):
    fx = data.load("fx_rates").filter(
        pl.col("currency") == "CNY", pl.col("month") <= date(2026, 9, 1)
    )
    rate = fx.sort("month")["per_usd"][-1]
    e = chapter.evidence["deepseek-flash-idle-price-usd"]
    # The release holds no card of the claim's day: the conversion of a price the data cannot
    # find is not tested, though the digest's arithmetic is shown.
    assert not e.testable and e.value is None
    cny = _claim(claims, "deepseek-flash-idle-price-cny")["value"]
    assert f"{cny / rate:.3f} USD" in e.text
    assert chapter.q["flash_claim_at_rate"].value == pytest.approx(cny / rate)
    assert chapter.q["fx_month"].value == fx["month"].max()
    # The CNY card at the rate lands within a percent of the USD card DeepSeek published.
    assert chapter.q["fx_gap"].value < 0.01
    assert not chapter.evidence["deepseek-flash-idle-price-cny"].testable


def test_open_model_spread_on_the_newest_month(chapter):
    e = chapter.evidence["open-model-provider-spread"]
    assert e.window == f"{chapter.q['spread_month'].value:%Y-%m}"
    assert e.low <= e.value == e.high
    assert e.n == chapter.q["spread_n_models"].value


def test_sub_cent_rates_by_hand(chapter, tp):
    live = prices.price_in_force(tp, date(2026, 9, 13)).filter(
        pl.col("currency") == "USD", ~pl.col("source_id").str.starts_with("digest")
    )
    lows = {
        c: live.filter(pl.col(c) > 0)[c].min()
        for c in ["input_usd_per_mtok", "output_usd_per_mtok", "cached_input_usd_per_mtok"]
    }
    # The evidence is the lowest standard rate (list, input or output), not a cached read.
    listed = live.filter(pl.col("price_kind") == "list")
    standard = min(
        listed.filter(pl.col(c) > 0)[c].min() for c in ["input_usd_per_mtok", "output_usd_per_mtok"]
    )
    assert chapter.evidence["sub-cent-token-rates"].value == standard
    assert lows["cached_input_usd_per_mtok"] < standard
    assert chapter.q["low_input"].value == lows["input_usd_per_mtok"]


def test_the_prose_words_hold_on_the_released_data(chapter, claims, tp):
    q = {k: v.value for k, v in chapter.q.items()}
    trend = estimates.estimate(pw.TREND)
    frame = price_war.cuts(
        prices.clean(data.load("token_prices"))[0], pw.PREDECESSORS, *pw.WINDOW, trend.interval
    )
    cuts = {r["model_id"]: r for r in frame.iter_rows(named=True)}
    # "both OpenAI's"; "the one the digests paired with them is slower than the trend".
    breaks = [m for m, r in cuts.items() if r["verdict"] == "faster than the trend"]
    assert sorted(breaks) == ["gpt-6-luna", "gpt-6-sol"]
    assert cuts["claude-opus-5.5"]["verdict"] == "slower than the trend"
    # "cost what their predecessors did"; "The promotional price matches its predecessor's".
    assert cuts["claude-fable-5.1"]["factor"] == cuts["gemini-3.8-flash"]["factor"] == 1
    # "against that price the cut is ...": the promotion GPT-5.6 Sol was sold at, by hand.
    promo = data.load("token_prices").filter(
        pl.col("model_id") == "gpt-5.6-sol",
        pl.col("price_kind") == "promotional",
        pl.col("context_tier").is_null(),
    )
    (p_in, p_out), sol = (
        promo.select("input_usd_per_mtok", "output_usd_per_mtok").row(0),
        cuts["gpt-6-sol"],
    )
    assert q["sol_promo_factor"] == pytest.approx((3 * p_in + p_out) / 4 / sol["blended"])
    assert 1 < q["sol_promo_factor"] < cuts["gpt-6-sol"]["factor"]
    # "GPT-6 Astra has no predecessor at its price, so it is left out."
    assert "gpt-6-astra" not in pw.PREDECESSORS
    # "the bill halves only for work that ran at peak".
    assert q["tou_saving_peak"] == pytest.approx(0.5) and q["tou_saving_spread"] < 0.45
    # "The claimed range spans the rises of the peak rates and of off-peak output; off-peak
    # input rose less."
    rise = _claim(claims, "deepseek-api-price-rise")
    flat_on, on = date(2026, 8, 15), date(2026, 9, 27)
    off_in, peak = [], []
    for model in ["deepseek-v4-flash", "deepseek-v4-pro"]:
        flat = _card(tp, model, "list", "CNY", flat_on)
        off_in.append(_card(tp, model, "off-peak", "CNY", on)[0] / flat[0])
        peak += [
            new / old for new, old in zip(_card(tp, model, "peak", "CNY", on), flat, strict=True)
        ]
    assert max(off_in) < rise["value"]
    assert max(peak) <= rise["value_high"]
    # "not below a cent"; "only cached-input reads go below".
    assert q["low_input"] >= 0.01 and q["low_output"] >= 0.01 and q["low_cached"] < 0.01
    # "The claim holds for a few models, not a typical one".
    assert q["spread_median"] < q["spread_claim"] <= q["spread_max"]
    # "The conversion is close ... within the rounding a digest allows".
    ratio = q["flash_claim_at_rate"] / q["flash_claim_usd"]
    assert abs(ratio - 1) <= claims_method.TOLERANCE
    # Weekend: "weekends have 0 peak windows".
    assert q["tou_n_weekend_windows"] == 0


def test_a_card_of_the_claims_day_makes_the_flash_claim_testable():
    """A CNY off-peak Flash card seen on the claim's day (say, entered with `data add`) is
    evidence; the digest's own row and a card last seen before that day are not."""
    import datetime as dt

    from analysis.chapters.price_war import _flash_card_evidence

    day = dt.date(2026, 9, 10)
    rows = pl.DataFrame(
        {
            "provider": ["deepseek"] * 3,
            "model_id": ["deepseek-flash", "deepseek-flash", "deepseek-v4-flash"],
            "price_kind": ["off-peak"] * 3,
            "currency": ["CNY"] * 3,
            "source_id": ["hand-dsh-meter", "digest-2026-09-13", "deepseek-tou-dsh-meter"],
            "input_original_per_mtok": [1.0, 1.0, 1.5],
            "date": [day, day, dt.date(2026, 8, 16)],
            "last_seen": [None, None, dt.date(2026, 8, 24)],
        }
    )
    claim = {"claim_date": day, "value": 1.0}
    newest = {"last_seen": dt.date(2026, 8, 24), "valid_from": dt.date(2026, 8, 16),
              "input_original_per_mtok": 1.5}  # fmt: skip
    e = _flash_card_evidence(rows, claim, newest)
    assert (e.value, e.n, e.testable) == (1.0, 1, True)
    assert not _flash_card_evidence(rows.slice(1), claim, newest).testable
