"""The `thousandfold_slip` rule (issue 21) on synthetic frames with a known 1000x slip.

Model `m` is priced $2/$10 per million tokens by a fact three sources state and $3/$15 by a
second seller; a row typed per 1K tokens ($0.002/$0.010, 1/1000 of the fact) or per token read
as per 1M ($2000/$10000) is the slip the rule is for. Every expected flag follows from those
numbers by hand: 0.002 is 1000x below 2 (past the rule's 316x), 0.2 (a tenfold cut) is within
its 31.6x of agreement.
"""

from __future__ import annotations

from datetime import date

import polars as pl

from analysis.data.curate import flags

D = date(2026, 3, 1)
SCHEMA = {
    "model_id": pl.String, "provider": pl.String, "date": pl.Date, "last_seen": pl.Date,
    "valid_from": pl.Date, "valid_to": pl.Date, "input_usd_per_mtok": pl.Float64,
    "output_usd_per_mtok": pl.Float64, "blended_usd_per_mtok": pl.Float64,
    "source_id": pl.String, "source_ids": pl.String, "source_model_name": pl.String,
    "region": pl.String, "row_kind": pl.String, "price_kind": pl.String,
}  # fmt: skip


def prices(rows: list[dict]) -> pl.DataFrame:
    base = {
        "model_id": "m",
        "provider": "first",
        "date": D,
        "last_seen": D,
        "valid_from": D,
        "valid_to": None,
        "input_usd_per_mtok": 2.0,
        "output_usd_per_mtok": 10.0,
        "blended_usd_per_mtok": None,
        "source_id": "a",
        "source_ids": None,
        "source_model_name": "m",
        "region": None,
        "row_kind": "spell",
        "price_kind": "list",
    }
    return pl.DataFrame([base | r for r in rows], schema=SCHEMA)


FACT = {"source_ids": "a;b;c"}  # $2/$10, stated by three sources
SECOND = {"provider": "second", "input_usd_per_mtok": 3.0, "output_usd_per_mtok": 15.0,
          "source_id": "d"}  # fmt: skip
HAND = {"source_id": "hand-page", "date": date(2026, 9, 20), "valid_from": date(2026, 9, 20)}


def test_a_per_1k_price_is_flagged_and_the_fact_beside_it_is_not():
    slip = HAND | {"input_usd_per_mtok": 0.002, "output_usd_per_mtok": 0.010}
    out = flags.thousandfold_slip(prices([FACT, SECOND, slip]))
    assert out.flagged.to_list() == [False, False, True]
    assert out.evaluable.to_list() == [True, True, True]


def test_a_price_1000x_too_high_is_flagged_too():
    slip = HAND | {"input_usd_per_mtok": 2000.0, "output_usd_per_mtok": 10000.0}
    assert flags.thousandfold_slip(prices([FACT, SECOND, slip])).flagged.to_list() == [
        False,
        False,
        True,
    ]


def test_one_side_slipped_is_enough():
    slip = HAND | {"input_usd_per_mtok": 0.002}  # output stays $10
    assert flags.thousandfold_slip(prices([FACT, slip])).flagged.to_list() == [False, True]


def test_a_tenfold_price_cut_is_not_a_slip():
    cut = HAND | {"input_usd_per_mtok": 0.2, "output_usd_per_mtok": 1.0}
    out = flags.thousandfold_slip(prices([FACT, SECOND, cut]))
    assert out.flagged.to_list() == [False, False, False]


def test_even_evidence_flags_neither_row():
    """One source against one: which of the two is the slip cannot be told."""
    slip = HAND | {"input_usd_per_mtok": 0.002, "output_usd_per_mtok": 0.010}
    out = flags.thousandfold_slip(prices([{}, slip]))
    assert out.flagged.to_list() == [False, False]
    assert out.evaluable.to_list() == [True, True]


def test_a_source_stating_both_prices_backs_neither():
    """Source `a` states $2 and, on another date, $2000: only `b`'s and `c`'s $2 count."""
    slip = {"input_usd_per_mtok": 2000.0, "output_usd_per_mtok": 10000.0, "date": D}
    out = flags.thousandfold_slip(prices([FACT, slip]))
    assert out.flagged.to_list() == [False, True]


def test_not_evaluable_alone_or_beside_other_models_or_non_standard_kinds():
    other_model = {"model_id": "n", "input_usd_per_mtok": 0.002, "output_usd_per_mtok": 0.01}
    batch = HAND | {"price_kind": "batch", "input_usd_per_mtok": 0.002}
    out = flags.thousandfold_slip(prices([{}, other_model, batch]))
    assert out.flagged.to_list() == [False, False, False]
    assert out.evaluable.to_list() == [False, False, False]


def test_the_rule_is_registered_and_apply_writes_its_id():
    slip = HAND | {"input_usd_per_mtok": 0.002, "output_usd_per_mtok": 0.010}
    assert any(r.id == "thousandfold_slip" and r.table == "token_prices" for r in flags.RULES)
    models = pl.DataFrame(
        {"model_id": ["m"], "parameters_b": [None], "release_date": [None],
         "release_date_source_id": [None], "resolved": [True]},
        schema={"model_id": pl.String, "parameters_b": pl.Float64, "release_date": pl.Date,
                "release_date_source_id": pl.String, "resolved": pl.Boolean},
    )  # fmt: skip
    out, counts = flags.apply({"token_prices": prices([FACT, SECOND, slip]), "models": models})
    assert out["token_prices"]["flags"].to_list() == [None, None, "thousandfold_slip"]
    (c,) = [c for c in counts if c["rule"] == "thousandfold_slip"]
    assert (c["flagged"], c["not_evaluable"], c["rows"]) == (1, 0, 3)
