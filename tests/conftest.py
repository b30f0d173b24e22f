"""Shared test fixtures, and the tiers every test falls in.

Tiers (pytest markers, registered in pyproject.toml): `book` runs a page or a notebook in a
kernel, or builds the book or its preview; `browser` drives chromium; `slow` takes more than a
few seconds for another reason; `sources` needs ../shared/sources. `make test-fast` runs
everything but `book`, `browser` and `slow`; `make test` runs everything.

The markers are given here, from the file a test lives in or the fixtures it uses, so a new test
of a page-running file is tiered without a decorator; `tests/test_tiers.py` checks the rule.

`make test` runs the suite on two workers (pytest-xdist, `-n 2 --dist loadgroup`). Each test gets
an `xdist_group`: the tests that read the session's preview (and the page runs it keeps) share one
group, so the preview is built once and by one worker; every other test is grouped by its file,
so a module's or a session's fixture (a built release, a book of three pages) is built once per
file, as in a one-process run, and the files are shared out between the workers, the longest
groups first (`longest_groups_first`).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

# Two pytest-xdist workers share two cores: one polars thread each, or polars' pools (a thread
# per core in every worker and kernel) contend. Set before polars is first imported. Fast tier,
# measured 2026-12-04 one run after the other: 61.7 and 65.3 s wall with polars' own pool,
# 56.4 and 57.3 s with one thread (docs/benchmarks.md).
os.environ.setdefault("POLARS_MAX_THREADS", "1")

from analysis.__main__ import main
from analysis.data import cache
from analysis.data.paths import SHARED_SOURCES

TESTS = Path(__file__).resolve().parent

# Files whose every test runs a page (a real chapter or a tiny one) in a kernel or builds a book.
BOOK_FILES = {
    "book/test_blas_threads.py",
    "book/test_build.py",
    "book/test_deps.py",
    "book/test_not_available_page.py",
    "book/test_notebook.py",
    "book/test_older_releases.py",
    "book/test_rendered_figures.py",
    "book/test_site_browser.py",
}
# Fixtures that run pages: any test using one is a `book` test, wherever it lives.
BOOK_FIXTURES = {"preview_site", "executed_page", "book_tables"}
BROWSER_FILES = {"book/test_site_browser.py", "book/test_calculator_browser.py"}
# Files whose `executed_page` runs are their own (older releases, never the preview's).
OWN_RUN_FILES = {"book/test_older_releases.py"}
PREVIEW_GROUP = "preview"
SESSION_CACHE = pytest.StashKey[tuple]()  # (the cache folder before the session, the session's)
# Slow for another reason than running pages: over 5 s each, or 45 s for the file, in a
# `--durations=0` run of the fast tier at load 7 on 2 cores (docs/benchmarks.md, "Test tiers").
SLOW_FILES = {
    "data/test_malformed.py",  # ~25 cases, each a release built and broken
    "test_cli_errors.py",  # subcommands in real processes, pipe closed (175 s at load 12)
    # Measured 2026-12-02 (`--durations=60` of the fast tier, load 15 on 2 cores: 16.5 min wall,
    # 2m54s CPU); the tests below took 8-62 s each there, about 60% of the tier's time.
    "data/test_add.py",  # each case cuts a release with `data add`
    "data/test_update.py",  # its module fixture copies the sources and runs an update
    "data/test_frictionless.py",  # the reference validator over whole releases
    "data/test_new_data_survives.py",  # three `data add` releases, then every estimate (~115 s)
    "test_readme_walkthrough.py",  # the README's walkthrough run literally (~10 s CPU)
    # Every chapter computed twice with the result cache off: 38 s and 15 s for two of them
    # (quiet machine), 10 s for the other nine (2026-12-04, --junitxml of the fast tier: 9% of it).
    "chapters/test_quotes_name_alike.py",
}
SLOW_TESTS = {
    "data/test_release.py::test_rebuilding_from_the_pinned_inputs_reproduces_the_latest_release",
    "data/test_release.py::test_diff_counts_added_changed_and_removed_rows",
    "data/test_providers.py::test_no_source_dates_routes_folded_into_one_id_apart",
    "data/test_update.py::test_each_failing_source_gets_one_line_and_the_others_count",
    "data/test_update.py::test_update_from_the_sources_the_release_was_built_from_adds_nothing",
    "data/test_update.py::test_a_second_update_from_the_raw_store_finds_nothing_new",
    "data/importers/test_gpu_markets.py::test_real_sources_cover_many_gpus_and_four_windows",
    "report/test_vintages.py::test_command_prints_every_estimate_of_every_release",
    "chapters/test_data_versions.py::test_the_appendix_of_the_current_release",
    "methods/test_outlook.py::test_series_without_a_break_are_rejected_about_five_percent_of_the_time",
    "methods/test_outlook.py::test_ninety_percent_prediction_intervals_hold_about_ninety_percent_of_new_points",
    "data/importers/test_litellm.py::test_real_mirrors_give_thousands_of_prices_from_2024_to_2026",
    "data/importers/test_new_sources.py::test_each_importer_keeps_the_contract_on_the_real_sources",
    "data/importers/test_lmarena.py::test_real_elo_history_covers_2023_to_2025",
    "book/test_show.py::test_vega_bundle_is_written_once_and_defines_vega_embed",
    "chapters/test_claims_ledger.py::test_every_claim_has_exactly_one_evidence",
    "data/test_models.py::test_resolve_gives_every_spelling_of_a_name_one_id_on_60k_rows",
    "data/test_cache.py::test_a_fresh_process_finds_the_result",
    "report/test_published.py::test_reproduce_gundlach_prints_the_table_and_says_where_it_reads",
    "data/test_reads.py::test_a_result_from_the_disk_cache_still_records_what_it_was_made_from",
    "chapters/test_gpu_hour_prices.py::test_quotes_equal_what_gpu_prices_returns",
    "data/test_changes.py::test_one_row_added_changed_and_removed_each_under_its_source",
    # Measured 2026-12-03 (per-test CPU time of the fast tier in one process, 156 s in all):
    # the appendix's setup runs the estimate registry on every release (20 s CPU); its prose
    # words no verdict of its own. Every other page is still read in the fast tier.
    "chapters/test_claims_consistency.py::test_every_page_words_the_ledgers_verdict[data-versions]",
    # The same appendix read for the ledger's figures (20 s CPU with the session's cache cold,
    # measured 2026-12-04; it ran on the other case's computation before that case was slow).
    "chapters/test_claims_consistency.py::"
    "test_every_page_states_the_ledgers_figures_or_names_its_workload[data-versions]",
    # The same appendix's quotes (25 s CPU, measured 2026-12-04 the same way); every other
    # page's inline expressions are still checked in the fast tier.
    "chapters/test_pages_are_thin.py::"
    "test_every_inline_expression_names_a_quote_of_the_chapter_module[chapters/data-versions.qmd]",
    # Validates every release through `data validate` (~30 s under load); the fast tier still
    # validates each release once (data/test_release.py::test_every_release_is_unchanged_and_valid).
    "data/test_rules.py::test_the_data_root_is_validated_version_by_version",
    # Cached results computed cold with a cache of their own (measured 2026-12-04 in a full run
    # at load 4: 11.8 s, and 15 fits of visible cells; now the ledger's rows and evidence too);
    # the fast tier keeps the cache's own tests (data/test_cache.py) and the vintages and changes
    # cases of this file.
    "report/test_cached_results.py::test_workload_bills_hit_is_the_miss_and_a_changed_preset_is_a_miss",
    "report/test_cached_results.py::test_reused_results_are_read_from_disk_and_equal_a_fresh_one",
    # Two pytest-xdist workers in a subprocess (~5 s CPU).
    "test_tiers.py::test_xdist_runs_each_group_on_one_worker",
}


def pytest_addoption(parser):
    parser.addoption(
        "--screenshots",
        metavar="DIR",
        type=Path,
        help="the browser tests write a full-page screenshot of every page they check, at each "
        "width, and of each calculator step, into DIR, for a human to look at (none by default: "
        "they were over half of the site test's time)",
    )


@pytest.fixture(scope="session")
def screenshots(request) -> Path | None:
    """The folder given by --screenshots (created), or None: take no screenshots."""
    folder = request.config.getoption("screenshots")
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    return folder


def pytest_configure(config):
    """One result cache (analysis.data.cache) for the whole test session, in a temporary folder:
    the tests neither read nor fill the project's `_cache/` (a result made by other code there
    once passed a test it should have failed), and what one test computes (the estimate registry
    on every release, a shared fit) the others, the pages' kernels and the other pytest-xdist
    worker (which inherits this process's environment) read back. A test that needs an empty
    cache takes `cache_folder`."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller's folder, inherited
        return
    config.stash[SESSION_CACHE] = (os.environ.get(cache.CACHE_DIR_ENV), tempfile.mkdtemp(prefix=f"book-test-cache-{os.getpid()}-"))  # fmt: skip
    os.environ[cache.CACHE_DIR_ENV] = config.stash[SESSION_CACHE][1]


def pytest_unconfigure(config):
    before, folder = config.stash.get(SESSION_CACHE, (None, None))
    if folder is None:
        return
    shutil.rmtree(folder, ignore_errors=True)
    if before is None:
        os.environ.pop(cache.CACHE_DIR_ENV, None)
    else:
        os.environ[cache.CACHE_DIR_ENV] = before


def tiers(path: Path, fixtures: set[str], function: str = "") -> set[str]:
    """The markers a test gets from its file (relative to tests/), its function's name (or one
    parametrized case of it, `function[id]`) and the fixtures it uses."""
    name = path.resolve().relative_to(TESTS).as_posix()
    found = set()
    if name in BOOK_FILES or fixtures & BOOK_FIXTURES:
        found.add("book")
    if name in BROWSER_FILES:
        found.add("browser")
    whole = function.split("[")[0]
    if name in SLOW_FILES or {f"{name}::{function}", f"{name}::{whole}"} & SLOW_TESTS:
        found.add("slow")
    if "sources_dir" in fixtures:
        found.add("sources")
    return found


def worker_group(path: Path, fixtures: set[str]) -> str:
    """The pytest-xdist group of a test: the preview's, or its file's (relative to tests/)."""
    name = path.resolve().relative_to(TESTS).as_posix()
    if fixtures & BOOK_FIXTURES and name not in OWN_RUN_FILES:
        return PREVIEW_GROUP
    return name


# First: pytest-xdist reads the groups in its own collection hook (tests/test_tiers.py checks it).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    groups = {}
    for item in items:
        fixtures = set(item.fixturenames)
        for marker in sorted(tiers(Path(item.path), fixtures, item.name)):
            item.add_marker(marker)
        groups[item] = worker_group(Path(item.path), fixtures)
        item.add_marker(pytest.mark.xdist_group(groups[item]))
    items[:] = longest_groups_first(items, groups)


def longest_groups_first(items: list, groups: dict) -> list:
    """The tests in the order the workers should start their groups: the preview's first, then
    the other groups that run pages, then those with slow tests, then the rest, each by its
    number of tests (most first); the tests of a group keep their order.

    The Makefile runs pytest-xdist with --no-loadscope-reorder, so a worker takes the groups in
    this order. xdist's own order (by number of tests alone) put the few long tests of the
    preview, the older releases and the slow files last, where one worker ran them alone."""
    members: dict[str, list] = {}
    for item in items:
        members.setdefault(groups[item], []).append(item)

    def rank(group: str) -> tuple[int, int]:
        marks = {m.name for item in members[group] for m in item.iter_markers()}
        tier = (
            0 if group == PREVIEW_GROUP else 1 if "book" in marks else 2 if "slow" in marks else 3
        )
        return tier, -len(members[group])

    return [item for group in sorted(members, key=rank) for item in members[group]]


@dataclass
class CliRun:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def cli(capsys):
    """`python -m analysis ARGS...` in this process: `analysis.__main__.main(argv)` with its
    output captured (a subprocess costs seconds of imports each). A test whose point is the
    process itself (the module entry point, a real pipe) runs a subprocess instead."""

    def run(*args: str) -> CliRun:
        capsys.readouterr()  # what the test printed before is not the command's
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return CliRun(code, captured.out, captured.err)

    return run


@pytest.fixture(scope="session")
def sources_dir() -> Path:
    """The raw public sources beside the clone; tests that need them skip where they are absent."""
    if not SHARED_SOURCES.exists():
        pytest.skip(f"raw sources not found at {SHARED_SOURCES} (only build machines have them)")
    return SHARED_SOURCES


@pytest.fixture(autouse=True)
def figures_show_ids_unless_a_test_installs_names():
    """Importing analysis.book.show hands the figures the book's display names for the rest of
    the process (analysis.figures.theme.use_names); each test starts without them, so a test's
    labels do not depend on which tests ran before it in its worker. A test of the names
    installs them itself."""
    from analysis.figures import theme

    theme.use_names(theme.no_names)
    yield
    theme.use_names(theme.no_names)


@pytest.fixture
def cache_folder(monkeypatch, tmp_path) -> Path:
    """An empty result cache (analysis.data.cache) of the test's own, turned on."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_DIR_ENV, str(folder))
    monkeypatch.delenv(cache.DISABLE_ENV, raising=False)
    return folder
