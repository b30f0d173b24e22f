"""The curation a release is built with, and the same curation of new observations added to one.

`curate(merged)` turns the importers' frames into the curated tables: identity, then prices as
spells, scores and GPU quotes as facts, then the flag rules (`analysis.data.build` runs it).

`extend(release, merged)` is what `data update` and `data add` cut from: a released version is
never rewritten, so its rows cannot simply be built again with the new ones. Instead

1. the release's rows are turned back into the observations behind them (`released_runs`,
   `released_scores`: one row per `observations` link, with its row's model, offer and price);
2. the new observations are identified as the release identified them (`identity.Prior`: a name
   the release resolved keeps its model; a moving alias on a new date resolves against the
   release's snapshots and prices);
3. the curation runs over both, as a build of everything would;
4. a curated row is new when no observation behind it is one the release holds. A changed price
   is a new spell (the released spell before it stays as released: its open end is closed by the
   new spell's start, as `analysis.methods.prices.price_in_force` reads it); an unchanged price
   seen again adds nothing, not even its sighting, since released rows keep their dates; a stale
   copy of an old price joins the stale evidence the release holds. Flags of the new rows are
   judged beside every released row.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

import polars as pl

from analysis.data.curate import facts, flags, identity, spells
from analysis.data.schema import CURATION_COLUMNS, PRICE_CURATION_COLUMNS

# Columns the curation writes; whatever an importer's frame carries there is dropped.
DERIVED = {c.name for c in CURATION_COLUMNS} | {"model_id"}
DERIVED_PRICES = DERIVED | {c.name for c in PRICE_CURATION_COLUMNS} | {"first_party"}
# Original-currency columns hold amounts quoted in another currency; USD rows leave them empty.
ORIGINAL_CURRENCY = [
    "input_original_per_mtok",
    "output_original_per_mtok",
    "blended_original_per_mtok",
    "cached_input_original_per_mtok",
]
FLAGGED = ("token_prices", "benchmark_scores", "gpu_hour_prices")
# Curated columns a released row has and its observations do not: rebuilt by the curation.
NOT_RUN = ["valid_from", "valid_to", "row_id", "source_ids", "flags"]


@dataclass(frozen=True)
class Release:
    """The curated tables of a release that new observations are added to."""

    models: pl.DataFrame
    token_prices: pl.DataFrame
    benchmark_scores: pl.DataFrame
    gpu_hour_prices: pl.DataFrame
    observations: pl.DataFrame

    @classmethod
    def of(cls, tables: dict[str, pl.DataFrame]) -> Release:
        return cls(
            tables["models"],
            tables["token_prices"],
            tables["benchmark_scores"],
            tables["gpu_hour_prices"],
            tables["observations"],
        )

    def table(self, name: str) -> pl.DataFrame:
        return getattr(self, name)

    def prior(self) -> identity.Prior:
        return identity.prior_of(
            self.models, self.token_prices, self.benchmark_scores, self.observations
        )


def _links(observations: pl.DataFrame, table: str) -> pl.DataFrame:
    return observations.filter(pl.col("table") == table).select(
        "row_id",
        "source_id",
        pl.col("source_name").alias("source_model_name"),
        "source_locator",
        "date",
        "last_seen",
    )


def _runs(rows: pl.DataFrame, links: pl.DataFrame) -> pl.DataFrame:
    """One row per link, its row's columns with the link's source, name, locator and dates.

    Two released rows that share an id (stale copies of one offer from one day) cannot say which
    link is whose: a shared id's links count only as their own row's first observation."""
    own = {c: f"_{c}" for c in ("source_id", "source_model_name", "source_locator", "date")}
    body = rows.drop([c for c in [*NOT_RUN[:2], *NOT_RUN[3:], "last_seen"] if c in rows.columns])
    body = body.rename(own).with_columns(pl.col("row_id").is_duplicated().alias("_shared"))
    out = links.join(body, on="row_id", how="inner")
    first = (
        (pl.col("source_id") == pl.col("_source_id"))
        & (pl.col("source_locator") == pl.col("_source_locator"))
        & (pl.col("source_model_name") == pl.col("_source_model_name"))
    )
    return out.filter(~pl.col("_shared") | first).with_columns(first.alias("_first"))


def released_runs(prices: pl.DataFrame, observations: pl.DataFrame) -> pl.DataFrame:
    """The observations behind a release's token_prices rows, as runs the spells are made of:
    the row's model, offer and price, the link's source, name, locator and dates. `alias_of`
    stays on the run the row is named after."""
    runs = _runs(prices, _links(observations, "token_prices"))
    alias = pl.when(pl.col("_first")).then(pl.col("alias_of"))
    cols = [c for c in prices.columns if c not in NOT_RUN]
    return runs.with_columns(alias.alias("alias_of")).select(cols)


def released_scores(scores: pl.DataFrame, observations: pl.DataFrame) -> pl.DataFrame:
    """The observations behind a release's benchmark_scores rows, as the scores they report."""
    runs = _runs(scores, _links(observations, "benchmark_scores"))
    cols = [c for c in scores.columns if c not in NOT_RUN]
    return runs.with_columns(pl.col("_date").alias("date")).select(cols)


def curate(
    merged: dict[str, pl.DataFrame],
    release: Release | None = None,
    pins: pl.DataFrame | None = None,
) -> tuple[dict[str, pl.DataFrame], list[dict]]:
    """The curated tables from the importers' frames, and the count of rows each flag rule
    flagged or could not evaluate. With `release`, curated over the release's observations and
    these (see the module docstring); the counts are then of the rows not in the release.
    `pins` (`identity.SEEN` rows) names models for new rows as the release's own names do
    (`data add` resolves hand-entered names itself)."""
    merged = dict(merged)
    for t in FLAGGED:
        if t in merged:
            cols = DERIVED_PRICES if t == "token_prices" else DERIVED
            merged[t] = merged[t].drop([c for c in merged[t].columns if c in cols])
    prior = release.prior() if release is not None else None
    if prior is not None and pins is not None:
        prior = replace(prior, seen=pl.concat([prior.seen, pins.select(identity.SEEN)]))
    out = identity.identify(merged, prior)
    if not any(t in out for t in FLAGGED) and "gpu_hour_prices" not in merged:
        return {**merged, **out}, []
    tables: dict[str, pl.DataFrame] = {}
    if "models" in out:
        tables["models"] = out["models"]
    if "aa_snapshots" in out:
        tables["aa_snapshots"] = out["aa_snapshots"]
    obs = []
    if "token_prices" in out:
        usd = pl.col("currency") == "USD"
        tp = out["token_prices"].with_columns(
            [pl.when(usd).then(None).otherwise(pl.col(c)).alias(c) for c in ORIGINAL_CURRENCY]
        )
        if release is not None:
            old = released_runs(release.token_prices, release.observations)
            tp = pl.concat([old, tp], how="diagonal_relaxed")
        tables["token_prices"], o = spells.curate_prices(tp)
        obs.append(o)
    if "benchmark_scores" in out:
        bs = out["benchmark_scores"]
        if release is not None:
            old = released_scores(release.benchmark_scores, release.observations)
            bs = pl.concat([old, bs], how="diagonal_relaxed")
        tables["benchmark_scores"], o = facts.curate_scores(bs)
        obs.append(o)
    if "gpu_hour_prices" in merged:
        tables["gpu_hour_prices"], o = facts.curate_gpus(merged["gpu_hour_prices"])
        obs.append(o)
        if release is not None:  # judged beside the released quotes (each quote is one fact)
            old = release.gpu_hour_prices.drop("flags")
            tables["gpu_hour_prices"] = pl.concat(
                [old, tables["gpu_hour_prices"]], how="diagonal_relaxed"
            )
    if release is not None and "models" in tables:  # the rules read the release's models too
        new_models = tables["models"].join(release.models, on="model_id", how="anti")
        tables["models"] = pl.concat([release.models, new_models], how="diagonal_relaxed")
    counted = (
        {t: ~released(release, tables, obs, t) for t in FLAGGED if t in tables}
        if release is not None
        else None
    )
    tables, counts = flags.apply(tables, counted)
    tables["observations"] = pl.concat(obs)
    return tables, counts


def released(
    release: Release, tables: dict[str, pl.DataFrame], obs: list[pl.DataFrame], table: str
) -> pl.Series:
    """Whether each curated row of `table` stands for what the release holds: its id is a
    released row's, or an observation behind it is a released one, or (prices) the release
    has the offer at that price over overlapping dates (`same_price`)."""
    have = release.table(table)
    links = pl.concat(obs).filter(pl.col("table") == table)
    held = release.observations.filter(pl.col("table") == table)
    seen = links.join(held, on=["source_id", "source_locator"], how="semi")["row_id"]
    ids = pl.concat([have["row_id"], seen]).implode()
    out = tables[table]["row_id"].is_in(ids)
    if table == "token_prices":
        out = out | same_price(have, tables[table])
    return out


FAR = date(9999, 12, 31)


def _spans(prices: pl.DataFrame) -> pl.DataFrame:
    """Offer, price and the dates a row states it: a spell from `valid_from` to `valid_to` (an
    open spell runs on), a stale copy over the dates it was seen."""
    spell = pl.col("valid_from").is_not_null()
    return prices.select(
        *[pl.col(c).fill_null("") if c == "context_tier" else pl.col(c) for c in spells.OFFER],
        *[pl.col(c).round(9) for c in spells.FACT],
        spell.alias("_spell"),
        pl.coalesce("valid_from", "date").alias("_lo"),
        pl.when(spell)
        .then(pl.coalesce("valid_to", pl.lit(FAR)))
        .otherwise(pl.coalesce("last_seen", "date"))
        .alias("_hi"),
    )


def same_price(have: pl.DataFrame, rows: pl.DataFrame) -> pl.Series:
    """Whether the release states each row's price of its offer already: a spell of that price
    over overlapping dates, or, for a stale copy, any row of that price.

    A source that lists one offer under several keys at two prices (Bedrock's regional and
    cross-region keys, folded into one offer) makes the spells of the two prices alternate;
    a new snapshot then starts spells that only restate what the release has."""
    key = [*spells.OFFER, *spells.FACT]
    old = _spans(have)
    new = _spans(rows).with_row_index("_i")
    hit = new.join(old, on=key, how="inner", nulls_equal=True, suffix="_o").filter(
        ~pl.col("_spell")
        | ((pl.col("_lo_o") <= pl.col("_hi")) & (pl.col("_lo") <= pl.col("_hi_o")))
    )
    return new["_i"].is_in(hit["_i"].implode())


@dataclass(frozen=True)
class Extension:
    """What observations add to a release: for each curated table the new rows (curated columns
    as a build of release and observations gives them), their observations, and the models they
    name that the release lacks. `tables` is the whole curation the rows were chosen from."""

    rows: dict[str, pl.DataFrame]
    observations: pl.DataFrame
    models: pl.DataFrame
    tables: dict[str, pl.DataFrame]

    def flag_counts(self, added: dict[str, pl.DataFrame]) -> list[dict]:
        """Each rule's counts over the rows a version adds (`added`: rows with their row_id),
        judged beside every other row, as the flags were."""
        none = pl.Series("row_id", [], dtype=pl.String)
        mask = {
            t: self.tables[t]["row_id"].is_in(
                (added[t]["row_id"] if t in added else none).implode()
            )
            for t in FLAGGED
            if t in self.tables
        }
        return flags.apply(self.tables, mask)[1]

    def rows_of(self, table: str, links: pl.DataFrame) -> pl.DataFrame:
        """The curated rows of `table` behind `links` (source_id, source_locator,
        source_model_name), whether or not the release has them, once each."""
        mine = self.tables["observations"].join(
            links.rename({"source_model_name": "source_name"}),
            on=["source_id", "source_locator", "source_name"],
            how="semi",
        )
        ids = mine.filter(pl.col("table") == table)["row_id"].implode()
        rows = self.tables[table].filter(pl.col("row_id").is_in(ids))
        return rows.unique("row_id", keep="last", maintain_order=True)


def extend(
    release: Release, merged: dict[str, pl.DataFrame], pins: pl.DataFrame | None = None
) -> Extension:
    """The rows `merged` (the importers' frames, or hand-entered rows) add to `release`."""
    tables, _ = curate(merged, release, pins)
    obs = [tables["observations"]]
    rows = {t: tables[t].filter(~released(release, tables, obs, t)) for t in FLAGGED if t in tables}
    keep = pl.concat(
        [df.select(pl.lit(t).alias("table"), "row_id") for t, df in rows.items()]
    ).unique()
    links = tables["observations"].join(keep, on=["table", "row_id"], how="semi")
    named = set().union(
        *(set(rows[t]["model_id"]) for t in ("token_prices", "benchmark_scores") if t in rows)
    )
    models = tables.get("models", release.models.clear())
    models = models.join(release.models, on="model_id", how="anti").filter(
        pl.col("model_id").is_in(list(named))
    )
    return Extension(rows, links, models, tables)
