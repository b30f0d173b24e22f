"""Time `make book` here (the offline preview: Quarto is not installed): cold, then no-op, and
where the no-op's time goes.

    .venv/bin/python benchmarks/bench_book.py            # cold, no-op, and the no-op's profile
    .venv/bin/python benchmarks/bench_book.py --no-cold  # the no-op and its profile only

1. cold: `_deps/preview/` removed and an empty result cache (BOOK_CACHE_DIR in a temporary
   folder): every page runs;
2. no-op: the same command again, nothing changed: the tracker reuses every page;
3. the no-op once more in this process, its wall and CPU seconds (no profiler: the imports are
   done by then, so this is the build's own work);
4. and again under cProfile, its cumulative time by phase (the functions of
   analysis/book/build.py and deps.py that build_preview calls).

Each build is `python -m analysis book --preview-only` in a fresh process; its wall time and the
CPU time of it and the kernels it starts (user + system, from getrusage of the children) are
printed side by side, with the load average, since other work shares the machine's two cores.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PHASES = [  # (label, function name in pstats: file suffix, function)
    ("plan: each page's state and verdict", ("deps.py", "plan")),
    ("  of which: the .qmd read as a notebook", ("notebook.py", "to_notebook")),
    ("  of which: the modules each page imports", ("cache.py", "module_closure")),
    ("  of which: their sha256", ("cache.py", "module_hashes")),
    ("  of which: the libraries' fingerprint", ("cache.py", "libraries_fingerprint")),
    ("  of which: what each page read, now", ("deps.py", "read_changes")),
    ("reuse: load the kept runs", ("deps.py", "load_preview")),
    ("render the pages' HTML (nbconvert)", ("build.py", "render_page")),
    ("figure kit index", ("build.py", "render_figure_index")),
    ("vega bundle", ("show.py", "write_vega_bundle")),
    ("swap the preview in", ("build.py", "_swap_in")),
]


def timed_build(env: dict) -> tuple[float, float]:
    """Wall seconds and CPU seconds (this child and its kernels) of one preview build."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "analysis", "book", "--preview-only"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"the preview failed:\n{done.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def cpu_noop() -> None:
    """The no-op `build_preview` in this process without a profiler: its wall and CPU seconds
    (CPU is what other work on the machine changes least)."""
    from rich.console import Console

    from analysis.book import build

    start, cpu = time.perf_counter(), time.process_time()
    code = build.build_preview(ROOT, console=Console(file=io.StringIO()))
    if code != 0:
        sys.exit("the no-op preview failed")
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"\n{'no-op build_preview in this process':<48} {wall:8.2f} s wall {cpu:8.2f} s CPU")


def profile_noop() -> None:
    from rich.console import Console

    from analysis.book import build

    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    code = build.build_preview(ROOT, console=Console(file=io.StringIO()))
    profiler.disable()
    total = time.perf_counter() - start
    if code != 0:
        sys.exit("the no-op preview failed")
    stats = pstats.Stats(profiler)
    cumulative = {
        (Path(file).name, name): entry[3] for (file, _, name), entry in stats.stats.items()
    }
    print(f"\n{'no-op build_preview in this process, by phase':<48} {'seconds':>8}")
    for label, key in PHASES:
        print(f"{label:<48} {cumulative.get(key, 0.0):8.2f}")
    print(f"{'all of build_preview':<48} {total:8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-cold", action="store_true", help="skip the cold build")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} (2 cores here)")
    tmp = Path(tempfile.mkdtemp(prefix="bench-book-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOOK_")}
    env["BOOK_CACHE_DIR"] = str(tmp / "cache")
    rows = []
    try:
        if not args.no_cold:
            shutil.rmtree(ROOT / "_deps" / "preview", ignore_errors=True)
            rows.append(("cold (every page runs)", *timed_build(env)))
        rows.append(("no-op (nothing changed)", *timed_build(env)))
        print(f"\n{'make book (offline preview)':<32} {'wall s':>8} {'CPU s':>8}")
        for name, wall, cpu in rows:
            print(f"{name:<32} {wall:8.1f} {cpu:8.1f}")
        os.environ["BOOK_CACHE_DIR"] = env["BOOK_CACHE_DIR"]
        cpu_noop()
        profile_noop()
        print(f"load average at end: {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
