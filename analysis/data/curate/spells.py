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
CONTINUED_BY = {"tokencost": "litellm-rocry", "tokencost-yaml": "litellm-rocry"}
FACT = [
    "input_usd_per_mtok",
    "output_usd_per_mtok",
    "blended_usd_per_mtok",
    "input_original_per_mtok",
    "output_original_per_mtok",
    "blended_original_per_mtok",
]
EXTRA = ["cached_input_usd_per_mtok", "batch_input_usd_per_mtok", "batch_output_usd_per_mtok"]
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


def snapshot_dates(runs: pl.DataFrame) -> dict[str, list[date]]:
    """Every date each source shows anything (its snapshots, as far as the rows tell)."""
    both = pl.concat(
        [
            runs.select("source_id", pl.col("date").alias("d")),
            runs.select("source_id", pl.col("last_seen").alias("d")),
        ]
    ).drop_nulls()
    out: dict[str, list[date]] = {}
    for s, d in both.unique().sort("source_id", "d").iter_rows():
        out.setdefault(s, []).append(d)
    return out


def fold_regions(prices: pl.DataFrame) -> pl.DataFrame:
    """Drop the region of a regional row priced like the source's cheapest route of the same
    offer on overlapping dates (the same fact under another key)."""
    key = [c for c in OFFER if c != "region"] + ["source_id"]
    df = prices.with_row_index("_i").with_columns(pl.coalesce("last_seen", "date").alias("_end"))
    regional = df.filter(pl.col("region").is_not_null())
    if regional.is_empty():
        return prices
    pairs = regional.join(df, on=key, how="inner", suffix="_o", nulls_equal=True).filter(
        (pl.col("_i") != pl.col("_i_o"))
        & (pl.col("date_o") <= pl.col("_end"))
        & (pl.col("_end_o") >= pl.col("date"))
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
    )
    fold = set(cheapest["_i"])
    return df.with_columns(
        pl.when(pl.col("_i").is_in(list(fold)))
        .then(None)
        .otherwise(pl.col("region"))
        .alias("region")
    ).drop("_i", "_end")


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


def curate_prices(
    prices: pl.DataFrame, newest: dict[str, date] | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(token_prices as spells, observations). `prices` are identified runs (model_id, offer,
    region, ...). `newest` gives each source's newest snapshot date (default: from the rows).

    The walk of `build_spells` is sequential, but it only needs, per offer, each source's first
    run in every stretch of runs at one price (in walking order): a later run of the same source
    in the stretch goes where the run before it went. So the walk runs over those runs alone,
    and everything per run (cutting runs at the next price, stale segments, provenance) is
    done on whole columns; Python touches one row per source per price stretch, not per run.
    """
    prices = fold_regions(prices.with_columns(pl.col("context_tier").fill_null("")))
    snaps = snapshot_dates(prices)
    newest = newest or {s: d[-1] for s, d in snaps.items()}
    cols = [
        c for c in prices.columns if c not in ("valid_from", "valid_to", "row_id", "source_ids")
    ]
    schema = {c: prices.schema[c] for c in cols} | {
        "valid_from": pl.Date,
        "valid_to": pl.Date,
        "row_id": pl.String,
        "source_ids": pl.String,
        "row_kind": pl.String,
    }
    is_historical = pl.col("source_id").is_in(list(HISTORICAL))
    # Dated price points of an analysis's table: few rows, each its own; walked as they are.
    historical: dict[tuple, list[Run]] = {}
    for row in prices.filter(is_historical).iter_rows(named=True):
        end = row["last_seen"] or row["date"]
        run = Run(row, row["date"], end, _fact(row), row["source_id"])
        historical.setdefault((*(row[c] for c in OFFER), row["source_id"]), []).append(run)
    hist_rows: list[dict] = []
    hist_obs: list[dict] = []
    for key, runs in historical.items():
        hist_rows += _historical_rows(key, runs, newest, hist_obs)
    table = pl.DataFrame(hist_rows, schema=schema, orient="row")
    observations = pl.DataFrame(hist_obs, schema=OBS_SCHEMA, orient="row")
    spelled, spell_obs = _spells(prices.filter(~is_historical), snaps, newest)
    if spelled is not None:
        table = pl.concat([table, spelled.select(list(schema)).cast(schema)])
        observations = pl.concat([observations, spell_obs.select(list(OBS_SCHEMA))])
    table = table.with_columns(
        pl.when(pl.col("context_tier") == "")
        .then(None)
        .otherwise(pl.col("context_tier"))
        .alias("context_tier")
    )
    observations = observations.unique(
        ["table", "row_id", "source_id", "source_locator"], keep="first", maintain_order=True
    )
    return table, observations


OBS_SCHEMA = {
    "table": pl.String,
    "row_id": pl.String,
    "source_id": pl.String,
    "source_name": pl.String,
    "source_locator": pl.String,
    "date": pl.Date,
    "last_seen": pl.Date,
}


def _walk(first_runs: pl.DataFrame) -> tuple[list[int], pl.DataFrame]:
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

    rows = first_runs.select("_g", "date", "_end", "_f", "source_id").iter_rows()
    for n, (g, start, end, fact, source) in enumerate(rows):
        if g != offer:
            if runs:
                flush()
            runs, offer = [], g
        joined.append(-1)
        runs.append(Run(n, start, end, fact, source))  # row: the position in `first_runs`
    if runs:
        flush()
    info = pl.DataFrame(
        {"_start": starts, "_cut": cuts, "_sup": superseded},
        schema={"_start": pl.Date, "_cut": pl.Date, "_sup": pl.Boolean},
    )
    return joined, info


def _snapshot_frame(snaps: dict[str, list[date]]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "source_id": [s for s, ds in snaps.items() for _ in ds],
            "_snap": [d for ds in snaps.values() for d in ds],
        },
        schema={"source_id": pl.String, "_snap": pl.Date},
    ).sort("_snap")


def _snapshot_near(df: pl.DataFrame, on: pl.Expr, snaps: pl.DataFrame, strategy: str) -> pl.Series:
    """Per row of `df` (with `_k`), the source's first snapshot date on or after `on`
    (strategy "forward"), or its last on or before (`backward`); null where there is none."""
    if df.is_empty():
        return pl.Series("_snap", [], dtype=pl.Date)
    left = (
        df.select("_k", pl.col("source_id").cast(pl.String), on.alias("_on"))
        .sort("_on")
        .join_asof(
            snaps,
            left_on="_on",
            right_on="_snap",
            by="source_id",
            strategy=strategy,
            check_sortedness=False,
        )
        .sort("_k")
    )
    return left["_snap"]


def _spells(
    prices: pl.DataFrame, snaps: dict[str, list[date]], newest: dict[str, date]
) -> tuple[pl.DataFrame | None, pl.DataFrame | None]:
    """The spell and stale rows of every non-historical run, and their observations, in the
    order the walk gives them (offers by first appearance, spells in order, stale row after)."""
    if prices.is_empty():
        return None, None
    ranks = {s: i for i, s in enumerate(SOURCE_PRECEDENCE)}
    df = prices.with_row_index("_i")
    # Fact: the rounded prices (as `_fact` rounds them, value by value); one id per distinct fact.
    rounded = []
    for c in FACT:
        values = df[c].drop_nulls().unique().to_list()
        rounded.append(
            pl.col(c)
            .replace_strict(values, [round(v, 9) + 0.0 for v in values], default=None)
            .cast(pl.Float64)
            .alias(f"_r_{c}")
        )
    offers = df.select(OFFER).unique(maintain_order=True).with_row_index("_g")
    df = (
        df.join(offers, on=OFFER, how="left", nulls_equal=True, maintain_order="left")
        .with_columns(
            pl.coalesce("last_seen", "date").alias("_end"),
            pl.col("source_id")
            .cast(pl.String)
            .replace_strict(ranks, default=99, return_dtype=pl.Int32)
            .alias("_rank"),
            pl.struct(rounded).rank("dense").alias("_f"),
        )
        # Walking order: by first date, source precedence, last date, then as given.
        .sort("_g", "date", "_rank", "_end", "_i")
        .with_row_index("_k")
    )
    stretch = (pl.col("_f") != pl.col("_f").shift(1)) | (pl.col("_g") != pl.col("_g").shift(1))
    df = df.with_columns(stretch.fill_null(True).cum_sum().alias("_stretch"))
    first = df.filter(pl.struct("_stretch", "source_id").is_first_distinct())
    joined, info = _walk(
        first.select("_g", "date", "_end", "_f", pl.col("source_id").cast(pl.String))
    )
    spell = (
        pl.repeat(None, df.height, dtype=pl.UInt32, eager=True)
        .scatter(first["_k"], pl.Series(joined, dtype=pl.UInt32))
        .forward_fill()
    )
    df = df.with_columns(
        spell.alias("_s"),
        info["_start"].gather(spell).alias("_start"),
        info["_cut"].gather(spell).alias("_cut"),
        info["_sup"].gather(spell).alias("_sup"),
    )
    snap_frame = _snapshot_frame(snaps)
    # A superseded spell's runs are cut at the next price's first date: what a run showed
    # before stays (to its last sighting in force), what it showed from then on is stale.
    sup, cut = pl.col("_sup"), pl.col("_cut")
    kept = df.filter(~sup | (pl.col("date") < cut))
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
    after = df.filter(sup & (pl.col("_end") >= cut))
    first_stale = _snapshot_near(after, pl.max_horizontal(cut, "date"), snap_frame, "forward")
    stale = after.with_columns(first_stale.alias("_from")).filter(pl.col("_from") <= pl.col("_end"))
    newest_frame = pl.DataFrame(
        {"source_id": list(newest), "_newest": list(newest.values())},
        schema={"source_id": pl.String, "_newest": pl.Date},
    )
    still = (
        kept.select("_s", "_end", pl.col("source_id").cast(pl.String))
        .join(newest_frame, on="source_id", how="left")
        .group_by("_s")
        .agg(
            (
                (pl.col("_end") >= pl.coalesce("_newest", "_end"))
                & ~pl.col("source_id").is_in(list(CONTINUED_BY))
            )
            .any()
            .alias("_still")
        )
    )
    spell_rows = _rows(prices, kept, "spell")
    if spell_rows is not None:
        spell_rows = spell_rows.join(still, on="_s").with_columns(
            pl.col("_start").alias("valid_from"),
            # The last day in force: the day before the next price, else the last sighting.
            pl.when(pl.col("_sup"))
            .then(pl.max_horizontal("_start", pl.col("_cut") - pl.duration(days=1)))
            .when(pl.col("_still"))
            .then(None)
            .otherwise(pl.col("_last"))
            .alias("valid_to"),
        )
    stale_rows = _rows(prices, stale.with_columns(pl.col("_end").alias("_in_force")), "stale")
    if stale_rows is not None:
        stale_rows = stale_rows.with_columns(
            pl.lit(None, pl.Date).alias("valid_from"), pl.lit(None, pl.Date).alias("valid_to")
        )
    table = pl.concat(
        [f for f in (spell_rows, stale_rows) if f is not None], how="diagonal_relaxed"
    ).sort("_s", "_kind")
    ids = table.select("_s", "_kind", "row_id")
    obs = (
        pl.concat(
            [
                kept.select(
                    "_s",
                    pl.lit(0).alias("_kind"),
                    "_k",
                    "date",
                    pl.col("_in_force").alias("last_seen"),
                    "source_id",
                    "source_model_name",
                    "source_locator",
                ),
                stale.select(
                    "_s",
                    pl.lit(1).alias("_kind"),
                    "_k",
                    pl.col("_from").alias("date"),
                    pl.col("_end").alias("last_seen"),
                    "source_id",
                    "source_model_name",
                    "source_locator",
                ),
            ],
            how="vertical_relaxed",
        )
        .join(ids, on=["_s", "_kind"], maintain_order="left")
        .sort("_s", "_kind", "_k")
    )
    obs = obs.select(
        pl.lit("token_prices").alias("table"),
        "row_id",
        pl.col("source_id").cast(pl.String),
        pl.col("source_model_name").cast(pl.String).alias("source_name"),
        pl.col("source_locator").cast(pl.String),
        "date",
        "last_seen",
    )
    return table, obs


def _rows(prices: pl.DataFrame, runs: pl.DataFrame, kind: str) -> pl.DataFrame | None:
    """One row per spell of `runs`, as `_base` makes it: the values of its earliest run (by
    date, source precedence, locator), cached and batch prices from the first source in
    precedence that states them, every source, the id. Adds `_s`, `_kind`, `_start`, `_cut`,
    `_sup`, `_row_start` (the spell's start; a stale row's first stale date) and `_last` (the
    latest sighting)."""
    if runs.is_empty():
        return None
    # The earliest run: only runs on the spell's first date and best source rank can be it.
    by_date = runs.filter(pl.col("date") == pl.col("date").min().over("_s"))
    by_date = by_date.filter(pl.col("_rank") == pl.col("_rank").min().over("_s"))
    earliest = by_date.sort("_s", "source_locator", "_k").unique(
        "_s", keep="first", maintain_order=True
    )
    start = pl.col("_start").first() if kind == "spell" else pl.col("_from").min()
    per_spell = runs.group_by("_s").agg(
        pl.col("_start", "_cut", "_sup").first(),
        start.alias("_row_start"),
        pl.col("_in_force").max().alias("_last"),
        *[
            pl.col(c).sort_by("_rank", "date", "_k").drop_nulls().first().alias(f"\x00{c}")
            for c in EXTRA
        ],
    )
    sources = (
        runs.select("_s", "_rank", pl.col("source_id").cast(pl.String))
        .unique(["_s", "source_id"])
        .sort("_s", "_rank", "source_id")
        .group_by("_s", maintain_order=True)
        .agg(pl.col("source_id").str.join(";").alias("source_ids"))
    )
    derived = ["valid_from", "valid_to", "row_id", "source_ids", "row_kind"]
    rows = (
        prices.drop([c for c in derived if c in prices.columns])
        .with_row_index("_i")
        .join(earliest.select("_s", "_i"), on="_i")
        .drop("_i")
        .join(per_spell, on="_s")
        .join(sources, on="_s")
        .with_columns(pl.col(f"\x00{c}").alias(c) for c in EXTRA)
        .drop([f"\x00{c}" for c in EXTRA])
    )
    key = pl.concat_str(
        [pl.col(c).cast(pl.String).fill_null("") for c in OFFER]
        + [pl.lit(kind), pl.col("_row_start").cast(pl.String)],
        separator="\x1f",
    )
    return rows.with_columns(
        key.map_elements(
            lambda s: f"tp-{hashlib.sha1(s.encode()).hexdigest()[:12]}", return_dtype=pl.String
        ).alias("row_id"),
        pl.lit(kind).alias("row_kind"),
        pl.lit(0 if kind == "spell" else 1).alias("_kind"),
        pl.col("_row_start").alias("date"),
        pl.col("_last").alias("last_seen"),
    )


def _base(key: tuple, runs: list[Run], kind: str, start: date, obs: list[dict]) -> dict:
    first = min(runs, key=lambda r: (r.start, _rank(r.source), r.row["source_locator"]))
    row = dict(first.row)
    for c in EXTRA:  # cached and batch prices: the first source that states them
        stated = sorted(
            (r for r in runs if r.row[c] is not None), key=lambda r: (_rank(r.source), r.start)
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
