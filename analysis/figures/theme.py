"""The house chart theme: one palette, one size and one set of fonts for every chart in the book.

Importing this module registers the Altair theme "book" and enables it; every figure module
imports its palette from here, so a chart built anywhere looks like the book's.
"""

from __future__ import annotations

import altair as alt

# Okabe & Ito (2008): distinguishable under the common colour-vision deficiencies.
PALETTE = [
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#CC79A7",
    "#56B4E9",
    "#F0E442",
    "#000000",
]
CHART_WIDTH = 600
CHART_HEIGHT = 360
FONT = "Helvetica, Arial, sans-serif"


@alt.theme.register("book", enable=True)
def book_theme() -> alt.theme.ThemeConfig:
    """Readable sizes, the colour-blind-safe palette and one width for every chart in the book."""
    return {
        "config": {
            "view": {"continuousWidth": CHART_WIDTH, "continuousHeight": CHART_HEIGHT},
            "font": FONT,
            "title": {"fontSize": 16, "anchor": "start", "subtitleFontSize": 13},
            "axis": {"labelFontSize": 12, "titleFontSize": 13, "grid": True},
            "legend": {"labelFontSize": 12, "titleFontSize": 13},
            "header": {"labelFontSize": 12, "titleFontSize": 13},
            "range": {"category": PALETTE},
            "line": {"strokeWidth": 2},
            "point": {"size": 40},
        }
    }
