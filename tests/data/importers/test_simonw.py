"""simonw/llm-prices importer: dating by first observation, dedup across snapshots, tiers."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import simonw

COMMITS = {"2025-10-10": "51758ee303f2" + "0" * 28, "2025-11-07": "e96acfddc154" + "0" * 28}


def _record(inp, out, cached=None, from_date=None, to_date=None) -> dict:
    return {
        "input": inp,
        "output": out,
        "from_date": from_date,
        "to_date": to_date,
        "input_cached": cached,
    }


def _model(model_id: str, name: str, *history: dict) -> dict:
    return {"id": model_id, "name": name, "price_history": list(history)}


def _write(sources: Path, snapshot: str, vendor: str, models: list[dict]) -> None:
    rel = f"llm-prices-simonw/{snapshot}_data/{vendor}.json"
    path = sources / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"vendor": vendor, "models": models}, indent=2), encoding="utf-8")
    tsv = sources / "llm-prices-simonw" / "_PROVENANCE.tsv"
    if not tsv.exists():
        tsv.write_text(
            "file\trepo\tcommit\tcommit_date\tpath_in_repo\tbytes\tsha256\n", encoding="utf-8"
        )
    line = f"{rel}\tsimonw/llm-prices\t{COMMITS[snapshot]}\t{snapshot}\tdata/{vendor}.json\t0\t-\n"
    with tsv.open("a", encoding="utf-8") as fh:
        fh.write(line)


@pytest.fixture
def two_snapshots(tmp_path: Path) -> Path:
    gpt4o_old = _model("gpt-4o", "GPT-4o", _record(2.5, 10))
    gpt4o_new = _model("gpt-4o", "GPT-4o", _record(2.5, 10, cached=1.25))
    image = _model("gpt-image-1", "gpt-image-1 (image gen)", _record(10, 40))
    _write(tmp_path, "2025-10-10", "openai", [gpt4o_old, image])
    _write(tmp_path, "2025-11-07", "openai", [gpt4o_new, image])
    deepseek = _model(
        "deepseek-chat",
        "DeepSeek Chat",
        _record(0.27, 1.1, from_date="2025-02-08"),
        _record(0.14, 0.28, to_date="2025-02-08"),
    )
    _write(tmp_path, "2025-10-10", "deepseek", [deepseek])
    _write(tmp_path, "2025-11-07", "deepseek", [deepseek])
    _write(
        tmp_path,
        "2025-10-10",
        "google",
        [_model("gemini-2.5-flash", "Gemini 2.5 Flash", _record(0.15, 0.6))],
    )
    flash = _model("gemini-2.5-flash", "Gemini 2.5 Flash", _record(0.3, 2.5, cached=0.03))
    long_pro = _model("gemini-1.5-pro-128k", "Gemini 1.5 Pro >128k", _record(2.5, 10))
    _write(tmp_path, "2025-11-07", "google", [flash, long_pro])
    sonnet = _model(
        "claude-sonnet-5",
        "Claude Sonnet 5",
        _record(2, 10, to_date="2026-09-01"),
        _record(3, 15, from_date="2026-09-01"),
    )
    _write(tmp_path, "2025-11-07", "anthropic", [sonnet])
    return tmp_path


def _rows(frame: pl.DataFrame, name: str) -> list[dict]:
    return frame.filter(pl.col("source_model_name") == name).sort("date").to_dicts()


def test_same_record_in_two_snapshots_is_one_row_with_cached_price_filled_in(two_snapshots):
    prices = simonw.build(two_snapshots)["token_prices"]
    [row] = _rows(prices, "gpt-4o")
    assert row["date"] == dt.date(2025, 10, 10)  # first observed
    assert row["last_seen"] == dt.date(2025, 11, 7)
    assert (row["input_usd_per_mtok"], row["output_usd_per_mtok"]) == (2.5, 10.0)
    assert row["cached_input_usd_per_mtok"] == 1.25
    assert row["provider"] == "openai" and row["price_kind"] == "list" and row["currency"] == "USD"
    assert row["source_locator"].startswith(
        "llm-prices-simonw/2025-11-07_data/openai.json@e96acfddc154#"
    )


def test_changed_price_opens_a_new_row_at_the_snapshot_it_appears(two_snapshots):
    old, new = _rows(simonw.build(two_snapshots)["token_prices"], "gemini-2.5-flash")
    assert (old["date"], old["last_seen"], old["output_usd_per_mtok"]) == (
        dt.date(2025, 10, 10),
        dt.date(2025, 10, 10),
        0.6,
    )
    assert (new["date"], new["last_seen"], new["output_usd_per_mtok"]) == (
        dt.date(2025, 11, 7),
        dt.date(2025, 11, 7),
        2.5,
    )


def test_explicit_dates_win_and_an_ended_price_is_dated_on_its_last_day(two_snapshots):
    old, new = _rows(simonw.build(two_snapshots)["token_prices"], "deepseek-chat")
    assert (old["date"], old["last_seen"], old["input_usd_per_mtok"]) == (
        dt.date(2025, 2, 7),
        dt.date(2025, 2, 7),
        0.14,
    )
    assert (new["date"], new["last_seen"], new["input_usd_per_mtok"]) == (
        dt.date(2025, 2, 8),
        dt.date(2025, 11, 7),
        0.27,
    )


def test_price_announced_for_the_future_keeps_its_date_and_no_last_seen(two_snapshots):
    now, later = _rows(simonw.build(two_snapshots)["token_prices"], "claude-sonnet-5")
    assert (now["date"], now["last_seen"], now["input_usd_per_mtok"]) == (
        dt.date(2025, 11, 7),
        dt.date(2025, 11, 7),
        2.0,
    )
    assert (later["date"], later["last_seen"], later["input_usd_per_mtok"]) == (
        dt.date(2026, 9, 1),
        None,
        3.0,
    )


def test_long_context_id_becomes_a_tier_of_the_base_model_and_image_models_are_left_out(
    two_snapshots,
):
    prices = simonw.build(two_snapshots)["token_prices"]
    [tier] = _rows(prices, "gemini-1.5-pro-128k")
    assert (tier["model_hint"], tier["context_tier"]) == ("gemini-1.5-pro", ">128k")
    assert _rows(prices, "gpt-4o")[0]["context_tier"] == ""
    assert _rows(prices, "gpt-image-1") == []
    assert "model_id" not in prices.columns and "first_party" not in prices.columns


def test_one_model_with_two_different_prices_in_one_file_is_an_error(tmp_path):
    a = _model("grok-4-fast", "Grok 4 Fast", _record(0.2, 0.5))
    b = _model("grok-4-fast", "Grok 4 Fast ≤128k", _record(0.4, 1.0))
    _write(tmp_path, "2025-10-10", "xai", [a, b])
    with pytest.raises(DataError, match=r"grok-4-fast.*two different prices"):
        simonw.build(tmp_path)


def test_exact_repeat_of_a_model_in_one_file_is_one_row(tmp_path):
    a = _model("grok-4-fast", "Grok 4 Fast", _record(0.2, 0.5, cached=0.05))
    _write(tmp_path, "2025-10-10", "xai", [a, {**a, "name": "Grok 4 Fast ≤128k"}])
    assert len(simonw.build(tmp_path)["token_prices"]) == 1


def test_a_price_that_is_not_a_number_names_the_field(tmp_path):
    _write(tmp_path, "2025-10-10", "openai", [_model("gpt-4o", "GPT-4o", _record("2.5", 10))])
    path = tmp_path / "llm-prices-simonw/2025-10-10_data/openai.json"
    with pytest.raises(
        DataError, match=r"openai.json, column 'models\[0\].price_history\[0\].input'"
    ):
        simonw.parse_vendor_file(path)


@pytest.mark.sources
def test_real_snapshots_cover_eleven_vendors_and_keep_dated_changes(sources_dir):
    prices = simonw.build(sources_dir)["token_prices"]
    assert prices["provider"].n_unique() == 11
    assert prices["source_model_name"].n_unique() >= 140
    key = ["source_model_name", "provider", "date", "price_kind"]
    assert not prices.select(key).is_duplicated().any()
    deepseek = _rows(prices, "deepseek-chat")
    assert [(r["date"], r["input_usd_per_mtok"]) for r in deepseek] == [
        (dt.date(2025, 2, 7), 0.14),
        (dt.date(2025, 2, 8), 0.27),
    ]
    [gpt4o] = _rows(prices, "gpt-4o")
    assert (gpt4o["input_usd_per_mtok"], gpt4o["cached_input_usd_per_mtok"]) == (2.5, 1.25)
    assert gpt4o["last_seen"] == dt.date(2026, 8, 5)
