"""What the book's machinery saves: `make preview` cold and warm, with and without the dependency
tracker (analysis/book/deps.py), the disk cache (analysis/data/cache.py, BOOK_NO_CACHE=1) and the
read recorder (analysis/data/reads.py), side by side in one run.

    .venv/bin/python benchmarks/bench_machinery.py          # about 10 minutes on 2 cores
    .venv/bin/python benchmarks/bench_machinery.py --quick  # the recorder only (about 2 minutes)

Each preview is `python -m analysis book --preview-only` in a fresh process on this checkout, with
its own empty result cache (BOOK_CACHE_DIR in a temporary folder), timed on the wall clock:

1. cold: no `_deps/preview/`, an empty cache: every page runs and fills both;
2. warm: nothing changed since 1: the tracker reuses every page's kept run;
3. tracker gone, cache warm: `_deps/preview/` removed, so every page runs, its results from the
   cache that run 1 filled (what the cache saves where nothing tracks the pages);
4. tracker gone, cache off (BOOK_NO_CACHE=1): every page runs and computes everything (what
   a preview without either piece costs).

The read recorder is timed apart: each chapter module's `compute()` in a fresh process with the
cache off, with BOOK_READS_FILE set (the recorder writes after every new read, as it does in a
page's kernel) and unset (it only keeps the reads in memory).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
CHAPTER_MODULES = sorted(
    p.stem for p in (ROOT / "analysis" / "chapters").glob("*.py") if not p.stem.startswith("_")
)


def preview(env: dict) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [PY, "-m", "analysis", "book", "--preview-only"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"the preview failed:\n{done.stderr[-3000:]}")
    return seconds


def compute_seconds(module: str, env: dict) -> float:
    """Seconds of `compute()` alone (imports excluded), in a fresh process."""
    code = (
        "import importlib, time\n"
        f"m = importlib.import_module('analysis.chapters.{module}')\n"
        "t = time.perf_counter(); m.compute(); print(time.perf_counter() - t)\n"
    )
    done = subprocess.run([PY, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        return float("nan")
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="time the read recorder only")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} (2 cores here)")
    tmp = Path(tempfile.mkdtemp(prefix="bench-machinery-"))
    base = {k: v for k, v in os.environ.items() if not k.startswith("BOOK_")}
    base["BOOK_CACHE_DIR"] = str(tmp / "cache")
    deps_store = ROOT / "_deps" / "preview"
    rows = []
    try:
        if not args.quick:
            shutil.rmtree(deps_store, ignore_errors=True)
            rows.append(("1 cold (tracker, cache on, both empty)", preview(base)))
            rows.append(("2 warm (tracker reuses every page)", preview(base)))
            shutil.rmtree(deps_store, ignore_errors=True)
            rows.append(("3 no tracker, cache warm (every page runs)", preview(base)))
            shutil.rmtree(deps_store, ignore_errors=True)
            rows.append(("4 no tracker, cache off (every page runs)", preview({**base, "BOOK_NO_CACHE": "1"})))  # fmt: skip
            shutil.rmtree(deps_store, ignore_errors=True)
            print(f"\n{'make preview':<48} {'seconds':>8}")
            for name, seconds in rows:
                print(f"{name:<48} {seconds:8.1f}")
            cold, warm, cached, bare = (s for _, s in rows)
            print(f"the tracker saves on an unchanged re-run:        {cached - warm:8.1f}")
            print(f"the cache saves when every page runs:            {bare - cached:8.1f}")
            print(f"the cache costs on a cold run (1 against 4):     {cold - bare:8.1f}")
        off = {**base, "BOOK_NO_CACHE": "1"}
        on = {**off, "BOOK_READS_FILE": str(tmp / "reads.json")}
        print(f"\n{'compute() of chapter module':<28} {'recorder off s':>14} {'recorder on s':>14}")
        total_off = total_on = 0.0
        for module in CHAPTER_MODULES:
            a, b = compute_seconds(module, off), compute_seconds(module, on)
            total_off, total_on = total_off + a, total_on + b
            print(f"{module:<28} {a:14.2f} {b:14.2f}")
        print(f"{'all chapters':<28} {total_off:14.2f} {total_on:14.2f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
