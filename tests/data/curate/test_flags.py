"""Every anomaly rule on a small hand-built frame: what it flags, and what it cannot judge."""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from analysis.data.curate import flags

D = date(2026, 3, 1)


def prices(rows: list[dict]) -> pl.DataFrame:
    base = {
        "model_id": "m",
        "provider": "p",
        "date": D,
        "last_seen": D,
        "valid_from": D,
        "valid_to": None,
        "input_usd_per_mtok": 1.0,
        "output_usd_per_mtok": 2.0,
        "blended_usd_per_mtok": None,
        "source_id": "s",
        "source_model_name": "m",
        "region": None,
        "row_kind": "spell",
        "price_kind": "list",
    }
    schema = {
        "model_id": pl.String, "provider": pl.String, "date": pl.Date, "last_seen": pl.Date,
        "valid_from": pl.Date, "valid_to": pl.Date, "input_usd_per_mtok": pl.Float64,
        "output_usd_per_mtok": pl.Float64, "blended_usd_per_mtok": pl.Float64,
        "source_id": pl.String, "source_model_name": pl.String, "region": pl.String,
        "row_kind": pl.String, "price_kind": pl.String,
    }  # fmt: skip
    return pl.DataFrame([base | r for r in rows], schema=schema)


def models(rows: list[dict]) -> pl.DataFrame:
    base = {
        "name": None,
        "parameters_b": None,
        "release_date": None,
        "release_date_source_id": None,
        "resolved": True,
    }
    schema = {
        "model_id": pl.String,
        "name": pl.String,
        "parameters_b": pl.Float64,
        "release_date": pl.Date,
        "release_date_source_id": pl.String,
        "resolved": pl.Boolean,
    }
    return pl.DataFrame([base | r for r in rows], schema=schema)


def test_placeholder_price_one_price_from_3b_to_405b():
    df = prices(
        [
            {"model_id": "llama-3.2-3b", "input_usd_per_mtok": 0.12, "output_usd_per_mtok": 0.3},
            {"model_id": "llama-3.1-70b", "input_usd_per_mtok": 0.12, "output_usd_per_mtok": 0.3},
            {"model_id": "llama-3.1-405b", "input_usd_per_mtok": 0.12, "output_usd_per_mtok": 0.3},
            # Fireworks-style buckets: one price within a 4x size band is a real price list.
            {"model_id": "a-4b", "provider": "f", "input_usd_per_mtok": 0.2},
            {"model_id": "b-8b", "provider": "f", "input_usd_per_mtok": 0.2},
            {"model_id": "c-16b", "provider": "f", "input_usd_per_mtok": 0.2},
            # a model that states no size cannot be judged; a free tier is not a placeholder
            {"model_id": "mystery", "input_usd_per_mtok": 0.12, "output_usd_per_mtok": 0.3},
            {
                "model_id": "x-1b",
                "provider": "z",
                "input_usd_per_mtok": 0.0,
                "output_usd_per_mtok": 0.0,
            },
            {
                "model_id": "y-400b",
                "provider": "z",
                "input_usd_per_mtok": 0.0,
                "output_usd_per_mtok": 0.0,
            },
            {
                "model_id": "w-7b",
                "provider": "z",
                "input_usd_per_mtok": 0.0,
                "output_usd_per_mtok": 0.0,
            },
        ]
    )
    res = flags.placeholder_price(df, models([{"model_id": "llama-3.2-3b", "parameters_b": 3.21}]))
    assert res.flagged.to_list() == [True] * 3 + [False] * 7
    assert res.evaluable.to_list() == [True] * 6 + [False] + [True] * 3


def test_placeholder_price_needs_overlapping_dates():
    df = prices(
        [
            {"model_id": "a-3b", "valid_from": date(2024, 1, 1), "valid_to": date(2024, 2, 1)},
            {"model_id": "b-70b", "valid_from": date(2025, 1, 1)},
            {"model_id": "c-405b", "valid_from": date(2025, 1, 1)},
        ]
    )
    assert not flags.placeholder_price(df, models([])).flagged.any()


def test_output_below_input():
    df = prices(
        [
            {"input_usd_per_mtok": 3.0, "output_usd_per_mtok": 0.15},  # swapped or unpriced
            {"input_usd_per_mtok": 3.0, "output_usd_per_mtok": 15.0},
            {"input_usd_per_mtok": 1.0, "output_usd_per_mtok": 1.0},  # equal is fine
            {"input_usd_per_mtok": None, "output_usd_per_mtok": 1.0},  # cannot judge
        ]
    )
    res = flags.output_below_input(df)
    assert res.flagged.to_list() == [True, False, False, False]
    assert res.evaluable.to_list() == [True, True, True, False]


def test_unit_slip_far_from_the_other_sellers_of_the_same_model():
    df = prices(
        [
            {"provider": "a", "input_usd_per_mtok": 1.0, "output_usd_per_mtok": 1.0},
            {"provider": "b", "input_usd_per_mtok": 2.0, "output_usd_per_mtok": 2.0},
            {"provider": "c", "input_usd_per_mtok": 1000.0, "output_usd_per_mtok": 1000.0},
            {
                "provider": "d",
                "input_usd_per_mtok": 10.0,
                "output_usd_per_mtok": 10.0,
            },  # 10x: a spread
            {"model_id": "alone", "provider": "a"},  # nothing to compare with
        ]
    )
    res = flags.unit_slip(df)
    assert res.flagged.to_list() == [False, False, True, False, False]
    assert res.evaluable.to_list() == [True, True, True, True, False]


def test_non_text_modality_by_name():
    df = prices(
        [
            {"model_id": "gpt-4o-realtime-preview", "source_model_name": "gpt-4o-realtime-preview"},
            {"model_id": "gemini-2.5-flash-preview-tts", "source_model_name": "gemini/x"},
            {"model_id": "titan-embed-text-v2", "source_model_name": "amazon.titan-embed-text-v2"},
            {"model_id": "gpt-4o", "source_model_name": "openai/gpt-4o"},
            {"model_id": "olive-7b", "source_model_name": "olive-7b"},  # `live` inside a word
        ]
    )
    assert flags.non_text_modality(df).flagged.to_list() == [True, True, True, False, False]


def test_before_release_with_grace_month_sources_and_unknown_dates():
    df = prices(
        [
            {"model_id": "m", "valid_from": date(2024, 7, 1)},  # months before release
            {"model_id": "m", "valid_from": date(2025, 4, 10)},  # announcement, within 14 days
            {"model_id": "m", "valid_from": date(2025, 4, 1), "source_id": "gundlach-inference"},
            {"model_id": "undated"},
            {"model_id": "listed"},  # only OpenRouter's listing date
            {"model_id": "alias"},  # unresolved: its date is not one model's
        ]
    )
    m = models(
        [
            {"model_id": "m", "release_date": date(2025, 4, 16), "release_date_source_id": "x"},
            {"model_id": "undated"},
            {"model_id": "listed", "release_date": date(2027, 1, 1), "release_date_source_id": "openrouter-sui414"},
            {"model_id": "alias", "release_date": date(2027, 1, 1), "release_date_source_id": "x", "resolved": False},
        ]
    )  # fmt: skip
    res = flags.before_release(df, m)
    assert res.flagged.to_list() == [True, False, False, False, False, False]
    assert res.evaluable.to_list() == [True, True, True, False, False, False]


def test_superseded_stale_and_regional_surcharge():
    df = prices([{"row_kind": "stale"}, {}, {"region": "eu-west-3"}])
    assert flags.superseded_stale(df).flagged.to_list() == [True, False, False]
    assert flags.regional_surcharge(df).flagged.to_list() == [False, False, True]


def gpu(rows: list[dict]) -> pl.DataFrame:
    base = {
        "gpu": "h100",
        "provider": "p",
        "date": D,
        "pricing": "on-demand",
        "statistic": "quote",
        "usd_per_gpu_hour": 2.0,
        "source_id": "s",
        "offer_count": None,
    }
    schema = {
        "gpu": pl.String, "provider": pl.String, "date": pl.Date, "pricing": pl.String,
        "statistic": pl.String, "usd_per_gpu_hour": pl.Float64, "source_id": pl.String,
        "offer_count": pl.Int64,
    }  # fmt: skip
    return pl.DataFrame([base | r for r in rows], schema=schema)


def test_zero_not_offered():
    df = gpu([{"usd_per_gpu_hour": 0.0}, {}])
    assert flags.zero_not_offered(df).flagged.to_list() == [True, False]


def test_marketplace_outlier_against_the_other_sources_that_month():
    df = gpu(
        [
            {"source_id": "vast", "pricing": "marketplace", "statistic": "median", "usd_per_gpu_hour": 40.0},
            {"source_id": "vast", "pricing": "marketplace", "statistic": "p25", "usd_per_gpu_hour": 2.5},
            {"source_id": "runpod"},
            {"source_id": "lambda", "usd_per_gpu_hour": 3.0},
            {"gpu": "a5000", "source_id": "vast", "pricing": "marketplace", "usd_per_gpu_hour": 9.0},
        ]
    )  # fmt: skip
    res = flags.marketplace_outlier(df)
    assert res.flagged.to_list() == [True, False, False, False, False]
    # list prices are not judged; a GPU no other source prices cannot be
    assert res.evaluable.to_list() == [True, True, False, False, False]


def test_thin_median_keeps_the_offer_count():
    df = gpu(
        [
            {"statistic": "median", "offer_count": 1},
            {"statistic": "median", "offer_count": 12},
            {"statistic": "median", "offer_count": None},
            {"statistic": "quote", "offer_count": 1},
        ]
    )
    res = flags.thin_median(df)
    assert res.flagged.to_list() == [True, False, False, False]
    assert res.evaluable.to_list() == [True, True, False, False]


def test_conflicting_scores_keep_the_best_one():
    df = pl.DataFrame(
        {
            "model_id": ["o3", "o3", "o3", "o3"],
            "benchmark": ["gpqa", "gpqa", "gpqa", "mmlu"],
            "date": [D] * 4,
            "source_id": ["s", "s", "t", "s"],
            "score": [79.0, 83.0, 70.0, 90.0],
        }
    )
    assert flags.conflicting_scores(df).flagged.to_list() == [True, False, False, False]


def test_apply_writes_rule_ids_and_counts_unevaluable_rows():
    tp = prices(
        [
            {"model_id": "a", "input_usd_per_mtok": 3.0, "output_usd_per_mtok": 1.0, "row_kind": "stale"},
            {"model_id": "b", "input_usd_per_mtok": None},
        ]
    )  # fmt: skip
    tp = tp.with_columns(pl.lit(None, dtype=pl.String).alias("source_ids"))
    out, counts = flags.apply({"token_prices": tp, "models": models([{"model_id": "a"}])})
    assert out["token_prices"]["flags"].to_list() == ["output_below_input;superseded_stale", None]
    by_rule = {c["rule"]: c for c in counts}
    assert by_rule["output_below_input"] | {"rows": 2} == by_rule["output_below_input"]
    assert (
        by_rule["output_below_input"]["flagged"],
        by_rule["output_below_input"]["not_evaluable"],
    ) == (1, 1)
    assert by_rule["before_release"]["not_evaluable"] == 2  # no release dates: counted, unflagged


@pytest.mark.parametrize("rule", flags.RULES, ids=lambda r: r.id)
def test_every_rule_says_why(rule):
    assert rule.why and len(rule.why) > 20


def test_a_unit_slip_is_a_price_far_above_its_size_class():
    # Synthetic: ten 8B models at 0.10/0.15 (the class median), one 7B at 0/500 (a $5 per 1000
    # requests fee read per token) and one at 200/200 (granite-3-8b at watsonx in 2026-12-01.3);
    # a 13B model at 30/33 is dear (Luminous) but within 500x of its class (0.2/0.4).
    rows = [
        {
            "model_id": f"s{i}-8b",
            "input_usd_per_mtok": 0.1,
            "output_usd_per_mtok": 0.15,
            "price_kind": "list",
        }
        for i in range(10)
    ]
    rows += [
        {"model_id": "pplx-7b-online", "input_usd_per_mtok": 0.0, "output_usd_per_mtok": 500.0, "price_kind": "list"},
        {"model_id": "granite-3-8b", "input_usd_per_mtok": 200.0, "output_usd_per_mtok": 200.0, "price_kind": "list"},
        {"model_id": "granite-3-8b", "input_usd_per_mtok": 200.0, "output_usd_per_mtok": 200.0, "price_kind": "batch-only"},
        {"model_id": "big-13b", "input_usd_per_mtok": 0.2, "output_usd_per_mtok": 0.4, "price_kind": "list"},
        {"model_id": "luminous-base", "input_usd_per_mtok": 30.0, "output_usd_per_mtok": 33.0, "price_kind": "list"},
        {"model_id": "unsized", "input_usd_per_mtok": 900.0, "output_usd_per_mtok": 900.0, "price_kind": "list"},
    ]  # fmt: skip
    sized = models([{"model_id": "luminous-base", "parameters_b": 13.0}])
    out = flags.size_class_slip(prices(rows), sized)
    assert out.flagged.to_list() == [False] * 10 + [True, True, False, False, False, False]
    # batch-only is not a standard price, and a model of unknown size cannot be judged
    assert out.evaluable.to_list()[-4:] == [False, True, True, False]


def test_before_release_is_not_judged_on_a_row_still_on_a_moving_alias():
    # chatgpt-4o-latest at OpenAI from 2024-09-06 (tokencost), flagged in 2026-12-01.3 against
    # 2025-02-15, the release of the snapshot Artificial Analysis scored: the alias pointed at
    # an earlier snapshot then. A row resolved to its snapshot is judged by that snapshot.
    df = prices(
        [
            {"model_id": "chatgpt-4o-latest", "valid_from": date(2024, 9, 6)},
            {"model_id": "gpt-4o-2024-11-20", "valid_from": date(2024, 9, 6)},
        ]
    ).with_columns(pl.Series("alias_of", ["chatgpt-4o-latest", "gpt-4o"]))
    m = models(
        [
            {"model_id": "chatgpt-4o-latest", "release_date": date(2025, 2, 15), "release_date_source_id": "artificial-analysis"},
            {"model_id": "gpt-4o-2024-11-20", "release_date": date(2024, 11, 20), "release_date_source_id": "x"},
        ]
    )  # fmt: skip
    res = flags.before_release(df, m)
    assert res.evaluable.to_list() == [False, True]
    assert res.flagged.to_list() == [False, True]


def test_before_release_is_not_judged_on_a_catalog_moving_alias():
    # deepseek-chat at DeepSeek, $0.27/$1.10 from 2025-02-08 (llm-prices-simonw), was flagged in
    # 2026-12-01.4 against 2025-12-01, the release of the snapshot (V3.2) Epoch's hub scored under
    # the alias; the catalog names the id "deepseek-chat (DeepSeek API moving alias)".
    df = prices([{"model_id": "deepseek-chat", "valid_from": date(2025, 2, 8)}])
    m = models(
        [{"model_id": "deepseek-chat", "name": "deepseek-chat (DeepSeek API moving alias)",
          "release_date": date(2025, 12, 1), "release_date_source_id": "epoch-benchmarking-hub-2026-04"}]
    )  # fmt: skip
    res = flags.before_release(df, m)
    assert (res.evaluable.to_list(), res.flagged.to_list()) == ([False], [False])
