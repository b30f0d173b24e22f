"""A part of a page the data version cannot show is left out the same way under Quarto and in
the offline preview: its notice stays, the rest of its section goes, and a placeholder quote
that escapes a left-out section stops the render.

Quarto's side is the real filter (`analysis/book/left-out.lua`) run by a real pandoc (the
pypandoc-binary dev dependency) on markdown shaped as Quarto's Jupyter engine writes it: each
cell a `.cell` div, each display output a `.cell-output-display` div. The preview's side is
`build.leave_out_sections` on notebook cells holding the same outputs.
"""

from __future__ import annotations

import nbformat
import pytest

from analysis.book import build
from analysis.book.show import left_out
from analysis.data.paths import ROOT
from analysis.report.quote import PLACEHOLDER

pypandoc = pytest.importorskip("pypandoc", reason="pypandoc-binary (pandoc) is a dev dependency")

FILTER = ROOT / "analysis" / "book" / "left-out.lua"

# A page as (kind, text) blocks: prose, a cell showing a notice, or a cell showing a figure.
SECTION_LEFT_OUT = [
    ("md", "## Kept first {#sec-a}\n\nProse of A.\n"),
    ("md", "## Left out {#sec-b}\n"),
    ("notice", "Reason for B."),
    ("md", f"Dropped prose of B, quoting {PLACEHOLDER}.\n"),
    ("figure", "figure of B"),
    ("md", "### A subsection of B\n\nDropped prose of B's subsection.\n"),
    ("md", "## Kept again {#sec-c}\n\nProse of C.\n"),
]
WHOLE_PAGE_LEFT_OUT = [
    ("notice", "Reason for the page."),
    ("md", f"Dropped opening prose {PLACEHOLDER}.\n\n## A section\n\nDropped section prose.\n"),
    ("figure", "figure of the page"),
    ("md", "## Another section\n\nDropped again.\n"),
]
NOTHING_LEFT_OUT = [
    ("md", "## One {#sec-one}\n\nProse of one.\n"),
    ("figure", "figure of one"),
]


def quarto_markdown(blocks) -> str:
    """The executed page as Quarto hands it to pandoc."""
    out = []
    for kind, text in blocks:
        if kind == "md":
            out.append(text)
        elif kind == "notice":
            shown = left_out(text)._repr_markdown_()
            out.append(
                "::: {.cell}\n::: {.cell-output .cell-output-display .cell-output-markdown}\n"
                f"{shown}:::\n:::\n"
            )
        else:
            out.append(
                f"::: {{.cell}}\n::: {{.cell-output .cell-output-display}}\n{text}\n:::\n:::\n"
            )
    return "\n".join(out)


def notebook_cells(blocks) -> list[nbformat.NotebookNode]:
    """The executed page as the preview holds it."""
    cells = []
    for kind, text in blocks:
        if kind == "md":
            cells.append(nbformat.v4.new_markdown_cell(text))
            continue
        data = (
            {"text/markdown": left_out(text)._repr_markdown_(), "text/plain": "notice"}
            if kind == "notice"
            else {"text/plain": text}
        )
        cell = nbformat.v4.new_code_cell("...")
        cell.outputs = [nbformat.v4.new_output("display_data", data=data)]
        cells.append(cell)
    return cells


def quarto_text(blocks) -> str:
    return pypandoc.convert_text(
        quarto_markdown(blocks), "plain", format="markdown", filters=[str(FILTER)]
    )


def preview_text(blocks) -> str:
    parts = []
    for cell in build.leave_out_sections(notebook_cells(blocks)):
        if cell.cell_type == "markdown":
            parts.append(cell.source)
        else:
            notice = build.left_out_notice(cell)
            parts.append(notice if notice is not None else cell.outputs[0]["data"]["text/plain"])
    return "\n".join(parts)


@pytest.mark.parametrize("render", [quarto_text, preview_text], ids=["quarto", "preview"])
def test_a_left_out_section_keeps_its_notice_and_drops_the_rest_up_to_the_next_section(render):
    text = render(SECTION_LEFT_OUT)
    for kept in ["Prose of A.", "Left out", "Reason for B.", "Kept again", "Prose of C."]:
        assert kept in text
    for dropped in ["Dropped prose of B", "figure of B", "A subsection of B", PLACEHOLDER]:
        assert dropped not in text


@pytest.mark.parametrize("render", [quarto_text, preview_text], ids=["quarto", "preview"])
def test_a_notice_before_any_heading_leaves_out_the_whole_page(render):
    text = render(WHOLE_PAGE_LEFT_OUT)
    assert "Reason for the page." in text
    for dropped in ["Dropped", "A section", "figure of the page", "Another section"]:
        assert dropped not in text


@pytest.mark.parametrize("render", [quarto_text, preview_text], ids=["quarto", "preview"])
def test_a_page_without_a_notice_is_unchanged(render):
    text = render(NOTHING_LEFT_OUT)
    for kept in ["One", "Prose of one.", "figure of one"]:
        assert kept in text


def test_the_filter_stops_the_render_when_a_placeholder_is_left_on_the_page():
    page = [("md", f"## Kept\n\nThis quote was not computed: {PLACEHOLDER}.\n")]
    with pytest.raises(RuntimeError, match=r"left-out\.lua: a quote of a part"):
        quarto_text(page)


def test_the_filter_and_the_quote_layer_agree_on_the_placeholder_and_the_class():
    """The Lua file states the placeholder and the notice class itself (it cannot import)."""
    lua = FILTER.read_text(encoding="utf-8")
    assert f'local PLACEHOLDER = "{PLACEHOLDER}"' in lua
    assert f'local NOTICE_CLASS = "{build.LEFT_OUT_CLASS}"' in lua


def test_quarto_runs_the_filter():
    import yaml

    config = yaml.safe_load((ROOT / "_quarto.yml").read_text(encoding="utf-8"))
    assert "analysis/book/left-out.lua" in config["filters"]
    assert FILTER.exists()
