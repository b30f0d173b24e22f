"""What a workload costs: token buckets times the rates in force, with provenance.

A request's bill is the sum over its token buckets of tokens x the rate in force for that
bucket at that seller, context tier, price kind, currency and instant. Choices, stated once:

- **Which rows.** `prices.price_in_force` on the request's date and UTC hour (with the
  `tou_windows`), so spells, scheduled prices (in force from their date) and DeepSeek's
  peak/off-peak hours with the 2026-08-22 weekend rule are read in one place, not here. The
  frame given should be the cleaned `token_prices` (`prices.clean`).
- **Which kind.** Of the standard kinds in force for one offer, the one billed: a promotion
  while it runs, else the time-of-use rate of the hour, else the list price (`STANDARD_KINDS`).
  Digest-reported rows (`reported`) are claims, never rates. A batch request uses the offer's
  batch columns, or a `batch`/`batch-only` row's rates where the seller publishes batch apart.
- **Buckets.** Uncached input, cached input read, cache write, output, reasoning. Reasoning is
  billed at the output rate: no seller in the data prices it apart (token_prices has no
  reasoning column). A cache write is billed at `cache_write_usd_per_mtok` (the default
  5-minute write where a seller prices lifetimes apart); no source states a cache-write rate in
  another currency or at the batch discount, so a CNY or batch cache write has no rate.
- **A missing rate is an error** naming the offer (model, seller and offer words), the bucket,
  the kind, the currency, the date and the column that holds no rate; never a zero, never
  another bucket's rate (a cache write is never billed at the input rate the seller may charge
  for it unless the source states that rate as the write's).
- **Exact arithmetic.** Rates are read as the decimal their CSV text states (`repr` of the
  float) and multiplied in `Decimal`, so a hand calculation matches to the last digit.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass, field, replace
from decimal import Decimal

import polars as pl

from analysis.data.errors import DataError, Problem
from analysis.data.workloads import Workload
from analysis.methods import prices

BUCKETS = ("input", "cached_input", "cache_write", "output", "reasoning")
# The token_prices column stem each bucket is billed at (reasoning: the output rate, see above).
RATE_STEM = {
    "input": "input",
    "cached_input": "cached_input",
    "cache_write": "cache_write",
    "output": "output",
    "reasoning": "output",
}
BATCH_STEM = {"input": "batch_input", "output": "batch_output", "reasoning": "batch_output"}
# Billed order of precedence among the standard kinds of one offer in force at one instant.
STANDARD_KINDS = ("promotional", prices.PEAK, prices.OFF_PEAK, "list")
BATCH_KINDS = ("batch", "batch-only")
OFFER_COLS = ("quantization", "offer", "region")
MTOK = Decimal(1_000_000)


def decimal(x: float | int) -> Decimal:
    """The decimal a number's shortest text states: 0.66 is Decimal('0.66'), not the binary
    float nearest it."""
    return Decimal(repr(x)) if isinstance(x, float) else Decimal(x)


def plain(d: Decimal) -> str:
    """A decimal as plain digits, no exponent and no trailing zeros: 0.0792, 12, 0.00000625."""
    text = format(d.normalize(), "f")
    return text


@dataclass(frozen=True)
class Request:
    """Tokens of one request by bucket; `input` is the uncached input (neither read from nor
    written to the cache)."""

    input: float = 0
    cached_input: float = 0
    cache_write: float = 0
    output: float = 0
    reasoning: float = 0

    @classmethod
    def from_usage(
        cls, input: int, cached: int = 0, output: int = 0, reasoning: int = 0, cache_write: int = 0
    ) -> Request:
        """From usage counted as `cost` takes it: `input` counts every input token, `cached` how
        many of them were read from the cache and `cache_write` how many were written to it
        (Anthropic reports the three apart: add them up for `input`)."""
        if not 0 <= cached <= input:
            raise ValueError(f"cached tokens ({cached}) must be between 0 and input ({input})")
        if not 0 <= cache_write <= input - cached:
            raise ValueError(
                f"cache-write tokens ({cache_write}) must be between 0 and the input tokens not "
                f"read from the cache ({input - cached})"
            )
        return cls(input - cached - cache_write, cached, cache_write, output, reasoning)

    def tokens(self) -> dict[str, float]:
        return {b: getattr(self, b) for b in BUCKETS}


@dataclass(frozen=True)
class Charge:
    bucket: str
    tokens: Decimal
    rate: Decimal  # per 1M tokens
    cost: Decimal
    row_id: str


@dataclass(frozen=True)
class Bill:
    """One request (or a day's traffic) at one offer: a charge per bucket with tokens."""

    model_id: str
    provider: str
    offer: str  # quantisation / offer words / region where the seller has several
    currency: str
    price_kind: str
    at: dt.datetime
    batch: bool
    charges: tuple[Charge, ...] = field(default=())

    @property
    def total(self) -> Decimal:
        return sum((c.cost for c in self.charges), Decimal(0))

    @property
    def row_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.row_id for c in self.charges))

    def cost(self, bucket: str) -> Decimal:
        return sum((c.cost for c in self.charges if c.bucket == bucket), Decimal(0))

    def row(self) -> dict:
        """A flat record: each bucket's tokens, rate and cost, the total, the price rows."""
        out: dict = {
            "model_id": self.model_id,
            "provider": self.provider,
            "offer": self.offer,
            "at": self.at.strftime("%Y-%m-%dT%H:%MZ"),
            "price_kind": self.price_kind,
            "batch": self.batch,
        }
        by = {c.bucket: c for c in self.charges}
        for b in BUCKETS:
            c = by.get(b)
            out[f"{b}_tokens"] = plain(c.tokens) if c else "0"
            out[f"{b}_rate_per_mtok"] = plain(c.rate) if c else ""
            out[f"{b}_cost"] = plain(c.cost) if c else "0"
        out["total"] = plain(self.total)
        out["currency"] = self.currency
        out["row_ids"] = ";".join(self.row_ids)
        return out


def _columns(currency: str) -> str:
    return "usd" if currency == "USD" else "original"


def _offer_label(row: dict) -> str:
    return "/".join(str(row[c]) for c in OFFER_COLS if row.get(c))


def _missing(model_id, provider, bucket, kind, currency, on, column, why="", offer="") -> DataError:
    return DataError(
        Problem(
            "token_prices",
            None,
            column,
            f"{model_id} at {provider}" + (f" ({offer})" if offer else ""),
            f"no {kind} {currency} rate for {bucket} tokens in force on {on:%Y-%m-%d}{why}",
        )
    )


def request_bills(
    token_prices: pl.DataFrame,
    request: Request,
    model_id: str,
    at: dt.datetime,
    *,
    windows: pl.DataFrame,
    provider: str | None = None,
    batch: bool = False,
    currency: str = "USD",
    context_tier: str | None = None,
) -> tuple[list[Bill], list[str]]:
    """What `request` costs at instant `at` (UTC) at each seller of `model_id` (or at
    `provider` only): one Bill per offer, and the reasons sellers were left out. `windows` is
    the tou_windows table (which hours are peak).

    With a provider named, a rate it lacks is an error; across every seller, a seller that
    lacks a needed rate is left out with its reason (and it is an error if none is left)."""
    own = token_prices.filter(pl.col("model_id") == model_id)
    if provider is not None:
        own = own.filter(pl.col("provider") == provider)
    who = f"{model_id}" + (f" at {provider}" if provider else "")
    if own.is_empty():
        raise DataError(
            Problem("token_prices", None, "model_id", who, "no price rows for this model/seller")
        )
    tier = (
        pl.col("context_tier").is_null()
        if context_tier is None
        else (pl.col("context_tier") == context_tier)
    )
    rows = prices.price_in_force(own, at.date(), at.hour, windows).filter(
        tier, pl.col("currency") == currency
    )
    if rows.is_empty():
        raise DataError(
            Problem(
                "token_prices",
                None,
                "valid_from",
                who,
                f"no {currency} price in force on {at:%Y-%m-%d}"
                + (f" in context tier {context_tier}" if context_tier else ""),
            )
        )
    bills, left_out = [], []
    groups = rows.partition_by(["provider", *OFFER_COLS], maintain_order=True)
    for group in groups:
        try:
            bills.append(_bill(group, request, at, batch, currency))
        except DataError as err:
            if provider is not None:
                raise
            left_out.extend(err.problems)
    if not bills:
        raise DataError(left_out)
    return bills, [str(p) for p in left_out]


def _bill(offer_rows: pl.DataFrame, request: Request, at, batch: bool, currency: str) -> Bill:
    """One offer's bill from its rows in force (all of one model, seller and offer)."""
    first = offer_rows.row(0, named=True)
    model_id, provider = first["model_id"], first["provider"]
    unit = _columns(currency)
    kinds = offer_rows["price_kind"].to_list()
    standard = next((k for k in STANDARD_KINDS if k in kinds), None)
    batch_kind = next((k for k in BATCH_KINDS if k in kinds), None)
    if batch:
        # batch rates sit in the batch_* columns: of a batch-only row, else of the standard row
        source = batch_kind or standard
        if source is None:
            raise _missing(model_id, provider, "any", "batch", currency, at, "price_kind")
        row, kind, stems = _one(offer_rows, source), batch_kind or "batch", BATCH_STEM
    else:
        if standard is None:
            raise _missing(
                model_id,
                provider,
                "any",
                "standard",
                currency,
                at,
                "price_kind",
                f" (kinds in force: {', '.join(sorted(set(kinds)))})",
            )
        row, kind, stems = _one(offer_rows, standard), standard, RATE_STEM
    charges = []
    for bucket, tokens in request.tokens().items():
        if not tokens:
            continue
        stem = stems.get(bucket)
        column = None if stem is None else f"{stem}_{unit}_per_mtok"
        rate = row.get(column) if column else None
        if rate is None:
            raise _missing(
                model_id,
                provider,
                bucket,
                kind,
                currency,
                at,
                column or f"{'batch_' if batch else ''}{bucket}_{unit}_per_mtok",
                "" if column in row else " (token_prices has no such column)",
                _offer_label(first),
            )
        n, r = decimal(tokens), decimal(rate)
        charges.append(Charge(bucket, n, r, n * r / MTOK, row["row_id"]))
    return Bill(model_id, provider, _offer_label(first), currency, kind, at, batch, tuple(charges))


def _one(rows: pl.DataFrame, kind: str) -> dict:
    of_kind = rows.filter(pl.col("price_kind") == kind)
    if of_kind.height != 1:
        r = of_kind.row(0, named=True)
        raise DataError(
            Problem(
                "token_prices",
                None,
                "row_id",
                ";".join(of_kind["row_id"].to_list()),
                f"{of_kind.height} {kind} rows of {r['model_id']} at {r['provider']} in force at once",
            )
        )
    return of_kind.row(0, named=True)


# --------------------------------------------------------------------------------------------
# workloads: a day's traffic over the week from a date
# --------------------------------------------------------------------------------------------

WEEK = 7


def per_request(workload: Workload, batch: bool = False) -> Request:
    """The mean request of a workload (tokens may be fractional: a share of requests hit)."""
    hit = workload.cache_hit_share
    uncached = workload.input_tokens * (1 - hit) - workload.cache_write_tokens
    if uncached < -1e-9:
        raise ValueError(
            f"workload {workload.name!r}: {workload.cache_write_tokens} cache-write tokens are "
            f"more than the input not read from the cache ({workload.input_tokens * (1 - hit):g})"
        )
    return Request(
        input=max(uncached, 0.0),
        cached_input=workload.input_tokens * hit,
        cache_write=workload.cache_write_tokens,
        output=workload.output_tokens,
        reasoning=workload.reasoning_tokens,
    )


@dataclass(frozen=True)
class DailyBill:
    """A workload's average day at one offer, over the seven days from `start`."""

    workload: str
    model_id: str
    provider: str
    offer: str
    currency: str
    start: dt.date
    by_bucket: dict[str, float]  # cost per day
    price_kinds: tuple[str, ...]
    row_ids: tuple[str, ...]

    @property
    def per_day(self) -> float:
        return sum(self.by_bucket.values())

    def share(self, *buckets: str) -> float:
        return sum(self.by_bucket[b] for b in buckets) / self.per_day


def workload_bills(
    token_prices: pl.DataFrame,
    windows: pl.DataFrame,
    workload: Workload,
    start: dt.date | None = None,
) -> list[DailyBill]:
    """Per offer the workload compares: its average daily bill over the week from `start`
    (default the workload's `date`). Each day, each hour's share of requests pays that hour's
    rate (DeepSeek's peak hours on weekdays only since 2026-08-22); `batch_share` of them pay
    the batch rate."""
    start = start or workload.date
    if start is None:
        raise ValueError(f"workload {workload.name!r}: give a date to price it on ('date:')")
    out = []
    for offer in workload.compare:
        totals: dict[tuple, dict] = {}
        batch_share = workload.batch_share if offer.batch_share is None else offer.batch_share
        own = token_prices.filter(pl.col("model_id") == offer.model_id)  # once, not per hour
        # an offer without time-of-use rows bills every hour of a day alike: price it once a day
        tou = own["price_kind"].is_in([prices.PEAK, prices.OFF_PEAK]).any()
        memo: dict[tuple, list[Bill]] = {}
        request = per_request(workload)
        for day in range(WEEK):
            date = start + dt.timedelta(days=day)
            for hour, weight in enumerate(workload.dispatch_hours_utc):
                at = dt.datetime(date.year, date.month, date.day, hour)
                # a day's hours bill alike but where a seller's peak hours begin or end
                peak = tuple(sorted(prices.peak_hours(windows, at).items())) if tou else None
                for batch, share in ((False, 1 - batch_share), (True, batch_share)):
                    n = workload.requests_per_day * weight * share / WEEK
                    if n == 0:
                        continue
                    key = (date, peak, batch)
                    if key not in memo:
                        memo[key] = request_bills(
                            own,
                            request,
                            offer.model_id,
                            at,
                            provider=offer.provider,
                            batch=batch,
                            currency=workload.currency,
                            context_tier=workload.context_tier,
                            windows=windows,
                        )[0]
                    bills = memo[key]
                    for b in bills:
                        acc = totals.setdefault(
                            (b.provider, b.offer),
                            {"by": dict.fromkeys(BUCKETS, 0.0), "kinds": {}, "rows": {}},
                        )
                        for c in b.charges:
                            acc["by"][c.bucket] += float(c.cost) * n
                        acc["kinds"][b.price_kind] = None
                        acc["rows"].update(dict.fromkeys(b.row_ids))
        for (provider, label), acc in totals.items():
            out.append(
                DailyBill(
                    workload.name,
                    offer.model_id,
                    provider,
                    label,
                    workload.currency,
                    start,
                    acc["by"],
                    tuple(acc["kinds"]),
                    tuple(acc["rows"]),
                )
            )
    return out


def bills_frame(bills: list[DailyBill]) -> pl.DataFrame:
    """One row per offer: cost per day by bucket, per day, per 30 days, each bucket's share."""
    rows = []
    for b in bills:
        row = {
            "workload": b.workload,
            "model_id": b.model_id,
            "provider": b.provider,
            "offer": b.offer,
            "start": b.start,
        }
        # rounded to a millionth of the currency: float sums carry noise beyond it
        row |= {f"{k}_per_day": round(v, 6) for k, v in b.by_bucket.items()}
        row |= {
            "per_day": round(b.per_day, 6),
            "per_30_days": round(30 * b.per_day, 6),
            "output_and_reasoning_share": round(b.share("output", "reasoning"), 6),
            "currency": b.currency,
            "price_kinds": ";".join(b.price_kinds),
            "row_ids": ";".join(b.row_ids),
        }
        rows.append(row)
    return pl.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# evidence for the digests' workload claims (the ledger reads these)
# --------------------------------------------------------------------------------------------


def output_and_reasoning_share(bill: DailyBill | Bill) -> float:
    """The share of a bill paid for output and reasoning tokens (the "~60% of an agent bill")."""
    if isinstance(bill, Bill):
        return float((bill.cost("output") + bill.cost("reasoning")) / bill.total)
    return bill.share("output", "reasoning")


def cost_ratio(a: DailyBill, b: DailyBill) -> float:
    """How many times `b`'s bill `a`'s is, on one workload (the "cost 3.6x" claim)."""
    if a.workload != b.workload:
        raise ValueError(f"compare bills of one workload, not {a.workload!r} and {b.workload!r}")
    return a.per_day / b.per_day


@dataclass(frozen=True)
class RoutingSaving:
    """What routing a workload's traffic into the cheapest instants of the week (off-peak hours,
    or the batch rate where it is lower) saves, for its first compared offer."""

    dearest_per_day: float  # every request at the dearest instant of the week (a peak hour)
    profile_per_day: float  # the workload's own dispatch profile
    routed_per_day: float  # every request at the cheapest instant, or at the batch rate if less
    bound: float  # 1 - routed / dearest: the most routing can save
    typical: float  # 1 - routed / profile: what it saves for this dispatch profile
    # Share of the profile's requests sent in hours dearer than the week's cheapest (peak hours):
    # what sets `typical` apart from one workload to another.
    dear_share: float


def routing_saving(
    token_prices: pl.DataFrame, windows: pl.DataFrame, workload: Workload, start: dt.date
) -> RoutingSaving:
    """The batch/off-peak routing saving as a bound (from the dearest hour of the week) and for
    the workload's dispatch profile (the digests' "batch-routing halves bills")."""
    offer = workload.compare[0]
    if offer.provider is None:
        raise ValueError(f"workload {workload.name!r}: routing_saving needs the seller named")
    request = per_request(workload)

    def cost(at: dt.datetime, batch: bool = False) -> float:
        bills, _ = request_bills(
            token_prices,
            request,
            offer.model_id,
            at,
            provider=offer.provider,
            batch=batch,
            currency=workload.currency,
            context_tier=workload.context_tier,
            windows=windows,
        )
        return float(bills[0].total) * workload.requests_per_day

    instants = [
        dt.datetime(start.year, start.month, start.day, h) + dt.timedelta(days=d)
        for d in range(WEEK)
        for h in range(24)
    ]
    week = [cost(at) for at in instants]
    routed = min(week)
    with contextlib.suppress(DataError):  # no batch rate at this seller: routing moves hours only
        routed = min(routed, cost(instants[0], batch=True))
    one = replace(workload, compare=(replace(offer, batch_share=0.0),))
    profile = workload_bills(token_prices, windows, one, start)[0].per_day
    dearest = max(week)
    weights = [workload.dispatch_hours_utc[at.hour] for at in instants]
    dear = sum(w for w, c in zip(weights, week, strict=True) if c > min(week)) / sum(weights)
    return RoutingSaving(dearest, profile, routed, 1 - routed / dearest, 1 - routed / profile, dear)


# --------------------------------------------------------------------------------------------
# benchmark runs as workloads: a leaderboard's token counts priced by the book's rates
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunCost:
    """A leaderboard's published cost of one benchmark run beside the book's bill for the same
    tokens. Output (answer and reasoning) is billed at the output rate; input at the list
    input rate is an upper bound, since the leaderboard bills cache hits it does not count."""

    model_id: str
    provider: str
    on: dt.date
    input_tokens: int
    output_tokens: int
    published_input: float
    published_output: float
    book_input_uncached: float  # every input token at the input rate
    book_input_all_cached: float  # every input token at the cached-input rate
    book_output: float
    row_ids: tuple[str, ...]

    @property
    def output_gap(self) -> float:
        """Published minus book output cost, as a share of the published one."""
        return self.published_output / self.book_output - 1

    @property
    def implied_cache_hit_share(self) -> float:
        """The share of input tokens that, billed at the cached rate, makes the book's input
        cost equal the published one: (uncached - published) / (uncached - all cached)."""
        return (self.book_input_uncached - self.published_input) / (
            self.book_input_uncached - self.book_input_all_cached
        )


def run_cost(
    token_prices: pl.DataFrame,
    windows: pl.DataFrame,
    model_id: str,
    provider: str,
    on: dt.date,
    input_tokens: int,
    output_tokens: int,
    published_input: float,
    published_output: float,
) -> RunCost:
    """A benchmark run's tokens at the book's rates in force on `on` (noon UTC)."""
    at = dt.datetime(on.year, on.month, on.day, 12)

    def priced(request: Request) -> Bill:
        bills, _ = request_bills(
            token_prices, request, model_id, at, windows=windows, provider=provider
        )
        if len(bills) != 1:
            raise DataError(
                Problem(
                    "token_prices",
                    None,
                    "offer",
                    f"{model_id} at {provider}",
                    f"{len(bills)} offers in force on {on}; name one seller with one offer",
                )
            )
        return bills[0]

    uncached = priced(Request(input=input_tokens, output=output_tokens))
    cached = priced(Request(cached_input=input_tokens))
    return RunCost(
        model_id,
        provider,
        on,
        input_tokens,
        output_tokens,
        published_input,
        published_output,
        float(uncached.cost("input")),
        float(cached.cost("cached_input")),
        float(uncached.cost("output")),
        tuple(dict.fromkeys((*uncached.row_ids, *cached.row_ids))),
    )


@dataclass(frozen=True)
class PublishedRun:
    """A leaderboard's run of its benchmark: the tokens it used and what it published it cost,
    with the book's model and the seller whose card bills it."""

    name: str  # the leaderboard's name for the run
    model_id: str
    provider: str
    on: dt.date
    input_tokens: int
    output_tokens: int  # answer and reasoning
    published_input: float
    published_output: float
    published_total: float
    published_input_rate: float | None = None  # the rates the leaderboard priced the run at
    published_output_rate: float | None = None


def leaderboard_costs(
    token_prices: pl.DataFrame, windows: pl.DataFrame, runs: list[PublishedRun]
) -> pl.DataFrame:
    """Each run's published cost beside the book's bill for its tokens (`run_cost`): output
    (reasoning included) at the output rate, input at the list input rate (every token uncached:
    an upper bound) and the cache-hit share that, at the cached-input rate, would make the book's
    input cost the published one (the file counts no cache hits, so this share is what would
    close the gap, not a measured one). USD; one row per run."""
    rows = []
    for run in runs:
        r = run_cost(
            token_prices,
            windows,
            run.model_id,
            run.provider,
            run.on,
            run.input_tokens,
            run.output_tokens,
            run.published_input,
            run.published_output,
        )
        rows.append(
            {
                "run": run.name,
                "model_id": run.model_id,
                "provider": run.provider,
                "input_tokens": run.input_tokens,
                "output_tokens": run.output_tokens,
                "published_output": run.published_output,
                "book_output": r.book_output,
                "output_gap": r.output_gap,
                "published_input": run.published_input,
                "book_input_uncached": r.book_input_uncached,
                "book_input_all_cached": r.book_input_all_cached,
                "implied_cache_hit_share": r.implied_cache_hit_share,
                "published_total": run.published_total,
                "book_total_uncached": r.book_input_uncached + r.book_output,
                # the book's rates per 1M tokens beside the leaderboard's
                "book_input_rate": r.book_input_uncached / run.input_tokens * 1e6,
                "book_output_rate": r.book_output / run.output_tokens * 1e6,
                "published_input_rate": run.published_input_rate,
                "published_output_rate": run.published_output_rate,
                "row_ids": ";".join(r.row_ids),
            }
        )
    return pl.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# the same workload over time: at fixed capability, and across a scheduled change
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FixedCapabilityBill:
    """A workload's daily bill on the cheapest model reaching one benchmark threshold, over time
    (Epoch's staircase, `fixed_capability`, with the blend set to the workload's token mix)."""

    workload: str
    benchmark: str
    threshold_model: str
    threshold_score: float
    steps: pl.DataFrame  # model, date, price (USD per 1M of the mix), score, per_day
    trend: dict  # fixed_capability.trend: factor_per_year, ci90_low/high, n, start/end dates


def fixed_capability_bill(
    token_prices: pl.DataFrame,
    scores: pl.DataFrame,
    models: pl.DataFrame,
    workload: Workload,
    benchmark: str,
    threshold_model: str,
) -> FixedCapabilityBill:
    """The workload's bill at the capability of `threshold_model` on `benchmark`, since that
    model's date. Every token is billed uncached at list input and output rates (cards before
    2024 state no cache rates): a request costs input x input rate + (output + reasoning) x
    output rate, i.e. its tokens at the blend with the workload's own input:output ratio."""
    from analysis.methods import fixed_capability as fc

    out_tokens = workload.output_tokens + workload.reasoning_tokens
    obs = fc.full_observations(
        token_prices, scores, models, benchmark, ratio=(workload.input_tokens, out_tokens)
    )
    th = fc.thresholds(obs, benchmark).filter(pl.col("model") == threshold_model)
    if th.is_empty():
        raise ValueError(f"{threshold_model} sets no threshold on {benchmark}")
    score = th["score"][0]
    tokens_per_day = workload.requests_per_day * (workload.input_tokens + out_tokens)
    steps = fc.staircase(obs, score).with_columns(
        (pl.col("price") * tokens_per_day / 1e6).alias("per_day")
    )
    return FixedCapabilityBill(
        workload.name,
        benchmark,
        threshold_model,
        score,
        steps,
        fc.trend(obs, benchmark, threshold_model, score),
    )


def bills_on(
    token_prices: pl.DataFrame, windows: pl.DataFrame, workload: Workload, days: list[dt.date]
) -> pl.DataFrame:
    """The workload's daily bill per offer on each of `days` (the week from each): what a
    scheduled change does to a budget."""
    return pl.concat(
        [bills_frame(workload_bills(token_prices, windows, workload, d)) for d in days],
        how="vertical_relaxed",
    )


def effective_rates(bills: pl.DataFrame, workloads_: list[Workload]) -> pl.DataFrame:
    """Per workload and offer of `bills_frame(...)`: the rate per 1M tokens each bucket was
    billed at on average over the week (time-of-use hours and batch share folded in), beside
    the workload's own tokens. A bucket the workload has no tokens in has no average rate
    (null), except reasoning, billed at the output rate. The interactive calculator rescales
    tokens at these rates."""
    rows = []
    for w in workloads_:
        request = per_request(w)
        for r in bills.filter(pl.col("workload") == w.name).iter_rows(named=True):
            rate = {}
            for b in ("input", "cached_input", "output", "reasoning"):
                per_day_tokens = getattr(request, b) * w.requests_per_day
                rate[b] = r[f"{b}_per_day"] / per_day_tokens * 1e6 if per_day_tokens else None
            rate["reasoning"] = rate["output"]
            rows.append(
                {
                    "workload": w.name,
                    "model_id": r["model_id"],
                    "provider": r["provider"],
                    "offer": r["offer"],
                    "requests_per_day": w.requests_per_day,
                    "input_tokens": w.input_tokens,
                    "output_tokens": w.output_tokens,
                    "reasoning_tokens": w.reasoning_tokens,
                    "cache_hit_share": w.cache_hit_share,
                    **{f"{b}_rate": v for b, v in rate.items()},
                    "per_30_days": r["per_30_days"],
                }
            )
    return pl.DataFrame(rows)
