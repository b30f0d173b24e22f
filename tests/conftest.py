"""Shared test fixtures, and the tiers every test falls in.

Tiers (pytest markers, registered in pyproject.toml): `book` runs a page or a notebook in a
kernel, or builds the book or its preview; `browser` drives chromium; `slow` takes more than a
few seconds for another reason; `sources` needs ../shared/sources. `make test-fast` runs
everything but `book`, `browser` and `slow`; `make test` runs everything.

The markers are given here, from the file a test lives in or the fixtures it uses, so a new test
of a page-running file is tiered without a decorator; `tests/test_tiers.py` checks the rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from analysis.__main__ import main
from analysis.data.paths import SHARED_SOURCES

TESTS = Path(__file__).resolve().parent

# Files whose every test runs a page (a real chapter or a tiny one) in a kernel or builds a book.
BOOK_FILES = {
    "book/test_build.py",
    "book/test_deps.py",
    "book/test_notebook.py",
    "book/test_older_releases.py",
    "book/test_rendered_figures.py",
    "book/test_site_browser.py",
}
# Fixtures that run pages: any test using one is a `book` test, wherever it lives.
BOOK_FIXTURES = {"preview_site", "executed_page", "book_tables"}
BROWSER_FILES = {"book/test_site_browser.py"}
# Slow for another reason than running pages (measured with --durations; see docs/benchmarks.md).
SLOW_FILES: set[str] = set()


def tiers(path: Path, fixtures: set[str]) -> set[str]:
    """The markers a test gets from its file (relative to tests/) and the fixtures it uses."""
    name = path.resolve().relative_to(TESTS).as_posix()
    found = set()
    if name in BOOK_FILES or fixtures & BOOK_FIXTURES:
        found.add("book")
    if name in BROWSER_FILES:
        found.add("browser")
    if name in SLOW_FILES:
        found.add("slow")
    if "sources_dir" in fixtures:
        found.add("sources")
    return found


def pytest_collection_modifyitems(config, items):
    for item in items:
        for marker in sorted(tiers(Path(item.path), set(item.fixturenames))):
            item.add_marker(marker)


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
