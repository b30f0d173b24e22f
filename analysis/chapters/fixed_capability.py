"""What the chapter on the price of a fixed capability quotes, and its claim evidence.

The page shows, in folded cells, how it makes each figure and table (`results.epoch`,
`fixed_capability.staircase_fit`, `llmflation.trend_line`, `fixed_capability.trends_by_series`,
...). `compute(version)` returns a `FixedCapability`: `q`, every value the prose prints as a
`Quote`, what the data version leaves out, and the frames `claim_evidence` reads. The headline
estimates come from the registry (`analysis.report.estimates`), the shared tables from
`analysis.report.results`; the method's constants come from `analysis.methods.fixed_capability`,
`llmflation` and `trends`, so prose and code cannot drift. The result is cached per data version.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import polars as pl

from analysis.data import release
from analysis.data.cache import cached
from analysis.data.reads import memo
from analysis.figures.capability import BENCHMARK_NAMES
from analysis.methods import fixed_capability as fc
from analysis.methods import llmflation, sensitivity, trends
from analysis.methods.claims import Evidence, claim_row
from analysis.report import estimates, left_out, results
from analysis.report.quote import Quote, Quotes, fmt_number

SLUG = "fixed-capability"
BENCHMARK, THRESHOLD_MODEL = estimates.GPT4_GPQA  # the trend the chapter follows throughout
CLAIM_ID = "epoch-fixed-capability-decline"
DECLINE_ESTIMATE = "full-data-median-factor"  # the book's headline for the claim's quantity
CLAIM_IDS = (CLAIM_ID, "gpt-4-equivalent-price-2022", "gpt-4-equivalent-price-now")
GPT4 = THRESHOLD_MODEL  # "GPT-4-level" is GPT-4's own score on a series' benchmark
SECTION_2026 = f"chapters/{SLUG}.qmd#sec-fixed-capability-2026"
SECTION_CLAIMS = f"chapters/{SLUG}.qmd#sec-fixed-capability-claims"
# The 2026 extension: one series per benchmark, every score from one snapshot (see
# `fixed_capability.snapshot_scores`); the label names the snapshot.
# The Hub series take the newest Hub export the release holds (`fc.HUB_SOURCES`); a release
# without Artificial Analysis snapshots has no series on its index.
AA_BENCHMARK = fc.AA_BENCHMARK
MOST = 0.9  # "most trends rest on ... points": the points of at least this share of the trends
# The number of bootstrap draws: `fixed_capability.trend` takes the default of the interval.
N_BOOT = trends.N_BOOT


# The one-snapshot extension to 2026 (here and in the quality-adjusted chapter) takes its index
# scores from the Artificial Analysis snapshots, which releases before 2026-12-01.2 predate.
NEEDS_2026 = left_out.Needs(fc.AA_SNAPSHOTS_NEED, tables=(fc.AA_SNAPSHOTS,))


@dataclass(frozen=True)
class FixedCapability:
    """The data version the page draws from, the quotes of its prose, and what it leaves out."""

    version: str
    q: Quotes
    left_out: dict[str, str]  # "2026" -> why this data version cannot show the 2026 extension
    # What `claim_evidence` reads: the 2026 extension's trends, GPT-4's level on each series
    # (first reached, cheapest by the claim) and the Hub export of the Hub series.
    extension_2026: pl.DataFrame
    gpt4_levels: pl.DataFrame
    hub_source: str

    def shows(self, part: str) -> bool:
        return part not in self.left_out


def compute(version: str | None = None) -> FixedCapability:
    """Every result of the chapter on one data version (None: the current one)."""
    return _compute(results.version(version))


def series_2026(v: str) -> dict[tuple[str, str], pl.DataFrame]:
    """`fixed_capability.one_snapshot_series` of data version `v` (no AA series before the
    release that brought the snapshots)."""
    token_prices, scores, models = results.token_tables(v)
    aa = results.table(fc.AA_SNAPSHOTS, v) if fc.AA_SNAPSHOTS in release.tables(v) else None
    return fc.one_snapshot_series(token_prices, scores, models, aa, results.release_date(v))


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fits
def trends_2026(v: str) -> pl.DataFrame:
    """`fixed_capability.trends_by_series` of `series_2026(v)`: the one-snapshot trends."""
    return fc.trends_by_series(series_2026(v))


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fits
def windows_2026(v: str, cutoff: date) -> pl.DataFrame:
    """`fixed_capability.window_comparisons` of `series_2026(v)` at `cutoff`: each threshold
    fitted to the cutoff and to the release."""
    return fc.window_comparisons(series_2026(v), cutoff)


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fits
def choices(v: str, benchmark: str, threshold_model: str) -> pl.DataFrame:
    """`sensitivity.sensitivity` of one threshold on the release: its trend under other choices."""
    return sensitivity.sensitivity(*results.token_tables(v), benchmark, threshold_model)


def against(value: float, claimed: float, what: str = "it") -> str:
    """Where a computed value lies against a claimed one, for the prose ("well above it")."""
    ratio = value / claimed
    if ratio >= 2:
        return f"well above {what}"
    if ratio > 1.1:
        return f"above {what}"
    if ratio >= 1 / 1.1:
        return f"close to {what}"
    if ratio > 0.5:
        return f"below {what}"
    return f"{fmt_number(1 / ratio)} times below {what}"


def window_reading(n_slower: int, n: int) -> str:
    """What adding the later prices does to the thresholds of Epoch's window."""
    if n_slower > n / 2:
        return (
            "the steep rates of Epoch's window do not carry on: the cheapest "
            "price at each of those levels has kept falling since, but more slowly"
        )
    if n_slower == 0:
        return "the later prices steepen every one of those trends"
    return "the later prices slow some trends and steepen others"


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


@memo
@cached  # on disk too: the second output format, and later renders, reuse the result
def _compute(v: str) -> FixedCapability:
    token_prices, scores, models = results.token_tables(v)

    epoch = results.epoch(v, bootstrap=True)
    gpqa = results.trend_row(epoch, BENCHMARK, THRESHOLD_MODEL)
    epoch_gpqa = estimates.estimate("epoch-gpqa-gpt4-level", v)
    stated = fc.EPOCH_PUBLISHED

    _, fits = results.a16z(v)
    a16z_w, a16z_full = fits["a16z_window"], fits["full_window"]

    extension = results.extension(v)
    extension_reasoning = results.extension(v, include_reasoning=True)
    ext_median = estimates.estimate("full-data-median-factor", v)
    factors = extension["factor_per_year"]

    sens = choices(v, BENCHMARK, THRESHOLD_MODEL)

    claim = claim_row(results.table("claims", v), CLAIM_ID)
    claimed = claim["value"]

    # The 2026 extension: one score snapshot per series.
    one_snapshot = series_2026(v)
    cutoff = fc.epoch_window_end(token_prices)
    ext26 = trends_2026(v)
    window = windows_2026(v, cutoff)
    f26 = ext26["factor_per_year"]
    hub = fc.hub_source(scores)
    hub_gpqa = results.trend_row(
        ext26.filter(pl.col("score_source") == hub), BENCHMARK, THRESHOLD_MODEL
    )
    aa_snapshot = (
        Quote(results.table(fc.AA_SNAPSHOTS, v)["snapshot_date"].max(), "day")
        if fc.AA_SNAPSHOTS in release.tables(v)
        else Quote("no snapshot in this release")
    )
    n_contain = ext26.filter(
        (pl.col("ci90_low") <= claimed) & (pl.col("ci90_high") >= claimed)
    ).height
    slower = window.filter(pl.col("factor_full") < pl.col("factor_short")).height
    early_claim, now_claim = (
        claim_row(results.table("claims", v), "gpt-4-equivalent-price-2022"),
        claim_row(results.table("claims", v), "gpt-4-equivalent-price-now"),
    )
    gpt4_by = min(now_claim["claim_date"], results.release_date(v))
    levels = fc.model_level(one_snapshot, GPT4, gpt4_by)
    gpt4 = levels.filter((pl.col("benchmark") == BENCHMARK) & (pl.col("score_source") == hub)).row(
        0, named=True
    )

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
            # the 2026 extension, one snapshot per series
            "aa_snapshot": aa_snapshot,
            "hub_last": Quote(fc.hub_last_date(scores, hub), "day"),
            "n_2026": Quote(ext26.height, "count"),
            "n_2026_series": Quote(len(one_snapshot), "count"),
            "ext26_median": Quote(f26.median(), "factor"),
            "ext26_iqr": Quote((f26.quantile(0.25), f26.quantile(0.75)), "factor"),
            "ext26_window": Quote((ext26["start_date"].min(), ext26["end_date"].max()), "day"),
            "ext26_aa_n": Quote(
                ext26.filter(pl.col("score_source") == fc.AA_SOURCE).height, "count"
            ),
            "hub_gpqa": Quote(hub_gpqa["factor_per_year"], "factor"),
            "hub_gpqa_ci": Quote((hub_gpqa["ci90_low"], hub_gpqa["ci90_high"]), "factor"),
            "hub_gpqa_n": Quote(hub_gpqa["n"], "count"),
            "hub_gpqa_window": Quote((hub_gpqa["start_date"], hub_gpqa["end_date"]), "day"),
            "cutoff": Quote(cutoff, "day"),
            "n_window": Quote(window.height, "count"),
            "window_short_median": Quote(window["factor_short"].median(), "factor"),
            "window_full_median": Quote(window["factor_full"].median(), "factor"),
            "n_slower": Quote(slower, "count"),
            "window_reading": Quote(window_reading(slower, window.height)),
            "median_vs_claim": Quote(against(f26.median(), claimed)),
            # the digest's GPT-4-equivalent prices
            "gpt4_2022_claimed": Quote(early_claim["value"], "usd"),
            "gpt4_now_claimed": Quote(now_claim["value"], "usd"),
            "gpt4_first_date": Quote(gpt4["first_date"], "day"),
            "gpt4_first_price": Quote(gpt4["first_price"], "usd"),
            "gpt4_by": Quote(gpt4_by, "day"),
            "gpt4_cheapest_model": Quote(model_name(models, gpt4["cheapest_model"])),
            "gpt4_cheapest_price": Quote(gpt4["cheapest_price"], "usd"),
            "gpt4_cheapest_range": Quote(
                (levels["cheapest_price"].min(), levels["cheapest_price"].max()), "usd"
            ),
            "n_gpt4_series": Quote(levels.height, "count"),
            "gpt4_vs_claim": Quote(
                against(gpt4["cheapest_price"], now_claim["value"], "the digest's figure")
            ),
        },
    )
    # The rows the anomaly rules took out of the tables this page reads (issue 9).
    q["removed"] = Quote(results.removed_text(("token_prices", "benchmark_scores"), v))
    absent = left_out.reasons({"2026": NEEDS_2026}, v)
    return FixedCapability(v, q, absent, ext26, levels, hub)


# --- the digests' claims ----------------------------------------------------------------------


def claim_evidence(version: str | None = None) -> dict[str, Evidence]:
    """What the data say about the digests' claims this chapter tests, each in its claim's unit."""
    v = results.version(version)
    c = compute(v)
    ext26 = c.extension_2026
    f = ext26["factor_per_year"]
    window = f"{ext26['start_date'].min()} to {ext26['end_date'].max()}"
    # The book's own headline for the quantity (the estimate registry), so the ledger and the
    # chapter cannot disagree; the middle half of the trends is its spread, not a CI.
    headline = estimates.estimate(DECLINE_ESTIMATE, v)
    ext = results.extension(v)["factor_per_year"]
    decline = Evidence(
        CLAIM_ID,
        value=headline.value,
        low=float(ext.quantile(0.25)),
        high=float(ext.quantile(0.75)),
        n=headline.n,
        window=f"{headline.window_start} to {headline.window_end}",
        section=SECTION_CLAIMS,
        text=(
            f"The book's headline: {headline.description.lower()} ({headline.method}); the "
            f"interval is the middle half of the {headline.n} trends. The 2026 extension's "
            f"one-snapshot trends (n = {ext26.height}, {window}) give a median of "
            f"{float(f.median()):.1f}x."
        ),
        like_for_like=(
            "the same quantity the claim names (the yearly price decline of a fixed capability, "
            "Epoch's staircase method), on standard list prices, as the book's headline"
        ),
        estimate_id=DECLINE_ESTIMATE,
    )
    levels = c.gpt4_levels
    by = levels["by"][0]
    hub = levels.filter(
        (pl.col("benchmark") == BENCHMARK) & (pl.col("score_source") == c.hub_source)
    ).row(0, named=True)
    early_claim = claim_row(results.table("claims", v), "gpt-4-equivalent-price-2022")
    models = results.table("models", v)

    def name(model_id: str) -> str:
        return model_name(models, model_id)

    early = Evidence(
        "gpt-4-equivalent-price-2022",
        value=hub["first_price"],
        n=1,
        window=str(hub["first_date"]),
        section=SECTION_CLAIMS,
        text=(
            f"No model in the data reaches GPT-4's GPQA Diamond score (Epoch Hub export) before "
            f"{hub['first_date']}, after the claim's date ({early_claim['claim_date']}); the first "
            f"that does, {name(hub['first_model'])}, costs ${hub['first_price']:.2f} per 1M tokens "
            "(3:1 blend). No GPT-4-level model was sold in late 2022."
        ),
    )
    now = Evidence(
        "gpt-4-equivalent-price-now",
        value=hub["cheapest_price"],
        low=float(levels["cheapest_price"].min()),
        high=float(levels["cheapest_price"].max()),
        n=levels.height,
        window=f"prices to {by}",
        section=SECTION_CLAIMS,
        text=(
            f"Cheapest 3:1 blended list price by {by} of a model scoring at least GPT-4's GPQA "
            f"Diamond score in the Epoch Hub export: {name(hub['cheapest_model'])} at "
            f"${hub['cheapest_price']:.3f} per 1M tokens; the interval spans the same on the "
            f"{levels.height} one-snapshot series where GPT-4 has a score ("
            + ", ".join(_names(levels["benchmark"]).split(" and "))
            + ")."
        ),
    )
    return {e.claim_id: e for e in (decline, early, now)}
