"""Run a chapter again only when something it depends on changed.

Each run of a chapter leaves a manifest, `_deps/<mode>/<path without .qmd>.json` (git-ignored;
`make clean` removes it), recording what the run depended on:

- its source (`.qmd`, sha256), the `analysis` code it imports (the sha256 of every module its
  code cells import, directly or not, found as analysis.data.cache finds a cached function's
  code), the workload presets when that code prices them (workloads/*.yaml), the pinned
  libraries and `_quarto.yml` (figure numbers come from it);
- what it read from the data, as the kernel recorded it (analysis.data.reads): each table with
  the sha256 of its file and schema from the release's datapackage.json, the rows it looked up,
  the list of releases, the release date, ...;
- the data version it ran on and the figure-kit files it wrote.

`plan` compares every chapter with its manifest. A chapter runs again when its source, its code,
the libraries or `_quarto.yml` changed, when anything it read reads differently now (a table whose
checksum changed, a data version that is gone), when it has no readable manifest, or when its
last output is missing; otherwise that output is reused. The offline preview keeps each
chapter's executed notebook and figure-kit files beside its manifest (mode "preview"); under
Quarto the last output is the chapter's `_freeze/` entry, and `refresh_freeze` removes exactly the
entries of the chapters that must run again (mode "quarto").

A reused chapter still names the data version it ran on: what it read is byte for byte the same
in the current version, so its numbers are the current version's too.

`quarto render` runs pandoc and Typst on every page even when no chapter executes, so a
successful render also leaves `_deps/quarto-render.json`: every file of the project it may read
(outputs, caches and environments aside), the data releases' descriptors, Quarto's version and
what `_book/` then holds. When no chapter must run and all of that is the same, `make book` skips
the render.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from IPython.core.inputtransformer2 import TransformerManager

from analysis.book import notebook as chapters
from analysis.data import cache, reads, release, workloads

DEPS_DIR = "_deps"
PREVIEW = "preview"
QUARTO = "quarto"
FREEZE_DIR = "_freeze"
MANIFEST_FORMAT = 1
INLINE_KEY = "book_inline"  # the notebook metadata that keeps the inline values
EXECUTOR = Path(chapters.__file__).resolve()  # how a chapter is run is code it depends on


@dataclass(frozen=True)
class State:
    """What a chapter's run depends on, besides the data it reads."""

    chapter: str  # the .qmd's path in the project
    source_sha256: str
    code: dict[str, str]  # analysis module or curated table (path in the package) -> sha256
    inputs: dict[str, str]  # other project file the code reads (path in the project) -> sha256
    libraries: str
    config_sha256: str
    has_code: bool

    def manifest(self, reads_: dict, data_version: str | None, figures: list[str]) -> dict:
        return {
            "format": MANIFEST_FORMAT,
            "chapter": self.chapter,
            "source_sha256": self.source_sha256,
            "code_sha256": reads.digest(self.code),
            "code": self.code,
            "inputs": self.inputs,
            "libraries": self.libraries,
            "config_sha256": self.config_sha256,
            "data_version": data_version,
            "reads": reads_,
            "figures": figures,
        }


def chapter_state(qmd: Path | str, root: Path) -> State:
    qmd = Path(qmd).resolve()
    notebook = chapters.to_notebook(qmd, root=root)
    code_cells = [
        c.source for c in notebook.cells if c.cell_type == "code" and not chapters.is_setup_cell(c)
    ]
    imported: set[Path] = {EXECUTOR}
    for source in code_cells:
        # As the kernel reads it: IPython's `%magic` and `!shell` lines become Python first.
        python = TransformerManager().transform_cell(source)
        with contextlib.suppress(SyntaxError):  # the cell fails when it runs
            imported |= set(cache.imported_modules(python))
    config = root / "_quarto.yml"
    closure = cache.module_closure(imported)
    return State(
        chapter=qmd.relative_to(root).as_posix(),
        source_sha256=_sha256(qmd),
        code=cache.module_hashes(closure | cache.curated_tables()),
        inputs=project_inputs(closure),
        libraries=cache.libraries_fingerprint(),
        config_sha256=_sha256(config) if config.is_file() else "",
        has_code=bool(code_cells),
    )


def project_inputs(closure: set[Path]) -> dict[str, str]:
    """The project files outside the package that code in `closure` reads, with their sha256:
    the workload presets (workloads/*.yaml), read by whatever imports analysis.data.workloads
    (the workload-costs page prices them)."""
    if Path(workloads.__file__).resolve() not in closure:
        return {}
    return {
        path.relative_to(workloads.WORKLOADS_DIR.parent).as_posix(): _sha256(path)
        for path in workloads.presets().values()
    }


@dataclass
class Verdict:
    chapter: str
    rerun: bool
    reasons: list[str] = field(default_factory=list)
    ran_on: str | None = None  # the data version of the last run
    current: str | None = None

    def line(self) -> str:
        if self.rerun:
            return f"{self.chapter}: re-run, {'; '.join(self.reasons)}"
        line = f"{self.chapter}: reused, nothing it reads changed"
        if self.ran_on and self.current and self.ran_on != self.current:
            line += f" (it ran on data version {self.ran_on}; what it reads is the same in {self.current})"
        return line


class Store:
    """The manifests (and, for the preview, the outputs) of one mode, under `_deps/<mode>/`."""

    def __init__(self, root: Path, mode: str):
        self.root = Path(root)
        self.dir = self.root / DEPS_DIR / mode

    def base(self, chapter: str) -> Path:
        return self.dir / Path(chapter).with_suffix("")

    def path(self, chapter: str, suffix: str) -> Path:
        return Path(f"{self.base(chapter)}{suffix}")

    def manifest(self, chapter: str) -> dict | None:
        """The chapter's manifest; None when there is none; ValueError when it is unreadable."""
        path = self.path(chapter, ".json")
        if not path.exists():
            return None
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise ValueError(f"{path.relative_to(self.root)} cannot be read ({error})") from None
        keys = ("source_sha256", "code", "libraries", "config_sha256", "reads", "figures")
        if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
            raise ValueError(f"{path.relative_to(self.root)} is not a manifest of this format")
        types = {"code": dict, "reads": dict, "figures": list}
        if any(k not in manifest for k in keys) or any(
            not isinstance(manifest[k], t) for k, t in types.items()
        ):
            raise ValueError(f"{path.relative_to(self.root)} lacks some of {', '.join(keys)}")
        if not all(isinstance(fields, dict) for fields in manifest["reads"].values()):
            raise ValueError(f"{path.relative_to(self.root)} has a malformed read")
        return manifest

    def write_manifest(self, chapter: str, manifest: dict) -> None:
        _write_text(self.path(chapter, ".json"), json.dumps(manifest, indent=1, sort_keys=True))

    def forget(self, chapter: str) -> None:
        """Remove the manifest first: a run that stops half-way leaves no record, so it runs again."""
        for suffix in (".json", reads.READS_SUFFIX):
            self.path(chapter, suffix).unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------------
# The verdict


def plan(
    root: Path,
    qmds: list[Path],
    store: Store,
    missing_output: Callable[[str, dict], str | None],
) -> tuple[list[Verdict], dict[str, State]]:
    """Whether each chapter runs again, and why; and each chapter's state now."""
    root = Path(root).resolve()
    current = current_version()
    verdicts, states = [], {}
    for qmd in qmds:
        state = chapter_state(qmd, root)
        states[state.chapter] = state
        verdicts.append(verdict(state, store, missing_output, current))
    return verdicts, states


def verdict(
    state: State,
    store: Store,
    missing_output: Callable[[str, dict], str | None],
    current: str | None = None,
) -> Verdict:
    chapter = state.chapter
    try:
        manifest = store.manifest(chapter)
    except ValueError as error:
        return Verdict(chapter, True, [f"its record {error}"])
    if manifest is None:
        return Verdict(chapter, True, ["no record of an earlier run"])
    reasons = []
    if manifest["source_sha256"] != state.source_sha256:
        reasons.append("its source changed")
    changed = _changed_keys(manifest["code"], state.code)
    if changed:
        more = f" (and {len(changed) - 3} more)" if len(changed) > 3 else ""
        reasons.append("code changed: " + ", ".join(f"analysis/{m}" for m in changed[:3]) + more)
    # Records written before inputs were kept have none.
    changed = _changed_keys(manifest.get("inputs", {}), state.inputs)
    if changed:
        reasons.append("changed: " + ", ".join(changed))
    if manifest["libraries"] != state.libraries:
        reasons.append(
            "the pinned libraries (requirements.lock), Python or the BLAS threads changed"
        )
    if manifest["config_sha256"] != state.config_sha256:
        reasons.append("_quarto.yml changed")
    reasons += read_changes(manifest["reads"])
    missing = missing_output(chapter, manifest)
    if missing:
        reasons.append(missing)
    return Verdict(chapter, bool(reasons), reasons, manifest.get("data_version"), current)


def _changed_keys(recorded: dict[str, str], now: dict[str, str]) -> list[str]:
    """The files (keys) whose sha256 differs between a record and now, or that only one has."""
    return sorted(k for k in {*recorded, *now} if recorded.get(k) != now.get(k))


def read_changes(recorded: dict[str, dict]) -> list[str]:
    """What reads differently now, one phrase per read that changed."""
    out = []
    for key, fields in sorted(recorded.items()):
        now = release.read_now(key, fields)
        if now is None:
            out.append(f"{_what(key, fields)} is gone")
        elif _identity(now) != _identity(fields):
            out.append(_change(key, fields, now))
    return out


def _identity(fields: dict) -> dict:
    return {k: v for k, v in fields.items() if k != "version"}  # the version is only a label


def _what(key: str, fields: dict) -> str:
    kind, _, rest = key.partition(":")
    kind, _, pinned = kind.partition("@")
    of = f" of data version {pinned}" if pinned else ""
    if kind == "table":
        return f"table {rest}{of}"
    if kind == "folder":
        return f"the files under {rest}"
    if kind == "title":
        return f"the title of {Path(rest).name}"
    if kind == "rows":
        table, column = rest.split(":")[:2]
        n = len(fields.get("values", []))
        return f"the {n} {table} row(s) it looks up by {column}{of}"
    names = {
        "releases": "the list of data releases",
        "release_date": "the release date",
        "citation": "the data citation",
        "datapackage": "datapackage.json",
        "tables": "the list of tables",
    }
    return names.get(kind, key) + of


def _change(key: str, old: dict, new: dict) -> str:
    what = _what(key, old)
    if "value" in old and isinstance(old["value"], str) and len(old["value"]) <= 40:
        return f"{what} changed ({old['value']} → {new.get('value')})"
    if old.get("sha256") != new.get("sha256"):
        return (
            f"{what} changed (sha256 {old.get('sha256', '')[:8]}… → {new.get('sha256', '')[:8]}…)"
        )
    if old.get("schema_sha256") != new.get("schema_sha256"):
        return f"{what}: its schema changed"
    versions = f" (data version {old.get('version')} → {new.get('version')})"
    return f"{what} changed" + (versions if old.get("version") != new.get("version") else "")


def current_version() -> str | None:
    try:
        return release.current_version()
    except (OSError, ValueError):
        return None


# ---------------------------------------------------------------------------------------------
# The offline preview: executed notebooks and figure-kit files kept beside the manifests


def preview_missing(store: Store) -> Callable[[str, dict], str | None]:
    def missing(chapter: str, manifest: dict) -> str | None:
        if not store.path(chapter, ".ipynb").is_file():
            return "its executed notebook is missing"
        kit = store.path(chapter, ".figures")
        if any(not (kit / name).is_file() for name in manifest["figures"]):
            return "its figure-kit files are missing"
        return None

    return missing


def save_preview(
    store: Store,
    state: State,
    executed: chapters.ExecutedChapter,
    kit_folder: Path | None,
    data_version: str | None,
) -> None:
    """Keep a chapter's run: notebook and figure-kit files first, the manifest last."""
    chapter = state.chapter
    store.forget(chapter)
    notebook = nbformat.from_dict(executed.notebook)
    notebook.metadata[INLINE_KEY] = executed.inline
    _write_text(store.path(chapter, ".ipynb"), nbformat.writes(notebook))
    kit = store.path(chapter, ".figures")
    shutil.rmtree(kit, ignore_errors=True)
    figures = []
    if kit_folder and kit_folder.is_dir():
        shutil.copytree(kit_folder, kit)
        figures = sorted(p.relative_to(kit).as_posix() for p in kit.rglob("*") if p.is_file())
    store.write_manifest(chapter, state.manifest(executed.reads, data_version, figures))


def load_preview(
    store: Store, chapter: str, qmd: Path, kit_folder: Path
) -> chapters.ExecutedChapter:
    """A chapter's kept run, its figure-kit files copied into `kit_folder`; ValueError when the
    kept notebook cannot be read."""
    try:
        notebook = nbformat.read(store.path(chapter, ".ipynb"), as_version=4)
    except (OSError, ValueError) as error:
        raise ValueError(f"its kept notebook cannot be read ({error})") from None
    inline = dict(notebook.metadata.pop(INLINE_KEY, {}) or {})
    kit = store.path(chapter, ".figures")
    shutil.rmtree(kit_folder, ignore_errors=True)
    if kit.is_dir():
        shutil.copytree(kit, kit_folder)
    manifest = store.manifest(chapter) or {}
    return chapters.ExecutedChapter(Path(qmd), notebook, inline, manifest.get("reads", {}))


# ---------------------------------------------------------------------------------------------
# Quarto: clear the frozen results of exactly the chapters that must run again


def freeze_folder(root: Path, chapter: str) -> Path:
    """Quarto's frozen results of a chapter: `_freeze/<path without .qmd>/` (execute-results/
    <format>.json, and its figures)."""
    return Path(root) / FREEZE_DIR / Path(chapter).with_suffix("")


def quarto_missing(root: Path, kit_dir: Path) -> Callable[[str, dict], str | None]:
    def missing(chapter: str, manifest: dict) -> str | None:
        if not list((freeze_folder(root, chapter) / "execute-results").glob("*.json")):
            return "it has no frozen result"
        kit = kit_dir / chapters.chapter_slug(chapter)
        if any(not (kit / name).is_file() for name in manifest["figures"]):
            return "its figure-kit files are missing"
        return None

    return missing


@dataclass
class FreezePlan:
    verdicts: list[Verdict]
    states: dict[str, State]
    started: float  # when the plan was made: later frozen results are this render's


def refresh_freeze(root: Path, kit_dir: Path) -> FreezePlan:
    """Before `quarto render`: remove the `_freeze/` entries and figure-kit folders of the
    chapters that must run again (and their manifests), keep every other chapter's."""
    root = Path(root).resolve()
    store = Store(root, QUARTO)
    qmds = [q for q in chapters.book_files(root) if chapter_state(q, root).has_code]
    verdicts, states = plan(root, qmds, store, quarto_missing(root, kit_dir))
    for v in verdicts:
        if v.rerun:
            store.forget(v.chapter)
            shutil.rmtree(freeze_folder(root, v.chapter), ignore_errors=True)
            shutil.rmtree(kit_dir / chapters.chapter_slug(v.chapter), ignore_errors=True)
    (root / FREEZE_DIR).mkdir(exist_ok=True)
    kit_dir.mkdir(parents=True, exist_ok=True)
    return FreezePlan(verdicts, states, time.time())


def record_quarto_runs(root: Path, kit_dir: Path, freeze_plan: FreezePlan) -> list[str]:
    """After `quarto render`: a manifest for every chapter Quarto executed (its frozen result is
    newer than the plan), from its state before the render and the reads its kernel wrote."""
    root = Path(root).resolve()
    store = Store(root, QUARTO)
    current = current_version()
    recorded = []
    for chapter, state in freeze_plan.states.items():
        results = list((freeze_folder(root, chapter) / "execute-results").glob("*.json"))
        if not any(r.stat().st_mtime >= freeze_plan.started for r in results):
            continue  # not executed in this render (frozen), or it failed
        reads_file = store.path(chapter, reads.READS_SUFFIX)
        recorded_reads = {}
        if reads_file.is_file() and reads_file.stat().st_mtime >= freeze_plan.started:
            recorded_reads = json.loads(reads_file.read_text(encoding="utf-8")).get("reads", {})
        kit = kit_dir / chapters.chapter_slug(chapter)
        figures = sorted(p.relative_to(kit).as_posix() for p in kit.rglob("*") if p.is_file())
        store.write_manifest(chapter, state.manifest(recorded_reads, current, figures))
        recorded.append(chapter)
    return recorded


# ---------------------------------------------------------------------------------------------
# The whole render: `quarto render` runs pandoc and Typst on every page even when every chapter
# is frozen (a real 1.10.18 render took 78 s with nothing to execute), so `make book` skips it
# when nothing it reads changed since the last render that succeeded.

RENDER_RECORD = "quarto-render.json"  # in _deps/: what the last successful render read and wrote
BOOK_OUTPUT = "_book"
# Folders no render reads as input: outputs, caches and environments (the folders .gitignore
# lists; tests/book/test_deps.py checks the two agree), and the vega bundle the pre-render step
# writes from the pinned libraries.
NOT_INPUTS = {
    ".git",
    ".venv",
    ".lock-venv",
    "_book",
    "_preview",
    "_freeze",
    ".quarto",
    "__pycache__",
    ".pytest_cache",
    ".ruff_cache",
    "build",
    ".ipynb_checkpoints",
    "site_libs",
    "_figures",
    "_cache",
    "_deps",
    "raw",
    "assets/vega",
}


def book_inputs(root: Path, data_dir: Path) -> dict[str, str]:
    """path -> sha256 of every file a render may read: the project's files outside `NOT_INPUTS`
    (and `*.egg-info`, `.preview-build-*` and tools' caches), and the data by its list of
    releases and each release's descriptor, which holds the sha256 of every file of the
    release."""
    root, data_dir = Path(root).resolve(), Path(data_dir).resolve()
    found: dict[str, str] = {}

    def walk(folder: Path) -> None:
        for path in sorted(folder.iterdir()):
            name = path.relative_to(root).as_posix()
            if path.is_dir():
                if not (_not_input(path) or name in NOT_INPUTS or path == data_dir):
                    walk(path)
            elif path.is_file():
                found[name] = _sha256(path)

    walk(root)
    for path in [data_dir / "versions.json", *sorted(data_dir.glob("*/datapackage.json"))]:
        if path.is_file():
            found[f"data:{path.relative_to(data_dir).as_posix()}"] = _sha256(path)
    return found


def _not_input(folder: Path) -> bool:
    return (
        folder.name in NOT_INPUTS
        or folder.name.endswith(".egg-info")
        or folder.name.startswith(".preview-build-")
        or (folder / "CACHEDIR.TAG").is_file()  # a tool's cache (lint-imports', ruff's, ...)
    )


def book_outputs(root: Path) -> dict[str, list[int]]:
    """path -> [size, mtime in ns] of every file of `_book/`: a deleted or rewritten output is a
    change."""
    output = Path(root) / BOOK_OUTPUT
    files = sorted(p for p in output.rglob("*") if p.is_file()) if output.is_dir() else []
    stats = {p.relative_to(output).as_posix(): p.stat() for p in files}
    return {name: [stat.st_size, stat.st_mtime_ns] for name, stat in stats.items()}


def render_state(root: Path, data_dir: Path, quarto_version: str) -> dict:
    return {
        "quarto": quarto_version,
        # The release every page reads, when a reader pins one, and Quarto's profile.
        "data_version": os.environ.get(release.VERSION_ENV),
        "quarto_profile": os.environ.get("QUARTO_PROFILE"),
        "inputs": book_inputs(root, data_dir),
    }


def unchanged_since_render(root: Path, state: dict, freeze_plan: FreezePlan) -> bool:
    """True when no chapter must run, every input is as the last successful render read it, and
    `_book/` holds exactly what that render left."""
    if any(v.rerun for v in freeze_plan.verdicts):
        return False
    try:
        recorded = json.loads((Path(root) / DEPS_DIR / RENDER_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    outputs = book_outputs(root)
    return bool(outputs) and recorded == {**state, "outputs": outputs}


def record_render(root: Path, state: dict) -> None:
    """After a successful `quarto render`: what it read (`state`) and what `_book/` now holds."""
    record = {**state, "outputs": book_outputs(root)}
    _write_text(Path(root) / DEPS_DIR / RENDER_RECORD, json.dumps(record, indent=1, sort_keys=True))


def forget_render(root: Path) -> None:
    """Before `quarto render`: a render that fails or stops leaves no record, so it runs again."""
    (Path(root) / DEPS_DIR / RENDER_RECORD).unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------------


def _sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _write_text(path: Path, text: str) -> None:
    """Write to a temporary name and rename it over `path`: never half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        "w", dir=path.parent, delete=False, suffix=".tmp", encoding="utf-8"
    ) as tmp:
        tmp.write(text)
    Path(tmp.name).replace(path)
