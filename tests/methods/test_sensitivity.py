"""The sensitivity runs of one fixed-capability trend, on a hand-made market whose answers are known.

Six models, each priced once by its own lab, output four times input, the 3:1 blend falling
exactly 10x per year: every blend is a constant multiple of every other, so every blend gives
exactly 10x, and every window does too. A cheap reasoning model breaks the staircase when
reasoning models are let in.
"""

from __future__ import annotations

from datetime import date, timedelta

import polars as pl
import pytest

from analysis.data.schema import TABLES
from analysis.methods import sensitivity as sens

START = date(2023, 1, 1)
DAYS = [0, 200, 400, 600, 800, 1000]  # up to 2024-12-31: 4 points; to 2025-06-30: 5
MODELS = [f"m{i}" for i in range(len(DAYS))]


def price_rows(rows: list[dict]) -> pl.DataFrame:
    defaults = {
        "provider": "lab",
        "first_party": True,
        "price_kind": "list",
        "currency": "USD",
        "source_id": "src",
        "source_locator": "test",
    }
    filled = [defaults | {"source_model_name": r["model_id"]} | r for r in rows]
    return pl.DataFrame(filled, schema=TABLES["token_prices"].polars_schema)


def market() -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    rows = []
    for model, d in zip(MODELS, DAYS, strict=True):
        # 3:1 blend of (x, 4x) is 1.75x: 100 at the start, falling 10x per 365 days.
        x = 100 / 1.75 * 10 ** (-d / 365)
        rows.append(
            {
                "model_id": model,
                "date": START + timedelta(days=d),
                "input_usd_per_mtok": x,
                "output_usd_per_mtok": 4 * x,
            }
        )
    # A reasoning model a year in, far cheaper than anything after it.
    rows.append(
        {
            "model_id": "r1",
            "date": START + timedelta(days=365),
            "input_usd_per_mtok": 0.001,
            "output_usd_per_mtok": 0.004,
        }
    )
    scores = pl.DataFrame(
        {
            "model_id": [*MODELS, "r1"],
            "benchmark": "gpqa-diamond",
            "score": [50.0, 52.0, 54.0, 56.0, 58.0, 60.0, 70.0],
        }
    )
    models = pl.DataFrame(
        {"model_id": [*MODELS, "r1"], "reasoning": [False] * len(MODELS) + [True]}
    )
    return price_rows(rows), scores, models


@pytest.fixture(scope="module")
def table() -> pl.DataFrame:
    return sens.sensitivity(*market(), "gpqa-diamond", "m0")


def test_one_row_per_variant_in_order(table):
    assert table["variant"].to_list() == [
        "blend 3:1 input:output",
        "blend 1:1 input:output",
        "blend 1:3 input:output",
        "blend 10:1 input:output",
        "reasoning models included",
        "prices up to 2024-12-31 only",
        "prices up to 2025-06-30 only",
    ]
    assert dict(table.schema) == sens.SCHEMA


def test_every_blend_of_proportional_prices_gives_the_same_exact_factor(table):
    blends = table.head(len(sens.BLENDS))
    assert blends["n"].to_list() == [len(DAYS)] * len(sens.BLENDS)
    assert blends["factor_per_year"].to_list() == pytest.approx([10.0] * len(sens.BLENDS))
    # The base blend carries no note; the others say what they lose.
    assert blends["note"].to_list() == [""] + [sens.OTHER_BLEND_NOTE] * (len(sens.BLENDS) - 1)


def test_shorter_windows_keep_the_points_up_to_their_end(table):
    windows = table.tail(len(sens.WINDOW_ENDS))
    assert windows["n"].to_list() == [4, 5]
    assert windows["factor_per_year"].to_list() == pytest.approx([10.0, 10.0])
    assert (windows["ci90_low"] <= 10.0 + 1e-9).all() and (
        windows["ci90_high"] >= 10.0 - 1e-9
    ).all()


def test_a_variant_that_cannot_be_fitted_keeps_its_row_with_the_reason(table):
    # With r1 in, the staircase is m0, m1, r1: three points, one short of the method's minimum.
    row = table.filter(pl.col("variant") == "reasoning models included").row(0, named=True)
    assert row["n"] is None and row["factor_per_year"] is None
    assert "needs at least 4 staircase points, got 3" in row["note"]


def test_an_absent_threshold_model_gives_empty_rows_not_an_error():
    table = sens.sensitivity(*market(), "gpqa-diamond", "not-a-model")
    assert table.height == len(sens.BLENDS) + 1 + len(sens.WINDOW_ENDS)
    assert table["factor_per_year"].null_count() == table.height
    assert table["note"].str.len_chars().min() > 0


def test_factor_span_skips_the_variants_without_an_estimate():
    table = pl.DataFrame(
        {"factor_per_year": [3.6, None, 48.0, 10.0]}, schema={"factor_per_year": pl.Float64}
    )
    assert sens.factor_span(table) == (3.6, 48.0)
