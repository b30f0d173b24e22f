"""Citations in the offline preview, resolved as Quarto resolves them for HTML: pandoc's citeproc
with the book's `bibliography` and pandoc's default style, Chicago author-date.

`[@key, p. 3]` becomes "(Author 2025, 3)", a bare `@key` "Author (2025)", and the References
page's `::: {#refs}` div the formatted list of every entry of the bibliography (each is cited
by some chapter: tests/book/test_citations.py). The pandoc is the one pypandoc-binary ships.
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import yaml

# A bracketed group holding a citation, and a bare `@key` (not an e-mail, path or escaped `@`).
CITATION_GROUP = re.compile(r"\[([^\[\]]*@[^\[\]]*)\]")
BARE_CITATION = re.compile(r"(?<![\w@/.\\])@([A-Za-z0-9_][\w:.#$%&+?<>~/-]*\w)")
ANY_CITATION = re.compile(f"{CITATION_GROUP.pattern}|{BARE_CITATION.pattern}")
REFS_DIV = re.compile(r"(?m)^:::+\s*\{#refs\}\s*\n:::+[ \t]*$")
_SEPARATOR = "CITATION-BREAK"


def bibliography(root: Path) -> Path | None:
    """The book's bibliography file (`bibliography:` in `_quarto.yml`), or None."""
    config = root / "_quarto.yml"
    try:
        name = _bibliography_name(config, config.stat().st_mtime)
    except (OSError, yaml.YAMLError):
        return None
    return root / name if name and (root / name).is_file() else None


@cache
def _bibliography_name(config: Path, _mtime: float) -> str | None:
    """`bibliography:` of a `_quarto.yml`, read once per version of the file: the preview asks
    for every paragraph and caption (240 times a build, 60% of a no-op build's CPU time)."""
    found = (yaml.safe_load(config.read_text(encoding="utf-8")) or {}).get("bibliography")
    found = found[0] if isinstance(found, list) and found else found
    return found if isinstance(found, str) else None


def resolve(markdown: str, root: Path, as_html: bool = True) -> str:
    """`markdown` with its citations formatted; unchanged when the book has no bibliography.
    `as_html=False` gives plain text (for captions)."""
    bib = bibliography(root)
    found = [m.group(0) for m in ANY_CITATION.finditer(markdown)] if bib else []
    if not found:
        return markdown
    formatted = dict(zip(found, _format(tuple(found), bib, bib.stat().st_mtime), strict=True))
    if not as_html:
        formatted = {key: _text(value) for key, value in formatted.items()}
    return ANY_CITATION.sub(lambda m: formatted[m.group(0)], markdown)


def fill_references(markdown: str, root: Path) -> str:
    """`markdown` with a `::: {#refs}` div replaced by the formatted bibliography."""
    bib = bibliography(root)
    if bib is None or not REFS_DIV.search(markdown):
        return markdown
    listing = _references(bib, bib.stat().st_mtime)
    return REFS_DIV.sub(lambda _: listing, markdown)


@cache
def _format(citations: tuple[str, ...], bib: Path, _mtime: float) -> list[str]:
    """Each citation as pandoc formats it (an HTML span on one line), in one pandoc run."""
    document = f"\n\n{_SEPARATOR}\n\n".join(citations)
    out = _pandoc("---\nsuppress-bibliography: true\n---\n\n" + document, bib)
    parts = re.split(rf"<p>{_SEPARATOR}</p>", out)
    if len(parts) != len(citations):
        raise ValueError(f"pandoc returned {len(parts)} citations for {len(citations)}")
    return [re.sub(r"^\s*<p>|</p>\s*$", "", part.strip()).replace("\n", " ") for part in parts]


@cache
def _references(bib: Path, _mtime: float) -> str:
    """The formatted list of every bibliography entry, as one line of HTML."""
    out = _pandoc("---\nnocite: |\n  @*\n---\n\n::: {#refs}\n:::\n", bib)
    return out.replace("\n", " ").strip()


def _pandoc(markdown: str, bib: Path) -> str:
    import pypandoc

    return pypandoc.convert_text(
        markdown,
        "html",
        format="markdown",
        extra_args=["--citeproc", f"--bibliography={bib}", "--wrap=none"],
    )


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))
