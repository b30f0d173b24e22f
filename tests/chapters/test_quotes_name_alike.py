"""A chapter's quotes are the same whatever display-name lookup the charts have installed.

The charts name ids through the lookup a page's kernel installs (`analysis.book.show` calls
`theme.use_names`); a quote that went through it read `GB200` in a process that had not imported
the page helpers and `NVIDIA GB200` in one that had, and the result cache kept whichever came
first. Chapters name what they quote through `analysis.report.names` instead. Before that, 25
quotes of tokens-per-dollar and gpu-hour-prices differed here.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import analysis.chapters
from analysis.figures import theme
from analysis.report import names


def chapters_that_compute_alone() -> list[str]:
    """Every chapter module whose `compute` needs no argument (the claims ledger's takes the
    evidence the registry collects; its quotes are read from the other chapters')."""
    found = []
    for info in pkgutil.iter_modules(analysis.chapters.__path__):
        compute = getattr(
            importlib.import_module(f"analysis.chapters.{info.name}"), "compute", None
        )
        needs = (
            [p for p in inspect.signature(compute).parameters.values() if p.default is p.empty]
            if compute
            else [None]
        )
        if not needs:
            found.append(info.name)
    return found


CHAPTERS = chapters_that_compute_alone()


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_quotes_do_not_depend_on_the_charts_name_lookup(chapter, monkeypatch):
    monkeypatch.setenv("BOOK_NO_CACHE", "1")  # compute both times, not from the result cache
    module = importlib.import_module(f"analysis.chapters.{chapter}")
    texts = []
    for lookup in (theme.no_names, names.display_name):
        theme.use_names(lookup)
        for value in vars(module).values():  # in-process memos of the chapter's own helpers
            if hasattr(value, "cache_clear"):
                value.cache_clear()
        texts.append({key: str(quote) for key, quote in module.compute().q.items()})
    theme.use_names(theme.no_names)
    differ = {k: (v, texts[1].get(k)) for k, v in texts[0].items() if v != texts[1].get(k)}
    assert not differ, f"{chapter}: quotes that follow the charts' lookup: {differ}"
