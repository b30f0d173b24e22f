"""The price-war figures draw what they are given, name their sources, and render offline."""

from __future__ import annotations

from datetime import date

import polars as pl
import vl_convert as vlc

from analysis.figures import price_war as fig


def _cuts() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "name": ["New A", "New B"],
            "previous_name": ["Old A", "Old B"],
            "date": [date(2026, 9, 23)] * 2,
            "blended": [4.0, 1.5],
            "previous_blended": [11.25, 1.5],
            "previous_since": [date(2026, 7, 9), date(2026, 8, 13)],
            "factor": [2.8125, 1.0],
            "days": [76, 38],
            "factor_per_year": [143.5, 1.0],
            "trend_factor_over_span": [1.6, 1.27],
            "verdict": ["faster than the trend", "no cut"],
            "source_id": ["tab-a", "tab-b"],
            "previous_source_id": ["mirror", "tab-b"],
        }
    )


def test_cuts_chart_has_both_prices_and_its_sources():
    spec = fig.cuts_chart(_cuts()).to_dict()
    values = next(iter(spec["datasets"].values()))
    assert sorted(v["usd"] for v in values) == [1.5, 1.5, 4.0, 11.25]
    # Each point carries its row's source id: the figure kit's source line reads them.
    assert sorted({v["source_id"] for v in values}) == ["mirror", "tab-a", "tab-b"]
    assert vlc.vegalite_to_svg(fig.cuts_chart(_cuts()).to_json()).startswith("<svg")


def test_cuts_table_shows_every_cut_and_verdict():
    html = fig.cuts_gt(_cuts()).as_raw_html()
    for text in ["New A", "Old B", "faster than the trend", "no cut", "2.81x", "144x", "$11.25"]:
        assert text in html


def test_heatmap_has_a_cell_per_hour_and_names_the_source():
    hourly = pl.DataFrame(
        {
            "day": [d for d in fig.DAY_NAMES for _ in range(24)],
            "hour_utc": list(range(24)) * 7,
            "peak": [h < 3 for _ in range(7) for h in range(24)],
            "price_per_mtok": [2.0 if h < 3 else 1.0 for _ in range(7) for h in range(24)],
        }
    )
    chart = fig.tou_heatmap_chart(hourly, "Model X", "card-source")
    spec = chart.to_dict()
    values = next(iter(spec["datasets"].values()))
    assert len(values) == 168
    assert {v["source_id"] for v in values} == {"card-source"}
    assert vlc.vegalite_to_svg(chart.to_json()).startswith("<svg")


def test_cny_table_states_the_rate_month():
    cards = pl.DataFrame(
        {
            "name": ["M"],
            "card": ["peak"],
            "valid_from": [date(2026, 8, 17)],
            "valid_to": [None],
            "input_original_per_mtok": [9.0],
            "output_original_per_mtok": [27.0],
            "fx_month": [date(2026, 6, 1)],
            "fx_per_usd": [6.7758],
            "input_original_per_mtok_usd": [9.0 / 6.7758],
            "output_original_per_mtok_usd": [27.0 / 6.7758],
            "published_input_usd": [1.32],
            "published_output_usd": [3.96],
        }
    ).with_columns(pl.col("valid_to").cast(pl.Date))
    html = fig.cny_gt(cards).as_raw_html()
    assert "2026-06" in html and "6.78" in html and "1.33" in html
