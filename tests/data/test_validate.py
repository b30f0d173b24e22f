"""Bad input gets a located error: file, row, column, value and rule; every problem reported.

Each test writes a small valid data folder, breaks one file in one way, and checks the problem
`data validate` reports for it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from analysis.data import build
from analysis.data.schema import TABLE_ORDER
from analysis.data.validate import validate_folder


def load_fixture():
    """tests/data/valid_fixture.py, loaded by path (the tests are not a package)."""
    spec = importlib.util.spec_from_file_location(
        "valid_fixture", Path(__file__).with_name("valid_fixture.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fx = load_fixture()
write_valid, replace_cell = fx.write_valid, fx.replace_cell


@pytest.fixture
def valid(tmp_path: Path) -> Path:
    return write_valid(tmp_path / "data")


def only_problem(folder: Path):
    problems = validate_folder(folder)
    assert len(problems) == 1, "\n".join(map(str, problems))
    return problems[0]


def test_valid_fixture_has_no_problems(valid):
    assert validate_folder(valid) == []


def test_missing_column(valid):
    path = valid / "token_prices.csv"
    lines = path.read_text().splitlines()
    drop = lines[0].split(",").index("output_usd_per_mtok")
    path.write_text(
        "\n".join(",".join(c for i, c in enumerate(line.split(",")) if i != drop) for line in lines)
        + "\n"
    )
    problems = validate_folder(valid)
    assert problems, "a missing column must be reported"
    p = problems[0]
    assert p.file.endswith("token_prices.csv")
    assert "output_usd_per_mtok" in str(p)
    assert "missing-label" in p.rule or "incorrect-label" in p.rule


def test_wrong_type(valid):
    replace_cell(valid, "cpi", 2, "cpi_u", "abc")
    p = only_problem(valid)
    assert (Path(p.file).name, p.row, p.column, p.value) == ("cpi.csv", 2, "cpi_u", "abc")
    assert "type-error" in p.rule


def test_negative_price(valid):
    replace_cell(valid, "token_prices", 1, "input_usd_per_mtok", "-2.5")
    p = only_problem(valid)
    assert (Path(p.file).name, p.row, p.column, p.value) == (
        "token_prices.csv",
        1,
        "input_usd_per_mtok",
        "-2.5",
    )
    assert "minimum" in p.rule


def test_an_index_run_whose_output_is_not_its_parts(valid):
    # The fixture's run: 300 output = 100 answer + 200 reasoning. 301 is AA's rounding; 302 not.
    replace_cell(valid, "aa_index_runs", 1, "output_tokens", "301")
    assert validate_folder(valid) == []
    replace_cell(valid, "aa_index_runs", 1, "output_tokens", "302")
    p = only_problem(valid)
    assert (Path(p.file).name, p.row, p.column, p.value) == (
        "aa_index_runs.csv",
        1,
        "output_tokens",
        "302",
    )
    assert "answer_tokens + reasoning_tokens" in p.rule


def test_unknown_currency(valid):
    replace_cell(valid, "token_prices", 2, "currency", "XBT")
    p = only_problem(valid)
    assert (p.row, p.column, p.value) == (2, "currency", "XBT")
    assert "enum" in p.rule


def test_unknown_unit_in_column_name(valid):
    path = valid / "gpu_hour_prices.csv"
    path.write_text(path.read_text().replace("usd_per_gpu_hour", "eur_per_gpu_hour"))
    problems = validate_folder(valid)
    assert any(
        p.column == "eur_per_gpu_hour" or (p.value and "eur_per_gpu_hour" in p.value)
        for p in problems
    ), problems
    assert all(Path(p.file).name == "gpu_hour_prices.csv" for p in problems)


def test_unknown_benchmark_unit(valid):
    replace_cell(valid, "benchmark_scores", 1, "unit", "points")
    p = only_problem(valid)
    assert (Path(p.file).name, p.row, p.column, p.value) == (
        "benchmark_scores.csv",
        1,
        "unit",
        "points",
    )


def test_duplicate_key(valid):
    path = valid / "sources.csv"
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines, lines[1]]) + "\n")
    p = only_problem(valid)
    assert Path(p.file).name == "sources.csv" and p.row == 3
    assert "source_id=epoch-llm-price-trends" in p.value
    assert "primary-key" in p.rule and "row 1" in p.rule


def test_unknown_model(valid):
    replace_cell(valid, "token_prices", 2, "model_id", "llama-9-1t")
    p = only_problem(valid)
    assert (Path(p.file).name, p.row, p.column, p.value) == (
        "token_prices.csv",
        2,
        "model_id",
        "llama-9-1t",
    )
    assert "models" in p.rule


def test_unknown_source(valid):
    replace_cell(valid, "gpu_hour_prices", 1, "source_id", "my-notes")
    p = only_problem(valid)
    assert (p.row, p.column, p.value) == (1, "source_id", "my-notes")
    assert "sources" in p.rule


def test_impossible_date(valid):
    replace_cell(valid, "token_prices", 1, "date", "2025-02-30")
    p = only_problem(valid)
    assert (Path(p.file).name, p.row, p.column, p.value) == (
        "token_prices.csv",
        1,
        "date",
        "2025-02-30",
    )


def test_month_thirteen(valid):
    replace_cell(valid, "fx_rates", 1, "month", "2025-13-01")
    p = only_problem(valid)
    assert (Path(p.file).name, p.row, p.column, p.value) == (
        "fx_rates.csv",
        1,
        "month",
        "2025-13-01",
    )


def test_empty_file(valid):
    (valid / "claims.csv").write_text("")
    p = only_problem(valid)
    assert Path(p.file).name == "claims.csv" and "empty" in p.rule


def test_missing_file(tmp_path):
    """A folder without a descriptor holds the tables it has; a release must hold every table."""
    version = _released(tmp_path)
    (version / "cpi.csv").unlink()
    p = only_problem(version)
    assert Path(p.file).name == "cpi.csv" and p.rule == "file is missing"


def test_id_not_a_slug(valid):
    replace_cell(valid, "models", 1, "model_id", "GPT 4o")
    problems = validate_folder(valid)
    slug = [p for p in problems if Path(p.file).name == "models.csv"]
    assert slug and slug[0].row == 1 and slug[0].column == "model_id" and slug[0].value == "GPT 4o"
    assert "pattern" in slug[0].rule


def test_unknown_price_kind(valid):
    replace_cell(valid, "token_prices", 1, "price_kind", "flash-sale")
    p = only_problem(valid)
    assert (p.row, p.column, p.value) == (1, "price_kind", "flash-sale")


def test_quantization_as_written_is_rejected(valid):
    replace_cell(valid, "token_prices", 2, "quantization", "FP8")  # importers lowercase it
    p = only_problem(valid)
    assert (p.row, p.column, p.value) == (2, "quantization", "FP8")


def test_required_value_missing(valid):
    replace_cell(valid, "gpu_hour_prices", 1, "usd_per_gpu_hour", "")
    p = only_problem(valid)
    assert (Path(p.file).name, p.row, p.column) == ("gpu_hour_prices.csv", 1, "usd_per_gpu_hour")
    assert "required" in p.rule


def test_not_a_boolean(valid):
    replace_cell(valid, "models", 2, "open_weights", "yes")
    p = only_problem(valid)
    assert (Path(p.file).name, p.row, p.column, p.value) == ("models.csv", 2, "open_weights", "yes")


def test_zero_accelerators(valid):
    replace_cell(valid, "mlperf_results", 1, "accelerator_count", "0")
    p = only_problem(valid)
    assert (Path(p.file).name, p.row, p.column, p.value) == (
        "mlperf_results.csv",
        1,
        "accelerator_count",
        "0",
    )


def test_unknown_pricing_type(valid):
    replace_cell(valid, "gpu_hour_prices", 1, "pricing", "weekly")
    p = only_problem(valid)
    assert (p.row, p.column, p.value) == (1, "pricing", "weekly")


def test_every_problem_is_reported_not_only_the_first(valid):
    replace_cell(valid, "cpi", 1, "cpi_u", "-1")
    replace_cell(valid, "cpi", 2, "month", "2025-02-30")
    replace_cell(valid, "token_prices", 2, "currency", "XBT")
    problems = validate_folder(valid)
    assert {(Path(p.file).name, p.row, p.column) for p in problems} == {
        ("cpi.csv", 1, "cpi_u"),
        ("cpi.csv", 2, "month"),
        ("token_prices.csv", 2, "currency"),
    }


def _released(tmp_path: Path) -> Path:
    """A released version written by the real build code from the valid fixture."""
    from analysis.data.release import read_table_csv

    folder = write_valid(tmp_path / "fixture")
    tables = {t: read_table_csv(folder / f"{t}.csv", t) for t in TABLE_ORDER}
    build.write_version(tables, tmp_path / "data", "2026-01-15", "fixture")
    return tmp_path / "data" / "2026-01-15"


def test_checksum_of_a_released_version(tmp_path):
    version = _released(tmp_path)
    assert validate_folder(version) == []
    path = version / "cpi.csv"
    path.write_text(path.read_text().replace("317.671", "317.672"))
    p = only_problem(version)
    assert Path(p.file).name == "cpi.csv" and "checksum" in p.rule and "immutable" in p.rule


def test_released_versions_cannot_be_overwritten(tmp_path):
    from analysis.data.errors import DataError
    from analysis.data.release import read_table_csv

    version = _released(tmp_path)
    tables = {t: read_table_csv(version / f"{t}.csv", t) for t in TABLE_ORDER}
    # The same content again is a no-op ...
    build.write_version(tables, tmp_path / "data", "2026-01-15", "fixture")
    # ... different content under the same id is refused, and nothing is half-written.
    tables["cpi"] = tables["cpi"].head(1)
    before = {p.name: p.read_bytes() for p in version.iterdir()}
    with pytest.raises(DataError, match="immutable"):
        build.write_version(tables, tmp_path / "data", "2026-01-15", "fixture")
    assert {p.name: p.read_bytes() for p in version.iterdir()} == before
    assert [p.name for p in (tmp_path / "data").iterdir() if p.name.startswith(".")] == []


def test_validate_command_exit_status_and_messages(valid, cli):
    replace_cell(valid, "token_prices", 1, "input_usd_per_mtok", "-2.5")
    run = cli("data", "validate", "--data-dir", valid)
    assert run.returncode == 1
    assert "token_prices.csv, row 1, column 'input_usd_per_mtok': value '-2.5'" in run.stdout
    ok = write_valid(valid.parent / "ok")
    run = cli("data", "validate", "--data-dir", ok)
    assert run.returncode == 0, run.stdout + run.stderr
