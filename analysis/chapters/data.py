"""What the "The data" chapter shows: the tables of a release, their sources, which months each
source covers, the released versions, and every count the prose quotes."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analysis.data import info as datainfo
from analysis.data import release as data
from analysis.data.cache import cached
from analysis.data.reads import memo
from analysis.data.schema import TABLES
from analysis.methods import coverage
from analysis.report import results
from analysis.report.names import in_text
from analysis.report.quote import Quote, Quotes

SLUG = "data"

RELEASE_COLUMNS = ["version", "released", "description", "datapackage_sha256"]


@dataclass(frozen=True)
class DataChapter:
    version: str
    summary: pl.DataFrame  # tables_summary: the tables table
    sources: pl.DataFrame  # source_rows: the sources table
    releases: pl.DataFrame  # release_rows: the versions table
    token_coverage: pl.DataFrame  # monthly_coverage of token_prices
    gpu_coverage: pl.DataFrame  # monthly_coverage of gpu_hour_prices
    benchmark_coverage: pl.DataFrame  # monthly_coverage of benchmark_scores
    q: Quotes


# ------------------------------------------------------------------ frames


def tables_summary(report: dict) -> pl.DataFrame:
    """One row per table of `analysis.data.info.info`'s report: what a row is, rows, first and
    last date, number of sources."""
    rows = [
        {
            "table": t["table"],
            "rows": t["rows"],
            "first_date": t["first_date"],
            "last_date": t["last_date"],
            "sources": len(t["sources"]),
            "holds": TABLES[t["table"]].description,
        }
        for t in report["tables"]
    ]
    return pl.DataFrame(rows).select("table", "holds", "rows", "first_date", "last_date", "sources")


def release_rows(releases: list[data.Release]) -> pl.DataFrame:
    """One row per released version, its description (immutable, written with ids) shown with
    display names (`in_text`); versions.json keeps the text as released."""
    return (
        pl.DataFrame([r.__dict__ for r in releases])
        .select(RELEASE_COLUMNS)
        .with_columns(pl.col("description").map_elements(in_text, return_dtype=pl.String))
    )


# ------------------------------------------------------------------ quotes


def quotes(
    v: str,
    latest_version: str,
    summary: pl.DataFrame,
    tables: dict[str, pl.DataFrame],
    citation: str,
) -> Quotes:
    """Every value the chapter's prose prints (`tables`: the release's tables by name)."""
    rows = dict(zip(summary["table"], summary["rows"], strict=True))
    token_prices, models = tables["token_prices"], tables["models"]
    return Quotes(
        SLUG,
        {
            "version": Quote(v, "text"),
            "latest_version": Quote(latest_version, "text"),
            "n_token_prices": Quote(rows["token_prices"], "count"),
            "n_gpu_prices": Quote(rows["gpu_hour_prices"], "count"),
            "n_scores": Quote(rows["benchmark_scores"], "count"),
            "n_mlperf": Quote(rows["mlperf_results"], "count"),
            "n_claims": Quote(rows["claims"], "count"),
            "n_sources": Quote(rows["sources"], "count"),
            "n_models_priced": Quote(token_prices["model_id"].n_unique(), "count"),
            "n_providers": Quote(token_prices["provider"].n_unique(), "count"),
            "n_gpus": Quote(tables["gpu_hour_prices"]["gpu"].n_unique(), "count"),
            "n_benchmarks": Quote(tables["benchmark_scores"]["benchmark"].n_unique(), "count"),
            "n_unresolved": Quote(models.filter(~pl.col("resolved")).height, "count"),
            "n_models": Quote(models.height, "count"),
            # The token-price sources whose months the prose states.
            "span_epoch": Quote(
                coverage.source_span(token_prices, "epoch-llm-price-trends"), "month"
            ),
            "span_tokencost": Quote(coverage.source_span(token_prices, "tokencost"), "month"),
            "span_litellm": Quote(coverage.source_span(token_prices, "litellm-rocry"), "month"),
            "span_openrouter": Quote(
                coverage.source_span(token_prices, "openrouter-sui414"), "month"
            ),
            "citation": Quote(citation, "text"),
        },
    )


# ------------------------------------------------------------------ the chapter


def compute(version: str | None = None) -> DataChapter:
    """The chapter on data version `version` (None: the current one)."""
    return _compute(results.version(version))


@memo
def release_tables(version: str) -> dict[str, pl.DataFrame]:
    """Every table of a release by name, as released: the data chapter describes the whole
    release, flagged rows included."""
    return {name: data.load(name, version) for name in datainfo.tables_in(version)}


def with_sources(tables: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """The tables whose rows name a source (`source_id`), the `sources` table itself left out."""
    return {
        name: df
        for name, df in tables.items()
        if "source_id" in TABLES[name].column_names and name != "sources"
    }


@memo
@cached  # on disk too: the second output format, and later renders, reuse the result
def _compute(v: str) -> DataChapter:
    tables = release_tables(v)
    summary = tables_summary(datainfo.info(v))
    return DataChapter(
        version=v,
        summary=summary,
        sources=coverage.source_rows(tables["sources"], with_sources(tables)),
        releases=release_rows(data.releases()),
        token_coverage=coverage.monthly_coverage(tables["token_prices"]),
        gpu_coverage=coverage.monthly_coverage(tables["gpu_hour_prices"]),
        benchmark_coverage=coverage.monthly_coverage(tables["benchmark_scores"]),
        q=quotes(v, data.latest_version(), summary, tables, data.citation(v)),
    )
