"""What a chapter read from the data, recorded as it runs, so `make book` re-runs a chapter only
when something it read changed (analysis.book.deps decides).

`analysis.data.release` calls `record` at each way in: `load` (a table, with its file's sha256
and its schema's, from the release's datapackage.json), `lookup` (only some rows of a table),
`releases`/`latest_version` (the list of releases), `datapackage` and `citation`; a page that
reads raw files outside the releases records their folder (`record_folder`). A read of the
current data version is keyed by the table alone (`table:gpu_hour_prices`), so the next release's
table is compared with it; a read of a named other version carries the version
(`table@2026-11-30:gpu_hour_prices`), which never changes until it is gone.

The record lives in the process: one kernel runs one chapter. It is written, after every new read
(so nothing depends on the kernel shutting down cleanly), to $BOOK_READS_FILE when that is set
(the project's executor sets it in the chapter's setup cell), else, under Quarto, to
`$BOOK_DEPS_DIR/<document path>.reads.json` (`make book` sets BOOK_DEPS_DIR before it runs Quarto).
Nothing is written when neither is set.

The disk cache (analysis.data.cache) stores the record beside each result and replays it on a
hit, so a chapter whose result comes from `_cache/` still records what that result was made from.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

from analysis.data import paths

READS_FILE_ENV = "BOOK_READS_FILE"
DEPS_DIR_ENV = "BOOK_DEPS_DIR"
READS_SUFFIX = ".reads.json"

_reads: dict[str, dict] = {}
_paused = 0
_captures: list[dict[str, dict]] = []  # open `capture()` blocks, innermost last


def record(key: str, **fields) -> None:
    """Note one read (`fields` say what was read and its checksum or value)."""
    if _paused:
        return
    for got in _captures:
        got[key] = fields
    if _reads.get(key) == fields:
        return
    _reads[key] = fields
    _write()


def snapshot() -> dict[str, dict]:
    """Every read recorded in this process so far."""
    return {key: dict(fields) for key, fields in _reads.items()}


def replay(reads: dict[str, dict]) -> None:
    """Record again reads made elsewhere (a cached result's)."""
    for key, fields in reads.items():
        record(key, **fields)


def clear() -> None:
    _reads.clear()


@contextmanager
def capture():
    """The reads made inside the block, also those a memo replays (a dict, filled as it runs)."""
    got: dict[str, dict] = {}
    _captures.append(got)
    try:
        yield got
    finally:
        _captures.pop()


def memo(func):
    """`functools.cache` that records again, on every hit, the reads its first call made, so a
    result computed on one page and kept on disk (analysis.data.cache) carries exactly the reads
    it was made from, whichever memoised reads the process had made before."""

    @functools.cache
    def first(*args, **kwargs):
        with capture() as got:
            value = func(*args, **kwargs)
        return value, got

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        value, got = first(*args, **kwargs)
        replay(got)
        return value

    wrapper.cache_clear = first.cache_clear
    return wrapper


@contextmanager
def paused():
    """Reads inside the block are not recorded (checking inputs is not reading them)."""
    global _paused
    _paused += 1
    try:
        yield
    finally:
        _paused -= 1


def digest(value) -> str:
    """The sha256 of a JSON-able value in a form that is the same in every process."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def folder_digest(folder: Path) -> str:
    """The sha256 of every file under `folder` (names and bytes), or "absent": for inputs that
    are not in a release (raw source files a page reads)."""
    folder = Path(folder)
    if not folder.is_dir():
        return "absent"
    digest = hashlib.sha256()
    for file in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(file.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(file.read_bytes()).hexdigest().encode())
    return digest.hexdigest()


def record_folder(folder: Path) -> None:
    """Note a read of the files under `folder` (checked again by `release.read_now`)."""
    record(f"folder:{Path(folder).resolve()}", sha256=folder_digest(folder))


def quarto_document() -> str | None:
    """The document Quarto is executing: `document-path` in Quarto's execute-info file (1.8+),
    else QUARTO_DOCUMENT_PATH/QUARTO_DOCUMENT_FILE (the folder and the file name)."""
    info_path = os.environ.get("QUARTO_EXECUTE_INFO")
    if info_path:
        try:
            info = json.loads(Path(info_path).read_text(encoding="utf-8"))
            if isinstance(info.get("document-path"), str):
                return info["document-path"]
        except (OSError, ValueError, AttributeError):
            pass
    name = os.environ.get("QUARTO_DOCUMENT_FILE")
    if not name:
        return None
    folder = os.environ.get("QUARTO_DOCUMENT_PATH")
    return str(Path(folder) / name) if folder else name


def reads_path(deps_dir: Path, document: Path | str, root: Path) -> Path:
    """Where the reads of `document` go under `deps_dir`: its path in the project without
    `.qmd` (as Quarto's _freeze/ names it), then `.reads.json`."""
    document = Path(document).resolve()
    name = document.relative_to(root) if document.is_relative_to(root) else Path(document.name)
    return Path(deps_dir) / f"{name.with_suffix('').as_posix()}{READS_SUFFIX}"


def _target() -> Path | None:
    explicit = os.environ.get(READS_FILE_ENV)
    if explicit:
        return Path(explicit)
    deps_dir, document = os.environ.get(DEPS_DIR_ENV), quarto_document()
    if not (deps_dir and document):
        return None
    root = Path(os.environ.get("QUARTO_PROJECT_ROOT") or paths.ROOT).resolve()
    return reads_path(Path(deps_dir), document, root)


def _write() -> None:
    target = _target()
    if target is None:
        return
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", dir=target.parent, delete=False, suffix=".tmp", encoding="utf-8"
        ) as tmp:
            json.dump({"reads": _reads}, tmp, indent=1, sort_keys=True)
        Path(tmp.name).replace(target)
    except OSError:  # a read-only disk: the chapter still runs; no record means a re-run later
        pass
