"""Time `spells.curate_prices` as a git ref has it (default `main`) against this tree's, side by
side in one run, on (a) small hand-made cases (tests/data/curate/test_spell_evidence.py's
histories, a few runs each) and (b) the random run histories of
tests/data/curate/test_spells_columns.py (80 runs each). Prints wall and CPU seconds per call
(the mean of `--repeat` calls after one warm-up; CPU counts every polars thread) and whether the
two give the same table and observations.

    .venv/bin/python benchmarks/bench_curate.py [--ref main] [--seeds 5] [--repeat 3]

(c) A full build, old and new code into two temp roots with the same version label, is timed
outside this script (the numbers are in issue 23's note):

    BOOK_DATA_DIR=/tmp/x/data /usr/bin/time -f "%e s wall %U s user %M KB" .venv/bin/python \
        -m analysis data build --version 2026-12-05 --out /tmp/x/data --description trial
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "data" / "curate"))
sys.path.insert(0, str(ROOT / "tests"))

from analysis.data.curate import spells  # noqa: E402


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="main")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
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


if __name__ == "__main__":
    main()
