"""Time the chapters as `quarto render` runs them for the book's two formats.

Quarto executes every chapter once per output format (HTML, then Typst for the PDF), each in a
fresh kernel. This runs every book file the same way (analysis.book.notebook.execute) with the
format set to html, then again with typst (the setup cell sets BOOK_OUTPUT_FORMAT, as Quarto's
QUARTO_EXECUTE_INFO would), and prints the wall time of each chapter, the wall and CPU time of
each pass (CPU: this process and the pages' kernels, which moves less with the machine's load),
and the slowest cells. With the result cache (analysis.data.cache) the second pass reuses what
the first computed; `--cold` empties the cache first so the first pass computes everything. The figure
kit is written as `make book` writes it (to a temporary folder here, or kept in `--kit DIR`, so two
runs' CSVs can be compared); `--no-kit` leaves it off.

    .venv/bin/python benchmarks/bench_formats.py --cold        # both passes, cache emptied first
    .venv/bin/python benchmarks/bench_formats.py --no-cache    # both passes, cache off
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis.book import figure_kit  # noqa: E402
from analysis.book import notebook as chapters  # noqa: E402
from analysis.data import cache  # noqa: E402


def cell_seconds(cell) -> float:
    timing = cell.metadata.get("execution") or {}
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not (start and end):
        return 0.0
    parse = datetime.fromisoformat
    return (parse(end.replace("Z", "+00:00")) - parse(start.replace("Z", "+00:00"))).total_seconds()


def cpu_seconds() -> float:
    """User and system CPU time of this process and its ended children (the pages' kernels)."""
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run_pass(fmt: str, files: list[Path]) -> tuple[float, float, list[tuple[str, float]], list]:
    per_chapter, cells = [], []
    began, cpu = time.perf_counter(), cpu_seconds()
    for path in files:
        t0 = time.perf_counter()
        done = chapters.execute(path, fmt=fmt, root=ROOT)
        seconds = time.perf_counter() - t0
        name = path.relative_to(ROOT).as_posix()
        per_chapter.append((name, seconds))
        for index, cell in enumerate(done.notebook.cells):
            if cell.cell_type == "code" and not chapters.is_setup_cell(cell):
                cells.append(
                    (cell_seconds(cell), name, chapters.cell_description(done.notebook, index))
                )
        print(f"  {fmt:5} {name:40} {seconds:7.2f} s", flush=True)
    return time.perf_counter() - began, cpu_seconds() - cpu, per_chapter, cells


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", action="store_true", help="empty the result cache first")
    parser.add_argument("--no-cache", action="store_true", help="turn the result cache off")
    parser.add_argument("--no-kit", action="store_true", help="do not write the figure kit")
    parser.add_argument("--kit", help="write the figure kit to this folder and keep it")
    parser.add_argument("--top", type=int, default=8, help="how many of the slowest cells to list")
    args = parser.parse_args()
    kit = None if args.no_kit else (args.kit or tempfile.mkdtemp(prefix="bench-kit-"))
    if kit:
        os.environ[figure_kit.KIT_ENV] = kit
    if args.no_cache:
        os.environ[cache.DISABLE_ENV] = "1"
    # As `make book` runs Quarto: the Makefile unexports PYTHONDONTWRITEBYTECODE, so the kernels
    # write and reuse bytecode; set here, every kernel would compile the package from source.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    if args.cold:
        shutil.rmtree(cache.cache_dir(), ignore_errors=True)
    files = chapters.book_files(ROOT)
    print(f"{len(files)} book files; cache {'off' if args.no_cache else cache.cache_dir()}")
    first, first_cpu, _, cells_first = run_pass("html", files)
    second, second_cpu, _, cells_second = run_pass("typst", files)
    # CPU time (this process and the kernels) moves less with the machine's load than wall time.
    print(f"html pass (first format):   {first:7.2f} s wall {first_cpu:7.2f} s CPU")
    print(
        f"typst pass (second format): {second:7.2f} s wall {second_cpu:7.2f} s CPU  "
        f"({second / first:.0%} of the first's wall time, {second_cpu / first_cpu:.0%} of its CPU)"
    )
    print(
        f"both formats:               {first + second:7.2f} s wall {first_cpu + second_cpu:7.2f} s CPU"
    )
    if kit and not args.kit:
        shutil.rmtree(kit, ignore_errors=True)
    for label, cells in (("html", cells_first), ("typst", cells_second)):
        print(f"slowest cells, {label} pass:")
        for seconds, name, where in sorted(cells, reverse=True)[: args.top]:
            print(f"  {seconds:6.2f} s  {name}: {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
