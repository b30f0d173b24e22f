"""Model metadata from Artificial Analysis, the April 2026 Epoch hub, token-tariff, METR and
OpenRouter's model list: small fixtures in the public formats."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import json
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import model_metadata as mm
from analysis.data.importers import openrouter

AA = {
    "meta": {"fetched_at": "2026-07-10T08:34:09+00:00"},
    "models": [
        {
            "name": "Qwen3.5 122B A10B (Non-reasoning)",
            "slug": "qwen3-5-122b-a10b-non-reasoning",
            "release_date": "2026-02-24",
            "creator": {"name": "Alibaba", "slug": "alibaba"},
            "open_weights": {"is_open_weights": True},
            "capabilities": {"total_parameters": 125, "active_parameters": 10},
            "reasoning_model": None,
        },
        {
            "name": "GPT-5.6 Sol (high)",
            "slug": "gpt-5-6-sol",
            "release_date": "2026-07-09",
            "creator": {"name": "OpenAI"},
            "open_weights": {"is_open_weights": False},
            "capabilities": {"total_parameters": None},
        },
        {"name": "", "slug": "nameless"},
    ],
}


def _write(root: Path, rel: str, text: str, provenance: list[str]) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    sha = hashlib.sha256(text.encode()).hexdigest()
    provenance.append(f"{rel}\towner/repo\tabcdef1234567890\t2026-07-10\t{rel}\t{len(text)}\t{sha}")
    return path


def _provenance(root: Path, folder: str, rows: list[str]) -> None:
    head = "file\trepo\tcommit\tcommit_date\tpath_in_repo\tbytes\tsha256"
    (root / folder / "_PROVENANCE.tsv").write_text(
        "\n".join([head, *rows]) + "\n", encoding="utf-8"
    )


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    aa: list[str] = []
    _write(tmp_path, "aa-leaderboards-oolong/2026-07-10_llms.json", json.dumps(AA), aa)
    older = json.loads(json.dumps(AA))
    older["models"][1]["release_date"] = "2025-07-09"  # an older snapshot with a year typo
    _write(tmp_path, "aa-leaderboards-oolong/2026-05-01_llms.json", json.dumps(older), aa)
    _provenance(tmp_path, "aa-leaderboards-oolong", aa)
    tt: list[str] = []
    _write(
        tmp_path,
        mm.TARIFF_FILE,
        "model,vendor,release_date\ngpt-4,OpenAI,2023-03-14\nclaude-3-opus,Anthropic,2024-03-04\n",
        tt,
    )
    _write(tmp_path, mm.METR_FILE, "date:\n  GPT-4o: 2024-05-13\n  o3: 2025-04-16\n", tt)
    _provenance(tmp_path, "token-tariff-timeline", tt)
    hub: list[str] = []
    _write(
        tmp_path,
        f"{mm.HUB_2026_DIR}/epoch_capabilities_index.csv",
        "Model version,ECI Score,Release date,Organization,Model accessibility,Display name\n"
        "gpt-5.5-pre-release_xhigh,157.9,2026-04-23,OpenAI,API access,GPT-5.5 (xhigh)\n",
        hub,
    )
    _provenance(tmp_path, "epoch-benchmarking-hub-2026-04", hub)
    return tmp_path


def test_artificial_analysis_identity_facts(sources):
    rows = {r["source_model_name"]: r for r in mm.aa_model_info(sources).to_dicts()}
    qwen = rows["Qwen3.5 122B A10B (Non-reasoning)"]
    assert (qwen["organization"], qwen["release_date"], qwen["open_weights"]) == (
        "Alibaba",
        dt.date(2026, 2, 24),
        True,
    )
    assert (qwen["parameters_b"], qwen["active_parameters_b"], qwen["reasoning"]) == (
        125.0,
        10.0,
        False,
    )
    assert rows["GPT-5.6 Sol (high)"]["reasoning"] is True  # an effort setting is a reasoning run
    assert "" not in rows
    # the newest snapshot's facts, and an older snapshot's differing release date kept beside them
    sol = (
        mm.aa_model_info(sources)
        .filter(pl.col("source_model_name") == "GPT-5.6 Sol (high)")["release_date"]
        .to_list()
    )
    assert sorted(sol) == [dt.date(2025, 7, 9), dt.date(2026, 7, 9)]
    loc = qwen["source_locator"]
    assert loc.startswith("aa-leaderboards-oolong/2026-07-10_llms.json@abcdef123456#models[0]")


def test_hub_tariff_and_metr_dates(sources):
    out = mm.build(sources)["model_info"]
    by = {(r["source_id"], r["source_model_name"]): r for r in out.to_dicts()}
    assert by[(mm.HUB_2026_ID, "gpt-5.5-pre-release_xhigh")]["release_date"] == dt.date(2026, 4, 23)
    assert by[(mm.HUB_2026_ID, "gpt-5.5-pre-release_xhigh")]["open_weights"] is False
    assert by[(mm.TARIFF_ID, "claude-3-opus")]["organization"] == "Anthropic"
    assert by[(mm.METR_ID, "o3")]["release_date"] == dt.date(2025, 4, 16)


def test_a_bad_release_date_is_located(sources):
    bad = json.loads(json.dumps(AA))
    bad["models"][0]["release_date"] = "2026-02-30"
    path = sources / "aa-leaderboards-oolong" / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(
        DataError, match=r"bad.json, row 0, column 'release_date': value '2026-02-30'"
    ):
        mm.parse_aa_snapshot(path)


def test_openrouter_model_list_states_author_listing_date_and_mandatory_reasoning(tmp_path):
    header = ["scrape_date", "id", "model_slug", "variant", "modality", "prompt_price",
              "completion_price", "name", "author", "created_at", "headliner_json"]  # fmt: skip
    path = tmp_path / "date=2026-08-08.csv"
    rows = [
        ["2026-08-08", "qwen/qwen3.8-max", "qwen/qwen3.8-max", "standard", "text->text", "0.000002",
         "0.000006", "Qwen: Qwen3.8 Max", "qwen", "2026-08-03T04:33:32+00:00",
         json.dumps({"reasoning": {"mandatory": True}, "supported_parameters": ["reasoning"]})],
        ["2026-08-08", "openai/o1", "openai/o1", "standard", "text->text", "0.000015", "0.00006",
         "OpenAI: o1", "openai", "2024-12-17T00:00:00+00:00",
         json.dumps({"reasoning": {"mandatory": False}})],
        ["2026-08-08", "~openai/gpt-latest", "~openai/gpt-latest", "standard", "text->text", "1", "1",
         "GPT Latest", "~openai", "2026-08-01T00:00:00+00:00", ""],
    ]  # fmt: skip
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    info = {r["source_model_name"]: r for r in openrouter.parse_model_info(path)}
    assert set(info) == {"qwen/qwen3.8-max", "openai/o1"}  # routers (~) are not models
    qwen = info["qwen/qwen3.8-max"]
    assert (qwen["name"], qwen["organization"], qwen["release_date"], qwen["reasoning"]) == (
        "Qwen3.8 Max",
        "qwen",
        dt.date(2026, 8, 3),
        True,
    )
    assert info["openai/o1"]["reasoning"] is None  # `mandatory: false` for o1 is not a statement
