"""Prices as spells, one row per distinct fact, every source kept in `observations`.

The importers give one row per source run: a source (or one key of it) showing one price of one
model at one seller from `date` to `last_seen`. Several sources copy one upstream list (tokencost
repeats the LiteLLM mirror), one source lists a route under several keys (Bedrock's `us.`, `eu.`
and `apac.` profiles, `openai/` prefixes, dated keys), and community lists keep a superseded
price long after a cut. This module turns the runs into the facts they report:

- **Offer**: model, seller (provider id), price kind, context tier, quantisation, offer words,
  region and currency. Prices of different offers never mix.
- **Regions**: a regional key at the same price as the seller's cheapest route of the same
  source and dates is the same fact (its region is dropped). A dearer regional key keeps its
  region and is flagged `regional_surcharge` by the flag rules (the seller's price is its
  cheapest route, as for OpenRouter's regions in `analysis/data/providers.py`).
- **Spells**: walking an offer's runs by first date, a run at a new price opens a spell from its
  first date, and closes the previous one on that date (`valid_to`). A run at the current price
  extends the spell. A run at the price of an earlier, superseded spell, from a source that has
  not itself shown the newer price before, is a stale copy: it does not reopen the old price.
  Its evidence after the supersession becomes one `stale` row per spell, which the flag rules
  mark `superseded_stale`. `valid_to` is the last day a price is in force: the day before the
  next price's first evidence, else the last date a source saw it, or empty while a source's
  newest snapshot still shows it.
- **Scheduled prices and stated ends**: a run dated after its source's newest snapshot was
  listed ahead: its spell starts on its date and keeps its kind; `announce` says so
  (`announced`, the earliest such snapshot). A promotion's end as its source states it is
  `stated_end`, apart from `valid_to` (`_stated_ends`).
- **Offer words**: a seller's name for its one route (`-maas`, Groq's `-instant`) is the
  seller's wordless offer where the evidence shows one route (`fold_offer_words`).
- **Own rows**: a source of dated price points (Epoch's tables) or a hand entry (`data add`)
  keeps one row per row it gives (`own_rows`), in force until its next row of the offer.
- **Facts**: a spell's prices are its run's input, output and blended prices (the fact); cached
  and batch prices come from the first source, in `SOURCE_PRECEDENCE`, that states them.

Each output row has a `row_id`; `observations` lists every run behind it (source, name, locator
and the dates that source saw the fact within the row), so provenance stays complete.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date, timedelta

import polars as pl

from analysis.data.curate import identity

# Sources that state when a price took effect come first; then the fuller mirrors.
SOURCE_PRECEDENCE = [
    "genai-prices",
    "simonw-llm-prices",
    "digest-2026-09-27",
    "digest-2026-09-13",
    "litellm-rocry",
    "tokencost",
    "openrouter-sui414",
    "lmarena-catalog",
    "tokencost-yaml",
    "gundlach-inference",
    "epoch-llm-price-trends",
]
# Tables of dated price points, not snapshots of a current list (Epoch's analysis inputs): each
# row stays its own observation, as the analysis that published it used it, and its newest row
# is not "still listed". Downstream copies continued by another source: their last snapshot is not the newest
# evidence (tokencost copies LiteLLM's file and stopped in 2025-09; the RoCry mirror goes on).
HISTORICAL = frozenset({"epoch-llm-price-trends"})
# Rows a reader entered by hand (`data add`; their sources' ids start so): each is what its
# reader read on that day, kept as entered, one row per line, like the dated price points above.
HAND_ENTERED = "hand-"
CONTINUED_BY = {"tokencost": "litellm-rocry", "tokencost-yaml": "litellm-rocry"}
# Secondary copies of a direct source, by (copying source, seller): genai-prices' openrouter.yml
# says its data "is based on" https://openrouter.ai/api/v1/models, which openrouter-sui414
# scrapes daily (docs/sources.md). Evidence ranks first-party page > direct scrape > secondary
# copy: a copy at a price the direct source never showed for the offer neither closes nor
# reopens the direct source's spells; it is its own row (`row_kind` "copy", no spell), flagged
# `secondary_copy_conflict`. A copy at a price the direct source shows is evidence like any.
COPIES = {("genai-prices", "openrouter"): "openrouter-sui414"}
FACT = [
    "input_usd_per_mtok",
    "output_usd_per_mtok",
    "blended_usd_per_mtok",
    "input_original_per_mtok",
    "output_original_per_mtok",
    "blended_original_per_mtok",
]
EXTRA = [
    "cached_input_usd_per_mtok",
    "cache_write_usd_per_mtok",
    "batch_input_usd_per_mtok",
    "batch_output_usd_per_mtok",
]
# A scheduled price's announcement and a promotion's stated end (`_announced_and_ends`).
ANNOUNCED, STATED_END = "announced", "stated_end"
OFFER = [
    "model_id",
    "provider",
    "price_kind",
    "context_tier",
    "quantization",
    "offer",
    "region",
    "currency",
]


def own_rows(source_id: str) -> bool:
    """Whether each row of the source stays its own row (dated price points, hand entries)."""
    return source_id in HISTORICAL or source_id.startswith(HAND_ENTERED)


def own_rows_expr(source_id: pl.Expr) -> pl.Expr:
    """`own_rows` over a column of source ids."""
    return source_id.is_in(list(HISTORICAL)) | source_id.str.starts_with(HAND_ENTERED)


def _rank(source_id: str) -> int:
    return SOURCE_PRECEDENCE.index(source_id) if source_id in SOURCE_PRECEDENCE else 99


def _fact(row: dict) -> tuple:
    return tuple(None if row[c] is None else round(row[c], 9) for c in FACT)


def row_id(prefix: str, *parts: object) -> str:
    """A stable id from the key of a curated row: `<prefix>-<12 hex>`."""
    text = "\x1f".join("" if p is None else str(p) for p in parts)
    return f"{prefix}-{hashlib.sha1(text.encode()).hexdigest()[:12]}"


@dataclass
class Run:
    row: dict
    start: date
    end: date
    fact: tuple
    source: str


@dataclass
class Spell:
    fact: tuple
    start: date
    runs: list[Run] = field(default_factory=list)
    stale: list[tuple[Run, date, date]] = field(default_factory=list)  # run, from, to
    valid_to: date | None = None
    superseded: bool = False


def snapshot_dates(runs: pl.DataFrame | pl.LazyFrame) -> dict[str, list[date]]:
    """Every date each source shows anything (its snapshots, as far as the rows tell)."""
    both = pl.concat(
        [
            runs.select(pl.col("source_id").cast(pl.String), pl.col("date").alias("d")),
            runs.select(pl.col("source_id").cast(pl.String), pl.col("last_seen").alias("d")),
        ]
    ).drop_nulls()
    pairs = both.unique().sort("source_id", "d")
    out: dict[str, list[date]] = {}
    for s, d in (pairs.collect() if isinstance(pairs, pl.LazyFrame) else pairs).iter_rows():
        out.setdefault(s, []).append(d)
    return out


def fold_regions(prices: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame | pl.LazyFrame:
    """Drop the region of a regional row priced like the source's cheapest route of the same
    offer on overlapping dates (the same fact under another key)."""
    key = [c for c in OFFER if c != "region"] + ["source_id"]
    df = (
        prices.lazy()
        .with_row_index("_i")
        .with_columns(pl.coalesce("last_seen", "date").alias("_end"))
    )
    regional = df.filter(pl.col("region").is_not_null()).collect()
    if regional.is_empty():
        return prices
    pairs = (
        regional.lazy()
        .join(df, on=key, how="inner", suffix="_o", nulls_equal=True)
        .filter(
            # Another key: a key's own runs (a release's and a new snapshot's, `panel.extend`)
            # are one route, not two.
            (pl.col("_i") != pl.col("_i_o"))
            & (pl.col("source_model_name") != pl.col("source_model_name_o"))
            & (pl.col("date_o") <= pl.col("_end"))
            & (pl.col("_end_o") >= pl.col("date"))
        )
    )
    price = pl.coalesce("input_usd_per_mtok", "blended_usd_per_mtok")
    price_o = pl.coalesce("input_usd_per_mtok_o", "blended_usd_per_mtok_o")
    same = pl.all_horizontal([pl.col(c).eq_missing(pl.col(f"{c}_o")) for c in FACT])
    cheapest = (
        pairs.group_by("_i")
        .agg(
            same.filter(price_o <= price).any().alias("_matches_cheaper"),
            (price_o < price).any().alias("_dearer"),
        )
        .filter(pl.col("_matches_cheaper") | ~pl.col("_dearer"))
        .collect()
    )
    out = df.with_columns(
        pl.when(pl.col("_i").is_in(cheapest["_i"].implode()))
        .then(None)
        .otherwise(pl.col("region"))
        .alias("region")
    ).drop("_i", "_end")
    return out if isinstance(prices, pl.LazyFrame) else out.collect()


def fold_quantization(
    prices: pl.DataFrame | pl.LazyFrame, newest: dict[str, date] | None = None
) -> pl.LazyFrame:
    """One offer split by quantization (issue 19, class 5): a run with no quantization tag takes
    the tag another run of the same offer states (same model, seller, price kind, tier, offer
    words, region and currency) where that seller's runs of the offer state exactly one tag and
    a tagged run shows the same prices on overlapping dates: the same offer seen by a source
    that states the quantization (OpenRouter's endpoints) and one that does not (the price
    libraries), so one spell. Where the seller's runs state two tags (fp8 and bf16 endpoints) an
    untagged run could be either and stays its own; so does one at another price or date.
    A run its source's newest snapshot still shows (`newest`: source -> date) runs on."""
    key = [c for c in OFFER if c != "quantization"]
    last = pl.coalesce("last_seen", "date")
    still = (
        pl.col("source_id")
        .cast(pl.String)
        .replace_strict(newest or {}, default=None, return_dtype=pl.Date)
    )
    lf = (
        prices.lazy()
        .with_row_index("_q")
        .with_columns(
            pl.when(last >= still).then(pl.lit(date(2100, 1, 1))).otherwise(last).alias("_qend")
        )
    )
    tagged = lf.filter(pl.col("quantization").is_not_null())
    one_tag = (
        tagged.group_by(key)
        .agg(pl.col("quantization").n_unique().alias("_tags"))
        .filter(pl.col("_tags") == 1)
        .drop("_tags")
    )
    same = pl.all_horizontal([pl.col(c).eq_missing(pl.col(f"{c}_t")) for c in FACT])
    folded = (
        lf.filter(pl.col("quantization").is_null())
        .join(one_tag, on=key, how="inner", nulls_equal=True)
        .join(tagged, on=key, how="inner", suffix="_t", nulls_equal=True)
        .filter(
            same & (pl.col("date_t") <= pl.col("_qend")) & (pl.col("_qend_t") >= pl.col("date"))
        )
        .group_by("_q")
        .agg(pl.col("quantization_t").first().alias("_tag"))
    )
    return (
        lf.join(folded, on="_q", how="left", maintain_order="left")
        .with_columns(pl.coalesce("quantization", "_tag").alias("quantization"))
        .drop("_q", "_qend", "_tag")
    )


def fold_offer_words(
    prices: pl.DataFrame | pl.LazyFrame, newest: dict[str, date] | None = None
) -> pl.LazyFrame:
    """One offer split by offer words (issue 19, class 5): a seller's own name for its one
    route to a model (`identity.ONE_ROUTE_WORDS`: Vertex's `-maas`, Groq's `-instant` and
    `-versatile`, Databricks' `databricks-` prefix) is the same offer as the seller's wordless
    runs of the model (same model, seller, price kind, tier, region and currency) where the
    wordless runs on the word's dates show only prices the word's runs show, and at least one
    does: then every run under that word joins the wordless offer. A wordless run at another
    price on those dates is another route of the seller (Google's AI Studio price of a Gemma
    model beside Vertex's `-maas` price): the word tells the two apart and stays. Other words
    (speed tiers, context sizes, reasoning modes, OpenRouter's `:beta`, `:thinking`,
    `:extended`) name offers of their own and stay apart at any price. A run its source's
    newest snapshot still shows runs on."""
    key = [c for c in OFFER if c not in ("offer", "quantization")]
    last = pl.coalesce("last_seen", "date")
    still = (
        pl.col("source_id")
        .cast(pl.String)
        .replace_strict(newest or {}, default=None, return_dtype=pl.Date)
    )
    lf = prices.lazy().with_columns(
        pl.when(last >= still).then(pl.lit(date(2100, 1, 1))).otherwise(last).alias("_oend")
    )
    offer = pl.col("offer").cast(pl.String)
    worded = lf.filter(offer.is_in(list(identity.ONE_ROUTE_WORDS)))
    plain = lf.filter(offer.fill_null("") == "").with_row_index("_pi")
    group = [*key, "offer"]
    shown = worded.select(*group, *FACT).unique().with_columns(pl.lit(True).alias("_shown"))
    overlapping = (
        worded.join(plain, on=key, how="inner", suffix="_p", nulls_equal=True)
        .filter((pl.col("date_p") <= pl.col("_oend")) & (pl.col("_oend_p") >= pl.col("date")))
        .select(*group, "_pi", "offer_p", *[pl.col(f"{c}_p").alias(c) for c in FACT])
        .unique([*group, "_pi"])
    )
    folded = (
        overlapping.join(shown, on=[*group, *FACT], how="left", nulls_equal=True)
        .group_by(group)
        .agg(
            pl.col("_shown").fill_null(False).all().alias("_fold"),
            pl.col("offer_p").first().alias("_plain"),
        )
        .filter(pl.col("_fold"))
    )
    return (
        lf.join(folded, on=group, how="left", nulls_equal=True, maintain_order="left")
        .with_columns(
            pl.when(pl.col("_fold").fill_null(False))
            .then(pl.col("_plain"))
            .otherwise(pl.col("offer"))
            .alias("offer")
        )
        .drop("_oend", "_plain", "_fold")
    )


def fold_reported(prices: pl.DataFrame | pl.LazyFrame) -> pl.LazyFrame:
    """A `reported` run (a timeline citing the seller's page) at exactly the prices of a `list`
    run of the same offer is the same fact: it becomes evidence of the list price (its kind
    `list`), not a second clean row. The news digests' reported prices are claims to check and
    stay as they are."""
    lf = prices.lazy()
    key = [c for c in OFFER if c != "price_kind"]
    listed = (
        lf.filter(pl.col("price_kind") == "list")
        .select(*key, *FACT)
        .unique()
        .with_columns(pl.lit(True).alias("_listed"))
    )
    reported = (pl.col("price_kind") == "reported") & ~pl.col("source_id").cast(
        pl.String
    ).str.starts_with("digest-")
    return (
        lf.join(listed, on=[*key, *FACT], how="left", nulls_equal=True, maintain_order="left")
        .with_columns(
            pl.when(reported & pl.col("_listed").fill_null(False))
            .then(pl.lit("list"))
            .otherwise(pl.col("price_kind"))
            .alias("price_kind")
        )
        .drop("_listed")
    )


def mark_copies(prices: pl.DataFrame | pl.LazyFrame) -> pl.LazyFrame:
    """`_copy` "copy": the run is a secondary copy (`COPIES`) of a source that has runs of the
    same offer, at a price that source never shows for it (else null)."""
    lf = prices.lazy()
    src = pl.col("source_id").cast(pl.String)
    out = lf.with_columns(pl.lit(None, pl.String).alias("_copy"))
    for (copier, seller), direct in COPIES.items():
        shown = lf.filter(src == direct).select(*OFFER, *FACT).unique()
        offers = shown.select(OFFER).unique().with_columns(pl.lit(True).alias("_has"))
        facts = shown.with_columns(pl.lit(True).alias("_same"))
        mine = (src == copier) & (pl.col("provider") == seller)
        conflict = mine & pl.col("_has").fill_null(False) & ~pl.col("_same").fill_null(False)
        out = (
            out.join(offers, on=OFFER, how="left", nulls_equal=True, maintain_order="left")
            .join(facts, on=[*OFFER, *FACT], how="left", nulls_equal=True, maintain_order="left")
            .with_columns(
                pl.when(conflict).then(pl.lit("copy")).otherwise(pl.col("_copy")).alias("_copy")
            )
            .drop("_has", "_same")
        )
    return out


def mark_cancelled(lf: pl.LazyFrame, newest: dict[str, date]) -> pl.LazyFrame:
    """`_copy` "cancelled": a scheduled price (a run dated after its source's newest snapshot:
    announced, never seen in force) that the evidence after its date contradicts: a run of the
    same offer at another price, from a source whose newest snapshot is later than the scheduled
    date, seen on or after that date (aimeter, 2026-09-23: "The Sonnet 5 increase scheduled for
    1 Sep was cancelled", beside genai-prices' 2026-08-21 schedule). It walks apart, as its own
    row without a spell (flagged `cancelled_schedule`), and cuts nothing."""
    if not newest:
        return lf
    src = pl.col("source_id").cast(pl.String)
    snap = src.replace_strict(newest, default=None, return_dtype=pl.Date)
    end = pl.coalesce("last_seen", "date")
    rows = lf.with_columns(snap.alias("_snap"), end.alias("_e"))
    announced = rows.filter(pl.col("date") > pl.col("_snap")).select("_i", *OFFER, *FACT, "date")
    seen = rows.filter(pl.col("_copy").is_null() & (pl.col("date") <= pl.col("_snap")))
    seen = seen.select(*OFFER, *[pl.col(c).alias(f"{c}_o") for c in FACT], "_snap", "_e")
    same = pl.all_horizontal([pl.col(c).eq_missing(pl.col(f"{c}_o")) for c in FACT])
    cancelled = (
        announced.join(seen, on=OFFER, nulls_equal=True)
        .filter(~same & (pl.col("_snap") > pl.col("date")) & (pl.col("_e") >= pl.col("date")))
        .select("_i")
        .unique()
        .with_columns(pl.lit(True).alias("_cancel"))
    )
    return (
        lf.join(cancelled, on="_i", how="left", maintain_order="left")
        .with_columns(
            pl.when(pl.col("_cancel").fill_null(False))
            .then(pl.lit("cancelled"))
            .otherwise(pl.col("_copy"))
            .alias("_copy")
        )
        .drop("_cancel")
    )


def build_spells(runs: list[Run]) -> list[Spell]:
    """The spells of one offer from its runs (see the module docstring)."""
    runs = sorted(runs, key=lambda r: (r.start, _rank(r.source), r.end))
    spells: list[Spell] = []
    shown: dict[str, set[tuple]] = {}  # prices each source has shown so far
    for r in runs:
        current = spells[-1] if spells else None
        seen_before = shown.setdefault(r.source, set())
        if current is None or r.fact == current.fact:
            if current is None:
                spells.append(Spell(r.fact, r.start))
            spells[-1].runs.append(r)
        else:
            earlier = next((s for s in reversed(spells[:-1]) if s.fact == r.fact), None)
            newer = {s.fact for s in spells[spells.index(earlier) + 1 :]} if earlier else set()
            if earlier is not None and not (seen_before & newer):
                # A stale copy of a superseded price: evidence for the old spell, after its end.
                earlier.runs.append(r)
            else:
                current.valid_to = r.start  # the next price's first date (the cut)
                current.superseded = True
                spells.append(Spell(r.fact, r.start, [r]))
        seen_before.add(r.fact)
    return spells


OBS_SCHEMA = {
    "table": pl.String,
    "row_id": pl.String,
    "source_id": pl.String,
    "source_name": pl.String,
    "source_locator": pl.String,
    "date": pl.Date,
    "last_seen": pl.Date,
}
# The order `curate_prices` gives observations in (Epoch's rows first, then by offer, spell,
# spell before stale row, walking order), carried by the lazy observations until collected.
ORDER = ["_part", "_s", "_kind", "_k"]


def curate_prices(
    prices: pl.DataFrame, newest: dict[str, date] | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(token_prices as spells, observations). `prices` are identified runs (model_id, offer,
    region, ...). `newest` gives each source's newest snapshot date (default: from the rows)."""
    table, obs = _curate(prices.lazy(), newest, in_memory=True)
    return table, obs.collect().sort(ORDER).drop(ORDER)


def curate_prices_lazily(
    prices: pl.LazyFrame, newest: dict[str, date] | None = None
) -> tuple[pl.DataFrame, pl.LazyFrame]:
    """`curate_prices` for more runs than memory holds comfortably: `prices` is read column by
    column as each step needs it (over a Parquet file it stays on disk), and the observations,
    one row per run, come back lazily (to sink to a file), in no particular order."""
    table, obs = _curate(prices.lazy(), newest)
    return table, obs.drop(ORDER)


def _curate(
    prices: pl.LazyFrame, newest: dict[str, date] | None, in_memory: bool = False
) -> tuple[pl.DataFrame, pl.LazyFrame]:
    """The walk of `build_spells` is sequential, but it only needs, per offer, each source's
    first run in every stretch of runs at one price (in walking order): a later run of the same
    source in the stretch goes where the run before it went (the walk's state changes only by
    the price the stretch shows). So Python walks those runs alone, and everything per run
    (cutting runs at the next price, stale segments, provenance) is done on whole columns."""
    # a price column newer than the rows (a release before cache_write_usd_per_mtok): unstated
    # while curating, and left out of the table again, as the rows have it
    absent = [c for c in EXTRA if c not in prices.collect_schema()]
    prices = prices.with_columns(pl.lit(None, pl.Float64).alias(c) for c in absent)
    if STATED_END not in prices.collect_schema():  # runs of a release before the column
        absent.append(STATED_END)
        prices = prices.with_columns(pl.lit(None, pl.Date).alias(STATED_END))
    # Each fold reads its input two to four times (self-joins), so chained lazily their plans
    # nest: the five folds and `mark_cancelled` made a plan of ~3,500 lines that cost ~1.5 s of
    # CPU to optimise and run whatever the rows (benchmarks/bench_curate.py). The eager entry
    # point collects each fold's output instead; the lazy one keeps the plan (memory first).
    step = (lambda f: f.collect().lazy()) if in_memory else (lambda f: f)
    lf = step(fold_regions(prices.with_columns(pl.col("context_tier").fill_null(""))))
    snaps = snapshot_dates(lf)
    # A table of dated price points ends at its own last date (`_historical_rows`).
    table_end = {s: d[-1] for s, d in snaps.items()}
    # A source's newest snapshot: as given (its retrieval date), else the rows' largest date.
    newest = table_end | (newest or {})
    lf = step(fold_quantization(step(fold_offer_words(lf, newest)), newest))
    lf = step(mark_copies(step(fold_reported(lf))))
    names = lf.collect_schema()
    cols = [
        c
        for c in names
        if c not in ("valid_from", "valid_to", ANNOUNCED, "row_id", "source_ids", "_copy")
    ]
    schema = {c: names[c] for c in cols} | {
        "valid_from": pl.Date,
        "valid_to": pl.Date,
        "row_id": pl.String,
        "source_ids": pl.String,
        "row_kind": pl.String,
    }
    lf = lf.with_row_index("_i")  # the order the runs were given in breaks ties
    lf = step(mark_cancelled(lf, newest))
    is_historical = own_rows_expr(pl.col("source_id").cast(pl.String))
    # Dated price points of an analysis's table: few rows, each its own; walked as they are.
    historical: dict[tuple, list[Run]] = {}
    for row in lf.filter(is_historical).drop("_i").collect().iter_rows(named=True):
        end = row["last_seen"] or row["date"]
        run = Run(row, row["date"], end, _fact(row), row["source_id"])
        historical.setdefault((*(row[c] for c in OFFER), row["source_id"]), []).append(run)
    hist_rows: list[dict] = []
    hist_obs: list[dict] = []
    for key, runs in historical.items():
        hist_rows += _historical_rows(key, runs, table_end, hist_obs)
    table = pl.DataFrame(hist_rows, schema=schema, orient="row")
    obs = (
        pl.DataFrame(hist_obs, schema=OBS_SCHEMA, orient="row")
        .unique(["row_id", "source_id", "source_locator"], keep="first", maintain_order=True)
        .with_row_index("_s")
        .with_columns(pl.lit(0, pl.Int8).alias("_part"), pl.lit(0, pl.Int8).alias("_kind"))
        .with_columns(pl.col("_s").alias("_k"))
        .select(*OBS_SCHEMA, *ORDER)
        .lazy()
    )
    spelled, spell_obs = _spells(lf.filter(~is_historical), snaps, newest)
    if spelled is not None:
        table = pl.concat([table, spelled.select(list(schema)).cast(schema)])
        obs = pl.concat([obs, spell_obs])
    table = end_replaced_by_promotion(table, obs)
    table = end_by_time_of_use(end_promotions(table)).with_columns(
        pl.when(pl.col("context_tier") == "")
        .then(None)
        .otherwise(pl.col("context_tier"))
        .alias("context_tier")
    )
    return table.drop(absent), obs.select(*OBS_SCHEMA, *ORDER)


def end_by_time_of_use(table: pl.DataFrame) -> pl.DataFrame:
    """A time-of-use card replaces the all-day price: a `list` spell of the offer (model,
    seller, tier, currency, ...) that began before the card's first `off-peak` day and runs past
    it ends the day before (LiteLLM's all-day DeepSeek V4 Pro price of July is not in
    force beside the peak and off-peak rates from 2026-08-16)."""
    key = [c for c in OFFER if c != "price_kind"]
    spell = pl.col("row_kind") == "spell"
    tou = (
        table.filter(spell & (pl.col("price_kind") == "off-peak"))
        .group_by(key)
        .agg(pl.col("valid_from").min().alias("_tou"))
    )
    if tou.is_empty():
        return table
    ends = (
        table.with_row_index("_p")
        .filter(spell & (pl.col("price_kind") == "list"))
        .join(tou, on=key, nulls_equal=True)
        .filter(
            (pl.col("valid_from") < pl.col("_tou"))
            # a card billed until the switch's day (the flat card to 16:00 UTC) keeps its end
            & (pl.col("valid_to").is_null() | (pl.col("valid_to") > pl.col("_tou")))
        )
        .select("_p", (pl.col("_tou") - pl.duration(days=1)).alias("_end"))
    )
    if ends.is_empty():
        return table
    return _end_at(table, ends)


def _end_at(table: pl.DataFrame, ends: pl.DataFrame) -> pl.DataFrame:
    """`table` with `valid_to` set to `_end` for the rows `ends` names by row index (`_p`)."""
    return (
        table.with_row_index("_p")
        .join(ends, on="_p", how="left")
        .with_columns(pl.coalesce("_end", "valid_to").alias("valid_to"))
        .drop("_p", "_end")
    )


def end_replaced_by_promotion(table: pl.DataFrame, obs: pl.LazyFrame) -> pl.DataFrame:
    """A promotion that replaces a list price ends that list spell the day before it starts
    (issue 19, class 2a). The evidence is the promotion's own source: it showed the list price
    of the same offer only before the promotion began, then the promotion ("pre-August-21 usage
    retains $5/$30" beside GPT-5.6 Sol's 4/20 from 2026-08-21), and the promotion runs at least
    as long as the list spell. Price libraries that keep copying the old list price afterwards
    do not keep it in force."""
    key = [c for c in OFFER if c != "price_kind"]
    spell = pl.col("row_kind") == "spell"
    promo = table.filter(spell & (pl.col("price_kind") == "promotional")).select(
        *key,
        pl.col("valid_from").alias("_start"),
        pl.col("valid_to").alias("_promo_end"),
        pl.col("source_ids").alias("_promo_src"),
    )
    if promo.is_empty():
        return table
    pairs = (
        table.with_row_index("_p")
        .filter(spell & (pl.col("price_kind") == "list"))
        .select("_p", "row_id", *key, "valid_from", "valid_to")
        .join(promo, on=key, nulls_equal=True)
        .filter(
            (pl.col("valid_from") < pl.col("_start"))
            & (pl.col("valid_to").is_null() | (pl.col("valid_to") >= pl.col("_start")))
            # a promotion that ends before the list spell does is a discount the list price
            # outlasts (Gundlach's one-month December 2025 points), not a replacement
            & (
                pl.col("_promo_end").is_null()
                | (pl.col("valid_to").is_not_null() & (pl.col("_promo_end") >= pl.col("valid_to")))
            )
        )
        .drop("_promo_end")
        .with_columns(pl.col("_promo_src").str.split(";"))
        .explode("_promo_src")
    )
    if pairs.is_empty():
        return table
    seen = (
        obs.filter(pl.col("row_id").is_in(pairs["row_id"].unique().implode()))
        .select(
            "row_id",
            pl.col("source_id").alias("_promo_src"),
            pl.coalesce("last_seen", "date").alias("_seen"),
        )
        .collect()
        .group_by("row_id", "_promo_src")
        .agg(pl.col("_seen").max())
    )
    ends = (
        pairs.join(seen, on=["row_id", "_promo_src"])
        .filter(pl.col("_seen") < pl.col("_start"))
        .group_by("_p")
        .agg((pl.col("_start").min() - pl.duration(days=1)).alias("_end"))
    )
    if ends.is_empty():
        return table
    return _end_at(table, ends)


def end_promotions(table: pl.DataFrame) -> pl.DataFrame:
    """A promotion ends the day before the standard (`list`) price its own source states to
    follow it: a source giving "$0.75 through December 31, then $1.50 from January 1" gives a
    promotional spell and a scheduled list spell of the same offer; the promotion is in force
    to the day before the scheduled price, whatever the snapshots' dates. Other promotions
    keep their spells."""
    key = [c for c in OFFER if c != "price_kind"]
    spell = pl.col("row_kind") == "spell"
    promo = table.with_row_index("_p").filter(spell & (pl.col("price_kind") == "promotional"))
    if promo.is_empty():
        return table
    follow = table.filter(spell & (pl.col("price_kind") == "list")).select(
        *key, pl.col("valid_from").alias("_next"), pl.col("source_ids").alias("_next_src")
    )
    pairs = (
        promo.select("_p", *key, "valid_from", "valid_to", "source_ids")
        .join(follow, on=key, nulls_equal=True)
        .filter(
            (pl.col("_next") > pl.col("valid_from"))
            & (pl.col("valid_to").is_null() | (pl.col("valid_to") >= pl.col("_next")))
            & pl.col("source_ids")
            .str.split(";")
            .list.set_intersection(pl.col("_next_src").str.split(";"))
            .list.len()
            .gt(0)
        )
        .group_by("_p")
        .agg((pl.col("_next").min() - pl.duration(days=1)).alias("_end"))
    )
    if pairs.is_empty():
        return table
    return _end_at(table, pairs)


def _duplicated(values: pl.Series) -> pl.Series:
    """`values.is_duplicated()` by a sort (a hash table of millions of values costs more)."""
    order = values.arg_sort()
    by_value = values.gather(order)
    same = (by_value == by_value.shift(1)).fill_null(False)
    repeated = same | same.shift(-1, fill_value=False)
    return pl.repeat(False, values.len(), eager=True).scatter(order, repeated)


def _walk(first_runs: pl.DataFrame, sources: list[str]) -> tuple[pl.Series, pl.DataFrame]:
    """`build_spells` over each offer's first run per source and price stretch (sorted by offer
    and walking order): the spell each of them joins (numbered across offers, in output
    order), and every spell's start, cut (`valid_to`, the next price's first date) and whether
    a later price superseded it."""
    joined: list[int] = []
    starts, cuts, superseded = [], [], []
    runs: list[Run] = []
    offer = None

    def flush() -> None:
        first = len(starts)
        for k, spell in enumerate(build_spells(runs)):
            starts.append(spell.start)
            cuts.append(spell.valid_to)
            superseded.append(spell.superseded)
            for r in spell.runs:
                joined[r.row] = first + k

    rows = first_runs.select("_g", "date", "_end", "_f", "_src").iter_rows()
    for n, (g, start, end, fact, src) in enumerate(rows):
        if g != offer:
            if runs:
                flush()
            runs, offer = [], g
        joined.append(-1)
        runs.append(Run(n, start, end, fact, sources[src]))  # row: its place in `first_runs`
    if runs:
        flush()
    info = pl.DataFrame(
        {"_start": starts, "_cut": cuts, "_sup": superseded},
        schema={"_start": pl.Date, "_cut": pl.Date, "_sup": pl.Boolean},
    )
    return pl.Series("_s", joined, dtype=pl.UInt32), info


def _snapshot_near(
    runs: pl.DataFrame, on: pl.Expr, snaps: pl.DataFrame, strategy: str
) -> pl.Series:
    """Per row of `runs` (sorted by `_k`), the source's first snapshot date on or after `on`
    (strategy "forward") or its last on or before it ("backward"); null where there is none."""
    if runs.is_empty():
        return pl.Series("_snap", [], dtype=pl.Date)
    near = (
        runs.select("_k", "_src", on.alias("_on"))
        .sort("_on")
        .join_asof(
            snaps,
            left_on="_on",
            right_on="_snap",
            by="_src",
            strategy=strategy,
            check_sortedness=False,
        )
        .sort("_k")
    )
    return near["_snap"]


def _spells(
    lf: pl.LazyFrame, snaps: dict[str, list[date]], newest: dict[str, date]
) -> tuple[pl.DataFrame | None, pl.LazyFrame | None]:
    """The spell and stale rows of the non-historical runs `lf` (with `_i`), in the walk's
    order (offers by first appearance, spells in order, a spell's stale row after it), and
    their observations, lazily."""
    src = pl.col("source_id").cast(pl.String)
    # Offers and facts (the prices, rounded as `_fact` rounds them) are told apart by a hash of
    # their columns, numbered from the distinct ones (checked to hash apart): no join of
    # millions of rows on eight strings or six floats.
    raw = [(pl.col(c) + 0.0).alias(c) for c in FACT]  # + 0.0: -0.0 is 0.0, as Python compares
    offer_hash = pl.struct(*OFFER, "_copy").hash(14).alias("_oh")  # a copy walks apart
    fact_hash = pl.struct(raw).hash(14).alias("_fh")  # raw: the same on rows and on `facts`
    # (Three passes: collected together, polars would hold the rows they share in memory.)
    # (A hash is the same of the same values: taken on the distinct ones, it is the rows'.)
    offers = lf.group_by(*OFFER, "_copy").agg(pl.col("_i").min().alias("_first")).collect()
    offers = offers.with_columns(offer_hash)
    facts = lf.select(raw).unique().collect().with_columns(fact_hash)
    seen = lf.select(src.drop_nulls().unique().implode(), pl.len().alias("_n")).collect()
    if seen["_n"][0] == 0:
        return None, None
    if offers["_oh"].n_unique() < offers.height or facts["_fh"].n_unique() < facts.height:
        raise RuntimeError("two offers or two prices hash alike: curate them by their columns")
    offers = offers.sort("_first").with_row_index("_g").select("_oh", "_g")
    ids: dict[tuple, int] = {}
    fact_ids = [
        ids.setdefault(tuple(None if v is None else round(v, 9) + 0.0 for v in row), len(ids))
        for row in facts.select(FACT).iter_rows()
    ]
    facts = facts.select("_fh", pl.Series("_f", fact_ids, dtype=pl.UInt32))
    sources = sorted(seen["source_id"][0])
    code = {s: i for i, s in enumerate(sources)}
    by_hash = pl.DataFrame(
        {
            "_sh": pl.Series(sources, dtype=pl.String).hash(14),
            "_rank": pl.Series([_rank(s) for s in sources], dtype=pl.Int16),
            "_src": pl.Series(range(len(sources)), dtype=pl.UInt32),
        }
    )
    if by_hash["_sh"].n_unique() < len(sources):
        raise RuntimeError("two sources hash alike: curate them by their columns")
    # One row per run, with what the walk and the cuts read (a few bytes a run).
    w = (
        lf.select(
            "_i",
            offer_hash,
            fact_hash,
            "date",
            pl.coalesce("last_seen", "date").alias("_end"),
            # the source by hash too: mapping strings to codes row by row reads the whole column
            src.hash(14).alias("_sh"),
            pl.struct(src, pl.col("source_locator").cast(pl.String)).hash(14).alias("_h"),
            # which of the cached and batch prices the run states, one bit each
            pl.sum_horizontal(
                pl.col(c).is_not_null().cast(pl.UInt8) * (1 << j) for j, c in enumerate(EXTRA)
            ).alias("_x"),
        )
        .collect()
        .with_columns(
            pl.col("_oh").replace_strict(offers["_oh"], offers["_g"]).alias("_g"),
            pl.col("_fh").replace_strict(facts["_fh"], facts["_f"]).alias("_f"),
            pl.col("_sh").replace_strict(by_hash["_sh"], by_hash["_rank"]).alias("_rank"),
            pl.col("_sh").replace_strict(by_hash["_sh"], by_hash["_src"]).alias("_src"),
        )
        .drop("_oh", "_fh", "_sh")
        # Walking order: by first date, source precedence, last date, then as given.
        .sort("_g", "date", "_rank", "_end", "_i")
        .with_row_index("_k")
    )
    stretch = (pl.col("_f") != pl.col("_f").shift(1)) | (pl.col("_g") != pl.col("_g").shift(1))
    w = w.with_columns(
        stretch.fill_null(True).cum_sum().alias("_stretch"),
        # a locator its source gives more than once (by hash; confirmed exactly where it counts)
        _duplicated(w["_h"]).alias("_rep"),
    ).drop("_h")
    first = w.filter(pl.struct("_stretch", "_src").is_first_distinct())
    joined, info = _walk(first, sources)
    spell = (
        pl.repeat(None, w.height, dtype=pl.UInt32, eager=True)
        .scatter(first["_k"], joined)
        .forward_fill()
    )
    w = w.drop("_stretch", "_f", "_g").with_columns(
        spell.alias("_s"),
        info["_cut"].gather(spell).alias("_cut"),
        info["_sup"].gather(spell).alias("_sup"),
    )
    snap_frame = pl.DataFrame(
        {
            "_src": [code[s] for s, ds in snaps.items() if s in code for _ in ds],
            "_snap": [d for s, ds in snaps.items() if s in code for d in ds],
        },
        schema={"_src": pl.UInt32, "_snap": pl.Date},
    ).sort("_snap")
    # A superseded spell's runs are cut at the next price's first date: what a run showed
    # before stays (to its last sighting in force), what it showed from then on is stale.
    sup, cut = pl.col("_sup"), pl.col("_cut")
    kept = w.filter(~sup | (pl.col("date") < cut))
    crossing = kept.filter(sup & (pl.col("_end") >= cut))
    last_in_force = _snapshot_near(crossing, cut - pl.duration(days=1), snap_frame, "backward")
    ends = crossing.select(
        "_k",
        pl.when(last_in_force >= pl.col("date"))
        .then(last_in_force)
        .otherwise(pl.col("date"))
        .alias("_in_force"),
    )
    kept = kept.join(ends, on="_k", how="left", maintain_order="left").with_columns(
        pl.coalesce("_in_force", "_end").alias("_in_force")
    )
    after = w.filter(sup & (pl.col("_end") >= cut))
    del w
    first_stale = _snapshot_near(after, pl.max_horizontal(cut, "date"), snap_frame, "forward")
    stale = (
        after.with_columns(first_stale.alias("_from"))
        .filter(pl.col("_from") <= pl.col("_end"))
        .with_columns(pl.col("_end").alias("_in_force"))
    )
    open_ = {code[s]: d for s, d in newest.items() if s in code and s not in CONTINUED_BY}
    still = kept.group_by("_s").agg(
        (pl.col("_end") >= pl.col("_src").replace_strict(open_, default=None, return_dtype=pl.Date))
        .fill_null(False)
        .any()
        .alias("_still")
    )
    info = info.with_row_index("_s")
    rows = _rows(lf, {"spell": kept, "stale": stale}, info, sources)
    spell_rows = (
        rows.filter(pl.col("row_kind") == "spell")
        .join(still, on="_s")
        .with_columns(
            pl.col("_start").alias("valid_from"),
            # The last day in force: the day before the next price, else the last sighting.
            pl.when(pl.col("_sup"))
            .then(pl.max_horizontal("_start", pl.col("_cut") - pl.duration(days=1)))
            .when(pl.col("_still"))
            .then(None)
            .otherwise(pl.col("_last"))
            .alias("valid_to"),
        )
    )
    stale_rows = rows.filter(pl.col("row_kind") == "stale").with_columns(
        pl.lit(None, pl.Date).alias("valid_from"), pl.lit(None, pl.Date).alias("valid_to")
    )
    table = pl.concat([spell_rows, stale_rows], how="diagonal_relaxed").sort("_s", "_kind")
    table = _stated_ends(table, lf, kept)
    # A secondary copy's own price (`mark_copies`): a row without a spell, never in force.
    # A cancelled schedule (`mark_cancelled`) likewise.
    copy = pl.col("_copy").is_not_null()
    table = table.with_columns(
        pl.when(copy).then(None).otherwise(pl.col("valid_from")).alias("valid_from"),
        pl.when(copy).then(None).otherwise(pl.col("valid_to")).alias("valid_to"),
        pl.when(copy).then(pl.col("_copy")).otherwise(pl.col("row_kind")).alias("row_kind"),
        pl.when(copy)
        .then(pl.concat_str([pl.col("row_id"), pl.col("_copy")]))
        .otherwise(pl.col("row_id"))
        .alias("_rid"),
    )
    table = table.with_columns(
        pl.when(copy)
        .then(
            pl.col("_rid").map_elements(
                lambda t: row_id("tp", t), return_dtype=pl.String, skip_nulls=True
            )
        )
        .otherwise(pl.col("row_id"))
        .alias("row_id")
    ).drop("_rid")
    # Provenance: every run behind a row; a locator a source repeats within a row, once.
    links = pl.concat(
        [
            kept.select("_i", "_s", pl.lit(0, pl.Int8).alias("_kind"), "_k", "_src", "_rep",
                        "date", pl.col("_in_force").alias("last_seen")),
            stale.select("_i", "_s", pl.lit(1, pl.Int8).alias("_kind"), "_k", "_src", "_rep",
                         pl.col("_from").alias("date"), pl.col("_end").alias("last_seen")),
        ]
    )  # fmt: skip
    links = _drop_repeated_locators(lf, links)
    ids = table.select("_s", "_kind", "row_id")
    obs = (
        lf.select("_i", "source_id", "source_model_name", "source_locator")
        .join(links.lazy(), on="_i")
        .join(ids.lazy(), on=["_s", "_kind"], how="left")
        .select(
            pl.lit("token_prices").alias("table"),
            "row_id",
            pl.col("source_id").cast(pl.String),
            pl.col("source_model_name").cast(pl.String).alias("source_name"),
            pl.col("source_locator").cast(pl.String),
            "date",
            "last_seen",
            pl.lit(1, pl.Int8).alias("_part"),
            "_s",
            "_kind",
            "_k",
        )
    )
    return table, obs


def _stated_ends(table: pl.DataFrame, lf: pl.LazyFrame, kept: pl.DataFrame) -> pl.DataFrame:
    """A spell row's `stated_end`: the latest end its runs in force state (a later snapshot may
    extend a promotion). Stale rows keep their first run's."""
    stated = lf.filter(pl.col(STATED_END).is_not_null()).select("_i", STATED_END).collect()
    ends = (
        kept.select("_i", "_s")
        .join(stated, on="_i")
        .group_by("_s")
        .agg(pl.col(STATED_END).max().alias("_end"))
    )
    spell = (pl.col("_kind") == 0) & pl.col("_end").is_not_null()
    return (
        table.join(ends, on="_s", how="left", maintain_order="left")
        .with_columns(
            pl.when(spell).then(pl.col("_end")).otherwise(pl.col(STATED_END)).alias(STATED_END)
        )
        .drop("_end")
    )


def announce(
    table: pl.DataFrame, observations: pl.DataFrame, newest: dict[str, date] | None
) -> pl.DataFrame:
    """token_prices with `announced`: a row whose evidence includes a run dated after its
    source's newest snapshot (`newest`: each source's retrieval date) was listed before it took
    effect (a scheduled price: genai-prices' `start_date`, simonw's future `from_date`, "$1.50
    starting January 1, 2027."); `announced` is the earliest such snapshot date. The row keeps
    its kind (a scheduled list price is `list`) and is in force from `valid_from`. Without
    snapshot dates nothing can be told announced: the column is empty."""
    snap = pl.col("source_id").replace_strict(newest or {}, default=None, return_dtype=pl.Date)
    ahead = (
        observations.filter(pl.col("table") == "token_prices")
        .filter(pl.col("date") > snap)
        .group_by("row_id")
        .agg(snap.min().alias(ANNOUNCED))
    )
    return table.drop(ANNOUNCED, strict=False).join(
        ahead, on="row_id", how="left", maintain_order="left"
    )


def _drop_repeated_locators(lf: pl.LazyFrame, links: pl.DataFrame) -> pl.DataFrame:
    """Links (run -> row) less the later runs (in walking order) of a row whose source repeats
    a locator: the first one stands (`_rep` marks the runs whose locator may repeat)."""
    maybe = links.filter(pl.col("_rep"))
    if maybe.is_empty():
        return links.drop("_src", "_rep")
    text = (
        lf.filter(pl.col("_i").is_in(maybe["_i"].unique().implode()))
        .select("_i", pl.col("source_locator").cast(pl.String))
        .collect()
    )
    later = (
        maybe.join(text, on="_i")
        .sort("_k")
        .filter(~pl.struct("_s", "_kind", "_src", "source_locator").is_first_distinct())
        .select("_i", "_kind")
    )
    return links.join(later, on=["_i", "_kind"], how="anti", maintain_order="left").drop(
        "_src", "_rep"
    )


def _rows(
    lf: pl.LazyFrame, runs: dict[str, pl.DataFrame], info: pl.DataFrame, sources: list[str]
) -> pl.DataFrame:
    """One row per spell and kind ("spell": its runs in force; "stale": its stale segments), as
    `_base` makes it: the values of its earliest run (by date, source precedence, locator),
    cached and batch prices from the first source in precedence that states them, every
    source, the id. With `_s`, `_kind`, `_start`, `_cut`, `_sup` and `_last` (latest sighting).
    """
    kinds = {"spell": 0, "stale": 1}
    every = pl.concat(
        [
            r.select(
                "_i", "_s", "_k", "_src", "_rank", "date", "_in_force", "_x",
                (pl.col("_from") if kind == "stale" else pl.col("date")).alias("_from"),
                pl.lit(kinds[kind], pl.Int8).alias("_kind"),
            )
            for kind, r in runs.items()
        ]
    )  # fmt: skip
    by = ["_s", "_kind"]
    # The earliest run: only runs on the first date, of the best-ranked source, can be it.
    cand = every.filter(pl.col("date") == pl.col("date").min().over(by))
    cand = cand.filter(pl.col("_rank") == pl.col("_rank").min().over(by))
    per_row = every.group_by(by).agg(
        pl.col("_from").min().alias("_row_start"),
        pl.col("_in_force").max().alias("_last"),
    )
    # Cached, cache-write and batch prices: the first run, in precedence, that states each (one
    # sort for them all).
    ranked = every.select(*by, "_rank", "date", "_k", "_i", "_x").sort(*by, "_rank", "date", "_k")
    stating = [
        ranked.filter((pl.col("_x") & (1 << j)) > 0)
        .unique(by, keep="first", maintain_order=True)
        .select(*by, pl.col("_i").alias(f"\x00{c}"))
        for j, c in enumerate(EXTRA)
    ]
    names = dict(enumerate(sources))
    source_ids = (
        every.select(*by, "_rank", "_src")
        .unique([*by, "_src"])
        .with_columns(pl.col("_src").replace_strict(names, return_dtype=pl.String).alias("_name"))
        .sort(*by, "_rank", "_name")
        .group_by(by, maintain_order=True)
        .agg(pl.col("_name").str.join(";").alias("source_ids"))
    )
    derived = ["valid_from", "valid_to", ANNOUNCED, "row_id", "source_ids", "row_kind"]
    schema = lf.collect_schema()
    first_stale = _first_stale(every.filter(pl.col("_kind") == 1))
    wanted = pl.concat([cand["_i"], *[f[:, -1] for f in stating], first_stale["_i"]]).unique()
    # One read of the few runs a row may take its values from (a read of every column).
    base = (
        lf.filter(pl.col("_i").is_in(wanted.implode()))
        .drop([c for c in derived if c in schema])
        .collect()
    )
    text = base.select("_i", pl.col("source_locator").cast(pl.String))
    earliest = (
        cand.join(text, on="_i")
        .sort(*by, "source_locator", "_k")
        .unique(by, keep="first", maintain_order=True)
        .select(*by, "_i")
    )
    rows = earliest.join(base.drop(EXTRA), on="_i").drop("_i")
    for c, f in zip(EXTRA, stating, strict=True):
        value = base.select(pl.col("_i").alias(f"\x00{c}"), c)
        rows = rows.join(f.join(value, on=f"\x00{c}").drop(f"\x00{c}"), on=by, how="left")
    rows = (
        rows.with_columns(pl.col(c).cast(schema[c]) for c in EXTRA)
        .join(per_row, on=by)
        .join(source_ids, on=by)
        .join(info, on="_s")
    )
    kind = pl.col("_kind").replace_strict({0: "spell", 1: "stale"}, return_dtype=pl.String)
    key = pl.concat_str(
        [pl.col(c).cast(pl.String).fill_null("") for c in OFFER]
        + [kind, pl.col("_row_start").cast(pl.String)],
        separator="\x1f",
    )
    rows = rows.with_columns(
        key.map_elements(
            lambda s: f"tp-{hashlib.sha1(s.encode()).hexdigest()[:12]}", return_dtype=pl.String
        ).alias("row_id"),
        kind.alias("row_kind"),
        pl.col("_row_start").alias("date"),
        pl.col("_last").alias("last_seen"),
    )
    return _stale_ids(first_stale, base, rows)


def _first_stale(stale: pl.DataFrame) -> pl.DataFrame:
    """The runs a stale row's first run is among: those on its first date."""
    return stale.filter(pl.col("date") == pl.col("date").min().over(["_s", "_kind"]))


def _stale_ids(cand: pl.DataFrame, base: pl.DataFrame, rows: pl.DataFrame) -> pl.DataFrame:
    """Two superseded prices of one offer can each leave a stale copy from the same day (and two
    spells of one price, under two source names): a stale row's id also names the price and the
    source name of its first run (by date, then name, then walking order). `cand`: the stale
    rows' `_first_stale` runs, whose values `base` holds."""
    if cand.is_empty():
        return rows
    by = ["_s", "_kind"]
    text = base.select("_i", pl.col("source_model_name").cast(pl.String), *FACT)
    first = (
        cand.select(*by, "_i", "_k", "date")
        .join(text, on="_i")
        .sort(*by, "date", "source_model_name", "_k")
        .unique(by, keep="first", maintain_order=True)
    )
    few = rows.filter(pl.col("_kind") == 1).select(*by, *OFFER, "_row_start")
    few = few.join(first.drop("date"), on=by)
    ids = [
        row_id(
            "tp",
            *(r[c] for c in OFFER),
            "stale",
            r["_row_start"],
            *_fact(r),
            r["source_model_name"],
        )
        for r in few.iter_rows(named=True)
    ]
    ids = few.select(*by, pl.Series("_stale_id", ids, dtype=pl.String))
    return (
        rows.join(ids, on=by, how="left", maintain_order="left")
        .with_columns(pl.coalesce("_stale_id", "row_id").alias("row_id"))
        .drop("_stale_id")
    )


def _base(key: tuple, runs: list[Run], kind: str, start: date, obs: list[dict]) -> dict:
    first = min(runs, key=lambda r: (r.start, _rank(r.source), r.row["source_locator"]))
    row = dict(first.row)
    for c in EXTRA:  # cached, cache-write and batch prices: the first source stating them
        stated = sorted(
            (r for r in runs if r.row.get(c) is not None),
            key=lambda r: (_rank(r.source), r.start),
        )
        row[c] = stated[0].row[c] if stated else None
    sources = sorted({r.source for r in runs}, key=lambda s: (_rank(s), s))
    row["row_id"] = row_id("tp", *key, kind, start)
    row["source_ids"] = ";".join(sources)
    row["row_kind"] = kind
    return row


def _historical_rows(key, runs: list[Run], newest, obs: list[dict]) -> list[dict]:
    """A dated price point of an analysis's table (Epoch's: a price change is a new row) stays
    its own row, as that analysis used it: in force until the day before the offer's next row in
    the same table, the last one until the table's last date. Nothing is merged or called stale;
    `last_seen` stays as the source gives it (empty)."""
    runs = sorted(runs, key=lambda r: (r.start, r.row["source_locator"]))
    out = []
    for i, r in enumerate(runs):
        row = _base(key, [r], "spell", r.start, obs)
        row["row_id"] = row_id("tp", *key, r.row["source_model_name"], r.start)
        nxt = runs[i + 1].start if i + 1 < len(runs) else None
        until = max(r.start, nxt - timedelta(days=1)) if nxt else newest.get(r.source, r.end)
        row.update(date=r.start, valid_from=r.start, valid_to=max(until, r.start))
        obs.append(_obs(row["row_id"], r, r.start, r.row["last_seen"] or r.start))
        out.append(row)
    return out


def _obs(rid: str, r: Run, start: date, end: date) -> dict:
    return {
        "table": "token_prices",
        "row_id": rid,
        "source_id": r.source,
        "source_name": r.row["source_model_name"],
        "source_locator": r.row["source_locator"],
        "date": start,
        "last_seen": end,
    }
