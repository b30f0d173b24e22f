"""The tier rule of tests/conftest.py: a test that runs a page carries `book`."""

from __future__ import annotations

import os
import re
from pathlib import Path

import conftest
import pytest

from analysis.data import cache

# A direct way into a kernel or a build; tests that reach pages through a fixture are tiered by
# the fixture (conftest.BOOK_FIXTURES).
RUNS_PAGES = re.compile(
    r"\b(?:chapters\.execute|notebook\.execute|build_preview|build_book|run_nbval|NotebookClient)\("
)


def test_every_file_that_runs_pages_directly_is_a_book_file():
    runs = {
        path.relative_to(conftest.TESTS).as_posix()
        for path in conftest.TESTS.rglob("test_*.py")
        if RUNS_PAGES.search(path.read_text(encoding="utf-8"))
    }
    assert runs - {"test_tiers.py"} <= conftest.BOOK_FILES, runs - conftest.BOOK_FILES


def test_the_listed_files_and_tests_exist():
    listed = conftest.BOOK_FILES | conftest.BROWSER_FILES | conftest.SLOW_FILES
    for name in listed | conftest.OWN_RUN_FILES:
        assert (conftest.TESTS / name).is_file(), f"tests/{name} is listed in conftest but gone"
    for node in conftest.SLOW_TESTS:
        name, function = node.split("::")
        text = (conftest.TESTS / name).read_text(encoding="utf-8")
        assert f"def {function.split('[')[0]}(" in text, f"{node} is listed as slow but gone"


def test_markers_come_from_the_file_and_the_fixtures():
    tests = conftest.TESTS
    assert conftest.tiers(tests / "methods" / "test_trends.py", {"tmp_path"}) == set()
    assert conftest.tiers(tests / "book" / "test_typst.py", {"preview_site"}) == {"book"}
    assert conftest.tiers(tests / "book" / "test_site_browser.py", set()) == {"book", "browser"}
    assert conftest.tiers(tests / "data" / "test_inputs.py", {"sources_dir"}) == {"sources"}
    slow = "test_rebuilding_from_the_pinned_inputs_reproduces_the_latest_release"
    assert conftest.tiers(tests / "data" / "test_release.py", set(), slow) == {"slow"}
    assert conftest.tiers(tests / "data" / "test_release.py", set(), "test_info_command") == set()
    # A parametrized case: the whole function when it is listed, else only the listed case.
    assert conftest.tiers(tests / "data" / "test_release.py", set(), f"{slow}[x]") == {"slow"}
    consistency = tests / "chapters" / "test_claims_consistency.py"
    verdict = "test_every_page_words_the_ledgers_verdict"
    assert conftest.tiers(consistency, set(), f"{verdict}[data-versions]") == {"slow"}
    assert conftest.tiers(consistency, set(), f"{verdict}[token-prices]") == set()


def test_the_tests_of_the_preview_share_one_worker_and_the_others_go_by_file():
    tests = conftest.TESTS
    preview = conftest.PREVIEW_GROUP
    assert conftest.worker_group(tests / "book" / "test_typst.py", {"preview_site"}) == preview
    assert conftest.worker_group(tests / "book" / "test_notebook.py", {"executed_page"}) == preview
    older = tests / "book" / "test_older_releases.py"
    assert conftest.worker_group(older, {"executed_page"}) == "book/test_older_releases.py"
    assert (
        conftest.worker_group(tests / "data" / "test_release.py", {"tmp_path"})
        == "data/test_release.py"
    )


class _Item:
    """What `longest_groups_first` reads of a collected test: its markers."""

    def __init__(self, name: str, *marks: str):
        self.name, self.marks = name, [pytest.mark.__getattr__(m).mark for m in marks]

    def iter_markers(self):
        return iter(self.marks)

    def __repr__(self):
        return self.name


def test_the_groups_go_to_the_workers_longest_first():
    fast = [_Item(f"fast{i}") for i in range(3)]
    small = _Item("small")
    slow = [_Item("slow0"), _Item("slow1", "slow")]
    older = _Item("older", "book")
    preview = [_Item("page", "book"), _Item("figures", "book")]
    groups = {**dict.fromkeys(fast, "data/test_a.py"), small: "data/test_b.py"}
    groups |= {**dict.fromkeys(slow, "data/test_c.py"), older: "book/test_older_releases.py"}
    groups |= dict.fromkeys(preview, conftest.PREVIEW_GROUP)
    collected = [fast[0], small, slow[0], preview[0], fast[1], older, slow[1], preview[1], fast[2]]
    ordered = conftest.longest_groups_first(collected, groups)
    assert [i.name for i in ordered] == [
        "page", "figures", "older", "slow0", "slow1", "fast0", "fast1", "fast2", "small",
    ]  # fmt: skip


def test_xdist_runs_each_group_on_one_worker(tmp_path):
    """The groups above reach pytest-xdist: under `--dist loadgroup` every test of a group runs on
    one worker, and xdist names it `<test>@<group>`.

    Two things broke this silently before (every test went to either worker, so the preview was
    built twice and a module's fixture once per worker): pytest 9.2 ignores xdist's renaming of a
    test (pytest-dev/pytest-xdist#1386; pyproject.toml keeps pytest below 9.2), and xdist renames
    in its own collection hook, so conftest's hook must run first (`tryfirst`)."""
    import subprocess
    import sys

    files = ["tests/report/test_quote.py", "tests/test_tiers.py"]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-v", "-p", "no:randomly",
         "-k", "not xdist_runs", "-p", "no:cacheprovider", *files],
        cwd=conftest.TESTS.parent, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:]
    ran = re.findall(r"^\[(gw\d)\] .*?PASSED (tests/(\S+?)::\S+?) *$", run.stdout, re.M)
    assert len(ran) > 10, run.stdout[-3000:]
    workers: dict[str, set[str]] = {}
    for worker, node, name in ran:
        assert node.endswith(f"@{name}"), f"{node}: xdist did not see its group {name}"
        workers.setdefault(name, set()).add(worker)
    assert all(len(w) == 1 for w in workers.values()), workers


def test_the_tests_share_one_result_cache_outside_the_project():
    """conftest's pytest_configure gives the session a result cache in a temporary folder, named
    after the process that made it; an xdist worker inherits its controller's, so both workers
    (and the kernels they start) read what either computed."""
    folder = Path(os.environ[cache.CACHE_DIR_ENV])
    assert not folder.resolve().is_relative_to(conftest.TESTS.parent), folder
    made_by = int(folder.name.split("-")[3])
    if os.environ.get("PYTEST_XDIST_WORKER"):
        assert made_by == os.getppid(), "a worker made its own cache folder"
    else:
        assert made_by == os.getpid()


def test_each_worker_runs_polars_on_one_thread():
    """conftest sets POLARS_MAX_THREADS (one thread, unless the developer set theirs) before
    polars is imported, or polars would ignore it: two workers on two cores."""
    import polars as pl

    wanted = int(os.environ.get("POLARS_MAX_THREADS", "0"))
    assert pl.thread_pool_size() == wanted, f"polars runs {pl.thread_pool_size()} threads"
