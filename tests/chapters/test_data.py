"""The data chapter: every count and span it prints, checked against the release's CSV files read
with the standard library's csv module (not through the loader the chapter uses); its frames on
small hand-made tables; and the page itself (every `{python} ...` names a quote, every quote is
printed, the setup cell is a few lines)."""

from __future__ import annotations

import csv
import json
from datetime import date

import pytest

from analysis.chapters import data as chapter
from analysis.data import info as datainfo
from analysis.data import release as data
from analysis.data.paths import ROOT

PINNED = "2026-11-30"  # the release the exact-text examples were read from


@pytest.fixture(scope="module")
def c() -> chapter.DataChapter:
    return chapter.compute()


def csv_rows(table: str, version: str) -> list[dict]:
    path = ROOT / "data" / version / f"{table}.csv"
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


# --- the page -----------------------------------------------------------------------------------


def test_compute_is_cached_per_version(c):
    assert chapter.compute() is c
    assert chapter.compute(c.version) is c


# --- the numbers, from the CSV files ------------------------------------------------------------


# Rows of these tables, as the prose counts them: quote name -> table.
ROW_COUNTS = {
    "n_token_prices": "token_prices",
    "n_gpu_prices": "gpu_hour_prices",
    "n_scores": "benchmark_scores",
    "n_mlperf": "mlperf_results",
    "n_claims": "claims",
    "n_sources": "sources",
}
# The token-price sources whose months the prose states: quote name -> source id.
SPANS = {
    "span_epoch": "epoch-llm-price-trends",
    "span_tokencost": "tokencost",
    "span_litellm": "litellm-rocry",
    "span_openrouter": "openrouter-sui414",
}


def test_row_counts_are_the_csv_files_rows(c):
    for name, table in ROW_COUNTS.items():
        assert c.q[name].value == len(csv_rows(table, c.version)), name


def test_distinct_counts_are_the_csv_files_distinct_values(c):
    prices = csv_rows("token_prices", c.version)
    assert c.q.n_models_priced.value == len({r["model_id"] for r in prices})
    assert c.q.n_providers.value == len({r["provider"] for r in prices})
    gpus = csv_rows("gpu_hour_prices", c.version)
    assert c.q.n_gpus.value == len({r["gpu"] for r in gpus})
    scores = csv_rows("benchmark_scores", c.version)
    assert c.q.n_benchmarks.value == len({r["benchmark"] for r in scores})
    models = csv_rows("models", c.version)
    assert c.q.n_models.value == len(models)
    assert c.q.n_unresolved.value == sum(r["resolved"] == "false" for r in models)


def test_spans_are_the_first_and_last_date_of_each_sources_prices(c):
    prices = csv_rows("token_prices", c.version)
    for name, source_id in SPANS.items():
        dates = sorted(date.fromisoformat(r["date"]) for r in prices if r["source_id"] == source_id)
        assert c.q[name].value == (dates[0], dates[-1]), name


def test_versions_and_citation(c):
    releases = json.loads((ROOT / "data" / "versions.json").read_text(encoding="utf-8"))
    assert c.releases["version"].to_list() == [r["version"] for r in releases["releases"]]
    assert c.releases.columns == chapter.RELEASE_COLUMNS
    assert c.q.latest_version.text == data.latest_version()
    assert c.q.version.text == c.version
    assert c.q.citation.text == data.citation(c.version)


def test_tables_summary_is_the_info_report(c):
    report = datainfo.info(c.version)
    assert c.summary["table"].to_list() == [t["table"] for t in report["tables"]]
    assert c.summary["rows"].to_list() == [t["rows"] for t in report["tables"]]
    assert c.summary.columns == ["table", "holds", "rows", "first_date", "last_date", "sources"]


def test_source_rows_add_up_every_table_a_source_feeds(c):
    counts: dict[str, int] = {}
    tables: dict[str, set[str]] = {}
    for path in sorted((ROOT / "data" / c.version).glob("*.csv")):
        rows = csv_rows(path.stem, c.version)
        if path.stem == "sources" or not rows or "source_id" not in rows[0]:
            continue
        for r in rows:
            counts[r["source_id"]] = counts.get(r["source_id"], 0) + 1
            tables.setdefault(r["source_id"], set()).add(path.stem)
    for row in c.sources.iter_rows(named=True):
        assert row["rows"] == counts.get(row["source_id"]), row["source_id"]
        expected = ", ".join(sorted(tables[row["source_id"]])) if row["rows"] else None
        assert row["tables"] == expected, row["source_id"]
    assert c.sources.height == len(csv_rows("sources", c.version))


# --- as the page prints them --------------------------------------------------------------------


def test_counts_and_spans_read_in_the_house_format_on_the_pinned_release():
    q = chapter.compute(PINNED).q
    assert (q.n_token_prices.text, q.n_models.text, q.n_claims.text) == ("8,063", "1,511", "26")
    assert q.span_epoch.text == "November 2021 to February 2025"
    assert q.span_openrouter.text == "July 2026 to August 2026"
    assert q.citation._repr_markdown_().startswith(r"The Economics of AI Inference: data, data")
    assert r"\(released 2026-11-30\)" in q.citation._repr_markdown_()
