"""Fixtures shared by the book tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.data.paths import ROOT

REUSE_ENV = "BOOK_TEST_PREVIEW"  # a built preview folder to reuse instead of building one


@pytest.fixture(scope="session", autouse=True)
def own_result_cache(tmp_path_factory):
    """The book tests (and the chapters they run) keep results in a cache of their own, so they
    neither read nor fill the project's `_cache/`."""
    from analysis.data import cache

    before = os.environ.get(cache.CACHE_DIR_ENV)
    os.environ[cache.CACHE_DIR_ENV] = str(tmp_path_factory.mktemp("result-cache"))
    yield
    if before is None:
        os.environ.pop(cache.CACHE_DIR_ENV, None)
    else:
        os.environ[cache.CACHE_DIR_ENV] = before


@pytest.fixture(scope="session")
def preview_site() -> Path:
    """The offline preview of the whole book (`python -m analysis book --preview-only`), built
    once per test session into `_preview/` (about a minute: every chapter runs).

    Set BOOK_TEST_PREVIEW to a built preview folder to reuse it while working on these tests.
    """
    reuse = os.environ.get(REUSE_ENV)
    if reuse:
        return Path(reuse).resolve()
    done = subprocess.run(
        [sys.executable, "-m", "analysis", "book", "--preview-only"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, f"the preview did not build:\n{done.stderr[-4000:]}"
    return ROOT / "_preview"
