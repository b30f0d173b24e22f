"""How the book numbers its chapters, figures and tables, computed from the sources.

Quarto numbers the chapters of a book in the order `_quarto.yml` lists them: part pages and
unnumbered pages (`# Summary {.unnumbered}`) get no number, appendices get letters. Figures and
tables are numbered per chapter in the order their labelled cells appear ("Figure 3.1" is the
first `fig-` cell of chapter 3); on an unnumbered page they are numbered on their own ("Table 1").
The offline preview and the figure kit both number from here, so a memo citing "Figure 3.1"
finds it under that number in the rendered book.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import jupytext

from analysis.book import notebook as chapters
from analysis.data import titles
from analysis.data.reads import memo

KINDS = {"fig": "Figure", "tbl": "Table"}


@dataclass(frozen=True)
class Float:
    label: str  # "fig-fixed-capability-gpqa"
    kind: str  # "fig" or "tbl"
    number: str  # "3.1", or "1" on an unnumbered page
    chapter: str  # the chapter's slug
    page: str  # the chapter's page in the site, "chapters/fixed-capability.html"

    @property
    def name(self) -> str:
        """ "Figure 3.1" """
        return f"{KINDS[self.kind]} {self.number}"


def chapter_numbers(root: Path | str) -> dict[Path, str]:
    """Every book file (absolute path) and its number: "1", "2", ... for chapters, "A", "B", ...
    for appendices, "" for parts and unnumbered pages."""
    numbers, chapter, appendix = {}, 0, 0
    for entry in chapters.book_entries(root):
        number = ""
        if entry.kind in ("part", "index") or unnumbered(entry.path):
            pass
        elif entry.kind == "chapter":
            chapter += 1
            number = str(chapter)
        elif entry.kind == "appendix":
            number = chr(ord("A") + appendix)
            appendix += 1
        numbers[entry.path] = number
    return numbers


def floats(root: Path | str) -> dict[str, Float]:
    """Every labelled figure and table of the book, by label."""
    root = Path(root).resolve()
    return dict(_floats(root, _sources_key(root)))


def float_labels(qmd_path: Path | str) -> list[str]:
    """The `fig-`/`tbl-` labels of a chapter's code cells, in order (`eval: false` cells dropped,
    as Quarto does not run or number them)."""
    notebook = jupytext.reads(Path(qmd_path).read_text(encoding="utf-8"), fmt="Rmd")
    labels = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        try:
            options = chapters.parse_options(chapters.option_lines(cell.source))
        except ValueError:
            continue  # the lint reports malformed options; they number nothing
        label = str(options.get("label") or "")
        if options.get("eval") is not False and label.split("-", 1)[0] in KINDS:
            labels.append(label)
    return labels


def unnumbered(path: Path) -> bool:
    """True when the page's title heading is `{.unnumbered}` (or `{-}`), or its front matter
    says `number-sections: false`."""
    if titles.front_matter(path).get("number-sections") is False:
        return True
    for line in path.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^#\s+.*?(\{[^}]*\})\s*$", line)
        if heading:
            return bool(re.search(r"\.unnumbered\b|(^|\s|\{)-(\s|\})", heading.group(1)))
        if line.startswith("# "):
            return False
    return False


def _sources_key(root: Path) -> tuple:
    """What the numbering depends on: `_quarto.yml` and the book files, with their mtimes."""
    files = [root / "_quarto.yml", *chapters.book_files(root)]
    return tuple((str(f), f.stat().st_mtime_ns) for f in files if f.exists())


@memo
def _floats(root: Path, _key: tuple) -> tuple[tuple[str, Float], ...]:
    found = []
    for path, chapter_number in chapter_numbers(root).items():
        counts = dict.fromkeys(KINDS, 0)
        for label in float_labels(path):
            kind = label.split("-", 1)[0]
            counts[kind] += 1
            number = f"{chapter_number}.{counts[kind]}" if chapter_number else str(counts[kind])
            page = path.relative_to(root).with_suffix(".html").as_posix()
            found.append((label, Float(label, kind, number, chapters.chapter_slug(path), page)))
    return tuple(found)
