"""What the "Published figures, reproduced" appendix shows: every published figure the book cites
beside the value the book's own data gives, and the step-by-step path from Gundlach et al.'s GPQA
Diamond frontier factor to the book's quality-adjusted estimate."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import polars as pl

from analysis.data.cache import cached
from analysis.data.paths import SHARED_SOURCES
from analysis.report import published, results
from analysis.report.quote import Quote, Quotes

SLUG = "published"


@dataclass(frozen=True)
class Published:
    version: str
    table: pl.DataFrame  # published.published_vs_reproduced
    decomposition: pl.DataFrame  # published.gundlach_decomposition (empty without raw sources)
    q: Quotes


def decomposition_sentence(steps: pl.DataFrame) -> str:
    """The path from the paper's factor to the book's, or why this rendering cannot show it."""
    if steps.height == 0:
        return (
            "The decomposition needs the authors' per-benchmark rows, which are in no released "
            "data version: render the book beside the raw sources to see it."
        )
    first, last = steps.row(0, named=True), steps.row(-1, named=True)
    largest = steps.slice(1).sort("ratio_to_previous", descending=True).row(0, named=True)
    return (
        f"It starts from the paper's own figure, {Quote(first['factor_per_year'], 'factor')} per "
        f"year, reproduced from the authors' data, and ends at the book's, "
        f"{Quote(last['factor_per_year'], 'factor')}; the largest single step is "
        f"\u201c{largest['change']}\u201d, which multiplies the factor by "
        f"{Quote(largest['ratio_to_previous'], 'number')}."
    )


@cache
@cached  # on disk too: the second output format, and later renders, reuse the result
def _compute(v: str) -> Published:
    table = published.published_vs_reproduced(v)
    if SHARED_SOURCES.exists():
        steps = published.gundlach_decomposition(v)
    else:
        steps = pl.DataFrame(schema={"step": pl.Int64, "change": pl.String})
    q = Quotes(
        SLUG,
        {
            "version": Quote(v),
            "n_figures": Quote(table.height, "count"),
            "n_within": Quote(int(table["within_rounding"].fill_null(False).sum()), "count"),
            "n_outside": Quote(int((~table["within_rounding"].fill_null(True)).sum()), "count"),
            "n_untested": Quote(int(table["within_rounding"].is_null().sum()), "count"),
            "decomposition": Quote(decomposition_sentence(steps)),
        },
    )
    return Published(v, table, steps, q)


def compute(version: str | None = None) -> Published:
    return _compute(results.version(version))
