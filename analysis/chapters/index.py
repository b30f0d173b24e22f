"""What the summary page (`index.qmd`) shows: the headline estimates of the registry and the
table of all of them.

Every number the page prints is an `Estimate` from `analysis.report.estimates`, or a quote derived
from one here (the H100 decline, a factor per year in the registry, reads as a yearly percentage
fall on this page).
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analysis.data import release as data
from analysis.data import titles
from analysis.data.cache import cached
from analysis.data.reads import memo
from analysis.methods import fixed_capability as fc
from analysis.methods import gpu_prices, hedonic, llmflation
from analysis.report import estimates, results
from analysis.report.quote import Estimate, Quote, Quotes

SLUG = "index"

# Page quote -> registry estimate.
HEADLINES = {
    "epoch_gpqa": "epoch-gpqa-gpt4-level",
    "full_gpqa": "full-data-gpqa-gpt4-level",
    "full_median": "full-data-median-factor",
    "a16z_full": "a16z-full-window",
    "hedonic": "hedonic-gpqa-frontier",
    "spread_share": "open-model-spread-share",
    "gpu_index": "gpu-hedonic-index-latest",
    "mlperf_cost": "mlperf-llama2-70b-cost",
}
# Printed as the yearly percentage fall it implies (`h100_pct`), not as a factor.
H100 = "h100-on-demand-decline"
# The headline chart's estimates, top to bottom, each with its short name on the chart (the
# table under it gives each one's full description).
CHART_LABELS = {
    "epoch-gpqa-gpt4-level": "GPT-4-level on GPQA Diamond (Epoch's data)",
    "full-data-gpqa-gpt4-level": "GPT-4-level on GPQA Diamond (all data)",
    "a16z-full-window": "Cheapest model with MMLU >= 42 (a16z)",
    "hedonic-gpqa-frontier": "Quality-adjusted frontier (GPQA Diamond)",
    "h100-on-demand-decline": "H100 on-demand GPU-hour",
}


@dataclass(frozen=True)
class Index:
    version: str
    estimates: pl.DataFrame  # estimates.headline: the page's table
    chart: pl.DataFrame  # the charted estimates' rows of it, each with its rows' `sources`
    q: Quotes
    chapter_titles: dict[str, str]  # chapter slug -> its title, for the table's Chapter column


def yearly_fall(factor: float) -> float:
    """A decline factor per year as the fraction by which the price falls in a year."""
    return 1 - 1 / factor


def derived_quotes(e: dict[str, Estimate], h100: Estimate) -> dict[str, Quote]:
    """The quotes the page derives from registry estimates (`e`: the headlines by quote name)."""
    return {
        "h100_pct": Quote(yearly_fall(h100.value), "percent"),
        "h100_pct_ci": Quote((yearly_fall(h100.low), yearly_fall(h100.high)), "percent"),
        # The digest's claimed multiple, which the spread share counts against.
        "spread_claim": Quote(e["spread_share"].extra["threshold"], "stated_factor"),
        "gpu_index_base": Quote(e["gpu_index"].extra["base_period"], "month"),
    }


def compute(version: str | None = None) -> Index:
    """The summary page of data version `version` (None: the current one). Its table names each
    estimate's chapter by the chapter's title (read, and recorded, at every call: the cached
    result is keyed by the titles)."""
    return _compute(results.version(version), tuple(titles.chapter_titles().items()))


@memo
@cached  # on disk too: the second output format, and later renders, reuse the result
def _compute(v: str, chapter_titles: tuple[tuple[str, str], ...]) -> Index:
    e = {name: estimates.estimate(key, v) for name, key in HEADLINES.items()}
    q = Quotes(SLUG, e)
    q.update(derived_quotes(e, estimates.estimate(H100, v)))
    q["a16z_threshold"] = Quote(llmflation.A16Z_THRESHOLD, "score")  # the MMLU score a16z asks
    q["version"] = Quote(v, "text")
    q["citation"] = Quote(data.citation(v), "text")
    # The rows the anomaly rules took out of the tables this page reads.
    q["removed"] = Quote(results.removed_text(results.FLAGGED_TABLES, v))
    table = estimates.headline(v)
    sourced = pl.DataFrame(
        {"estimate_id": list(CHART_LABELS), "sources": [chart_sources(v)[k] for k in CHART_LABELS]}
    )
    chart = table.join(sourced, on="estimate_id", how="inner")
    return Index(version=v, estimates=table, chart=chart, q=q, chapter_titles=dict(chapter_titles))


def chart_sources(v: str) -> dict[str, str]:
    """For each charted estimate, the source ids (";"-joined) of the rows its method kept: the
    Epoch rows of Epoch's table, the staircase of the full-data trend, the a16z monthly minima,
    the GPQA Diamond frontier the hedonic fit runs on, and the H100 on-demand provider-months
    of the direct evidence."""
    token_prices, scores, models = results.token_tables(v)
    full = results.trend_row(results.extension(v), *estimates.GPT4_GPQA)
    obs = hedonic.observations(token_prices, scores, models, estimates.GPT4_GPQA[0])
    rows = {
        "epoch-gpqa-gpt4-level": fc.epoch_rows(token_prices),
        "full-data-gpqa-gpt4-level": pl.DataFrame({"sources": [full["sources"]]}),
        "a16z-full-window": results.a16z(v)[0],
        "hedonic-gpqa-frontier": hedonic.sample(obs, "frontier"),
        "h100-on-demand-decline": gpu_prices.decline_panel(
            results.gpu_prices_of(v, "direct"), "h100", "on-demand"
        ),
    }
    return {key: ";".join(data.sources_of(rows[key])) for key in CHART_LABELS}
