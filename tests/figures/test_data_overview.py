"""The data chapter's tables and coverage chart on small frames: what each prints and encodes."""

from __future__ import annotations

import re
from datetime import date

import polars as pl
import vl_convert as vlc

from analysis.figures import data_overview as fig


def cells(gt) -> list[str]:
    """The text of every header and body cell of a great_tables table."""
    html = gt.as_raw_html()
    found = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", html, re.S)
    return [re.sub(r"<[^>]+>", "", c).strip() for c in found]


def test_tables_table_prints_rows_with_separators_and_blank_missing_dates():
    summary = pl.DataFrame(
        {
            "table": ["token_prices", "sources"],
            "holds": ["a price", "a source"],
            "rows": [8063, 26],
            "first_date": ["2021-11-01", None],
            "last_date": ["2026-08-21", None],
            "sources": [9, 0],
        }
    )
    text = cells(fig.tables_gt(summary))
    assert {"Table", "What a row is", "Rows", "From", "To", "Sources"} <= set(text)
    assert {"8,063", "26", "2021-11-01"} <= set(text)
    assert "None" not in text


def test_coverage_chart_draws_one_strip_per_source_from_the_frame_it_is_given():
    coverage = pl.DataFrame(
        {
            "month": [date(2025, 1, 1), date(2025, 2, 1)],
            "source_id": ["a", "b"],
            "rows": pl.Series([3, 7], dtype=pl.UInt32),
        }
    )
    chart = fig.coverage_chart(coverage, "token prices")
    spec = chart.to_dict()
    assert spec["mark"]["type"] == "rect"
    assert spec["encoding"]["y"]["field"] == "source_id"  # the id, whole
    assert spec["encoding"]["color"]["scale"]["type"] == "log"
    assert spec["title"] == "Coverage of token prices by source"
    # the figure kit's CSV is this frame
    assert chart.data.equals(coverage)
    # A long id is drawn whole, on two lines broken after a hyphen (it was cut to 26 characters
    # with an ellipsis, which named no source).
    long = "hand-github.com-laisky-one-api-blob-6bf9cc9e36346ab28"
    wide = fig.coverage_chart(coverage.with_columns(pl.lit(long).alias("source_id")), "prices")
    svg = vlc.vegalite_to_svg(wide.to_dict())
    assert "…" not in svg
    assert ">hand-github.com-laisky-<" in svg and ">one-api-blob-6bf9cc9e36346ab28<" in svg


def test_sources_and_releases_tables_label_their_columns():
    sources = pl.DataFrame(
        {
            "source_id": ["tokencost", "unused"],
            "title": ["Tokencost", "Unused"],
            "licence": ["MIT", "CC-BY-4.0"],
            "retrieved": [date(2026, 11, 1), date(2026, 11, 2)],
            "tables": ["token_prices", None],
            "rows": [1234, None],
        }
    )
    text = cells(fig.sources_gt(sources))
    assert {"Source id", "Licence", "Retrieved", "Tables", "1,234"} <= set(text)
    assert "None" not in text
    releases = pl.DataFrame(
        {
            "version": ["2026-11-30"],
            "released": ["2026-11-30"],
            "description": ["First release"],
            "datapackage_sha256": ["c0b9"],
        }
    )
    text = cells(fig.releases_gt(releases))
    assert {"Version", "What changed", "sha256 of datapackage.json", "c0b9"} <= set(text)
