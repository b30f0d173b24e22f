"""Cut a new data version from the latest release plus new rows: used by `data add` and `data update`.

A released version never changes, so a new one starts as a copy of the release it extends: each
table's CSV is copied byte for byte and the new rows are appended after the old ones (a table
whose old rows were changed is written whole instead). The copy is staged in a hidden folder
beside the releases, given a fresh `datapackage.json` (schemas, sha256 and size of every file),
validated with `analysis.data.validate`, and only then renamed into `data/<version>/` and
recorded in `data/versions.json`. Any failure, up to and including the write of versions.json,
leaves `data/` exactly as it was.

Versions are named by release date: today's date, or `YYYY-MM-DD.N` (N = 2, 3, ...) for a further
release on a day that already has one.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import tempfile
from datetime import date
from pathlib import Path

import polars as pl

from analysis.data import release as data_mod
from analysis.data.errors import DataError, Problem, fail
from analysis.data.schema import TABLE_ORDER, TABLES
from analysis.data.validate import resource_descriptor, validate_folder

VERSION_RE = re.compile(r"^(?P<day>\d{4}-\d{2}-\d{2})(?:\.(?P<n>[1-9]\d*))?$")


def version_key(version: str) -> tuple[str, int]:
    """Sort key of a version id: by day, then by its `.N` (the first release of a day is 1)."""
    m = VERSION_RE.match(version)
    if not m:
        raise fail("data/versions.json", None, "version", version, "must be YYYY-MM-DD[.N]")
    return m["day"], int(m["n"] or 1)


def next_version(root: Path, today: date | None = None) -> str:
    """Today's date, or `today.N` with the first N not yet taken (as a release or a folder)."""
    day = (today or date.today()).isoformat()
    taken = {r.version for r in data_mod.releases(root)} | {p.name for p in Path(root).iterdir()}
    latest = max((version_key(v) for v in taken if VERSION_RE.match(v)), default=None)
    if latest is not None and latest[0] > day:
        raise fail(
            Path(root) / "versions.json",
            None,
            "version",
            day,
            f"today is before the latest release ({latest[0]}); give the version explicitly",
        )
    # After the day's highest N, so a new version sorts after every release of the day even
    # when an earlier one of them is not in this data root.
    same_day = [version_key(v)[1] for v in taken if VERSION_RE.match(v) and v[:10] == day]
    return f"{day}.{max(same_day) + 1}" if same_day else day


def _write_table(stage: Path, base_dir: Path, table: str, rows: pl.DataFrame | None) -> None:
    """Copy the base release's CSV and append the new rows; write it whole if old rows changed."""
    src, dest = base_dir / f"{table}.csv", stage / f"{table}.csv"
    if rows is None:  # untouched: the base's bytes, even from before a column was added
        shutil.copyfile(src, dest)
        return
    columns = TABLES[table].column_names
    with src.open(encoding="utf-8", newline="") as fh:
        same_columns = next(csv.reader(fh), []) == columns
    if not same_columns:  # a base from before a column was added: rewrite with every column
        rows.select(columns).write_csv(dest, date_format="%Y-%m-%d", line_terminator="\n")
        return
    old = data_mod.read_table_csv(src, table)
    if rows.height >= old.height and rows.head(old.height).equals(old):
        shutil.copyfile(src, dest)
        tail = rows.slice(old.height)
        if tail.height:
            text = tail.write_csv(
                include_header=False, date_format="%Y-%m-%d", line_terminator="\n"
            )
            with dest.open("a", encoding="utf-8", newline="") as fh:
                if src.stat().st_size and not src.read_bytes().endswith(b"\n"):
                    fh.write("\n")
                fh.write(text)
        return
    rows.write_csv(dest, date_format="%Y-%m-%d", line_terminator="\n")


def _descriptor(stage: Path, base_descriptor: dict, version: str, description: str) -> dict:
    # A table copied unchanged from the base keeps the base's resource (its schema describes
    # those bytes, which may predate a column added since).
    base_resources = {r.get("hash"): r for r in base_descriptor.get("resources", [])}
    resources = []
    for t in (t for t in TABLE_ORDER if (stage / f"{t}.csv").exists()):
        path = stage / f"{t}.csv"
        file_hash = data_mod.sha256(path)
        kept = base_resources.get(f"sha256:{file_hash}")
        resources.append(
            kept
            if kept is not None and kept.get("name") == t
            else resource_descriptor(t, path.name, file_hash) | {"bytes": path.stat().st_size}
        )
    # The base's build_inputs describe the base's build, not this version: it is the base plus
    # rows entered or downloaded since (previous_version says which base).
    out = {k: v for k, v in base_descriptor.items() if k not in ("resources", "build_inputs")}
    out.update(
        {
            "version": version,
            "created": f"{version_key(version)[0]}T00:00:00Z",  # RFC 3339, as build.py writes
            "description": description,
            "previous_version": base_descriptor["version"],
            "resources": resources,
        }
    )
    return out


def _at(problem: Problem, stage: Path, dest: Path) -> Problem:
    file = problem.file.replace(str(stage), str(dest), 1)
    return Problem(file, problem.row, problem.column, problem.value, problem.rule)


def record_release(root: Path, version: str, description: str) -> None:
    """Add a version to versions.json (written to a temporary file, then renamed over it)."""
    index = Path(root) / "versions.json"
    current = json.loads(index.read_text(encoding="utf-8")) if index.exists() else {"releases": []}
    current["releases"] = [r for r in current["releases"] if r["version"] != version]
    current["releases"].append(
        {
            "version": version,
            "released": version_key(version)[0],
            "datapackage_sha256": data_mod.sha256(Path(root) / version / "datapackage.json"),
            "description": description,
        }
    )
    current["releases"].sort(key=lambda r: version_key(r["version"]))
    tmp = index.with_name(index.name + ".tmp")
    tmp.write_text(json.dumps(current, indent=2) + "\n", encoding="utf-8")
    tmp.replace(index)


def flag_rules(root: Path, base: str, added: list[dict]) -> list[dict]:
    """The descriptor's rule counts of a version that adds rows to `base`: the base's counts
    plus those of the rows added (`panel.Extension.flag_counts`: each judged beside every row,
    as its flags were)."""
    from analysis.data.build import flag_rules as described

    before = data_mod.datapackage(base, root).get("flag_rules", [])
    old = {(r["rule"], r["table"]): r for r in before}
    summed = []
    for c in added:
        o = old.get((c["rule"], c["table"]), {})
        summed.append(
            {k: c[k] + o.get(k, 0) for k in ("flagged", "not_evaluable", "rows")}
            | {"rule": c["rule"], "table": c["table"]}
        )
    # The rules of the tables no row was added to keep the base's counts.
    judged = {(c["rule"], c["table"]) for c in added}
    summed += [
        {k: r[k] for k in ("flagged", "not_evaluable", "rows", "rule", "table")}
        for key, r in old.items()
        if key not in judged
    ]
    return described(summed)


def cut_version(
    tables: dict[str, pl.DataFrame],
    description: str,
    root: Path | None = None,
    base: str | None = None,
    version: str | None = None,
    extra: dict | None = None,
) -> Path:
    """Write `data/<version>/`: the base release (default: the latest) with `tables` in place of
    its tables (the others copied as they are), validated, then recorded in versions.json.

    `tables` hold every row of the new version's table (the base's rows first, unchanged, then
    the new ones). `extra` adds top-level keys to the descriptor. Raises DataError with every
    validation problem; on any failure nothing is left behind.
    """
    root = data_mod.data_dir(root)
    base = data_mod.current_version(base, root)
    version = version or next_version(root)
    version_key(version)
    dest = root / version
    if dest.exists() or version in {r.version for r in data_mod.releases(root)}:
        raise fail(
            dest, None, "version", version, "version exists; released versions are immutable"
        )
    base_dir = root / base
    base_descriptor = json.loads((base_dir / "datapackage.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(dir=root, prefix=f".{version}-") as tmp:
        stage = Path(tmp) / version
        stage.mkdir()
        # The base's own tables: a version cut from an older release keeps its table set.
        held = data_mod.tables(base, root)
        for t in held:
            _write_table(stage, base_dir, t, tables.get(t))
        descriptor = _descriptor(stage, base_descriptor, version, description) | (extra or {})
        (stage / "datapackage.json").write_text(
            json.dumps(descriptor, indent=2) + "\n", encoding="utf-8"
        )
        problems = validate_folder(stage)
        if problems:  # named by the path they would have had: the stage is about to go
            raise DataError([_at(p, stage, dest) for p in problems])
        stage.rename(dest)
    try:
        record_release(root, version, description)
    except Exception as err:
        shutil.rmtree(dest)  # a folder versions.json does not list is no release: remove it
        raise DataError(
            Problem(str(root / "versions.json"), None, None, None, f"could not record: {err}")
        ) from err
    return dest
