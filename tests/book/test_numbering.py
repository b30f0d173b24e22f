"""Chapter, figure and table numbers, as Quarto gives them (worked out by hand below)."""

from __future__ import annotations

from pathlib import Path

from analysis.book import numbering
from analysis.data.paths import ROOT

QUARTO_YML = """\
project:
  type: book
book:
  chapters:
    - index.qmd
    - part: chapters/part-a.qmd
      chapters:
        - chapters/intro.qmd
        - chapters/preface.qmd
        - chapters/prices.qmd
  appendices:
    - chapters/extra.qmd
"""
PRICES = """\
# Prices

```{python}
#| label: fig-prices-a
1
```

```{python}
#| label: fig-prices-skipped
#| eval: false
2
```

```{python}
#| label: tbl-prices-a
3
```

```{python}
#| label: fig-prices-b
4
```
"""


def write_book(root: Path) -> Path:
    (root / "chapters").mkdir()
    (root / "_quarto.yml").write_text(QUARTO_YML)
    (root / "index.qmd").write_text(
        "# Summary {.unnumbered}\n\n```{python}\n#| label: tbl-index-x\n1\n```\n"
    )
    (root / "chapters" / "part-a.qmd").write_text("# Part A\n")
    (root / "chapters" / "intro.qmd").write_text("# Intro\n")
    (root / "chapters" / "preface.qmd").write_text(
        "---\ntitle: Preface\nnumber-sections: false\n---\n"
    )
    (root / "chapters" / "prices.qmd").write_text(PRICES)
    (root / "chapters" / "extra.qmd").write_text(
        "# Extra\n\n```{python}\n#| label: fig-extra-a\n1\n```\n"
    )
    return root


def test_chapters_are_numbered_in_book_order_skipping_parts_and_unnumbered_pages(tmp_path):
    root = write_book(tmp_path)
    numbers = {
        p.relative_to(root).as_posix(): n for p, n in numbering.chapter_numbers(root).items()
    }
    assert numbers == {
        "index.qmd": "",
        "chapters/part-a.qmd": "",
        "chapters/intro.qmd": "1",
        "chapters/preface.qmd": "",
        "chapters/prices.qmd": "2",
        "chapters/extra.qmd": "A",
    }


def test_figures_and_tables_are_numbered_per_chapter(tmp_path):
    floats = numbering.floats(write_book(tmp_path))
    assert {label: f.name for label, f in floats.items()} == {
        "tbl-index-x": "Table 1",  # an unnumbered page numbers its own
        "fig-prices-a": "Figure 2.1",
        "tbl-prices-a": "Table 2.1",
        "fig-prices-b": "Figure 2.2",  # the eval: false cell is not shown, so not counted
        "fig-extra-a": "Figure A.1",
    }
    assert floats["fig-prices-b"].page == "chapters/prices.html"


def test_the_books_first_fixed_capability_figure_is_figure_5_1():
    """What a real Quarto render of the book printed (the data chapter is 1, token prices 2),
    with the price-war (3) and workload-costs (4) chapters since inserted before fixed
    capability."""
    floats = numbering.floats(ROOT)
    assert floats["fig-fixed-capability-gpqa"].name == "Figure 5.1"
    assert floats["tbl-index-estimates"].name == "Table 1"
