"""Time `spells.curate_prices` as a git ref has it (default `main`) against this tree's, side by
side in one run, on (a) small hand-made cases (tests/data/curate/test_spell_evidence.py's
histories, a few runs each) and (b) the random run histories of
tests/data/curate/test_spells_columns.py (80 runs each). Prints wall and CPU seconds per call
(the mean of `--repeat` calls after one warm-up; CPU counts every polars thread) and whether the
two give the same table and observations.

    .venv/bin/python benchmarks/bench_curate.py [--ref main] [--seeds 5] [--repeat 3] [--build]

(c) With `--build`, also a full `data build` (raw sources to a release), old and new code, each
into a temp root holding a copy of data/, with the same version label: build wall and CPU
(`getrusage` of the child), each `curate_prices` call's wall and CPU within it, and whether
the two data folders are byte-identical.
"""

from __future__ import annotations

import argparse
import filecmp
import importlib.util
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "data" / "curate"))
sys.path.insert(0, str(ROOT / "tests"))

from analysis.data import paths  # noqa: E402
from analysis.data.curate import spells  # noqa: E402

# Run in the child: `data build` with the code of its working folder, each curate call timed.
TIMED_BUILD = """
import runpy, sys, time
from analysis.data.curate import spells
curate = spells.curate_prices
def timed(*args, **kwargs):
    wall, cpu = time.perf_counter(), time.process_time()
    out = curate(*args, **kwargs)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"curate_prices {args[0].height} {wall:.3f} {cpu:.3f}", file=sys.stderr)
    return out
spells.curate_prices = timed
sys.argv = ["analysis", *sys.argv[1:]]
runpy.run_module("analysis", run_name="__main__")
"""


def spells_at(ref: str):
    """`analysis/data/curate/spells.py` as `ref` has it, imported as a module of its own."""
    path = "analysis/data/curate/spells.py"
    text = subprocess.run(
        ["git", "show", f"{ref}:{path}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("spells_old", None))
    sys.modules["spells_old"] = module  # its dataclasses look their module up
    exec(compile(text, f"{ref}:{path}", "exec"), module.__dict__)
    return module


def timed(module, prices, newest, repeat: int):
    out = module.curate_prices(prices, newest)  # warm-up (polars' first use of each kernel)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(repeat):
        module.curate_prices(prices, newest)
    return (time.perf_counter() - wall) / repeat, (time.process_time() - cpu) / repeat, out


def cases(seeds: int):
    """(name, prices, newest): the hand-made histories, then the random ones."""
    import test_spell_evidence as evidence
    from test_spells_columns import random_runs

    d = date.fromisoformat
    yield "listed", evidence.runs(evidence.LISTED), {"pages": d("2026-08-21")}
    yield "listed, no snapshot dates", evidence.runs(evidence.LISTED), None
    for seed in range(seeds):
        yield f"random seed {seed}", random_runs(seed), None


def build(code: Path, root: Path, version: str) -> tuple[float, float, list[str]]:
    """`data build` of `version` with the code in `code` into `root`/data (a copy of data/):
    (wall s, CPU s, one line per `curate_prices` call: runs, wall s, CPU s)."""
    shutil.copytree(ROOT / "data", root / "data")
    env = os.environ | {"BOOK_DATA_DIR": str(root / "data")}
    command = [sys.executable, "-c", TIMED_BUILD, "data", "build", "--version", version]
    command += ["--out", str(root / "data"), "--sources", str(paths.SHARED_SOURCES)]
    command += ["--description", "trial"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    done = subprocess.run(command, cwd=code, env=env, text=True, capture_output=True)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"data build with {code} failed:\n{done.stdout}{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    calls = [
        line.split(maxsplit=1)[1]
        for line in done.stderr.splitlines()
        if line.startswith("curate_prices ")
    ]
    return wall, cpu, calls


def same_folders(a: Path, b: Path) -> bool:
    """Whether two folders hold the same files, byte for byte."""
    cmp = filecmp.dircmp(a, b)
    if cmp.left_only or cmp.right_only or cmp.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, cmp.common_files, shallow=False)
    return not mismatch and not errors and all(same_folders(a / d, b / d) for d in cmp.common_dirs)


def compare_builds(ref: str, version: str) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-curate-") as tmp:
        tmp = Path(tmp)
        old_code = tmp / "code"
        old_code.mkdir()
        archive = subprocess.run(
            ["git", "archive", ref], cwd=ROOT, check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(old_code)], input=archive, check=True)
        print(f"\nfull data build {version} (raw sources to a release):")
        for name, code in ((ref, old_code), ("this tree", ROOT)):
            wall, cpu, calls = build(code, tmp / name.replace(" ", "-"), version)
            print(f"  {name:<10} build {wall:7.1f} s wall {cpu:6.1f} s CPU")
            print(f"  {'':<10} curate_prices calls (runs, wall s, CPU s): {calls}")
        same = same_folders(tmp / ref.replace(" ", "-") / "data", tmp / "this-tree" / "data")
        print(f"  the two data folders are byte-identical: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="main")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--build", action="store_true", help="also time a full data build")
    parser.add_argument("--version", default="2026-12-05", help="the trial build's version id")
    args = parser.parse_args()
    old = spells_at(args.ref)
    print(
        f"{'case':<28}{'runs':>5}{args.ref + ' wall/CPU s':>20}{'this tree wall/CPU s':>24}  same"
    )
    for name, prices, newest in cases(args.seeds):
        ow, oc, (t1, o1) = timed(old, prices, newest, args.repeat)
        nw, nc, (t2, o2) = timed(spells, prices, newest, args.repeat)
        same = t1.equals(t2) and o1.equals(o2)
        print(
            f"{name:<28}{prices.height:>5}{ow:>12.3f} / {oc:<6.3f}{nw:>16.3f} / {nc:<6.3f}  {same}"
        )
    if args.build:
        compare_builds(args.ref, args.version)


if __name__ == "__main__":
    main()
