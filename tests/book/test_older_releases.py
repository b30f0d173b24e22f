"""Every page still renders from an older release (`BOOK_DATA_VERSION`), and leaves out, with a
notice saying why, exactly the parts that release cannot show; on every older release, each
section's verdict (left out or shown) is the one its release calls for.

Every real page runs on the oldest release (2026-11-30, which, like 2026-12-01, predates the
autumn-2026 sources of 2026-12-01.2); the parts left out are dropped by the preview's rule
(`build.leave_out_sections`, the same rule `left-out.lua` applies under Quarto, see
test_left_out.py), and no placeholder quote may be left in what remains. The pages run on one
older release only: a page run costs seconds of kernel start and imports, and what differs from
one older release to another is which sections each can show, which every `left_out.Needs` of
the analysis decides without running a page (docs/releases.md, "Older releases in the tests").
The estimate registry runs on every release in tests/report/test_vintages.py.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

import analysis
from analysis import data
from analysis.book import build
from analysis.book import notebook as chapters
from analysis.data import cut
from analysis.data.paths import ROOT
from analysis.report import left_out
from analysis.report.quote import PLACEHOLDER

OLDER = [r.version for r in data.releases()][:-1]
EXECUTED_OLDER = OLDER[0]  # the oldest release: every page runs on it
PAGES = chapters.book_files(ROOT)
FIRST_WITH_NEW_SOURCES = "2026-12-01.2"

# What each page leaves out on a release before FIRST_WITH_NEW_SOURCES: the sections (by
# their heading's id) that must show only a notice, or "page" for a whole page.
LEFT_OUT = {
    "price-war.qmd": "page",
    "workload-costs.qmd": "page",  # it bills at the autumn-2026 prices and time-of-use cards
    "tokens-per-dollar.qmd": {
        "sec-tokens-per-dollar-v6",
        "sec-tokens-per-dollar-inferencemax",
        "sec-tokens-per-dollar-training",
        "sec-tokens-per-dollar-digest-claims",
    },
    "claims-ledger.qmd": {
        "sec-claims-ledger-memo",
        "sec-claims-ledger-agent",
        "sec-claims-ledger-deepseek",
    },
    "fixed-capability.qmd": {"sec-fixed-capability-2026"},
    "quality-adjusted.qmd": {"sec-quality-adjusted-2026"},
}
# Sections whose table came after the autumn-2026 sources, with the first release that holds it
# (from data/versions.json's descriptions): the leaderboard runs' token counts, table
# aa_index_runs, first cut in 2026-12-04.
FIRST_WITH_LATER_TABLES = {
    "analysis.chapters.workload_costs.LEADERBOARD_NEEDS": "2026-12-04",
}

_HEADING_ID = re.compile(r"(?m)^#{1,6} .*\{#([\w-]+)\}")


@pytest.mark.parametrize("version", [EXECUTED_OLDER])
@pytest.mark.parametrize("qmd", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_a_page_renders_from_an_older_release_leaving_out_only_what_it_predates(
    qmd, version, executed_page
):
    result = executed_page(qmd, version)
    kept = build.leave_out_sections(result.notebook.cells)
    notices = [n for c in kept if c.cell_type == "code" and (n := build.left_out_notice(c))]
    prose = "\n".join(c.source for c in kept if c.cell_type == "markdown")
    shown = chapters.INLINE_EXPRESSION.sub(lambda m: result.inline[m.group(1)], prose)
    assert PLACEHOLDER not in shown, f"{qmd.name} on {version}: a placeholder reached the page"

    # Releases from FIRST_WITH_NEW_SOURCES on (2026-12-01.2 is older than the latest since
    # 2026-12-01.3) have the autumn-2026 tables: nothing is left out of them.
    predates = cut.version_key(version) < cut.version_key(FIRST_WITH_NEW_SOURCES)
    expected = LEFT_OUT.get(qmd.name, set()) if predates else set()
    source_ids = set(_HEADING_ID.findall(qmd.read_text(encoding="utf-8")))
    kept_ids = set(_HEADING_ID.findall(prose))
    if expected == "page":
        assert len(notices) == 1 and kept_ids == set(), f"{qmd.name}: the page is left out"
    else:
        assert len(notices) == len(expected), f"{qmd.name} on {version}: {notices}"
        # A left-out section keeps its heading (and the notice under it) but nothing else.
        assert kept_ids == source_ids, f"{qmd.name}: headings lost {source_ids - kept_ids}"
    for notice in notices:
        assert notice.startswith(f"Data version {version} "), notice
        assert f"BOOK_DATA_VERSION={FIRST_WITH_NEW_SOURCES}" in notice, notice


def test_the_pages_run_on_an_older_release_that_leaves_sections_out():
    assert cut.version_key(EXECUTED_OLDER) < cut.version_key(FIRST_WITH_NEW_SOURCES)


def _needs_of_the_analysis() -> dict[str, left_out.Needs]:
    """Every `left_out.Needs` the analysis package holds at module level (alone or in a dict),
    by where it is found."""
    found = {}
    for info in pkgutil.walk_packages(analysis.__path__, "analysis."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            values = value.items() if isinstance(value, dict) else [(None, value)]
            for key, needs in values:
                if isinstance(needs, left_out.Needs):
                    found[f"{info.name}.{name}" + (f"[{key!r}]" if key else "")] = needs
    return found


@pytest.mark.parametrize("version", OLDER)
def test_each_section_is_left_out_on_an_older_release_exactly_when_it_predates_the_sources(
    version,
):
    needs = _needs_of_the_analysis()
    # LEFT_OUT's ten sections have eight Needs of their own (read from the chapters: the digest
    # claims of tokens-per-dollar and quality-adjusted's 2026 section reuse others').
    assert len(needs) >= 8, sorted(needs)
    for where, one in needs.items():
        first = FIRST_WITH_LATER_TABLES.get(where, FIRST_WITH_NEW_SOURCES)
        why = left_out.reason(one, version)
        if cut.version_key(version) >= cut.version_key(first):
            assert why is None, f"{where} on {version}: {why}"
            continue
        assert why is not None, f"{where}: {version} predates {first}, yet it is shown"
        assert why.startswith(f"Data version {version} "), why
        assert f"BOOK_DATA_VERSION={first}" in why, why


def test_a_section_with_a_later_first_release_names_a_release_in_the_index():
    releases = [r.version for r in data.releases()]
    assert set(FIRST_WITH_LATER_TABLES.values()) <= set(releases), FIRST_WITH_LATER_TABLES
    assert set(FIRST_WITH_LATER_TABLES) <= set(_needs_of_the_analysis()), FIRST_WITH_LATER_TABLES
