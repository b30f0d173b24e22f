"""Quality-adjusted (hedonic) price trends: Gundlach et al., "The Price of Progress" (arXiv 2511.23455).

One OLS per benchmark and sample:

    ln(price) = a * days + b * logit(score) + c

with the score (percent) clipped to [0.5%, 99.5%] before the logit. Holding the score fixed, the
price falls by a factor exp(-365 a) per year; its 90% interval comes from a's t-interval with n - 3
degrees of freedom and heteroskedasticity-robust HC3 standard errors (HC3 rather than HC1: the
frontier samples are small, tens of models, and HC3 is the better-behaved choice there; Long and
Ervin 2000). `days` counts from 2020-01-01, so c is ln(price) on that day at a 50% score.

Observations, one per model (choices the chapter states):

- Price: the blended 3:1 USD list price at the base context tier (`prices.blended_price`), one
  per model and date by Epoch's rule (`prices.one_price_per_model_date`: first-party, else the
  median across providers); of those, the model's earliest, i.e. its price at or nearest its
  release. tokencost-yaml is left out (prices rounded to $0.10 per 1M tokens).
- Date (`date_from`): "latest" (default) is the later of the model's release date (`models`) and
  the date of that earliest price, i.e. the first date the data shows the model both released and
  sold at that price. The paper dates models by release ("release"), but here a model's first
  price is often seen months after release (a later, usually lower price would then be dated at
  release) and a few prices are dated before release (e.g. gundlach-inference prices Qwen3 235B
  in July 2024, ten months before its release): "latest" is true in both cases. "release" (price
  date where no release date is known) and "price" are there for comparison.
- Score: per benchmark, one source wins in the order of `SCORE_SOURCES` (the paper's own
  Artificial Analysis data first), and within it the model's highest score. The Artificial
  Analysis Intelligence Index (0-100) is treated as a percent.
- Reasoning models are kept (the paper's data lists them; Epoch's staircase method drops them).

Samples: "frontier" is the running Pareto frontier of (price, score): a model is on it unless
some other model dated on or before it is at most as expensive and scores at least as high, and
is strictly better on one of the two (exact ties on both stay). "all" is every model;
"open-weights" every model with `models.open_weights` true; "open-weights frontier" the running
frontier among those.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import numpy as np
import polars as pl

from analysis.methods import prices
from analysis.methods.llmflation import COARSE_SOURCES
from analysis.methods.trends import InsufficientData, decline_factor, require_points

SCORE_CLIP = (0.5, 99.5)  # percent
DAY_ZERO = date(2020, 1, 1)
MIN_POINTS = 4  # three coefficients and at least one residual degree of freedom for t(n-3)
COV_TYPE = "HC3"
LEVEL = 0.90
BENCHMARKS = ["gpqa-diamond", "mmlu-pro", "aa-intelligence-index", "mmlu"]
DATE_RULES = ("latest", "release", "price")
SAMPLES = ["frontier", "all", "open-weights", "open-weights frontier"]
# Which source's score wins when several give one: the paper's data, then Epoch's.
SCORE_SOURCES = [
    "gundlach-inference",
    "epoch-benchmarking-hub",
    "epoch-benchmark-stitching",
    "epoch-llm-price-trends",
    "lmarena-catalog",
]
# Indexes whose maker rescales every model when it revises the index (Artificial Analysis
# re-scores on each index version; Epoch refits the ECI with each export): scores from two
# sources or snapshots of one are not one scale, so a fit takes them from one.
SNAPSHOT_SCALED = {"aa-intelligence-index", "aa-coding-index", "aa-agentic-index", "eci"}
RESULT_COLUMNS = [
    "benchmark",
    "sample",
    "n",
    "start_date",
    "end_date",
    "window",
    "factor_per_year",
    "ci90_low",
    "ci90_high",
    "a",
    "a_se",
    "b",
    "b_se",
    "c",
    "r_squared",
    "cov_type",
]


def logit_score(col: str = "score") -> pl.Expr:
    """logit of a percent score, clipped to [0.5%, 99.5%] first (0 and 100 have no logit)."""
    p = pl.col(col).clip(*SCORE_CLIP) / 100
    return (p / (1 - p)).log().alias("logit_score")


def days_since_origin(col: str = "date") -> pl.Expr:
    return (pl.col(col) - pl.lit(DAY_ZERO)).dt.total_days().cast(pl.Float64).alias("days")


def model_scores(benchmark_scores: pl.DataFrame, benchmark: str) -> pl.DataFrame:
    """One score per model on `benchmark`: (model_id, score, score_source). On an index whose
    scale is set per snapshot (`SNAPSHOT_SCALED`), every score comes from one source: the first
    of `SCORE_SOURCES` (else of the others, by name) that scores the benchmark."""
    rank = pl.col("source_id").replace_strict(
        {s: i for i, s in enumerate(SCORE_SOURCES)},
        default=len(SCORE_SOURCES),
        return_dtype=pl.Int64,
    )
    rows = benchmark_scores.filter(pl.col("benchmark") == benchmark)
    if benchmark in SNAPSHOT_SCALED and not rows.is_empty():
        first = rows.sort([rank, "source_id"])["source_id"][0]
        rows = rows.filter(pl.col("source_id") == first)
    return (
        rows.sort([rank, "source_id", "model_id", "score"], descending=[False, False, False, True])
        .group_by("model_id", maintain_order=True)
        .first()
        .select("model_id", "score", pl.col("source_id").alias("score_source"))
    )


def first_prices(token_prices: pl.DataFrame) -> pl.DataFrame:
    """Each model's earliest blended 3:1 USD list price: (model_id, price_date, price, selection,
    and the `sources` of the rows it was taken from where they name theirs)."""
    col = "blended_usd_per_mtok_3to1"
    listed = token_prices.filter(
        (pl.col("price_kind") == "list")
        & pl.col("context_tier").fill_null("").eq("")
        & ~pl.col("source_id").is_in(list(COARSE_SOURCES))
    ).with_columns(prices.blended_price(prices.EPOCH_BLEND))
    per_date = prices.one_price_per_model_date(listed.filter(pl.col(col) > 0), col)
    return (
        per_date.sort("model_id", "date")
        .group_by("model_id", maintain_order=True)
        .first()
        .select(
            "model_id",
            pl.col("date").alias("price_date"),
            pl.col(col).alias("price"),
            "selection",
            *([prices.SOURCES] if prices.SOURCES in per_date.columns else []),
        )
    )


def observations(
    token_prices: pl.DataFrame,
    benchmark_scores: pl.DataFrame,
    models: pl.DataFrame,
    benchmark: str,
    *,
    date_from: str = "latest",
) -> pl.DataFrame:
    """One row per priced and scored model: model_id, date, price, score, open_weights, and
    where each came from (price_date, release_date, selection, score_source)."""
    return observations_from_scores(
        token_prices, model_scores(benchmark_scores, benchmark), models, date_from=date_from
    )


def observations_from_scores(
    token_prices: pl.DataFrame,
    scores_by_model: pl.DataFrame,
    models: pl.DataFrame,
    *,
    date_from: str = "latest",
) -> pl.DataFrame:
    """`observations` with the scores given: one per model (model_id, score, and score_source
    where known), e.g. one snapshot of a leaderboard."""
    if date_from not in DATE_RULES:
        raise ValueError(f"date_from must be one of {DATE_RULES}, got {date_from!r}")
    if "score_source" not in scores_by_model.columns:
        scores_by_model = scores_by_model.with_columns(
            pl.lit(None, pl.String).alias("score_source")
        )
    dated = {
        "latest": pl.max_horizontal("release_date", "price_date"),
        "release": pl.coalesce("release_date", "price_date"),
        "price": pl.col("price_date"),
    }[date_from]
    first = first_prices(token_prices)
    kept = [prices.SOURCES] if prices.SOURCES in first.columns else []  # the price's rows
    return (
        first.join(
            scores_by_model.select("model_id", "score", "score_source"), on="model_id", how="inner"
        )
        .join(models.select("model_id", "release_date", "open_weights"), on="model_id", how="left")
        .with_columns(dated.alias("date"))
        .select(
            "model_id",
            "date",
            "price",
            "score",
            pl.col("open_weights").fill_null(False),
            "price_date",
            "release_date",
            "selection",
            "score_source",
            *kept,
        )
        .sort("date", "model_id")
    )


def running_frontier(obs: pl.DataFrame, key: str = "model_id") -> pl.DataFrame:
    """The rows no earlier-or-same-date row dominates (cheaper-or-equal and at least as good,
    strictly better on one); `key` identifies a row (a model, or one price observation)."""
    other = obs.select(
        pl.col(key).alias("j_key"),
        pl.col("date").alias("j_date"),
        pl.col("price").alias("j_price"),
        pl.col("score").alias("j_score"),
    )
    dominated = (
        obs.join(other, how="cross")
        .filter(
            (pl.col("j_key") != pl.col(key))
            & (pl.col("j_date") <= pl.col("date"))
            & (pl.col("j_price") <= pl.col("price"))
            & (pl.col("j_score") >= pl.col("score"))
            & ((pl.col("j_price") < pl.col("price")) | (pl.col("j_score") > pl.col("score")))
        )
        .select(key)
        .unique()
    )
    return obs.join(dominated, on=key, how="anti").sort("date", key)


def sample(obs: pl.DataFrame, name: str) -> pl.DataFrame:
    """One of SAMPLES drawn from the observations of a benchmark."""
    if name not in SAMPLES:
        raise ValueError(f"sample must be one of {SAMPLES}, got {name!r}")
    pool = obs.filter(pl.col("open_weights")) if name.startswith("open-weights") else obs
    return running_frontier(pool) if name.endswith("frontier") else pool


def _method(benchmark: str, sample_name: str) -> str:
    return f"hedonic price regression ({benchmark}, {sample_name})"


def design(obs: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(y, X): ln(price), and columns [days since 2020-01-01, logit(clipped score), 1]."""
    d = obs.select(pl.col("price").log().alias("y"), days_since_origin(), logit_score())
    X = np.column_stack([d["days"].to_numpy(), d["logit_score"].to_numpy(), np.ones(d.height)])
    return d["y"].to_numpy(), X


def ols(obs: pl.DataFrame, method: str, cov_type: str = COV_TYPE):
    """statsmodels OLS of the hedonic equation with robust errors and t(n-3) inference."""
    # imported here, not at the top: a page served from the result cache fits nothing
    import statsmodels.api as sm

    require_points(method, obs.height, MIN_POINTS)
    y, X = design(obs)
    if np.ptp(X[:, 0]) == 0 or np.ptp(X[:, 1]) == 0:
        raise InsufficientData(f"{method} needs models on two or more dates and scores")
    return sm.OLS(y, X).fit(cov_type=cov_type, use_t=True)


def fit_hedonic(
    obs: pl.DataFrame,
    benchmark: str = "",
    sample_name: str = "",
    *,
    cov_type: str = COV_TYPE,
    level: float = LEVEL,
) -> dict:
    """The fit as a dict (RESULT_COLUMNS): factor per year exp(-365 a) with its interval, the
    coefficients and robust standard errors, n and the date window."""
    res = ols(obs, _method(benchmark, sample_name), cov_type)
    lo, hi = res.conf_int(alpha=1 - level)[0]
    a = float(res.params[0])
    start, end = obs["date"].min(), obs["date"].max()
    return {
        "benchmark": benchmark,
        "sample": sample_name,
        "n": int(res.nobs),
        "start_date": start,
        "end_date": end,
        "window": f"{start}..{end}",
        "factor_per_year": decline_factor(a, np.e),
        # A steeper fall (more negative a) is a larger factor: the bounds swap.
        "ci90_low": decline_factor(float(hi), np.e),
        "ci90_high": decline_factor(float(lo), np.e),
        "a": a,
        "a_se": float(res.bse[0]),
        "b": float(res.params[1]),
        "b_se": float(res.bse[1]),
        "c": float(res.params[2]),
        "r_squared": float(res.rsquared),
        "cov_type": cov_type,
    }


def hedonic_table(
    token_prices: pl.DataFrame,
    benchmark_scores: pl.DataFrame,
    models: pl.DataFrame,
    benchmarks: list[str] = BENCHMARKS,
    samples: list[str] = SAMPLES,
    *,
    date_from: str = "latest",
    data_version: str | None = None,
) -> pl.DataFrame:
    """Every benchmark x sample fit, one row each. A fit with too few models keeps its row, with
    n, null estimates and the reason in `note`."""
    rows = []
    for bench in benchmarks:
        obs = observations(token_prices, benchmark_scores, models, bench, date_from=date_from)
        for name in samples:
            s = sample(obs, name)
            try:
                row = fit_hedonic(s, bench, name) | {"note": None}
            except InsufficientData as err:
                row = {"benchmark": bench, "sample": name, "n": s.height, "note": str(err)}
            rows.append(row)
    table = pl.DataFrame(rows, infer_schema_length=None)
    table = table.with_columns(
        pl.lit(date_from).alias("date_from"), pl.lit(data_version).alias("data_version")
    )
    return table.select(
        [c for c in RESULT_COLUMNS if c in table.columns] + ["note", "date_from", "data_version"]
    )


def reference_score(obs: pl.DataFrame) -> float:
    return float(obs["score"].median())


def price_index(
    obs: pl.DataFrame,
    score: float | None = None,
    *,
    benchmark: str = "",
    sample_name: str = "",
    level: float = LEVEL,
) -> pl.DataFrame:
    """Quality-adjusted price by month: the fitted price of a model scoring `score` (default the
    sample's median score), with a `level` confidence band (robust, t(n-3)).

    Columns: month, score, price, ci_low, ci_high, benchmark, sample, and `sources`: those of
    the observations fitted, where they name theirs.
    """
    res = ols(obs, _method(benchmark, sample_name))
    s = reference_score(obs) if score is None else score
    months = pl.date_range(
        obs["date"].min().replace(day=1), obs["date"].max().replace(day=1), "1mo", eager=True
    )
    grid = pl.DataFrame({"date": months, "price": 1.0, "score": s})
    _, X = design(grid)
    pred = res.get_prediction(X).summary_frame(alpha=1 - level)
    return pl.DataFrame(
        {
            "month": months,
            "score": s,
            "price": np.exp(pred["mean"].to_numpy()),
            "ci_low": np.exp(pred["mean_ci_lower"].to_numpy()),
            "ci_high": np.exp(pred["mean_ci_upper"].to_numpy()),
        }
    ).with_columns(
        pl.lit(benchmark).alias("benchmark"),
        pl.lit(sample_name).alias("sample"),
        *([pl.lit(kept).alias(prices.SOURCES)] if (kept := prices.frame_sources(obs)) else []),
    )


def quality_adjusted_prices(
    obs: pl.DataFrame, score: float | None = None, *, benchmark: str = "", sample_name: str = ""
) -> pl.DataFrame:
    """Each model's price moved to the reference score along the fitted b:
    price x exp(b (logit(score) - logit(model's score))); the points behind `price_index`."""
    res = ols(obs, _method(benchmark, sample_name))
    s = reference_score(obs) if score is None else score
    b = float(res.params[1])
    ref = pl.DataFrame({"score": [s]}).select(logit_score())["logit_score"][0]
    return obs.with_columns(logit_score()).with_columns(
        (pl.col("price") * ((ref - pl.col("logit_score")) * b).exp()).alias("adjusted_price"),
        pl.lit(s).alias("reference_score"),
    )


@dataclass(frozen=True)
class ReferenceIndex:
    """Price indexes of several samples at one reference score, and the points behind them."""

    observations: pl.DataFrame  # `observations` of the benchmark
    reference: float  # the reference sample's median score
    by_month: pl.DataFrame  # `price_index` of each sample, stacked
    adjusted: pl.DataFrame  # the reference sample's prices moved to the reference score
    samples: tuple[str, ...] = ()  # the samples fitted, in order

    def fitted_rows(self) -> pl.DataFrame:
        """The observations the drawn indexes were fitted on: the rows of every sample."""
        return pl.concat([sample(self.observations, name) for name in self.samples]).unique(
            maintain_order=True
        )


def reference_index(
    obs: pl.DataFrame,
    benchmark: str,
    samples: list[str],
    *,
    reference_sample: str = "frontier",
) -> ReferenceIndex:
    """The index of each of `samples` at the median score of `reference_sample`, and that
    sample's own prices moved to the score (with a `sample` column)."""
    reference_obs = sample(obs, reference_sample)
    reference = reference_score(reference_obs)
    index = pl.concat(
        [
            price_index(sample(obs, name), reference, benchmark=benchmark, sample_name=name)
            for name in samples
        ]
    )
    adjusted = quality_adjusted_prices(reference_obs, reference).with_columns(
        pl.lit(reference_sample).alias("sample")
    )
    return ReferenceIndex(obs, reference, index, adjusted, tuple(samples))


def cheapest_reaching(obs: pl.DataFrame, score: float, by: date) -> dict:
    """The cheapest observation (a row with date, price and score) at or above `score` dated up
    to `by`: the real model an index at that score stands for."""
    reached = obs.filter((pl.col("score") >= score) & (pl.col("date") <= by))
    if reached.height == 0:
        raise InsufficientData(f"no observation scores at least {score:g} by {by}")
    # Ties go to the earlier date, then to the first in input order.
    return reached.sort("price", "date", maintain_order=True).row(0, named=True)


WINDOW_SCHEMA = {
    "benchmark": pl.String,
    "score_source": pl.String,
    "sample": pl.String,
    "n": pl.Int64,
    "start_date": pl.Date,
    "end_date": pl.Date,
    "factor_per_year": pl.Float64,
    "ci90_low": pl.Float64,
    "ci90_high": pl.Float64,
    "n_short": pl.Int64,
    "end_short": pl.Date,
    "factor_short": pl.Float64,
    "ci90_low_short": pl.Float64,
    "ci90_high_short": pl.Float64,
}


def window_fits(
    obs: pl.DataFrame,
    benchmark: str,
    score_source: str,
    cutoff: date,
    samples: tuple[str, ...] = ("frontier", "all"),
) -> pl.DataFrame:
    """Each sample's fit on every observation beside its fit on those dated up to `cutoff` (the
    sample drawn again from the shorter window: the frontier is defined in time). A fit with too
    few models keeps its n and has no estimate."""
    rows = []
    for name in samples:
        row = {"benchmark": benchmark, "score_source": score_source, "sample": name}
        for suffix, pool in (("", obs), ("_short", obs.filter(pl.col("date") <= cutoff))):
            s = sample(pool, name)
            row["n" + suffix] = s.height
            try:
                f = fit_hedonic(s, benchmark, name)
            except InsufficientData:
                continue
            factor = "factor_per_year" if suffix == "" else "factor_short"
            row[factor] = f["factor_per_year"]
            row["ci90_low" + suffix], row["ci90_high" + suffix] = f["ci90_low"], f["ci90_high"]
            if suffix:
                row["end_short"] = f["end_date"]
            else:
                row["start_date"], row["end_date"] = f["start_date"], f["end_date"]
        rows.append(row)
    return pl.DataFrame(rows, schema=WINDOW_SCHEMA)


def window_fit(fits: pl.DataFrame, benchmark: str, sample_name: str) -> dict | None:
    """The row of `window_fits` (stacked over series) for one benchmark and sample, or None
    where the series is not in the frame (a release without its snapshot)."""
    rows = fits.filter(pl.col("benchmark") == benchmark, pl.col("sample") == sample_name)
    if rows.height > 1:
        raise ValueError(f"window fits: {rows.height} rows of {benchmark} {sample_name}")
    return rows.row(0, named=True) if rows.height else None
