"""Chapter lint: the checks `make lint` and the tests run over every file the book renders.

Figure cells without `fig-alt`, `#|` lines that are not YAML, labels without the chapter's
prefix, labels used twice, cross-references to missing labels and citations missing from
`references.bib`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from analysis.book.notebook import (
    CROSSREF_PREFIXES,
    _relative,
    book_files,
    chapter_slug,
    option_lines,
    parse_options,
    project_root,
)
from analysis.data.paths import ROOT


@dataclass
class _Chunk:
    line: int  # 1-based line of the ```{python} fence
    language: str
    lines: list[str]


@dataclass
class _Chapter:
    path: Path
    chunks: list[_Chunk] = field(default_factory=list)
    prose: list[tuple[int, str]] = field(default_factory=list)  # (line number, text)


_CHUNK_OPEN = re.compile(r"^(`{3,})\s*\{([A-Za-z0-9_]+)[^}]*\}\s*$")
_FENCE = re.compile(r"^(`{3,}|~{3,})")
_ANCHOR = re.compile(r"\{#((?:" + "|".join(CROSSREF_PREFIXES) + r")-[\w-]+)")
_CITATION = re.compile(r"(?<![\w@/.\\])@([A-Za-z0-9_][\w:.#$%&+?<>~/-]*)")
_CROSSREF_KEY = re.compile(r"^(?:" + "|".join(CROSSREF_PREFIXES) + r")-")
_BIB_ENTRY = re.compile(r"@([A-Za-z]+)\s*[{(]\s*([^,\s]+)\s*,")
_CAPTION_OPTIONS = ("fig-cap", "fig-subcap", "tbl-cap", "tbl-subcap", "fig-alt")


def lint_book(root: Path | str = ROOT) -> list[str]:
    """`lint` over every file the book renders."""
    return lint(book_files(root), root=root)


def lint(paths: Iterable[Path | str], root: Path | str | None = None) -> list[str]:
    """Problems in the chapters, each `file:line: what is wrong`; an empty list means clean.

    Checks figure cells without `fig-alt`, `#|` lines that are not YAML, labels without the
    chapter's prefix, labels used twice in the book, cross-references to missing labels and
    citations missing from references.bib.
    """
    paths = [Path(p).resolve() for p in paths]
    if not paths:
        return []
    root = Path(root).resolve() if root else project_root(paths[0])
    problems = [
        f"{_relative(p, root)}: listed in _quarto.yml but missing" for p in paths if not p.exists()
    ]
    chapters = [_scan(path) for path in paths if path.exists()]
    labels: dict[str, str] = {}  # label -> where it was first defined
    references: list[tuple[str, str]] = []  # (where, key) for every @key in prose and captions
    for chapter in chapters:
        rel = _relative(chapter.path, root)
        problems += _lint_chunks(chapter, rel, labels, references)
        problems += _lint_prose(chapter, rel, labels, references)
    bib_keys, bib_problem = _bib_keys(root)
    problems += [bib_problem] if bib_problem else []
    for where, key in references:
        if _CROSSREF_KEY.match(key):
            if key not in labels:
                problems.append(f"{where}: cross-reference @{key} has no matching label")
        elif key not in bib_keys:
            problems.append(f"{where}: citation @{key} is not in references.bib")
    return problems


def _lint_chunks(chapter: _Chapter, rel: str, labels: dict, references: list) -> list[str]:
    slug = chapter_slug(chapter.path)
    problems = []
    for chunk in chapter.chunks:
        where = f"{rel}:{chunk.line}"
        try:
            options = parse_options(option_lines("\n".join(chunk.lines)))
        except ValueError as error:
            problems.append(f"{where}: {error}")
            continue
        label = options.get("label")
        if label is not None:
            label = str(label)
            problems += _check_label(label, slug, where, labels)
            if label.startswith("fig-") and not options.get("fig-alt"):
                problems.append(f"{where}: figure cell '{label}' has no fig-alt (alt text)")
        for key in _CAPTION_OPTIONS:
            for text in _strings(options.get(key)):
                references += [(where, ref) for ref in _citations(text)]
    return problems


def _lint_prose(chapter: _Chapter, rel: str, labels: dict, references: list) -> list[str]:
    slug = chapter_slug(chapter.path)
    problems = []
    for number, text in chapter.prose:
        where = f"{rel}:{number}"
        for anchor in _ANCHOR.findall(text):
            if anchor.startswith(("fig-", "tbl-")):
                problems += _check_label(anchor, slug, where, labels)
            elif anchor in labels:
                problems.append(f"{where}: label '{anchor}' already used at {labels[anchor]}")
            else:
                labels[anchor] = where
        references += [(where, key) for key in _citations(text)]
    return problems


def _check_label(label: str, slug: str, where: str, labels: dict[str, str]) -> list[str]:
    problems = []
    prefixes = (f"fig-{slug}-", f"tbl-{slug}-", f"{slug}-")
    if not label.startswith(prefixes):
        allowed = ", ".join(f"'{p}'" for p in prefixes)
        problems.append(f"{where}: label '{label}' lacks the chapter prefix (one of {allowed})")
    if label in labels:
        problems.append(f"{where}: label '{label}' already used at {labels[label]}")
    else:
        labels[label] = where
    return problems


def _citations(text: str) -> list[str]:
    """Keys of every `@key` (citation or cross-reference) outside inline code."""
    text = re.sub(r"`[^`\n]*`", "", text)
    text = re.sub(r"<!--.*?-->", "", text)
    # Pandoc allows internal punctuation in a key, but not at its end ("see @x.").
    return [match.group(1).rstrip(":.#$%&+?<>~/-") for match in _CITATION.finditer(text)]


def _bib_keys(root: Path) -> tuple[set[str], str | None]:
    bib = root / "references.bib"
    if not bib.exists():
        return set(), "references.bib: file not found (every citation will be reported missing)"
    text = bib.read_text(encoding="utf-8")
    keys = {
        key
        for kind, key in _BIB_ENTRY.findall(text)
        if kind.lower() not in {"comment", "string", "preamble"}
    }
    return keys, None


def _scan(path: Path) -> _Chapter:
    """Split a .qmd into code chunks and prose lines (front matter and other fences skipped)."""
    chapter = _Chapter(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    number = _skip_front_matter(lines)
    while number < len(lines):
        line = lines[number]
        chunk = _CHUNK_OPEN.match(line)
        fence = _FENCE.match(line)
        if chunk or fence:
            marker = (chunk or fence).group(1)
            end = _fence_end(lines, number + 1, marker)
            if chunk:
                chapter.chunks.append(_Chunk(number + 1, chunk.group(2), lines[number + 1 : end]))
            number = end + 1
            continue
        chapter.prose.append((number + 1, line))
        number += 1
    return chapter


def _skip_front_matter(lines: list[str]) -> int:
    if lines and lines[0].strip() == "---":
        for number in range(1, len(lines)):
            if lines[number].strip() in {"---", "..."}:
                return number + 1
    return 0


def _fence_end(lines: list[str], start: int, marker: str) -> int:
    for number in range(start, len(lines)):
        if lines[number].strip().startswith(marker[0] * len(marker)) and not lines[
            number
        ].strip().strip(marker[0]):
            return number
    return len(lines)


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []
