"""Speed and memory of the data pipeline: prints figures, asserts nothing.

    make bench            # or: .venv/bin/python benchmarks/bench_data.py [--sources DIR]

Each step runs in a fresh subprocess so its peak memory (max RSS) is its own.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.data.paths import SHARED_SOURCES  # noqa: E402

STEP = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
{code}
elapsed = time.perf_counter() - t0
rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"seconds": elapsed, "max_rss_mb": rss_mb}}))
"""

STEPS = {
    "import analysis + polars": "import analysis.data",
    "load every table (latest version)": (
        "from analysis import data\nfrom analysis.data.schema import TABLE_ORDER\n"
        "rows = sum(data.load(t).height for t in TABLE_ORDER)"
    ),
    "validate latest version (rules)": (
        "from analysis import data\nfrom analysis.data.validate import validate_folder\n"
        "assert validate_folder(data.version_dir()) == []"
    ),
    "resolve 60k source names to model ids": (
        "import polars as pl\nfrom analysis.data.models import resolve\n"
        "rows = [(f's{i % 7}', f'vendor/model-{i % 5000}-{i % 3}b-instruct') for i in range(60_000)]\n"
        "names = pl.DataFrame(rows, schema=['source_id', 'source_model_name'], orient='row')"
        ".with_columns(pl.col('source_model_name').str.split('/').list.last().str.to_lowercase()"
        ".alias('model_hint'))\n"
        "assert resolve(names).height == 60_000"
    ),
    "Epoch reproduction": (
        "from analysis import data\nfrom analysis.methods import fixed_capability as fc\n"
        "fc.reproduce_epoch(data.load('token_prices'), data.load('benchmark_scores'), data.load('models'))"
    ),
    "fixed-capability trends, full data": (
        "from analysis import data\nfrom analysis.methods import fixed_capability as fc\n"
        "fc.extension_trends(data.load('token_prices'), data.load('benchmark_scores'), data.load('models'))"
    ),
}


def run(code: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", STEP.format(root=str(ROOT), code=code)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--sources", default=str(SHARED_SOURCES), help="raw sources for the build step"
    )
    args = parser.parse_args()
    steps = dict(STEPS)
    if Path(args.sources).exists():
        out = tempfile.mkdtemp(prefix="bench-data-")
        steps["build a version from the raw sources"] = (
            f"from pathlib import Path\nfrom analysis.data import build\n"
            f"build.build(Path({args.sources!r}), '2000-01-01', Path({out!r}), 'benchmark')"
        )
    print(f"{'step':45} {'seconds':>9} {'max RSS MB':>11}")
    for name, code in steps.items():
        r = run(code)
        print(f"{name:45} {r['seconds']:9.2f} {r['max_rss_mb']:11.0f}")


if __name__ == "__main__":
    main()
