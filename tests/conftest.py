"""Shared test fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.data.paths import SHARED_SOURCES


@pytest.fixture(scope="session")
def sources_dir() -> Path:
    """The raw public sources beside the clone; tests that need them skip where they are absent."""
    if not SHARED_SOURCES.exists():
        pytest.skip(f"raw sources not found at {SHARED_SOURCES} (only build machines have them)")
    return SHARED_SOURCES
