"""Quarto `pre-render` step: write the offline vega bundle into assets/vega/ before rendering.

Quarto runs this file as a script with the book's Python (QUARTO_PYTHON) from the project root;
a script's own folder is first on sys.path, so the project root is added for `import analysis`.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from analysis.book import show as charts

    charts.write_vega_bundle(ROOT)
