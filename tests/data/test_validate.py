"""Bad input gets a located error: file, row, column, value and rule; every problem reported.

Each test writes a small valid data folder, breaks one file in one way, and checks the problem
`data validate` reports for it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from analysis.data import build
from analysis.data.paths import ROOT
from analysis.data.schema import TABLE_ORDER, TABLES
from analysis.data.validate import validate_folder

SLUG = TABLES["sources"].column("source_id").pattern

VALID = {
    "sources": [
        "source_id,title,publisher,url,licence,retrieved,notes",
        "epoch-llm-price-trends,LLM inference price trends,Epoch AI,https://github.com/epoch-research/llm-benchmark-efficiency,none stated,2025-03-13,",
        "fred-cpi-datasets,CPI-U,datasets/cpi-us,https://github.com/datasets/cpi-us,PDDL-1.0,2026-07-01,",
    ],
    "models": [
        "model_id,name,organization,release_date,open_weights,parameters_b,active_parameters_b,reasoning,aliases,resolved,info_source_id",
        "gpt-4o,GPT-4o,OpenAI,2024-05-13,false,,,false,GPT-4o,true,epoch-llm-price-trends",
        "llama-3.1-70b,Llama 3.1 70B,Meta,2024-07-23,true,70,70,false,Llama 3.1 70B,true,epoch-llm-price-trends",
    ],
    "token_prices": [
        "model_id,provider,first_party,date,last_seen,input_usd_per_mtok,output_usd_per_mtok,cached_input_usd_per_mtok,batch_input_usd_per_mtok,batch_output_usd_per_mtok,blended_usd_per_mtok,blend,currency,input_original_per_mtok,output_original_per_mtok,blended_original_per_mtok,price_kind,context_tier,quantization,source_model_name,source_id,source_locator",
        "gpt-4o,openai,true,2024-08-06,,2.5,10,1.25,1.25,5,,,USD,2.5,10,,list,,,GPT-4o,epoch-llm-price-trends,x.csv@abc#row 1",
        "llama-3.1-70b,together,false,2024-09-01,,0.88,0.88,,,,,,USD,0.88,0.88,,list,,fp8,Llama 3.1 70B,epoch-llm-price-trends,x.csv@abc#row 2",
    ],
    "gpu_hour_prices": [
        "gpu,source_gpu_name,provider,date,pricing,usd_per_gpu_hour,statistic,region,gpus_per_instance,source_id,source_locator",
        "h100-sxm,H100 SXM5,lambda,2024-01-10,on-demand,2.49,quote,us-east,8,epoch-llm-price-trends,x.csv@abc#row 3",
    ],
    "benchmark_scores": [
        "model_id,benchmark,score,unit,date,source_model_name,source_id,source_locator",
        "gpt-4o,mmlu,88.7,percent,2024-05-13,GPT-4o,epoch-llm-price-trends,x.csv@abc#row 1",
    ],
    "mlperf_results": [
        "round,date,submitter,system,platform,accelerator,source_accelerator_name,accelerator_count,benchmark_model,model_run,scenario,category,division,tokens_per_s,source_id,source_locator",
        "v4.1,2024-08-28,NVIDIA,DGX-H100,DGX-H100_H100-SXM-80GBx8_TRT,h100-sxm,NVIDIA H100-SXM-80GB,8,llama2-70b-99,llama2-70b-99,Offline,available,closed,24525,epoch-llm-price-trends,x.json@abc#row 1",
    ],
    "gpu_specs": [
        "gpu,name,manufacturer,release_date,memory_gb,memory_bandwidth_tb_per_s,fp32_tflop_per_s,tf32_tflop_per_s,fp16_tflop_per_s,fp8_tflop_per_s,int8_tops,tdp_w,release_price_usd,source_id,source_locator",
        "h100-sxm,NVIDIA H100 SXM5 80GB,NVIDIA,2022-09-20,80,3.35,66.9,494.7,989.4,1978.9,1978.9,700,,epoch-llm-price-trends,x.csv@abc#row 9",
    ],
    "fx_rates": [
        "currency,month,per_usd,source_id,source_locator",
        "CNY,2025-01-01,7.2,fred-cpi-datasets,monthly.csv@abc#row 1",
    ],
    "cpi": [
        "month,cpi_u,source_id,source_locator",
        "2025-01-01,317.671,fred-cpi-datasets,cpiai.csv@abc#row 1",
        "2025-02-01,319.082,fred-cpi-datasets,cpiai.csv@abc#row 2",
    ],
    "claims": [
        "claim_id,claim,subject,value,value_high,unit,claim_date,digest_file,checkable_with,source_id,source_locator",
        "h100-price,H100 at $2.85-3.50/hr,H100 price,2.85,3.5,USD per GPU-hour,2026-09-27,000.txt,gpu_hour_prices,epoch-llm-price-trends,seeds/000.txt#line 19",
    ],
}


VALID["observations"] = [
    "table,row_id,source_id,source_name,source_locator,date,last_seen",
    "token_prices,tp-0123456789ab,epoch-llm-price-trends,GPT-4o,x.csv@abc#row 1,2024-05-13,",
]


def _with_curated_columns(lines: list[str], table: str) -> list[str]:
    """The fixture rows with the curated releases' columns (empty) appended where missing."""
    header = lines[0].split(",")
    extra = [c for c in TABLES[table].column_names if c not in header]
    if not extra:
        return lines
    return [lines[0] + "," + ",".join(extra)] + [row + "," * len(extra) for row in lines[1:]]


def write_valid(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for table in TABLE_ORDER:
        lines = _with_curated_columns(VALID[table], table)
        (folder / f"{table}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def replace_cell(folder: Path, table: str, row: int, column: str, value: str) -> None:
    """Set one cell (row is the 1-based data row) of a fixture CSV."""
    path = folder / f"{table}.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    cells = lines[row].split(",")
    cells[header.index(column)] = value
    lines[row] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


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


def test_validate_command_exit_status_and_messages(valid):
    replace_cell(valid, "token_prices", 1, "input_usd_per_mtok", "-2.5")
    run = subprocess.run(
        [sys.executable, "-m", "analysis", "data", "validate", "--data-dir", str(valid)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 1
    assert "token_prices.csv, row 1, column 'input_usd_per_mtok': value '-2.5'" in run.stdout
    ok = write_valid(valid.parent / "ok")
    run = subprocess.run(
        [sys.executable, "-m", "analysis", "data", "validate", "--data-dir", str(ok)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout + run.stderr
