"""The AI Index's 280-fold: first and last step of the staircase at GPT-3.5's MMLU score."""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from analysis.data import release as data
from analysis.methods import ai_index
from analysis.methods import fixed_capability as fc


def obs(rows):
    return pl.DataFrame(
        rows,
        schema={"model": pl.String, "date": pl.Date, "price": pl.Float64, "score": pl.Float64},
        orient="row",
    )


LADDER = obs(
    [
        ("base", date(2022, 1, 1), 20.0, 60.0),
        ("worse", date(2022, 6, 1), 1.0, 55.0),  # cheaper but below the threshold
        ("step", date(2022, 12, 1), 4.0, 61.0),
        ("dearer", date(2023, 3, 1), 5.0, 70.0),  # above the threshold, not cheaper
        ("late", date(2024, 1, 1), 0.5, 62.0),
    ]
)


def test_the_fold_is_the_first_price_over_the_last_step():
    f = ai_index.fall(LADDER, 60.0)
    assert (f["start_model"], f["end_model"], f["steps"]) == ("base", "late", 3)
    assert f["fold"] == pytest.approx(40.0)
    days = (date(2024, 1, 1) - date(2022, 1, 1)).days
    assert f["factor_per_year"] == pytest.approx(40.0 ** (365 / days))


def test_an_end_date_stops_the_staircase():
    f = ai_index.fall(LADDER, 60.0, through=date(2023, 12, 31))
    assert (f["end_model"], f["fold"]) == ("step", pytest.approx(5.0))


def test_a_single_step_is_refused():
    with pytest.raises(ValueError, match="has 1 step"):
        ai_index.fall(LADDER, 65.0)


@pytest.fixture(scope="module")
def table():
    return ai_index.comparisons(
        data.load("token_prices"), data.load("benchmark_scores"), data.load("models")
    )


def test_epochs_rows_give_20_dollars_to_7_cents_more_than_280_fold(table):
    r = table.row(0, named=True)
    pub = ai_index.PUBLISHED
    assert r["threshold_score"] == 64.8
    assert (r["start_date"].year, r["start_date"].month) == (2022, 11)
    assert (r["end_date"].year, r["end_date"].month) == (2024, 10)
    assert round(r["start_price"]) == pub["start_price"]
    assert round(r["end_price"], 2) == pub["end_price"]
    assert r["end_model"] == pub["end_model"]
    # "more than 280-fold": at least 280, and under the next ten.
    assert pub["fold"] <= r["fold"] < pub["fold"] + 10


def test_the_full_data_extends_the_comparison_to_the_newest_price(table):
    window, newest = table.row(1, named=True), table.row(2, named=True)
    assert window["through"] == ai_index.AI_INDEX_END
    full = fc.full_observations(
        data.load("token_prices"), data.load("benchmark_scores"), data.load("models"), "mmlu"
    )
    assert newest["through"] == full["date"].max()
    # The newest staircase contains the window's, so it can only fall further.
    assert newest["end_price"] <= window["end_price"] <= table["end_price"][0]
    assert newest["fold"] >= window["fold"]
