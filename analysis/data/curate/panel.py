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
NOT_RUN = ["valid_from", "valid_to", "row_id", "source_ids", "flags", "announced"]


@dataclass(frozen=True)
class Release:
    """The curated tables of a release that new observations are added to."""

    models: pl.DataFrame
    token_prices: pl.DataFrame
    benchmark_scores: pl.DataFrame
    gpu_hour_prices: pl.DataFrame
    observations: pl.DataFrame
    sources: pl.DataFrame | None = None  # its `retrieved` dates: each source's newest snapshot

    @classmethod
    def of(cls, tables: dict[str, pl.DataFrame]) -> Release:
        return cls(
            tables["models"],
            tables["token_prices"],
            tables["benchmark_scores"],
            tables["gpu_hour_prices"],
            tables["observations"],
            tables.get("sources"),
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

    Two released rows may share an id (stale copies of one offer from one day, at two prices:
    `spells._stale_row` keys them by offer and day): their links cannot say which is whose, so
    each counts for both, as the stale evidence of both prices."""
    own = {c: f"_{c}" for c in ("source_id", "source_model_name", "source_locator", "date")}
    body = rows.drop([c for c in [*NOT_RUN[:2], *NOT_RUN[3:], "last_seen"] if c in rows.columns])
    out = links.join(body.rename(own), on="row_id", how="inner")
    first = (
        (pl.col("source_id") == pl.col("_source_id"))
        & (pl.col("source_locator") == pl.col("_source_locator"))
        & (pl.col("source_model_name") == pl.col("_source_model_name"))
    )
    return out.with_columns(first.alias("_first"))


def released_runs(prices: pl.DataFrame, observations: pl.DataFrame) -> pl.DataFrame:
    """The observations behind a release's token_prices rows, as runs the spells are made of:
    the row's model, offer and price, the link's source, name, locator and dates. `alias_of`
    stays on the run the row is named after."""
    runs = _runs(prices, _links(observations, "token_prices"))
    alias = pl.when(pl.col("_first")).then(pl.col("alias_of"))
    cols = [c for c in prices.columns if c not in NOT_RUN]
    return runs.with_columns(alias.alias("alias_of")).select(cols)


# A source's row, as an importer joins it across snapshots while the price holds.
RUN_KEY = [
    "source_id",
    "source_model_name",
    "provider",
    "price_kind",
    "context_tier",
    "quantization",
    "currency",
]


def continued(old: pl.DataFrame, new: pl.DataFrame) -> list[pl.DataFrame]:
    """Released runs and new runs, a source row's first new run joined to its last released run
    when the price is the same (an importer reading both snapshots makes them one run). Without
    it, a new snapshot would start runs that a source listing one offer under two keys at two
    prices (Bedrock's regional keys) turns into alternating spells. A version that added
    nothing for a row does not record that it saw it again, so the gap since may be longer."""
    ctx = pl.col("context_tier").fill_null("")
    row = [c if c != "context_tier" else "_tier" for c in RUN_KEY]
    fact = [f"_{c}" for c in spells.FACT]
    facts = [pl.col(c).round(9).alias(f"_{c}") for c in spells.FACT]
    end = pl.coalesce("last_seen", "date")
    old = old.with_row_index("_o").with_columns(*facts, ctx.alias("_tier"))
    # The row's last released runs (two, at two prices, where a shared stale id left it open).
    last = old.filter(end == end.max().over(row))
    new = new.with_row_index("_n").with_columns(*facts, ctx.alias("_tier"))
    first = new.sort("date", "_n").unique(row, keep="first")
    pairs = first.join(last, on=[*row, *fact], how="inner", nulls_equal=True, suffix="_r").filter(
        pl.col("date") > pl.col("date_r")
    )
    pairs = pairs.unique("_n", keep="first")
    ends = pairs.select("_o", end.alias("_end"))
    old = (
        old.join(ends, on="_o", how="left")
        .with_columns(pl.max_horizontal("last_seen", "_end").alias("last_seen"))
        .drop("_o", "_end", "_tier", *fact)
    )
    new = new.filter(~pl.col("_n").is_in(pairs["_n"].implode())).drop("_n", "_tier", *fact)
    return [old, new]


def released_scores(scores: pl.DataFrame, observations: pl.DataFrame) -> pl.DataFrame:
    """The observations behind a release's benchmark_scores rows, as the scores they report."""
    runs = _runs(scores, _links(observations, "benchmark_scores"))
    cols = [c for c in scores.columns if c not in NOT_RUN]
    return runs.with_columns(pl.col("_date").alias("date")).select(cols)


def newest_snapshots(sources: pl.DataFrame | None) -> dict | None:
    """Each source's newest snapshot date: the `retrieved` date of its sources row (the day of
    the newest file read), never the largest date a row mentions (a scheduled price from
    2027-01-01 or a `verified` date is not a snapshot). None without a sources table."""
    if sources is None or sources.is_empty():
        return None
    rows = sources.filter(pl.col("retrieved").is_not_null()).select("source_id", "retrieved")
    return {s: d for s, d in rows.iter_rows()}


def curate(
    merged: dict[str, pl.DataFrame],
    release: Release | None = None,
    pins: pl.DataFrame | None = None,
    newest: dict | None = None,
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
            tp = pl.concat(continued(old, tp), how="diagonal_relaxed")
        curated, o = spells.curate_prices(tp, newest)
        tables["token_prices"] = spells.announce(curated, o, newest)
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
    released row's, or an observation behind it is a released one."""
    have = release.table(table)
    links = pl.concat(obs).filter(pl.col("table") == table)
    held = release.observations.filter(pl.col("table") == table)
    seen = links.join(held, on=["source_id", "source_locator"], how="semi")["row_id"]
    ids = pl.concat([have["row_id"], seen]).implode()
    return tables[table]["row_id"].is_in(ids)


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
    release: Release,
    merged: dict[str, pl.DataFrame],
    pins: pl.DataFrame | None = None,
    sources: pl.DataFrame | None = None,
) -> Extension:
    """The rows `merged` (the importers' frames, or hand-entered rows) add to `release`.
    `sources` are the new observations' sources rows: with the release's, their `retrieved`
    dates are each source's newest snapshot, as in a build (issue 19, class 1), never the
    largest date a row mentions."""
    newest = (newest_snapshots(release.sources) or {}) | (newest_snapshots(sources) or {})
    tables, _ = curate(merged, release, pins, newest or None)
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
