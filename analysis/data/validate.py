"""Validate a data folder against the table schemas, reporting every problem with its location.

The checks run with Frictionless (frictionless-py): it is the reference implementation of the
Data Package / Table Schema standard the descriptor follows, so one library checks types, units
(column names), ranges, enums, patterns, primary keys and foreign keys across tables, exactly as
any other Frictionless tool would read the same `datapackage.json`. Checksums of released
versions are checked here too, since a released version must never change.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from frictionless import Package, Resource, system

from analysis.data.errors import Problem
from analysis.data.release import sha256
from analysis.data.schema import TABLE_ORDER, TABLES

# Frictionless error types that describe the header rather than a cell.
_LABEL_ERRORS = {
    "missing-label",
    "extra-label",
    "blank-label",
    "duplicate-label",
    "incorrect-label",
}


def descriptor_for(folder: Path, tables: list[str]) -> dict:
    """A Data Package descriptor built from analysis.data.schema, for a folder without one."""
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
    if error.type == "type-error":
        field = next((f for f in schema.get("fields", []) if f["name"] == column), {})
        expected = {
            "date": "an ISO date YYYY-MM-DD that exists",
            "number": "a number",
            "integer": "an integer",
            "boolean": "true or false",
        }
        rule = f"type-error: must be {expected.get(field.get('type'), field.get('type', 'valid'))}"
    elif error.type == "constraint-error":
        field = next((f for f in schema.get("fields", []) if f["name"] == column), {})
        rule = "constraint-error: " + _constraint_text(note, field.get("constraints", {}))
    if error.type == "primary-key":
        fields = schema.get("primaryKey", [])
        cells = _cells_by_field(error, schema)
        value = ", ".join(f"{f}={cells.get(f)!s}" for f in fields)
        first = re.search(r"position (\d+)", note)
        seen = f"; first at row {int(first.group(1)) - 1}" if first else ""
        rule = f"primary-key: duplicate key ({', '.join(fields)}){seen}"
        column = None
    elif error.type == "foreign-key":
        m = re.search(
            r'for "([^"]+)": values "([^"]*)" not found in the lookup table "([^"]+)"', note
        )
        if m:
            column, value = m.group(1), m.group(2)
            rule = f"foreign-key: {value!r} is not a {m.group(1)} in table {m.group(3)!r}"
    return Problem(file, row, column, value, rule)


def _constraint_text(note: str, rules: dict) -> str:
    m = re.search(r'constraint "(\w+)"', note)
    name = m.group(1) if m else ""
    texts = {
        "required": lambda: "a value is required",
        "minimum": lambda: f"must be >= {rules.get('minimum')}",
        "maximum": lambda: f"must be <= {rules.get('maximum')}",
        "enum": lambda: "must be one of " + ", ".join(map(str, rules.get("enum", []))),
        "pattern": lambda: f"must match {rules.get('pattern')} (lowercase slug)",
    }
    return f"{name}: {texts[name]()}" if name in texts else note


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


def _check_header(path: Path, schema: dict) -> list[Problem]:
    """Columns by name: missing, unexpected (often a unit the schema does not use), misordered.

    Checked before Frictionless, which matches columns by position and would report every cell
    of a file whose header is off.
    """
    with path.open(newline="", encoding="utf-8") as fh:
        header = next(csv.reader(fh), [])
    expected = [f["name"] for f in schema["fields"]]
    problems = [
        Problem(str(path), None, c, None, "missing-label: required column is missing")
        for c in expected
        if c not in header
    ]
    for c in header:
        if c not in expected:
            unit = re.search(r"_([a-z]+)_per_", c)
            hint = f"; unit {unit.group(1)!r} is not one the schema uses" if unit else ""
            problems.append(Problem(str(path), None, c, c, f"extra-label: unknown column{hint}"))
    if not problems and header != expected:
        problems.append(
            Problem(
                str(path),
                None,
                None,
                ",".join(header),
                "incorrect-label: columns must be in schema order: " + ",".join(expected),
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
    for r in descriptor["resources"]:
        path = folder / r["path"]
        if str(path) not in broken:
            header_problems = _check_header(path, r["schema"])
            problems.extend(header_problems)
            broken |= {p.file for p in header_problems}
    resources = [r for r in descriptor["resources"] if str(folder / r["path"]) not in broken]
    # Frictionless checks hashes itself too; ours above gives the clearer message.
    checked = [{k: v for k, v in r.items() if k != "hash"} for r in resources]
    # Foreign keys pointing at a resource that is missing would only repeat the missing-file problem.
    names = {r["name"] for r in checked}
    for r in checked:
        fks = r["schema"].get("foreignKeys", [])
        r["schema"] = {
            **r["schema"],
            "foreignKeys": [f for f in fks if f["reference"]["resource"] in names],
        }
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
    return _without_echoes(problems)


def _without_echoes(problems: list[Problem]) -> list[Problem]:
    """Drop key errors that only echo an unreadable cell in the same row (it reads as missing)."""
    bad_cells = {
        (p.file, p.row) for p in problems if p.rule.startswith(("type-error", "constraint-error"))
    }
    return [
        p
        for p in problems
        if not (p.rule.startswith("primary-key") and (p.file, p.row) in bad_cells)
    ]


def validate_resource(path: Path, table: str) -> list[Problem]:
    """Validate one CSV as the given table (no foreign keys): used on importer output."""
    desc = resource_descriptor(table, Path(path).name)
    desc["schema"] = {k: v for k, v in desc["schema"].items() if k != "foreignKeys"}
    with system.use_context(trusted=True):
        report = Resource(desc, basepath=str(Path(path).parent)).validate(limit_errors=100_000)
    return [_problem_from(e, str(path), desc["schema"]) for t in report.tasks for e in t.errors]
