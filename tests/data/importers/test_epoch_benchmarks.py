"""Epoch Benchmarking Hub and benchmark-stitching scores: units, dates, skips, best-of, errors."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import epoch_benchmarks as eb
from analysis.data.importers.common import provenance

HUB_COMMIT = "a6381e26b51c771ff73ecaffbb7dafbbbb411af5"
STITCH_COMMIT = "f87d3cc8e8a8f8471be475ebce58fb9a73b4e756"
RUN_COLS = "id,task,model,Best score (across scorers),Scores,log viewer,logs,job,started_at,Status,Manual evaluation,task version\n"

HUB = {
    "gpqa_diamond.csv": (
        "Model version,mean_score,Best score (across scorers),Release date,Organization,Country,"
        "Training compute (FLOP),Training compute notes,stderr,Log viewer,Logs,Started at,id\n"
        "gemini-3-flash-preview,0.8320707070707071,0.8320707070707071,2025-12-17,Google DeepMind,"
        '"United Kingdom,United States of America",,,0.019,,,2025-12-17,oAu9\n'
        'gpt-4o-2024-08-06,0.85,0.85,2024-08-06,OpenAI,United States of America,3.8e+25,"Estimate\n'
        'spanning two lines",0.02,,,2024-09-01,x1\n'
        "mystery-model,0.5,0.5,,,,,,0.03,,,2024-09-01,x2\n"
    ),
    "mmlu_external.csv": (
        "Model version,EM,Release date,Organization,Country,Training compute (FLOP),"
        "Training compute notes,Name,Shots,Source,Source link,Notes,id\n"
        "Baichuan2-13B-Chat,0.551,2023-09-06,Baichuan,China,,,Baichuan2-Chat 13B,0,Yi report,,,r1\n"
        "Baichuan2-13B-Chat,0.501,2023-09-06,Baichuan,China,,,Baichuan2-Chat 13B,5,Yi report,,,r2\n"
        ",0.633,,,,,,Palmyra X (43B),5,,Standford HELM,,r3\n"
    ),
    "epoch_capabilities_index.csv": (
        "Model version,ECI Score,Release date,Organization,Country,Model accessibility,"
        "Training compute (FLOP),Confidence,Model name,Description,Display name\n"
        "gpt-5.2-pro-2025-12-11-webapp,152.4182891569458,2025-12-11,OpenAI,USA,,,Unverified,"
        "GPT-5.2,,GPT-5.2 (Pro)\n"
        "chutes/Qwen3-32B,,2025-04-28,Alibaba,China,Open weights (unrestricted),7.0848e+24,"
        "Confident,Qwen3-32B,,\n"
        "gpt-4o-2024-08-06,130.5,2024-08-06,OpenAI,USA,API access,,Likely,GPT-4o,,\n"
    ),
    "webdev_arena_external.csv": (
        "Model version,Arena Score,Release date,Organization,Country,Training compute (FLOP),"
        "Training compute notes,Score 95% CI,Votes,Last updated,Source,"
        "Source link (site from table),Notes,id\n"
        "claude-opus-4-5-20251101_32K,1512,2025-11-24,Anthropic,USA,,,=+11/-11,4564,2026-01-05,"
        "WebDev Arena Leaderboard,,,recQ\n"
    ),
}

STITCHING = {
    "model_versions.csv": (
        "\ufeffid,Model,Version release date,Hugging Face developer id,Link,Notes,"
        "benchmarks/runs,Display name,Unique display name\n"
        "gpt-4o-2024-08-06,GPT-4o,2024-08-06,,,,,GPT-4o,GPT-4o\n"
        "o3-2025-04-16_low,o3,2025-04-16,,,,,o3 (low),o3 (low)\n"
        "code-davinci-002,GPT-3.5,,,,,,,\n"
    ),
    "external_benchmark_mmlu.csv": (
        "\ufeffid,Name,EM,Model version,Shots,Source,Source link,Notes\n"
        "rec1,GPT-4o,88.7%,gpt-4o-2024-08-06,5,OpenAI,,\n"
        "rec2,code-davinci,68.0%,code-davinci-002,5,paper,,\n"
        "rec3,Palmyra,63.3%,,5,HELM,,\n"
    ),
    "benchmarks_runs.csv": (
        "\ufeff" + RUN_COLS + "r1,FrontierMath-2025-02-28-Private,o3-2025-04-16_low,0.097,x,,,,"
        "16 November 2025 8:17pm,Success,,1.1.0\n"
        "r2,FrontierMath-2025-02-28-Public,o3-2025-04-16_low,0.100,x,,,,"
        "16 November 2025 8:17pm,Success,,1.1.0\n"
        "r3,GPQA diamond,code-davinci-002,0.300,x,,,,1 May 2025 1:00pm,Success,,1.0.0\n"
        "r4,GPQA diamond,gpt-4o-2024-08-06,0.850,x,,,,1 May 2025 1:00pm,Success,,1.0.0\n"
    ),
}


def _write_folder(
    root: Path, folder: str, files: dict[str, str], repo: str, commit: str, date: str
):
    data = root / folder
    data.mkdir(parents=True, exist_ok=True)
    top = folder.split("/", 1)[0]
    with (root / top / "_PROVENANCE.tsv").open("w", newline="") as fh:
        w = csv.writer(fh, delimiter="\t")
        w.writerow(["file", "repo", "commit", "commit_date", "path_in_repo", "bytes", "sha256"])
        for name, text in files.items():
            (data / name).write_text(text, encoding="utf-8")
            w.writerow([f"{folder}/{name}", repo, commit, date, name, len(text), "0" * 64])


def write_sources(root: Path, hub: dict | None = None, stitching: dict | None = None) -> Path:
    repo = "hansgundlach/Algorithmic_Progress_Inference"
    _write_folder(root, eb.HUB_DIR, hub or HUB, repo, HUB_COMMIT, "2026-04-27")
    stitch_repo = "epoch-research/benchmark-stitching"
    _write_folder(
        root, eb.STITCHING_DIR, stitching or STITCHING, stitch_repo, STITCH_COMMIT, "2025-12-03"
    )
    return root


@pytest.fixture
def built(tmp_path):
    return eb.build(write_sources(tmp_path))["benchmark_scores"]


def _one(scores: pl.DataFrame, source: str, benchmark: str, model: str) -> dict:
    rows = scores.filter(
        (pl.col("source_id") == source)
        & (pl.col("benchmark") == benchmark)
        & (pl.col("source_model_name") == model)
    )
    assert rows.height == 1, rows
    return rows.row(0, named=True)


def test_hub_fractions_become_percent_without_binary_noise(built):
    gemini = _one(built, eb.HUB_ID, "gpqa-diamond", "gemini-3-flash-preview")
    assert gemini["score"] == 83.20707070707071
    assert gemini["unit"] == "percent"
    assert gemini["date"] == dt.date(2025, 12, 17)
    # 0.85 * 100 is 85.00000000000001 in binary floating point; decimal arithmetic gives 85.
    assert _one(built, eb.HUB_ID, "gpqa-diamond", "gpt-4o-2024-08-06")["score"] == 85.0


def test_hub_multiline_record_keeps_row_numbering(built):
    row = _one(built, eb.HUB_ID, "gpqa-diamond", "gpt-4o-2024-08-06")
    assert row["source_locator"].endswith(f"gpqa_diamond.csv@{HUB_COMMIT[:12]}#row 2")


def test_index_and_elo_units(built):
    eci = _one(built, eb.HUB_ID, "eci", "gpt-5.2-pro-2025-12-11-webapp")
    assert (eci["score"], eci["unit"]) == (152.4182891569458, "index")
    arena = _one(built, eb.HUB_ID, "webdev-arena", "claude-opus-4-5-20251101_32K")
    assert (arena["score"], arena["unit"], arena["model_hint"]) == (
        1512.0,
        "elo",
        "claude-opus-4-5-20251101",
    )


def test_best_of_several_results_is_kept_and_counted(tmp_path):
    root = write_sources(tmp_path)
    parsed = eb.parse_hub_file(root / eb.HUB_DIR / "mmlu_external.csv", eb.BENCHMARKS[1], root)
    assert [(r["score"], r["source_locator"][-5:]) for r in parsed.rows] == [(55.1, "row 1")]
    assert parsed.skipped == {"no model version": 1, "not the model version's best score": 1}


def test_hub_rows_without_date_or_score_are_skipped_and_counted(tmp_path):
    root = write_sources(tmp_path)
    gpqa = next(b for b in eb.BENCHMARKS if b.benchmark == "gpqa-diamond")
    parsed = eb.parse_hub_file(root / eb.HUB_DIR / "gpqa_diamond.csv", gpqa, root)
    assert parsed.skipped == {"no release date": 1}
    eci = eb.parse_hub_file(
        root / eb.HUB_DIR / "epoch_capabilities_index.csv", eb.BENCHMARKS[0], root
    )
    assert eci.skipped == {"no score": 1}


def test_stitching_scores_are_dated_by_model_versions(built):
    mmlu = _one(built, eb.STITCHING_ID, "mmlu", "gpt-4o-2024-08-06")
    assert (mmlu["score"], mmlu["date"]) == (88.7, dt.date(2024, 8, 6))
    runs = built.filter(pl.col("source_id") == eb.STITCHING_ID)
    # code-davinci-002 has no release date in model_versions.csv: none of its scores survive.
    assert "code-davinci-002" not in runs["source_model_name"].to_list()


def test_runs_keep_private_and_public_frontiermath_apart(built):
    private = _one(built, eb.STITCHING_ID, "frontiermath", "o3-2025-04-16_low")
    public = _one(built, eb.STITCHING_ID, "frontiermath-public", "o3-2025-04-16_low")
    assert (private["score"], public["score"]) == (9.7, 10.0)
    assert private["date"] == dt.date(2025, 4, 16)
    assert private["model_hint"] == "o3-2025-04-16"


def test_runs_skip_counts(tmp_path):
    root = write_sources(tmp_path)
    data = root / eb.STITCHING_DIR
    dates = eb.read_release_dates(data / "model_versions.csv")
    parsed = eb.parse_runs(data / "benchmarks_runs.csv", dates, root)
    assert len(parsed.rows) == 3
    assert parsed.skipped == {"no release date": 1}


def test_model_info_from_the_hub(tmp_path):
    info = eb.build(write_sources(tmp_path))["model_info"]
    by_version = {r["source_model_name"]: r for r in info.iter_rows(named=True)}
    qwen = by_version["chutes/Qwen3-32B"]
    assert (qwen["model_hint"], qwen["open_weights"], qwen["organization"]) == (
        "qwen3-32b",
        True,
        "Alibaba",
    )
    pro = by_version["gpt-5.2-pro-2025-12-11-webapp"]
    assert (pro["name"], pro["open_weights"], pro["release_date"]) == (
        "GPT-5.2 (Pro)",
        None,
        dt.date(2025, 12, 11),
    )
    assert by_version["gpt-4o-2024-08-06"]["open_weights"] is False
    assert "mystery-model" in by_version  # named in gpqa_diamond.csv, no date
    assert by_version["mystery-model"]["release_date"] is None


def test_fraction_above_one_is_an_error(tmp_path):
    hub = dict(HUB, **{"gpqa_diamond.csv": HUB["gpqa_diamond.csv"].replace("0.85,0.85", "85,85")})
    with pytest.raises(DataError) as err:
        eb.build(write_sources(tmp_path, hub=hub))
    assert (
        "gpqa_diamond.csv, row 2, column 'mean_score': value '85': must be a fraction in 0-1"
        in str(err.value)
    )


def test_percent_string_without_sign_is_an_error(tmp_path):
    files = dict(STITCHING)
    files["external_benchmark_mmlu.csv"] = files["external_benchmark_mmlu.csv"].replace(
        "88.7%", "88.7"
    )
    with pytest.raises(
        DataError, match=r"external_benchmark_mmlu.csv, row 1, column 'EM'.*percent string"
    ):
        eb.build(write_sources(tmp_path, stitching=files))


def test_bad_release_date_is_an_error(tmp_path):
    hub = dict(
        HUB,
        **{
            "webdev_arena_external.csv": HUB["webdev_arena_external.csv"].replace(
                "2025-11-24", "24/11/2025"
            )
        },
    )
    with pytest.raises(DataError, match=r"row 1, column 'Release date'.*ISO date"):
        eb.build(write_sources(tmp_path, hub=hub))


def test_unknown_accessibility_is_an_error(tmp_path):
    eci = HUB["epoch_capabilities_index.csv"].replace("API access", "Open-ish")
    with pytest.raises(DataError, match=r"row 3, column 'Model accessibility'"):
        eb.build(write_sources(tmp_path, hub=dict(HUB, **{"epoch_capabilities_index.csv": eci})))


# --- the real files -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real(sources_dir):
    return eb.build(sources_dir)


def test_real_every_file_is_mapped_or_skipped_with_a_reason(sources_dir):
    mapped = {c.file for b in eb.BENCHMARKS for c in (b.hub, b.stitching) if c}
    mapped |= {"benchmarks_runs.csv"}
    for folder in (eb.HUB_DIR, eb.STITCHING_DIR):
        on_disk = {p.name for p in (sources_dir / folder).glob("*.csv")}
        assert on_disk - mapped - set(eb.SKIPPED_FILES) == set(), folder
        assert mapped & on_disk, folder


def test_real_coverage_of_the_benchmarks_the_book_uses(real):
    counts = {
        (s, b): n
        for s, b, n in real["benchmark_scores"].group_by("source_id", "benchmark").len().iter_rows()
    }
    hub, st = eb.HUB_ID, eb.STITCHING_ID
    assert counts[(hub, "gpqa-diamond")] == 145  # every row of gpqa_diamond.csv
    assert counts[(hub, "eci")] >= 270
    assert counts[(hub, "mmlu")] >= 130
    assert counts[(hub, "math-level-5")] == 108
    assert counts[(st, "gpqa-diamond")] >= 130
    assert counts[(st, "frontiermath")] >= 50
    assert counts[(hub, "webdev-arena")] >= 20


def test_real_scores_are_in_range_and_dated(real):
    scores = real["benchmark_scores"]
    percent = scores.filter(pl.col("unit") == "percent")["score"]
    assert percent.min() >= 0 and percent.max() <= 100
    assert scores["date"].null_count() == 0
    hub = scores.filter(pl.col("source_id") == eb.HUB_ID)
    assert str(hub["date"].max()) == "2025-12-22"


def test_real_model_info_covers_the_eci_models(real):
    info = real["model_info"]
    assert info["source_model_name"].n_unique() == info.height
    assert info.height >= 498
    assert info["open_weights"].sum() >= 190  # 197 ECI rows say open weights


def test_real_sources_rows_match_provenance(sources_dir):
    hub = sources_dir / eb.HUB_DIR / "gpqa_diamond.csv"
    runs = sources_dir / eb.STITCHING_DIR / "benchmarks_runs.csv"
    retrieved = {s["source_id"]: s["retrieved"] for s in eb.SOURCES}
    assert retrieved[eb.HUB_ID] == provenance(sources_dir, hub).commit_date
    assert retrieved[eb.STITCHING_ID] == provenance(sources_dir, runs).commit_date
