"""Issue 19, class 5: one offer split by quantization, on a small hand-made frame. A run with
no tag takes the tag the seller's other runs of the offer state, only where they state one tag
and show the same prices on overlapping dates."""

from __future__ import annotations

from datetime import date

import polars as pl

from analysis.data.curate.spells import FACT, OFFER, fold_quantization


def runs(rows: list[dict]) -> pl.DataFrame:
    base = {c: None for c in OFFER + FACT} | {"price_kind": "list", "currency": "USD"}
    schema = {c: pl.String for c in OFFER} | {c: pl.Float64 for c in FACT}
    schema |= {"date": pl.Date, "last_seen": pl.Date, "source_id": pl.String}
    return pl.DataFrame([base | r for r in rows], schema=schema)


def run(model, provider, source, q, inp, out, start, end) -> dict:
    return {"model_id": model, "provider": provider, "source_id": source, "quantization": q,
            "input_usd_per_mtok": inp, "output_usd_per_mtok": out,
            "date": start, "last_seen": end}  # fmt: skip


def test_an_untagged_run_takes_the_one_tag_of_the_same_offer():
    jan, mar, feb, apr = date(2026, 1, 1), date(2026, 3, 1), date(2026, 2, 1), date(2026, 4, 1)
    df = runs(
        [
            # glm-4.6 at novita: the library's untagged run, OpenRouter's fp8 endpoint
            run("glm-4.6", "novita", "litellm", None, 0.6, 2.2, jan, mar),
            run("glm-4.6", "novita", "openrouter", "fp8", 0.6, 2.2, feb, apr),
            # another price: another offer, kept apart
            run("glm-4.6", "novita", "litellm", None, 0.5, 2.0, jan, mar),
            # same price but the tagged run starts after the untagged one ended
            run("glm-4.6", "novita", "tokencost", None, 0.6, 2.2, date(2025, 1, 1), date(2025, 6, 1)),
            # a seller with two tags: the untagged run could be either
            run("llama-3.3-70b", "x", "litellm", None, 0.6, 0.6, jan, mar),
            run("llama-3.3-70b", "x", "openrouter", "fp8", 0.6, 0.6, jan, mar),
            run("llama-3.3-70b", "x", "openrouter", "bf16", 0.9, 0.9, jan, mar),
            # another seller's tag says nothing of this seller's offer
            run("glm-4.6", "zhipu", "litellm", None, 0.6, 2.2, jan, mar),
        ]
    )  # fmt: skip
    got = fold_quantization(df).collect()["quantization"].to_list()
    assert got == ["fp8", "fp8", None, None, None, "fp8", "bf16", None]


def test_a_run_its_source_still_shows_overlaps_a_later_tagged_run():
    # the library's newest snapshot (2026-07-24) still lists the untagged price; OpenRouter's
    # fp8 endpoint is first seen on 2026-08-08 at that price: one offer
    jul, aug = date(2026, 7, 24), date(2026, 8, 8)
    df = runs(
        [
            run("glm-4.6", "novita", "litellm", None, 0.6, 2.2, date(2026, 1, 1), jul),
            run("glm-4.6", "novita", "openrouter", "fp8", 0.6, 2.2, aug, aug),
        ]
    )
    assert fold_quantization(df).collect()["quantization"].to_list() == [None, "fp8"]
    got = fold_quantization(df, {"litellm": jul, "openrouter": aug}).collect()
    assert got["quantization"].to_list() == ["fp8", "fp8"]
    # a run its source stopped showing before the tagged run began stays apart
    got = fold_quantization(df, {"litellm": date(2026, 8, 1), "openrouter": aug}).collect()
    assert got["quantization"].to_list() == [None, "fp8"]
