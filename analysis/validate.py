"""Validate a data folder against the table schemas, reporting every problem with its location.

The checks run with Frictionless (frictionless-py): it is the reference implementation of the
Data Package / Table Schema standard the descriptor follows, so one library checks types, units
(column names), ranges, enums, patterns, primary keys and foreign keys across tables, exactly as
any other Frictionless tool would read the same `datapackage.json`. Checksums of released
versions are checked here too, since a released version must never change.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from frictionless import Package, Resource, system

from analysis.errors import Problem
from analysis.schema import TABLE_ORDER, TABLES
from analysis.data import sha256

# Frictionless error types that describe the header rather than a cell.
_LABEL_ERRORS = {"missing-label", "extra-label", "blank-label", "duplicate-label", "incorrect-label"}


def descriptor_for(folder: Path, tables: list[str]) -> dict:
    """A Data Package descriptor built from analysis.schema, for a folder without one."""
    return {
        "name": "inference-economics-data",
        "resources": [resource_descriptor(t, f"{t}.csv") for t in tables],
    }


def resource_descriptor(table: str, path: str, file_hash: str | None = None) -> dict:
    spec = TABLES[table]
    out = {
        "name": table,
        "title": spec.title,
        "description": spec.description,
        "path": path,
        "format": "csv",
        "mediatype": "text/csv",
        "encoding": "utf-8",
        "schema": spec.frictionless(),
    }
    if file_hash:
        out["hash"] = f"sha256:{file_hash}"
    return out


def _problem_from(error, file: str, schema: dict) -> Problem:
    note = getattr(error, "note", "") or ""
    title = getattr(error, "title", error.type)
    rule = f"{error.type}: {note}" if note else f"{error.type}: {title}"
    row_number = getattr(error, "row_number", None)
    row = row_number - 1 if row_number else None  # frictionless counts the header as row 1
    column = getattr(error, "field_name", None) or getattr(error, "label", None)
    value = getattr(error, "cell", None)
    if error.type in _LABEL_ERRORS:
        row = None
    if error.type == "primary-key":
        fields = schema.get("primaryKey", [])
        cells = _cells_by_field(error, schema)
        value = ", ".join(f"{f}={cells.get(f)!s}" for f in fields)
        first = re.search(r"position (\d+)", note)
        seen = f"; first at row {int(first.group(1)) - 1}" if first else ""
        rule = f"primary-key: duplicate key ({', '.join(fields)}){seen}"
        column = None
    elif error.type == "foreign-key":
        m = re.search(r'for "([^"]+)": values "([^"]*)" not found in the lookup table "([^"]+)"', note)
        if m:
            column, value = m.group(1), m.group(2)
            rule = f"foreign-key: {value!r} is not a {m.group(1)} in table {m.group(3)!r}"
    return Problem(file, row, column, value, rule)


def _cells_by_field(error, schema: dict) -> dict:
    names = [f["name"] for f in schema.get("fields", [])]
    return dict(zip(names, getattr(error, "cells", None) or [], strict=False))


def _check_files(folder: Path, descriptor: dict) -> list[Problem]:
    """Problems that stop Frictionless before it looks at cells: missing or empty files."""
    problems = []
    for res in descriptor["resources"]:
        path = folder / res["path"]
        if not path.exists():
            problems.append(Problem(str(path), None, None, None, "file is missing"))
        elif path.stat().st_size == 0:
            problems.append(Problem(str(path), None, None, None, "file is empty (no header row)"))
        elif "hash" in res:
            recorded = res["hash"].removeprefix("sha256:")
            actual = sha256(path)
            if actual != recorded:
                problems.append(
                    Problem(
                        str(path),
                        None,
                        None,
                        actual,
                        f"checksum differs from the recorded sha256 {recorded}: "
                        "a released version is immutable",
                    )
                )
    return problems


def validate_folder(folder: Path) -> list[Problem]:
    """Every problem in one data folder (with or without a datapackage.json)."""
    folder = Path(folder)
    desc_path = folder / "datapackage.json"
    if desc_path.exists():
        descriptor = json.loads(desc_path.read_text(encoding="utf-8"))
    else:
        present = [t for t in TABLE_ORDER if (folder / f"{t}.csv").exists()]
        if not present:
            return [Problem(str(folder), None, None, None, "no datapackage.json and no table CSVs")]
        descriptor = descriptor_for(folder, present)
    problems = _check_files(folder, descriptor)
    broken = {p.file for p in problems}
    resources = [r for r in descriptor["resources"] if str(folder / r["path"]) not in broken]
    # Frictionless checks hashes itself too; ours above gives the clearer message.
    checked = [{k: v for k, v in r.items() if k != "hash"} for r in resources]
    # Foreign keys pointing at a resource that is missing would only repeat the missing-file problem.
    names = {r["name"] for r in checked}
    for r in checked:
        fks = r["schema"].get("foreignKeys", [])
        r["schema"] = {**r["schema"], "foreignKeys": [f for f in fks if f["reference"]["resource"] in names]}
    with system.use_context(trusted=True):
        package = Package({"name": "check", "resources": checked}, basepath=str(folder))
        report = package.validate(limit_errors=100_000)
    schemas = {r["path"]: r["schema"] for r in checked}
    for task in report.tasks:
        name = Path(task.place).name if task.place else ""
        for err in task.errors:
            problems.append(_problem_from(err, str(folder / name), schemas.get(name, {})))
    for err in report.errors:
        problems.append(Problem(str(folder), None, None, None, f"{err.type}: {err.note}"))
    return problems


def validate_resource(path: Path, table: str) -> list[Problem]:
    """Validate one CSV as the given table (no foreign keys): used on importer output."""
    desc = resource_descriptor(table, Path(path).name)
    desc["schema"] = {k: v for k, v in desc["schema"].items() if k != "foreignKeys"}
    with system.use_context(trusted=True):
        report = Resource(desc, basepath=str(Path(path).parent)).validate(limit_errors=100_000)
    return [_problem_from(e, str(path), desc["schema"]) for t in report.tasks for e in t.errors]
