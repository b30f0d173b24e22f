"""The site in a real browser: headless Chromium (Debian's `chromium`, driven by Playwright) opens
every page of the offline preview (`_preview/`, built once per session) and of the Quarto site
(`_book/`) when it exists, with the network off, at 1400 and 1024 px wide.

On every page: every chart drew (vega's SVG marks in each chart container), no raw TeX is
visible (`\\(`, `\\[`, `$$`, `$x$`), no cross-reference is left unresolved (`?@fig-`, `?@tbl-`),
no JavaScript error, nothing wider than the window, and every chart within its column. With
`pytest --screenshots DIR`, a full-page screenshot of each page at each width is written to
`DIR/<site folder>/` for a human to look at (none by default: they took over half the time).

"Network off": the pages are served from 127.0.0.1, every request to any other host is refused
and recorded (a failure: the site must work offline), and Chromium's proxy points nowhere in case
anything slips past the router.
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import threading
from pathlib import Path

import pytest

from analysis.book import postrender
from analysis.data.paths import ROOT

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is a dev dependency")
if not CHROMIUM:
    pytest.skip(
        "chromium not found (Debian package `chromium`; .ci/run installs it)",
        allow_module_level=True,
    )

WIDTHS = (1400, 1024)
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Anything the router below does not catch goes to a proxy that is not there.
    "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=127.0.0.1",
]
CHART_TIMEOUT_MS = 30_000
RAW_TEX = re.compile(r"\\\(|\\\[|\$\$|(?<![\w$])\$[^\s$][^$\n]{0,60}?[^\s\\$]\$(?!\d)")
UNRESOLVED = re.compile(r"\?@(fig|tbl)-")


def site_pages(site: Path) -> list[str]:
    """Every page of a built site, relative to it: the book's pages and the figure kit's index."""
    pages = [p for p in site.glob("*.html")] + list(site.glob("chapters/*.html"))
    pages += [site / "figures" / "index.html"] if (site / "figures" / "index.html").exists() else []
    return sorted(p.relative_to(site).as_posix() for p in pages)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    profile = tmp_path_factory.mktemp("chromium-profile")  # a new, empty profile
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_FLAGS,
            service_workers="block",
        )
        yield context
        context.close()


def serve(folder: Path):
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# Runs in the page: what a reader would see, minus code (which may hold `$` or `\(` legitimately).
VISIBLE_TEXT_JS = """() => {
  const skip = new Set(["PRE", "CODE", "SCRIPT", "STYLE", "NOSCRIPT", "MATH", "TEXTAREA"]);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const out = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    let el = node.parentElement, hidden = false;
    for (let up = el; up; up = up.parentElement) {
      if (skip.has(up.tagName.toUpperCase())) { hidden = true; break; }
    }
    if (!hidden && el.getClientRects().length) out.push(node.textContent);
  }
  return out.join(" ");
}"""

CHARTS_JS = """() => [...document.querySelectorAll(".book-chart")].map(c => {
  const svg = c.querySelector("svg.marks");
  const box = svg ? svg.getBoundingClientRect() : null;
  return {
    id: c.id,
    marks: svg ? svg.querySelectorAll("g[class^='mark-']").length : 0,
    failed: c.textContent.includes("Chart failed to load"),
    chartWidth: box ? box.width : 0,
    columnWidth: c.getBoundingClientRect().width,
  };
})"""

# Every table against the text column it sits in (the nearest `main`, else the body's width):
# a table wider than its column hides its right-hand columns unless a box between them scrolls
# sideways (overflow-x auto or scroll) and shows a cue that it does (class `scroll-cue`). And
# every cell against its text: a word wider than its cell (a fixed column width) is cut.
TABLES_JS = """() => [...document.querySelectorAll("table")].map((table, i) => {
  const column = table.closest("main") || document.body;
  const style = getComputedStyle(column);
  const columnWidth = column.clientWidth - parseFloat(style.paddingLeft)
    - parseFloat(style.paddingRight);
  let scroller = null;
  for (let up = table.parentElement; up && up !== column; up = up.parentElement) {
    const overflow = getComputedStyle(up).overflowX;
    if (overflow === "auto" || overflow === "scroll") { scroller = up; break; }
  }
  const caption = table.closest("figure, .cell, div[id^='tbl-']");
  return {
    name: table.id || (caption && caption.id) || `table ${i + 1}`,
    width: table.getBoundingClientRect().width,
    columnWidth: columnWidth,
    scrolls: !!scroller && scroller.getBoundingClientRect().width <= columnWidth + 1,
    cue: !!scroller && !!scroller.closest(".scroll-cue"),
    cut: [...table.querySelectorAll("td, th")].filter(c => c.scrollWidth > c.clientWidth + 1)
      .map(c => `${c.textContent.trim().slice(0, 40)}: ${c.scrollWidth} px in ${c.clientWidth} px`),
  };
})"""

CHARTS_DONE_JS = """() => [...document.querySelectorAll(".book-chart")].every(c =>
  c.querySelector("svg.marks g[class^='mark-']") || c.textContent.includes("failed"))"""


def offline_page(context, base: str, width: int, height: int):
    """(page, problems, blocked): a page of `width` x `height` px that may load only from `base`
    (every other request is aborted and its URL added to `blocked`); its JavaScript errors are
    added to `problems`."""
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": height})
    problems: list[str] = []
    blocked: list[str] = []

    def route(route) -> None:
        url = route.request.url
        if url.startswith(base):
            route.continue_()
        else:
            blocked.append(url)
            route.abort("internetdisconnected")

    page.route("**/*", route)
    page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))
    return page, problems, blocked


def check_page(
    context, base: str, page_path: str, width: int, shots: Path | None = None,
    timeout_ms=CHART_TIMEOUT_MS,
) -> list[str]:  # fmt: skip
    page, problems, blocked = offline_page(context, base, width, 900)
    page.on(
        "console",
        lambda msg: problems.append(f"console error: {msg.text}") if msg.type == "error" else None,
    )
    page.goto(f"{base}/{page_path}", wait_until="load")
    try:
        page.wait_for_function(CHARTS_DONE_JS, timeout=timeout_ms)
    except sync_api.TimeoutError:
        problems.append(f"charts still not drawn after {timeout_ms / 1000:g} s")
    for chart in page.evaluate(CHARTS_JS):
        if chart["failed"] or chart["marks"] == 0:
            problems.append(f"chart {chart['id']} did not draw")
        elif chart["chartWidth"] > chart["columnWidth"] + 1:
            problems.append(
                f"chart {chart['id']} is {chart['chartWidth']:.0f} px, "
                f"wider than its column ({chart['columnWidth']:.0f} px)"
            )
    for table in page.evaluate(TABLES_JS):
        if table["width"] > table["columnWidth"] + 1 and not (table["scrolls"] and table["cue"]):
            problems.append(
                f"table {table['name']} is {table['width']:.0f} px, wider than its column "
                f"({table['columnWidth']:.0f} px)"
                + (", in a scroll box with no visible cue" if table["scrolls"] else "")
            )
        if table["cut"]:
            problems.append(
                f"table {table['name']} cuts the text of {len(table['cut'])} "
                f"cell{'s' if len(table['cut']) > 1 else ''}: " + "; ".join(table["cut"][:3])
            )
    text = page.evaluate(VISIBLE_TEXT_JS)
    problems += [f"raw TeX visible: {m.group(0)!r}" for m in RAW_TEX.finditer(text)]
    problems += [f"unresolved cross-reference: {m.group(0)!r}" for m in UNRESOLVED.finditer(text)]
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    if overflow > 0:
        problems.append(f"the page is {overflow} px wider than the {width} px window")
    problems += [f"tried the network: {url}" for url in blocked]
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
        name = page_path.removesuffix(".html").replace("/", "-")
        page.screenshot(path=str(shots / f"{name}-{width}.png"), full_page=True)
    page.close()
    return [f"{page_path} at {width} px: {problem}" for problem in problems]


def check_site(context, site: Path, shots: Path | None = None) -> list[str]:
    server = serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        return [
            problem
            for page_path in site_pages(site)
            for width in WIDTHS
            for problem in check_page(context, base, page_path, width, shots)
        ]
    finally:
        server.shutdown()


def test_every_page_of_the_offline_preview_works_offline(browser, preview_site, screenshots):
    pages = site_pages(preview_site)
    assert "index.html" in pages and "chapters/tokens-per-dollar.html" in pages
    shots = screenshots / "preview" if screenshots else None
    assert check_site(browser, preview_site, shots) == []
    if shots:
        assert len(list(shots.glob("*.png"))) == len(pages) * len(WIDTHS)


def test_every_page_of_the_quarto_site_works_offline(browser, screenshots):
    site = ROOT / "_book"
    if not (site / "index.html").exists():
        pytest.skip("no _book/: render the book with Quarto (`make book`) to check it too")
    assert check_site(browser, site, screenshots / "book" if screenshots else None) == []


def test_the_checks_catch_what_they_look_for(browser, tmp_path):
    """A page with raw TeX, an unresolved reference, a chart that cannot draw, a script error,
    a call to the network, a too-wide table and a cell too narrow for its word fails every
    check."""
    (tmp_path / "bad.html").write_text(
        "<!DOCTYPE html><html><body>"
        "<p>The price falls by \\(10^{-365 b}\\) and $e^{-365a}$; see ?@fig-missing.</p>"
        '<div class="book-chart" id="vega-x"></div>'
        "<script>throw new Error('boom')</script>"
        f"{QUARTO_WIDGET_HEAD}"
        '<img src="https://cdn.example.org/x.png">'
        '<div style="width: 3000px">wide</div>'
        "<main style='width: 536px'>"
        '<table id="tbl-wide"><tr>'
        + "<td>a&nbsp;long&nbsp;column&nbsp;heading</td>"
        * 12
        + "</tr></table>"
        '<div style="overflow-x: auto"><table id="tbl-scrolls-silently"><tr>'
        + "<td>a&nbsp;long&nbsp;column&nbsp;heading</td>"
        * 12
        + "</tr></table></div>"
        '<div class="scroll-cue" style="overflow-x: auto"><table id="tbl-scrolls-with-cue"><tr>'
        + "<td>a&nbsp;long&nbsp;column&nbsp;heading</td>"
        * 12
        + "</tr></table></div>"
        '<table id="tbl-cut" style="table-layout: fixed; width: 200px">'
        '<colgroup><col style="width: 20%"><col style="width: 80%"></colgroup>'
        "<tr><td>contradicted</td><td>fits</td></tr></table></main>"
        "</body></html>"
    )
    server = serve(tmp_path)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        problems = check_page(browser, base, "bad.html", 1024, timeout_ms=500)
    finally:
        server.shutdown()
    problems = "\n".join(problems)
    for expected in (
        "raw TeX visible: '\\\\('",
        "raw TeX visible: '$e^{-365a}$'",
        "unresolved cross-reference",
        "chart vega-x did not draw",
        "JavaScript error: boom",
        "tried the network: https://cdn.example.org/x.png",
        "tried the network: https://cdnjs.cloudflare.com/ajax/libs/require.js/2.3.6/require.min.js",
        "tried the network: https://cdnjs.cloudflare.com/ajax/libs/jquery/3.5.1/jquery.min.js",
        "JavaScript error: define is not defined",
        "wider than the 1024 px window",
        "table tbl-wide is ",
        "table tbl-scrolls-silently is ",
        "in a scroll box with no visible cue",
        "table tbl-cut cuts the text of 1 cell: contradicted: ",
    ):
        assert expected in problems, f"{expected!r} not in:\n{problems}"
    assert "tbl-scrolls-with-cue" not in problems  # a sideways scroll with a cue is fine


# What Quarto 1.10 writes into the head of a page whose notebook has an HTML output (quarto-cli
# src/core/jupyter/widgets.ts), as three lines.
QUARTO_WIDGET_HEAD = "\n".join(
    [
        '<script src="https://cdnjs.cloudflare.com/ajax/libs/require.js/2.3.6/require.min.js" '
        'integrity="sha512-c3Nl8+7g4LMSTdrm621y7kf9v3SDPnhxLNhcjFJbKECVnmZHTdo+IRO05sNLTH/D3vA6u1X32e'
        'hoLC7WFVdheg==" crossorigin="anonymous"></script>',
        '<script src="https://cdnjs.cloudflare.com/ajax/libs/jquery/3.5.1/jquery.min.js" '
        'integrity="sha512-bLT0Qm9VnAYZDflyKcBaQ2gg0hSYNQrJ8RilYldYQ1FxQYoCLtUjuuRuZo+fjqhx/qtq/1itJ0C2'
        'ejDxltZVFg==" crossorigin="anonymous" data-relocate-top="true"></script>',
        '<script type="application/javascript" data-relocate-top="true">'
        "define('jquery', [],function() {return window.jQuery;})</script>",
    ]
)


def test_the_post_render_step_removes_quartos_cdn_scripts(browser, tmp_path):
    """A page with Quarto's widget head tries the network and throws; after the post-render step
    (run as Quarto runs it, on the output folder) the same page has no problem."""
    site = tmp_path / "site"
    (site / "chapters").mkdir(parents=True)
    page = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"{QUARTO_WIDGET_HEAD}<script>document.title = 'ok'</script></head>"
        "<body><p>A page.</p></body></html>"
    )
    (site / "chapters" / "page.html").write_text(page)
    server = serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        before = check_page(browser, base, "chapters/page.html", 1024)
        assert len([p for p in before if "tried the network" in p]) == 2, before
        assert any("define is not defined" in p for p in before), before
        assert postrender.drop_cdn_scripts_in_site(site) == 1
        after = (site / "chapters" / "page.html").read_text()
        assert "cdnjs" not in after and "define(" not in after
        assert "document.title = 'ok'" in after  # the page's own scripts stay
        assert check_page(browser, base, "chapters/page.html", 1024) == []
    finally:
        server.shutdown()


def test_the_books_table_include_gives_a_wide_table_a_scroll_cue(browser, tmp_path):
    """The same too-wide table fails without the book's include (assets/table-scroll.html) and
    passes with it: it scrolls sideways in its column, with a visible note."""
    include = (ROOT / "assets" / "table-scroll.html").read_text(encoding="utf-8")
    table = (
        '<table id="tbl-wide"><tr>'
        + "<td>a&nbsp;long&nbsp;column&nbsp;heading</td>" * 12
        + "</tr></table>"
    )
    for name, after in [("without.html", ""), ("with.html", include)]:
        (tmp_path / name).write_text(
            "<!DOCTYPE html><html><body><main style='width: 536px'>"
            f"<p>Text.</p>{table}</main>{after}</body></html>"
        )
    server = serve(tmp_path)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        without = check_page(browser, base, "without.html", 1024)
        assert any("table tbl-wide is" in problem for problem in without), without
        assert check_page(browser, base, "with.html", 1024) == []
        page = browser.new_page()
        page.goto(f"{base}/with.html")
        assert page.locator(".scroll-cue-note").is_visible()
        page.close()
    finally:
        server.shutdown()
