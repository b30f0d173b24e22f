"""Sections a data version cannot show, and the sentence that says why.

Older releases stay renderable (`BOOK_DATA_VERSION=2026-11-30 make book`), but they predate some
tables and some sources: release 2026-12-01 has no `tou_windows`, no `inference_benchmarks`
and no price dated after August 2026. A chapter names what each such section needs in a `Needs`;
`reason(needs, version)` is None when the release has it, else one sentence naming the version,
what is missing and the first release that has it. The chapter then leaves the section's
frames out, and its page shows that sentence in place of the section
(`analysis.book.show.left_out`; the Quarto filter `analysis/book/left-out.lua` and the offline
preview drop the rest of the section).

The prose of a left-out section still runs (Quarto evaluates every inline expression), so a
chapter's `Quotes` answers the names it did not compute with `PLACEHOLDER`
(`Quotes.leave_out`); the filter and the preview stop if that text reaches a page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

from analysis import data
from analysis.report import results
from analysis.report.quote import PLACEHOLDER

__all__ = ["PLACEHOLDER", "Needs", "first_release_with", "has", "reason", "reasons"]


@dataclass(frozen=True)
class Needs:
    """What a section needs of a release: `tables` it must hold and, optionally, `rows`: a table
    and a filter (a function of the version's table) that must keep at least one row."""

    what: str  # the data in words: "InferenceMAX runs and InferenceX's cost assumptions"
    tables: tuple[str, ...] = ()
    rows: tuple[str, Callable[[pl.DataFrame], pl.DataFrame]] | None = None
    scope: str = "section"  # what is left out: "section", or "chapter" for a whole page


def has(needs: Needs, version: str) -> bool:
    """True when data version `version` holds what `needs` names."""
    held = set(data.tables(version))
    if not set(needs.tables) <= held:
        return False
    if needs.rows is None:
        return True
    name, keep = needs.rows
    return name in held and keep(results.table(name, version)).height > 0


def reason(needs: Needs, version: str | None = None) -> str | None:
    """None when data version `version` has what `needs` names; else why the section is left
    out, with the first release that has it."""
    v = results.version(version)
    if has(needs, v):
        return None
    lacking = [t for t in needs.tables if t not in set(data.tables(v))]
    if lacking:
        table_word = "table" if len(lacking) == 1 else "tables"
        missing = f"predates the {table_word} {' and '.join(lacking)} ({needs.what})"
    else:
        missing = f"has no {needs.what}"
    first = first_release_with(needs, v)
    later = (
        f" Data version {first} is the first to have it: render with BOOK_DATA_VERSION={first} "
        "or later to see it."
        if first
        else ""
    )
    return f"Data version {v} {missing}, so this {needs.scope} is left out.{later}"


def first_release_with(needs: Needs, version: str) -> str | None:
    """The first release after `version` that has what `needs` names, or None."""
    names = [r.version for r in data.releases()]
    return next((later for later in names[names.index(version) + 1 :] if has(needs, later)), None)


def reasons(
    needs: dict[str, Needs],
    version: str | None = None,
    reads: dict[str, tuple[str, ...]] | None = None,
) -> dict[str, str]:
    """Part -> why it is left out, for the parts of `needs` that data version `version` cannot
    show (empty when it can show them all). `reads` names parts built on others (part -> the
    parts it reads): such a part is left out, for the same reason, when one of those is."""
    found = {part: reason(n, version) for part, n in needs.items()}
    out = {part: why for part, why in found.items() if why}
    for part, others in (reads or {}).items():
        why = next((out[o] for o in others if o in out), None)
        if why and part not in out:
            out[part] = why
    return out
