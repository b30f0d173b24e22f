"""Everything the chapter on the price of a fixed capability shows, computed in one place.

`compute(version)` returns a `FixedCapability`: the frames and fits the figures and tables draw,
and `q`, every value the prose prints as a `Quote`. The headline estimates come from the registry
(`analysis.report.estimates`), the shared tables from `analysis.report.results`; the method's
constants come from `analysis.methods.fixed_capability`, `llmflation` and `trends`, so prose and
code cannot drift. The result is cached per data version.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import polars as pl

from analysis.data.cache import cached
from analysis.figures.capability import BENCHMARK_NAMES
from analysis.methods import fixed_capability as fc
from analysis.methods import llmflation, sensitivity, trends
from analysis.report import estimates, results
from analysis.report.quote import Quote, Quotes

SLUG = "fixed-capability"
BENCHMARK, THRESHOLD_MODEL = estimates.GPT4_GPQA  # the trend the chapter follows throughout
CLAIM_ID = "epoch-fixed-capability-decline"
MOST = 0.9  # "most trends rest on ... points": the points of at least this share of the trends
# The number of bootstrap draws: `fixed_capability.trend` takes the default of the interval.
N_BOOT = trends.N_BOOT


@dataclass(frozen=True)
class FixedCapability:
    """The chapter's frames, fits and quotes."""

    epoch: pl.DataFrame  # Epoch's table reproduced, with bootstrap intervals
    gpqa: dict  # its GPT-4-level GPQA Diamond row
    gpqa_above: pl.DataFrame  # Epoch's observations at or above that threshold
    gpqa_steps: pl.DataFrame  # the cheapest-so-far staircase through them
    gpqa_fit: trends.DeclineFit  # the trend through the staircase
    a16z_series: pl.DataFrame  # `llmflation.monthly_minimum` on the release
    a16z_fits: dict  # `llmflation.reproduce_a16z`'s fits
    a16z_window: dict  # of which the fit over a16z's window
    a16z_frame: pl.DataFrame  # the same fits, one row each
    a16z_line: pl.DataFrame  # the fitted trend over a16z's window (month, price)
    extension: pl.DataFrame  # Epoch's method on the full data, reasoning models excluded
    extension_reasoning: pl.DataFrame  # the same, reasoning models included
    sensitivity: pl.DataFrame  # the GPT-4-level GPQA Diamond trend under other choices
    q: Quotes


def compute(version: str | None = None) -> FixedCapability:
    """Every result of the chapter on one data version (None: the current one)."""
    return _compute(results.version(version))


def a16z_line(series: pl.DataFrame, fit: dict) -> pl.DataFrame:
    """The fitted trend of `llmflation.a16z_fit` over its window, as two points (month, price).

    The fit keeps the factor, not the intercept: an OLS line passes through the means, so the
    fitted slope is anchored at the window's mean date and mean log price.
    """
    start, end = fit["start_month"], fit["end_month"]
    slope = pl.Series([fit["factor_per_year"]]).log(10)[0] / 365
    window = series.filter(pl.col("month").is_between(start, end))
    centre_day = sum(d.toordinal() for d in window["month"]) / window.height
    centre_log = window["price"].log(10).mean()
    return pl.DataFrame({"month": [start, end]}).with_columns(
        pl.col("month")
        .map_elements(
            lambda d: 10 ** (centre_log - slope * (d.toordinal() - centre_day)),
            return_dtype=pl.Float64,
        )
        .alias("price")
    )


def staircase(obs: pl.DataFrame, threshold_score: float) -> tuple[pl.DataFrame, trends.DeclineFit]:
    """The staircase at a threshold and its fitted trend (the fit `fixed_capability.trend` makes)."""
    steps = fc.staircase(obs, threshold_score)
    fit = trends.fit_log_trend(
        steps["date"].to_list(), steps["price"].to_list(), min_points=fc.MIN_POINTS
    )
    return steps, fit


def model_name(models: pl.DataFrame, model_id: str) -> str:
    """The display name of a model id (the `models` table's `name`)."""
    names = models.filter(pl.col("model_id") == model_id)["name"]
    if names.len() != 1:
        raise LookupError(
            f"models: expected one row for model_id {model_id!r}, found {names.len()}"
        )
    return names[0]


def _single(values, what: str):
    """The one value a constant of the method holds everywhere (the prose states one)."""
    distinct = set(values)
    if len(distinct) != 1:
        raise ValueError(f"{what}: the prose states one value, the code has {sorted(distinct)}")
    return distinct.pop()


def _names(benchmarks) -> str:
    names = [BENCHMARK_NAMES.get(b, b) for b in benchmarks]
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


@cache
@cached  # on disk too: the second output format, and later renders, reuse the result
def _compute(v: str) -> FixedCapability:
    token_prices, scores, models = results.token_tables(v)

    epoch = results.epoch(v, bootstrap=True)
    gpqa = results.trend_row(epoch, BENCHMARK, THRESHOLD_MODEL)
    epoch_gpqa = estimates.estimate("epoch-gpqa-gpt4-level", v)
    obs = fc.epoch_observations(token_prices, scores, models, BENCHMARK)
    above = obs.filter(pl.col("score") >= gpqa["threshold_score"])
    steps, fit = staircase(obs, gpqa["threshold_score"])
    stated = fc.EPOCH_PUBLISHED

    series, fits = results.a16z(v)
    a16z_w, a16z_full = fits["a16z_window"], fits["full_window"]

    extension = results.extension(v)
    extension_reasoning = results.extension(v, include_reasoning=True)
    ext_median = estimates.estimate("full-data-median-factor", v)
    factors = extension["factor_per_year"]

    sens = sensitivity.sensitivity(token_prices, scores, models, BENCHMARK, THRESHOLD_MODEL)

    claim = results.table("claims", v).filter(pl.col("claim_id") == CLAIM_ID).row(0, named=True)
    claimed = claim["value"]
    n_contain = extension.filter(
        (pl.col("ci90_low") <= claimed) & (pl.col("ci90_high") >= claimed)
    ).height

    q = Quotes(
        SLUG,
        {
            "version": Quote(v),
            # the method's settings
            "min_threshold": Quote(_single(fc.MIN_THRESHOLD.values(), "MIN_THRESHOLD"), "score"),
            "min_threshold_benchmarks": Quote(_names(fc.MIN_THRESHOLD)),
            "min_points": Quote(fc.MIN_POINTS, "count"),
            "n_boot": Quote(N_BOOT, "count"),
            # Epoch's table reproduced
            "epoch_gpqa": epoch_gpqa,
            "gpqa_threshold": Quote(gpqa["threshold_score"], "score"),
            "gpqa_boot": Quote((gpqa["boot90_low"], gpqa["boot90_high"]), "factor"),
            "stated_gpqa": Quote(stated["gpqa_gpt4_level_factor"], "stated_factor"),
            "n_epoch_trends": Quote(epoch.height, "count"),
            "our_range": Quote(
                (epoch["factor_per_year"].min(), epoch["factor_per_year"].max()), "factor"
            ),
            "stated_range": Quote((stated["range_low"], stated["range_high"]), "stated_factor"),
            "median_epoch": Quote(epoch["factor_per_year"].median(), "factor"),
            "epoch_n_most": Quote(
                (epoch["n"].min(), int(epoch["n"].quantile(MOST, "higher"))), "count"
            ),
            # a16z
            "a16z_threshold": Quote(llmflation.A16Z_THRESHOLD, "score"),
            "a16z_stated": Quote(fits["a16z_stated"]["factor_per_year"], "stated_factor"),
            "a16z_first_model": Quote(model_name(models, a16z_w["first_model"])),
            "a16z_first_price": Quote(a16z_w["first_price"], "usd"),
            "a16z_last_model": Quote(model_name(models, a16z_w["last_model"])),
            "a16z_last_price": Quote(a16z_w["last_price"], "usd"),
            "a16z_endpoints": Quote(a16z_w["endpoint_factor_per_year"], "factor"),
            "a16z_window": estimates.estimate("a16z-a16z-window", v),
            "a16z_standin": Quote(fits["a16z_window_stand_in"]["factor_per_year"], "factor"),
            "a16z_full": estimates.estimate("a16z-full-window", v),
            "a16z_full_endpoints": Quote(a16z_full["endpoint_factor_per_year"], "factor"),
            # the full data
            "n_extension": ext_median.n_text,
            "ext_median": ext_median,
            "ext_iqr": Quote((factors.quantile(0.25), factors.quantile(0.75)), "factor"),
            "ext_gpqa": estimates.estimate("full-data-gpqa-gpt4-level", v),
            "ext_reasoning_median": Quote(
                extension_reasoning["factor_per_year"].median(), "factor"
            ),
            "sens_range": Quote(sensitivity.factor_span(sens), "factor"),
            # the digests' claim
            "claim_text": Quote(claim["claim"]),
            "claimed": Quote(claimed, "stated_factor"),
            "n_contain": Quote(n_contain, "count"),
        },
    )
    # The rows the anomaly rules took out of the tables this page reads (issue 9).
    q["removed"] = Quote(results.removed_text(("token_prices", "benchmark_scores"), v))
    return FixedCapability(
        epoch=epoch,
        gpqa=gpqa,
        gpqa_above=above,
        gpqa_steps=steps,
        gpqa_fit=fit,
        a16z_series=series,
        a16z_fits=fits,
        a16z_window=a16z_w,
        a16z_frame=llmflation.fits_table(fits),
        a16z_line=a16z_line(series, a16z_w),
        extension=extension,
        extension_reasoning=extension_reasoning,
        sensitivity=sens,
        q=q,
    )
