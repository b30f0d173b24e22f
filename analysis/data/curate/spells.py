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


def own_rows(source_id: str) -> bool:
    """Whether each row of the source stays its own row (dated price points, hand entries)."""
    return source_id in HISTORICAL or source_id.startswith(HAND_ENTERED)


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


def _first_on_or_after(dates: list[date], lo: date, hi: date) -> date | None:
    return next((d for d in dates if lo <= d <= hi), None)


def _last_before(dates: list[date], lo: date, hi: date) -> date | None:
    """Last snapshot date in [lo, hi) (the last sighting while the spell was in force)."""
    found = [d for d in dates if lo <= d < hi]
    return found[-1] if found else None


def fold_regions(prices: pl.DataFrame) -> pl.DataFrame:
    """Drop the region of a regional row priced like the source's cheapest route of the same
    offer on overlapping dates (the same fact under another key)."""
    key = [c for c in OFFER if c != "region"] + ["source_id"]
    df = prices.with_row_index("_i").with_columns(pl.coalesce("last_seen", "date").alias("_end"))
    regional = df.filter(pl.col("region").is_not_null())
    if regional.is_empty():
        return prices
    # Another key: a key's own runs (a release's and a new snapshot's, `panel.extend`) are
    # one route, not two.
    pairs = regional.join(df, on=key, how="inner", suffix="_o", nulls_equal=True).filter(
        (pl.col("_i") != pl.col("_i_o"))
        & (pl.col("source_model_name") != pl.col("source_model_name_o"))
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


def _split(spell: Spell, snaps: dict[str, list[date]]) -> None:
    """Cut each run of a superseded spell at its end: what a source showed after is stale."""
    if not spell.superseded:
        return
    kept = []
    for r in spell.runs:
        if r.end >= spell.valid_to:
            lo = max(spell.valid_to, r.start)
            stale_from = _first_on_or_after(snaps.get(r.source, []), lo, r.end)
            if stale_from is not None:
                spell.stale.append((r, stale_from, r.end))
        if r.start < spell.valid_to:
            kept.append(r)
    spell.runs = kept


def curate_prices(
    prices: pl.DataFrame, newest: dict[str, date] | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(token_prices as spells, observations). `prices` are identified runs (model_id, offer,
    region, ...). `newest` gives each source's newest snapshot date (default: from the rows)."""
    prices = fold_regions(prices.with_columns(pl.col("context_tier").fill_null("")))
    snaps = snapshot_dates(prices)
    newest = newest or {s: d[-1] for s, d in snaps.items()}
    groups: dict[tuple, list[Run]] = {}
    historical: dict[tuple, list[Run]] = {}
    for row in prices.iter_rows(named=True):
        end = row["last_seen"] or row["date"]
        run = Run(row, row["date"], end, _fact(row), row["source_id"])
        key = tuple(row[c] for c in OFFER)
        if own_rows(row["source_id"]):
            historical.setdefault((*key, row["source_id"]), []).append(run)
        else:
            groups.setdefault(key, []).append(run)
    out_rows: list[dict] = []
    obs: list[dict] = []
    for key, runs in historical.items():
        out_rows += _historical_rows(key, runs, newest, obs)
    for key, runs in groups.items():
        for spell in build_spells(runs):
            _split(spell, snaps)
            if spell.runs:
                out_rows.append(_spell_row(key, spell, snaps, newest, obs))
            if spell.stale:
                out_rows.append(_stale_row(key, spell, obs))
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
    table = pl.DataFrame(out_rows, schema=schema, orient="row").with_columns(
        pl.when(pl.col("context_tier") == "")
        .then(None)
        .otherwise(pl.col("context_tier"))
        .alias("context_tier")
    )
    observations = pl.DataFrame(
        obs,
        schema={
            "table": pl.String,
            "row_id": pl.String,
            "source_id": pl.String,
            "source_name": pl.String,
            "source_locator": pl.String,
            "date": pl.Date,
            "last_seen": pl.Date,
        },
        orient="row",
    ).unique(["table", "row_id", "source_id", "source_locator"], keep="first", maintain_order=True)
    return table, observations


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


def _in_force_end(r: Run, spell: Spell, snaps: dict[str, list[date]]) -> date:
    """Last date the run shows the price while it is in force."""
    if not spell.superseded or r.end < spell.valid_to:
        return r.end
    return _last_before(snaps.get(r.source, []), r.start, spell.valid_to) or r.start


def _spell_row(key, spell: Spell, snaps, newest, obs: list[dict]) -> dict:
    row = _base(key, spell.runs, "spell", spell.start, obs)
    ends = {id(r): _in_force_end(r, spell, snaps) for r in spell.runs}
    last = max(ends.values())
    still = any(
        r.end >= newest.get(r.source, r.end)
        and r.source not in HISTORICAL
        and r.source not in CONTINUED_BY
        for r in spell.runs
    )
    row.update(date=spell.start, last_seen=last, valid_from=spell.start)
    # valid_to is the last day in force: the day before the next price, else the last sighting.
    if spell.superseded:
        row["valid_to"] = max(spell.start, spell.valid_to - timedelta(days=1))
    else:
        row["valid_to"] = None if still else last
    for r in spell.runs:
        obs.append(_obs(row["row_id"], r, r.start, ends[id(r)]))
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


def _stale_row(key, spell: Spell, obs: list[dict]) -> dict:
    runs = [r for r, _, _ in spell.stale]
    start = min(f for _, f, _ in spell.stale)
    row = _base(key, runs, "stale", start, obs)
    # Two superseded prices of one offer can each leave a stale copy from the same day (and two
    # spells of one price, under two source names): the price and the first name join the id.
    first = min(runs, key=lambda r: (r.start, r.row["source_model_name"]))
    row["row_id"] = row_id("tp", *key, "stale", start, *first.fact, first.row["source_model_name"])
    row.update(
        date=start,
        last_seen=max(t for _, _, t in spell.stale),
        valid_from=None,
        valid_to=None,
    )
    for r, f, t in spell.stale:
        obs.append(_obs(row["row_id"], r, f, t))
    return row


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
