"""What the "Published figures, reproduced" appendix shows: every published figure the book cites
beside the value the book's own data gives, and the step-by-step path from Gundlach et al.'s GPQA
Diamond frontier factor to the book's quality-adjusted estimate."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analysis.data.cache import cached
from analysis.data.reads import memo
from analysis.report import published, results
from analysis.report.published import decomposition_sentence  # noqa: F401  (tests read it here)
from analysis.report.quote import Quote, Quotes

SLUG = "published"


@dataclass(frozen=True)
class Published:
    version: str
    table: pl.DataFrame  # published.published_vs_reproduced
    decomposition: pl.DataFrame  # published.gundlach_decomposition (empty without raw sources)
    q: Quotes


@memo
@cached  # on disk too: the second output format, and later renders, reuse the result
def _compute(v: str) -> Published:
    table = published.published_vs_reproduced(v)
    steps = published.decomposition_steps(v)
    q = Quotes(
        SLUG,
        {
            "version": Quote(v),
            "n_figures": Quote(table.height, "count"),
            "n_within": Quote(int(table["within_rounding"].fill_null(False).sum()), "count"),
            "n_outside": Quote(int((~table["within_rounding"].fill_null(True)).sum()), "count"),
            "n_untested": Quote(int(table["within_rounding"].is_null().sum()), "count"),
            "decomposition": Quote(published.decomposition_sentence(steps)),
        },
    )
    return Published(v, table, steps, q)


def compute(version: str | None = None) -> Published:
    return _compute(results.version(version))
