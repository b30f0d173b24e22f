"""A page executed on a release too thin for one estimate says so (issue 21): the quote layer's
not-available path (analysis/report/quote.py, `Estimate.not_available`) through a real kernel."""

from __future__ import annotations

import json
import shutil
from datetime import date

import polars as pl

from analysis.book import notebook
from analysis.data import cut
from analysis.data import release as data
from analysis.data.paths import DATA_DIR
from analysis.report.quote import NOT_AVAILABLE


def test_a_page_on_a_release_too_thin_for_one_estimate_says_so(tmp_path, monkeypatch):
    """A scratch release, the latest without its GPU-hour prices of March 2024 (a test input:
    no release lacks them), is too thin for the GPU-hour hedonic index alone: its window rule
    (analysis/methods/windows.py, base month 2023-09) leaves the unbroken run from 2024-04,
    which does not hold the base. A page quoting that estimate, its interval and window, and
    another estimate, executes; the prose says the index is not available and why."""
    base = data.latest_version()
    root = tmp_path / "data"
    root.mkdir()
    shutil.copytree(DATA_DIR / base, root / base)
    rel = next(r for r in data.releases() if r.version == base)
    (root / "versions.json").write_text(json.dumps({"releases": [rel.__dict__]}))
    gp = data.load("gpu_hour_prices", base, root)
    march = pl.col("date").dt.truncate("1mo") == date(2024, 3, 1)
    assert gp.filter(march).height > 0  # the release has them; the scratch one does not
    cut.cut_version(
        {"gpu_hour_prices": gp.filter(~march)}, "test input", root, base=base, version="2099-01-01"
    )
    page = tmp_path / "thin.qmd"
    page.write_text(
        "---\ntitle: t\n---\n\n```{python}\n#| include: false\n"
        "from analysis.report import estimates\n"
        "from analysis.report.quote import Quotes\n"
        "q = Quotes('thin', {\n"
        "    'index': estimates.estimate('gpu-hedonic-index-latest', '2099-01-01'),\n"
        "    'decline': estimates.estimate('full-data-median-factor', '2099-01-01'),\n"
        "})\n```\n\n"
        "The index stood at `{python} q.index` (90% interval `{python} q.index.ci`, "
        "`{python} q.index.window`). `{python} q.index.statement` "
        "The median factor is `{python} q.decline`.\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("BOOK_DATA_DIR", str(root))
    monkeypatch.setenv("BOOK_NO_CACHE", "1")
    result = notebook.execute(page, root=tmp_path)
    said = {k: v.replace("\\", "") for k, v in result.inline.items()}  # Markdown escapes off
    why = "hedonic index: its base month 2023-09 is outside the window 2024-04 to"
    assert said["q.index"].startswith(f"{NOT_AVAILABLE} on data version 2099-01-01 ({why}")
    assert said["q.index.ci"] == said["q.index.window"] == NOT_AVAILABLE
    assert said["q.index.statement"].startswith(
        "The estimate gpu-hedonic-index-latest is not available on data version 2099-01-01"
    )
    assert said["q.decline"] != NOT_AVAILABLE and said["q.decline"].endswith("x")
