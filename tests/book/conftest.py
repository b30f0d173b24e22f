"""Fixtures shared by the book tests."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from analysis import data
from analysis.book import build, deps
from analysis.book import notebook as chapters
from analysis.data.paths import ROOT

REUSE_ENV = "BOOK_TEST_PREVIEW"  # a built preview folder to reuse instead of building one


class PageRuns:
    """Each page of the book executed at most once per test session, shared by the tests that
    read it: `runs(qmd)` on the latest release, `runs(qmd, version)` on an older one.

    The latest release's runs are the offline preview's (the `preview_site` fixture builds it in
    this process and keeps every page's run), so the preview and the tests of each page share
    one execution; an older release's run is made on first request, with BOOK_DATA_VERSION set.
    """

    def __init__(self, request: pytest.FixtureRequest):
        self._request = request
        self.latest: dict[Path, chapters.ExecutedChapter] = {}
        self._older: dict[tuple[Path, str], chapters.ExecutedChapter] = {}

    def __call__(self, qmd: Path, version: str | None = None) -> chapters.ExecutedChapter:
        qmd = Path(qmd).resolve()
        if version is None:
            self._request.getfixturevalue("preview_site")  # fills self.latest
            if qmd not in self.latest:  # a reused preview (BOOK_TEST_PREVIEW): run it here
                self.latest[qmd] = chapters.execute(qmd)
            return self.latest[qmd]
        if (qmd, version) not in self._older:
            with pytest.MonkeyPatch.context() as env:
                env.setenv(data.VERSION_ENV, version)
                self._older[qmd, version] = chapters.execute(qmd)
        return self._older[qmd, version]


@pytest.fixture(scope="session")
def executed_page(request) -> PageRuns:
    return PageRuns(request)


@pytest.fixture(scope="session")
def preview_site(executed_page) -> Path:
    """The offline preview of the whole book (`python -m analysis book --preview-only`), built
    once per test session into `_preview/`, in this process; every page runs (its kept runs in
    `_deps/preview/` are removed first, as on a fresh clone), and each run is kept in
    `executed_page` for the tests of that page.

    Set BOOK_TEST_PREVIEW to a built preview folder to reuse it while working on these tests.
    """
    reuse = os.environ.get(REUSE_ENV)
    if reuse:
        return Path(reuse).resolve()
    shutil.rmtree(deps.Store(ROOT, deps.PREVIEW).dir, ignore_errors=True)
    console = Console(file=io.StringIO(), width=200)
    code = build.build_preview(ROOT, console=console, executed=executed_page.latest)
    assert code == 0, f"the preview did not build:\n{console.file.getvalue()[-4000:]}"
    return ROOT / "_preview"
