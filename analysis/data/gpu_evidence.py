"""The evidence class of each GPU-hour price row (issue 19, class 10), attached at load time.

`gpu_hour_prices` mixes four kinds of evidence: a seller's own listed price (`observed-listing`),
a statistic of the offers on one marketplace (`marketplace-median`), an aggregate an index
computes (`index`), and archived rate cards restated with an index's judgement factors
(`restated-reconstruction`). Which a row is follows from its source and statistic alone; the
curated table `analysis/data/tables/gpu_evidence_classes.csv` (checked by
`analysis.data.lookup`) says which, with the reason from the sources README. The released CSVs
are left as they are: the class is a join, so every release (old ones too) gets it.
"""

from __future__ import annotations

import polars as pl

from analysis.data import lookup
from analysis.data.curate.spells import HAND_ENTERED
from analysis.data.errors import DataError

COLUMN = "evidence_class"
CLASSES = lookup.GPU_EVIDENCE_CLASSES
DIRECT = lookup.DIRECT_EVIDENCE
RESTATED = "restated-reconstruction"
# The named variants an analysis can be run on: variant -> the evidence classes it keeps.
VARIANTS: dict[str, tuple[str, ...]] = {
    "direct": DIRECT,
    "without-restated": tuple(c for c in CLASSES if c != RESTATED),
    "all": CLASSES,
}
DEFAULT_VARIANT = "direct"
LABELS = {
    "observed-listing": "observed listing",
    "marketplace-median": "marketplace median",
    "index": "index",
    "restated-reconstruction": "restated reconstruction",
}

# A hand-entered row (`data add`, source id `hand-...`) is classed by its statistic alone: a
# quote read on a seller's page is that seller's listing; a market statistic is the market's.
# `data add` refuses a statistic not named here, so every hand-entered row has a class.
HAND_ENTERED_CLASSES = {
    "quote": "observed-listing",
    "median": "marketplace-median",
    "min": "marketplace-median",
    "p25": "marketplace-median",
    "p75": "marketplace-median",
    "index": "index",
}


def _classes(pairs: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """The curated table's classes, and the hand-entered rule for `hand-` sources among pairs."""
    hand = {
        (s, t): HAND_ENTERED_CLASSES[t]
        for s, t in pairs
        if s.startswith(HAND_ENTERED) and t in HAND_ENTERED_CLASSES
    }
    return lookup.gpu_evidence_classes() | hand


def with_evidence_class(prices: pl.DataFrame, *, where: str = "gpu_hour_prices") -> pl.DataFrame:
    """`prices` with an `evidence_class` column; raises DataError naming every (source_id,
    statistic) the table does not class."""
    pairs = prices.select("source_id", "statistic").unique().rows()
    classes = _classes(pairs)
    problems = lookup.gpu_evidence_class_problems([p for p in pairs if p not in classes], where)
    if problems:
        raise DataError(problems)
    table = pl.DataFrame(
        [{"source_id": s, "statistic": t, COLUMN: c} for (s, t), c in classes.items()],
        schema={"source_id": pl.String, "statistic": pl.String, COLUMN: pl.String},
    )
    return prices.drop(COLUMN, strict=False).join(
        table, on=["source_id", "statistic"], how="left", maintain_order="left"
    )


def evidence_filter(variant: str) -> pl.Expr:
    """Rows of a named variant (VARIANTS)."""
    if variant not in VARIANTS:
        raise KeyError(f"no evidence variant {variant!r}; variants are {', '.join(VARIANTS)}")
    return pl.col(COLUMN).is_in(list(VARIANTS[variant]))


def select(prices: pl.DataFrame, variant: str = DEFAULT_VARIANT) -> pl.DataFrame:
    """The rows of `prices` (with `evidence_class`) a named variant keeps."""
    return prices.filter(evidence_filter(variant))


def describe(classes: list[str]) -> str:
    """Evidence classes as prose lists them: `observed listing and marketplace median`."""
    names = [LABELS[c] for c in CLASSES if c in set(classes)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
