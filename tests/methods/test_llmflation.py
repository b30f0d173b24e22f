"""a16z's LLMflation method on hand-made prices and scores whose answer is known."""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from analysis.data.schema import TABLES
from analysis.methods.llmflation import (
    a16z_fit,
    monthly_minimum,
    qualifying_models,
    single_priced_models,
)
from analysis.methods.trends import InsufficientData


def price_rows(rows: list[dict]) -> pl.DataFrame:
    """token_prices rows with the schema's columns; unspecified fields take plain defaults."""
    defaults = {
        "provider": "host",
        "first_party": False,
        "last_seen": None,
        "price_kind": "list",
        "currency": "USD",
        "source_id": "src",
        "source_locator": "test",
    }
    filled = [defaults | {"source_model_name": r["model_id"]} | r for r in rows]
    return pl.DataFrame(filled, schema=TABLES["token_prices"].polars_schema)


def score_rows(rows: list[tuple[str, float, str]]) -> pl.DataFrame:
    return pl.DataFrame(
        [
            {
                "model_id": m,
                "benchmark": "mmlu",
                "score": s,
                "unit": "percent",
                "date": date(2021, 1, 1),
                "source_model_name": m,
                "source_id": src,
                "source_locator": "test",
            }
            for m, s, src in rows
        ],
        schema=TABLES["benchmark_scores"].polars_schema,
    )


def io(model, day, inp, out, **kw) -> dict:
    return {
        "model_id": model,
        "date": day,
        "input_usd_per_mtok": inp,
        "output_usd_per_mtok": out,
    } | kw


SCORES = score_rows(
    [
        ("a", 50.0, "src"),
        ("b", 40.0, "src"),  # below 42: never counts, however cheap
        ("c", 30.0, "other"),
        ("c", 45.0, "src"),  # one source at 45 is enough; the highest score wins
        ("d", 60.0, "src"),
        ("e", 70.0, "src"),
        ("f", 55.0, "src"),
    ]
)

PRICES = price_rows(
    [
        # a: $10 seen Jan 15 .. Mar 10 (last_seen bounds it).
        io("a", date(2022, 1, 15), 10.0, 10.0, last_seen=date(2022, 3, 10)),
        io("b", date(2022, 1, 1), 0.5, 0.5, last_seen=date(2022, 12, 31)),
        # c: no last_seen; $2 from Mar 20 until the day before its next row, then a price rise
        # to $5 from May 1 to the source's end.
        io("c", date(2022, 3, 20), 1.0, 3.0, source_id="log"),
        io("c", date(2022, 5, 1), 4.0, 6.0, source_id="log"),
        # The log source's last observation (Jul 15) bounds c's last price.
        io("e", date(2022, 7, 15), 30.0, 30.0, source_id="log"),
        # d: $0.5 seen on one day in June only.
        io("d", date(2022, 6, 3), 0.5, 0.5, last_seen=date(2022, 6, 3)),
        # Not list prices, zero prices and prices not yet in force never count.
        io("a", date(2022, 1, 1), 0.1, 0.1, price_kind="promotional"),
        io("e", date(2022, 2, 1), 0.0, 0.0, last_seen=date(2022, 4, 1)),
        io("e", date(2022, 9, 1), 0.2, 0.2, last_seen=date(2022, 9, 30)),
    ]
)


def test_a_model_counts_in_a_month_only_while_its_price_is_in_force():
    s = monthly_minimum(PRICES, SCORES)
    got = {(r["month"].month): (r["model_id"], r["price"]) for r in s.iter_rows(named=True)}
    assert got == {
        1: ("a", 10.0),
        2: ("a", 10.0),
        3: ("c", 2.0),  # c (from Mar 20) undercuts a (until Mar 10) within March
        4: ("c", 2.0),
        5: ("c", 5.0),  # c's $2 ended the day before its next row
        6: ("d", 0.5),  # d seen only in June
        7: ("c", 5.0),  # c's last price holds to its source's last date (Jul 15)
        9: ("e", 0.2),  # e's $0.20 starts in September: August has no qualifying price
    }
    assert s.columns[:4] == ["month", "model_id", "price", "source"]
    assert s.filter(pl.col("model_id") == "c")["mmlu"].unique().to_list() == [45.0]


def test_months_after_through_are_dropped():
    s = monthly_minimum(PRICES, SCORES, through=date(2022, 6, 30))
    assert s["month"].max() == date(2022, 6, 1)


def test_the_highest_score_across_sources_decides_qualification():
    q = qualifying_models(SCORES, threshold=42)
    assert q.sort("model_id")["model_id"].to_list() == ["a", "c", "d", "e", "f"]
    c = q.filter(pl.col("model_id") == "c").row(0, named=True)
    assert (c["mmlu"], c["mmlu_source"]) == (45.0, "src")


# Epoch-style rows: a 3:1 blend only. f is sold at one price for input and output elsewhere in
# the data, g is not.
EPOCH = price_rows(
    [
        {"model_id": "f", "date": date(2021, 11, 20), "blended_usd_per_mtok": 60.0, "blend": "3:1"},
        io("f", date(2024, 1, 1), 20.0, 20.0, last_seen=date(2024, 1, 1), source_id="later"),
        {"model_id": "g", "date": date(2021, 12, 5), "blended_usd_per_mtok": 2.0, "blend": "3:1"},
        io("g", date(2024, 1, 1), 1.0, 3.0, last_seen=date(2024, 1, 1), source_id="later"),
    ]
)
EPOCH_SCORES = score_rows([("f", 44.0, "src"), ("g", 70.0, "src")])


def test_single_priced_models_have_equal_input_and_output_in_every_row():
    assert single_priced_models(EPOCH).to_list() == ["f"]


def test_other_blends_count_only_for_single_priced_models_by_default():
    s = monthly_minimum(EPOCH, EPOCH_SCORES, through=date(2021, 12, 31))
    assert s["model_id"].to_list() == ["f", "f"]
    assert s["price"].to_list() == [60.0, 60.0]
    assert s["basis"][0] == "3:1 blend of a single-priced model (= 1:1)"


def test_stand_in_and_drop_policies():
    stand_in = monthly_minimum(
        EPOCH, EPOCH_SCORES, other_blends="stand-in", through=date(2021, 12, 31)
    )
    assert stand_in["model_id"].to_list() == ["f", "g"]
    assert stand_in["basis"][1] == "3:1 blend as stand-in for 1:1"
    dropped = monthly_minimum(EPOCH, EPOCH_SCORES, other_blends="drop", through=date(2021, 12, 31))
    assert dropped.height == 0
    with pytest.raises(ValueError, match="other_blends must be one of"):
        monthly_minimum(EPOCH, EPOCH_SCORES, other_blends="guess")


def exact_series(factor_per_year: float, months: int, start=date(2021, 11, 1)) -> pl.DataFrame:
    dates = pl.date_range(start, pl.lit(start).dt.offset_by(f"{months - 1}mo"), "1mo", eager=True)
    days = [(d - start).days for d in dates]
    return pl.DataFrame(
        {"month": dates, "price": [60.0 / factor_per_year ** (t / 365) for t in days]}
    ).with_columns(pl.lit("m").alias("model_id"))


def test_fit_recovers_an_exact_tenfold_yearly_decline_in_the_a16z_window():
    series = exact_series(10.0, 60)
    fit = a16z_fit(series)
    assert fit["n"] == 37  # 2021-11 .. 2024-11 inclusive
    assert (fit["start_month"], fit["end_month"]) == (date(2021, 11, 1), date(2024, 11, 1))
    assert fit["factor_per_year"] == pytest.approx(10.0, rel=1e-9)
    assert fit["endpoint_factor_per_year"] == pytest.approx(10.0, rel=1e-9)
    assert fit["ci90_low"] <= 10.0 <= fit["ci90_high"]
    full = a16z_fit(series, None, None)
    assert full["n"] == 60 and full["months_without_price"] == 0


def test_too_few_months_is_a_clear_error():
    with pytest.raises(InsufficientData, match=r"a16z LLMflation trend .* at least 3 .*, got 2"):
        a16z_fit(exact_series(10.0, 2))


def test_reproduce_a16z_command_prints_the_series_and_the_fits(cli):
    run = cli("reproduce", "a16z")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("month,model_id,price,source")
    assert lines[1].startswith("2021-11-01,gpt-3-davinci,60.0,")
    assert "a16z window: 2021-11..2024-11" in run.stderr and "x per year (90% CI" in run.stderr
