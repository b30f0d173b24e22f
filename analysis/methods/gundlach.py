"""Gundlach, Lynch, Mertens and Thompson, "The Price of Progress" (arXiv 2511.23455), reproduced.

The regression, per benchmark and sample:

    ln(price) = a * days + b * logit(score) + c

OLS (statsmodels, classical standard errors); the score (percent) is clipped to [0.5%, 99.5%]
before the logit; the price of a fixed score falls by exp(-365 a) per year, with a 90% interval
from a's t-interval on n - 3 degrees of freedom. `hedonic.py` is the book's own variant of the
same regression on its released tables; `decomposition` walks from one to the other.

The sample rules, from the authors' data (`importers/gundlach_benchmarks.py` reads it), their data
card (`data/README.md` of github.com/hansgundlach/Algorithmic_Progress_Inference, commit c34454ed)
and their table-generating code at the data's commit (a6381e26, `generate_regression_tables.py`,
read for its rules only; none of these texts is among the project's raw sources):

1. Observations: one per row of the authors' per-benchmark table, i.e. per model and monthly
   price snapshot (April 2024 to April 2026); a price change is a new observation. ARC-AGI has
   one row per entry of the authors' general table matched to an ARC Prize result (a model or a
   variant of it), whose cost per task does not change.
2. Date: the row's `Release Date`, which in the per-benchmark tables is the snapshot month (its
   first day), and for ARC-AGI the model's release date. Days are date ordinals.
3. Price variable, "benchmark cost": the file's `Benchmark Cost USD`, the cost of one run of the
   benchmark at the prices in force (Epoch's token counts per run x the lowest provider price on
   Artificial Analysis then, per the data card; reasoning tokens billed as output; SWE-bench
   cache reads and writes at their own prices; the importer recomputes it); for ARC-AGI the
   ARC Prize cost per task. The alternative, "3:1 blend", is the row's (3 x input + output) / 4
   per 1M tokens (for ARC-AGI, Artificial Analysis' current blend in `merged.csv`).
4. Score: Epoch's GPQA Diamond run (`epoch_gpqa`), OTIS Mock AIME 2024-2025 one-shot
   (`oneshot_AIME`), SWE-bench Verified (`epoch_swe`), ARC-AGI-1 (ARC Prize). Rows missing the
   date, price or score, or with price <= 0 or score <= 0 or > 100, are dropped.
5. Reasoning models are kept; so are several reasoning-budget variants of one model (the
   authors treat them as distinct models).
6. Samples: "frontier" is the running Pareto frontier over the rows: a row stays unless another
   row dated on or before it is at most as expensive (on the price variable of the fit) and
   scores at least as high, and is strictly better on one (exact ties on both stay; a model can
   re-enter the frontier after a price cut). "all" is every row. "open-licence" keeps rows whose
   `License` contains "open" (blank licences are not open); "open-licence frontier" is the
   running frontier among those.
7. A fit needs 3 rows (the authors' minimum); with exactly 3 the fit is exact and has no interval.

The authors' code clips at [1e-10, 1 - 1e-10] but their results table (see PUBLISHED) matches the
[0.5%, 99.5%] clip the paper states: the two differ only on AIME, where some rows score 100%.
"""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl

from analysis.methods import hedonic, prices
from analysis.methods.llmflation import COARSE_SOURCES
from analysis.methods.trends import decline_factor

BENCHMARKS = ["gpqa-diamond", "aime", "swe-bench-verified", "arc-agi-1"]
SAMPLES = ["frontier", "open-licence frontier", "all", "open-licence"]
PRICE_VARIABLES = {
    "benchmark cost": "benchmark_cost_usd",
    "3:1 blend": "blended_usd_per_mtok_3to1",
}
PRICE_VARIABLE_NAMES = list(PRICE_VARIABLES)
LEVEL = 0.90
MIN_POINTS = 3
SCORE_CLIP = hedonic.SCORE_CLIP

RESULT_SCHEMA = {
    "benchmark": pl.String,
    "sample": pl.String,
    "price_variable": pl.String,
    "n": pl.Int64,
    "start_date": pl.Date,
    "end_date": pl.Date,
    "factor_per_year": pl.Float64,
    "ci90_low": pl.Float64,
    "ci90_high": pl.Float64,
    "r_squared": pl.Float64,
    "note": pl.String,
}

# What the authors publish. The abstract of arXiv 2511.23455v2 (23 March 2026): the price of a
# given benchmark performance fell "around 5x to 10x per year, for frontier models".
PUBLISHED_FRONTIER_RANGE = (5.0, 10.0)
# Their results table at the commit of the data the book has (a6381e26, 2026-04-27):
# results_data/regression_comparison_table_raw.csv in github.com/hansgundlach/
# Algorithmic_Progress_Inference, price variable "benchmark cost"; factor and interval printed to
# three decimals, R^2 to four. (benchmark, sample) -> (factor, ci90 low, ci90 high, n, R^2).
PUBLISHED_SOURCE = (
    "github.com/hansgundlach/Algorithmic_Progress_Inference@a6381e26:"
    "results_data/regression_comparison_table_raw.csv"
)
PUBLISHED = {
    ("gpqa-diamond", "frontier"): (9.026, 3.907, 20.854, 57, 0.8152),
    ("gpqa-diamond", "open-licence frontier"): (3.968, 2.187, 7.202, 43, 0.8297),
    ("gpqa-diamond", "all"): (4.415, 2.578, 7.561, 163, 0.6585),
    ("gpqa-diamond", "open-licence"): (1.368, 0.757, 2.473, 84, 0.6000),
    ("aime", "frontier"): (12.240, 5.368, 27.908, 49, 0.7870),
    ("aime", "open-licence frontier"): (6.993, 2.594, 18.852, 31, 0.6629),
    ("aime", "all"): (5.692, 3.102, 10.443, 132, 0.6411),
    ("aime", "open-licence"): (3.165, 1.574, 6.365, 60, 0.6380),
    ("swe-bench-verified", "frontier"): (5.926, 0.887, 39.611, 16, 0.5172),
    ("swe-bench-verified", "open-licence frontier"): (4.528, None, None, 3, 1.0000),
    ("swe-bench-verified", "all"): (1.290, 0.341, 4.878, 26, 0.2013),
    ("swe-bench-verified", "open-licence"): (0.248, 0.000, 99266.244, 5, 0.3222),
    ("arc-agi-1", "frontier"): (12.201, 6.516, 22.847, 43, 0.6870),
    ("arc-agi-1", "open-licence frontier"): (0.456, 0.123, 1.681, 10, 0.7631),
    ("arc-agi-1", "all"): (3.313, 1.963, 5.593, 86, 0.5378),
    ("arc-agi-1", "open-licence"): (0.686, 0.159, 2.952, 11, 0.7846),
}


def published_table() -> pl.DataFrame:
    """PUBLISHED as a frame: benchmark, sample, factor_per_year, ci90_low, ci90_high, n, r_squared."""
    return pl.DataFrame(
        [(b, s, *v) for (b, s), v in PUBLISHED.items()],
        schema={
            "benchmark": pl.String,
            "sample": pl.String,
            "factor_per_year": pl.Float64,
            "ci90_low": pl.Float64,
            "ci90_high": pl.Float64,
            "n": pl.Int64,
            "r_squared": pl.Float64,
        },
        orient="row",
    )


# ---------------------------------------------------------------------------------------------
# Observations, samples, fit
# ---------------------------------------------------------------------------------------------


def usable(rows: pl.DataFrame, price_col: str) -> pl.DataFrame:
    """Rule 4: rows with a date, a price > 0 and a score in (0, 100], as (row, model, date,
    price, score, open_licence); `row` numbers the rows so that repeated models stay apart."""
    model = "source_model_name" if "source_model_name" in rows.columns else "model_id"
    return (
        rows.with_row_index("row")
        .filter(
            pl.col("date").is_not_null()
            & (pl.col(price_col) > 0)
            & (pl.col("score") > 0)
            & (pl.col("score") <= 100)
        )
        .select(
            "row",
            pl.col(model).alias("model"),
            "date",
            pl.col(price_col).alias("price"),
            "score",
            pl.col("open_licence").fill_null(False),
        )
    )


def running_frontier(obs: pl.DataFrame) -> pl.DataFrame:
    """Rule 6: the rows no other row dated on or before them dominates (at most as expensive,
    at least as good, strictly better on one): the book's frontier rule over price rows."""
    return hedonic.running_frontier(obs, key="row")


def sample(obs: pl.DataFrame, name: str) -> pl.DataFrame:
    if name not in SAMPLES:
        raise ValueError(f"sample must be one of {SAMPLES}, got {name!r}")
    pool = obs.filter(pl.col("open_licence")) if name.startswith("open-licence") else obs
    return running_frontier(pool) if name.endswith("frontier") else pool


def fit(obs: pl.DataFrame, *, cov_type: str = "nonrobust", level: float = LEVEL) -> dict:
    """OLS of ln(price) on days and logit(clipped score): n, window, factor per year, its
    `level` interval from t(n - 3) (null with exactly 3 rows), R^2."""
    # imported here, not at the top: a page served from the result cache fits nothing
    import statsmodels.api as sm

    if obs.height < MIN_POINTS:
        raise ValueError(f"needs at least {MIN_POINTS} observations, got {obs.height}")
    y, X = hedonic.design(obs)
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        # With 3 rows there is no residual degree of freedom: statsmodels warns, we drop the CI.
        warnings.simplefilter("ignore", RuntimeWarning)
        res = sm.OLS(y, X).fit(cov_type=cov_type, use_t=True)
        lo, hi = res.conf_int(alpha=1 - level)[0]
    a = float(res.params[0])
    exact = res.df_resid == 0
    return {
        "n": obs.height,
        "start_date": obs["date"].min(),
        "end_date": obs["date"].max(),
        "factor_per_year": decline_factor(a, np.e),
        "ci90_low": None if exact else decline_factor(float(hi), np.e),
        "ci90_high": None if exact else decline_factor(float(lo), np.e),
        "r_squared": float(res.rsquared),
        "note": "3 rows for 3 coefficients: no interval" if exact else None,
    }


def reproduce(
    rows: pl.DataFrame,
    *,
    benchmarks: list[str] = BENCHMARKS,
    samples: list[str] = SAMPLES,
    price_variables: list[str] = PRICE_VARIABLE_NAMES,
) -> pl.DataFrame:
    """The paper's table from the authors' rows (`importers.gundlach_benchmarks.read`): one row
    per benchmark x sample x price variable (RESULT_SCHEMA). A fit with too few rows keeps its
    row, with n, null estimates and the reason in `note`."""
    out = []
    for bench in benchmarks:
        for pv in price_variables:
            obs = usable(rows.filter(pl.col("benchmark") == bench), PRICE_VARIABLES[pv])
            for name in samples:
                s = sample(obs, name)
                key = {"benchmark": bench, "sample": name, "price_variable": pv}
                try:
                    out.append(key | fit(s))
                except ValueError as err:
                    out.append(key | {"n": s.height, "note": str(err)})
    return pl.DataFrame(out, schema=RESULT_SCHEMA)


def frontier_range(table: pl.DataFrame, price_variable: str = "benchmark cost") -> tuple:
    """Lowest and highest all-licence frontier factor across benchmarks."""
    f = table.filter(
        (pl.col("sample") == "frontier") & (pl.col("price_variable") == price_variable)
    )["factor_per_year"]
    return float(f.min()), float(f.max())


# ---------------------------------------------------------------------------------------------
# From the paper's figure to the book's: one change at a time
# ---------------------------------------------------------------------------------------------

BLEND_COL = "blended_usd_per_mtok_3to1"


def book_price_points(token_prices: pl.DataFrame) -> pl.DataFrame:
    """Every (model, date) price of the book's hedonic selection (the rows `hedonic.first_prices`
    takes the earliest of): 3:1 blended USD list prices at the base tier, coarse sources left
    out, one per model and date by Epoch's rule. Columns model_id, price_date, price."""
    listed = token_prices.filter(
        (pl.col("price_kind") == "list")
        & pl.col("context_tier").fill_null("").eq("")
        & ~pl.col("source_id").is_in(list(COARSE_SOURCES))
    ).with_columns(prices.blended_price(prices.EPOCH_BLEND))
    per_date = prices.one_price_per_model_date(listed.filter(pl.col(BLEND_COL) > 0), BLEND_COL)
    return per_date.select(
        "model_id", pl.col("date").alias("price_date"), pl.col(BLEND_COL).alias("price")
    )


def book_price_observations(
    token_prices: pl.DataFrame,
    benchmark_scores: pl.DataFrame,
    models: pl.DataFrame,
    benchmark: str,
    *,
    date_from: str = "price",
) -> pl.DataFrame:
    """The book's sources under the paper's unit of observation: every (model, price date), each
    price change a new row, the model's score from `hedonic.model_scores`. Dated at the price date
    ("price", the paper's rule) or at the later of release and price date ("latest")."""
    dated = {
        "price": pl.col("price_date"),
        "latest": pl.max_horizontal("release_date", "price_date"),
    }
    return (
        book_price_points(token_prices)
        .join(hedonic.model_scores(benchmark_scores, benchmark), on="model_id", how="inner")
        .join(models.select("model_id", "release_date", "open_weights"), on="model_id", how="left")
        .with_columns(dated[date_from].alias("date"), pl.col("open_weights").alias("open_licence"))
        .sort("date", "model_id")
        .select("model_id", "date", pl.col("price").alias(BLEND_COL), "score", "open_licence")
    )


DECOMPOSITION_SCHEMA = {
    "step": pl.Int64,
    "change": pl.String,
    "rule": pl.String,
    "n": pl.Int64,
    "start_date": pl.Date,
    "end_date": pl.Date,
    "factor_per_year": pl.Float64,
    "ci90_low": pl.Float64,
    "ci90_high": pl.Float64,
    "r_squared": pl.Float64,
    "ratio_to_previous": pl.Float64,
}


def decomposition(
    paper_rows: pl.DataFrame,
    token_prices: pl.DataFrame,
    benchmark_scores: pl.DataFrame,
    models: pl.DataFrame,
    *,
    benchmark: str = "gpqa-diamond",
) -> pl.DataFrame:
    """From the paper's frontier factor (step 0) to the book's hedonic frontier factor (the last
    step, `hedonic.hedonic_table(..., samples=["frontier"])` on the same tables), one change per
    step; each row is the fit after its step (DECOMPOSITION_SCHEMA). Steps:

    0. the reproduction: the authors' rows, benchmark cost, snapshot dates, frontier over rows;
    1. price variable: the 3:1 blended price per 1M tokens of the same rows;
    2. sample and sources: the book's released tables (all its price sources, 2023 onwards, the
       book's score per model) under the paper's rules (every model x price date, dated at the
       price date, frontier over those rows);
    3. dating: each of those rows dated at the later of the model's release and the price date;
    4. frontier rule: the frontier formed over models, each once at its first price, dated at the
       later of release and that price (the book's `hedonic.observations`);
    5. errors: HC3 instead of classical standard errors (same factor, the book's interval).
    """
    paper = paper_rows.filter(pl.col("benchmark") == benchmark)
    every_price = book_price_observations(token_prices, benchmark_scores, models, benchmark)
    every_latest = book_price_observations(
        token_prices, benchmark_scores, models, benchmark, date_from="latest"
    )
    book_obs = hedonic.observations(token_prices, benchmark_scores, models, benchmark)
    book_frontier = hedonic.sample(book_obs, "frontier")
    steps = [
        (
            "the paper's figure, reproduced",
            "authors' rows (one per model and monthly price snapshot); benchmark cost; "
            "snapshot date; running frontier over rows; classical errors",
            fit(running_frontier(usable(paper, "benchmark_cost_usd"))),
        ),
        (
            "price variable: 3:1 blend",
            "the same rows priced per 1M tokens, (3 x input + output) / 4; frontier re-formed",
            fit(running_frontier(usable(paper, BLEND_COL))),
        ),
        (
            "sample and sources: the book's",
            "the book's released price and score tables, every model x price date, dated at "
            "the price date; frontier over those rows",
            fit(running_frontier(usable(every_price, BLEND_COL))),
        ),
        (
            "dating rule: the book's",
            "each row dated at the later of the model's release and the price date",
            fit(running_frontier(usable(every_latest, BLEND_COL))),
        ),
        (
            "frontier rule: the book's",
            "frontier over models, each once at its first price (hedonic.observations)",
            fit(book_frontier),
        ),
        (
            "standard errors: HC3 (the book's estimate)",
            "heteroskedasticity-robust HC3 errors, t(n - 3): the interval changes, the factor not",
            fit(book_frontier, cov_type=hedonic.COV_TYPE),
        ),
    ]
    out, previous = [], None
    for k, (change, rule, f) in enumerate(steps):
        ratio = None if previous is None else f["factor_per_year"] / previous
        out.append({"step": k, "change": change, "rule": rule, **f, "ratio_to_previous": ratio})
        previous = f["factor_per_year"]
    return pl.DataFrame(out, schema=DECOMPOSITION_SCHEMA | {"note": pl.String}).drop("note")
