"""Token prices: blends, currency conversion, constant dollars, and one price per model and date.

Helpers return polars expressions where they can, so they compose inside one
`with_columns`/`select` and work lazily.
"""

from __future__ import annotations

from datetime import date, datetime

import polars as pl

# The column in which a method keeps, on each row it computes, the source ids of the rows that
# row was computed from (sorted, joined by ";"), so a figure drawn from it names only those.
SOURCES = "sources"


def row_source_list(frame: pl.DataFrame | pl.LazyFrame) -> pl.Expr | None:
    """Each row's source ids as a list: its `sources` (a method's kept rows), else its
    `source_ids` (the curated tables: every source stating the fact), else its `source_id`; None
    when the frame has no source column (hand-made rows in tests)."""
    names = frame.collect_schema().names()
    if SOURCES in names:
        return pl.col(SOURCES).fill_null("").str.split(";")
    present = [c for c in ("source_ids", "source_id") if c in names]
    if not present:
        return None
    return pl.coalesce(*present).fill_null("").str.split(";")


def joined_sources(frame: pl.DataFrame | pl.LazyFrame) -> list[pl.Expr]:
    """The aggregation that keeps, for a group of `frame`'s rows, the source ids of all of them
    (`SOURCES`); an empty list when the frame has no source column."""
    ids = row_source_list(frame)
    if ids is None:
        return []
    # "" (a row with no source) sorts first, and its ";" is stripped.
    each = ids.list.explode(keep_nulls=False, empty_as_null=False).str.strip_chars().unique().sort()
    return [each.str.join(";").str.strip_chars(";").alias(SOURCES)]


def frame_sources(frame: pl.DataFrame) -> str | None:
    """Every source id `frame`'s rows name (`joined_sources` over all of them, and the
    `*_source` columns a method keeps), sorted and ";"-joined; None without a source column."""
    ids: set[str] = set()
    listed = row_source_list(frame)
    if listed is not None:
        ids |= set(frame.select(listed.alias("ids"))["ids"].explode().drop_nulls().to_list())
    extra = [c for c in frame.columns if c.endswith("_source")]
    for column in extra:
        for cell in frame[column].drop_nulls().cast(pl.String).to_list():
            ids |= set(cell.split(";"))
    if listed is None and not extra:
        return None
    return ";".join(sorted(i.strip() for i in ids if i.strip()))


# Artificial Analysis and Epoch blend 3 input tokens to 1 output token; a16z used 1:1.
EPOCH_BLEND = (3, 1)
A16Z_BLEND = (1, 1)


def blend(
    input_col: str = "input_usd_per_mtok",
    output_col: str = "output_usd_per_mtok",
    ratio: tuple[float, float] = EPOCH_BLEND,
) -> pl.Expr:
    """(i x input + o x output) / (i + o) for an input:output ratio (i, o)."""
    i, o = ratio
    return (pl.col(input_col) * i + pl.col(output_col) * o) / (i + o)


def blended_price(ratio: tuple[float, float] = EPOCH_BLEND) -> pl.Expr:
    """Blended USD price per 1M tokens: from input and output where both are known; else the
    blend the source itself gives, only when its blend is the one asked for."""
    label = f"{ratio[0]:g}:{ratio[1]:g}"
    given = pl.when(pl.col("blend") == label).then(pl.col("blended_usd_per_mtok"))
    return (
        pl.when(
            pl.col("input_usd_per_mtok").is_not_null() & pl.col("output_usd_per_mtok").is_not_null()
        )
        .then(blend(ratio=ratio))
        .otherwise(given)
        .alias("blended_usd_per_mtok_" + label.replace(":", "to"))
    )


def month_of(col: str = "date") -> pl.Expr:
    return pl.col(col).dt.truncate("1mo")


def to_usd(
    prices: pl.DataFrame,
    fx_rates: pl.DataFrame,
    amount_cols: list[str],
    *,
    max_carry_months: int = 0,
) -> pl.DataFrame:
    """Convert original-currency amounts to USD at the monthly rate of the observation's month.

    Adds `<col>_usd` for each amount column, `fx_per_usd` and `fx_month` (the month whose rate was
    used; null for USD rows). When the month has no rate yet, the latest earlier rate is used if it
    is at most `max_carry_months` old (default 0: never); otherwise it raises, naming the currency
    and month. A price is never converted at a guessed rate.
    """
    rates = fx_rates.select("currency", pl.col("month").alias("fx_month"), "per_usd").sort(
        "currency", "fx_month"
    )
    # join_asof needs sorted keys; the row index puts the caller's order back afterwards.
    df = (
        prices.with_row_index("_row")
        .with_columns(month_of().alias("_month"))
        .sort("currency", "_month")
    )
    df = df.join_asof(
        rates,
        left_on="_month",
        right_on="fx_month",
        by="currency",
        strategy="backward",
        check_sortedness=False,
    )
    df = df.sort("_row").drop("_row")
    carried = (pl.col("_month").dt.year() * 12 + pl.col("_month").dt.month()) - (
        pl.col("fx_month").dt.year() * 12 + pl.col("fx_month").dt.month()
    )
    usable = pl.col("per_usd").is_not_null() & (carried <= max_carry_months)
    missing = df.filter((pl.col("currency") != "USD") & ~usable)
    if missing.height:
        first = missing.row(0, named=True)
        latest = rates.filter(pl.col("currency") == first["currency"])["fx_month"].max()
        raise ValueError(
            f"no exchange rate for {first['currency']} in {first['_month']:%Y-%m} ({missing.height} rows); "
            f"fx_rates covers {first['currency']} to {latest} at the latest (max_carry_months={max_carry_months})"
        )
    usd = pl.col("currency") == "USD"
    conv = [
        pl.when(usd).then(pl.col(c)).otherwise(pl.col(c) / pl.col("per_usd")).alias(f"{c}_usd")
        for c in amount_cols
    ]
    return df.with_columns(
        [
            *conv,
            pl.when(usd).then(None).otherwise(pl.col("per_usd")).alias("fx_per_usd"),
            pl.when(usd).then(None).otherwise(pl.col("fx_month")).alias("fx_month"),
        ]
    ).drop("_month", "per_usd")


def constant_dollars(
    df: pl.DataFrame, cpi: pl.DataFrame, cols: list[str], base_month: date, date_col: str = "date"
) -> pl.DataFrame:
    """Restate USD amounts in dollars of `base_month` with CPI-U: x * CPI(base) / CPI(month).

    Months after the last CPI month use the last CPI month (stated in the column `cpi_month`).
    """
    cpi = cpi.sort("month")
    base = cpi.filter(pl.col("month") == base_month)
    if base.height == 0:
        raise ValueError(
            f"CPI has no value for the base month {base_month:%Y-%m}; it covers {cpi['month'].min()} to {cpi['month'].max()}"
        )
    base_index = base["cpi_u"][0]
    last = cpi["month"].max()
    out = df.with_columns(
        pl.min_horizontal(pl.col(date_col).dt.truncate("1mo"), pl.lit(last)).alias("cpi_month")
    )
    out = out.join(
        cpi.select(pl.col("month").alias("cpi_month"), "cpi_u"), on="cpi_month", how="left"
    )
    return out.with_columns(
        [(pl.col(c) * base_index / pl.col("cpi_u")).alias(f"{c}_real") for c in cols]
    ).drop("cpi_u")


def one_price_per_model_date(prices: pl.DataFrame, value_col: str) -> pl.DataFrame:
    """Epoch's selection: the first-party price where one exists, else the median across providers.

    One row per (model_id, date) with `value_col`, `n_providers` and `selection`
    ('first-party' or 'median of N providers'), and `sources`, those of the rows the price was
    taken from (the first-party rows, else every provider's), where the rows name theirs.
    """
    valid = prices.filter(pl.col(value_col).is_not_null())
    kept = joined_sources(valid)  # the sources of the rows each price was chosen from
    first = (
        valid.filter(pl.col("first_party"))
        .group_by("model_id", "date")
        .agg(pl.col(value_col).min(), pl.len().alias("n_providers"), *kept)
        .with_columns(pl.lit("first-party").alias("selection"))
    )
    rest = (
        valid.join(first.select("model_id", "date"), on=["model_id", "date"], how="anti")
        .group_by("model_id", "date")
        .agg(pl.col(value_col).median(), pl.col("provider").n_unique().alias("n_providers"), *kept)
        .with_columns(pl.format("median of {} providers", pl.col("n_providers")).alias("selection"))
    )
    return pl.concat([first, rest], how="vertical_relaxed").sort("model_id", "date")


def price_on(
    prices: pl.DataFrame,
    model_id: str,
    provider: str,
    on: date,
    value_col: str = "output_usd_per_mtok",
) -> float | None:
    """The price of a model at a provider in force on a date: the latest observation at or before it."""
    rows = prices.filter(
        (pl.col("model_id") == model_id)
        & (pl.col("provider") == provider)
        & (pl.col("date") <= on)
        & pl.col(value_col).is_not_null()
    )
    if rows.height == 0:
        return None
    return rows.sort("date")[value_col][-1]


# --------------------------------------------------------------------------------------------
# curated releases: anomaly flags and prices as spells
# --------------------------------------------------------------------------------------------

FLAGS = "flags"


def clean(frame: pl.DataFrame, keep: tuple[str, ...] = ()) -> tuple[pl.DataFrame, dict[str, int]]:
    """The rows no anomaly rule flags, and how many rows each rule removed.

    Every chapter calls this on token_prices, gpu_hour_prices or benchmark_scores before it
    computes, and quotes the counts. A row with several flags counts under each of its rules.
    `keep` names rules whose rows stay in (to show an estimate with and without one rule).
    Releases before the curated ones (2026-11-30) have no flags: every row is kept, counts {}.
    """
    if FLAGS not in frame.columns:
        return frame, {}
    rules = (
        pl.col(FLAGS)
        .fill_null("")
        .str.split(";")
        .list.eval(pl.element().filter(pl.element() != ""))
    )
    tagged = frame.with_columns(rules.alias("_rules"))
    dropped = tagged.with_columns(
        pl.col("_rules")
        .list.eval(pl.element().filter(~pl.element().is_in(list(keep))))
        .alias("_drop")
    )
    counts = (
        dropped.select(pl.col("_drop").explode().drop_nulls().value_counts(sort=True))
        .unnest("_drop")
        .rows()
    )
    kept = dropped.filter(pl.col("_drop").list.len() == 0).drop("_rules", "_drop")
    return kept, {rule: n for rule, n in sorted(counts)}


OFFER_KEY = [
    "model_id",
    "provider",
    "price_kind",
    "context_tier",
    "quantization",
    "offer",
    "region",
    "currency",
]


# The price kinds of a time-of-use offer, and its default standard price, stated here once: a
# reader asking for "the price" of a DeepSeek model without an hour gets the off-peak rate, the
# rate of most hours (133 of 168 a week under the 2026-08-22 weekend rule); the peak rate is
# `peak`. Chapters that quote a time-of-use price say which of the two they use.
PEAK, OFF_PEAK = "peak", "off-peak"
TOU_STANDARD = OFF_PEAK


def peak_hours(windows: pl.DataFrame, at: datetime) -> dict[str, bool]:
    """Per provider of `windows` (tou_windows rows), whether instant `at` (UTC) is a peak hour:
    a window of the provider's newest copy in force at `at` covers its weekday and hour."""
    day = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][at.weekday()]
    stamp = at.strftime("%Y-%m-%dT%H:%M:%SZ")
    out: dict[str, bool] = {}
    # a few dozen rows, read per hour of a billed week: plain Python beats a polars filter here
    for r in windows.iter_rows(named=True):
        until = r["effective_until_utc"]
        live = r["effective_from_utc"] <= stamp and (until is None or until > stamp)
        covers = r["start_hour_utc"] <= at.hour < r["end_hour_utc"]
        out[r["provider"]] = out.get(r["provider"], False) or (
            live and covers and day in r["weekdays"].split(";")
        )
    return out


def price_in_force(
    token_prices: pl.DataFrame,
    on: date,
    hour: int | None = None,
    windows: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """The rows whose price is in force on date `on`: one per offer (model, seller, price kind,
    context tier, quantisation, offer words, region, currency).

    Curated releases state spells: in force from `valid_from` through `valid_to` (the last day,
    or open-ended when empty); stale copies have no spell and are never in force. A version
    cut from a release never rewrites its rows, so a price that changed after it adds a spell
    while the release's spell stays open: an open spell ends the day before the next spell of
    its offer begins. A scheduled price (its `announced` date set) is a spell from its date like
    any: in force from `valid_from`, never before, and of the kind it will be (a scheduled
    standard price is `list`). Earlier releases have no spells: there, an offer's price on `on` is its
    latest observation on or before `on` (as `price_on` reads it).
    """
    key = [c for c in OFFER_KEY if c in token_prices.columns]
    has_spells = (
        "valid_from" in token_prices.columns and token_prices["valid_from"].is_not_null().any()
    )
    if has_spells:
        started = pl.col("valid_from") <= on
        latest = pl.col("valid_from").filter(started).max().over(key)  # nulls form one group
        closed = pl.col("valid_to").is_not_null()
        out = token_prices.filter(
            started
            & pl.when(closed)
            .then(pl.col("valid_to") >= on)
            .otherwise(pl.col("valid_from") == latest)
        )
        return _time_of_use(out, on, hour, windows)
    before = token_prices.filter(pl.col("date") <= on)
    latest = pl.col("date") == pl.col("date").max().over(key)  # nulls form one group
    return _time_of_use(before.filter(latest), on, hour, windows)


def _time_of_use(
    rows: pl.DataFrame, on: date, hour: int | None, windows: pl.DataFrame | None
) -> pl.DataFrame:
    """With an hour (UTC) and the tou_windows: of a time-of-use offer's two rates, the one
    billed at that hour (peak where a window of its provider covers it, else off-peak). Without
    an hour every rate in force is returned (each row says its kind; `TOU_STANDARD` names the
    default)."""
    if hour is None:
        return rows
    if not 0 <= hour <= 23:
        raise ValueError(f"hour must be 0..23 (UTC), got {hour}")
    if windows is None or windows.is_empty():
        raise ValueError("price_in_force with an hour needs the tou_windows table (windows=)")
    peak = peak_hours(windows, datetime(on.year, on.month, on.day, hour))
    kind = pl.col("price_kind")
    at_peak = pl.col("provider").replace_strict(peak, default=None, return_dtype=pl.Boolean)
    drop = (kind == PEAK) & ~at_peak.fill_null(False) | (kind == OFF_PEAK) & at_peak.fill_null(
        False
    )
    return rows.filter(~drop)
