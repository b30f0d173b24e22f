"""Citations in the offline preview, resolved by pandoc's citeproc from references.bib as Quarto
resolves them for HTML (Chicago author-date). Expected texts are read from references.bib by hand:
Cottier, Snodin, Owen and Adamczewski 2025 (four authors: "et al."), Appenzeller 2024."""

from __future__ import annotations

import re

from analysis.book import citations
from analysis.book import notebook as chapters
from analysis.data.paths import ROOT

BIB = (ROOT / "references.bib").read_text(encoding="utf-8")
KEYS = re.findall(r"@\w+\{([^,]+),", BIB)


def test_citations_read_author_date():
    text = "Epoch [@cottier2025llminference, p. 3] and @appenzeller2024llmflation agree."
    out = citations.resolve(text, ROOT)
    assert "(Cottier et al. 2025, 3)" in out and "Appenzeller (2024)" in out
    assert "@" not in re.sub(r"<[^>]+>", "", out)  # no raw key left in the visible text
    assert citations.resolve(text, ROOT, as_html=False) == (
        "Epoch (Cottier et al. 2025, 3) and Appenzeller (2024) agree."
    )


def test_text_without_citations_or_bibliography_is_unchanged(tmp_path):
    assert citations.resolve("no citation, a@b.org", ROOT) == "no citation, a@b.org"
    (tmp_path / "_quarto.yml").write_text("project: {type: book}\n")
    assert citations.resolve("[@cottier2025llminference]", tmp_path) == (
        "[@cottier2025llminference]"
    )


def test_the_references_div_lists_every_entry_with_its_year():
    out = citations.fill_references("# References\n\n::: {#refs}\n:::\n", ROOT)
    entries = re.findall(r'<div id="ref-([^"]+)" class="csl-entry"', out)
    assert sorted(entries) == sorted(KEYS) and len(KEYS) == 7
    for key in KEYS:
        year = re.search(r"\d{4}", key).group(0)
        entry = out[out.index(f'id="ref-{key}"') :].split("</div>", 1)[0]
        assert f"{year}." in entry, entry
    assert "and others" not in out


def test_every_entry_is_cited_by_the_book():
    """The preview lists the whole bibliography; Quarto lists the works the book cites: the same
    while every entry is cited somewhere."""
    text = "\n".join(entry.path.read_text(encoding="utf-8") for entry in chapters.book_entries())
    assert [key for key in KEYS if f"@{key}" not in text] == []


def test_the_preview_prints_no_raw_citation_key_and_fills_references(preview_site):
    pages = {p.name: p.read_text(encoding="utf-8") for p in preview_site.rglob("*.html")}
    visible = {name: re.sub(r"<[^>]+>", " ", html) for name, html in pages.items()}
    assert [name for name, text in visible.items() if any(f"({k}" in text for k in KEYS)] == []
    assert len(re.findall(r'class="csl-entry"', pages["references.html"])) == len(KEYS)
    assert "(Cottier et al. 2025)" in visible["fixed-capability.html"]
