"""Every page of the book runs, without Quarto, and its prose gets every inline value.

The real book: each file `_quarto.yml` renders is run by the project's executor
(`analysis.book.notebook.execute`): the setup cell that does Quarto's `execute-dir: project`,
every code cell in a fresh kernel, then every inline `{python}` expression, as Quarto does. A bad
cell or a misspelt inline name fails naming the page and the cell or expression.

nbval stays for one thing: the broken chapter below, converted to .ipynb, fails under nbval too,
so a reader who runs the chapters as notebooks with nbval gets the same located failure.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.book import build
from analysis.book import notebook as chapters
from analysis.data.paths import ROOT
from analysis.report.quote import PLACEHOLDER

BOOK_FILES = chapters.book_files(ROOT) if (ROOT / "_quarto.yml").exists() else []

BROKEN = """\
# Broken

```{python}
#| label: broken-setup
value = 41
```

```{python}
#| eval: false
raise RuntimeError("eval: false cells must not run")
```

```{python}
#| label: broken-explodes
value += 1
raise ValueError(f"boom at {value}")
```
"""


def run_nbval(root: Path, qmd: Path, workdir: Path) -> subprocess.CompletedProcess:
    """Run one chapter under nbval (lax) in a subprocess; returns the finished process."""
    notebook = chapters.write_notebook(qmd, workdir, root=root)
    (workdir / "pytest.ini").write_text("[pytest]\n")  # keep the project's pytest config out
    command = [
        sys.executable,
        "-m",
        "pytest",
        "--nbval-lax",
        "-p",
        "no:cacheprovider",
        "-q",
        "--color=no",
        str(notebook.relative_to(workdir)),
    ]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        command, cwd=workdir, capture_output=True, text=True, timeout=900, env=env
    )


@pytest.mark.skipif(not BOOK_FILES, reason="no book files listed in _quarto.yml yet")
@pytest.mark.parametrize(
    "qmd", BOOK_FILES, ids=[p.relative_to(ROOT).as_posix() for p in BOOK_FILES]
)
def test_book_page_runs_with_every_inline_expression(qmd: Path, executed_page):
    """Each page as Quarto runs it: every code cell, then every inline expression of its prose.

    The project's own executor evaluates the inline code (nbval runs code cells only), so a typo
    in a `{python} q.name` fails here, naming the page and the expression. The run is the
    preview's (one execution of each page per session, see tests/book/conftest.py).
    """
    assert qmd.exists(), f"{qmd.relative_to(ROOT)} is listed in _quarto.yml but missing"
    result = executed_page(qmd)
    text = qmd.read_text(encoding="utf-8")
    expressions = set(chapters.inline_expressions(text))
    assert set(result.inline) == expressions
    for expr, shown in result.inline.items():
        # A quote shows as formatted text, never as an object's repr.
        assert not shown.startswith(("Quote(", "Estimate(", "<")), f"{qmd.name}: {expr} -> {shown}"
        # The latest release shows every part of every page: nothing reads as left out.
        assert PLACEHOLDER not in shown, f"{qmd.name}: {expr} is left out on the latest release"
        # Quarto leaves an inline expression with an empty value on the page as raw code.
        assert shown.strip(), f"{qmd.name}: {expr} is empty: Quarto would print it as code"
    notices = [build.left_out_notice(c) for c in result.notebook.cells if c.cell_type == "code"]
    assert not any(notices), f"{qmd.name} leaves parts out of the latest release: {notices}"


@pytest.fixture
def broken_project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "chapters").mkdir(parents=True)
    (root / "_quarto.yml").write_text("book:\n  chapters:\n    - chapters/01-broken.qmd\n")
    (root / "chapters" / "01-broken.qmd").write_text(BROKEN)
    return root


def test_broken_chapter_fails_under_nbval_naming_file_and_cell(broken_project, tmp_path):
    done = run_nbval(broken_project, broken_project / "chapters" / "01-broken.qmd", tmp_path / "nb")
    report = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout)  # the kernel's traceback is coloured
    assert done.returncode == 1, report
    assert "FAILED chapters/01-broken.qmd.ipynb::Cell 2" in report
    assert "#| label: broken-explodes" in report
    assert "ValueError: boom at 42" in report  # 42: the eval: false cell did not run
    assert "1 failed, 2 passed" in report


def test_broken_chapter_fails_in_execute_naming_file_and_cell(broken_project):
    with pytest.raises(chapters.ChapterError) as caught:
        chapters.execute(broken_project / "chapters" / "01-broken.qmd")
    first_line = str(caught.value).splitlines()[0]
    assert first_line == (
        "chapters/01-broken.qmd: cell 'broken-explodes' failed: ValueError: boom at 42"
    )


def test_unlabelled_failing_cell_is_named_by_index_and_first_line(broken_project):
    qmd = broken_project / "chapters" / "01-broken.qmd"
    qmd.write_text(BROKEN.replace("#| label: broken-explodes\n", ""))
    with pytest.raises(chapters.ChapterError, match=r"code cell 2 \(first line: `value \+= 1`\)"):
        chapters.execute(qmd)


def test_execute_runs_from_project_root_and_evaluates_inline_code(broken_project):
    qmd = broken_project / "chapters" / "02-inline.qmd"
    qmd.write_text(
        "# Inline\n\nWe run in `{python} where` and the answer is `{python} answer * 2`.\n\n"
        "```{python}\n#| label: inline-setup\nimport os\nwhere = os.getcwd()\nanswer = 21\n```\n"
    )
    result = chapters.execute(qmd)
    assert result.inline == {"where": str(broken_project), "answer * 2": "42"}
    code = [c for c in result.notebook.cells if c.cell_type == "code"]
    assert chapters.is_setup_cell(code[0])
    assert code[1].metadata["label"] == "inline-setup"


def test_failing_inline_expression_names_the_expression(broken_project):
    qmd = broken_project / "chapters" / "02-inline.qmd"
    qmd.write_text("# Inline\n\nPrice: `{python} undefined_price`.\n\n```{python}\nx = 1\n```\n")
    with pytest.raises(chapters.ChapterError) as caught:
        chapters.execute(qmd)
    message = str(caught.value)
    assert message.startswith("chapters/02-inline.qmd: inline expression failed")
    assert "`{python} undefined_price`: NameError" in message


def test_misspelt_quote_fails_naming_page_expression_and_closest_name(broken_project):
    qmd = broken_project / "chapters" / "03-quotes.qmd"
    qmd.write_text(
        "# Quotes\n\nPrices fell `{python} q.gpqa_factr` per year.\n\n"
        "```{python}\nfrom analysis.report.quote import Quote, Quotes\n"
        "q = Quotes('03-quotes', {'gpqa_factor': Quote(42.0, 'factor')})\n```\n"
    )
    with pytest.raises(chapters.ChapterError) as caught:
        chapters.execute(qmd)
    message = str(caught.value)
    assert message.startswith("chapters/03-quotes.qmd: inline expression failed")
    assert "`{python} q.gpqa_factr`: QuoteNotFound" in message
    assert "did you mean gpqa_factor" in message


def test_quotes_reach_the_prose_formatted_and_escaped(broken_project):
    qmd = broken_project / "chapters" / "04-escape.qmd"
    qmd.write_text(
        "# Escape\n\nCheapest: `{python} q.name` at `{python} q.price`.\n\n"
        "```{python}\nfrom analysis.report.quote import Quote, Quotes\n"
        "q = Quotes('04-escape', {'name': Quote('<img onerror=x>'), 'price': Quote(0.06, 'usd')})\n```\n"
    )
    result = chapters.execute(qmd)
    assert result.inline == {"q.name": "\\<img onerror=x\\>", "q.price": "\\$0.060"}


def test_malformed_cell_options_fail_before_running(broken_project):
    qmd = broken_project / "chapters" / "01-broken.qmd"
    qmd.write_text(BROKEN.replace("#| label: broken-setup", "#| label: [broken"))
    with pytest.raises(chapters.ChapterError, match=r"^chapters/01-broken.qmd: .*not valid YAML"):
        chapters.to_notebook(qmd)


def test_an_empty_quote_reads_as_not_available_on_an_executed_page(tmp_path):
    """An inline quote whose value is empty would stay raw `{python} ...` code under Quarto;
    the quote layer shows a stated text instead, as the executed page's prose gets it."""
    page = tmp_path / "empty.qmd"
    page.write_text(
        "---\ntitle: t\n---\n\n```{python}\n#| include: false\n"
        "from analysis.report.quote import Quote\n\nnothing = Quote('')\n```\n\n"
        "The value is `{python} nothing`.\n",
        encoding="utf-8",
    )
    result = chapters.execute(page, root=tmp_path)
    assert result.inline == {"nothing": "not available"}


def test_a_page_with_nothing_to_run_starts_no_kernel(broken_project):
    """A part's opening page has no code cell and no inline expression: as under Quarto (its
    markdown engine), nothing runs, not even the setup cell; a page with one inline expression
    runs in a kernel."""
    quiet = broken_project / "chapters" / "part.qmd"
    quiet.write_text("# Part {.unnumbered}\n\nProse only, with `inline code` that is not Python.\n")
    run = chapters.execute(quiet)
    (setup,) = [c for c in run.notebook.cells if c.cell_type == "code"]
    assert chapters.is_setup_cell(setup) and setup.execution_count is None
    assert (run.inline, run.reads) == ({}, {})
    quiet.write_text("# Part {.unnumbered}\n\nOne sum: `{python} 1 + 1`.\n")
    run = chapters.execute(quiet)
    assert run.inline == {"1 + 1": "2"}
    assert next(c for c in run.notebook.cells if c.cell_type == "code").execution_count == 1
