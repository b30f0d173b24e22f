"""The chapter lint finds each kind of problem, and the real book has none."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.book import lint as chapters
from analysis.data.paths import ROOT

BIB = """\
@misc{cottier2025prices,
  title = {Prices},
}
@article{ gundlach2025 , title = {Progress}}
@comment{notakey,}
"""

GOOD = """\
---
title: "Token prices"
---

# Token prices {#sec-token-prices}

Prices fell (@fig-token-prices-trend, @tbl-token-prices-table) as Epoch found [@cottier2025prices].
@gundlach2025 agrees; see @sec-token-prices. Mail editor@example.org, or see `@not-a-citation`.

```{python}
#| label: token-prices-setup
import math
```

```{python}
#| label: fig-token-prices-trend
#| fig-cap: "Price per month [@gundlach2025]"
#| fig-alt: "A falling line"
math.pi
```

```{python}
#| label: tbl-token-prices-table
#| tbl-cap: The table
math.e
```

```python
# a plain code block: @decorator is not a citation
```
"""


def make_book(tmp_path: Path, files: dict[str, str]) -> list[Path]:
    """A temp project whose _quarto.yml lists `files` in order; returns their paths."""
    chapter_lines = "\n".join(f"    - {name}" for name in files)
    (tmp_path / "_quarto.yml").write_text(
        f"project:\n  type: book\nbook:\n  chapters:\n{chapter_lines}\n"
    )
    (tmp_path / "references.bib").write_text(BIB)
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return chapters.book_files(tmp_path)


def lint_one(tmp_path: Path, text: str, name: str = "chapters/01-token-prices.qmd") -> list[str]:
    return chapters.lint(make_book(tmp_path, {name: text}), root=tmp_path)


def test_a_good_chapter_is_clean(tmp_path):
    assert lint_one(tmp_path, GOOD) == []


def test_slug_drops_the_numeric_prefix():
    assert chapters.chapter_slug("chapters/01-token-prices.qmd") == "token-prices"
    assert chapters.chapter_slug("chapters/gpu-hours.qmd") == "gpu-hours"


def test_figure_without_alt_text(tmp_path):
    text = GOOD.replace('#| fig-alt: "A falling line"\n', "")
    (problem,) = lint_one(tmp_path, text)
    assert problem.startswith("chapters/01-token-prices.qmd:15: ")
    assert "'fig-token-prices-trend' has no fig-alt" in problem


def test_option_lines_that_are_not_yaml(tmp_path):
    text = GOOD.replace("#| tbl-cap: The table", "#| tbl-cap: [unclosed")
    problems = lint_one(tmp_path, text)
    assert any(
        p.startswith("chapters/01-token-prices.qmd:22: cell options are not valid YAML")
        for p in problems
    ), problems


def test_option_line_that_is_not_key_value(tmp_path):
    text = GOOD.replace("#| label: token-prices-setup", "#| just words")
    (problem,) = lint_one(tmp_path, text)
    assert "`key: value`" in problem


@pytest.mark.parametrize(
    "bad_label", ["fig-trend", "tbl-other-chapter-table", "setup", "fig-token-pricesx-a"]
)
def test_label_without_the_chapter_prefix(tmp_path, bad_label):
    text = GOOD.replace("#| label: token-prices-setup", f"#| label: {bad_label}")
    problems = lint_one(tmp_path, text)
    (problem,) = [p for p in problems if "lacks the chapter prefix" in p]
    assert problem.startswith(f"chapters/01-token-prices.qmd:10: label '{bad_label}' lacks")
    assert "'fig-token-prices-'" in problem


def test_duplicate_labels_across_the_book(tmp_path):
    second = "# More\n\n```{python}\n#| label: token-prices-setup\n1\n```\n"
    files = make_book(
        tmp_path, {"chapters/01-token-prices.qmd": GOOD, "chapters/02-token-prices.qmd": second}
    )
    (problem,) = chapters.lint(files, root=tmp_path)
    assert problem.startswith("chapters/02-token-prices.qmd:3: label 'token-prices-setup'")
    assert "already used at chapters/01-token-prices.qmd:10" in problem


def test_cross_reference_without_label(tmp_path):
    text = GOOD + "\nAs @fig-token-prices-missing and @tbl-token-prices-gone show.\n"
    problems = lint_one(tmp_path, text)
    assert problems == [
        "chapters/01-token-prices.qmd:32: cross-reference @fig-token-prices-missing has no matching label",
        "chapters/01-token-prices.qmd:32: cross-reference @tbl-token-prices-gone has no matching label",
    ]


def test_citation_missing_from_the_bibliography(tmp_path):
    text = GOOD + "\nOthers disagree [@nobody2024; @cottier2025prices, p. 3] and @ghost99.\n"
    problems = lint_one(tmp_path, text)
    assert problems == [
        "chapters/01-token-prices.qmd:32: citation @nobody2024 is not in references.bib",
        "chapters/01-token-prices.qmd:32: citation @ghost99 is not in references.bib",
    ]


def test_citation_in_a_caption_is_checked(tmp_path):
    text = GOOD.replace("[@gundlach2025]", "[@unknown2030]")
    (problem,) = lint_one(tmp_path, text)
    assert "citation @unknown2030 is not in references.bib" in problem


def test_email_addresses_and_code_are_not_citations(tmp_path):
    text = GOOD + "\nWrite to a.b@example.com; `df @ weights` is code.\n"
    assert lint_one(tmp_path, text) == []


def test_book_files_follow_quarto_yml_order(tmp_path):
    (tmp_path / "_quarto.yml").write_text(
        "book:\n  chapters:\n    - index.qmd\n"
        "    - part: chapters/part-data.qmd\n      chapters:\n"
        "        - chapters/02-b.qmd\n        - chapters/01-a.qmd\n"
        "    - part: Methods\n      chapters: [chapters/03-c.qmd]\n"
        "  appendices:\n    - chapters/notes.qmd\n    - chapters/data.ipynb\n"
    )
    names = [p.relative_to(tmp_path).as_posix() for p in chapters.book_files(tmp_path)]
    assert names == [
        "index.qmd",
        "chapters/part-data.qmd",
        "chapters/02-b.qmd",
        "chapters/01-a.qmd",
        "chapters/03-c.qmd",
        "chapters/notes.qmd",
    ]


def test_the_real_book_lints_clean():
    if not (ROOT / "_quarto.yml").exists():
        pytest.skip("no _quarto.yml in the project yet")
    assert chapters.lint_book(ROOT) == []
