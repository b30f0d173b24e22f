"""The figure kit: every chart of the book as PNG, SVG, CSV and a citable JSON record.

When the environment variable `BOOK_FIGURE_KIT` names a folder, `analysis.book.show.show` calls
`write_entry`, which writes, for a chart `name` in chapter `slug`:

    <kit>/<slug>/<name>.png          the chart at scale 2, with its source line
    <kit>/<slug>/<name>.svg          the same as SVG
    <kit>/<slug>/<name>.csv          the data the chart draws (its inline data)
    <kit>/<slug>/<name>-layer3.csv   ... one more per layer whose data differs
    <kit>/<slug>/<name>.vl.json      the chart as a Vega-Lite spec, to restyle or re-render it
    <kit>/<slug>/<name>.json         id, number, title, alt text, caption, data version, sources,
                                     citation, sha256s

A figure pasted into a memo must stand alone, so each image carries a source line under the
chart, as Our World in Data's do: its sources, the data version, and where it sits in the book
("Figure 3.1 of The Economics of AI Inference, <url>"). The number is the one the book gives it
(analysis.book.numbering): the chapter's number in `_quarto.yml` and the figure's place among the
chapter's `fig-` cells.

The chapter slug comes from `BOOK_CHAPTER` (set by the setup cell of `analysis.book.notebook`), else
from the document Quarto is executing. Every file is byte-deterministic (no timestamps; SVG ids
renumbered) and written atomically (temp file, then rename). Without `BOOK_FIGURE_KIT` nothing is
written.

`make book` sets the variable: the offline preview writes the kit to `_preview/figures/`; with
Quarto it goes to `_figures/`, and `analysis/book/postrender.py` copies it to the site's `figures/`.
`write_index` writes the kit's `index.html`, one row per figure.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import tempfile
import textwrap
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any, Protocol

import vl_convert as vlc
import yaml

from analysis.data import reads
from analysis.data.cache import cached
from analysis.figures import theme


class Renderable(Protocol):
    """What the kit needs of a chart: its Vega-Lite spec, title, description and images."""

    spec: dict[str, Any]
    title: str
    description: str

    def png(self, scale: float = 2) -> bytes: ...

    def svg(self) -> str: ...


KIT_ENV = "BOOK_FIGURE_KIT"
CHAPTER_ENV = "BOOK_CHAPTER"
SITE_DIR = "figures"  # where the kit sits in a built site, relative to the site root
INDEX_FILE = "index.html"
KIT_TITLE = "Figure kit"

# (kit folder, chapter slug) -> names written by this process, in order. A chapter runs in one
# fresh kernel, so the first entry a process writes for a chapter clears that chapter's folder:
# renamed or removed figures leave nothing stale behind.
_written: dict[tuple[str, str], list[str]] = {}


@dataclass(frozen=True)
class KitEntry:
    figure_id: str  # "<chapter slug>/<name>"
    files: dict[str, str]  # file name -> sha256, the JSON record excluded
    record: dict[str, Any]

    @property
    def chapter(self) -> str:
        return self.figure_id.split("/", 1)[0]

    def path(self, suffix: str) -> str:
        """The kit-relative path of this figure's `.png`, `.svg`, `.csv` or `.json`."""
        return f"{self.figure_id}{suffix}"


def kit_dir() -> Path | None:
    """The folder the kit is written to, or None when `BOOK_FIGURE_KIT` is not set."""
    value = os.environ.get(KIT_ENV)
    return Path(value).resolve() if value else None


def current_chapter() -> str | None:
    """The slug of the chapter being executed: $BOOK_CHAPTER, else the document Quarto runs."""
    slug = os.environ.get(CHAPTER_ENV)
    if slug:
        return slug
    document = _quarto_document()
    if document:
        from analysis.book.notebook import chapter_slug

        return chapter_slug(document)
    return None


def write_entry(chart: Renderable, name: str | None) -> KitEntry | None:
    """Write the kit entry of `chart`; None (and nothing written) when the kit is off."""
    root = kit_dir()
    if root is None:
        return None
    slug = current_chapter()
    if not slug:
        import warnings

        warnings.warn(
            f"{KIT_ENV} is set but the chapter is unknown (set {CHAPTER_ENV}): "
            "no figure kit entry written",
            stacklevel=3,
        )
        return None
    from analysis.data import release as data

    folder = root / slug
    written = _written.setdefault((str(root), slug), [])
    if not written and folder.is_dir():
        for old in folder.iterdir():
            if old.is_file():
                old.unlink()
    name = _slug(name) or f"figure-{len(written) + 1}"
    if name not in written:  # the same name again (a cell run twice) rewrites its entry
        written.append(name)
    figure_id = f"{slug}/{name}"

    options = _cell_options()
    title = chart.title or str(options.get("fig-cap") or name)
    version = data.current_version()
    book = book_info()
    label = str(options["label"]) if options.get("label") else None
    if label is None and f"fig-{name}" in book.floats:  # the book names figures after labels
        label = f"fig-{name}"
    place = book.floats.get(label) if label else None
    url = f"{book.url}{place.page}#{label}" if place and book.url else book.url
    sources = chart_sources(chart, version)
    # The version the figure was drawn from, not an input of it: a later release whose tables
    # this chapter reads are the same keeps the figure (analysis.book.deps), citing this one.
    with reads.paused():
        data_citation = data.citation(version)
    where = f"{place.name} of {book.title}" if place else book.title
    source_line = " · ".join(
        [
            f"Source: {_listed(source_names(sources))}" if sources else SOURCE_FALLBACK,
            f"Data version {version}",
            where,
            *([url] if url else []),
        ]
    )

    spec = getattr(chart, "fixed_spec", chart.spec)
    svg = with_source_line(chart.svg(), source_line, keep_whole=url)
    files: dict[str, bytes] = {
        f"{name}.png": svg_to_png(svg, 2.0, vlc.__version__),
        f"{name}.svg": svg.encode("utf-8"),
    }
    for suffix, rows in chart_data(chart.spec):
        files[f"{name}{'-' + suffix if suffix else ''}.csv"] = to_csv(rows)
    files[f"{name}{SPEC_SUFFIX}"] = (json.dumps(spec, indent=1, sort_keys=True) + "\n").encode()
    hashes = {file: hashlib.sha256(content).hexdigest() for file, content in files.items()}

    cited = f"{place.name}" if place else f"Figure {figure_id}"
    ready = figure_citation(version, cited, title, url, book)
    record = {
        "id": figure_id,
        "number": place.number if place else None,
        "title": title,
        "description": str(options.get("fig-alt") or chart.description or title),
        "caption": str(options["fig-cap"]) if options.get("fig-cap") else None,
        "label": label,
        "chapter": slug,
        "order": written.index(name) + 1,
        "data_version": version,
        "sources": source_names(sources),
        "source_records": sources,
        "url": url,
        "source_line": source_line,
        "citation": f"{cited}: {title}. In {book.title}"
        + (f", {url}" if url else "")
        + f". {data_citation}",
        "apa": ready.apa,
        "bibtex": ready.bibtex,
        "files": hashes,
    }
    files[f"{name}.json"] = (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode()
    folder.mkdir(parents=True, exist_ok=True)
    for file, content in files.items():  # the JSON record last: it vouches for the others
        write_atomic(folder / file, content)
    return KitEntry(figure_id, hashes, record)


SPEC_SUFFIX = ".vl.json"
SOURCE_LINE_FONT_SIZE = 11
SOURCE_LINE_CHAR_WIDTH = 0.55  # of the font size: wider than Helvetica's average, so lines fit
SOURCE_FALLBACK = "Source: the book's data release, whose data chapter lists every source"


@dataclass(frozen=True)
class BookInfo:
    title: str
    url: str  # the site's address, ending in "/", or "" when `_quarto.yml` gives none
    floats: dict  # label -> analysis.book.numbering.Float
    authors: tuple[str, ...] = ()  # `book: author:` names in `_quarto.yml`


def book_info(root: Path | None = None) -> BookInfo:
    """Title, address and figure numbers of the book being run (the project around the current
    folder: chapters run from the project root)."""
    from analysis.book import numbering
    from analysis.book.notebook import project_root

    try:
        root = Path(root) if root else project_root(Path.cwd())
        config = yaml.safe_load((root / "_quarto.yml").read_text(encoding="utf-8")) or {}
    except (FileNotFoundError, yaml.YAMLError):
        return BookInfo("the book", "", {})
    book = config.get("book") or {}
    authors = book.get("author") or []
    authors = [authors] if isinstance(authors, (str, dict)) else authors
    names = tuple(str(a.get("name") if isinstance(a, dict) else a) for a in authors)
    url = str((config.get("citation") or {}).get("url") or book.get("site-url") or "").strip()
    if url and not url.endswith("/"):
        url += "/"
    try:
        floats = numbering.floats(root)
    except (OSError, ValueError):
        floats = {}
    return BookInfo(str(book.get("title") or "the book"), url, floats, names)


# ---------------------------------------------------------------------------------------------
# Ready citations, BibTeX and APA, of the book and of each figure. Quarto skips its own
# "Cite as" appendix (`appendix-cite-as`) in book projects, so the book writes these itself: on
# the summary page (`cite_block`) and in the figure kit (each record and the kit's index).
# The year is the data release's (its version names its date): the book is re-rendered per release.


@dataclass(frozen=True)
class Citation:
    bibtex: str
    apa: str


def book_citation(version: str, book: BookInfo | None = None) -> Citation:
    """How to cite the book rendered from data release `version`."""
    from analysis.data import release as data

    book = book or book_info()
    year = data.version_date(version).year
    authors = "{" + (" and ".join("{" + a + "}" for a in book.authors) or "Anonymous") + "}"
    fields = [
        ("author", authors),
        ("title", "{" + book.title + "}"),
        ("year", str(year)),
        ("edition", f"Data version {version}"),
        *([("url", book.url)] if book.url else []),
    ]
    apa = f"{_apa_authors(book.authors)}. ({year}). {book.title} (Data version {version})."
    return Citation(
        _bibtex("book", _bibtex_key(book.title, str(year)), fields), _with_url(apa, book.url)
    )


def figure_citation(
    version: str, figure: str, title: str, url: str, book: BookInfo | None = None
) -> Citation:
    """How to cite one figure (`figure`: "Figure 3.1", or its kit id when unnumbered)."""
    from analysis.data import release as data

    book = book or book_info()
    year = data.version_date(version).year
    authors = "{" + (" and ".join("{" + a + "}" for a in book.authors) or "Anonymous") + "}"
    fields = [
        ("author", authors),
        ("title", "{" + f"{figure}: {title}" + "}"),
        ("booktitle", "{" + book.title + "}"),
        ("year", str(year)),
        ("note", f"Data version {version}"),
        *([("url", url)] if url else []),
    ]
    apa = (
        f"{_apa_authors(book.authors)}. ({year}). {figure}: {title} [Figure]. "
        f"In {book.title} (Data version {version})."
    )
    key = _bibtex_key(book.title, str(year), figure)
    return Citation(_bibtex("incollection", key, fields), _with_url(apa, url))


@dataclass(frozen=True)
class CiteBlock:
    """The summary page's "Cite this book" text: Jupyter (and so Quarto and the preview) shows
    it as markdown, APA then BibTeX in a code block."""

    citation: Citation

    def _repr_markdown_(self) -> str:
        from analysis.report.quote import escape_markdown

        return (
            f"{escape_markdown(self.citation.apa)}\n\n```bibtex\n{self.citation.bibtex}\n```\n\n"
            "Every figure has its own citation, APA and BibTeX, in the figure kit (the *cite* "
            "link under each figure).\n"
        )


def cite_block(version: str | None = None) -> CiteBlock:
    """The book's citation for data release `version` (None: the current one), as a cell shows
    it."""
    from analysis.data import release as data

    return CiteBlock(book_citation(data.current_version(version)))


def _apa_authors(authors: tuple[str, ...]) -> str:
    if not authors:
        return "Anonymous"
    return authors[0] if len(authors) == 1 else ", ".join(authors[:-1]) + ", & " + authors[-1]


def _with_url(text: str, url: str) -> str:
    return f"{text} {url}" if url else text


def _bibtex_key(*parts: str) -> str:
    return "-".join(
        p for p in (re.sub(r"[^a-z0-9]+", "-", x.lower()).strip("-") for x in parts) if p
    )


def _bibtex(kind: str, key: str, fields: list[tuple[str, str]]) -> str:
    body = ",\n".join(
        f"  {name} = {value if value.startswith('{') else '{' + value + '}'}"
        for name, value in fields
    )
    return f"@{kind}{{{key},\n{body}\n}}"


def chart_sources(chart: Renderable, version: str) -> list[dict[str, str]]:
    """The sources of the chart's data, in order of first appearance: the source ids `show` was
    given, else those the chart's spec names (`usermeta.sources`) or its data holds (columns
    `source_id`, `source`, `sources`, `*_source`; a cell may list several, separated by `;`, `,`,
    `|` or spaces). Each as the release's sources table has it: id, publisher, title, url and
    `retrieved` (the date the source was read, whose year the source line shows)."""
    from analysis.data import release as data

    ids = list(getattr(chart, "sources", ()) or ())
    meta = chart.spec.get("usermeta") or {}
    ids += [str(i) for i in meta.get("sources") or []] if isinstance(meta, dict) else []
    if not ids:
        for _, rows in chart_data(chart.spec):
            for row in rows:
                for column, value in row.items():
                    if isinstance(value, str) and data.SOURCE_COLUMN.match(column):
                        ids += data.split_source_ids(value)
    ids = list(dict.fromkeys(ids))
    columns = ["publisher", "title", "url", "retrieved"]
    try:  # only these sources' rows: a page does not depend on sources its figures do not name
        table = data.select_rows("sources", "source_id", ids, columns, version)
    except (KeyError, OSError, ValueError):
        return []
    found = {row["source_id"]: row for row in table.to_dicts()}
    return [
        {"id": i, **{c: "" if found[i][c] is None else str(found[i][c]) for c in columns}}
        for i in ids
        if i in found
    ]


def source_names(sources: list[dict[str, str]]) -> list[str]:
    """ "Publisher (year)" for each source, the year it was retrieved, or "Publisher (n.d.)"
    (APA's "no date") where the sources table gives no date; one entry per publisher and year."""
    return list(
        dict.fromkeys(
            f"{s['publisher']} ({s['retrieved'][:4] if s['retrieved'][:4].isdigit() else 'n.d.'})"
            for s in sources
        )
    )


@cached
def svg_to_png(svg: str, scale: float, _converter: str) -> bytes:
    """The PNG of an SVG (kept in the result cache: the second output format draws it again)."""
    return vlc.svg_to_png(svg, scale=scale)


def _listed(names: list[str], most: int = 6) -> str:
    if len(names) <= most:
        return "; ".join(names)
    return "; ".join(names[: most - 1]) + f" and {len(names) - most + 1} more"


def with_source_line(svg: str, line: str, keep_whole: str = "") -> str:
    """`svg` (vega's, one white background rect first) with `line` written under the chart,
    wrapped to the chart's width; the image grows by the lines' height. A `keep_whole` part of
    the line (the figure's address) starts a line of its own and breaks only after a "/" or "#"
    (joined without spaces, the lines give it back)."""
    found = re.match(r'(<svg\b[^>]*?)\swidth="([\d.]+)" height="([\d.]+)"', svg)
    if not found:
        raise ValueError("not an SVG with a width and a height")
    width, height = float(found.group(2)), float(found.group(3))
    size, pad = SOURCE_LINE_FONT_SIZE, 8
    per_line = max(20, int((width - 2 * pad) / (size * SOURCE_LINE_CHAR_WIDTH)))
    head = line.removesuffix(f" · {keep_whole}") if keep_whole else line
    lines = textwrap.wrap(head, per_line, break_long_words=True, break_on_hyphens=False)
    if head != line:  # the address on lines of its own, broken after a "/" or "#" if too long
        lines.append("")
        for part in re.split(r"(?<=[/#])", keep_whole):
            if lines[-1] and len(lines[-1]) + len(part) > per_line:
                lines.append("")
            lines[-1] += part
    leading = round(size * 1.35, 2)
    grown = round(height + pad + leading * len(lines), 2)
    texts = "".join(
        f'<text x="{pad}" y="{round(height + pad + leading * (i + 0.75), 2)}">{escape(text)}</text>'
        for i, text in enumerate(lines)
    )
    addition = (
        f'<rect x="0" y="{height}" width="{width:g}" height="{grown - height:g}" fill="white"/>'
        f'<g class="source-line" font-family="{escape(theme.FONT)}" font-size="{size}" '
        f'fill="#555555">{texts}</g>'
    )
    out = re.sub(r'\sheight="[\d.]+"', f' height="{grown:g}"', svg, count=1)
    out = re.sub(r'viewBox="0 0 ([\d.]+) [\d.]+"', rf'viewBox="0 0 \g<1> {grown:g}"', out, count=1)
    return out.replace("</svg>", addition + "</svg>", 1) if "</svg>" in out else out


def chart_data(spec: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The distinct inline datasets a chart draws, in spec order, each with its file suffix.

    The first is the chart's data (suffix ""); a later layer whose data differs gets
    `layer<n>` (1-based, as the layer sits in the spec), a concatenated view `view<n>`.
    Data loaded from a URL or generated by Vega is not inline and is skipped.
    """
    datasets = spec.get("datasets") or {}
    found: list[tuple[str, list[dict[str, Any]]]] = []
    seen: list[list[dict[str, Any]]] = []

    def rows_of(data: Any) -> list[dict[str, Any]] | None:
        if not isinstance(data, dict):
            return None
        if isinstance(data.get("values"), list):
            return data["values"]
        if data.get("name") in datasets:
            return datasets[data["name"]]
        return None

    def walk(view: dict[str, Any], parts: list[str], inherited) -> None:
        rows = rows_of(view.get("data"))
        rows = rows if rows is not None else inherited
        if rows is not None and not any(rows is s or rows == s for s in seen):
            seen.append(rows)
            found.append(("-".join(parts) if found else "", rows))
        for key in ("layer", "concat", "hconcat", "vconcat"):
            label = "layer" if key == "layer" else "view"
            for number, sub in enumerate(view.get(key) or [], start=1):
                if isinstance(sub, dict):
                    walk(sub, [*parts, f"{label}{number}"], rows)
        if isinstance(view.get("spec"), dict):  # facet and repeat: one inner view
            walk(view["spec"], parts, rows)

    walk(spec, [], None)
    return found


def to_csv(rows: list[dict[str, Any]]) -> bytes:
    """Rows as CSV: columns in first-seen order, floats as Python writes them (they round-trip),
    booleans as true/false, missing values empty, nested values as JSON; `\\n` line ends."""
    columns = list(dict.fromkeys(key for row in rows for key in row))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(column)) for column in columns])
    return out.getvalue().encode("utf-8")


def write_atomic(path: Path, content: bytes) -> bool:
    """Write `content` to `path` through a temp file and a rename; False when it was unchanged."""
    if path.is_file() and path.read_bytes() == content:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".tmp") as tmp:
        tmp.write(content)
    os.chmod(tmp.name, 0o644)  # temp files are private (0600); the kit is published
    Path(tmp.name).replace(path)
    return True


# ---------------------------------------------------------------------------------------------
# Reading the kit back: the index page and the download links


def record_files(root: Path | str) -> list[Path]:
    """The kit's JSON records (one per figure; the Vega-Lite specs are not records)."""
    return [p for p in sorted(Path(root).glob("*/*.json")) if not p.name.endswith(SPEC_SUFFIX)]


def read_entries(root: Path | str, chapter_order: list[str] | None = None) -> list[KitEntry]:
    """Every entry in the kit folder: chapters in `chapter_order` (others after, by name), then
    figures in the order the chapter shows them."""
    root = Path(root)
    records = [json.loads(path.read_text(encoding="utf-8")) for path in record_files(root)]
    rank = {slug: number for number, slug in enumerate(chapter_order or [])}
    records.sort(key=lambda r: (rank.get(r["chapter"], len(rank)), r["chapter"], r["order"]))
    return [KitEntry(r["id"], r["files"], r) for r in records]


def index_table(entries: list[KitEntry], prefix: str = "") -> str:
    """The kit as an HTML table, one row per figure; links are `prefix` + kit-relative path."""
    if not entries:
        return "<p>No figures in the kit.</p>"
    rows = []
    for entry in entries:
        r = entry.record
        links = [
            f"<a href='{escape(prefix + entry.chapter + '/' + file)}'>{_file_label(file)}</a>"
            for file in [*entry.files, f"{entry.figure_id.split('/', 1)[1]}.json"]
        ]
        rows.append(
            f"<tr id='{escape(entry.figure_id)}'>"
            f"<td><code>{escape(entry.figure_id)}</code><br>{escape(r['title'])}</td>"
            f"<td>{escape(r['data_version'])}</td>"
            f"<td>{' · '.join(links)}</td>"
            f"<td class='citation'>{escape(r['citation'])}"
            + (
                f"<details><summary>APA and BibTeX</summary><p>{escape(r['apa'])}</p>"
                f"<pre>{escape(r['bibtex'])}</pre></details>"
                if r.get("bibtex")
                else ""
            )
            + "</td></tr>"
        )
    return (
        "<table class='figure-kit'><thead><tr><th>Figure</th><th>Data version</th>"
        "<th>Files</th><th>Citation</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )


INDEX_INTRO = (
    "Every figure of the book, as the chapters draw it: PNG (scale 2) and SVG images, each with "
    "a source line naming its sources, data version and place in the book; the data the chart "
    "draws as CSV (one more CSV per layer with data of its own); the chart as a Vega-Lite spec; "
    "and a JSON record with the figure's id, number, title, alt text, caption, data version, "
    "sources, citation and the sha256 of each file."
)


def index_page(entries: list[KitEntry], book_title: str = "") -> str:
    """A standalone `index.html` for the kit folder (the Quarto site's `figures/index.html`)."""
    title = f"{KIT_TITLE}: {book_title}" if book_title else KIT_TITLE
    cite = ""
    if entries:  # the book as rendered from the kit's data version
        book = book_citation(entries[0].record["data_version"])
        cite = (
            f"<h2>Cite this book</h2><p class='citation'>{escape(book.apa)}</p>"
            f"<details><summary>BibTeX</summary><pre>{escape(book.bibtex)}</pre></details>"
            "<h2>Cite a figure</h2>"
        )
    return _INDEX_PAGE.format(
        title=escape(title),
        intro=escape(INDEX_INTRO) + cite,
        table=index_table(entries),
    )


def write_index(root: Path | str, chapter_order: list[str] | None = None, book_title="") -> Path:
    root = Path(root)
    target = root / INDEX_FILE
    write_atomic(target, index_page(read_entries(root, chapter_order), book_title).encode())
    return target


def links_html(entry: KitEntry, element_id: str) -> str:
    """ "Download: PNG · SVG · CSV · cite" under a chart, linking the kit in the site's `figures/`.

    The hrefs are site-root relative; a script prefixes the page's `quarto:offset` (as the vega
    bundle is found). The offline preview writes the offset in directly, so they work without it.
    """
    name = entry.figure_id.split("/", 1)[1]
    suffixes = [".png", ".svg", ".csv"] if f"{name}.csv" in entry.files else [".png", ".svg"]
    links = [
        f'<a href="{SITE_DIR}/{entry.path(suffix)}" data-kit-path="{SITE_DIR}/{entry.path(suffix)}"'
        f" download>{suffix[1:].upper()}</a>"
        for suffix in suffixes
    ]
    cite = f"{SITE_DIR}/{INDEX_FILE}#{entry.figure_id}"
    citation = escape(entry.record["citation"], quote=True)
    links.append(f'<a href="{cite}" data-kit-path="{cite}" title="{citation}">cite</a>')
    return _LINKS_HTML.format(id=f"{element_id}-kit", links=" · ".join(links))


# ---------------------------------------------------------------------------------------------


def _quarto_document() -> str | None:
    """The document Quarto is executing (see analysis.data.reads.quarto_document)."""
    from analysis.data.reads import quarto_document

    return quarto_document()


def _cell_options() -> dict[str, Any]:
    """The `#|` options of the cell being run (label, fig-cap, fig-alt), when IPython runs it.

    Quarto and analysis.book.notebook both keep the `#|` lines in the source the kernel receives.
    """
    try:
        from IPython import get_ipython

        shell = get_ipython()
        source = shell.history_manager.input_hist_raw[-1] if shell else ""
        from analysis.book.notebook import option_lines, parse_options

        return parse_options(option_lines(source))
    except Exception:  # not in IPython, no history, options not YAML: no options
        return {}


def _slug(name: str | None) -> str:
    return re.sub(r"[^a-z0-9]+", "-", (name or "").lower()).strip("-")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return str(value)


def _file_label(file: str) -> str:
    if file.endswith(SPEC_SUFFIX):
        return "Vega-Lite"
    stem, suffix = file.rsplit(".", 1)
    layer = re.search(r"-((?:layer|view)\d+(?:-(?:layer|view)\d+)*)$", stem)
    return f"{suffix.upper()} ({layer.group(1)})" if suffix == "csv" and layer else suffix.upper()


_LINKS_HTML = """\
<p class="figure-kit-links" id="{id}">Download: {links}</p>
<script>
(function () {{
  var meta = document.querySelector('meta[name="quarto:offset"]');
  var offset = meta ? meta.getAttribute("content") : "./";
  document.querySelectorAll("#{id} a[data-kit-path]").forEach(function (link) {{
    link.setAttribute("href", offset + link.getAttribute("data-kit-path"));
  }});
}})();
</script>
"""

_INDEX_PAGE = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ margin: 2em auto; max-width: 1200px; padding: 0 1em;
       font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; }}
table {{ border-collapse: collapse; }}
th, td {{ padding: .35em .6em; border-bottom: 1px solid #ddd; text-align: left;
          vertical-align: top; }}
td.citation {{ font-size: 13px; color: #333; }}
</style>
</head>
<body>
<p><a href="../index.html">&larr; Back to the book</a></p>
<h1>{title}</h1>
<p>{intro}</p>
{table}
</body>
</html>
"""
