"""The descriptor is a Frictionless Data Package: the reference validator accepts it and the data.

`data validate` and the loader use the project's own vectorised rules (`analysis.data.rules`);
these tests keep the standard in the loop, so the descriptor and the fast path cannot drift
apart: what the project writes must pass frictionless-py as a whole package (package-level
metadata, every table's Table Schema, primary and foreign keys, and the recorded hashes).

The first release, 2026-11-30, is immutable and its `created` is a bare date, which the Data
Package standard does not allow (it wants an RFC 3339 date-time): the reference validator stops
at the package level for it. Its test therefore validates a corrected copy of that descriptor, in
memory, with only `created` changed, and checks that the uncorrected one fails for that reason
alone. Releases written since are correct as written (second test).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from frictionless import FrictionlessException, Package, system

from analysis.data import build
from analysis.data.paths import DATA_DIR
from analysis.data.release import read_table_csv
from analysis.data.schema import TABLE_ORDER
from analysis.data.validate import validate_folder

FIRST = "2026-11-30"


def load_fixture():
    spec = importlib.util.spec_from_file_location(
        "valid_fixture", Path(__file__).with_name("valid_fixture.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fx = load_fixture()


def reference_errors(descriptor: dict, folder: Path) -> list[str]:
    with system.use_context(trusted=True):
        report = Package(descriptor, basepath=str(folder)).validate(limit_errors=1000)
    return [f"{e[0]}: {e[1]}" for e in report.flatten(["type", "note"])]


def test_first_release_passes_the_reference_validator_with_created_corrected():
    folder = DATA_DIR / FIRST
    descriptor = json.loads((folder / "datapackage.json").read_text(encoding="utf-8"))
    assert descriptor["created"] == FIRST  # the one field the standard refuses
    with pytest.raises(FrictionlessException, match='"created" is not valid "datetime"'):
        reference_errors(descriptor, folder)
    corrected = descriptor | {"created": f"{FIRST}T00:00:00Z"}  # in memory; the file is untouched
    assert reference_errors(corrected, folder) == []
    assert validate_folder(folder) == []


def test_a_new_release_passes_the_reference_validator_as_written(tmp_path: Path):
    source = fx.write_valid(tmp_path / "fixture")
    tables = {t: read_table_csv(source / f"{t}.csv", t) for t in TABLE_ORDER}
    folder = build.write_version(tables, tmp_path / "data", "2026-12-15.2", "fixture")
    descriptor = json.loads((folder / "datapackage.json").read_text(encoding="utf-8"))
    assert descriptor["created"] == "2026-12-15T00:00:00Z"
    assert descriptor["resources"][TABLE_ORDER.index("token_prices")]["schema"]["fields"][3][
        "constraints"
    ] == {"required": True, "minimum": "2000-01-01"}
    assert reference_errors(descriptor, folder) == []
    assert validate_folder(folder) == []


@pytest.mark.parametrize("value", [" 3.5 ", "1_000", "inf"])
def test_the_project_is_stricter_than_the_reference_validator(value: str, tmp_path: Path):
    """frictionless-py reads these as numbers (Python's Decimal does); the project refuses them,
    so a value never means one thing to the reference validator and another to the loader."""
    folder = fx.write_valid(tmp_path / "data")
    fx.replace_cell(folder, "token_prices", 1, "input_usd_per_mtok", value)
    from analysis.data.validate import descriptor_for

    assert reference_errors(descriptor_for(folder, TABLE_ORDER), folder) == []
    (p,) = validate_folder(folder)
    assert (p.row, p.column, p.value) == (1, "input_usd_per_mtok", value)
