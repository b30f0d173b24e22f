"""The PDF's tables, checked with a real Typst compiler (the `typst` package) without Quarto.

Quarto renders a `tbl-` cell's great_tables output like this: the HTML table goes through
pandoc's HTML reader and Typst writer, and the result is wrapped in a figure of kind
"quarto-float-tbl" with its caption on top (quarto-cli's `make_typst_figure`); the book template
(orange-book) numbers figures by chapter and centres them. The documents below are built the same
way, with a small stand-in for the book template, and the header include `_quarto.yml` names
(`assets/typst/book.typ`), then compiled; `pdftotext -bbox` gives every word's box on the page.

Each check is also run on the same document without the header include, to show that it fails
there: that is the bug a real Quarto 1.10.18 render of the book showed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest
import yaml
from great_tables import GT

from analysis.data.paths import ROOT

typst = pytest.importorskip("typst", reason="the typst compiler package is a dev dependency")
pypandoc = pytest.importorskip("pypandoc", reason="pypandoc-binary (pandoc) is a dev dependency")
if not shutil.which("pdftotext"):
    pytest.skip("pdftotext not found (Debian package poppler-utils)", allow_module_level=True)

CONFIG = yaml.safe_load((ROOT / "_quarto.yml").read_text(encoding="utf-8"))

# Quarto's Typst template sets these table defaults before any header include.
QUARTO_DEFAULTS = "#set table(inset: 6pt, stroke: none)\n"

# A stand-in for the parts of orange-book (Quarto's Typst book template) that matter here:
# A4 with its margins, numbered chapters, figures numbered by chapter and centred, and Quarto's
# reset of its float counters at each chapter.
BOOK_TEMPLATE = """
#let book(body) = {
  set page(paper: "a4", margin: (x: 3cm, bottom: 2.5cm, top: 3cm), numbering: "1")
  set text(size: 10pt)
  set heading(numbering: "1.1")
  set figure(numbering: n => numbering("1.1", counter(heading).get().first(), n))
  show figure: it => align(center)[#it #v(2.6em, weak: true)]
  show heading.where(level: 1): it => { pagebreak(weak: true); it }
  body
}
#show: book
#show heading.where(level: 1): it => {
  counter(figure.where(kind: "quarto-float-tbl")).update(0)
  counter(figure.where(kind: "quarto-float-fig")).update(0)
  it
}
"""
PAGE_MARGIN_X = 3 * 72 / 2.54  # 3cm in pt
PAGE_MARGIN_BOTTOM = 2.5 * 72 / 2.54


def header_include() -> str:
    """The Typst header include(s) `_quarto.yml` gives the typst format, concatenated."""
    includes = CONFIG["format"]["typst"]["include-in-header"]
    includes = [includes] if isinstance(includes, str) else includes
    return "\n".join((ROOT / path).read_text(encoding="utf-8") for path in includes)


def table_to_typst(html: str) -> str:
    """The Typst pandoc writes for the first <table> in `html` (as Quarto's table processing
    hands great_tables' HTML to pandoc)."""
    table = re.search(r"<table\b.*?</table>", html, re.S).group(0)
    return pypandoc.convert_text(table, "typst", format="html")


def quarto_float(content: str, label: str, caption: str) -> str:
    """A table float as Quarto 1.10 writes it for Typst."""
    return (
        f"#figure([\n{content}\n], caption: figure.caption(\nposition: top, \n[\n{caption}\n]), \n"
        f'kind: "quarto-float-tbl", \nsupplement: "Table", \n)\n<{label}>\n\n'
    )


def unnumbered_chapter(title: str) -> str:
    return f"#heading(level: 1, numbering: none)[{title}]\n"


@dataclass(frozen=True)
class Word:
    page: int
    text: str
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class Pdf:
    sizes: list[tuple[float, float]]  # (width, height) of each page, in pt
    words: list[Word]

    @property
    def pages(self) -> int:
        return len(self.sizes)

    def text(self) -> str:
        return " ".join(word.text for word in self.words)


def compile_book(body: str, tmp_path: Path, *, header: bool = True, name: str = "book") -> Pdf:
    source = QUARTO_DEFAULTS + (header_include() if header else "") + BOOK_TEMPLATE + body
    typ = tmp_path / f"{name}.typ"
    typ.write_text(source, encoding="utf-8")
    pdf = tmp_path / f"{name}.pdf"
    typst.compile(str(typ), output=str(pdf))
    return read_pdf(pdf)


def read_pdf(pdf: Path) -> Pdf:
    xml = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    pages = re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', xml, re.S)
    words = [
        Word(number, text, float(a), float(b), float(c), float(d))
        for number, (_, _, content) in enumerate(pages, start=1)
        for a, b, c, d, text in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
            content,
        )
    ]
    return Pdf([(float(w), float(h)) for w, h, _ in pages], words)


def layout_problems(pdf: Pdf, tolerance: float = 0.5) -> list[str]:
    """Words outside the text area, or printed over each other (a table that ran off the page,
    or a column too narrow for its words)."""
    problems = []
    for word in pdf.words:
        width, height = pdf.sizes[word.page - 1]
        if word.text == str(word.page) and word.y0 > height - PAGE_MARGIN_BOTTOM:
            continue  # the page number in the footer
        if word.x0 < PAGE_MARGIN_X - tolerance or word.x1 > width - PAGE_MARGIN_X + tolerance:
            problems.append(f"page {word.page}: {word.text!r} outside the text width")
        if word.y1 > height - PAGE_MARGIN_BOTTOM + tolerance:
            problems.append(f"page {word.page}: {word.text!r} below the text area")
    for page in range(1, pdf.pages + 1):
        on_page = sorted((w for w in pdf.words if w.page == page), key=lambda w: w.y0)
        for i, a in enumerate(on_page):
            for b in on_page[i + 1 :]:
                if b.y0 >= a.y1 - tolerance:
                    break
                if b.x0 < a.x1 - tolerance and a.x0 < b.x1 - tolerance:
                    problems.append(f"page {page}: {a.text!r} and {b.text!r} overlap")
    return problems


def long_table(rows: int = 200) -> str:
    frame = pl.DataFrame(
        {
            "row": [f"row-{i}" for i in range(1, rows + 1)],
            "model": [f"model {i % 17}" for i in range(1, rows + 1)],
            "usd_per_mtok": [round(100 / i, 4) for i in range(1, rows + 1)],
        }
    )
    return GT(frame).fmt_number(["usd_per_mtok"], n_sigfig=3).as_raw_html()


# ---------------------------------------------------------------------------------------------


def test_the_typst_format_includes_the_books_header():
    assert 'show figure.where(kind: "quarto-float-tbl"): set block(breakable: true)' in (
        header_include()
    )


@pytest.mark.parametrize("writer", ["pandoc", "bare"])
def test_a_long_table_breaks_across_pages_and_keeps_its_last_row(tmp_path, writer):
    content = table_to_typst(long_table())
    if writer == "bare":  # older pandoc: the table without pandoc's own figure around it
        content = re.search(r"(#table\(.*?\n  \))\]", content, re.S).group(1)
    body = "= Prices\n" + quarto_float(content, "tbl-prices-long", "Two hundred rows")
    pdf = compile_book(body, tmp_path)

    rows = [w for w in pdf.words if w.text.startswith("row-")]
    assert [w.text for w in rows] == [f"row-{i}" for i in range(1, 201)], "every row, in order"
    pages = sorted({w.page for w in rows})
    assert len(pages) >= 3, f"200 rows at 7.5pt span several A4 pages, got pages {pages}"
    assert layout_problems(pdf) == []
    # The column labels repeat on every page the table spans.
    labels = [w.page for w in pdf.words if w.text == "usd_per_mtok"]
    assert labels == pages


def test_without_the_header_the_long_table_overprints(tmp_path):
    """The control: the same document without the header include shows the bug."""
    body = "= Prices\n" + quarto_float(table_to_typst(long_table()), "tbl-prices-long", "Rows")
    pdf = compile_book(body, tmp_path, header=False)
    assert any("overlap" in p or "below" in p for p in layout_problems(pdf))


def test_tables_on_an_unnumbered_page_are_not_numbered_0_1(tmp_path):
    small = table_to_typst(GT(pl.DataFrame({"a": [1], "b": [2]})).as_raw_html())
    body = (
        unnumbered_chapter("Summary")
        + "See #ref(<tbl-index-estimates>, supplement: [Table]).\n\n"
        + quarto_float(small, "tbl-index-estimates", "Every headline estimate")
        + "= Data\n"
        + "As #ref(<tbl-index-estimates>, supplement: [Table]) and "
        + "#ref(<tbl-data-tables>, supplement: [Table]) show.\n\n"
        + quarto_float(small, "tbl-data-tables", "The tables")
        + quarto_float(small, "tbl-data-sources", "The sources")
    )
    text = compile_book(body, tmp_path).text()
    assert "0.1" not in text
    assert "See Table 1." in text
    assert "Table 1: Every headline estimate" in text
    assert "As Table 1 and Table 1.1 show." in text
    assert "Table 1.1: The tables" in text and "Table 1.2: The sources" in text

    control = compile_book(body, tmp_path, header=False, name="control").text()
    assert "Table 0.1: Every headline estimate" in control


@pytest.fixture(scope="module")
def book_tables(preview_site) -> list[tuple[str, str]]:
    """Every great_tables table of the book, as the executed chapters print it: (page, html)."""
    found = []
    for page in sorted(preview_site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        for table in re.findall(r'<table class="gt_table".*?</table>', html, re.S):
            found.append((page.relative_to(preview_site).as_posix(), table))
    assert len(found) > 10
    return found


def test_every_table_of_the_book_fits_the_a4_page(book_tables, tmp_path):
    body, seen = "", set()
    for number, (page, html) in enumerate(book_tables, start=1):
        title = re.sub(r"[^a-z]+", " ", page.removesuffix(".html"))
        body += "" if page in seen else (f"= {title}\n" if page != "index.html" else "")
        seen.add(page)
        body += quarto_float(table_to_typst(html), f"tbl-{number}", f"Table {number} of {title}")
    pdf = compile_book(body, tmp_path)
    assert layout_problems(pdf) == []


def test_the_widest_table_fits_a_landscape_page(book_tables, tmp_path):
    """The summary's estimates table (eleven columns, two of prose) reads best on a landscape
    page: Quarto's `::: {.landscape}` div writes `#set page(flipped: true)` around it."""
    (widest,) = [html for page, html in book_tables if page == "index.html"]
    body = (
        unnumbered_chapter("Summary")
        + "#set page(flipped: true)\n"
        + quarto_float(table_to_typst(widest), "tbl-index-estimates", "Every estimate")
        + "#set page(flipped: false)\n"
    )
    pdf = compile_book(body, tmp_path)
    table_pages = {w.page for w in pdf.words if w.text == "Unit"}  # the header's unit column
    assert table_pages, "the table's header is on a page"
    assert all(pdf.sizes[p - 1][0] > pdf.sizes[p - 1][1] for p in table_pages), "landscape"
    assert layout_problems(pdf) == []


# Citations. The book's citing sentences and References page as pandoc writes them for Typst:
# with `citeproc: true` (what `_quarto.yml` sets for typst, as Quarto passes `--citeproc` to
# pandoc) and without it (Quarto's default for typst: `#cite` and Typst's own `#bibliography`).
CITING = (
    "Epoch AI [@cottier2025llminference] and a16z [@appenzeller2024llmflation]; "
    "@gundlach2025priceofprogress; [@hobbhahn2022gpupriceperformance; @reddi2020mlperf]; "
    "[@semianalysis2026inferencex; @mantile2026inferencemax].\n\n# References\n\n::: {#refs}\n:::\n"
)
BIB_YEARS = dict(
    re.findall(r"@\w+\{(\w+?(\d{4})\w*),", (ROOT / "references.bib").read_text(encoding="utf-8"))
)


def cited_book(tmp_path: Path, citeproc: bool) -> Pdf:
    args = [f"--bibliography={ROOT / 'references.bib'}"] + (["--citeproc"] if citeproc else [])
    body = pypandoc.convert_text(CITING, "typst", format="markdown", extra_args=args)
    (tmp_path / "references.bib").write_text((ROOT / "references.bib").read_text())
    if not citeproc:  # Quarto's Typst template adds Typst's own bibliography at the end
        body += '\n#bibliography("references.bib")\n'
    return compile_book(body, tmp_path, name="cited")


def test_the_typst_format_has_pandoc_citeproc_process_citations():
    assert CONFIG["format"]["typst"].get("citeproc") is True


def test_the_pdf_cites_author_date_with_every_year(tmp_path):
    """With citeproc (as configured), every entry is cited author-date and listed with its year
    (the year in each key, read from references.bib by hand: cottier2025... -> 2025)."""
    text = cited_book(tmp_path, citeproc=True).text()
    assert len(BIB_YEARS) == 7
    for author, year in [("Cottier", 2025), ("Appenzeller", 2024), ("Hobbhahn", 2022)]:
        assert re.search(rf"{author}\b[^()]*\b{year}\b", text), (author, text[:800])
    assert "(Cottier et al. 2025)" in text
    references = text[text.rindex("References") :]
    for key, year in BIB_YEARS.items():
        assert year in references, key
    assert references.count("et al.") >= 2 and "and others" not in references
    assert not re.search(r"\[\d+\]", text)  # no numbered citations


def test_without_citeproc_the_pdf_loses_years_or_numbers_citations(tmp_path):
    """The bug a real render showed: Typst's own processor, default style, numbered citations."""
    text = cited_book(tmp_path, citeproc=False).text()
    assert re.search(r"Epoch AI \[1\]", text) and "H. Gundlach and others" in text, text[:800]
    entry = text[text.index("[1] B. Cottier") : text.index("[2] G. Appenzeller")]
    assert "2025" not in entry, entry


# --- figures ---------------------------------------------------------------------------------
# Quarto writes a chart cell's SVG output for Typst as an image in a figure of kind
# "quarto-float-fig", caption below (quarto-cli's make_typst_figure; pandoc writes the image as
# `#box(image(...))`).


def quarto_figure(image: str, label: str, caption: str) -> str:
    return (
        f'#figure([\n#box(image("{image}"))\n], caption: figure.caption(\nposition: bottom, \n'
        f'[\n{caption}\n]), \nkind: "quarto-float-fig", \nsupplement: "Figure", \n)\n<{label}>\n\n'
    )


def tall_chart_svg(rows: int = 60) -> str:
    """A chart as the book draws it, 720 px wide and one 22 px row per category: with 60 rows
    about 1,450 px tall, twice the A4 text area at the text width."""
    import vl_convert as vlc

    from analysis.book.show import sized
    from analysis.figures import theme

    spec = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "data": {"values": [{"row": f"row {i:02d}", "usd": i + 1} for i in range(rows)]},
        "mark": "bar",
        "height": {"step": 22},
        "encoding": {
            "y": {"field": "row", "type": "nominal", "title": None},
            "x": {"field": "usd", "type": "quantitative", "title": "USD"},
        },
    }
    return vlc.vegalite_to_svg(sized(spec, theme.FIXED_WIDTH))


def figure_problems(pdf: Pdf) -> list[str]:
    """Words outside the text area or over each other, or no caption. Typst draws an SVG's text
    as outlines, so the caption, under the chart, stands for it: a caption inside the text area
    has the whole chart above it inside too."""
    problems = layout_problems(pdf)
    if not [w for w in pdf.words if w.text == "Caption-end"]:
        problems.append("the caption's end is missing")
    return problems


def test_a_tall_chart_and_its_caption_stay_inside_the_text_area(tmp_path):
    (tmp_path / "tall.svg").write_text(tall_chart_svg(), encoding="utf-8")
    caption = "A tall faceted chart, its caption long enough for two lines of text. " * 2
    body = "= Hardware\nSome text.\n\n" + quarto_figure(
        "tall.svg", "fig-tall", caption + "Caption-end"
    )
    assert figure_problems(compile_book(body, tmp_path)) == []


def test_without_the_header_the_tall_chart_runs_past_the_text_area(tmp_path):
    """The control: the bug a real Quarto 1.10.18 render showed (the page number over a caption)."""
    (tmp_path / "tall.svg").write_text(tall_chart_svg(), encoding="utf-8")
    body = "= Hardware\nSome text.\n\n" + quarto_figure("tall.svg", "fig-tall", "A Caption-end")
    assert figure_problems(compile_book(body, tmp_path, header=False)) != []
