"""Pages hold prose and named calls: every number is computed and formatted in `analysis/`.

A page may show the few lines that make a figure or table (load, select, fit, draw), each a call
of a named function, in a visible cell (`echo: true`) that is folded on the site
(`code-fold: true`). Each code cell of every page the book renders, shown or hidden, is parsed
with Python's own parser and must hold no f-string, no `.filter(`, no arithmetic or comparison,
and no `%` or `.format` formatting: row selection and arithmetic live in tested methods. The
setup cell is at most ten lines; inline expressions only read quotes (`q.name`, `q.name.ci`).
A page written in a temporary folder proves that each rule fires.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from analysis import evidence
from analysis.book import notebook
from analysis.chapters import claims_ledger
from analysis.data.paths import ROOT
from analysis.report import verdicts

MAX_SETUP_LINES = 10
INLINE_QUOTE = re.compile(r"^q\.([a-z_][a-z0-9_]*)(?:\.(ci|n_text|window|start|end))?$")
# Pages whose every quote is printed (the others also compute quotes for their tables' text).
ALL_PRINTED = {"index", "data", "token-prices", "fixed-capability", "quality-adjusted"}
OPTION = re.compile(r"^\s*#\|")


def code_cells(qmd: Path) -> list[tuple[str, str]]:
    """(label or 'cell N', source without `#|` lines) of every code cell that runs."""
    return [(label, body) for label, body, _ in code_cells_with_options(qmd)]


def code_cells_with_options(qmd: Path) -> list[tuple[str, str, dict]]:
    """(label or 'cell N', source without `#|` lines, `#|` options) of every code cell that
    runs."""
    nb = notebook.to_notebook(qmd, "html", root=ROOT if qmd.is_relative_to(ROOT) else qmd.parent)
    cells = []
    for i, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
        if notebook.is_setup_cell(cell):
            continue  # the executor's own setup cell (chdir, output format), not the page's
        label = cell.metadata.get("label") or f"cell {i}"
        body = "\n".join(line for line in cell.source.splitlines() if not OPTION.match(line))
        options = notebook.parse_options(notebook.option_lines(cell.source))
        cells.append((label, body.strip(), options))
    return cells


def problems(qmd: Path) -> list[str]:
    found = []
    cells = code_cells(qmd)
    if cells:
        setup_label, setup = cells[0]
        if len(setup.splitlines()) > MAX_SETUP_LINES:
            found.append(f"{setup_label}: setup cell has {len(setup.splitlines())} lines")
    for label, _, options in code_cells_with_options(qmd):
        if options.get("echo") is True and options.get("code-fold") is not True:
            found.append(f"{label}: a visible cell is not folded (code-fold: true)")
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
        "rows = frame.filter(x)\n```\n\n"
        "```{python}\n#| label: fat-shown\n#| echo: true\ncuts = method(prices)\n```\n"
    )
    found = problems(page)
    assert "fat-setup: setup cell has 11 lines" in found
    assert "fat-cell: arithmetic or comparison `a1 / a2`" in found
    assert "fat-cell: f-string" in found
    assert "fat-cell: `.filter(` in a page" in found
    assert "inline `{python} f'{x:.0f}'` does not read a quote (q.name)" in found
    assert "fat-shown: a visible cell is not folded (code-fold: true)" in found
    assert not any("q.ok" in p for p in found)
    assert not any("cuts = method" in p for p in found)  # a named call is what a page shows


def test_the_pilot_page_shows_how_it_makes_its_cuts():
    """price-war shows, folded, the lines that load the prices and find and draw the cuts."""
    shown = [
        (label, body)
        for label, body, options in code_cells_with_options(ROOT / "chapters/price-war.qmd")
        if options.get("echo") is True
    ]
    text = "\n".join(body for _, body in shown)
    for call in ("results.table(", "price_war.cuts(", "fig.cuts_chart(cuts)", "fig.cuts_gt(cuts)"):
        assert call in text, call
    assert {label for label, _ in shown} >= {"fig-price-war-cuts", "tbl-price-war-cuts"}


def page_quotes(slug: str):
    """The quotes of a page's chapter module, computed as its setup cell does (the claims ledger
    from the evidence the registry collects)."""
    if slug == "claims-ledger":
        return claims_ledger.compute(evidence.collect()).q
    q = importlib.import_module(f"analysis.chapters.{slug.replace('-', '_')}").compute().q
    # A page that discusses digest claims adds the ledger's verdicts to its quotes.
    return evidence.with_verdicts(slug, q) if slug in verdicts.PAGE_VERDICTS else q


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
    q = page_quotes(slug)
    printed = set()
    for expr in expressions:
        name, part = INLINE_QUOTE.fullmatch(expr).groups()
        assert name in q, f"{qmd.name}: `{{python}} {expr}`: no quote {name!r}"
        if part:
            assert getattr(q[name], part).text, expr
        printed.add(name)
    if slug in ALL_PRINTED:
        assert printed == set(q), f"{qmd.name}: computed but never printed: {set(q) - printed}"
