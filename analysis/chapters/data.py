"""What the "The data" chapter shows: the tables of a release, their sources, which months each
source covers, the released versions, and every count the prose quotes."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import polars as pl

from analysis.data import info as datainfo
from analysis.data import release as data
from analysis.data.cache import cached
from analysis.data.schema import TABLES
from analysis.report import results
from analysis.report.quote import Quote, Quotes

SLUG = "data"

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


def source_rows(sources: pl.DataFrame, tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """One row per source: title, licence, retrieval date, the tables it feeds and its rows in
    them (`tables`: every table with a `source_id`, by name)."""
    counts = pl.concat(
        [
            df.group_by("source_id").len("rows").with_columns(pl.lit(name).alias("table"))
            for name, df in tables.items()
        ]
    )
    used = counts.group_by("source_id").agg(
        pl.col("rows").sum(), pl.col("table").unique().sort().str.join(", ").alias("tables")
    )
    return (
        sources.join(used, on="source_id", how="left")
        .select("source_id", "title", "licence", "retrieved", "tables", "rows")
        .sort("source_id")
    )


def release_rows(releases: list[data.Release]) -> pl.DataFrame:
    """One row per released version."""
    return pl.DataFrame([r.__dict__ for r in releases]).select(RELEASE_COLUMNS)


def monthly_coverage(df: pl.DataFrame, date_col: str = "date") -> pl.DataFrame:
    """Rows per calendar month and source."""
    return (
        df.filter(pl.col(date_col).is_not_null())
        .with_columns(pl.col(date_col).dt.truncate("1mo").alias("month"))
        .group_by("month", "source_id")
        .len("rows")
        .sort("month", "source_id")
    )


def source_span(df: pl.DataFrame, source_id: str) -> tuple:
    """(first, last) date of the rows of one source."""
    dates = df.filter(pl.col("source_id") == source_id)["date"]
    if dates.is_empty():
        raise LookupError(f"no rows from source {source_id!r}")
    return dates.min(), dates.max()


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
    q = Quotes(SLUG)
    q["version"] = Quote(v, "text")
    q["latest_version"] = Quote(latest_version, "text")
    for name, table in ROW_COUNTS.items():
        q[name] = Quote(rows[table], "count")
    q["n_models_priced"] = Quote(token_prices["model_id"].n_unique(), "count")
    q["n_providers"] = Quote(token_prices["provider"].n_unique(), "count")
    q["n_gpus"] = Quote(tables["gpu_hour_prices"]["gpu"].n_unique(), "count")
    q["n_benchmarks"] = Quote(tables["benchmark_scores"]["benchmark"].n_unique(), "count")
    q["n_unresolved"] = Quote(models.filter(~pl.col("resolved")).height, "count")
    q["n_models"] = Quote(models.height, "count")
    for name, source_id in SPANS.items():
        q[name] = Quote(source_span(token_prices, source_id), "month")
    q["citation"] = Quote(citation, "text")
    return q


# ------------------------------------------------------------------ the chapter


def compute(version: str | None = None) -> DataChapter:
    """The chapter on data version `version` (None: the current one)."""
    return _compute(results.version(version))


@cache
@cached  # on disk too: the second output format, and later renders, reuse the result
def _compute(v: str) -> DataChapter:
    # The data chapter describes the whole release: flagged rows included.
    tables = {name: data.load(name, v) for name in datainfo.tables_in(v)}
    summary = tables_summary(datainfo.info(v))
    with_sources = {
        name: df
        for name, df in tables.items()
        if "source_id" in TABLES[name].column_names and name != "sources"
    }
    return DataChapter(
        version=v,
        summary=summary,
        sources=source_rows(tables["sources"], with_sources),
        releases=release_rows(data.releases()),
        token_coverage=monthly_coverage(tables["token_prices"]),
        gpu_coverage=monthly_coverage(tables["gpu_hour_prices"]),
        benchmark_coverage=monthly_coverage(tables["benchmark_scores"]),
        q=quotes(v, data.latest_version(), summary, tables, data.citation(v)),
    )
