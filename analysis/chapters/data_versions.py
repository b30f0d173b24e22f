"""What the "Data versions" appendix shows: every release, what changed from the one before (rows
added, changed and removed per table and source; new models and providers), and every headline
estimate in each release beside the previous one, so a reader sees how the conclusions moved."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analysis.data import cache, changes
from analysis.data import release as data
from analysis.data.cache import cached
from analysis.data.reads import memo
from analysis.report import results, vintages
from analysis.report.names import display_name, in_text
from analysis.report.quote import Quote, Quotes, fmt_count

SLUG = "data-versions"
MOVED = 0.10  # an estimate "moved" when it changed by more than this share between releases
LISTED_IDS = 12  # new model ids named in the prose at most


@dataclass(frozen=True)
class DataVersions:
    version: str
    releases: pl.DataFrame  # version, released, description
    changes: pl.DataFrame  # table, source_id, added, changed, removed (latest vs previous)
    vintages: pl.DataFrame  # every estimate of every release with the previous value
    q: Quotes


def change_sentence(
    previous: str | None, table: pl.DataFrame, new_models: list[str], new_providers: list[str]
) -> str:
    """What the release changed, as one sentence (the first release has nothing to compare)."""
    if previous is None:
        return "This is the first release: there is nothing earlier to compare it with."
    added, changed, removed = (fmt_count(table[c].sum()) for c in ("added", "changed", "removed"))
    shown = new_models[:LISTED_IDS]
    listed = ", ".join(shown) + (", ..." if len(new_models) > len(shown) else "")
    return (
        f"Against the release before it ({previous}), this release adds {added} rows, changes "
        f"{changed} and removes {removed}; it prices {fmt_count(len(new_models))} models the "
        f"previous release did not{f' ({listed})' if shown else ''}; new providers: "
        f"{fmt_count(len(new_providers))}"
        f"{' (' + ', '.join(new_providers) + ')' if new_providers else ''}."
    )


def moved(vintage: pl.DataFrame, share: float = MOVED) -> pl.DataFrame:
    """Estimates of the newest release that moved by more than `share` from the release before."""
    newest = vintage.filter(pl.col("data_version") == vintage["data_version"].max())
    return newest.filter((pl.col("change_ratio") - 1).abs() > share)


def releases_up_to(version: str) -> list[str]:
    """The released versions up to `version`, oldest first: a pinned older rendering shows the
    history up to it."""
    names = [r.version for r in data.releases()]
    return names[: names.index(version) + 1]


def release_table(names: list[str]) -> pl.DataFrame:
    """version, released and description of the releases `names`, oldest first."""
    return pl.DataFrame(
        [
            {
                "version": r.version,
                "released": r.released,
                # immutable text written with ids: the reader sees display names
                "description": in_text(r.description),
            }
            for r in data.releases()
            if r.version in names
        ]
    )


def release_changes(version: str) -> pl.DataFrame:
    """Rows added, changed and removed per table and source from the release before `version`
    (`analysis.data.changes.changes`; empty for the first release)."""
    previous = changes.previous_release(version)
    if previous is None:
        return pl.DataFrame(schema=changes.CHANGE_SCHEMA)
    return _changes(previous, version, cache.releases_fingerprint([previous, version]))


@cached  # every row of two releases compared: the page's table and `compute` reuse one result
def _changes(previous: str, version: str, _descriptors: dict[str, str]) -> pl.DataFrame:
    """`changes.changes(previous, version)`, keyed to both releases' descriptors."""
    return changes.changes(previous, version)


@memo
@cached  # on disk too: the second output format, and later renders, reuse the result
def _compute(version: str) -> DataVersions:
    names = releases_up_to(version)
    releases = release_table(names)
    previous = changes.previous_release(version)
    table = release_changes(version)
    vintage = vintages.vintages(names)
    new_models = changes.new_ids(previous, version, "model_id") if previous else []
    new_providers = changes.new_ids(previous, version, "provider") if previous else []
    q = Quotes(
        SLUG,
        {
            "version": Quote(version),
            "n_releases": Quote(len(names), "count"),
            "first_release": Quote(names[0]),
            "changed": Quote(
                change_sentence(
                    previous,
                    table,
                    [display_name("model", m, version) for m in new_models],
                    [display_name("provider", p) for p in new_providers],
                )
            ),
            "moved_share": Quote(MOVED, "share"),
            "n_moved": Quote(moved(vintage).height, "count"),
            "n_estimates": Quote(vintage.filter(pl.col("data_version") == version).height, "count"),
        },
    )
    return DataVersions(version, releases, table, vintage, q)


def compute(version: str | None = None) -> DataVersions:
    return _compute(results.version(version))
