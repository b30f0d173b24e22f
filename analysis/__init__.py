"""Analysis code for the book: data loading and validation, transforms, fits and charts.

Chapters call into this package; they never open data files by path.
"""

__version__ = "0.1.0"
