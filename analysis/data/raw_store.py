"""The local raw store: untouched copies of the public files `data update` downloaded.

Laid out as the project's raw sources folder is (`../shared/sources`), so the importers read it
as they read that folder:

    raw/<folder>/_PROVENANCE.tsv               one row per file: file, repo, commit, commit_date,
                                               path_in_repo, bytes, sha256, url, retrieved_at
    raw/<folder>/<commit date>_HEAD/<path>     or <commit date>_<name>, as the folder's importer
                                               expects (see analysis.data.update.UPSTREAMS)

Files are named by the date of the commit they were read at, the date the importers give an
observation (a snapshot's date), so fetching an unchanged repository again finds the same file
and stores nothing new; `retrieved_at` in the provenance row says when it was downloaded. A
file lands in the store only whole: written beside its final name, then renamed.
"""

from __future__ import annotations

import csv
import fnmatch
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path

TSV = "_PROVENANCE.tsv"
COLUMNS = [
    "file",
    "repo",
    "commit",
    "commit_date",
    "path_in_repo",
    "bytes",
    "sha256",
    "url",
    "retrieved_at",
]
SNAPSHOT = re.compile(r"^(?P<day>\d{4}-\d{2}-\d{2})_")


@dataclass(frozen=True)
class RawFile:
    file: str  # path relative to the store's root, starting with the folder
    repo: str
    commit: str
    commit_date: str
    path_in_repo: str
    bytes: int
    sha256: str
    url: str = ""
    retrieved_at: str = ""

    @property
    def folder(self) -> str:
        return self.file.split("/", 1)[0]

    @property
    def snapshot(self) -> str:
        """The snapshot a file belongs to: the date its name (after the folder) starts with."""
        m = SNAPSHOT.match(self.file.split("/", 1)[1])
        return m["day"] if m else ""


def read(root: Path, folder: str) -> list[RawFile]:
    """The provenance rows of one folder (a raw store's or a sources folder's); [] if none."""
    path = Path(root) / folder / TSV
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    out = []
    for r in rows:
        day = r.get("commit_date", "")
        out.append(
            RawFile(
                r["file"],
                r.get("repo", ""),
                r.get("commit", ""),
                day,
                r.get("path_in_repo", ""),
                int(r.get("bytes") or 0),
                r.get("sha256", ""),
                r.get("url", ""),
                r.get("retrieved_at", ""),
            )
        )
    return out


def write_rows(root: Path, folder: str, rows: list[RawFile]) -> None:
    """Replace the folder's provenance table (through a temporary file)."""
    path = Path(root) / folder / TSV
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(TSV + ".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS, delimiter="\t", lineterminator="\n")
        w.writeheader()
        for r in sorted(rows, key=lambda r: r.file):
            w.writerow(asdict(r))
    tmp.replace(path)


def has(root: Path, raw: RawFile) -> bool:
    """The store already holds this file with these bytes."""
    path = Path(root) / raw.file
    return path.exists() and any(
        r.file == raw.file and r.sha256 == raw.sha256 for r in read(root, raw.folder)
    )


def put(root: Path, files: list[tuple[RawFile, bytes]]) -> None:
    """Store files (all of one folder) and their provenance rows. A file of the same name is
    replaced (the same day's newer commit); its row too."""
    if not files:
        return
    folder = files[0][0].folder
    for raw, body in files:
        dest = Path(root) / raw.file
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(dest.name + ".part")
        tmp.write_bytes(body)
        os.replace(tmp, dest)
    names = {raw.file for raw, _ in files}
    kept = [r for r in read(root, folder) if r.file not in names]
    write_rows(root, folder, kept + [raw for raw, _ in files])


def newest(rows: list[RawFile], patterns: list[tuple[str, bool]]) -> list[RawFile]:
    """The files of the newest snapshot that match `patterns` (path in repository, and whether
    only the newest match counts), from a folder's provenance rows."""
    matching = [r for r in rows if any(fnmatch.fnmatch(r.path_in_repo, p) for p, _ in patterns)]
    if not matching:
        return []
    latest = max(r.snapshot for r in matching)
    out: list[RawFile] = []
    for pattern, only_newest in patterns:
        hits = sorted(
            (
                r
                for r in matching
                if r.snapshot == latest and fnmatch.fnmatch(r.path_in_repo, pattern)
            ),
            key=lambda r: r.path_in_repo,
        )
        out += hits[-1:] if only_newest else hits
    return list({r.file: r for r in out}.values())
