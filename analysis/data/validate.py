"""Validate data folders, reporting every problem at once with its file, row, column, value and rule.

What a valid table is lives in one place, `analysis.data.rules` (vectorised polars expressions,
the same ones the loader applies), so whatever passes here loads. This module adds what is
about a folder rather than a table: the descriptor (`datapackage.json`, read with located JSON
errors, its columns and types against the schema), the checksums of a released version (a
mismatch is reported beside, never instead of, the bad values the edit introduced), the
foreign keys between tables, the release index (`data/versions.json`), and a data root (a
folder of versions) validated version by version.

The descriptor stays a Frictionless Data Package: `tests/data/test_frictionless.py` checks that
the reference validator (frictionless-py) accepts it and the data too, so the standard and this
fast path cannot drift apart. (Frictionless is a superset-lenient reader: it accepts ` 3.5 `,
`1_000` and `inf` as numbers, which the rules here refuse.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from analysis.data import files, rules
from analysis.data.descriptor import descriptor_problems
from analysis.data.errors import DataError, Problem
from analysis.data.release import sha256
from analysis.data.schema import TABLE_ORDER, TABLES

FK_TARGETS = [
    t for t in TABLE_ORDER if any(t == fk[1] for s in TABLES.values() for fk in s.foreign_keys)
]


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


@dataclass
class Report:
    folder: Path
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    versions: list[str] = field(default_factory=list)  # for a data root: the versions checked


def validate_folder(folder: Path, *, today: date | None = None) -> list[Problem]:
    """Every problem in one data folder (a version, a folder of CSVs, or a data root)."""
    return check(folder, today=today).problems


def check(folder: Path, *, today: date | None = None) -> Report:
    folder = Path(folder)
    if not folder.is_dir():
        return Report(folder, [Problem(str(folder), None, None, None, "folder does not exist")])
    report = (
        check_root(folder, today=today)
        if is_data_root(folder)
        else check_version(folder, today=today)
    )
    # One broken file can be met twice (versions.json by the root and by each version).
    report.problems = list(dict.fromkeys(report.problems))
    return report


def is_data_root(folder: Path) -> bool:
    """A folder of versions: versions.json, or version folders, and no tables of its own."""
    own = (folder / "datapackage.json").exists() or any(
        (folder / f"{t}.csv").exists() for t in TABLE_ORDER
    )
    versions = (folder / "versions.json").exists() or any(
        (p / "datapackage.json").exists() for p in folder.iterdir() if p.is_dir()
    )
    return versions and not own


def check_root(root: Path, *, today: date | None = None) -> Report:
    """Each version a data root lists in versions.json, and the index itself."""
    report = Report(root)
    index = root / "versions.json"
    listed: list[str] = []
    if index.exists():
        try:
            listed = [r.version for r in release_index(index)]
        except DataError as err:
            report.problems.extend(err.problems)
    folders = sorted(p.name for p in root.iterdir() if (p / "datapackage.json").exists())
    for v in listed:
        if not (root / v).is_dir():
            report.problems.append(
                Problem(str(index), None, "version", v, "listed in versions.json, but no folder")
            )
    for name in folders:
        if name not in listed:
            report.notes.append(
                f"{root / name}: not listed in {index.name}, so not a released version; checked "
                "anyway"
            )
    for v in [
        *[x for x in listed if (root / x).is_dir()],
        *[f for f in folders if f not in listed],
    ]:
        sub = check_version(root / v, today=today)
        report.problems.extend(sub.problems)
        report.notes.extend(sub.notes)
        report.versions.append(v)
    if not report.versions and not report.problems:
        report.problems.append(
            Problem(
                str(root),
                None,
                None,
                None,
                "no data versions here: point --data-dir at a version folder (data/<version>/) "
                "or at a folder of table CSVs",
            )
        )
    return report


def release_index(index: Path):
    from analysis.data.release import releases

    return releases(index.parent)


def check_version(folder: Path, *, today: date | None = None) -> Report:
    """Every problem in one folder of tables, with or without a datapackage.json."""
    report = Report(folder)
    desc_path = folder / "datapackage.json"
    descriptor = None
    if desc_path.exists():
        try:
            descriptor = files.read_json(desc_path)
        except DataError as err:
            report.problems.extend(err.problems)
        else:
            report.problems.extend(descriptor_problems(desc_path, descriptor, report.notes))
            if report.problems:
                descriptor = None
    if descriptor is None:
        # No (usable) descriptor: the tables present are still checked against the schema.
        present = [t for t in TABLE_ORDER if (folder / f"{t}.csv").exists()]
        if not present and not report.problems:
            return Report(
                folder,
                [
                    Problem(
                        str(folder),
                        None,
                        None,
                        None,
                        "no datapackage.json and no table CSVs: point --data-dir at a version "
                        "folder (data/<version>/) or at a folder of table CSVs",
                    )
                ],
            )
        descriptor = descriptor_for(folder, present)
    version = descriptor.get("version")
    resources = {r["name"]: r for r in descriptor["resources"]}
    refs: dict[str, list[str]] = {}
    order = [t for t in FK_TARGETS if t in resources] + [
        t for t in resources if t not in FK_TARGETS
    ]
    by_table: dict[str, list[Problem]] = {}
    for name in order:
        res = resources[name]
        path = folder / res["path"]
        found: list[Problem] = []
        if "hash" in res and path.exists():
            recorded = res["hash"].removeprefix("sha256:")
            actual = sha256(path)
            if actual != recorded:
                found.append(
                    Problem(
                        str(path),
                        None,
                        None,
                        actual,
                        f"checksum differs from the recorded sha256 {recorded}: a released "
                        "version is immutable (bad values the edit brought in are reported too)",
                    )
                )
        columns = [f["name"] for f in res["schema"]["fields"]]
        checked = rules.check_csv(
            path,
            name,
            columns=columns,
            version=version,
            refs=refs,
            today=today,
        )
        found.extend(checked.problems)
        report.notes.extend(checked.notes)
        keys = rules.key_values(path, name, columns) if name in FK_TARGETS else None
        if keys is not None:
            refs[name] = keys
        by_table[name] = found
    for name in resources:  # report in the descriptor's order
        report.problems.extend(by_table[name])
    report.problems.extend(_index_problems(folder))
    return report


def _index_problems(folder: Path) -> list[Problem]:
    """A released version's datapackage.json must match the sha256 versions.json recorded."""
    index = folder.parent / "versions.json"
    desc = folder / "datapackage.json"
    if not index.exists() or not desc.exists():
        return []
    try:
        rel = next((r for r in release_index(index) if r.version == folder.name), None)
    except DataError as err:
        return err.problems
    if rel is None:
        return []
    actual = sha256(desc)
    if actual != rel.datapackage_sha256:
        return [
            Problem(
                str(desc),
                None,
                None,
                actual,
                f"checksum differs from versions.json ({rel.datapackage_sha256}): released "
                "versions are immutable",
            )
        ]
    return []


def validate_resource(path: Path, table: str) -> list[Problem]:
    """Validate one CSV as the given table (no foreign keys): used on importer output."""
    return rules.check_csv(Path(path), table).problems
