"""The rules the issue found missing, version names, the data root, and the rules at scale.

Expected numbers come from outside the validator: the synthetic panel records every cell it
breaks, the release's zero GPU-hour quotes are counted with the csv module, and dates are
hand-picked around the rules' limits.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import sys
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from analysis.data import build, paths, rules
from analysis.data import release as data
from analysis.data.errors import DataError
from analysis.data.paths import DATA_DIR, ROOT
from analysis.data.release import read_table_csv, version_date
from analysis.data.schema import TABLE_ORDER
from analysis.data.validate import check, validate_folder


def _load(name: str, folder: Path):
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


fx = _load("valid_fixture", Path(__file__).parent)
synthetic = _load("synthetic", ROOT / "benchmarks")


def released(tmp_path: Path, version: str, change=None) -> Path:
    """The valid fixture released as `version` by the real build code (`change` edits the frames)."""
    source = fx.write_valid(tmp_path / "fixture")
    tables = {t: read_table_csv(source / f"{t}.csv", t) for t in TABLE_ORDER}
    if change:
        change(tables)
    return build.write_version(tables, tmp_path / "data", version, "fixture")


# --- the rules the issue lists ------------------------------------------------------------------


def test_dates_just_inside_the_limits_pass_and_just_outside_fail(tmp_path: Path):
    folder = fx.write_valid(tmp_path / "data")
    fx.replace_cell(folder, "token_prices", 1, "date", "2000-01-01")
    fx.replace_cell(folder, "token_prices", 2, "date", "1999-12-31")
    today = date(2026, 12, 1)
    fx.replace_cell(folder, "gpu_hour_prices", 1, "date", "2027-12-02")  # 366 days on: allowed
    got = rules.check_csv(folder / "token_prices.csv", "token_prices", today=today).problems
    assert [(p.row, p.column, p.value) for p in got] == [(2, "date", "1999-12-31")]
    assert (
        rules.check_csv(folder / "gpu_hour_prices.csv", "gpu_hour_prices", today=today).problems
        == []
    )
    fx.replace_cell(folder, "gpu_hour_prices", 1, "date", "2027-12-03")  # 367 days: refused
    (p,) = rules.check_csv(folder / "gpu_hour_prices.csv", "gpu_hour_prices", today=today).problems
    assert "future" in p.rule and p.value == "2027-12-03"


def test_history_tables_may_reach_before_2000(tmp_path: Path):
    folder = fx.write_valid(tmp_path / "data")
    fx.replace_cell(folder, "cpi", 1, "month", "1913-01-01")
    fx.replace_cell(folder, "fx_rates", 1, "month", "1971-01-01")
    assert validate_folder(folder) == []


@pytest.mark.parametrize(
    ("unit", "score", "ok"),
    [
        ("percent", "100", True),
        ("percent", "0", True),
        ("percent", "100.1", False),
        ("elo", "1512", True),
        ("index", "153.8", True),
    ],
)
def test_only_percentage_scores_are_bounded(unit, score, ok, tmp_path: Path):
    folder = fx.write_valid(tmp_path / "data")
    fx.replace_cell(folder, "benchmark_scores", 1, "unit", unit)
    fx.replace_cell(folder, "benchmark_scores", 1, "score", score)
    assert (validate_folder(folder) == []) is ok


def test_zero_gpu_hours_are_refused_from_the_next_release_on(tmp_path: Path):
    def zero(tables: dict) -> None:
        tables["gpu_hour_prices"] = tables["gpu_hour_prices"].with_columns(usd_per_gpu_hour=0.0)

    with pytest.raises(DataError, match=r"must be above \$0\.00"):
        released(tmp_path / "new", "2026-12-15", zero)
    # A release up to 2026-11-30 predates the rule: it is a note, and it loads.
    old = released(tmp_path / "old", "2026-11-30", zero)
    report = check(old)
    assert report.problems == []
    assert any("1 row(s) break a rule" in n and "$0.00" in n for n in report.notes)
    assert (
        read_table_csv(old / "gpu_hour_prices.csv", "gpu_hour_prices")["usd_per_gpu_hour"][0] == 0
    )


def test_the_first_release_holds_66_zero_gpu_hours_noted_not_refused():
    path = DATA_DIR / "2026-11-30" / "gpu_hour_prices.csv"
    with path.open(newline="", encoding="utf-8") as fh:
        zeros = sum(float(r["usd_per_gpu_hour"]) == 0 for r in csv.DictReader(fh))
    assert zeros == 66
    report = check(DATA_DIR / "2026-11-30")
    assert report.problems == []
    assert any(f"{zeros} row(s) break a rule" in n for n in report.notes)


# --- version names, the data root ---------------------------------------------------------------


def test_version_names():
    assert version_date("2026-12-01") == date(2026, 12, 1)
    assert version_date("2026-12-01.2") == date(2026, 12, 1)
    for bad in ["2026-13-01", "latest", "2026-12-01.x", "2026-12-1"]:
        with pytest.raises(DataError):
            version_date(bad)


def test_a_second_release_on_one_day_renders(tmp_path: Path, monkeypatch):
    """`YYYY-MM-DD.N` used to crash the a16z reproduction (it read the version as a date)."""
    from analysis.report import results

    root = tmp_path / "data"
    # A new version holds every table the latest release holds (the schema may have gained a
    # table no release holds yet, as aa_index_runs did before its release was cut).
    base = data.latest_version()
    assert set(data.tables(base)) <= set(TABLE_ORDER)
    tables = {t: data.load(t, base) for t in data.tables(base)}
    day = str(data.version_date(base))
    second = f"{day}.3" if base == f"{day}.2" else f"{day}.2"
    build.write_version(tables, root, second, "another release on the same day")
    monkeypatch.setattr(paths, "DATA_DIR", root)
    assert data.latest_version() == second
    series, fits = results.a16z(second)
    assert fits["data_version"] == second and series.height > 0
    assert data.citation().startswith(
        f"The Economics of AI Inference: data, data version {second} (released {day})"
    )


def test_an_older_release_loads_the_tables_it_declares_and_no_others():
    """2026-11-30 predates the observations table and the curated columns."""
    path = DATA_DIR / "2026-11-30" / "datapackage.json"
    declared = [r["name"] for r in json.loads(path.read_text())["resources"]]
    assert "observations" not in declared
    assert data.tables("2026-11-30") == [t for t in TABLE_ORDER if t in declared]
    with pytest.raises(DataError, match="has no table 'observations'"):
        data.load("observations", "2026-11-30")
    gpu = data.load("gpu_hour_prices", "2026-11-30")
    assert gpu["flags"].is_null().all()  # a column the release predates loads as nulls


def test_the_data_root_is_validated_version_by_version(cli):
    """Once, through the CLI (`check` itself is what `data validate` prints): it names every
    version of the index in order, and finds no problem (none printed, exit 0)."""
    run = cli("data", "validate", "--data-dir", str(DATA_DIR))
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout == ""
    listed = ", ".join(
        r["version"] for r in json.loads((DATA_DIR / "versions.json").read_text())["releases"]
    )
    assert f"(versions {listed}): 0 problem(s)" in run.stderr


def test_a_folder_with_no_data_says_where_to_point(tmp_path: Path, cli):
    run = cli("data", "validate", "--data-dir", str(tmp_path))
    assert run.returncode == 1
    assert "point --data-dir at a version folder (data/<version>/)" in run.stdout


def test_a_root_checks_its_index(tmp_path: Path):
    folder = released(tmp_path, "2026-12-15")
    index = folder.parent / "versions.json"
    doc = json.loads(index.read_text())
    doc["releases"].append({**doc["releases"][0], "version": "2026-12-16"})
    index.write_text(json.dumps(doc))
    problems = validate_folder(folder.parent)
    assert [(Path(p.file).name, p.value) for p in problems] == [("versions.json", "2026-12-16")]
    assert "no folder" in problems[0].rule


def test_loading_an_edited_release_fails_with_the_same_problems_as_validate(
    tmp_path: Path, monkeypatch
):
    folder = released(tmp_path, "2026-12-15")
    fx.replace_cell(folder, "token_prices", 2, "output_usd_per_mtok", "NaN")
    monkeypatch.setattr(paths, "DATA_DIR", folder.parent)
    with pytest.raises(DataError) as err:
        data.load("token_prices")
    located = [p for p in validate_folder(folder) if "checksum" not in p.rule]
    assert err.value.problems == located
    assert (located[0].row, located[0].column, located[0].value) == (
        2,
        "output_usd_per_mtok",
        "NaN",
    )


# --- at scale: every broken cell found, nothing else ----------------------------------------------


@pytest.fixture(scope="module")
def panel(tmp_path_factory) -> synthetic.Panel:
    return synthetic.write_panel(tmp_path_factory.mktemp("panel"), 40_000, seed=3)


def test_the_synthetic_panel_reports_exactly_the_broken_cells(panel):
    refs = {t: rules.key_values(panel.folder / f"{t}.csv", t) for t in ("models", "sources")}
    got = rules.check_csv(panel.folder / "token_prices.csv", "token_prices", refs=refs)
    log = pl.read_csv(panel.folder / "broken.csv", schema_overrides={"row": pl.UInt32})
    cells = {(p.row, p.column) for p in got.problems if p.column}
    assert cells == set(zip(log["row"], log["column"], strict=True))
    for kind in log.group_by("rule").len().iter_rows():
        # Each kind of break gets its rule named (the log says which rule it must be).
        assert sum(kind[0] in p.rule for p in got.problems if p.column) == kind[1], kind
    dups = [p for p in got.problems if p.rule.startswith("primary-key")]
    assert len(dups) == panel.duplicate_rows
    assert len(got.problems) == panel.bad_cells + panel.duplicate_rows


def test_loading_with_problems_kept_aside_returns_exactly_the_clean_rows(panel):
    refs = {t: rules.key_values(panel.folder / f"{t}.csv", t) for t in ("models", "sources")}
    got = rules.check_csv(panel.folder / "token_prices.csv", "token_prices", refs=refs, frame=True)
    assert got.frame.height == panel.rows - panel.bad_cells - panel.duplicate_rows
    assert got.frame.schema["date"] == pl.Date and got.frame["input_usd_per_mtok"].is_finite().all()


def test_rows_written_to_parquet_as_the_pass_goes_are_the_loaded_rows(panel, tmp_path: Path):
    refs = {t: rules.key_values(panel.folder / f"{t}.csv", t) for t in ("models", "sources")}
    path, keep = panel.folder / "token_prices.csv", ["model_id", "date", "input_usd_per_mtok"]
    held = rules.check_csv(path, "token_prices", refs=refs, frame=True, keep=keep)
    sunk = rules.check_csv(path, "token_prices", refs=refs, keep=keep, parquet=tmp_path / "tp")
    assert sunk.frame is None and sunk.problems == held.problems
    # Duplicated keys past the first are found after the pass: left out of the files' rows too.
    assert sunk.lazy.collect().equals(held.frame)
    assert len(list((tmp_path / "tp").glob("*.parquet"))) >= 1


def test_a_row_the_quick_pass_flags_but_no_rule_names_still_loads(tmp_path: Path):
    """`gpu` is a valid GPU id and also the first column's name: the pass over every row flags it
    as a possible repeated header, the exact rule clears it, and the row is loaded in its place."""
    folder = fx.write_valid(tmp_path / "data")
    fx.replace_cell(folder, "gpu_specs", 1, "gpu", "gpu")
    fx.replace_cell(folder, "gpu_hour_prices", 1, "gpu", "gpu")
    assert validate_folder(folder) == []
    got = read_table_csv(folder / "gpu_hour_prices.csv", "gpu_hour_prices")
    assert got["gpu"].to_list() == ["gpu"]
    path = folder / "gpu_hour_prices.csv"
    sunk = rules.check_csv(path, "gpu_hour_prices", parquet=tmp_path / "gpu")
    assert sunk.lazy.collect()["gpu"].to_list() == ["gpu"]


@pytest.mark.parametrize(
    ("kind", "end", "ok"),
    [
        ("promotional", "2024-12-31", True),  # the row is dated 2024-08-06 (the fixture)
        ("promotional", "2024-08-06", True),  # a one-day promotion
        ("promotional", "2024-08-05", False),  # ends before it starts
        ("list", "2024-12-31", False),  # a list price states no end
        ("list", "", True),
    ],
)
def test_a_stated_end_belongs_to_a_promotion_and_follows_its_date(kind, end, ok, tmp_path: Path):
    folder = fx.write_valid(tmp_path / "data")
    fx.replace_cell(folder, "token_prices", 1, "price_kind", kind)
    fx.replace_cell(folder, "token_prices", 1, "stated_end", end)
    problems = validate_folder(folder)
    assert (problems == []) is ok, problems
    if not ok:
        assert [(p.column, "stated_end:" in p.rule) for p in problems] == [("stated_end", True)]
