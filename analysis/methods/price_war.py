"""The autumn-2026 price cuts: each new price against the price it replaced and against the
book's fitted trend; a scheduled price change costed on a workload; the lowest rates on sale.

Frames in (shaped like `token_prices`), frames and dicts out; nothing is loaded or drawn.
Choices, stated once:

- **Prices compared.** First-party rows in USD at the standard context tier (no long-context
  tier), list or promotional, never a row from a news digest (`source_id` `digest-*`: the claims
  being checked) nor a `reported` row. Prices are the 3:1 input:output blend
  (`prices.blended_price`), the book's convention; input and output are compared too.
- **The cut.** A new model's first such price in the window, against its predecessor's list
  price in force the day before (the latest list row dated earlier). The predecessor's price has
  held since the earliest row with the same input and output prices: the cut's span runs from
  there to the new price's date.
- **Break or trend.** The cut factor (old / new blended price) annualised over its span,
  `factor ** (365 / days)`, is set against the trend's 90% interval: above it, the cut is faster
  than the trend (a break); inside it, in line; below it but still a cut, slower; a factor of 1
  or less is no cut. Equivalently: the trend would have cut the price by `trend ** (days / 365)`
  over the span.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import polars as pl

from analysis.methods import list_prices, prices

DAYS_PER_YEAR = 365
KINDS = ("list", "promotional")
DIGEST_PREFIX = "digest-"
BREAK, IN_LINE, SLOWER, NO_CUT = (
    "faster than the trend",
    "in line with the trend",
    "slower than the trend",
    "no cut",
)
BLENDED = "blended"


def comparable_rows(token_prices: pl.DataFrame) -> pl.DataFrame:
    """First-party USD rows at the standard tier, list or promotional, not from a digest, with
    their 3:1 blend as `blended`."""
    return token_prices.filter(
        pl.col("first_party").fill_null(False),
        pl.col("currency") == "USD",
        pl.col("context_tier").is_null(),
        pl.col("price_kind").is_in(KINDS),
        ~pl.col("source_id").str.starts_with(DIGEST_PREFIX),
        pl.col("input_usd_per_mtok").is_not_null(),
        pl.col("output_usd_per_mtok").is_not_null(),
    ).with_columns(prices.blended_price().alias(BLENDED))


def new_price(rows: pl.DataFrame, model_id: str, start: date, end: date) -> dict:
    """The first comparable price of `model_id` dated in [start, end]."""
    own = rows.filter(pl.col("model_id") == model_id, pl.col("date").is_between(start, end))
    if own.height == 0:
        raise LookupError(f"no comparable price of {model_id} dated {start} to {end}")
    return own.sort("date", "price_kind").row(0, named=True)


def previous_price(rows: pl.DataFrame, model_id: str, before: date) -> dict:
    """`model_id`'s list price in force the day before `before`, with `since`: the earliest date
    of a list row with the same input and output prices."""
    own = rows.filter(pl.col("model_id") == model_id, pl.col("price_kind") == "list")
    earlier = own.filter(pl.col("date") < before).sort("date", "input_usd_per_mtok")
    if earlier.height == 0:
        raise LookupError(f"no list price of {model_id} before {before}")
    last = earlier.row(-1, named=True)
    same = earlier.filter(
        pl.col("input_usd_per_mtok") == last["input_usd_per_mtok"],
        pl.col("output_usd_per_mtok") == last["output_usd_per_mtok"],
    )
    return {**last, "since": same["date"].min()}


def annualised(factor: float, days: int) -> float:
    """A factor over `days` as a factor per year."""
    if days <= 0:
        raise ValueError(f"a cut's span must be at least one day, got {days}")
    return factor ** (DAYS_PER_YEAR / days)


def against_trend(factor: float, per_year: float, low: float, high: float) -> str:
    """The rule: a cut's annualised factor against the trend's interval [low, high]."""
    if factor <= 1:
        return NO_CUT
    if per_year > high:
        return BREAK
    if per_year >= low:
        return IN_LINE
    return SLOWER


def cuts(
    token_prices: pl.DataFrame,
    predecessors: dict[str, str],
    start: date,
    end: date,
    trend: tuple[float, float, float],
) -> pl.DataFrame:
    """One row per new model of `predecessors` (new -> old model id): its first price in
    [start, end], the predecessor's price it replaced, the cut factor (blended, input, output),
    its span, the factor per year, what the trend (`(factor, low, high)` per year) would have
    cut over the span, and the verdict."""
    rows = comparable_rows(token_prices)
    factor_t, low_t, high_t = trend
    out = []
    for model, old_model in predecessors.items():
        new = new_price(rows, model, start, end)
        old = previous_price(rows, old_model, new["date"])
        days = (new["date"] - old["since"]).days
        factor = old[BLENDED] / new[BLENDED]
        per_year = annualised(factor, days)
        out.append(
            {
                "model_id": model,
                "date": new["date"],
                "price_kind": new["price_kind"],
                "input": new["input_usd_per_mtok"],
                "output": new["output_usd_per_mtok"],
                "blended": new[BLENDED],
                "source_id": new["source_id"],
                "previous_model_id": old_model,
                "previous_since": old["since"],
                "previous_input": old["input_usd_per_mtok"],
                "previous_output": old["output_usd_per_mtok"],
                "previous_blended": old[BLENDED],
                "previous_source_id": old["source_id"],
                "factor": factor,
                "input_factor": old["input_usd_per_mtok"] / new["input_usd_per_mtok"],
                "output_factor": old["output_usd_per_mtok"] / new["output_usd_per_mtok"],
                "days": days,
                "factor_per_year": per_year,
                "trend_factor_over_span": factor_t ** (days / DAYS_PER_YEAR),
                "verdict": against_trend(factor, per_year, low_t, high_t),
            }
        )
    return pl.DataFrame(out)


@dataclass(frozen=True)
class Budget:
    """A workload's monthly bill at two prices of one model."""

    before: float
    after: float
    factor: float  # after / before
    input_factor: float
    output_factor: float
    before_date: date
    after_date: date


def named_by_id(cuts_frame: pl.DataFrame) -> pl.DataFrame:
    """The cuts with each model named by its id (`name`, `previous_name`): the `models` table
    names some predecessors by a benchmark variant (`GPT-5.6 Sol (medium)`) or not at all, which
    would mislead beside a price."""
    return cuts_frame.with_columns(
        pl.col("model_id").alias("name"), pl.col("previous_model_id").alias("previous_name")
    )


def cut_of(cuts_frame: pl.DataFrame, model_id: str) -> dict:
    """The row of `cuts` of the new model `model_id`; LookupError when it is not a cut."""
    rows = cuts_frame.filter(pl.col("model_id") == model_id)
    if rows.is_empty():
        raise LookupError(f"{model_id} is not a new model of the cuts")
    return rows.row(0, named=True)


def promotional_before(token_prices: pl.DataFrame, model_id: str, before: date) -> dict | None:
    """The latest promotional price of `model_id` dated before `before` (comparable rows only),
    or None."""
    rows = comparable_rows(token_prices).filter(
        pl.col("model_id") == model_id,
        pl.col("price_kind") == "promotional",
        pl.col("date") < before,
    )
    return rows.sort("date").row(-1, named=True) if rows.height else None


def n_verdict(cuts_frame: pl.DataFrame, verdict: str) -> int:
    """How many cuts have `verdict`."""
    return cuts_frame.filter(pl.col("verdict") == verdict).height


def monthly_bill(
    input_mtok: float, output_mtok: float, input_price: float, output_price: float
) -> float:
    """Millions of tokens a month times USD per million."""
    return input_mtok * input_price + output_mtok * output_price


def scheduled_change(
    token_prices: pl.DataFrame, model_id: str, on: date, input_mtok: float, output_mtok: float
) -> Budget:
    """The bill of a workload before and after the price a model is scheduled to take on `on`:
    the comparable row dated `on` against the latest one dated earlier."""
    rows = comparable_rows(token_prices).filter(pl.col("model_id") == model_id)
    after = rows.filter(pl.col("date") == on)
    before = rows.filter(pl.col("date") < on).sort("date")
    if after.height != 1 or before.height == 0:
        raise LookupError(
            f"expected one price of {model_id} dated {on} and one before it, found "
            f"{after.height} and {before.height}"
        )
    a, b = after.row(0, named=True), before.row(-1, named=True)
    cost_b = monthly_bill(
        input_mtok, output_mtok, b["input_usd_per_mtok"], b["output_usd_per_mtok"]
    )
    cost_a = monthly_bill(
        input_mtok, output_mtok, a["input_usd_per_mtok"], a["output_usd_per_mtok"]
    )
    return Budget(
        cost_b,
        cost_a,
        cost_a / cost_b,
        a["input_usd_per_mtok"] / b["input_usd_per_mtok"],
        a["output_usd_per_mtok"] / b["output_usd_per_mtok"],
        b["date"],
        a["date"],
    )


PRICE_COLUMNS = {
    "input": "input_usd_per_mtok",
    "output": "output_usd_per_mtok",
    "cached input": "cached_input_usd_per_mtok",
}


def lowest_rates(token_prices: pl.DataFrame, on: date) -> pl.DataFrame:
    """The lowest positive USD rate of each kind (input, output, cached input) in force on `on`,
    any seller, digests left out: bucket, model_id, provider, usd_per_mtok, source_id, n_rows
    (rows in force with a positive rate of that kind). A time-of-use offer counts at its
    standard rate (`prices.TOU_STANDARD`), never its peak rate."""
    live = prices.price_in_force(token_prices, on).filter(
        pl.col("currency") == "USD",
        ~pl.col("source_id").str.starts_with(DIGEST_PREFIX),
        pl.col("price_kind") != prices.PEAK,
    )
    out = []
    for bucket, col in PRICE_COLUMNS.items():
        positive = live.filter(pl.col(col) > 0).sort(col, "model_id", "provider")
        if positive.height:
            r = positive.row(0, named=True)
            out.append(
                {
                    "bucket": bucket,
                    "model_id": r["model_id"],
                    "provider": r["provider"],
                    "usd_per_mtok": r[col],
                    "source_id": r["source_id"],
                    "n_rows": positive.height,
                }
            )
    return pl.DataFrame(out)


def names(models: pl.DataFrame) -> dict[str, str]:
    """model_id -> name, from the `models` table (the id where it has no name)."""
    return {r["model_id"]: r["name"] or r["model_id"] for r in models.iter_rows(named=True)}


CNY_AMOUNTS = ["input_original_per_mtok", "output_original_per_mtok"]


def cny_cards(
    token_prices: pl.DataFrame,
    fx_rates: pl.DataFrame,
    provider: str,
    source_id: str,
    model_ids: list[str],
    model_names: dict[str, str],
) -> pl.DataFrame:
    """The CNY rate cards of `model_ids` at `provider` in `source_id`, converted at the month's
    rate (`prices.to_usd`), beside the USD card the same source published with them
    (`published_*_usd`). `card` is off-peak, peak, or "flat (retired)": a list row with an end
    date is the retired flat card, an open one the peak rate of releases before 2026-12-01.3."""
    source = token_prices.filter(
        pl.col("provider") == provider,
        pl.col("source_ids").str.contains(source_id),
        pl.col("model_id").is_in(model_ids),
    )
    cny = prices.to_usd(
        source.filter(pl.col("currency") == "CNY"),
        fx_rates,
        CNY_AMOUNTS,
        max_carry_months=list_prices.MAX_FX_CARRY_MONTHS,
    )
    usd = source.filter(pl.col("currency") == "USD").select(
        "model_id",
        "price_kind",
        "valid_from",
        pl.col("input_usd_per_mtok").alias("published_input_usd"),
        pl.col("output_usd_per_mtok").alias("published_output_usd"),
    )
    return (
        cny.join(usd, on=["model_id", "price_kind", "valid_from"], how="left")
        .with_columns(
            pl.col("model_id")
            .replace_strict(model_names, default=pl.col("model_id"))
            .alias("name"),
            pl.when(pl.col("price_kind") == "off-peak")
            .then(pl.lit("off-peak"))
            .when(pl.col("valid_to").is_not_null())
            .then(pl.lit("flat (retired)"))
            .otherwise(pl.lit("peak"))
            .alias("card"),
        )
        .select(
            "name",
            "card",
            "valid_from",
            "valid_to",
            *CNY_AMOUNTS,
            "fx_month",
            "fx_per_usd",
            *[f"{c}_usd" for c in CNY_AMOUNTS],
            "published_input_usd",
            "published_output_usd",
        )
        .sort("name", "valid_from", "card")
    )


def largest_conversion_gap(cards: pl.DataFrame) -> float:
    """The largest relative gap between a converted CNY input rate and the USD card published
    beside it (`cny_cards` rows that have one)."""
    paired = cards.filter(pl.col("published_input_usd").is_not_null())
    return float(
        (paired["input_original_per_mtok_usd"] / paired["published_input_usd"] - 1).abs().max()
    )
