"""Every chapter of the book runs, without Quarto.

The real book: each file `_quarto.yml` renders is converted to .ipynb (analysis.book.notebook, with the
setup cell that does Quarto's `execute-dir: project`) into a temp folder, and nbval runs it there in
a fresh kernel, in a pytest subprocess: nbval collects .ipynb files only, and a subprocess keeps its
kernel and options apart from this run. `--nbval-lax`: outputs change with the data, so only
errors fail. The notebook is named `<chapter>.qmd.ipynb`, so nbval's report names the chapter, and
its "Input" shows the cell's `#| label:` line.

A deliberately broken chapter proves that both paths (nbval and `chapters.execute`) fail loudly and
name the chapter file and the cell.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.book import notebook as chapters
from analysis.data.paths import ROOT

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
def test_book_chapter_runs_under_nbval(qmd: Path, tmp_path: Path):
    assert qmd.exists(), f"{qmd.relative_to(ROOT)} is listed in _quarto.yml but missing"
    done = run_nbval(ROOT, qmd, tmp_path)
    assert done.returncode == 0, (
        f"{qmd.relative_to(ROOT)} failed under nbval:\n{done.stdout[-6000:]}"
    )


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


def test_malformed_cell_options_fail_before_running(broken_project):
    qmd = broken_project / "chapters" / "01-broken.qmd"
    qmd.write_text(BROKEN.replace("#| label: broken-setup", "#| label: [broken"))
    with pytest.raises(chapters.ChapterError, match=r"^chapters/01-broken.qmd: .*not valid YAML"):
        chapters.to_notebook(qmd)
