"""An on-disk cache of expensive results, so the book's second output format reuses the first's.

Quarto executes every chapter once per output format (HTML, then Typst for the PDF), each time
in a fresh kernel, so a bootstrap or a model search a chapter runs is run twice. Wrapping the
call in `cached` keeps its result in `_cache/` (git-ignored; $BOOK_CACHE_DIR elsewhere):

    from analysis.data.cache import cached
    epoch = cached(fc.reproduce_epoch)(token_prices, scores, models, bootstrap=True)

    @cached
    def slow_fit(frame: pl.DataFrame, draws: int) -> Result: ...

A result is found again only when everything it was computed from is the same:

- the data: the current data version and the checksum of its `datapackage.json` (which holds the
  sha256 of every file of the release), so other data (or BOOK_DATA_VERSION) is a miss;
- the code: the source of the function's module and of every `analysis` module it imports,
  directly or not (found by reading their `import` statements), so an edit anywhere in the code
  a result depends on is a miss; and the libraries: Python's version and `requirements.lock`,
  so an upgrade of polars or statsmodels is a miss too;
- the arguments: their values (polars frames by their schema and row hashes), so other inputs
  are a miss. A call with an argument the cache cannot key (an arbitrary object) is not cached.

A result is stored with the data reads its call made (analysis.data.reads; the package's memos
replay theirs on every hit) and a hit replays them, so a chapter served from the cache still
records which tables it depends on, and no other chapter's.

A cache file that cannot be read (truncated, corrupt, from an older Python) is ignored and
rewritten. Files are written to a temporary name and renamed, so two kernels writing the same
result never leave half a file. `BOOK_NO_CACHE=1` turns the cache off; `make clean` empties it.
"""

from __future__ import annotations

import ast
import dataclasses
import datetime as dt
import enum
import functools
import hashlib
import inspect
import json
import os
import pickle
import re
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from analysis.data import reads
from analysis.data.paths import ROOT

CACHE_DIR_ENV = "BOOK_CACHE_DIR"
DISABLE_ENV = "BOOK_NO_CACHE"
DEFAULT_DIR = ROOT / "_cache"
PACKAGE = "analysis"
PACKAGE_DIR = Path(__file__).resolve().parents[1]  # analysis/

F = TypeVar("F", bound=Callable[..., Any])


class Unkeyable(TypeError):
    """An argument the cache cannot turn into a stable key."""


@dataclasses.dataclass
class _Entry:
    """A cached result and the data reads it was made from (replayed on a hit: see
    analysis.data.reads), so a chapter served from the cache still records its inputs."""

    value: Any
    reads: dict[str, dict]


def cache_dir() -> Path:
    return Path(os.environ.get(CACHE_DIR_ENV) or DEFAULT_DIR)


def enabled() -> bool:
    return os.environ.get(DISABLE_ENV, "").strip().lower() not in ("1", "true", "yes", "on")


def cached(func: F) -> F:
    """`func` with its results kept on disk (see the module docstring for the key)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if not enabled():
            return func(*args, **kwargs)
        try:
            key = call_key(func, args, kwargs)
        except Unkeyable as error:
            warnings.warn(f"not cached: {_name(func)}: {error}", stacklevel=2)
            return func(*args, **kwargs)
        path = cache_dir() / _name(func) / f"{key}.pickle"
        found, entry = _load(path)
        if found and isinstance(entry, _Entry):
            reads.replay(entry.reads)
            return entry.value
        # The reads made inside the call: the package's memos (reads.memo) record theirs again
        # on every hit, so a read memoised before the call is not lost, and the reads of
        # whatever else the process did first (another chapter's) do not ride along.
        with reads.capture() as made:
            value = func(*args, **kwargs)
        _store(path, _Entry(value, made))
        return value

    wrapper.__wrapped__ = func
    return wrapper  # type: ignore[return-value]


def call_key(func: Callable, args: tuple, kwargs: dict) -> str:
    """The sha256 that names one call's result: data, code and arguments."""
    digest = hashlib.sha256()
    for part in (data_fingerprint(), code_fingerprint(func), libraries_fingerprint(), _name(func)):
        digest.update(part.encode())
        digest.update(b"\0")
    bound = inspect.signature(func).bind(*args, **kwargs)
    bound.apply_defaults()
    for name, value in bound.arguments.items():
        digest.update(name.encode() + b"=")
        _feed(digest, value)
        digest.update(b"\0")
    return digest.hexdigest()


def data_fingerprint() -> str:
    """The current data version and the sha256 of its descriptor (every file's checksum)."""
    from analysis.data import release

    try:
        version = release.current_version()
        descriptor = release.version_dir(version) / "datapackage.json"
        return f"{version}:{hashlib.sha256(descriptor.read_bytes()).hexdigest()}"
    except (OSError, ValueError) as error:  # no released data here: nothing to tie results to
        return f"no-data:{type(error).__name__}"


def releases_fingerprint(versions) -> dict[str, str]:
    """Each release's sha256 of its descriptor, by version. `data_fingerprint` ties a result to
    the current release only; a result computed from several releases (the estimates of every
    release) takes this as an argument of its cached call, so a change to any of them is a miss."""
    from analysis.data import release

    return {
        v: hashlib.sha256((release.version_dir(v) / "datapackage.json").read_bytes()).hexdigest()
        for v in versions
    }


def libraries_fingerprint() -> str:
    """Python's version, the sha256 of the lock file that pins every library, and the number of
    BLAS threads (analysis/__init__.py sets one unless the reader sets theirs: a fit's last bits
    depend on it)."""
    lock = ROOT / "requirements.lock"
    pinned = _file_hash(lock, lock.stat().st_mtime_ns) if lock.is_file() else "no-lock"
    return f"{sys.version}:{pinned}:blas-threads={os.environ.get('OPENBLAS_NUM_THREADS')}"


def code_fingerprint(func: Callable) -> str:
    """The sha256 of the source of `func`'s module, every `analysis` module it imports and the
    package's curated tables."""
    module = sys.modules.get(func.__module__)
    path = Path(inspect.getsourcefile(module)).resolve() if module else None
    if path is None or not path.is_relative_to(PACKAGE_DIR):
        try:  # a function from elsewhere (a notebook, a test): its own source
            return hashlib.sha256(inspect.getsource(func).encode()).hexdigest()
        except (OSError, TypeError) as error:
            raise Unkeyable(f"the source of {_name(func)} cannot be read") from error
    return modules_fingerprint(module_closure([path]) | curated_tables())


def curated_tables() -> set[Path]:
    """The package's curated tables (analysis/data/tables: display names, developers, model
    families). The code reads them as it reads its own source, so an edit to one is an edit to the
    code: a result, or a kept page run (analysis.book.deps), made before it is a miss."""
    return set((PACKAGE_DIR / "data" / "tables").glob("*.csv"))


def modules_fingerprint(files) -> str:
    """One sha256 of the names and contents of `analysis` files (modules and curated tables)."""
    digest = hashlib.sha256()
    for name, sha in module_hashes(files).items():
        digest.update(name.encode() + b"\0")
        digest.update(sha.encode())
    return digest.hexdigest()


def module_hashes(files) -> dict[str, str]:
    """The sha256 of each `analysis` module file, by its path in the package, sorted."""
    return {
        file.relative_to(PACKAGE_DIR).as_posix(): _file_hash(file, file.stat().st_mtime_ns)
        for file in sorted(files)
    }


def module_closure(files) -> set[Path]:
    """The module files given and every `analysis` module they import, directly or not."""
    seen: set[Path] = set()
    for file in files:
        seen |= _closure(Path(file).resolve())
    return seen


def imported_modules(source: str) -> tuple[Path, ...]:
    """The `analysis` module files Python source imports anywhere in it."""
    return _imports_in(source)


# ---------------------------------------------------------------------------------------------


def _name(func: Callable) -> str:
    return f"{func.__module__}.{func.__qualname__}".replace("<", "").replace(">", "")


def _closure(start: Path) -> set[Path]:
    seen: set[Path] = set()
    todo = [start]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo += _imports(path, path.stat().st_mtime_ns)
    return seen


@functools.cache
def _imports(path: Path, _mtime: int) -> tuple[Path, ...]:
    """The `analysis` modules `path` imports anywhere in it (top level or inside functions)."""
    source = path.read_text(encoding="utf-8")
    # Every kernel keys its cached results by this closure, so the package's own files, which
    # `ruff format` keeps at one import statement per line, are read by their lines (about 0.3 s
    # of CPU less per kernel than parsing ~60 modules); anything else is parsed.
    if _UNUSUAL_IMPORT.search(source):
        return _imports_in(source)
    return _paths(_import_lines(source))


def _imports_in(source: str) -> tuple[Path, ...]:
    tree = ast.parse(source)
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    return _paths(names)


# An import statement that starts a line: `import a.b as c, d` or `from a.b import c as d, e`,
# the names of the latter in parentheses over several lines (with comments) or not. A line that
# looks like one (in a docstring) adds a module: a needless miss at worst, never a missed import.
_IMPORT_LINE = re.compile(
    r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+(\((?:[^)#]|#[^\n]*)*\)|[^\n]*)"
    r"|import[ \t]+([^\n]*))",
    re.MULTILINE,
)
# An import after `;` or `:` on a line, or continued with a backslash: parse the file instead.
_UNUSUAL_IMPORT = re.compile(
    r"[;:][ \t]*(?:from[ \t]+[\w.]+[ \t]+)?import[ \t]|\bimport\b[^\n]*\\\n"
)


def _import_lines(source: str) -> list[str]:
    """The modules the import statements starting a line of `source` name (as `_imports_in`)."""
    names: list[str] = []
    for module, imported, plain in _IMPORT_LINE.findall(source):
        if module:
            if module.startswith("."):
                continue
            names.append(module)
            items = re.sub(r"#[^\n]*", "", imported).strip("() \t\n")
            names += [f"{module}.{item.split()[0]}" for item in items.split(",") if item.strip()]
        else:
            items = re.sub(r"#[^\n]*", "", plain)
            names += [item.split()[0] for item in items.split(",") if item.strip()]
    return names


def _paths(names: list[str]) -> tuple[Path, ...]:
    found = []
    for name in names:
        if name == PACKAGE or name.startswith(PACKAGE + "."):
            parts = name.split(".")[1:]
            # Importing a module runs the __init__.py of each package above it too
            # (analysis/__init__.py sets the BLAS threads, which move a fit's last bits).
            candidates = [PACKAGE_DIR.joinpath(*parts[:i], "__init__.py") for i in range(len(parts) + 1)]  # fmt: skip
            candidates.append(PACKAGE_DIR.joinpath(*parts).with_suffix(".py"))
            found += [c.resolve() for c in candidates if c.is_file()]
    return tuple(found)


@functools.cache
def _file_hash(path: Path, _mtime: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _feed(digest, value: Any) -> None:
    """Add `value` to `digest` in a form that is the same in every process."""
    import polars as pl

    if isinstance(value, pl.LazyFrame):
        raise Unkeyable("a LazyFrame (collect it first)")
    if isinstance(value, pl.DataFrame):
        digest.update(f"DataFrame:{pl.__version__}:{value.height}:{value.schema}".encode())
        if value.height:
            digest.update(value.hash_rows(seed=0).to_numpy().tobytes())
        return
    if isinstance(value, pl.Series):
        _feed(digest, value.to_frame())
        return
    if value is None or isinstance(value, (bool, int, float, str)):
        digest.update(f"{type(value).__name__}:{value!r}".encode())
        return
    if isinstance(value, (dt.date, dt.datetime, dt.timedelta)):
        digest.update(
            f"{type(value).__name__}:{value.isoformat() if hasattr(value, 'isoformat') else value}".encode()
        )
        return
    if isinstance(value, enum.Enum):
        digest.update(f"enum:{type(value).__qualname__}.{value.name}".encode())
        return
    if isinstance(value, (list, tuple)):
        digest.update(f"{type(value).__name__}[{len(value)}]".encode())
        for item in value:
            _feed(digest, item)
        return
    if isinstance(value, (set, frozenset)):
        digest.update(f"set[{len(value)}]".encode())
        for item in sorted(value, key=repr):
            _feed(digest, item)
        return
    if isinstance(value, dict):
        digest.update(f"dict[{len(value)}]".encode())
        for key in sorted(value, key=repr):
            _feed(digest, key)
            _feed(digest, value[key])
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        digest.update(f"dataclass:{type(value).__module__}.{type(value).__qualname__}".encode())
        _feed(digest, {f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
        return
    raise Unkeyable(f"an argument of type {type(value).__name__}")


def _load(path: Path) -> tuple[bool, Any]:
    try:
        with path.open("rb") as file:
            return True, pickle.load(file)
    except FileNotFoundError:
        return False, None
    except Exception:  # corrupt, truncated or unreadable: recompute and overwrite
        return False, None


def _store(path: Path, value: Any) -> None:
    try:
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as error:  # an unpicklable result: return it uncached
        warnings.warn(f"not cached: {path.parent.name}: {error}", stacklevel=3)
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".tmp") as tmp:
            tmp.write(payload)
        Path(tmp.name).replace(path)
    except OSError as error:  # a read-only or full disk: the result is still returned
        warnings.warn(f"could not write the cache file {path}: {error}", stacklevel=3)


def describe() -> dict[str, Any]:
    """What the cache holds: its folder and, per function, the number of results and bytes."""
    root = cache_dir()
    functions = {}
    if root.is_dir():
        for folder in sorted(p for p in root.iterdir() if p.is_dir()):
            files = list(folder.glob("*.pickle"))
            functions[folder.name] = {
                "results": len(files),
                "bytes": sum(f.stat().st_size for f in files),
            }
    return {"dir": str(root), "enabled": enabled(), "functions": functions}


if __name__ == "__main__":  # `python -m analysis.data.cache`: what the cache holds
    print(json.dumps(describe(), indent=2))
