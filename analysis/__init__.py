"""Analysis code for the book: data loading and validation, transforms, fits and charts.

Chapters call into this package; they never open data files by path.
"""

import os

# One BLAS thread, set before numpy loads OpenBLAS (pages, the CLI and the tests all import this
# package before numpy). OpenBLAS's threads spin while they wait: on the book's fits (designs of
# a few thousand rows) a second thread cost a third more CPU than it saved (the estimate registry
# on every release: 20.1 s CPU with two threads, 13.5 s with one, on the 2-core build machine),
# and the last bits of a fit depended on the machine's core count (the hedonic index moved by
# 1e-14 between one and two threads). A reader who sets the variable keeps their own.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
