"""Everything the chapter on quality-adjusted prices and the outlook shows, computed in one place.

`compute(token_prices, scores, models, claims, version)` runs the chapter's analyses, each a call
into `analysis.methods.hedonic`, `analysis.methods.fixed_capability` or `analysis.methods.outlook`, and returns a
`QualityAdjusted`: the frames the figures and tables draw, and every value the prose quotes as a
`Quote` (the raw value and the function that formats it). `QualityAdjusted.numbers` is the dict
the prose reads (`` `{python} numbers["gpqa_frontier_factor"]` ``); `QualityAdjusted.values`
holds the same keys, unformatted.

The sections, in the chapter's order, are also callable on their own:

- `hedonic_fits` / `hedonic_quotes`: the hedonic regressions, under each dating rule;
- `price_index` / `index_quotes`: the GPQA Diamond index and the cheapest real model it stands for;
- `staircase_quotes`: Epoch's staircase factors on the same data, set against the hedonic fits;
- `breaks` / `break_quotes`: the Chow tests and the sup-F break search on the richest staircase;
- `forecast_quotes` and `claim_quotes`: the two forecasts and the news claim they are checked on.

The formatters (`factor`, `p_value`, `usd`, ...) and the phrases chosen by a comparison
(`index_vs_real`, `epoch_position`, ...) are plain functions of plain values.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

import polars as pl

from analysis.figures.outlook import benchmark_name
from analysis.methods import fixed_capability as fc
from analysis.methods import hedonic, outlook

BENCHMARK = "gpqa-diamond"  # the benchmark of the index, the staircase and the break tests
INDEX_SAMPLES = ["frontier", "all"]
GPT4_THRESHOLD = "gpt-4-0314"  # the GPT-4-level staircase of the previous chapter
NAMED_BREAK_MODEL = "deepseek-v3"  # the break date named in advance: this model's release
CLAIM_ID = "deepseek-api-price-rise"
N_BOOT = 999  # bootstrap replicates of the sup-F search: `outlook.outlook`'s default


# --- formatting ---------------------------------------------------------------------------------


def factor(x: float) -> str:
    """A factor per year to about three significant figures (as in the tables): 3.45, 27.2, 155."""
    return f"{x:.2f}" if x < 10 else f"{x:.1f}" if x < 100 else f"{x:,.0f}"


def factor_range(bounds: tuple[float, float]) -> str:
    """`17.7x to 41.7x`: an interval, or the span of several factors, given as (low, high)."""
    low, high = bounds
    return f"{factor(low)}x to {factor(high)}x"


def p_value(p: float) -> str:
    """A p-value to two significant figures, never in scientific notation: 0.003, 0.0000025."""
    return f"{p:.{max(2, 1 - math.floor(math.log10(p)))}f}".rstrip("0").rstrip(".")


def usd(x: float) -> str:
    """Dollars to two significant figures, never in scientific notation: $155, $0.060."""
    decimals = max(0, 1 - math.floor(math.log10(x)))
    return f"${x:,.{decimals}f}"


def usd_range(bounds: tuple[float, float]) -> str:
    """`$0.0085 to $0.020`: a band of prices, given as (low, high)."""
    low, high = bounds
    return f"{usd(low)} to {usd(high)}"


def month(d: date) -> str:
    """`March 2023`."""
    return f"{d:%B %Y}"


def day(d: date) -> str:
    """`December 24, 2024`."""
    return f"{d:%B %-d, %Y}"


def month_range(bounds: tuple[date, date]) -> str:
    """`November 2023 to December 2024`: a window, given as (start, end)."""
    start, end = bounds
    return f"{month(start)} to {month(end)}"


def usd_in_month(price_and_month: tuple[float, date]) -> str:
    """`$155 in March 2023`."""
    price, when = price_and_month
    return f"{usd(price)} in {month(when)}"


def percent(x: float) -> str:
    """A fraction as a whole percent: 0.9 -> `90%`."""
    return f"{x:.0%}"


def score(x: float) -> str:
    """A score or threshold as the data give it, without trailing zeros: 56.0 -> `56`."""
    return f"{x:g}"


def one_decimal(x: float) -> str:
    """A ratio or F statistic to one decimal: `7.3`."""
    return f"{x:.1f}"


def rounded(x: float) -> str:
    """To the nearest whole number: `32`."""
    return f"{x:.0f}"


# --- phrases chosen by a comparison -------------------------------------------------------------


def index_vs_real(ratio: float) -> str:
    """The cheapest real model's price against the index, `ratio` = real / index."""
    if ratio >= 1.5:
        return f"about {ratio:.0f} times the index"
    if ratio > 1 / 1.5:
        return "close to the index"
    return f"{1 / ratio:.0f} times below the index"


def epoch_position(
    all_models: float, frontier: float, staircase_low: float, staircase_high: float
) -> str:
    """Where the staircase factors (low to high) lie against the hedonic all-models and frontier
    factors."""
    if all_models < staircase_low and staircase_high < frontier:
        return "between the hedonic all-models fit and the hedonic frontier fit"
    if staircase_high < frontier:
        return "below the hedonic frontier fit and overlapping the all-models fit"
    return "overlapping the hedonic frontier fit"


def release_effect(release_faster_everywhere: bool) -> str:
    """What dating models by release does to the all-models fits."""
    if release_faster_everywhere:
        return "speeds up every all-models fit"
    return "moves the all-models fits too"


def break_model_phrase(model: dict) -> str:
    """The model that entered the staircase at the break (a row of `models`), with its size when
    it is an open-weights model of known size."""
    if model["open_weights"] and model["parameters_b"] is not None:
        return f"{model['name']}, an open-weights model of {model['parameters_b']:g} billion parameters,"
    return model["name"]


def replicates_reached(p: float, n_boot: int) -> int:
    """How many bootstrap replicates reached the observed statistic, from the p-value
    (1 + reached) / (n_boot + 1)."""
    return round(p * (n_boot + 1)) - 1


def boot_reading(reached: int, n_boot: int = N_BOOT) -> str:
    """How to read the bootstrap p-value, given how many of `n_boot` replicates reached the
    observed statistic."""
    if reached == 0:
        return "the smallest p-value the bootstrap can give: none of the replicates reached the observed statistic"
    return f"{reached} of the {n_boot} replicates reached the observed statistic"


def deepseek_check(last_seen: date, claim_date: date) -> str:
    """Whether the data can speak to the claimed DeepSeek price rise: their last first-party
    DeepSeek list price against the claim's date."""
    if last_seen < claim_date:
        return f"the data's last first-party DeepSeek list price was seen on {day(last_seen)}, before the claimed rise, so this release can neither confirm nor refute it"
    return f"the data hold first-party DeepSeek list prices up to {day(last_seen)}: compare them with the claim before quoting it"


# --- quotes -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Quote:
    """A value the prose quotes and the function that formats it as the prose shows it."""

    value: Any
    fmt: Callable[[Any], str] = str

    @property
    def text(self) -> str:
        return self.fmt(self.value)


def _fit(table: pl.DataFrame, benchmark: str, sample: str) -> dict:
    """The row of a hedonic table for one benchmark and sample."""
    return table.filter((pl.col("benchmark") == benchmark) & (pl.col("sample") == sample)).row(
        0, named=True
    )


def _bounds(row: dict, low: str = "ci90_low", high: str = "ci90_high") -> tuple[float, float]:
    """(low, high) of an interval stored in two columns of a row."""
    return (row[low], row[high])


def _span(values: pl.Series | list[float]) -> tuple[float, float]:
    """(smallest, largest) of several factors."""
    return (min(values), max(values))


def _model_name(models: pl.DataFrame, model_id: str) -> str:
    return models.filter(pl.col("model_id") == model_id)["name"][0]


# --- the hedonic regression ---------------------------------------------------------------------


def hedonic_fits(
    token_prices: pl.DataFrame,
    scores: pl.DataFrame,
    models: pl.DataFrame,
    version: str | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The hedonic table (every benchmark x sample, models dated at the later of release and first
    price), and the same table under each of `hedonic.DATE_RULES`, stacked (column `date_from`)."""
    fits = hedonic.hedonic_table(token_prices, scores, models, data_version=version)
    by_rule = pl.concat(
        [
            hedonic.hedonic_table(token_prices, scores, models, date_from=r, data_version=version)
            for r in hedonic.DATE_RULES
        ],
        how="vertical_relaxed",
    )
    return fits, by_rule


def hedonic_quotes(fits: pl.DataFrame, by_rule: pl.DataFrame) -> dict[str, Quote]:
    """The method's settings, the GPQA Diamond fits, the span of the fits per sample, and how much
    the dating rule moves them."""
    fitted = fits.filter(pl.col("factor_per_year").is_not_null())

    def sample_span(sample: str) -> Quote:
        return Quote(
            _span(fitted.filter(pl.col("sample") == sample)["factor_per_year"]), factor_range
        )

    gpqa_frontier, gpqa_all = _fit(fits, BENCHMARK, "frontier"), _fit(fits, BENCHMARK, "all")
    gpqa_rules = by_rule.filter(
        (pl.col("benchmark") == BENCHMARK) & (pl.col("sample") == "frontier")
    )
    rule_ratios = (
        by_rule.filter(pl.col("sample") == "frontier")
        .group_by("benchmark")
        .agg((pl.col("factor_per_year").max() / pl.col("factor_per_year").min()).alias("ratio"))
    )
    widest = rule_ratios.sort("ratio").row(-1, named=True)
    all_rules = by_rule.filter(pl.col("sample") == "all")
    all_by_rule = all_rules.pivot(on="date_from", index="benchmark", values="factor_per_year")
    release = all_rules.filter(pl.col("date_from") == "release")["factor_per_year"]
    return {
        "day_zero": Quote(hedonic.DAY_ZERO, day),
        "clip_low": Quote(hedonic.SCORE_CLIP[0], lambda v: f"{v:g}%"),
        "clip_high": Quote(hedonic.SCORE_CLIP[1], lambda v: f"{v:g}%"),
        "level": Quote(hedonic.LEVEL, percent),
        "n_benchmarks": Quote(fits["benchmark"].n_unique()),
        "n_samples": Quote(fits["sample"].n_unique()),
        "benchmark_list": Quote(", ".join(benchmark_name(b) for b in hedonic.BENCHMARKS)),
        "gpqa_frontier_factor": Quote(gpqa_frontier["factor_per_year"], factor),
        "gpqa_frontier_ci": Quote(_bounds(gpqa_frontier), factor_range),
        "gpqa_frontier_n": Quote(gpqa_frontier["n"]),
        "gpqa_all_factor": Quote(gpqa_all["factor_per_year"], factor),
        "gpqa_all_ci": Quote(_bounds(gpqa_all), factor_range),
        "gpqa_all_n": Quote(gpqa_all["n"]),
        "frontier_span": sample_span("frontier"),
        "all_span": sample_span("all"),
        "open_span": sample_span("open-weights"),
        "open_frontier_span": sample_span("open-weights frontier"),
        "gpqa_rule_span": Quote(_span(gpqa_rules["factor_per_year"]), factor_range),
        "max_rule_ratio": Quote(widest["ratio"], one_decimal),
        "widest_rule_benchmark": Quote(benchmark_name(widest["benchmark"])),
        "all_release_effect": Quote(
            bool((all_by_rule["release"] > all_by_rule["latest"]).all()), release_effect
        ),
        "all_release_span": Quote(_span(release), factor_range),
    }


# --- the index ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PriceIndex:
    observations: pl.DataFrame  # `hedonic.observations` on GPQA Diamond
    reference: float  # the frontier sample's median score
    by_month: pl.DataFrame  # `hedonic.price_index` for the frontier and all models, stacked
    adjusted: pl.DataFrame  # frontier models' prices moved to the reference score


def price_index(
    token_prices: pl.DataFrame, scores: pl.DataFrame, models: pl.DataFrame
) -> PriceIndex:
    """The GPQA Diamond index, frontier and all models, both at the frontier sample's median
    score, and the frontier models' own prices moved to that score."""
    obs = hedonic.observations(token_prices, scores, models, BENCHMARK)
    frontier = hedonic.sample(obs, "frontier")
    reference = hedonic.reference_score(frontier)
    index = pl.concat(
        [
            hedonic.price_index(
                hedonic.sample(obs, name), reference, benchmark=BENCHMARK, sample_name=name
            )
            for name in INDEX_SAMPLES
        ]
    )
    adjusted = hedonic.quality_adjusted_prices(frontier, reference).with_columns(
        pl.lit("frontier").alias("sample")
    )
    return PriceIndex(obs, reference, index, adjusted)


def cheapest_real(
    token_prices: pl.DataFrame,
    scores: pl.DataFrame,
    models: pl.DataFrame,
    reference: float,
    by: date,
) -> dict:
    """The cheapest price in the data, by `by`, of a model at or above the reference score (every
    price change counted, reasoning models included): a row (model, date, price, score)."""
    real = fc.full_observations(token_prices, scores, models, BENCHMARK, include_reasoning=True)
    reached = real.filter((pl.col("score") >= reference) & (pl.col("date") <= by))
    return reached.sort("price").row(0, named=True)


def index_quotes(
    pi: PriceIndex, token_prices: pl.DataFrame, scores: pl.DataFrame, models: pl.DataFrame
) -> dict[str, Quote]:
    """The frontier index's first and last months, its band, and the cheapest real model that had
    reached the reference score by the last month."""
    frontier = pi.by_month.filter(pl.col("sample") == "frontier")
    first, last = frontier.row(0, named=True), frontier.row(-1, named=True)
    real = cheapest_real(token_prices, scores, models, pi.reference, last["month"])
    reached = pi.observations.filter(pl.col("score") >= pi.reference)["date"].min()
    return {
        "reference_score": Quote(pi.reference, score),
        "first_at_reference": Quote(reached, month),
        "index_from": Quote((first["price"], first["month"]), usd_in_month),
        "index_to": Quote((last["price"], last["month"]), usd_in_month),
        "index_band": Quote(_bounds(last, "ci_low", "ci_high"), usd_range),
        "index_last_month": Quote(last["month"], month),
        "cheapest_real_model": Quote(_model_name(models, real["model"])),
        "cheapest_real_price": Quote(real["price"], usd),
        "index_vs_real": Quote(real["price"] / last["price"], index_vs_real),
    }


def staircase_quotes(
    extension: pl.DataFrame, gpqa_all_factor: float, gpqa_frontier_factor: float
) -> dict[str, Quote]:
    """Epoch's staircase factors on the full data (`fixed_capability.extension_trends`): the GPQA
    Diamond span, the GPT-4-level factor, the median, and where the GPQA Diamond span lies against
    the hedonic fits."""
    gpqa = extension.filter(pl.col("benchmark") == BENCHMARK)
    gpt4 = gpqa.filter(pl.col("threshold_model") == GPT4_THRESHOLD).row(0, named=True)
    low, high = _span(gpqa["factor_per_year"])
    position = {
        "all_models": gpqa_all_factor,
        "frontier": gpqa_frontier_factor,
        "staircase_low": low,
        "staircase_high": high,
    }
    return {
        "epoch_gpqa_span": Quote((low, high), factor_range),
        "epoch_gpqa_n": Quote(gpqa.height),
        "epoch_gpt4_factor": Quote(gpt4["factor_per_year"], factor),
        "epoch_median": Quote(extension["factor_per_year"].median(), factor),
        "n_extension": Quote(extension.height),
        "epoch_position": Quote(position, lambda p: epoch_position(**p)),
    }


# --- breaks -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Breaks:
    richest: dict  # `outlook.richest_threshold`: threshold model, score, staircase
    n_thresholds: int  # GPQA Diamond thresholds the richest one was chosen from
    result: dict  # `outlook.outlook` on the staircase
    named_date: date  # the date named in advance: DeepSeek-V3's release
    chow_named: dict  # `outlook.chow_test` at that date

    @property
    def series(self) -> pl.DataFrame:
        return self.richest["staircase"]

    @property
    def search(self) -> dict:
        return self.result["break_search"]

    @property
    def break_date(self) -> date:
        return self.search["best_date"]

    @property
    def segments(self) -> pl.DataFrame:
        return self.result["segments"].sort("segment")

    @property
    def tests(self) -> list[dict]:
        """The three tests side by side (`outlook_views.breaks_gt`)."""
        chow_best = self.result["chow"]
        return [
            {**self.chow_named, "test": "Chow test at DeepSeek-V3's release"},
            {**chow_best, "test": "Chow test at the date the search found (plain p-value)"},
            {
                **self.search,
                "n_before": chow_best["n_before"],
                "n_after": chow_best["n_after"],
                "test": "sup-F search over dates (bootstrap p-value)",
            },
        ]


def breaks(
    token_prices: pl.DataFrame,
    scores: pl.DataFrame,
    models: pl.DataFrame,
    version: str | None = None,
    *,
    n_boot: int = N_BOOT,
) -> Breaks:
    """The GPQA Diamond staircase with the most points (reasoning models excluded), the outlook on
    it (break search, segments, forecasts), and the Chow test at DeepSeek-V3's release."""
    obs = fc.full_observations(token_prices, scores, models, BENCHMARK)
    richest = outlook.richest_threshold(obs, BENCHMARK)
    series = richest["staircase"]
    result = outlook.outlook(series, n_boot=n_boot, data_version=version)
    named = models.filter(pl.col("model_id") == NAMED_BREAK_MODEL)["release_date"][0]
    chow_named = outlook.chow_test(
        series["date"].to_list(), series["price"].to_list(), named, data_version=version
    )
    n_thresholds = fc.thresholds(obs, BENCHMARK).height
    return Breaks(richest, n_thresholds, result, named, chow_named)


def break_quotes(b: Breaks, models: pl.DataFrame, n_boot: int = N_BOOT) -> dict[str, Quote]:
    """The series tested, the Chow test at the named date, the search and its bootstrap p-value,
    the model at the break, and the trend of each segment."""
    series, search, chow_named = b.series, b.search, b.chow_named
    best = b.break_date
    at_break = series.filter(pl.col("date") == best).row(0, named=True)
    break_model = models.filter(pl.col("model_id") == at_break["model"]).row(0, named=True)
    before, after = b.segments.row(0, named=True), b.segments.row(-1, named=True)
    price_before = series.filter(pl.col("date") < best)["price"][-1]
    return {
        "n_thresholds": Quote(b.n_thresholds),
        "threshold_name": Quote(_model_name(models, b.richest["threshold_model"])),
        "threshold_score": Quote(b.richest["threshold_score"], score),
        "n_series": Quote(series.height),
        "series_from": Quote(series["date"].min(), month),
        "series_to": Quote(series["date"].max(), month),
        "dsv3_date": Quote(b.named_date, day),
        "dsv3_split": Quote(
            (chow_named["n_before"], chow_named["n_after"]),
            lambda n: f"{n[0]} points before it and {n[1]} from it on",
        ),
        "dsv3_f": Quote(chow_named["f_stat"], one_decimal),
        "dsv3_df": Quote(
            (chow_named["df_num"], chow_named["df_denom"]), lambda d: f"F({d[0]}, {d[1]})"
        ),
        "dsv3_p": Quote(chow_named["p_value"], p_value),
        "trim": Quote(search["trim"], percent),
        "min_segment": Quote(outlook.MIN_SEGMENT),
        "n_candidates": Quote(search["n_candidates"]),
        "candidates_from": Quote(search["first_candidate"], month),
        "candidates_to": Quote(search["last_candidate"], month),
        "break_date": Quote(best, day),
        "break_month": Quote(best, month),
        "break_model_phrase": Quote(
            {k: break_model[k] for k in ("model_id", "name", "open_weights", "parameters_b")},
            break_model_phrase,
        ),
        "drop_at_break": Quote(price_before / at_break["price"], one_decimal),
        "sup_f": Quote(search["sup_f"], one_decimal),
        "boot_method": Quote(search["p_value_method"]),
        "boot_p": Quote(search["p_value"], p_value),
        "boot_reading": Quote(
            replicates_reached(search["p_value"], n_boot), lambda k: boot_reading(k, n_boot)
        ),
        "plain_p": Quote(b.result["chow"]["p_value"], p_value),
        "dsv3_gap": Quote((b.named_date - best).days),
        "before_window": Quote((before["start_date"], before["end_date"]), month_range),
        "before_factor": Quote(before["factor_per_year"], factor),
        "before_ci": Quote(_bounds(before), factor_range),
        "before_n": Quote(before["n"]),
        "after_window": Quote((after["start_date"], after["end_date"]), month_range),
        "after_factor": Quote(after["factor_per_year"], factor),
        "after_ci": Quote(_bounds(after), factor_range),
        "after_n": Quote(after["n"]),
    }


# --- forecasts and the claim they are checked on ------------------------------------------------


def forecast_quotes(b: Breaks, models: pl.DataFrame) -> dict[str, Quote]:
    """The two forecasts at their end date, how far apart they are, and how far the whole-series
    trend already is from the latest observed price."""
    whole, since = b.result["forecast_summary"], b.result["forecast_since_break_summary"]
    last = b.series.row(-1, named=True)
    first_month = b.result["forecast"].row(0, named=True)
    return {
        "until": Quote(whole["until"], day),
        "whole_factor": Quote(whole["factor_per_year"], factor),
        "whole_ci": Quote(_bounds(whole), factor_range),
        "whole_price": Quote(whole["price_at_until"], usd),
        "whole_pi": Quote(_bounds(whole, "pi_low_at_until", "pi_high_at_until"), usd_range),
        "since_price": Quote(since["price_at_until"], usd),
        "since_pi": Quote(_bounds(since, "pi_low_at_until", "pi_high_at_until"), usd_range),
        "forecast_gap": Quote(since["price_at_until"] / whole["price_at_until"], rounded),
        "whole_first": Quote((first_month["mean"], first_month["date"]), usd_in_month),
        "whole_first_ratio": Quote(last["price"] / first_month["mean"], one_decimal),
        "last_price": Quote(last["price"], usd),
        "last_model": Quote(_model_name(models, last["model"])),
        "last_score": Quote(last["score"], rounded),
    }


def deepseek_last_seen(token_prices: pl.DataFrame) -> date:
    """The last date the data saw a first-party DeepSeek list price (`date` or `last_seen`)."""
    deepseek = token_prices.filter(
        (pl.col("provider") == "deepseek")
        & pl.col("first_party")
        & (pl.col("price_kind") == "list")
    )
    return deepseek.select(pl.max_horizontal("date", "last_seen").max()).item()


def claim_quotes(token_prices: pl.DataFrame, claims: pl.DataFrame) -> dict[str, Quote]:
    """The news claim of a DeepSeek price rise, and whether the data can speak to it."""
    claim = claims.filter(pl.col("claim_id") == CLAIM_ID).row(0, named=True)
    return {
        "claim_date": Quote(claim["claim_date"], month),
        "claim_text": Quote(claim["claim"]),
        "deepseek_check": Quote(
            (deepseek_last_seen(token_prices), claim["claim_date"]),
            lambda d: deepseek_check(*d),
        ),
    }


# --- the chapter --------------------------------------------------------------------------------


@dataclass(frozen=True)
class QualityAdjusted:
    """The chapter's results: frames for the figures and tables, and the quoted values."""

    hedonic_fits: pl.DataFrame  # `hedonic.hedonic_table`, every benchmark x sample
    by_rule: pl.DataFrame  # the same under each date rule, stacked
    index: PriceIndex
    breaks: Breaks
    quotes: dict[str, Quote]

    @property
    def numbers(self) -> dict[str, str]:
        """Every value the prose quotes, formatted as the prose shows it."""
        return {key: q.text for key, q in self.quotes.items()}

    @property
    def values(self) -> dict[str, Any]:
        """The same values, unformatted (tuples for intervals and spans)."""
        return {key: q.value for key, q in self.quotes.items()}

    @property
    def forecasts(self) -> dict[str, pl.DataFrame]:
        """The two forecasts for `outlook_views.forecast_chart`."""
        r = self.breaks.result
        return {"whole series": r["forecast"], "since the break": r["forecast_since_break"]}

    @property
    def fitted_from(self) -> dict[str, date | None]:
        """The first date each forecast's trend was fitted from (None: the whole series)."""
        return {"whole series": None, "since the break": self.breaks.break_date}


def compute(
    token_prices: pl.DataFrame,
    scores: pl.DataFrame,
    models: pl.DataFrame,
    claims: pl.DataFrame,
    version: str | None = None,
    *,
    n_boot: int = N_BOOT,
) -> QualityAdjusted:
    """Every result of the chapter, on the tables of one data version."""
    fits, by_rule = hedonic_fits(token_prices, scores, models, version)
    pi = price_index(token_prices, scores, models)
    b = breaks(token_prices, scores, models, version, n_boot=n_boot)
    extension = fc.extension_trends(token_prices, scores, models)
    gpqa_all, gpqa_frontier = _fit(fits, BENCHMARK, "all"), _fit(fits, BENCHMARK, "frontier")
    quotes = {
        **hedonic_quotes(fits, by_rule),
        **index_quotes(pi, token_prices, scores, models),
        **staircase_quotes(
            extension, gpqa_all["factor_per_year"], gpqa_frontier["factor_per_year"]
        ),
        **break_quotes(b, models, n_boot),
        **forecast_quotes(b, models),
        **claim_quotes(token_prices, claims),
    }
    return QualityAdjusted(fits, by_rule, pi, b, quotes)
