"""Artificial Analysis snapshots: one row per model per day; prices as spells; scores on change."""

from __future__ import annotations

import datetime as dt
import json

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import aa_leaderboards

FOLDER = "aa-leaderboards-oolong"


def model(i: str, name: str, index=50.0, price=(4.0, 20.0), gpqa=0.85, estimated=False) -> dict:
    return {
        "id": i,
        "name": name,
        "slug": name.lower().replace(" ", "-"),
        "release_date": "2026-06-09",
        "reasoning_model": None,
        "deprecated": False,
        "creator": {"name": "Anthropic", "slug": "anthropic"},
        "evaluations": {
            "artificial_analysis_intelligence_index": index,
            "artificial_analysis_intelligence_index_is_estimated": estimated,
            "artificial_analysis_coding_index": 40.5,
            "gpqa": gpqa,
            "hle": 0.25,
        },
        "pricing": {
            "price_1m_input_tokens": price[0],
            "price_1m_output_tokens": price[1],
            "price_1m_blended_3_to_1": None,
            "intelligence_index_cost_total": 1234.5,
        },
        "speed": {"output_tokens_per_second": 61.2, "time_to_first_token_seconds": 1.5},
        "capabilities": {"context_window_tokens": 1000000, "total_parameters": None},
        "open_weights": {"is_open_weights": False},
    }


def snapshot(day: str, models: list[dict]) -> str:
    meta = {
        "endpoint": "llms",
        "fetched_at": f"{day}T08:34:09.941739+00:00",
        "model_count": len(models),
    }
    return json.dumps({"meta": meta, "models": models})


def _build(tree, snaps: dict[str, list[dict]]):
    for day, models in snaps.items():
        tree.add(f"{FOLDER}/{day}_llms.json", snapshot(day, models), commit_date=day)
        tree.add(f"{FOLDER}/{day}__index.json", "{}", commit_date=day)
    return aa_leaderboards.build(tree.root)


FABLE = "Claude Fable 5 (Adaptive Reasoning, Max Effort)"


def test_each_snapshot_gives_one_row_per_model_with_index_price_and_speed(tree):
    t = _build(tree, {"2026-07-10": [model("a", FABLE, index=59.86, price=(10.0, 50.0))]})
    row = t["aa_snapshots"].row(0, named=True)
    assert (row["snapshot_date"], row["intelligence_index"]) == (dt.date(2026, 7, 10), 59.86)
    assert (row["input_usd_per_mtok"], row["output_usd_per_mtok"]) == (10.0, 50.0)
    assert (row["output_tokens_per_s"], row["context_window_tokens"]) == (61.2, 1000000)
    assert row["model_hint"] == "Claude Fable 5"  # the configuration suffix is not the model
    assert (
        row["source_locator"] == f"{FOLDER}/2026-07-10_llms.json@c0ffee000000#models[0] ({FABLE})"
    )


def test_the_same_price_on_several_days_is_one_spell(tree):
    a = model("a", "Opus", price=(5.0, 25.0))
    b = model("a", "Opus", price=(4.0, 20.0))
    t = _build(tree, {"2026-06-01": [a], "2026-07-01": [a], "2026-07-10": [b]})
    tp = t["token_prices"].sort("date")
    assert tp.select("date", "last_seen", "input_usd_per_mtok").rows() == [
        (dt.date(2026, 6, 1), dt.date(2026, 7, 1), 5.0),
        (dt.date(2026, 7, 10), dt.date(2026, 7, 10), 4.0),
    ]
    assert set(tp["provider"]) == {"unspecified"} and set(tp["price_kind"]) == {"list"}


def test_free_entries_are_not_list_prices_but_stay_in_the_snapshot(tree):
    t = _build(tree, {"2026-07-10": [model("g", "Gemma 3 27B Instruct", price=(0, 0))]})
    assert t["token_prices"].height == 0
    assert t["aa_snapshots"]["input_usd_per_mtok"].to_list() == [0.0]


def test_scores_are_kept_when_first_seen_and_when_rescored_estimates_never(tree):
    t = _build(
        tree,
        {
            "2026-06-01": [model("a", "Opus", index=50.0), model("e", "Est", estimated=True)],
            "2026-07-01": [model("a", "Opus", index=50.0)],
            "2026-07-10": [model("a", "Opus", index=52.5)],
        },
    )
    s = t["benchmark_scores"]
    index = s.filter(pl.col("benchmark") == "aa-intelligence-index").sort("date")
    assert index.select("source_model_name", "date", "score").rows() == [
        ("Opus", dt.date(2026, 6, 1), 50.0),
        ("Opus", dt.date(2026, 7, 10), 52.5),
    ]
    gpqa = s.filter(pl.col("benchmark") == "gpqa-diamond")
    assert gpqa.filter(pl.col("source_model_name") == "Opus")["score"].to_list() == [85.0]
    assert t["aa_snapshots"].filter(pl.col("source_model_name") == "Est")[
        "intelligence_index_estimated"
    ].to_list() == [True]


def test_a_fraction_score_above_one_names_the_entry(tree):
    with pytest.raises(DataError) as err:
        _build(tree, {"2026-07-10": [model("a", "Opus"), model("b", "Bad", gpqa=85.0)]})
    p = err.value.problems[0]
    assert (p.column, p.value) == ("models[1].evaluations.gpqa", "85.0")
    assert p.file.endswith("2026-07-10_llms.json")


def test_a_negative_price_is_an_error(tree):
    with pytest.raises(DataError, match=r"price_1m_input_tokens"):
        _build(tree, {"2026-07-10": [model("a", "Opus", price=(-1.0, 2.0))]})


def test_the_fetch_date_must_be_the_file_date(tree):
    tree.add(f"{FOLDER}/2026-07-10_llms.json", snapshot("2026-07-09", [model("a", "Opus")]))
    with pytest.raises(DataError, match="fetched_at"):
        aa_leaderboards.build(tree.root)


def test_real_snapshots_match_the_readme(sources_dir):
    t = aa_leaderboards.build(sources_dir)
    snaps = t["aa_snapshots"]
    # README II.4.1: models 445 -> 570; with an intelligence index 439 -> 557.
    counts = dict(snaps.group_by("snapshot_date").len().iter_rows())
    assert counts[dt.date(2026, 4, 10)] == 445 and counts[dt.date(2026, 7, 10)] == 570
    last = snaps.filter(pl.col("snapshot_date") == dt.date(2026, 7, 10))
    assert last["intelligence_index"].is_not_null().sum() == 557
    top = last.sort("intelligence_index", descending=True, nulls_last=True).row(0, named=True)
    # "2026-07-10 top scores: Claude Fable 5 59.9 ($10/$50)".
    assert top["source_model_name"].startswith("Claude Fable 5")
    assert round(top["intelligence_index"], 1) == 59.9
    assert (top["input_usd_per_mtok"], top["output_usd_per_mtok"]) == (10.0, 50.0)
    ds = last.filter(pl.col("source_model_name") == "DeepSeek V4 Pro (Reasoning, Max Effort)")
    assert ds.select("input_usd_per_mtok", "output_usd_per_mtok").row(0) == (0.435, 0.87)


def test_model_facts_the_newest_snapshot_leaves_null_come_from_the_newest_that_states_them(tree):
    # aa-leaderboards-oolong: "Magistral Medium 1.2" has reasoning_model true in 2026-04-10 ..
    # 2026-07-01 (2026-07-01_llms.json models[296]) and null in 2026-07-10 (models[316]); the
    # newest snapshot alone left every model's reasoning flag null (issue 19, class 8).
    old = model("m", "Magistral Medium 1.2") | {"reasoning_model": True}
    new = model("m", "Magistral Medium 1.2") | {"release_date": "2025-09-18"}
    info = _build(tree, {"2026-06-01": [old], "2026-07-01": [old], "2026-07-10": [new]})[
        "model_info"
    ]
    rows = info.sort("source_locator").select("release_date", "reasoning", "source_locator").rows()
    assert rows == [
        (None, True, f"{FOLDER}/2026-07-01_llms.json@c0ffee000000#models[0] (Magistral Medium 1.2)"),
        (dt.date(2025, 9, 18), None, f"{FOLDER}/2026-07-10_llms.json@c0ffee000000#models[0] (Magistral Medium 1.2)"),
    ]  # fmt: skip


COUNTS = {"inputTokens": 10, "answerTokens": 1, "reasoningTokens": 2, "outputTokens": 3}


def with_run(m: dict, counts) -> dict:
    return m | {"breakdowns": {"intelligence_index_token_counts": counts}}


def test_an_index_run_is_one_row_of_its_tokens_and_an_entry_without_one_none(tree):
    t = _build(
        tree,
        {
            "2026-07-10": [
                with_run(model("a", FABLE), COUNTS),
                with_run(model("b", "Opus"), None),
                model("c", "Sonnet"),
            ]
        },
    )
    (row,) = t["aa_index_runs"].to_dicts()
    assert (row["snapshot_date"], row["aa_model_id"], row["source_model_name"]) == (
        dt.date(2026, 7, 10),
        "a",
        FABLE,
    )
    assert [row[c] for c in ("input_tokens", "output_tokens", "answer_tokens")] == [10, 3, 1]
    assert row["reasoning_tokens"] == 2
    assert row["source_locator"].endswith(f"#models[0] ({FABLE})")
    assert "run" not in t["aa_snapshots"].columns


def test_an_index_run_output_may_be_one_token_off_its_parts_not_two(tree):
    # AA rounds each count: 2026-04-10_llms.json states 48 runs with outputTokens one above
    # answerTokens + reasoningTokens (e.g. 58,369,032 against 5,689,828 + 52,679,203).
    one_off = with_run(model("a", "Opus"), COUNTS | {"outputTokens": 4})
    assert _build(tree, {"2026-07-10": [one_off]})["aa_index_runs"]["output_tokens"][0] == 4
    two_off = with_run(model("a", "Opus"), COUNTS | {"outputTokens": 5})
    with pytest.raises(DataError) as err:
        _build(tree, {"2026-07-01": [two_off]})
    p = err.value.problems[0]
    assert p.column == "models[0].breakdowns.intelligence_index_token_counts.outputTokens"
    assert p.value == "5" and "answerTokens + reasoningTokens" in p.rule


@pytest.mark.parametrize(
    ("counts", "column", "rule"),
    [
        (COUNTS | {"inputTokens": "ten"}, "inputTokens", "number"),
        (COUNTS | {"inputTokens": 10.5}, "inputTokens", "whole number"),
        ({k: v for k, v in COUNTS.items() if k != "answerTokens"}, "answerTokens", "required"),
        ([1, 2], "intelligence_index_token_counts", "object"),
    ],
)
def test_an_index_run_it_cannot_read_names_the_entry_and_count(tree, counts, column, rule):
    with pytest.raises(DataError) as err:
        _build(tree, {"2026-07-10": [with_run(model("a", "Opus"), counts)]})
    p = err.value.problems[0]
    assert p.column.startswith("models[0].breakdowns.intelligence_index_token_counts")
    assert p.column.endswith(column) and rule in p.rule, (p.column, p.rule)


def test_real_index_runs_match_the_raw_files(sources_dir):
    """Counted by hand with `json` over the five files: entries with
    breakdowns.intelligence_index_token_counts, 319, 355, 353, 80 and 128."""
    runs = aa_leaderboards.build(sources_dir)["aa_index_runs"]
    counts = dict(runs.group_by("snapshot_date").len().iter_rows())
    assert [counts[dt.date.fromisoformat(d)] for d in SNAPSHOT_DAYS] == [319, 355, 353, 80, 128]
    # 2026-07-10_llms.json lines 64158-64161: GPT-5.6 Sol (high)'s run.
    sol = runs.filter(
        pl.col("snapshot_date") == dt.date(2026, 7, 10),
        pl.col("source_model_name") == "GPT-5.6 Sol (high)",
    ).row(0, named=True)
    assert (sol["input_tokens"], sol["output_tokens"]) == (340_868_286, 21_248_736)
    assert (sol["answer_tokens"], sol["reasoning_tokens"]) == (4_569_051, 16_679_685)


SNAPSHOT_DAYS = ("2026-04-10", "2026-05-01", "2026-06-01", "2026-07-01", "2026-07-10")
