"""Time `make book`'s offline preview after a GPU-hour-only release against a cold build.

Both builds run in one sitting, each in a fresh process, on a copy of the book's sources in a
temporary folder and a temporary data root (BOOK_DATA_DIR) holding a copy of the releases, so
neither the project's data/ nor its _preview/, _deps/ or _cache/ is touched:

1. cold: as after `make clean` (no _preview/, _deps/ or _cache/), every page runs;
2. a GPU-hour-only release is cut with the project's own `data add` (one hand-entered price, a
   real quote from Epoch AI's hardware prices that the release already holds from that source),
   named as a second release on the latest release's day (`YYYY-MM-DD.N`);
3. rebuild: the preview again; only the pages that read what changed run.

It prints the wall time of each build, the pages each ran and the ratio, and the machine load
(the builds share the machine's cores with whatever else runs). `make book` first looks for
Quarto and tries `pip install quarto-cli`, the same fixed cost before either build; `--quarto`
times that step once and prints it.

    .venv/bin/python benchmarks/bench_rebuild.py
    .venv/bin/python benchmarks/bench_rebuild.py --quarto
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis.data import add, cut, paths, release  # noqa: E402

BOOK_SOURCES = ["_quarto.yml", "index.qmd", "chapters", "assets", "references.bib"]
GPU_ROW = (
    "gpu,provider,date,pricing,usd_per_gpu_hour,statistic,gpus_per_instance,source_locator,"
    "source_title,source_url,accessed,entered_by\n"
    "NVIDIA A10 PCIe,oracle-cloud,2023-10-23,on-demand,2.0,quote,1,"
    "data/Hardware prices.csv row 337,Epoch AI hardware prices,"
    "https://github.com/epoch-research/training-cost-trends,{today},benchmarks/bench_rebuild.py\n"
)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def copy_book(dest: Path) -> Path:
    dest.mkdir(parents=True)
    for name in BOOK_SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("vega"))
        elif src.exists():
            shutil.copyfile(src, dest / name)
    return dest


def build(root: Path, env: dict) -> tuple[float, list[str], int]:
    """One preview build in a fresh process: wall seconds, its verdict lines, exit code."""
    code = (
        "import sys; from analysis.book.build import build_book; "
        f"sys.exit(build_book({str(root)!r}, preview_only=True))"
    )
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - began
    lines = [
        line
        for line in done.stderr.splitlines()
        if ": re-run, " in line or ": reused, " in line or " chapters to run, " in line
    ]
    if done.returncode:
        print(done.stderr[-4000:], file=sys.stderr)
    return seconds, lines, done.returncode


def cut_gpu_release(data_root: Path, workdir: Path) -> str:
    """A GPU-only release through `data add`, named as a further release of the latest day."""
    latest = release.latest_version(data_root)
    day = cut.version_key(latest)[0]
    taken = {r.version for r in release.releases(data_root)}
    n = 2
    while f"{day}.{n}" in taken:
        n += 1
    csv = workdir / "gpu-price.csv"
    csv.write_text(GPU_ROW.format(today=time.strftime("%Y-%m-%d")))
    added = add.add(csv, root=data_root, version=f"{day}.{n}")
    return added.version


def quarto_step() -> float:
    from analysis.book.build import find_quarto, install_quarto

    began = time.perf_counter()
    found = find_quarto(ROOT) or install_quarto(ROOT)
    seconds = time.perf_counter() - began
    print(f"Looking for Quarto and trying `pip install quarto-cli`: {seconds:.1f} s ({found=})")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quarto", action="store_true", help="also time the Quarto lookup")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="bench-rebuild-"))
    try:
        root = copy_book(work / "book")
        data_root = work / "data"
        shutil.copytree(paths.DATA_DIR, data_root, ignore=shutil.ignore_patterns(".*"))
        env = {**os.environ, "BOOK_DATA_DIR": str(data_root)}
        env.pop("BOOK_DATA_VERSION", None)
        env.pop("BOOK_CACHE_DIR", None)  # the default: <book>/_cache, emptied for the cold build
        base = release.latest_version(data_root)
        print(f"Book sources copied to {root}; data root {data_root} (latest {base})")
        print(f"load average before: {load()}")

        for name in ("_preview", "_deps", "_cache", "_freeze", "_figures"):  # `make clean`
            shutil.rmtree(root / name, ignore_errors=True)
        cold, cold_lines, code = build(root, env)
        if code:
            return code
        print(f"load average after the cold build: {load()}")

        version = cut_gpu_release(data_root, work)
        changed = [
            r["name"]
            for r, old in zip(
                release.datapackage(version, data_root)["resources"],
                release.datapackage(base, data_root)["resources"],
                strict=True,
            )
            if r["hash"] != old["hash"]
        ]
        print(f"Cut {version} from {base} with `data add`: tables changed: {', '.join(changed)}")
        warm, warm_lines, code = build(root, env)
        if code:
            return code
        print(f"load average after the rebuild: {load()}")

        print("\nRebuild after the GPU-hour-only release:")
        for line in warm_lines:
            print(f"  {line}")
        ran = lambda lines: sum(": re-run, " in line for line in lines)  # noqa: E731
        pages = sum(": re-run, " in line or ": reused, " in line for line in cold_lines)
        print()
        print(f"{'build':34} {'wall s':>8} {'pages run':>10}")
        print(f"{'cold (after make clean)':34} {cold:8.1f} {ran(cold_lines):>6} of {pages}")
        print(
            f"{'after ' + version + ' (GPU only)':34} {warm:8.1f} {ran(warm_lines):>6} of {pages}"
        )
        print(f"{'ratio rebuild / cold':34} {warm / cold:8.2f}")
        if args.quarto:
            step = quarto_step()
            print(
                f"with that step before each build, as `make book` does: "
                f"{(warm + step) / (cold + step):.2f}"
            )
        print(json.dumps({"cold_s": round(cold, 1), "rebuild_s": round(warm, 1)}))
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
