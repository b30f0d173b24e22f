"""The house chart theme: one palette, one size and one set of fonts for every chart in the book.

Importing this module registers the Altair theme "book" and enables it; every figure module
imports its palette from here, so a chart built anywhere looks like the book's.
"""

from __future__ import annotations

from collections.abc import Callable

import altair as alt
import polars as pl

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

# The text column of the book's HTML theme (a real Quarto 1.10.18 render): 749 px wide at desktop
# widths, 536 px in a 1024 px window. A chart wider than the column is clipped, so single and
# layered views take the column's width in the HTML (`width: "container"`, see
# analysis.book.show) and facets and concatenations are laid out to fit COLUMN_WIDTH.
COLUMN_WIDTH = 749
NARROW_COLUMN_WIDTH = 536
# The whole width (axes and legends included) of the figure kit's PNG/SVG and of the PDF's charts.
FIXED_WIDTH = 720

# Every date axis shows years: a tick on the first of a year reads "2024", every other tick
# carries its year too ("Apr 2024", "15 Apr 2024"). Vega's default reads "April, May, ..." with
# the year only at January, so a figure cropped or pasted into a memo loses its dates.
DATE_FORMAT = {
    "year": "%Y",
    "quarter": "%b %Y",
    "month": "%b %Y",
    "week": "%d %b %Y",
    "date": "%d %b %Y",
    "day": "%d %b %Y",
    "hours": "%d %b %Y %H:%M",
    "minutes": "%d %b %Y %H:%M",
    "seconds": "%d %b %Y %H:%M:%S",
    "milliseconds": "%d %b %Y %H:%M:%S.%L",
}


@alt.theme.register("book", enable=True)
def book_theme() -> alt.theme.ThemeConfig:
    """Readable sizes, the colour-blind-safe palette and one width for every chart in the book."""
    return {
        "config": {
            "view": {"continuousWidth": CHART_WIDTH, "continuousHeight": CHART_HEIGHT},
            "font": FONT,
            "title": {"fontSize": 16, "anchor": "start", "subtitleFontSize": 13},
            "axis": {"labelFontSize": 12, "titleFontSize": 13, "grid": True},
            "axisTemporal": {"format": DATE_FORMAT},
            "legend": {"labelFontSize": 12, "titleFontSize": 13},
            "header": {"labelFontSize": 12, "titleFontSize": 13},
            "range": {"category": PALETTE},
            "line": {"strokeWidth": 2},
            "point": {"size": 40},
        }
    }


def _wraps(label: str, most: int) -> tuple[str, str]:
    """(where `label` breaks, whether it does): before its first " (" where that comes within
    `most` characters, else at its last space within them; it breaks when longer than `most`."""
    paren = f"indexof({label}, ' (')"
    space = f"lastindexof(substring({label}, 0, {most}), ' ')"
    cut = f"({paren} > 0 && {paren} <= {most} ? {paren} : {space})"
    return cut, f"length({label}) > {most} && {cut} > 0"


def wrapped(label: str = "datum.label", most: int = 30) -> str:
    """A Vega expression for an axis's `labelExpr`: the text `label` (an expression) on one line,
    or, when longer than `most` characters, on two: broken before its first " (" ("Kimi K3" over
    "(Moonshot AI (Kimi), mxfp4)") where that comes within `most`, else at its last space within
    `most`. Vega cuts a label past its `labelLimit` with an ellipsis, and two names cut to the
    same start read as one; give the axis `labelLimit=0` with it."""
    cut, breaks = _wraps(label, most)
    return f"{breaks} ? [substring({label}, 0, {cut}), substring({label}, {cut} + 1)] : {label}"


def two_lines_centred(test: str, size: float = 12) -> dict:
    """An axis's `labelOffset` that centres a two-line label (where the Vega expression `test`
    holds) on its row: Vega draws a label's first line on the row and the second under it, so
    it is lifted half a line (its `size` in px plus Vega's 2 px leading)."""
    return {"condition": {"test": test, "value": -(size + 2) / 2}, "value": 0}


def colour_and_shape(field: str, order, drawn, **legend) -> dict[str, alt.Color | alt.Shape]:
    """The `color` and `shape` encodings of one nominal `field` with one legend whose symbols take
    the marks' colours and shapes: Vega-Lite merges the two channels' legends only when their
    scales share a domain (a `sort` on each keeps two; with the shape legend hidden, every symbol
    is a circle whatever the mark). The domain is the values of `order` among those `drawn` (the
    field's column), so the legend lists what the chart draws, in that order."""
    present = set(drawn)
    domain = [value for value in order if value in present]
    scale, key = alt.Scale(domain=domain), alt.Legend(**legend)
    return {
        "color": alt.Color(field, scale=scale, title=None, legend=key),
        "shape": alt.Shape(field, scale=scale, title=None, legend=key),
    }


def wrapped_axis(most: int = 30, size: float = 12, **kwargs) -> alt.Axis:
    """An axis whose labels are `wrapped` at `most` characters, never cut, and a two-line label
    centred on its row (`two_lines_centred`)."""
    _, breaks = _wraps("datum.label", most)
    lift = two_lines_centred(breaks, size)
    return alt.Axis(
        labelExpr=wrapped(most=most), labelLimit=0, labelFontSize=size, labelOffset=lift, **kwargs
    )


# A release's description in data/versions.json may cite the project's tracker ("(issue 19,
# classes 1-6)"): a reader of the book cannot follow it, so tables show the text without it.
TRACKER_REFERENCE = r"\s*\(issues? \d+[^)]*\)"


def reader_text(column: str) -> pl.Expr:
    """`column` without references to the project's issue tracker."""
    return pl.col(column).str.replace_all(TRACKER_REFERENCE, "")


# Readers see names, not ids: one table of display names (analysis.report.names) serves prose,
# tables, charts and the figure kit. Figures may neither import the report layer nor load data
# (the layers contract), so the book's renderer (analysis.book.show, which every page imports)
# hands this module that lookup with `use_names`; a figure built outside the book shows ids.
def no_names(kind: str, key: str) -> str:
    """The lookup before the book installs one: every id as it is."""
    return key


_namer: list[Callable[[str, str], str]] = [no_names]


def use_names(namer: Callable[[str, str], str]) -> None:
    """Make `namer(kind, id)` (kind: model, gpu or provider) the display-name lookup of figures."""
    _namer[0] = namer


def display_name(kind: str, key: str) -> str:
    """The name a reader sees for id `key` of `kind` (the id where none is installed or known)."""
    return _namer[0](kind, key)


def display_names(kind: str, keys) -> list[str]:
    """`display_name` of each id in `keys`, in order (for a legend's sort or a scale's domain)."""
    return [display_name(kind, k) for k in keys]


def named(column: str, kind: str) -> pl.Expr:
    """`column`'s ids of `kind` as display names (nulls stay null)."""
    return pl.col(column).map_elements(lambda key: display_name(kind, key), return_dtype=pl.String)
