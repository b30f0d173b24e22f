"""The token-prices charts and tables on small frames shaped by the methods that feed them: what
each chart encodes and draws, and what each table prints."""

from __future__ import annotations

import re
from datetime import date

import polars as pl
import pytest

from analysis.figures import prices as fig
from analysis.figures import theme
from analysis.methods import dispersion
from analysis.methods import list_prices as lp

DAY = date(2026, 8, 8)


def cells(gt) -> list[str]:
    """The text of every header and body cell of a great_tables table."""
    html = gt.as_raw_html()
    return [
        re.sub(r"<[^>]+>", "", c).strip()
        for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", html, re.S)
    ]


@pytest.fixture(scope="module")
def history() -> pl.DataFrame:
    """`list_prices.first_party_list_prices` of three first-party prices on one day."""
    token_prices = pl.DataFrame(
        {
            "model_id": ["a", "b", "c"],
            "provider": ["openai", "openai", "cohere"],
            "first_party": [True] * 3,
            "price_kind": ["list"] * 3,
            "currency": ["USD"] * 3,
            "date": [DAY] * 3,
            "input_usd_per_mtok": [0.03, 150.0, 1.0],
            "output_usd_per_mtok": [0.14, 600.0, 2.0],
            "source_id": ["src"] * 3,
        }
    )
    models = pl.DataFrame(
        {
            "model_id": ["a", "b", "c"],
            "name": ["Model A", "Model B", "Model C"],
            "organization": ["OpenAI", "OpenAI", "Cohere"],
        }
    )
    return lp.first_party_list_prices(token_prices, models)


def test_price_history_chart_draws_every_observation_coloured_by_developer(history):
    chart = fig.price_history_chart(history, lp.DEVELOPERS)
    spec = chart.to_dict()
    assert spec["mark"]["type"] == "point"
    assert spec["encoding"]["y"]["field"] == fig.BLENDED
    assert spec["encoding"]["y"]["scale"]["type"] == "log"
    assert spec["encoding"]["color"]["sort"] == lp.DEVELOPERS
    # the figure kit's CSV is this frame, with the seller's and the model's display names
    # beside their ids (the tooltip names the model by its display name, not models' `name`)
    assert chart.data.drop("seller", "model").equals(history)
    assert {"field": "model", "type": "nominal", "title": "Model"} in spec["encoding"]["tooltip"]
    names = [theme.display_name("provider", p) for p in history["provider"]]
    assert chart.data["seller"].to_list() == names


def test_latest_table_groups_by_developer_and_prints_three_decimals(history):
    picks = lp.main_developer_picks(lp.latest_prices(history))
    text = cells(fig.latest_gt(picks))
    assert "OpenAI" in text and "Other" not in text  # grouped; other developers left out
    assert {"Model", "Sold by", "Price seen", "Blended 3:1", "USD per 1M tokens"} <= set(text)
    # Model A: (3 x 0.03 + 0.14) / 4 = 0.0575, three decimals; Model B: 262.5.
    assert {"0.03", "0.14", "0.058", "262.5", "600"} <= set(text)


def test_ratio_chart_is_a_band_of_quartiles_under_the_median_line():
    ratios = pl.DataFrame(
        {"quarter": [date(2025, 1, 1)], "median": [3.0], "q25": [2.0], "q75": [4.0], "n": [5]}
    )
    spec = fig.ratio_chart(ratios).to_dict()
    band, line = spec["layer"]
    assert band["mark"]["type"] == "area" and band["encoding"]["y2"]["field"] == "q75"
    assert line["mark"]["type"] == "line" and line["encoding"]["y"]["field"] == "median"


def test_discounts_table_prints_whole_percent_shares():
    discounts = pl.DataFrame(
        {
            "provider": ["openai", "google"],
            "discount": ["batch input", "cached input"],
            "median_share": [0.5, 0.125],
            "models": [43, 67],
        }
    )
    text = cells(fig.discounts_gt(discounts))
    assert {"batch input", "cached input", "50%", "12%", "43", "Provider", "Models"} <= set(text)


def test_non_usd_table_shows_the_rate_month_and_hides_the_source():
    foreign = pl.DataFrame(
        {
            "name": ["Qwen"],
            "provider": ["alibaba"],
            "date": [date(2026, 7, 1)],
            "price_kind": ["reported"],
            "currency": ["CNY"],
            "input_original_per_mtok": [None],
            "output_original_per_mtok": [None],
            "blended_original_per_mtok": [1.0],
            "fx_month": [date(2026, 6, 1)],
            "fx_per_usd": [6.78123],
            "input_original_per_mtok_usd": [None],
            "output_original_per_mtok_usd": [None],
            "blended_original_per_mtok_usd": [1 / 6.78123],
            "source_id": ["digest-x"],
        },
        schema_overrides={c: pl.Float64 for c in ["input_original_per_mtok"]},
    )
    gt = fig.non_usd_gt(foreign)
    text = cells(gt)
    assert {"2026-06", "6.78", "0.147", "1.00", "Rate of", "Quoted, per 1M tokens"} <= set(text)
    assert "digest-x" not in text
    assert 'class="gt_row gt_left">2026-06<' in gt.as_raw_html()


def test_dispersion_table_prints_shares_and_three_figure_ratios():
    rows = pl.DataFrame(
        {
            "selection": ["baseline"],
            "n_model_months": [1519],
            "n_models": [115],
            "n_model_months_reaching": [324],
            "share_reaching": [324 / 1519],
            "n_models_reaching": [32],
            "ratio_median": [2.7957],
            "ratio_p90": [17.04],
            "ratio_max": [412.4],
        }
    )
    text = cells(fig.dispersion_gt(rows))
    assert {"21%", "2.80", "17.0", "412", "Dearest / cheapest provider", "Prices counted"} <= set(
        text
    )


def test_nominal_real_chart_draws_both_series_as_steps():
    long = pl.DataFrame(
        {
            "date": [date(2024, 1, 1)] * 2,
            "dollars": ["nominal", "constant May 2026 dollars"],
            "price": [1.0, 1.2],
        }
    )
    spec = fig.nominal_real_chart(long, "A title").to_dict()
    assert spec["mark"] == {"type": "line", "interpolate": "step-after"}
    assert spec["encoding"]["strokeDash"]["field"] == "dollars"
    assert spec["title"] == "A title"


def test_provider_chart_titles_the_model_and_its_spread():
    one = pl.DataFrame(
        {
            "model_id": ["m", "m", "m"],
            "month": [date(2026, 8, 1)] * 3,
            "provider": ["cheap", "own", "dear"],
            "input_usd_per_mtok": [0.1, 0.2, 0.6],
            "output_usd_per_mtok": [0.1, 0.2, 0.6],
            fig.BLENDED: [0.1, 0.2, 0.6],
            "first_party": [False, True, False],
            "quantised": [True, False, False],
            "sources": ["s"] * 3,
            "x_cheapest": [1.0, 2.0, 6.0],
        }
    )
    framed = dispersion.with_provider_kind(one)
    chart = fig.provider_chart(framed, "Model M", dispersion.PROVIDER_KINDS)
    spec = chart.to_dict()
    assert spec["title"] == {
        "text": "Model M: one open model, 3 providers",
        "subtitle": "August 2026; dearest / cheapest = 6.0",
    }
    assert spec["encoding"]["color"]["scale"]["domain"] == dispersion.PROVIDER_KINDS
    assert chart.data["kind"].to_list() == [
        "quantised build",
        "developer's own API",
        "third-party provider",
    ]
