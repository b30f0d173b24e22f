"""Pinned build inputs: every raw file a build reads, checked against its provenance, recorded.

A build reads raw files from a sources folder laid out like `shared/sources` (one folder per
source, each with a `_PROVENANCE.tsv` listing `file`, `bytes` and `sha256` for every file it
holds) and the news digests in the `seeds/` folder beside it. This module

1. lists those files (`list_inputs`): path relative to its root, size and sha256, checking each
   against its folder's `_PROVENANCE.tsv`. A file whose sha256 differs (edited), whose size
   differs (truncated or grown), that is empty, that is listed but absent, or that sits in a
   source folder without being listed stops the build: one `DataError` naming every such file,
   with the provenance row it breaks. Call it before anything is written, so a failure leaves no
   half-written version;
2. records the list in a release's `datapackage.json` as a `build_inputs` section
   (`with_build_inputs`) and reads it back (`read_build_inputs`), so a release says exactly which
   bytes it was built from;
3. rebuilds from exactly those files (`materialise`): a fresh sources tree holding only the pinned
   files, with their provenance rows, so sources added later (a new folder, a new snapshot in an
   old folder) never change the reproduction of an older release.

Seeds have no provenance file; they are recorded (size, sha256) and must not be empty.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

from analysis.data.errors import DataError, Problem

PROVENANCE = "_PROVENANCE.tsv"
SECTION = "build_inputs"
ROOTS = ("sources", "seeds")
_SHA = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class InputFile:
    root: str  # "sources" or "seeds"
    path: str  # relative to the root, '/'-separated: "cpi-us/2026-07-01_HEAD/data/cpiai.csv"
    bytes: int
    sha256: str


@dataclass(frozen=True)
class BuildInputs:
    files: list[InputFile]
    importers: list[str]


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def seeds_dir_for(sources_dir: Path) -> Path:
    """Where a build finds the digests: `seeds/` beside the sources folder."""
    return Path(sources_dir).parent / "seeds"


def _read_provenance(tsv: Path) -> tuple[list[dict], list[Problem]]:
    """Rows of one _PROVENANCE.tsv (each with its 1-based data row) and any format problems."""
    with tsv.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh, delimiter="\t")
        missing = [c for c in ("file", "bytes", "sha256") if c not in (reader.fieldnames or [])]
        if missing:
            return [], [Problem(str(tsv), None, missing[0], None, "provenance column missing")]
        rows = [r | {"_row": i} for i, r in enumerate(reader, start=1) if any(r.values())]
    return rows, []


def _check_file(sources_dir: Path, tsv: Path, row: dict) -> tuple[InputFile | None, list[Problem]]:
    rel, where = row["file"], f"{tsv}, row {row['_row']}"
    path = sources_dir / rel
    if not path.is_file():
        return None, [Problem(str(path), None, "file", rel, f"listed in {where} but absent")]
    try:
        listed_bytes = int(row["bytes"])
    except (TypeError, ValueError):
        return None, [
            Problem(str(tsv), row["_row"], "bytes", row["bytes"], "must be a whole number")
        ]
    listed_sha = (row["sha256"] or "").strip().lower()
    if not _SHA.match(listed_sha):
        return None, [
            Problem(str(tsv), row["_row"], "sha256", row["sha256"], "must be 64 hex digits")
        ]
    size = path.stat().st_size
    if size == 0:
        return None, [
            Problem(
                str(path), None, "bytes", "0", f"empty file; {where} lists {listed_bytes} bytes"
            )
        ]
    if size != listed_bytes:
        what = "truncated" if size < listed_bytes else "longer than recorded"
        return None, [
            Problem(
                str(path), None, "bytes", str(size), f"{what}: {where} lists {listed_bytes} bytes"
            )
        ]
    actual = sha256(path)
    if actual != listed_sha:
        return None, [
            Problem(str(path), None, "sha256", actual, f"edited: {where} lists sha256 {listed_sha}")
        ]
    return InputFile("sources", rel, size, actual), []


def _folder_inputs(sources_dir: Path, folder: Path) -> tuple[list[InputFile], list[Problem]]:
    tsv = folder / PROVENANCE
    if not tsv.is_file():
        return [], [
            Problem(str(tsv), None, None, None, "every source folder needs a _PROVENANCE.tsv")
        ]
    rows, problems = _read_provenance(tsv)
    files, listed = [], set()
    for row in rows:
        rel = (row["file"] or "").strip()
        if not rel.startswith(folder.name + "/") or rel in listed:
            rule = "listed twice" if rel in listed else f"must be a path inside {folder.name}/"
            problems.append(Problem(str(tsv), row["_row"], "file", rel, rule))
            continue
        listed.add(rel)
        found, bad = _check_file(sources_dir, tsv, row | {"file": rel})
        problems += bad
        files += [found] if found else []
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p != tsv):
        rel = path.relative_to(sources_dir).as_posix()
        if rel not in listed:
            problems.append(
                Problem(
                    str(path), None, "file", rel, f"not listed in {tsv}: its origin is unrecorded"
                )
            )
    return files, problems


def _seed_inputs(seeds_dir: Path) -> tuple[list[InputFile], list[Problem]]:
    files, problems = [], []
    for path in sorted(p for p in seeds_dir.rglob("*") if p.is_file()):
        size = path.stat().st_size
        if size == 0:
            problems.append(Problem(str(path), None, "bytes", "0", "empty seed file"))
            continue
        files.append(InputFile("seeds", path.relative_to(seeds_dir).as_posix(), size, sha256(path)))
    return files, problems


def list_inputs(
    sources_dir: Path, folders: list[str] | None = None, seeds_dir: Path | None = None
) -> list[InputFile]:
    """Every raw file a build reads, each checked against its folder's `_PROVENANCE.tsv`.

    `folders`: the source folders to pin (default: every folder under `sources_dir`). Seeds are
    read from `seeds_dir` (default: `seeds/` beside the sources), if that folder exists. Raises one
    `DataError` naming every bad file; returns the files sorted by root and path.
    """
    sources_dir = Path(sources_dir)
    if not sources_dir.is_dir():
        raise DataError(Problem(str(sources_dir), None, None, None, "sources folder not found"))
    names = (
        # Hidden folders (a tool's scratch space, .git) are not sources.
        sorted(p.name for p in sources_dir.iterdir() if p.is_dir() and not p.name.startswith("."))
        if folders is None
        else folders
    )
    files, problems = [], []
    for name in names:
        found, bad = _folder_inputs(sources_dir, sources_dir / name)
        files += found
        problems += bad
    seeds = seeds_dir_for(sources_dir) if seeds_dir is None else Path(seeds_dir)
    if seeds.is_dir():
        found, bad = _seed_inputs(seeds)
        files += found
        problems += bad
    if problems:
        raise DataError(problems)
    return sorted(files, key=lambda f: (ROOTS.index(f.root), f.path))


# --- the release descriptor's build_inputs section --------------------------------------------


def section(files: list[InputFile], importers: list[str]) -> dict:
    """The `build_inputs` section: the importers run and every file read, in a stable order."""
    return {
        "description": "Raw files this release was built from (path relative to the sources "
        "folder, or to seeds/ beside it), with their size and sha256, and the importers run.",
        "importers": list(importers),
        "files": [asdict(f) for f in files],
    }


def with_build_inputs(descriptor: dict, files: list[InputFile], importers: list[str]) -> dict:
    """A copy of a datapackage descriptor with its `build_inputs` section set."""
    return {**descriptor, SECTION: section(files, importers)}


def read_build_inputs(source: Path | dict) -> BuildInputs:
    """The `build_inputs` of a datapackage.json (path) or descriptor (dict), checked."""
    where = str(source) if isinstance(source, Path) else "datapackage.json"
    descriptor = (
        json.loads(source.read_text(encoding="utf-8")) if isinstance(source, Path) else source
    )
    block = descriptor.get(SECTION)
    if not isinstance(block, dict):
        raise DataError(Problem(where, None, SECTION, None, "the release records no build inputs"))
    problems: list[Problem] = []
    importers = block.get("importers")
    if not isinstance(importers, list) or not all(isinstance(m, str) for m in importers):
        problems.append(
            Problem(where, None, f"{SECTION}.importers", None, "must be a list of module names")
        )
        importers = []
    files, seen = [], set()
    for i, f in enumerate(block.get("files") or []):
        col = f"{SECTION}.files[{i}]"
        try:
            item = InputFile(str(f["root"]), str(f["path"]), int(f["bytes"]), str(f["sha256"]))
        except (KeyError, TypeError, ValueError):
            problems.append(Problem(where, None, col, str(f), "needs root, path, bytes and sha256"))
            continue
        if item.root not in ROOTS or not _SHA.match(item.sha256) or item.bytes <= 0:
            problems.append(
                Problem(where, None, col, item.path, "root sources|seeds, bytes > 0, sha256 hex")
            )
        elif ".." in Path(item.path).parts or Path(item.path).is_absolute():
            problems.append(Problem(where, None, col, item.path, "path must stay inside its root"))
        elif (item.root, item.path) in seen:
            problems.append(Problem(where, None, col, item.path, "file listed twice"))
        else:
            seen.add((item.root, item.path))
            files.append(item)
    if not files and not problems:
        problems.append(Problem(where, None, f"{SECTION}.files", None, "lists no files"))
    if problems:
        raise DataError(problems)
    return BuildInputs(files, importers)


# --- rebuilding from exactly the pinned files --------------------------------------------------


def _root_dir(sources_dir: Path, root: str) -> Path:
    return Path(sources_dir) if root == "sources" else seeds_dir_for(sources_dir)


def verify(sources_dir: Path, files: list[InputFile]) -> None:
    """Every pinned file is present with the recorded size and sha256; else one located error."""
    problems = []
    for f in files:
        path = _root_dir(sources_dir, f.root) / f.path
        if not path.is_file():
            problems.append(
                Problem(str(path), None, "file", f.path, "pinned by the release but absent")
            )
            continue
        size = path.stat().st_size
        if size != f.bytes:
            problems.append(
                Problem(str(path), None, "bytes", str(size), f"the release pinned {f.bytes} bytes")
            )
        elif (actual := sha256(path)) != f.sha256:
            problems.append(
                Problem(str(path), None, "sha256", actual, f"the release pinned {f.sha256}")
            )
    if problems:
        raise DataError(problems)


def materialise(sources_dir: Path, files: list[InputFile], dest: Path) -> Path:
    """A sources tree under `dest` holding exactly the pinned files; returns its sources folder.

    Each folder's `_PROVENANCE.tsv` is rewritten with its header and only the pinned files' rows,
    copied verbatim from the original, so importers that glob a folder see what the release saw.
    Seeds go to `dest/seeds`, beside `dest/sources`, where a build looks for them.
    """
    sources_dir = Path(sources_dir)
    verify(sources_dir, files)
    out = Path(dest) / "sources"
    by_folder: dict[str, set[str]] = {}
    for f in files:
        target = (out if f.root == "sources" else seeds_dir_for(out)) / f.path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_root_dir(sources_dir, f.root) / f.path, target)
        if f.root == "sources":
            by_folder.setdefault(f.path.split("/", 1)[0], set()).add(f.path)
    for folder, pinned in by_folder.items():
        lines = (
            (sources_dir / folder / PROVENANCE)
            .read_text(encoding="utf-8")
            .splitlines(keepends=True)
        )
        kept = [lines[0]] + [line for line in lines[1:] if line.split("\t", 1)[0] in pinned]
        if len(kept) - 1 != len(pinned):
            raise DataError(
                Problem(
                    str(sources_dir / folder / PROVENANCE),
                    None,
                    "file",
                    folder,
                    "a pinned file has no provenance row",
                )
            )
        (out / folder / PROVENANCE).write_text("".join(kept), encoding="utf-8")
    return out
