"""`make book`: render with Quarto when it is here, else build an offline preview in _preview/.

The preview runs every chapter (analysis.book.notebook.execute), converts it with nbconvert's `basic`
template (body only: no require.js or MathJax from a CDN), folds the code, substitutes inline
values, numbers figures and tables and resolves `@fig-`/`@tbl-`/`@sec-` references, and writes one
page per book file at the mirrored path (chapters/x.qmd -> _preview/chapters/x.html). Every page
carries the banner below, a book-order navigation and Quarto's `quarto:offset` meta tag, so the
chart HTML from analysis.book.show finds `assets/vega/` exactly as it does in the rendered book.

Both paths run only the chapters whose source, code or input data changed since their last run
(analysis.book.deps, which prints one line per chapter saying which and why): the preview reuses
the kept notebooks of the others, and before `quarto render` the frozen results of the chapters
that must run again are removed from `_freeze/`.

Both paths write the figure kit (analysis.book.figure_kit): the preview runs its chapters with
`BOOK_FIGURE_KIT` pointing at `_preview/figures/` and adds `figures/index.html`, linked from every
page's sidebar and the index page; with Quarto the kit goes to `_figures/`, and the post-render
step (analysis/book/postrender.py) copies it to the site's `figures/` with the same index.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from html import escape
from pathlib import Path

import nbformat
import yaml
from nbconvert import HTMLExporter
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from analysis.book import citations, deps, figure_kit, numbering
from analysis.book import notebook as chapters
from analysis.book.show import LEFT_OUT_CLASS, VEGA_BUNDLE, write_vega_bundle
from analysis.data import cache as result_cache
from analysis.data import paths, reads, titles
from analysis.data.paths import ROOT
from analysis.data.reads import memo
from analysis.report.quote import PLACEHOLDER

PREVIEW_DIR = "_preview"
KIT_DIR = (
    "_figures"  # the figure kit Quarto renders write; analysis/book/postrender.py publishes it
)
BANNER = "Offline preview, not the rendered book: rendered without Quarto"
# A failed install is not retried for a day (it costs 10-30 s where GitHub is unreachable);
# delete the stamp to retry sooner.
INSTALL_FAILED_STAMP = ".quarto-install-failed"
INSTALL_RETRY_SECONDS = 24 * 3600
NO_QUARTO_MESSAGE = (
    "Quarto was not found and could not be installed here (a failed install is retried after a "
    f"day, or at once after deleting .venv/{INSTALL_FAILED_STAMP}); to render the real book run "
    '"pip install quarto-cli" (or get it from https://quarto.org/docs/get-started/) then '
    '"make book". Building an offline preview in _preview/ instead.'
)
INSTALL_TIMEOUT_SECONDS = 180
UP_TO_DATE_MESSAGE = (
    "Nothing the book reads changed since the last render (its files, the data releases, "
    "Quarto's version, every chapter's inputs), and _book/ is as that render left it: "
    f"`quarto render` did not run. Delete {deps.DEPS_DIR}/{deps.RENDER_RECORD} to render anyway."
)


def build_book(
    root: Path | str = ROOT, preview_only: bool = False, try_install: bool = True
) -> int:
    """Render the book with Quarto if possible, else build the offline preview; an exit code."""
    root = Path(root).resolve()
    console = Console(stderr=True, highlight=False)
    if not preview_only:
        quarto = find_quarto(root) or (install_quarto(root) if try_install else None)
        if quarto:
            kit = root / KIT_DIR
            try:
                freeze_plan = deps.refresh_freeze(root, kit)
            except chapters.ChapterError as error:
                console.print(f"Not rendered: {error}", markup=False, soft_wrap=True)
                return 1
            _print_verdicts(freeze_plan.verdicts, console)
            before = deps.render_state(root, paths.DATA_DIR, quarto_version(quarto))
            if deps.unchanged_since_render(root, before, freeze_plan):
                console.print(UP_TO_DATE_MESSAGE, markup=False, soft_wrap=True)
                return 0
            deps.forget_render(root)
            # Quarto runs the chapters with QUARTO_PYTHON: point it at the Python running this.
            # The chapters write the figure kit into _figures/ (the post-render step publishes it)
            # and what they read into _deps/quarto/ (analysis.data.reads).
            env = {
                **os.environ,
                "QUARTO_PYTHON": os.environ.get("QUARTO_PYTHON", sys.executable),
                figure_kit.KIT_ENV: str(kit),
                reads.DEPS_DIR_ENV: str(deps.Store(root, deps.QUARTO).dir),
            }
            code = subprocess.run([quarto, "render"], cwd=root, env=env).returncode
            deps.record_quarto_runs(root, kit, freeze_plan)
            after = deps.render_state(root, paths.DATA_DIR, before["quarto"])
            # Record the render only if no file it read changed while it ran (files the render
            # itself left in the project count as inputs from now on).
            if code == 0 and all(after["inputs"].get(k) == v for k, v in before["inputs"].items()):
                deps.record_render(root, after)
            return code
        console.print(NO_QUARTO_MESSAGE, markup=False, soft_wrap=True)
    return build_preview(root, console=console)


def _print_verdicts(verdicts: list[deps.Verdict], console: Console) -> None:
    """One line per chapter: re-run or reused, and why."""
    for verdict in verdicts:
        console.print(verdict.line(), markup=False, soft_wrap=True)
    rerun = sum(v.rerun for v in verdicts)
    console.print(
        f"{rerun} of {len(verdicts)} chapters to run, {len(verdicts) - rerun} reused",
        markup=False,
        soft_wrap=True,
    )


def find_quarto(root: Path) -> str | None:
    """A `quarto` that answers `--version`: on PATH, in the project's .venv or beside this Python."""
    candidates = [
        shutil.which("quarto"),
        root / ".venv" / "bin" / "quarto",
        Path(sys.executable).parent / "quarto",
    ]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and quarto_version(str(candidate)) is not None:
            return str(candidate)
    return None


def install_quarto(root: Path, timeout: int = INSTALL_TIMEOUT_SECONDS) -> str | None:
    """Try `pip install quarto-cli` into this environment; it needs GitHub, so it may fail."""
    stamp = Path(sys.prefix) / INSTALL_FAILED_STAMP
    if stamp.exists() and time.time() - stamp.stat().st_mtime < INSTALL_RETRY_SECONDS:
        return None
    command = [sys.executable, "-m", "pip", "install", "--quiet", "quarto-cli"]
    with suppress(OSError, subprocess.TimeoutExpired):
        subprocess.run(command, timeout=timeout, capture_output=True, check=False)
    found = find_quarto(root)
    with suppress(OSError):  # a read-only environment just retries next time
        stamp.unlink(missing_ok=True) if found else stamp.write_text(time.ctime() + "\n")
    return found


def quarto_version(quarto: str) -> str | None:
    """What `quarto --version` prints; None when it fails."""
    try:
        done = subprocess.run([quarto, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


# ---------------------------------------------------------------------------------------------
# Offline preview


@dataclass
class Page:
    entry: chapters.BookEntry
    html_path: Path  # relative to the output folder
    title: str
    number: str  # "1", "A", or "" for unnumbered pages
    echo: bool  # show (folded) code unless the book or the cell says echo: false
    executed: chapters.ExecutedChapter | None = None


def build_preview(
    root: Path | str = ROOT,
    console: Console | None = None,
    executed: dict[Path, chapters.ExecutedChapter] | None = None,
) -> int:
    """Execute every book file and write the HTML preview into root/_preview/; an exit code.

    Builds into a temporary folder beside _preview/ and swaps it in only when every chapter ran,
    so a failing chapter leaves the previous preview (or none) untouched. `executed`, when given,
    receives each page's run (its .qmd path -> the executed chapter), for the tests to share.
    """
    root = Path(root).resolve()
    console = console or Console(stderr=True, highlight=False)
    pages = plan_pages(root)
    store = deps.Store(root, deps.PREVIEW)
    staging = Path(tempfile.mkdtemp(prefix=".preview-build-", dir=root))
    try:
        verdicts, states = deps.plan(
            root, [page.entry.path for page in pages], store, deps.preview_missing(store)
        )
        _print_verdicts(verdicts, console)
        kit = staging / figure_kit.SITE_DIR
        with _environment(figure_kit.KIT_ENV, str(kit)):
            _execute_pages(pages, console, verdicts, states, store, kit)
        if executed is not None:
            executed.update({page.entry.path: page.executed for page in pages})
        targets = _reference_targets(pages, root)
        book_title = _book_title(root)
        bodies = PageBodies(root / deps.DEPS_DIR / PAGE_BODIES_DIR)
        for page in pages:
            html = render_page(page, pages, targets, book_title, bodies)
            out = staging / page.html_path
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(html, encoding="utf-8")
        bodies.forget_unused()
        entries = figure_kit.read_entries(staging / figure_kit.SITE_DIR, _chapter_order(pages))
        kit_index = staging / FIGURE_INDEX
        kit_index.parent.mkdir(parents=True, exist_ok=True)
        kit_index.write_text(render_figure_index(entries, pages, book_title), encoding="utf-8")
        write_vega_bundle(staging, reuse=root / PREVIEW_DIR / VEGA_BUNDLE)
        _swap_in(staging, root / PREVIEW_DIR)
    except chapters.ChapterError as error:
        console.print(f"Preview not built: {error}", markup=False, soft_wrap=True)
        return 1
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    index = root / PREVIEW_DIR / "index.html"
    console.print(f"Offline preview written to {index}", markup=False, soft_wrap=True)
    console.print(
        f"Figure kit ({len(entries)} figures) written to {root / PREVIEW_DIR / FIGURE_INDEX}",
        markup=False,
        soft_wrap=True,
    )
    return 0


FIGURE_INDEX = Path(figure_kit.SITE_DIR) / figure_kit.INDEX_FILE


@contextmanager
def _environment(name: str, value: str) -> Iterator[None]:
    """Set an environment variable for the kernels started inside the block, then restore it."""
    before = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


def _chapter_order(pages: list[Page]) -> list[str]:
    return [chapters.chapter_slug(page.entry.path) for page in pages]


def render_figure_index(entries: list[figure_kit.KitEntry], pages: list[Page], book_title) -> str:
    """The preview's `figures/index.html`: the kit's table inside the preview's page frame."""
    body = f"<p>{escape(figure_kit.INDEX_INTRO)}</p>\n" + figure_kit.index_table(entries)
    return _PAGE.format(
        offset="../",
        title=escape(figure_kit.KIT_TITLE),
        book_title=escape(book_title),
        banner=escape(BANNER),
        css=_CSS,
        after_body=_after_body(),
        toc=_toc(FIGURE_INDEX, pages),
        heading=f"<h1 class='title'>{escape(figure_kit.KIT_TITLE)}</h1>",
        body=body,
        pager="",
    )


def plan_pages(root: Path) -> list[Page]:
    book_echo = _book_echo(root)
    numbers = numbering.chapter_numbers(root)
    pages = []
    for entry in chapters.book_entries(root):
        html_path = entry.path.relative_to(root).with_suffix(".html")
        pages.append(
            Page(entry, html_path, titles.page_title(entry.path), numbers[entry.path], book_echo)
        )
    return pages


def _execute_pages(
    pages: list[Page],
    console: Console,
    verdicts: list[deps.Verdict],
    states: dict[str, deps.State],
    store: deps.Store,
    kit: Path,
) -> None:
    """Run the pages `verdicts` say must run (keeping each run in `store`), reuse the others."""
    columns = [
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    ]
    version = deps.current_version()
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task("Running chapters", total=len(pages))
        for page, verdict in zip(pages, verdicts, strict=True):
            chapter = verdict.chapter
            page_kit = kit / chapters.chapter_slug(page.entry.path)
            if not verdict.rerun:
                try:
                    page.executed = deps.load_preview(store, chapter, page.entry.path, page_kit)
                except ValueError as error:
                    console.print(f"{chapter}: re-run, {error}", markup=False, soft_wrap=True)
                else:
                    progress.advance(task)
                    continue
            progress.update(task, description=f"Running {page.html_path.with_suffix('.qmd')}")
            page.executed = chapters.execute(page.entry.path, fmt="html")
            deps.save_preview(store, states[chapter], page.executed, page_kit, version)
            progress.advance(task)
        progress.update(task, description="Ran every chapter")


def _reference_targets(pages: list[Page], root: Path) -> dict[str, tuple[Path, str]]:
    """label -> (page path, link text): "Figure 1.2", "Table 3.1" or a section's title."""
    targets = {
        label: (Path(item.page), item.name) for label, item in numbering.floats(root).items()
    }
    for page in pages:
        for cell in page.executed.notebook.cells:
            if cell.cell_type == "markdown":
                for match in _HEADING.finditer(cell.source):
                    anchor = _heading_id(match.group(3))
                    if anchor:
                        targets[anchor] = (page.html_path, match.group(2).strip())
    return targets


def render_page(
    page: Page,
    pages: list[Page],
    targets: dict[str, tuple[Path, str]],
    book_title: str,
    bodies: PageBodies | None = None,
) -> str:
    notebook = _preview_notebook(page, targets)
    body = bodies.html(notebook) if bodies else _html_exporter().from_notebook_node(notebook)[0]
    depth = len(page.html_path.parts) - 1
    offset = "../" * depth or "./"
    body = _relative_kit_links(body, offset)
    if page.entry.kind == "index":
        body += (
            f"<p class='figure-kit-note'>Every figure of the book, with its data and a citation: "
            f"<a href='{FIGURE_INDEX.as_posix()}'>{figure_kit.KIT_TITLE}</a>.</p>"
        )
    return _PAGE.format(
        offset=offset,
        title=escape(page.title),
        book_title=escape(book_title),
        banner=escape(BANNER),
        css=_CSS,
        after_body=_after_body(),
        toc=_toc(page.html_path, pages, current=page),
        heading=_front_matter_heading(page),
        body=_strip_remote_resources(body),
        pager=_pager(page, pages),
    )


PAGE_BODIES_DIR = "preview-html"


class PageBodies:
    """nbconvert's HTML of each page's notebook, kept in `_deps/preview-html/` by the sha256 of
    the notebook and of the pinned libraries: nbconvert's HTML is a function of these alone, and
    it was two thirds of the CPU time of a build that reruns no page (its exporter parses and
    rewrites every page with BeautifulSoup). Files no page of the last build used are removed."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.used: set[Path] = set()
        self._libraries = result_cache.libraries_fingerprint()

    def html(self, notebook: nbformat.NotebookNode) -> str:
        text = self._libraries + "\n" + nbformat.writes(notebook)
        path = self.folder / f"{hashlib.sha256(text.encode()).hexdigest()}.html"
        self.used.add(path)
        with suppress(OSError):
            return path.read_text(encoding="utf-8")
        body, _ = _html_exporter().from_notebook_node(notebook)
        with suppress(OSError):  # a folder that cannot be written only costs the next build time
            self.folder.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(f".{path.name}.{os.getpid()}")
            partial.write_text(body, encoding="utf-8")
            partial.replace(path)
        return body

    def forget_unused(self) -> None:
        for path in self.folder.glob("*.html") if self.folder.is_dir() else []:
            if path not in self.used:
                path.unlink(missing_ok=True)


@memo
def _html_exporter() -> HTMLExporter:
    """One exporter for every page: each new one compiles nbconvert's Jinja templates again."""
    return HTMLExporter(
        template_name="basic",
        exclude_input=True,
        exclude_input_prompt=True,
        exclude_output_prompt=True,
        anchor_link_text="",
    )


def _relative_kit_links(html: str, offset: str) -> str:
    """Point the charts' "Download" links at the kit relative to the page.

    They carry site-root paths (`data-kit-path`) that a script prefixes with the page's offset
    under Quarto; the preview knows the offset, so its links work without the script.
    nbconvert may reorder a tag's attributes, so each <a> tag is rewritten on its own.
    """

    def rewrite(tag: re.Match) -> str:
        path = re.search(r'\bdata-kit-path="([^"]+)"', tag.group(0)).group(1)
        return re.sub(r'\bhref="[^"]*"', f'href="{offset}{path}"', tag.group(0))

    return _KIT_LINK.sub(rewrite, html)


_KIT_LINK = re.compile(r'<a\b[^>]*\bdata-kit-path="[^"]+"[^>]*>')


def _preview_notebook(page: Page, targets) -> nbformat.NotebookNode:
    """The executed notebook rearranged for reading: code folded, captions and anchors added,
    and the parts the data version cannot show left out (`leave_out_sections`)."""
    cells = []
    for cell in leave_out_sections(page.executed.notebook.cells):
        if cell.cell_type == "raw" or chapters.is_setup_cell(cell):
            continue  # front matter and the setup cell are not part of the page
        if cell.cell_type == "markdown":
            source = _prepare_prose(cell.source, page, targets)
            if PLACEHOLDER in source:
                raise chapters.ChapterError(
                    f"{page.entry.path.name}: a quote of a part this data version cannot show "
                    f"reached the page, outside a left-out section: {source[:300]}"
                )
            cells.append(nbformat.v4.new_markdown_cell(source))
            continue
        notice = left_out_notice(cell)
        if notice is not None:
            cells.append(_raw(f"<div class='{LEFT_OUT_CLASS}'><p>{escape(notice)}</p></div>"))
            continue
        cells += _code_cells(cell, page, targets)
    notebook = nbformat.v4.new_notebook()
    for index, cell in enumerate(cells):  # ids by position, not random: the same page each build
        cell["id"] = f"cell-{index}"
    notebook.cells = cells
    return notebook


_MARKDOWN_HEADING = re.compile(r"(?m)^(#{1,6})[ \t]")
_NOTICE = re.compile(r"\A:::+ *\{\." + LEFT_OUT_CLASS + r"\}\n(.*?)\n:::+\s*\Z", re.S)


def left_out_notice(cell: nbformat.NotebookNode) -> str | None:
    """The reason a `left_out` notice in a code cell's outputs gives, or None."""
    for output in cell.get("outputs", []):
        match = _NOTICE.match(output.get("data", {}).get("text/markdown", ""))
        if match:
            return re.sub(r"\\(.)", r"\1", match.group(1))  # undo escape_markdown
    return None


def leave_out_sections(cells: list[nbformat.NotebookNode]) -> list[nbformat.NotebookNode]:
    """The cells with each left-out part dropped, by the rule `left-out.lua` applies under
    Quarto: a cell showing a `left_out` notice is kept, and everything after it up to the next
    heading of the same or a higher level (to the end of the page when no heading came before
    the notice) is dropped. Markdown cells are cut at their headings."""
    kept: list[nbformat.NotebookNode] = []
    level, dropping = 0, None  # the last kept heading's level; the left-out section's level
    for cell in cells:
        if cell.cell_type != "markdown":
            if dropping is None:
                kept.append(cell)
                if left_out_notice(cell) is not None:
                    dropping = level
            continue
        starts = [m.start() for m in _MARKDOWN_HEADING.finditer(cell.source)]
        pieces = [
            cell.source[a:b] for a, b in zip([0, *starts], [*starts, None], strict=True) if a != b
        ]
        shown = []
        for piece in pieces:
            heading = _MARKDOWN_HEADING.match(piece)
            if heading and dropping is not None and len(heading.group(1)) <= dropping:
                dropping = None
            if dropping is None:
                level = len(heading.group(1)) if heading else level
                shown.append(piece)
        if shown:
            kept.append(nbformat.from_dict({**cell, "source": "".join(shown)}))
    return kept


def _code_cells(cell, page: Page, targets) -> list[nbformat.NotebookNode]:
    options = cell.metadata.get("quarto_options", {})
    if options.get("include") is False:
        return []
    label = cell.metadata.get("label", "")
    before, after = [], []
    if options.get("echo", page.echo) is not False:
        code = "\n".join(line for line in cell.source.splitlines() if not line.startswith("#|"))
        before.append(
            _raw(
                f"<details class='code-fold'><summary>{escape(options.get('code-summary', 'Code'))}"
                f"</summary><pre><code>"
                f"{escape(code)}</code></pre></details>"
            )
        )
    if options.get("output") is False:
        cell = nbformat.from_dict({**cell, "outputs": []})
    if label.startswith("tbl-"):
        caption = _caption(options.get("tbl-cap"), label, targets, page)
        before.append(_raw(f"<div id='{label}' class='caption table-caption'>{caption}</div>"))
    elif label.startswith("fig-"):
        before.append(_raw(f"<div id='{label}' class='figure-anchor'></div>"))
        after.append(
            _raw(
                f"<div class='caption figure-caption'>"
                f"{_caption(options.get('fig-cap'), label, targets, page)}</div>"
            )
        )
    return [*before, cell, *after]


def _caption(text, label: str, targets, page: Page) -> str:
    name = targets[label][1] if label in targets else label
    root = chapters.project_root(page.entry.path)
    caption = escape(citations.resolve(str(text), root, as_html=False)) if text else ""
    return f"<strong>{escape(name)}</strong>{': ' + caption if caption else ''}"


def _prepare_prose(source: str, page: Page, targets) -> str:
    """Markdown as Quarto would show it: inline values, headings' ids, references, citations."""
    inline = page.executed.inline
    source = chapters.INLINE_EXPRESSION.sub(lambda m: inline.get(m.group(1), m.group(0)), source)
    source = _HEADING.sub(_heading_html, source)
    source = citations.fill_references(source, chapters.project_root(page.entry.path))
    source = re.sub(r"(?m)^:::+.*$", "", source)  # Quarto's fenced divs (callouts, columns)
    source = _CROSSREF.sub(lambda m: _crossref_link(m.group(1), page, targets), source)
    return math_to_mathml(citations.resolve(source, chapters.project_root(page.entry.path)))


def math_to_mathml(markdown: str) -> str:
    """TeX maths (`$...$`, `$$...$$`, pandoc's rules) as MathML, as Quarto writes it with
    `html-math-method: mathml`: browsers draw MathML natively, with no script or network.

    Code spans are left alone; `$` opens inline maths only before a non-space, closes it only
    after a non-space and not before a digit (so "$5 to $10" stays text), and `\\$` is a dollar.
    """
    parts = re.split(r"(`+[^`]*?`+)", markdown)  # odd items: code spans

    def display(match: re.Match) -> str:
        return "\n\n" + _mathml(match.group(1), "block") + "\n\n"

    def inline(match: re.Match) -> str:
        return _mathml(match.group(1), "inline")

    for i in range(0, len(parts), 2):
        text = _DISPLAY_MATH.sub(display, parts[i])
        parts[i] = _INLINE_MATH.sub(inline, text)
    return "".join(parts)


def _mathml(tex: str, display: str) -> str:
    from latex2mathml.converter import convert

    try:
        # One line: markdown would end an HTML block at a line break.
        return convert(tex.strip(), display=display).replace("\n", "")
    except Exception:  # maths latex2mathml cannot read: show the TeX, marked as code
        return f"<code class='tex'>{escape(tex.strip())}</code>"


_DISPLAY_MATH = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE_MATH = re.compile(
    r"(?<![\\$])\$(?=[^\s$])((?:[^$\\\n]|\\.|\n(?!\s*\n))+?)(?<=[^\s\\])\$(?!\d)"
)


def _crossref_link(label: str, page: Page, targets) -> str:
    if label not in targets:
        return f"**?@{label}**"  # what Quarto prints for an unresolved reference
    target_path, text = targets[label]
    href = os.path.relpath(target_path, start=page.html_path.parent).replace(os.sep, "/")
    if target_path == page.html_path:
        href = ""
    return f"[{text}]({href}#{label})"


def _heading_html(match: re.Match) -> str:
    level, text, attributes = len(match.group(1)), match.group(2).strip(), match.group(3)
    anchor = _heading_id(attributes)
    id_attribute = f' id="{anchor}"' if anchor else ""
    return f"<h{level}{id_attribute}>{escape(text)}</h{level}>"


def _heading_id(attributes: str | None) -> str | None:
    found = re.search(r"#([\w-]+)", attributes or "")
    return found.group(1) if found else None


_HEADING = re.compile(r"(?m)^(#{1,6})[ \t]+(.*?)[ \t]*(\{[^}]*\})?[ \t]*$")
_CROSSREF = re.compile(r"(?<![\w@])@((?:fig|tbl|sec)-[\w-]*\w)")


def _raw(html: str) -> nbformat.NotebookNode:
    """A markdown cell holding one line of HTML: markdown passes an HTML block through untouched
    (nbconvert's raw cells are sanitised and would lose <details>); one line because an HTML block
    ends at the first blank line."""
    return nbformat.v4.new_markdown_cell(html.replace("\n", "&#10;"))


def _strip_remote_resources(html: str) -> str:
    """Drop anything the browser would fetch from the network (the preview must work offline)."""
    html = re.sub(
        r"<script\b[^>]*\bsrc=[\"']?(?:https?:)?//[^>]*>\s*</script>", "", html, flags=re.I
    )
    html = re.sub(r"<link\b[^>]*\bhref=[\"']?(?:https?:)?//[^>]*>", "", html, flags=re.I)
    return re.sub(r"@import\s+(?:url\()?[\"']?(?:https?:)?//[^;]*;", "", html, flags=re.I)


def _toc(from_path: Path, pages: list[Page], current: Page | None = None) -> str:
    """The sidebar: every page in book order, then the figure kit; links relative to `from_path`."""
    items = []
    for page in pages:
        href = _relative_href(page.html_path, from_path)
        label = f"{page.number}&nbsp;{escape(page.title)}" if page.number else escape(page.title)
        if page.entry.kind == "part":
            items.append(f"<li class='part'><a href='{href}'>{label}</a></li>")
        else:
            current_class = " class='current'" if page is current else ""
            items.append(f"<li{current_class}><a href='{href}'>{label}</a></li>")
    kit_class = "figure-kit current" if from_path == FIGURE_INDEX else "figure-kit"
    kit_href = _relative_href(FIGURE_INDEX, from_path)
    return (
        "<ol class='toc'>"
        + "".join(items)
        + f"</ol><p class='{kit_class}'><a href='{kit_href}'>{figure_kit.KIT_TITLE}</a></p>"
    )


def _pager(current: Page, pages: list[Page]) -> str:
    index = pages.index(current)
    links = []
    if index > 0:
        previous = pages[index - 1]
        links.append(
            f"<a rel='prev' href='{_href(current, previous)}'>&larr; {escape(previous.title)}</a>"
        )
    if index < len(pages) - 1:
        following = pages[index + 1]
        links.append(
            f"<a rel='next' href='{_href(current, following)}'>{escape(following.title)} &rarr;</a>"
        )
    return " ".join(links)


def _href(current: Page, target: Page) -> str:
    return _relative_href(target.html_path, current.html_path)


def _relative_href(target: Path, from_path: Path) -> str:
    return os.path.relpath(target, start=from_path.parent).replace(os.sep, "/")


def _front_matter_heading(page: Page) -> str:
    title = titles.front_matter(page.entry.path).get("title")
    return f"<h1 class='title'>{escape(str(title))}</h1>" if title else ""


def _quarto_config(root: Path) -> dict:
    return yaml.safe_load((root / "_quarto.yml").read_text(encoding="utf-8")) or {}


def _book_title(root: Path) -> str:
    return str((_quarto_config(root).get("book") or {}).get("title") or "Book")


def _book_echo(root: Path) -> bool:
    return (_quarto_config(root).get("execute") or {}).get("echo", True) is not False


def _swap_in(staging: Path, target: Path) -> None:
    """Replace `target` with `staging` in two renames, so no half-written preview is visible."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}-old-{os.getpid()}")
        target.rename(old)
    staging.rename(target)
    if old:
        shutil.rmtree(old, ignore_errors=True)


_CSS = """
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       color: #1a1a1a; }
.preview-banner { background: #fff3cd; border-bottom: 2px solid #e0a800; padding: .6em 1em;
                  font-weight: 600; }
.layout { display: flex; gap: 2em; max-width: 1200px; margin: 0 auto; padding: 0 1em; }
nav.sidebar { flex: 0 0 230px; font-size: 14px; padding-top: 1em; }
nav.sidebar ol { list-style: none; padding-left: 0; }
nav.sidebar li { margin: .3em 0; }
nav.sidebar li.part { font-weight: 600; margin-top: 1em; }
nav.sidebar li.current a { font-weight: 700; color: #000; }
nav.sidebar p.figure-kit { margin-top: 1.5em; font-weight: 600; }
.figure-kit-links { font-size: 13px; color: #555; margin: .2em 0; }
.left-out { border-left: 4px solid #6c757d; background: #f4f5f6; padding: .4em 1em; }
table.figure-kit td { vertical-align: top; font-size: 14px; }
table.figure-kit td.citation { font-size: 13px; color: #333; }
main { flex: 1; min-width: 0; max-width: 749px; padding-bottom: 3em; }
/* The rendered book's text column: 749 px at desktop widths, 536 px in a 1024 px window (a real
   Quarto 1.10.18 render), so tables, charts and screenshots here meet the widths readers get. */
@media (max-width: 1199px) { main { max-width: 536px; } }
pre { background: #f6f8fa; padding: .6em; overflow-x: auto; font-size: 13px; }
details.code-fold summary { cursor: pointer; color: #555; font-size: 13px; }
.caption { font-size: 14px; color: #333; margin: .3em 0 1.2em; }
.table-caption { margin: 1.2em 0 .3em; }
table { border-collapse: collapse; }
th, td { padding: .25em .6em; border-bottom: 1px solid #ddd; }
nav.pager { display: flex; justify-content: space-between; border-top: 1px solid #ddd;
            margin-top: 2em; padding-top: 1em; }
"""


def _after_body() -> str:
    """What every HTML page of the book ends with (`include-after-body` in _quarto.yml), so the
    preview behaves as the site: the sideways-scroll cue of wide tables."""
    path = ROOT / TABLE_SCROLL_INCLUDE
    return path.read_text(encoding="utf-8") if path.is_file() else ""


TABLE_SCROLL_INCLUDE = "assets/table-scroll.html"

_PAGE = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="quarto:offset" content="{offset}">
<title>{title} | {book_title} (offline preview)</title>
<style>{css}</style>
</head>
<body>
<div class="preview-banner" role="note">{banner}. Install Quarto and run "make book" for the
real book.</div>
<div class="layout">
<nav class="sidebar" aria-label="Book contents">
<p><a href="{offset}index.html"><strong>{book_title}</strong></a></p>
{toc}
</nav>
<main>
{heading}
{body}
<nav class="pager" aria-label="Previous and next chapter">{pager}</nav>
</main>
</div>
{after_body}
</body>
</html>
"""
