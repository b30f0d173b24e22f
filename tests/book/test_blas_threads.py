"""The book's fits run on one BLAS thread wherever the package runs (analysis/__init__.py), so
their last bits do not depend on the machine's core count: in a fresh process that imports the
package first, and in a page's kernel. The thread count is read from the OpenBLAS that numpy
loaded (its own getter, through ctypes), not from the environment variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.book import notebook

# Prints the number of threads numpy's OpenBLAS uses (wheels bundle it in numpy.libs).
THREADS = (
    "import ctypes, glob, os, numpy\n"
    "lib = glob.glob(os.path.join(os.path.dirname(numpy.__file__), '..', 'numpy.libs', "
    "'libscipy_openblas*'))\n"
    "print(ctypes.CDLL(lib[0]).scipy_openblas_get_num_threads64_() if lib else 'no openblas')\n"
)


def threads_after(first: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", first + THREADS], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture(scope="module")
def multicore():
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: OpenBLAS runs one thread anyway")
    if threads_after("") == "no openblas":
        pytest.skip("numpy is not built with its bundled OpenBLAS here")


def test_importing_the_package_first_pins_one_blas_thread(multicore):
    assert threads_after("") != "1"  # numpy alone uses more: the check can fail
    assert threads_after("import analysis\n") == "1"


def test_a_pages_kernel_runs_one_blas_thread(multicore, tmp_path: Path):
    root = tmp_path / "project"
    (root / "chapters").mkdir(parents=True)
    qmd = root / "chapters" / "threads.qmd"
    qmd.write_text(
        "# Threads\n\nBLAS threads: `{python} threads`.\n\n```{python}\n"
        "from analysis.report import results\n" + THREADS.replace("print(", "threads = (") + "```\n"
    )
    run = notebook.execute(qmd, root=root)
    assert run.inline == {"threads": "1"}
