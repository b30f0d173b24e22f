"""Time-of-use token prices: which hours are peak, what a workload costs by hour, and what moving
it off-peak saves.

Frames in (shaped like `tou_windows` and `token_prices`), plain results out; nothing is loaded.
Choices, stated once:

- **Which windows.** A source's rule is its newest copy (`observed`): older copies of the same
  file state rules the newer one revised (dsh-meter's 2026-08-20 copy has no weekend rule, its
  2026-08-22 copy does). A window is in force at an instant when `effective_from_utc <= t` and
  `effective_until_utc` is empty or later. Days are UTC weekdays: the importer checks that every
  window lies within one Beijing day, so the Beijing weekday is the UTC weekday.
- **Which rates.** The peak rate is the `peak` row (releases before 2026-12-01.3 stored it as
  `list`: `card` reads that where no `peak` row exists) and the off-peak rate the `off-peak` row of
  the model in force on the date (`prices.price_in_force`), in one currency (USD rows fill the
  `*_usd_per_mtok` columns, others the `*_original_per_mtok` ones). The flat card the
  time-of-use card replaced is the `list` row in force the day before the first window started.
- **A workload** is tokens per month: cache-miss input, output and cache-hit input, in millions.
  Spread evenly over the week's 168 hours, it pays each hour's rate in proportion to the hours.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import polars as pl

from analysis.methods import prices

DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]  # Python weekday() order
HOURS_PER_WEEK = 7 * 24
OFF_PEAK, PEAK = "off-peak", "peak"  # token_prices.price_kind of the two time-of-use rates
OLD_PEAK = "list"  # the peak rate's price_kind in releases before 2026-12-01.3
BUCKETS = ("input", "output", "cached_input")


@dataclass(frozen=True)
class Workload:
    """Tokens a month, in millions: cache-miss input, output, cache-hit input."""

    name: str
    input_mtok: float
    output_mtok: float
    cached_input_mtok: float = 0.0

    def tokens(self) -> dict[str, float]:
        return dict(
            zip(BUCKETS, (self.input_mtok, self.output_mtok, self.cached_input_mtok), strict=True)
        )


@dataclass(frozen=True)
class Rates:
    """One card's price per 1M tokens of each bucket (None where the card gives none)."""

    currency: str
    input: float | None
    output: float | None
    cached_input: float | None
    row_id: str = ""

    def as_dict(self) -> dict[str, float | None]:
        return {b: getattr(self, b) for b in BUCKETS}


def _instant(text: str | None) -> dt.datetime | None:
    return None if text is None else dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def windows_in_force(windows: pl.DataFrame, at: dt.datetime, source_id: str) -> pl.DataFrame:
    """The peak windows of `source_id`'s newest copy in force at instant `at` (UTC)."""
    own = windows.filter(pl.col("source_id") == source_id)
    if own.height == 0:
        raise LookupError(f"tou_windows has no rows of source {source_id!r}")
    newest = own.filter(pl.col("observed") == pl.col("observed").max())
    live = [
        _instant(r["effective_from_utc"]) <= at
        and (r["effective_until_utc"] is None or at < _instant(r["effective_until_utc"]))
        for r in newest.iter_rows(named=True)
    ]
    return newest.filter(pl.Series(live, dtype=pl.Boolean))


def regime_start(windows: pl.DataFrame, source_id: str) -> dt.datetime:
    """The first instant any time-of-use window of `source_id` was in force."""
    starts = windows.filter(pl.col("source_id") == source_id)["effective_from_utc"]
    return min(_instant(s) for s in starts)


def weekly_schedule(windows: pl.DataFrame) -> pl.DataFrame:
    """7 x 24 rows: `day` (mon..sun), `weekday` (0 = Monday), `hour_utc` and `peak`, from the
    windows in force (`windows_in_force`); an hour is peak when a window covers it that day."""
    rules = [
        (r["start_hour_utc"], r["end_hour_utc"], set(r["weekdays"].split(";")))
        for r in windows.iter_rows(named=True)
    ]
    rows = [
        (DAYS[d], d, h, any(s <= h < e and DAYS[d] in days for s, e, days in rules))
        for d in range(7)
        for h in range(24)
    ]
    return pl.DataFrame(
        rows,
        schema={"day": pl.String, "weekday": pl.Int64, "hour_utc": pl.Int64, "peak": pl.Boolean},
        orient="row",
    )


def windows_per_day(windows: pl.DataFrame, day: str) -> int:
    """How many separate peak windows the rule has on weekday `day` (mon..sun)."""
    spans = {
        (r["start_hour_utc"], r["end_hour_utc"])
        for r in windows.iter_rows(named=True)
        if day in r["weekdays"].split(";")
    }
    return len(spans)


def _columns(currency: str) -> dict[str, str]:
    unit = "usd" if currency == "USD" else "original"
    return {b: f"{b}_{unit}_per_mtok" for b in BUCKETS}


def card(
    token_prices: pl.DataFrame, model_id: str, provider: str, kind: str, currency: str, on: dt.date
) -> Rates:
    """The rates of one card (`kind`: a price_kind) of a model in force on `on`, in `currency`."""
    cols = _columns(currency)
    in_force = prices.price_in_force(token_prices, on).filter(
        pl.col("model_id") == model_id,
        pl.col("provider") == provider,
        pl.col("currency") == currency,
        pl.col("context_tier").is_null(),
        pl.col(cols["input"]).is_not_null(),
    )
    rows = in_force.filter(pl.col("price_kind") == kind)
    if kind == PEAK and rows.height == 0:  # an older release: the peak rate is its `list` row
        rows = in_force.filter(pl.col("price_kind") == OLD_PEAK)
    if rows.height != 1:
        raise LookupError(
            f"expected one {kind} {currency} card of {model_id} at {provider} in force on {on}, "
            f"found {rows.height}"
        )
    r = rows.row(0, named=True)
    return Rates(currency, *(r[cols[b]] for b in BUCKETS), row_id=r.get("row_id", ""))


def bill(rates: Rates, workload: Workload) -> float:
    """What `workload` costs a month at one card's rates (a bucket the card does not price
    must carry no tokens)."""
    total = 0.0
    for bucket, mtok in workload.tokens().items():
        if mtok:
            price = getattr(rates, bucket)
            if price is None:
                raise ValueError(f"the card prices no {bucket} tokens, the workload has {mtok}")
            total += mtok * price
    return total


def hourly_prices(
    schedule: pl.DataFrame, peak: Rates, off_peak: Rates, workload: Workload
) -> pl.DataFrame:
    """`schedule` with `price_per_mtok`: what one million of the workload's tokens (in its mix)
    cost in each hour of the week, at the peak or off-peak rates."""
    n = sum(workload.tokens().values())
    rate = {True: bill(peak, workload) / n, False: bill(off_peak, workload) / n}
    return schedule.with_columns(
        pl.col("peak").replace_strict(rate, return_dtype=pl.Float64).alias("price_per_mtok")
    )


@dataclass(frozen=True)
class Saving:
    """A workload's monthly bill under three schedules, and the savings of moving it off-peak."""

    peak_hours_per_week: int
    all_peak: float  # every token billed at the peak rate (work done in business hours)
    spread: float  # tokens spread evenly over the week's hours
    off_peak: float  # every token moved into off-peak hours
    saving_from_spread: float  # 1 - off_peak / spread
    saving_from_peak: float  # 1 - off_peak / all_peak


def routing_saving(
    schedule: pl.DataFrame, peak: Rates, off_peak: Rates, workload: Workload
) -> Saving:
    """What moving `workload` into off-peak hours saves, from an even spread over the week and
    from running it all in peak hours."""
    n_peak = int(schedule["peak"].sum())
    hi, lo = bill(peak, workload), bill(off_peak, workload)
    spread = (n_peak * hi + (HOURS_PER_WEEK - n_peak) * lo) / HOURS_PER_WEEK
    return Saving(n_peak, hi, spread, lo, 1 - lo / spread, 1 - lo / hi)


def rate_ratios(new: Rates, old: Rates, label: str) -> list[dict]:
    """One row per bucket both cards price: new / old rate."""
    return [
        {
            "card": label,
            "bucket": b,
            "old": old.as_dict()[b],
            "new": new.as_dict()[b],
            "ratio": new.as_dict()[b] / old.as_dict()[b],
        }
        for b in BUCKETS
        if new.as_dict()[b] is not None and old.as_dict()[b]
    ]


@dataclass(frozen=True)
class Offer:
    """One model's time-of-use offer on one day: the peak windows in force, the week's peak
    hours (`weekly_schedule`) and its peak and off-peak cards in one currency."""

    windows: pl.DataFrame
    schedule: pl.DataFrame
    peak: Rates
    off_peak: Rates


def offer_on(
    token_prices: pl.DataFrame,
    windows: pl.DataFrame,
    source_id: str,
    provider: str,
    model_id: str,
    currency: str,
    on: dt.date,
) -> Offer:
    """The offer of `model_id` at `provider` in force at the start of day `on` (UTC), under the
    windows of `source_id`'s newest copy."""
    live = windows_in_force(windows, dt.datetime.combine(on, dt.time(), tzinfo=dt.UTC), source_id)
    return Offer(
        live,
        weekly_schedule(live),
        card(token_prices, model_id, provider, PEAK, currency, on),
        card(token_prices, model_id, provider, OFF_PEAK, currency, on),
    )


def flat_card_day(windows: pl.DataFrame, source_id: str) -> dt.date:
    """The last day of the flat card: the day before `source_id`'s first window was in force."""
    return regime_start(windows, source_id).date() - dt.timedelta(days=1)


def flat_card(
    token_prices: pl.DataFrame,
    windows: pl.DataFrame,
    source_id: str,
    provider: str,
    model_id: str,
    currency: str,
) -> Rates:
    """The flat (`list`) card of `model_id` the time-of-use offer replaced."""
    day = flat_card_day(windows, source_id)
    return card(token_prices, model_id, provider, "list", currency, day)


def rises_over_flat_card(
    token_prices: pl.DataFrame,
    windows: pl.DataFrame,
    source_id: str,
    provider: str,
    model_ids: list[str],
    currency: str,
    on: dt.date,
) -> pl.DataFrame:
    """One row per model, card (off-peak, peak) and bucket: the time-of-use rate in force on
    `on` over the flat card's rate (`rate_ratios`): model_id, card, bucket, old, new, ratio."""
    rows = []
    for model in model_ids:
        flat = flat_card(token_prices, windows, source_id, provider, model, currency)
        offer = offer_on(token_prices, windows, source_id, provider, model, currency, on)
        for label, rates in [(OFF_PEAK, offer.off_peak), (PEAK, offer.peak)]:
            rows += [{"model_id": model, **r} for r in rate_ratios(rates, flat, label)]
    return pl.DataFrame(rows)
