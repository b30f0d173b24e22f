"""The price of a fixed capability: Epoch AI's staircase method (Cottier et al., March 2025).

For one benchmark:
1. Thresholds: every model that was top-1 on the benchmark among the models dated up to its
   date gives a threshold, its score. For MMLU and GPQA Diamond, thresholds under 30 are skipped
   (near chance). Models that tie (a later model matching the best score exactly) set the same
   threshold: one trend per distinct score, as in Epoch's table, named after the first model in
   date order that reached it (`threshold_model`), with every model that did in
   `threshold_models`.
2. Staircase: walk the models in date order; a model joins if its score is at least the
   threshold and its price is below the running minimum. Of two staircase points on one date
   the pricier is dropped.
3. At least 4 points; OLS of log10(price) on the date in days; factor per year =
   10^(-365 x slope), with a 90% t-interval (and, beside it, a bootstrap interval).

Observations are (model, date, price, score) rows: a later price change of a model is a new
observation dated at the change.
"""

from __future__ import annotations

from datetime import date

import polars as pl

from analysis.methods.prices import SOURCES, joined_sources
from analysis.methods.trends import (
    DeclineFit,
    InsufficientData,
    bootstrap_factor_interval,
    fit_log_trend,
)

MIN_POINTS = 4
# Epoch skips thresholds under 30 on these benchmarks (their scores are percent).
MIN_THRESHOLD = {"mmlu": 30.0, "gpqa-diamond": 30.0}

RESULT_SCHEMA = {
    "benchmark": pl.String,
    "threshold_model": pl.String,
    "threshold_models": pl.String,
    "threshold_score": pl.Float64,
    "n": pl.Int64,
    "start_date": pl.Date,
    "end_date": pl.Date,
    "factor_per_year": pl.Float64,
    "ci90_low": pl.Float64,
    "ci90_high": pl.Float64,
    "r_squared": pl.Float64,
}
BOOTSTRAP_SCHEMA = {"boot90_low": pl.Float64, "boot90_high": pl.Float64}
RESULT_COLUMNS = list(RESULT_SCHEMA)


def _ordered(obs: pl.DataFrame) -> pl.DataFrame:
    """Date order; within a date, cheapest first (so the pricier of a same-date pair drops)."""
    return obs.drop_nulls(["date", "price", "score"]).sort(
        ["date", "price", "model"], maintain_order=True
    )


THRESHOLD_MODELS_SEP = "; "


def thresholds(obs: pl.DataFrame, benchmark: str) -> pl.DataFrame:
    """One row per distinct threshold: the score of a model that was top-1 among the models dated
    up to its date. Columns: model (the first, by date then name, to reach the score), date,
    score, models (every model that did, in date order, joined by "; ")."""
    o = _ordered(obs)
    best_by_date = o.group_by("date").agg(pl.col("score").max().alias("best_that_day")).sort("date")
    best_by_date = best_by_date.with_columns(pl.col("best_that_day").cum_max().alias("best_so_far"))
    top = o.join(best_by_date, on="date").filter(pl.col("score") >= pl.col("best_so_far"))
    floor = MIN_THRESHOLD.get(benchmark)
    if floor is not None:
        top = top.filter(pl.col("score") >= floor)
    # A model seen at several price dates counts once; tied models share one threshold.
    return (
        top.sort("date", "model")
        .unique(["model", "score"], keep="first", maintain_order=True)
        .group_by("score", maintain_order=True)
        .agg(
            pl.col("model").first(),
            pl.col("date").first(),
            pl.col("model").str.join(THRESHOLD_MODELS_SEP).alias("models"),
        )
        .select("model", "date", "score", "models")
    )


def staircase(obs: pl.DataFrame, threshold: float) -> pl.DataFrame:
    """The cheapest-so-far models scoring at least `threshold`, in date order: walking the
    qualifying rows in that order, a row joins when its price is below the running minimum, the
    lowest price of every row before it (a row that does not join is not below it, so the
    minimum of the rows that joined is the minimum of all rows before)."""
    walk = _ordered(obs).filter(pl.col("score") >= threshold)
    below = pl.col("price") < pl.col("price").cum_min().shift(1, fill_value=float("inf"))
    kept = [SOURCES] if SOURCES in obs.columns else []  # each step's price and score rows
    steps = walk.filter(below).select("model", "date", "price", "score", *kept)
    return steps if steps.height else obs.clear()


def trend(
    obs: pl.DataFrame,
    benchmark: str,
    threshold_model: str,
    threshold_score: float,
    *,
    threshold_models: str | None = None,
    bootstrap: bool = False,
) -> dict:
    steps = staircase(obs, threshold_score)
    method = f"fixed-capability trend ({benchmark} >= {threshold_score:g}, {threshold_model})"
    if steps.height < MIN_POINTS:
        raise InsufficientData(
            f"{method} needs at least {MIN_POINTS} staircase points, got {steps.height}"
        )
    fit = fit_log_trend(
        steps["date"].to_list(), steps["price"].to_list(), method=method, min_points=MIN_POINTS
    )
    out = {
        "benchmark": benchmark,
        "threshold_model": threshold_model,
        "threshold_models": threshold_models or threshold_model,
        "threshold_score": threshold_score,
        "n": fit.n,
        "start_date": fit.start_date,
        "end_date": fit.end_date,
        "factor_per_year": fit.factor_per_year,
        "ci90_low": fit.ci90_low,
        "ci90_high": fit.ci90_high,
        "r_squared": fit.r_squared,
    }
    if SOURCES in steps.columns:  # the rows the trend was fitted on: its staircase's
        out[SOURCES] = steps.select(joined_sources(steps))[SOURCES][0]
    if bootstrap:
        out["boot90_low"], out["boot90_high"] = bootstrap_factor_interval(
            steps["date"].to_list(), steps["price"].to_list()
        )
    return out


def trends(obs: pl.DataFrame, benchmark: str, *, bootstrap: bool = False) -> pl.DataFrame:
    """Every threshold's trend on one benchmark; thresholds with too few points are left out."""
    rows = []
    for t in thresholds(obs, benchmark).iter_rows(named=True):
        try:
            rows.append(
                trend(
                    obs,
                    benchmark,
                    t["model"],
                    t["score"],
                    threshold_models=t["models"],
                    bootstrap=bootstrap,
                )
            )
        except InsufficientData:
            continue
    # Typed even when empty: an all-string empty frame would turn every column of a later
    # concat into strings.
    schema = RESULT_SCHEMA | (BOOTSTRAP_SCHEMA if bootstrap else {})
    schema |= {SOURCES: pl.String} if SOURCES in obs.columns else {}
    return pl.DataFrame(rows, schema=schema) if rows else pl.DataFrame(schema=schema)


# ---------------------------------------------------------------------------------------------
# Epoch's March 2025 table, from the project's own Epoch-sourced rows
# ---------------------------------------------------------------------------------------------

EPOCH_SOURCE = "epoch-llm-price-trends"


def epoch_rows(token_prices: pl.DataFrame) -> pl.DataFrame:
    """Epoch's own price rows (the dataset behind its published table)."""
    return token_prices.filter(pl.col("source_id") == EPOCH_SOURCE)


EPOCH_BENCHMARKS = ["mmlu", "gpqa-diamond", "humaneval", "math-500", "arena-elo", "math-level-5"]
# What Epoch's page states, for comparison with the reproduction (Cottier et al. 2025): the price
# of GPT-4-level performance on GPQA Diamond fell about 40x per year, and rates range from about
# 9x to 900x per year across benchmarks and thresholds, in a table of 21 trends (one per distinct
# threshold).
EPOCH_PUBLISHED = {
    "gpqa_gpt4_level_factor": 40.0,
    "range_low": 9.0,
    "range_high": 900.0,
    "trends": 21,
}


def epoch_observations(
    token_prices: pl.DataFrame, scores: pl.DataFrame, models: pl.DataFrame, benchmark: str
) -> pl.DataFrame:
    """(model, date, price, score) from Epoch's own rows: each row of its price file is one
    observation (a price change is a new row), its score from the same row. Reasoning models
    (flagged in `models`: o1, o1-mini, o1-preview, o3-mini, DeepSeek-R1) are excluded, as Epoch did."""
    prices_ = token_prices.filter(pl.col("source_id") == EPOCH_SOURCE).select(
        "model_id", "source_model_name", "date", pl.col("blended_usd_per_mtok").alias("price")
    )
    bench = scores.filter(
        (pl.col("source_id") == EPOCH_SOURCE) & (pl.col("benchmark") == benchmark)
    ).select("source_model_name", "date", "score")
    reasoning = models.filter(pl.col("reasoning").fill_null(False))["model_id"]
    return (
        prices_.join(bench, on=["source_model_name", "date"], how="inner")
        .filter(~pl.col("model_id").is_in(reasoning.implode()))
        .select(pl.col("source_model_name").alias("model"), "date", "price", "score")
    )


def reproduce_epoch(
    token_prices: pl.DataFrame,
    scores: pl.DataFrame,
    models: pl.DataFrame,
    *,
    bootstrap: bool = False,
) -> pl.DataFrame:
    """Epoch AI's table of fixed-capability price trends, one row per benchmark x distinct
    threshold (21 rows on the Epoch-sourced data, as in Epoch's table)."""
    return pl.concat(
        [
            trends(epoch_observations(token_prices, scores, models, b), b, bootstrap=bootstrap)
            for b in EPOCH_BENCHMARKS
        ],
        how="vertical_relaxed",
    )


# ---------------------------------------------------------------------------------------------
# The same method on the project's full data
# ---------------------------------------------------------------------------------------------

EXTENSION_BENCHMARKS = ["mmlu", "mmlu-pro", "gpqa-diamond", "arena-elo", "eci"]


def model_scores(scores: pl.DataFrame, benchmark: str) -> pl.DataFrame:
    """One score per model on a benchmark: the median across sources and dates (sources mostly
    agree; Arena Elo moves a little between leaderboard snapshots), with the `sources` of the
    score rows it is the median of."""
    rows = scores.filter(pl.col("benchmark") == benchmark)
    return rows.group_by("model_id").agg(pl.col("score").median(), *joined_sources(rows))


def full_observations(
    token_prices: pl.DataFrame,
    scores: pl.DataFrame,
    models: pl.DataFrame,
    benchmark: str,
    *,
    ratio: tuple[float, float] = (3, 1),
    include_reasoning: bool = False,
) -> pl.DataFrame:
    """(model, date, price, score) from every source: USD list prices blended at `ratio`, one price
    per model and date (first-party, else the median across providers), the model's median score."""
    priced = priced_observations(
        token_prices, models, ratio=ratio, include_reasoning=include_reasoning
    )
    return scored_observations(priced, model_scores(scores, benchmark))


def priced_observations(
    token_prices: pl.DataFrame,
    models: pl.DataFrame,
    *,
    ratio: tuple[float, float] = (3, 1),
    include_reasoning: bool = False,
    through: date | None = None,
) -> pl.DataFrame:
    """(model_id, date, price): USD list prices blended at `ratio`, one per model and date
    (first-party, else the median across providers), reasoning models left out unless asked;
    with `through`, only prices dated up to that day (a scheduled future price is not yet one)."""
    from analysis.methods import prices as prices_mod

    blended = token_prices.filter(
        (pl.col("currency") == "USD") & (pl.col("price_kind") == "list")
    ).with_columns(prices_mod.blended_price(ratio).alias("price"))
    per_date = prices_mod.one_price_per_model_date(blended.filter(pl.col("price") > 0), "price")
    if through is not None:
        per_date = per_date.filter(pl.col("date") <= through)
    if not include_reasoning:
        reasoning = models.filter(pl.col("reasoning").fill_null(False))["model_id"]
        per_date = per_date.filter(~pl.col("model_id").is_in(reasoning.implode()))
    return per_date.select("model_id", "date", "price", *_sources_of(per_date))


def scored_observations(priced: pl.DataFrame, scores_by_model: pl.DataFrame) -> pl.DataFrame:
    """(model, date, price, score): each priced observation with its model's one score; and,
    where both name them, `sources`: those of the price rows and of the score rows."""
    both = SOURCES in priced.columns and SOURCES in scores_by_model.columns
    joined = priced.join(
        scores_by_model.select("model_id", "score", *_sources_of(scores_by_model)),
        on="model_id",
        suffix="_score",
    )
    kept = []
    if both:
        ids = pl.concat_list(
            pl.col(SOURCES).str.split(";"), pl.col(f"{SOURCES}_score").str.split(";")
        )
        kept = [ids.list.unique().list.sort().list.join(";").alias(SOURCES)]
    return joined.select(pl.col("model_id").alias("model"), "date", "price", "score", *kept)


def _sources_of(frame: pl.DataFrame) -> list[str]:
    return [SOURCES] if SOURCES in frame.columns else []


def extension_trends(
    token_prices: pl.DataFrame,
    scores: pl.DataFrame,
    models: pl.DataFrame,
    *,
    benchmarks: list[str] = EXTENSION_BENCHMARKS,
    ratio: tuple[float, float] = (3, 1),
    include_reasoning: bool = False,
    bootstrap: bool = False,
) -> pl.DataFrame:
    """Epoch's method on the full data: every benchmark's thresholds, with the settings as columns."""
    frames = []
    for b in benchmarks:
        obs = full_observations(
            token_prices, scores, models, b, ratio=ratio, include_reasoning=include_reasoning
        )
        frames.append(trends(obs, b, bootstrap=bootstrap))
    out = pl.concat([f for f in frames if f.height], how="vertical_relaxed")
    return out.with_columns(
        pl.lit(f"{ratio[0]:g}:{ratio[1]:g}").alias("blend"),
        pl.lit(include_reasoning).alias("reasoning_models_included"),
    )


# ---------------------------------------------------------------------------------------------
# The 2026 extension: scores from one source and one snapshot per series
# ---------------------------------------------------------------------------------------------
# A composite index is rescaled whenever its maker re-estimates it (Artificial Analysis re-scores
# every model when its index changes; Epoch refits the ECI with each export), so scores from two
# snapshots are not one scale. Each series here takes every score from one snapshot.

AA_SOURCE = "aa-leaderboards-oolong"
HUB_2026_SOURCE = "epoch-benchmarking-hub-2026-04"
# Epoch Hub exports, newest first: a series takes the newest one a release holds.
HUB_SOURCES = (HUB_2026_SOURCE, "epoch-benchmarking-hub")


AA_BENCHMARK = "aa-intelligence-index"  # the benchmark id of the AA snapshot's scores
AA_SNAPSHOTS = "aa_snapshots"  # the table of the leaderboard snapshots (from release 2026-12-01)
AA_SNAPSHOTS_NEED = "Artificial Analysis leaderboard snapshots of 2026"  # what an older one lacks


def hub_source(scores: pl.DataFrame) -> str:
    """The newest Epoch Hub export (of `HUB_SOURCES`) a release's scores come from."""
    listed = scores.select(row_sources(scores).alias("ids"))["ids"]
    for source in HUB_SOURCES:
        if listed.list.contains(source).any():
            return source
    raise LookupError(f"benchmark_scores: no rows from any Epoch Hub export {HUB_SOURCES}")


def hub_last_date(scores: pl.DataFrame, source_id: str) -> date:
    """The newest score date of the Epoch Hub export `source_id`."""
    return scores.filter(row_sources(scores).list.contains(source_id))["date"].max()


def snapshot_scores(
    aa_snapshots: pl.DataFrame, column: str = "intelligence_index", snapshot: date | None = None
) -> pl.DataFrame:
    """(model_id, score, snapshot): one Artificial Analysis snapshot (default the latest). A model
    listed at several settings (reasoning effort) takes its highest score: its price is the same.
    With `sources`, those of the model's snapshot rows, where the table names them."""
    if aa_snapshots.is_empty():
        raise ValueError("aa_snapshots: no rows, so no snapshot to take scores from")
    day = aa_snapshots["snapshot_date"].max() if snapshot is None else snapshot
    rows = aa_snapshots.filter(
        (pl.col("snapshot_date") == day)
        & pl.col(column).is_not_null()
        & pl.col("model_id").is_not_null()
    )
    if rows.is_empty():
        raise ValueError(f"aa_snapshots: no {column} values in the snapshot of {day}")
    return (
        rows.group_by("model_id")
        .agg(pl.col(column).max().alias("score"), *joined_sources(rows))
        .with_columns(pl.lit(day).alias("snapshot"))
        .sort("model_id")
    )


def row_sources(frame: pl.DataFrame) -> pl.Expr:
    """Every source behind each row, as a list: `source_ids` in curated releases; before them
    (or where it is empty) the row's one `source_id`."""
    ids = (
        pl.coalesce("source_ids", "source_id")
        if "source_ids" in frame.columns
        else pl.col("source_id")
    )
    return ids.str.split(";").list.eval(pl.element().str.strip_chars())


def export_scores(scores: pl.DataFrame, benchmark: str, source_id: str) -> pl.DataFrame:
    """(model_id, score): every score one export gives on `benchmark` (rows whose `source_ids`
    include it: a curated row the export shares with an older one names both); a model with
    several rows in the export takes its highest."""
    in_export = row_sources(scores)
    rows = scores.filter((pl.col("benchmark") == benchmark) & in_export.list.contains(source_id))
    if rows.is_empty():
        raise ValueError(f"benchmark_scores: no {benchmark} rows from source {source_id!r}")
    return rows.group_by("model_id").agg(pl.col("score").max()).sort("model_id")


WINDOW_SCHEMA = {
    "benchmark": pl.String,
    "threshold_model": pl.String,
    "threshold_score": pl.Float64,
    "n_short": pl.Int64,
    "end_short": pl.Date,
    "factor_short": pl.Float64,
    "n_full": pl.Int64,
    "end_full": pl.Date,
    "factor_full": pl.Float64,
}


def window_comparison(obs: pl.DataFrame, benchmark: str, cutoff: date) -> pl.DataFrame:
    """Each threshold's trend on prices dated up to `cutoff` beside its trend on all of them:
    the same observations, so the difference is what the later prices add. Thresholds are those
    of the short window (a model must have set them by `cutoff`); only thresholds with enough
    points in both windows are kept. Where `obs` names its rows' `sources`, each comparison keeps
    those of the full window's staircase (the short one's steps are its first steps)."""
    short = trends(obs.filter(pl.col("date") <= cutoff), benchmark)
    schema = WINDOW_SCHEMA | ({SOURCES: pl.String} if SOURCES in obs.columns else {})
    rows = []
    for t in short.iter_rows(named=True):
        full = trend(obs, benchmark, t["threshold_model"], t["threshold_score"])
        kept = {SOURCES: full[SOURCES]} if SOURCES in schema else {}
        rows.append(
            {
                "benchmark": benchmark,
                "threshold_model": t["threshold_model"],
                "threshold_score": t["threshold_score"],
                "n_short": t["n"],
                "end_short": t["end_date"],
                "factor_short": t["factor_per_year"],
                "n_full": full["n"],
                "end_full": full["end_date"],
                "factor_full": full["factor_per_year"],
                **kept,
            }
        )
    return pl.DataFrame(rows, schema=schema) if rows else pl.DataFrame(schema=schema)


def cheapest_reaching(obs: pl.DataFrame, threshold: float, by: date) -> dict:
    """The cheapest observation scoring at least `threshold` dated up to `by` (the staircase's
    level on that day): model, date, price, score."""
    reached = obs.filter((pl.col("score") >= threshold) & (pl.col("date") <= by))
    if reached.is_empty():
        raise InsufficientData(f"no observation scores at least {threshold:g} by {by}")
    return reached.sort("price", "date", "model").row(0, named=True)


# --- what the fixed-capability page draws ---------------------------------------------------------


def at_or_above(obs: pl.DataFrame, threshold: float) -> pl.DataFrame:
    """The observations scoring at least `threshold`: the models a staircase may step on."""
    return obs.filter(pl.col("score") >= threshold)


def staircase_fit(obs: pl.DataFrame, threshold: float) -> tuple[pl.DataFrame, DeclineFit]:
    """The staircase at a threshold and the trend fitted through it (the fit `trend` makes)."""
    steps = staircase(obs, threshold)
    fit = fit_log_trend(steps["date"].to_list(), steps["price"].to_list(), min_points=MIN_POINTS)
    return steps, fit


def epoch_window_end(token_prices: pl.DataFrame) -> date:
    """The last price date of Epoch's own data: the end of the window its table covers."""
    return token_prices.filter(pl.col("source_id") == EPOCH_SOURCE)["date"].max()


HUB_BENCHMARKS = ("eci", "gpqa-diamond")  # the one-snapshot series scored by the Hub export


def one_snapshot_series(
    token_prices: pl.DataFrame,
    scores: pl.DataFrame,
    models: pl.DataFrame,
    aa_snapshots: pl.DataFrame | None,
    through: date,
) -> dict[tuple[str, str], pl.DataFrame]:
    """(benchmark, source) -> (model, date, price, score, sources): every priced observation to
    `through` with its model's score from one snapshot: Artificial Analysis's latest (none when
    the release has no `aa_snapshots`), and the newest Epoch Hub export (`hub_source`). Each
    row's `sources` are its price rows' and its score's (the snapshot's rows, or the export), so
    a trend names the price sources its staircase rests on, not only the score snapshot."""
    priced = priced_observations(token_prices, models, through=through)
    out = {}
    if aa_snapshots is not None:
        out[(AA_BENCHMARK, AA_SOURCE)] = scored_observations(priced, snapshot_scores(aa_snapshots))
    hub = hub_source(scores)
    for benchmark in HUB_BENCHMARKS:
        # every score `export_scores` reads stands behind the export (its rows name it)
        by_model = export_scores(scores, benchmark, hub).with_columns(pl.lit(hub).alias(SOURCES))
        out[(benchmark, hub)] = scored_observations(priced, by_model)
    return out


def trends_by_series(series: dict[tuple[str, str], pl.DataFrame]) -> pl.DataFrame:
    """`trends` of each one-snapshot series, each row labelled with its `score_source`."""
    return pl.concat(
        [
            trends(obs, b).with_columns(pl.lit(src).alias("score_source"))
            for (b, src), obs in series.items()
        ],
        how="vertical_relaxed",
    )


def window_comparisons(series: dict[tuple[str, str], pl.DataFrame], cutoff: date) -> pl.DataFrame:
    """`window_comparison` of each one-snapshot series at `cutoff`, labelled by `score_source`."""
    return pl.concat(
        [
            window_comparison(obs, b, cutoff).with_columns(pl.lit(src).alias("score_source"))
            for (b, src), obs in series.items()
        ],
        how="vertical_relaxed",
    )


def model_level(series: dict[tuple[str, str], pl.DataFrame], model: str, by: date) -> pl.DataFrame:
    """For each one-snapshot series where `model` has one score: that score, the first day any
    model reached it, and the cheapest model at or above it by `by` (`cheapest_reaching`)."""
    rows = []
    for (benchmark, source), obs in series.items():
        own = obs.filter(pl.col("model") == model)["score"].unique()
        if own.len() != 1:
            continue
        reached = obs.filter(pl.col("score") >= own[0])
        first = cheapest_reaching(obs, own[0], reached["date"].min())
        last = cheapest_reaching(obs, own[0], by)
        rows.append(
            {
                "benchmark": benchmark,
                "score_source": source,
                "threshold_score": own[0],
                "first_date": first["date"],
                "first_model": first["model"],
                "first_price": first["price"],
                "by": by,
                "cheapest_model": last["model"],
                "cheapest_date": last["date"],
                "cheapest_price": last["price"],
            }
        )
    return pl.DataFrame(rows)
