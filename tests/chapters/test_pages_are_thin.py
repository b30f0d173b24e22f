"""Pages hold prose and thin calls: every number is computed and formatted in `analysis/`.

Each code cell of every page the book renders is parsed with Python's own parser and must hold no
f-string, no `.filter(`, no arithmetic or comparison, and no `%` or `.format` formatting; the
setup cell is at most ten lines; inline expressions only read quotes (`q.name`, `q.name.ci`).
A page written in a temporary folder proves that each rule fires.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from analysis.book import notebook
from analysis.data.paths import ROOT

MAX_SETUP_LINES = 10
INLINE_QUOTE = re.compile(r"^q\.([a-z_][a-z0-9_]*)(?:\.(ci|n_text|window|start|end))?$")
# Pages whose every quote is printed (the others also compute quotes for their tables' text).
ALL_PRINTED = {"index", "data", "token-prices", "fixed-capability", "quality-adjusted"}
OPTION = re.compile(r"^\s*#\|")


def code_cells(qmd: Path) -> list[tuple[str, str]]:
    """(label or 'cell N', source without `#|` lines) of every code cell that runs."""
    nb = notebook.to_notebook(qmd, "html", root=ROOT if qmd.is_relative_to(ROOT) else qmd.parent)
    cells = []
    for i, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
        if notebook.is_setup_cell(cell):
            continue  # the executor's own setup cell (chdir, output format), not the page's
        label = cell.metadata.get("label") or f"cell {i}"
        body = "\n".join(line for line in cell.source.splitlines() if not OPTION.match(line))
        cells.append((label, body.strip()))
    return cells


def problems(qmd: Path) -> list[str]:
    found = []
    cells = code_cells(qmd)
    if cells:
        setup_label, setup = cells[0]
        if len(setup.splitlines()) > MAX_SETUP_LINES:
            found.append(f"{setup_label}: setup cell has {len(setup.splitlines())} lines")
    for label, source in cells:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.JoinedStr):
                found.append(f"{label}: f-string")
            elif isinstance(node, ast.BinOp | ast.AugAssign | ast.UnaryOp | ast.Compare):
                found.append(f"{label}: arithmetic or comparison `{ast.unparse(node)}`")
            elif isinstance(node, ast.Attribute) and node.attr in {"filter", "format"}:
                found.append(f"{label}: `.{node.attr}(` in a page")
    for expr in notebook.inline_expressions(qmd.read_text(encoding="utf-8")):
        if not INLINE_QUOTE.match(expr):
            found.append(f"inline `{{python}} {expr}` does not read a quote (q.name)")
    return found


@pytest.mark.parametrize(
    "qmd", notebook.book_files(ROOT), ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_page_is_prose_and_thin_calls(qmd: Path):
    assert problems(qmd) == []


def test_each_rule_fires_on_a_fat_page(tmp_path: Path):
    page = tmp_path / "fat.qmd"
    page.write_text(
        "# Fat\n\nIt fell `{python} f'{x:.0f}'` and `{python} q.ok`.\n\n"
        "```{python}\n#| label: fat-setup\n"
        + "\n".join(f"a{i} = {i}" for i in range(11))
        + "\n```\n\n"
        "```{python}\n#| label: fat-cell\nshare = a1 / a2\nt = f'{share:.0%}'\n"
        "rows = frame.filter(x)\n```\n"
    )
    found = problems(page)
    assert "fat-setup: setup cell has 11 lines" in found
    assert "fat-cell: arithmetic or comparison `a1 / a2`" in found
    assert "fat-cell: f-string" in found
    assert "fat-cell: `.filter(` in a page" in found
    assert "inline `{python} f'{x:.0f}'` does not read a quote (q.name)" in found
    assert not any("q.ok" in p for p in found)


@pytest.mark.parametrize(
    "qmd", notebook.book_files(ROOT), ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_every_inline_expression_names_a_quote_of_the_chapter_module(qmd: Path):
    """Each `{python} q.name[.part]` of a page names a quote its chapter module computes (and,
    on the pages in ALL_PRINTED, every quote it computes is printed)."""
    expressions = notebook.inline_expressions(qmd.read_text(encoding="utf-8"))
    if not expressions:
        return  # part pages and the references hold no numbers
    slug = notebook.chapter_slug(qmd)
    q = importlib.import_module(f"analysis.chapters.{slug.replace('-', '_')}").compute().q
    printed = set()
    for expr in expressions:
        name, part = INLINE_QUOTE.fullmatch(expr).groups()
        assert name in q, f"{qmd.name}: `{{python}} {expr}`: no quote {name!r}"
        if part:
            assert getattr(q[name], part).text, expr
        printed.add(name)
    if slug in ALL_PRINTED:
        assert printed == set(q), f"{qmd.name}: computed but never printed: {set(q) - printed}"
