"""The fixed cost of `spells.curate_prices` (issue 23): each fold self-joins its input, so the
folds chained lazily nested into one plan of ~3,500 lines (`explain()`) that cost ~1.5 s of CPU
to optimise and run on any input, a few runs or a full build. The eager entry point collects
each fold's output, so no plan it collects is more than a few dozen lines. Counted by plan size,
not by time: a count does not depend on the machine's load."""

from __future__ import annotations

from datetime import date

import polars as pl
import price_runs

from analysis.data.curate import spells


def d(s: str) -> date:
    return date.fromisoformat(s)


# Two sources, a regional key at the seller's price, a cut and a price scheduled ahead: every
# fold and `mark_cancelled` has rows to read.
RUNS = [
    {"source_id": "pages", "date": d("2026-06-01"), "last_seen": d("2026-07-01"), "input_usd_per_mtok": 2.0},
    {"source_id": "pages", "date": d("2026-07-02"), "last_seen": d("2026-08-21"), "input_usd_per_mtok": 1.0},
    {"source_id": "pages", "date": d("2026-09-01"), "input_usd_per_mtok": 1.5},
    {"source_id": "library", "date": d("2026-06-01"), "last_seen": d("2026-08-01"), "input_usd_per_mtok": 2.0},
    {"source_id": "library", "region": "eu", "source_model_name": "eu.m", "date": d("2026-06-01"), "last_seen": d("2026-08-01"), "input_usd_per_mtok": 2.0},
]  # fmt: skip


def test_curate_prices_never_plans_the_folds_as_one_nested_query(monkeypatch):
    lines: list[int] = []
    collect = pl.LazyFrame.collect

    def counted(self, *args, **kwargs):  # the real collect, with the size of what it plans
        lines.append(len(self.explain().splitlines()))
        return collect(self, *args, **kwargs)

    monkeypatch.setattr(pl.LazyFrame, "collect", counted)
    table, _ = spells.curate_prices(
        price_runs.runs(RUNS, model="m", provider="google"), newest={"pages": d("2026-08-21")}
    )
    assert table.height >= 3  # the two prices in force and the scheduled one were curated
    assert lines and max(lines) < 200, sorted(lines)[-3:]
