"""Time `spells.curate_prices` with its folded runs planned lazily at each collect against
collected once after `mark_cancelled` (the eager entry point's `in_memory=True`), side by side
in one run, on the random run histories of tests/data/curate/test_spells_columns.py (80 runs
each). Prints wall and CPU seconds per call (CPU counts every polars thread) and whether the
two give the same table and observations.

    .venv/bin/python benchmarks/bench_curate.py [--seeds 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "data" / "curate"))
sys.path.insert(0, str(ROOT / "tests"))

from analysis.data.curate import spells  # noqa: E402


def timed(prices, in_memory: bool):
    wall, cpu = time.perf_counter(), time.process_time()
    table, obs = spells._curate(prices.lazy(), None, in_memory=in_memory)
    obs = obs.collect().sort(spells.ORDER).drop(spells.ORDER)
    return (time.perf_counter() - wall, time.process_time() - cpu), table, obs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    from test_spells_columns import random_runs

    print(f"{'case':<10}{'lazy wall/CPU s':>18}{'in memory wall/CPU s':>23}  same output")
    for seed in range(args.seeds):
        prices = random_runs(seed)
        (lw, lc), t1, o1 = timed(prices, False)
        (mw, mc), t2, o2 = timed(prices, True)
        same = t1.equals(t2) and o1.equals(o2)
        print(f"seed {seed:<5}{lw:>10.2f} / {lc:<6.2f}{mw:>15.2f} / {mc:<6.2f}  {same}")


if __name__ == "__main__":
    main()
