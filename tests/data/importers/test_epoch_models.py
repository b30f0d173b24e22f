"""The Epoch model-metadata importer, on small fixtures and on the real files."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from analysis.data.curate.models_table import build_models
from analysis.data.errors import DataError
from analysis.data.importers import epoch_models
from analysis.data.models import MODEL_INFO_COLUMNS, resolve
from analysis.data.schema import TABLES

ML_HEADER = "Model,Domain,Organization,Publication date,Parameters,Model accessibility,Training compute (FLOP)\n"
ML_ROWS = [
    'GPT-4o,"Multimodal,Language,Audio",OpenAI,2024-05-13,,API access,3.8e25\n',
    "AlphaFold 2,Biology,Google DeepMind,2021-07-15,93000000,Open weights (unrestricted),\n",
    "Llama 3.1-405B,Language,Meta AI,2024-07-23,405000000000.0,Open weights (restricted use),\n",
    '"ALLaM adapted13B\n",Language,SDAIA,2024-05-21,13000000000,,\n',
]
MV_HEADER = "\ufeffid,Model,Version release date,Hugging Face developer id\n"
MV_ROWS = [
    "gpt-4o-2024-08-06,GPT-4o,2024-08-06,\n",
    "code-davinci-002,GPT-3.5,,\n",
    "o1-2024-12-17_high,o1,2024-12-17,\n",
]


def _sources(tmp_path: Path, ml_rows: list[str] = ML_ROWS, mv_rows: list[str] = MV_ROWS) -> Path:
    files = {
        epoch_models.ML_SYSTEMS: ML_HEADER + "".join(ml_rows),
        epoch_models.MODEL_VERSIONS: MV_HEADER + "".join(mv_rows),
    }
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        folder = rel.parts[0]
        line = f"{rel.as_posix()}\tepoch-research/x\t{'ab' * 20}\t2026-01-01\t{rel.name}\t{len(text)}\t00\n"
        (tmp_path / folder / "_PROVENANCE.tsv").write_text(
            "file\trepo\tcommit\tcommit_date\tpath_in_repo\tbytes\tsha256\n" + line,
            encoding="utf-8",
        )
    return tmp_path


def test_fixture_gives_language_models_with_their_facts(tmp_path: Path) -> None:
    info = epoch_models.build(_sources(tmp_path))["model_info"]
    assert info.columns == MODEL_INFO_COLUMNS
    ml = info.filter(pl.col("source_id") == "epoch-ai-models")
    assert ml["source_model_name"].to_list() == [
        "GPT-4o",
        "Llama 3.1-405B",
        "ALLaM adapted13B",
    ]  # no AlphaFold
    gpt, llama, allam = ml.rows(named=True)
    assert (gpt["release_date"], gpt["organization"], gpt["open_weights"], gpt["parameters_b"]) == (
        dt.date(2024, 5, 13), "OpenAI", False, None)  # fmt: skip
    assert (llama["parameters_b"], llama["open_weights"], llama["model_hint"]) == (
        405.0,
        True,
        "llama-3.1-405b",
    )
    assert allam["open_weights"] is None
    assert gpt["source_locator"] == f"{epoch_models.ML_SYSTEMS.as_posix()}@abababababab#row 1"
    assert llama["source_locator"].endswith("#row 3")
    mv = info.filter(pl.col("source_id") == "epoch-benchmark-stitching")
    assert mv.select("source_model_name", "release_date").rows() == [
        ("gpt-4o-2024-08-06", dt.date(2024, 8, 6)), ("code-davinci-002", None), ("o1-2024-12-17_high", dt.date(2024, 12, 17))]  # fmt: skip
    assert mv["source_locator"][0].endswith("#key gpt-4o-2024-08-06")
    assert mv["organization"].null_count() == 3 and mv["parameters_b"].null_count() == 3


def test_fixture_feeds_the_models_table(tmp_path: Path) -> None:
    info = epoch_models.build(_sources(tmp_path))["model_info"]
    names = pl.DataFrame({"source_id": ["x", "x"], "source_model_name": ["openai/gpt-4o-2024-08-06", "gpt-4o"],
                          "model_hint": ["gpt-4o-2024-08-06", "gpt-4o"]})  # fmt: skip
    out = build_models(resolve(names, info), info)
    assert out.columns == TABLES["models"].column_names
    rows = {r["model_id"]: r for r in out.rows(named=True)}
    assert rows["gpt-4o"]["release_date"] == dt.date(2024, 5, 13)
    assert rows["gpt-4o"]["info_source_id"] == "epoch-ai-models"
    assert rows["gpt-4o-2024-08-06"]["release_date"] == dt.date(2024, 8, 6)
    assert rows["gpt-4o-2024-08-06"]["info_source_id"] == "epoch-benchmark-stitching"


@pytest.mark.parametrize(
    ("ml_rows", "message"),
    [
        (
            ["X,Language,Org,13/05/2024,,API access,\n"],
            r"row 1, column 'Publication date': value '13/05/2024'.*ISO date",
        ),
        (
            ["X,Language,Org,2024-05-13,7B,API access,\n"],
            r"row 1, column 'Parameters': value '7B'.*number",
        ),
        (["X,Language,Org,2024-05-13,-7,API access,\n"], r"column 'Parameters'.*negative"),
        (["X,Language,Org,2024-05-13,,Maybe,\n"], r"column 'Model accessibility': value 'Maybe'"),
        (['" ",Language,Org,2024-05-13,,,\n'], r"row 1, column 'Model'.*needs a name"),
    ],
)
def test_bad_ml_systems_rows_name_file_row_column_value(
    tmp_path: Path, ml_rows: list[str], message: str
) -> None:
    with pytest.raises(DataError, match=message) as err:
        epoch_models.build(_sources(tmp_path, ml_rows=ml_rows))
    assert "All ML Systems - full view.csv" in str(err.value)


def test_bad_version_date_is_reported(tmp_path: Path) -> None:
    with pytest.raises(
        DataError,
        match=r"model_versions.csv, row 2, column 'Version release date': value '2024-13-01'",
    ):
        epoch_models.build(_sources(tmp_path, mv_rows=["a,A,2024-01-01,\n", "b,B,2024-13-01,\n"]))


def test_missing_column_is_reported(tmp_path: Path) -> None:
    src = _sources(tmp_path)
    (src / epoch_models.MODEL_VERSIONS).write_text("id,Model\na,A\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"Version release date.*required column missing"):
        epoch_models.build(src)


def test_sources_rows_follow_the_schema() -> None:
    cols = TABLES["sources"].column_names
    for row in epoch_models.SOURCES:
        assert sorted(row) == sorted(cols)
    assert [r["source_id"] for r in epoch_models.SOURCES] == [
        "epoch-ai-models",
        "epoch-benchmark-stitching",
    ]


def test_real_files(sources_dir: Path) -> None:
    info = epoch_models.build(sources_dir)["model_info"]
    counts = dict(info.group_by("source_id").len().rows())
    assert counts == {"epoch-ai-models": 1023, "epoch-benchmark-stitching": 574}
    assert info.equals(epoch_models.build(sources_dir)["model_info"])  # deterministic
    gpt4o = info.filter(pl.col("source_model_name") == "GPT-4o").row(0, named=True)
    assert (gpt4o["release_date"], gpt4o["organization"]) == (dt.date(2024, 5, 13), "OpenAI")
    r1 = info.filter(pl.col("source_model_name") == "DeepSeek-R1").row(0, named=True)
    assert (r1["parameters_b"], r1["open_weights"]) == (671.0, True)
    sonnet = info.filter(pl.col("source_model_name") == "claude-3-5-sonnet-20241022").row(
        0, named=True
    )
    assert sonnet["release_date"] == dt.date(2024, 10, 22)
    assert info["source_locator"].str.contains(r"@[0-9a-f]{12}#(row \d+|key .+)$").all()
    assert info["model_hint"].str.len_chars().min() > 0
