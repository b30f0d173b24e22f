"""What the chapter on quality-adjusted prices and the outlook quotes.

The page shows, in folded cells, how it makes every figure and table (`results.hedonic_fits`,
`hedonic.reference_index`, `extension_2026`, `outlook.staircase_breaks`). `compute(version)`
returns a `QualityAdjusted`: the data version, `q`, every value the prose prints as a `Quote`
(`analysis.report.quote`), and what the version leaves out; it is cached per data version. The
hedonic fits and the full-data staircase trends are the shared results of
`analysis.report.results`; the headline estimates come from the registry
(`analysis.report.estimates`); the method's settings are the constants of
`analysis.methods.hedonic` and `analysis.methods.outlook`.

The quotes are built section by section, in the chapter's order, by functions of plain frames and
dicts: `hedonic_quotes`, `index_quotes`, `staircase_quotes`, `break_quotes`, `forecast_quotes`
and `claim_quotes`. A few quotes are phrases chosen by a comparison (`index_vs_real`,
`epoch_position`, ...), so the prose cannot say "faster" where the data say slower.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import polars as pl

from analysis.data import release
from analysis.data.cache import cached
from analysis.data.reads import memo
from analysis.figures.outlook import benchmark_name
from analysis.methods import fixed_capability as fc
from analysis.methods import gundlach, hedonic, outlook
from analysis.methods.claims import claim_row
from analysis.report import estimates, left_out, published, results
from analysis.report.quote import Estimate, Quote, Quotes, fmt_count, fmt_day

SLUG = "quality-adjusted"
BENCHMARK = "gpqa-diamond"  # the benchmark of the index, the staircase and the break tests
INDEX_SAMPLES = ["frontier", "all"]
NAMED_BREAK_MODEL = "deepseek-v3"  # the break date named in advance: this model's release
NAMED_TEST = "Chow test at DeepSeek-V3's release"  # its row of the tests table
CLAIM_ID = "deepseek-api-price-rise"
N_BOOT = outlook.N_BOOT  # bootstrap replicates of the sup-F search: the module's default


# --- phrases chosen by a comparison -------------------------------------------------------------


def index_vs_real(ratio: float) -> str:
    """The cheapest real model's price against the index, `ratio` = real / index."""
    if ratio >= 1.5:
        return f"about {fmt_count(round(ratio))} times the index"
    if ratio > 1 / 1.5:
        return "close to the index"
    return f"{fmt_count(round(1 / ratio))} times below the index"


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
    """The model that entered the staircase at the break (a row of `models`), with its size, as
    the models table gives it, when it is an open-weights model of known size."""
    if model["open_weights"] and model["parameters_b"] is not None:
        return f"{model['name']}, an open-weights model of {model['parameters_b']:g} billion parameters,"
    return model["name"]


def boot_reading(reached: int, n_boot: int = N_BOOT) -> str:
    """How to read the bootstrap p-value, given how many of `n_boot` replicates reached the
    observed statistic."""
    if reached == 0:
        return "the smallest p-value the bootstrap can give: none of the replicates reached the observed statistic"
    return (
        f"{fmt_count(reached)} of the {fmt_count(n_boot)} replicates reached the observed statistic"
    )


def deepseek_check(last_seen: date, claim_date: date) -> str:
    """Whether the data can speak to the claimed DeepSeek price rise: their last first-party
    DeepSeek list price against the claim's date."""
    if last_seen < claim_date:
        return f"the list prices this chapter fits end on {fmt_day(last_seen)}, before the claimed rise; the price-war chapter tests the rise on DeepSeek's own rate cards"
    return f"the data hold first-party DeepSeek list prices up to {fmt_day(last_seen)}: compare them with the claim before quoting it"


# --- helpers ------------------------------------------------------------------------------------


def _fit(table: pl.DataFrame, benchmark: str, sample: str) -> dict:
    """The row of a hedonic table for one benchmark and sample."""
    rows = table.filter((pl.col("benchmark") == benchmark) & (pl.col("sample") == sample))
    if rows.height != 1:
        raise LookupError(f"expected one hedonic fit of {benchmark}, {sample}; found {rows.height}")
    return rows.row(0, named=True)


def _span(values: pl.Series | list[float]) -> tuple[float, float]:
    """(smallest, largest) of several factors."""
    return (min(values), max(values))


def model_name(models: pl.DataFrame, model_id: str) -> str:
    """The display name of a model id (the `models` table's `name`)."""
    names = models.filter(pl.col("model_id") == model_id)["name"]
    if names.len() != 1:
        raise LookupError(
            f"models: expected one row for model_id {model_id!r}, found {names.len()}"
        )
    return names[0]


def _factor(row: dict, low: str = "ci90_low", high: str = "ci90_high") -> tuple[Quote, Quote]:
    """A row's factor per year and its interval, as two quotes."""
    return Quote(row["factor_per_year"], "factor"), Quote((row[low], row[high]), "factor")


# --- the hedonic regression ---------------------------------------------------------------------


def by_rule(v: str) -> pl.DataFrame:
    """The hedonic table under each of `hedonic.DATE_RULES`, stacked (column `date_from`)."""
    return pl.concat(
        [results.hedonic_fits(v, date_from=r) for r in hedonic.DATE_RULES],
        how="vertical_relaxed",
    )


def hedonic_quotes(fits: pl.DataFrame, rules: pl.DataFrame, frontier: Estimate) -> dict[str, Quote]:
    """The method's settings, the GPQA Diamond fits, the span of the fits per sample, and how much
    the dating rule moves them."""
    fitted = fits.filter(pl.col("factor_per_year").is_not_null())

    def sample_span(sample: str) -> Quote:
        return Quote(_span(fitted.filter(pl.col("sample") == sample)["factor_per_year"]), "factor")

    gpqa_all = _fit(fits, BENCHMARK, "all")
    gpqa_rules = rules.filter((pl.col("benchmark") == BENCHMARK) & (pl.col("sample") == "frontier"))
    rule_ratios = (
        rules.filter(pl.col("sample") == "frontier")
        .group_by("benchmark")
        .agg((pl.col("factor_per_year").max() / pl.col("factor_per_year").min()).alias("ratio"))
    )
    widest = rule_ratios.sort("ratio").row(-1, named=True)
    all_rules = rules.filter(pl.col("sample") == "all")
    all_by_rule = all_rules.pivot(on="date_from", index="benchmark", values="factor_per_year")
    release = all_rules.filter(pl.col("date_from") == "release")["factor_per_year"]
    all_factor, all_ci = _factor(gpqa_all)
    return {
        "day_zero": Quote(hedonic.DAY_ZERO, "day"),
        "clip_low": Quote(hedonic.SCORE_CLIP[0], "score"),
        "clip_high": Quote(hedonic.SCORE_CLIP[1], "score"),
        "level": Quote(hedonic.LEVEL, "share"),
        "n_benchmarks": Quote(fits["benchmark"].n_unique(), "count"),
        "n_samples": Quote(fits["sample"].n_unique(), "count"),
        "benchmark_list": Quote(", ".join(benchmark_name(b) for b in hedonic.BENCHMARKS)),
        "gpqa_frontier": frontier,
        "gpqa_all_factor": all_factor,
        "gpqa_all_ci": all_ci,
        "gpqa_all_n": Quote(gpqa_all["n"], "count"),
        "frontier_span": sample_span("frontier"),
        "all_span": sample_span("all"),
        "open_span": sample_span("open-weights"),
        "open_frontier_span": sample_span("open-weights frontier"),
        "gpqa_rule_span": Quote(_span(gpqa_rules["factor_per_year"]), "factor"),
        "max_rule_ratio": Quote(widest["ratio"], "number"),
        "widest_rule_benchmark": Quote(benchmark_name(widest["benchmark"])),
        "all_release_effect": Quote(
            release_effect(bool((all_by_rule["release"] > all_by_rule["latest"]).all()))
        ),
        "all_release_span": Quote(_span(release), "factor"),
    }


# --- the index ----------------------------------------------------------------------------------


def index_quotes(
    index: hedonic.ReferenceIndex, real: pl.DataFrame, models: pl.DataFrame
) -> dict[str, Quote]:
    """The frontier index's first and last months, its band, and the cheapest real model (in
    `real`, every price change of every model, reasoning models included) that had reached the
    reference score by the last month."""
    frontier = index.by_month.filter(pl.col("sample") == "frontier").sort("month")
    first, last = frontier.row(0, named=True), frontier.row(-1, named=True)
    cheapest = hedonic.cheapest_reaching(real, index.reference, last["month"])
    reached = index.observations.filter(pl.col("score") >= index.reference)["date"].min()
    return {
        "reference_score": Quote(index.reference, "score"),
        "first_at_reference": Quote(reached, "month"),
        "index_from_price": Quote(first["price"], "usd"),
        "index_from_month": Quote(first["month"], "month"),
        "index_to_price": Quote(last["price"], "usd"),
        "index_band": Quote((last["ci_low"], last["ci_high"]), "usd"),
        "index_last_month": Quote(last["month"], "month"),
        "cheapest_real_model": Quote(model_name(models, cheapest["model"])),
        "cheapest_real_price": Quote(cheapest["price"], "usd"),
        "index_vs_real": Quote(index_vs_real(cheapest["price"] / last["price"])),
    }


def staircase_quotes(
    extension: pl.DataFrame,
    gpt4: Estimate,
    median: Estimate,
    gpqa_all_factor: float,
    gpqa_frontier_factor: float,
) -> dict[str, Quote]:
    """Epoch's staircase factors on the full data (`fixed_capability.extension_trends`): the GPQA
    Diamond span, the GPT-4-level factor and the median (registry estimates), and where the GPQA
    Diamond span lies against the hedonic fits."""
    gpqa = extension.filter(pl.col("benchmark") == BENCHMARK)
    low, high = _span(gpqa["factor_per_year"])
    return {
        "epoch_gpqa_span": Quote((low, high), "factor"),
        "epoch_gpqa_n": Quote(gpqa.height, "count"),
        "epoch_gpt4": gpt4,
        "epoch_median": median,
        "n_extension": median.n_text,
        "epoch_position": Quote(epoch_position(gpqa_all_factor, gpqa_frontier_factor, low, high)),
    }


# --- breaks -------------------------------------------------------------------------------------


def break_quotes(b: outlook.Breaks, models: pl.DataFrame) -> dict[str, Quote]:
    """The series tested, the Chow test at the named date, the search and its bootstrap p-value,
    the model at the break, and the trend of each segment."""
    series, search, chow_named = b.series, b.search, b.chow_named
    best = b.break_date
    at_break = series.filter(pl.col("date") == best).row(0, named=True)
    break_model = models.filter(pl.col("model_id") == at_break["model"]).row(0, named=True)
    before, after = b.segments.row(0, named=True), b.segments.row(-1, named=True)
    price_before = series.filter(pl.col("date") < best)["price"][-1]
    before_factor, before_ci = _factor(before)
    after_factor, after_ci = _factor(after)
    return {
        "n_thresholds": Quote(b.n_thresholds, "count"),
        "threshold_name": Quote(model_name(models, b.richest["threshold_model"])),
        "threshold_score": Quote(b.richest["threshold_score"], "score"),
        "n_series": Quote(series.height, "count"),
        "series_from": Quote(series["date"].min(), "month"),
        "series_to": Quote(series["date"].max(), "month"),
        "dsv3_date": Quote(b.named_date, "day"),
        "dsv3_n_before": Quote(chow_named["n_before"], "count"),
        "dsv3_n_after": Quote(chow_named["n_after"], "count"),
        "dsv3_f": Quote(chow_named["f_stat"], "number"),
        "dsv3_df_num": Quote(chow_named["df_num"], "count"),
        "dsv3_df_denom": Quote(chow_named["df_denom"], "count"),
        "dsv3_p": Quote(chow_named["p_value"], "p_value"),
        "trim": Quote(search["trim"], "share"),
        "min_segment": Quote(outlook.MIN_SEGMENT, "count"),
        "n_candidates": Quote(search["n_candidates"], "count"),
        "candidates_from": Quote(search["first_candidate"], "month"),
        "candidates_to": Quote(search["last_candidate"], "month"),
        "break_date": Quote(best, "day"),
        "break_month": Quote(best, "month"),
        "break_model_phrase": Quote(break_model_phrase(break_model)),
        "drop_at_break": Quote(price_before / at_break["price"], "number"),
        "sup_f": Quote(search["sup_f"], "number"),
        "boot_method": Quote(search["p_value_method"]),
        "boot_p": Quote(search["p_value"], "p_value"),
        "boot_reading": Quote(boot_reading(b.replicates_reached(N_BOOT), N_BOOT)),
        "plain_p": Quote(b.result["chow"]["p_value"], "p_value"),
        "dsv3_gap": Quote((b.named_date - best).days, "count"),
        "before_window": Quote((before["start_date"], before["end_date"]), "month"),
        "before_factor": before_factor,
        "before_ci": before_ci,
        "before_n": Quote(before["n"], "count"),
        "after_window": Quote((after["start_date"], after["end_date"]), "month"),
        "after_factor": after_factor,
        "after_ci": after_ci,
        "after_n": Quote(after["n"], "count"),
    }


# --- forecasts and the claim they are checked on ------------------------------------------------


def forecast_quotes(b: outlook.Breaks, models: pl.DataFrame) -> dict[str, Quote]:
    """The two forecasts at their end date, how far apart they are, and how far the whole-series
    trend already is from the latest observed price."""
    whole, since = b.result["forecast_summary"], b.result["forecast_since_break_summary"]
    last = b.series.sort("date").row(-1, named=True)
    first_month = b.result["forecast"].sort("date").row(0, named=True)
    whole_factor, whole_ci = _factor(whole)
    return {
        "until": Quote(whole["until"], "day"),
        "whole_factor": whole_factor,
        "whole_ci": whole_ci,
        "whole_price": Quote(whole["price_at_until"], "usd"),
        "whole_pi": Quote((whole["pi_low_at_until"], whole["pi_high_at_until"]), "usd"),
        "since_price": Quote(since["price_at_until"], "usd"),
        "since_pi": Quote((since["pi_low_at_until"], since["pi_high_at_until"]), "usd"),
        "forecast_gap": Quote(since["price_at_until"] / whole["price_at_until"], "number"),
        "whole_first_price": Quote(first_month["mean"], "usd"),
        "whole_first_month": Quote(first_month["date"], "month"),
        "whole_first_ratio": Quote(last["price"] / first_month["mean"], "number"),
        "last_price": Quote(last["price"], "usd"),
        "last_model": Quote(model_name(models, last["model"])),
        "last_score": Quote(last["score"], "score"),
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
    claim = claim_row(claims, CLAIM_ID)
    return {
        "claim_date": Quote(claim["claim_date"], "month"),
        "claim_text": Quote(claim["claim"]),
        "deepseek_check": Quote(
            deepseek_check(deepseek_last_seen(token_prices), claim["claim_date"])
        ),
    }


# --- the 2026 extension: one score snapshot per series -------------------------------------------

# The percent-scale series of the fixed-capability chapter's 2026 extension (the ECI is not a
# percent, so it has no logit).
SERIES_2026 = (fc.AA_BENCHMARK, BENCHMARK)
PAPER_SOURCE = "gundlach-inference"
# The 2026 section needs the snapshots, as the fixed-capability chapter's does.
NEEDS_2026 = left_out.Needs(fc.AA_SNAPSHOTS_NEED, tables=(fc.AA_SNAPSHOTS,))


def paper_window_end(scores: pl.DataFrame) -> date:
    """The last score date of Gundlach et al.'s own data: the end of the paper's window."""
    return scores.filter(pl.col("source_id") == PAPER_SOURCE)["date"].max()


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fits
def extension_2026(v: str) -> pl.DataFrame:
    """`hedonic.window_fits` on each one-snapshot series: frontier and all models, on every
    price to the release and on those dated up to the end of the paper's window."""
    token_prices, scores, models = results.token_tables(v)
    cutoff = paper_window_end(scores)
    frames = []
    for benchmark in SERIES_2026:
        if benchmark == fc.AA_BENCHMARK:
            if fc.AA_SNAPSHOTS not in release.tables(v):
                continue
            source = fc.AA_SOURCE
            by_model = fc.snapshot_scores(results.table(fc.AA_SNAPSHOTS, v))
        else:
            source = fc.hub_source(scores)
            by_model = fc.export_scores(scores, benchmark, source)
        priced = token_prices.filter(pl.col("date") <= results.release_date(v))
        obs = hedonic.observations_from_scores(priced, by_model, models)
        frames.append(hedonic.window_fits(obs, benchmark, source, cutoff))
    return pl.concat(frames)


def extension_reading(n_slower: int, n: int, all_falling: bool) -> str:
    """What the later prices do to the one-snapshot fits."""
    if n_slower == n and all_falling:
        return (
            "the quality-adjusted price keeps falling into 2026, but more slowly than the "
            "paper's window suggests"
        )
    if n_slower == n:
        return "the later models slow every fit, some to no fall at all"
    if n_slower == 0:
        return "the later models speed every fit up"
    return "the later models move the fits both ways"


def _ci(row: dict) -> tuple[float, float]:
    return row["ci90_low"], row["ci90_high"]


def extension_quotes(ext: pl.DataFrame, cutoff: date) -> dict[str, Quote]:
    """The one-snapshot fits: each series' frontier and all-models factor to 2026 and to the end
    of the paper's window, and how many fits the later prices slow."""
    slower = ext.filter(pl.col("factor_per_year") < pl.col("factor_short")).height
    falling = bool((ext["ci90_low"] > 1).all())
    out: dict[str, Quote] = {
        "paper_end": Quote(cutoff, "day"),
        "n_2026_fits": Quote(ext.height, "count"),
        "n_2026_slower": Quote(slower, "count"),
        "extension_reading": Quote(extension_reading(slower, ext.height, falling)),
    }
    # Each series and sample by its own names (the AA series only where the release has it).
    aa_frontier = hedonic.window_fit(ext, fc.AA_BENCHMARK, "frontier")
    if aa_frontier:
        out["aa_frontier_2026"] = Quote(aa_frontier["factor_per_year"], "factor")
        out["aa_frontier_2026_ci"] = Quote(_ci(aa_frontier), "factor")
        out["aa_frontier_2026_n"] = Quote(aa_frontier["n"], "count")
        out["aa_frontier_2026_end"] = Quote(aa_frontier["end_date"], "month")
        out["aa_frontier_short"] = Quote(aa_frontier["factor_short"], "factor")
        out["aa_frontier_short_n"] = Quote(aa_frontier["n_short"], "count")
    aa_all = hedonic.window_fit(ext, fc.AA_BENCHMARK, "all")
    if aa_all:
        out["aa_all_2026"] = Quote(aa_all["factor_per_year"], "factor")
        out["aa_all_2026_ci"] = Quote(_ci(aa_all), "factor")
        out["aa_all_2026_n"] = Quote(aa_all["n"], "count")
        out["aa_all_2026_end"] = Quote(aa_all["end_date"], "month")
        out["aa_all_short"] = Quote(aa_all["factor_short"], "factor")
        out["aa_all_short_n"] = Quote(aa_all["n_short"], "count")
    hub_frontier = hedonic.window_fit(ext, BENCHMARK, "frontier")
    if hub_frontier:
        out["hub_frontier_2026"] = Quote(hub_frontier["factor_per_year"], "factor")
        out["hub_frontier_2026_ci"] = Quote(_ci(hub_frontier), "factor")
        out["hub_frontier_2026_n"] = Quote(hub_frontier["n"], "count")
        out["hub_frontier_2026_end"] = Quote(hub_frontier["end_date"], "month")
        out["hub_frontier_short"] = Quote(hub_frontier["factor_short"], "factor")
        out["hub_frontier_short_n"] = Quote(hub_frontier["n_short"], "count")
    hub_all = hedonic.window_fit(ext, BENCHMARK, "all")
    if hub_all:
        out["hub_all_2026"] = Quote(hub_all["factor_per_year"], "factor")
        out["hub_all_2026_ci"] = Quote(_ci(hub_all), "factor")
        out["hub_all_2026_n"] = Quote(hub_all["n"], "count")
        out["hub_all_2026_end"] = Quote(hub_all["end_date"], "month")
        out["hub_all_short"] = Quote(hub_all["factor_short"], "factor")
        out["hub_all_short_n"] = Quote(hub_all["n_short"], "count")
    return out


# --- the chapter --------------------------------------------------------------------------------


@dataclass(frozen=True)
class QualityAdjusted:
    """The chapter's quotes and what the data version leaves out; the page draws its figures
    and tables from named calls of its own."""

    version: str
    q: Quotes
    left_out: dict[str, str]  # "2026" -> why this data version cannot show the 2026 extension

    def shows(self, part: str) -> bool:
        return part not in self.left_out


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's search
def breaks(v: str) -> outlook.Breaks:
    """`outlook.staircase_breaks` of the release's GPQA Diamond observations
    (`fixed_capability.full_observations`, reasoning models excluded), with the release of
    NAMED_BREAK_MODEL as the date named in advance."""
    token_prices, scores, models = results.token_tables(v)
    obs = fc.full_observations(token_prices, scores, models, BENCHMARK)
    named = outlook.release_date(models, NAMED_BREAK_MODEL)
    return outlook.staircase_breaks(obs, BENCHMARK, named, data_version=v)


def compute(version: str | None = None) -> QualityAdjusted:
    """Every result of the chapter on one data version (None: the current one)."""
    return _compute(results.version(version))


@memo
@cached  # on disk too: the second output format, and later renders, reuse the result
def _compute(v: str) -> QualityAdjusted:
    token_prices, scores, models = results.token_tables(v)
    fits, rules = results.hedonic_fits(v), by_rule(v)
    frontier = estimates.estimate("hedonic-gpqa-frontier", v)
    index = results.reference_index(v, BENCHMARK, INDEX_SAMPLES)
    real = fc.full_observations(token_prices, scores, models, BENCHMARK, include_reasoning=True)
    b = breaks(v)
    q = Quotes(SLUG, {"version": Quote(v)})
    q.update(hedonic_quotes(fits, rules, frontier))
    q.update(index_quotes(index, real, models))
    q.update(
        staircase_quotes(
            results.extension(v),
            estimates.estimate("full-data-gpqa-gpt4-level", v),
            estimates.estimate("full-data-median-factor", v),
            _fit(fits, BENCHMARK, "all")["factor_per_year"],
            frontier.value,
        )
    )
    q.update(break_quotes(b, models))
    q.update(forecast_quotes(b, models))
    q.update(claim_quotes(token_prices, results.table("claims", v)))
    # The rows the anomaly rules took out of the tables this page reads (issue 9).
    q["removed"] = Quote(results.removed_text(("token_prices", "benchmark_scores"), v))
    q["decomposition"] = Quote(published.decomposition_sentence(published.decomposition_steps(v)))
    q["paper_range"] = Quote(gundlach.PUBLISHED_FRONTIER_RANGE, "stated_factor")
    ext = extension_2026(v)
    q.update(extension_quotes(ext, paper_window_end(scores)))
    has_snapshots = fc.AA_SNAPSHOTS in release.tables(v)
    q["aa_snapshot"] = (
        Quote(results.table(fc.AA_SNAPSHOTS, v)["snapshot_date"].max(), "day")
        if has_snapshots
        else Quote("no snapshot in this release")
    )
    q["hub_last"] = Quote(fc.hub_last_date(scores, fc.hub_source(scores)), "day")
    absent = left_out.reasons({"2026": NEEDS_2026}, v)
    if absent:
        q.leave_out()  # the 2026 section's prose still runs, and reads placeholders
    return QualityAdjusted(v, q, absent)
