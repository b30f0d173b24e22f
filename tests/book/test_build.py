"""`make book` without Quarto: the plain message, then an offline preview that works offline."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.book import build as book

QUARTO_YML = """\
project:
  type: book
book:
  title: "Tiny book"
  chapters:
    - index.qmd
    - chapters/01-prices.qmd
    - chapters/02-hardware.qmd
execute:
  echo: false
"""

INDEX = """\
---
title: "Summary"
---

Prices fell by `{python} 4 * 2`x; @fig-prices-trend shows it and @tbl-prices-table lists them.
"""

PRICES = """\
# Token prices {#sec-prices}

```{python}
#| label: prices-setup
import altair as alt
import polars as pl
from analysis.book.show import show
prices = pl.DataFrame({"month": [1, 2, 3], "usd_per_mtok": [10.0, 5.0, 2.5]})
```

The cheapest price was `{python} prices["usd_per_mtok"].min()` dollars (@fig-prices-trend).

```{python}
#| label: fig-prices-trend
#| fig-cap: "Price per million tokens by month"
#| fig-alt: "A line falling from 10 to 2.5 dollars over three months"
show(alt.Chart(prices).mark_line().encode(x="month", y="usd_per_mtok"), "trend")
```

```{python}
#| label: tbl-prices-table
#| tbl-cap: "Prices by month"
prices
```
"""

HARDWARE = "# GPU hours\n\n## Plan {#sec-hardware-plan}\n\n- rent by the `hour`\n- buy\n"


def write_project(root: Path, prices: str = PRICES) -> Path:
    (root / "chapters").mkdir(parents=True, exist_ok=True)
    (root / "_quarto.yml").write_text(QUARTO_YML)
    (root / "index.qmd").write_text(INDEX)
    (root / "chapters" / "01-prices.qmd").write_text(prices)
    (root / "chapters" / "02-hardware.qmd").write_text(HARDWARE)
    return root


def run_build(root: Path, path_dirs: list[Path], *args: str) -> subprocess.CompletedProcess:
    """`build_book` in a fresh process whose PATH is only `path_dirs` (so no quarto on it)."""
    code = (
        "import sys; from analysis.book.build import build_book; "
        f"sys.exit(build_book({str(root)!r}, {', '.join(args)}))"
    )
    env = {**os.environ, "PATH": os.pathsep.join(map(str, path_dirs))}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    root = write_project(tmp_path_factory.mktemp("tiny-book"))
    empty_bin = tmp_path_factory.mktemp("empty-bin")
    if (Path(sys.executable).parent / "quarto").exists():
        pytest.skip("a quarto executable sits beside this Python; the no-quarto path cannot run")
    return root, run_build(root, [empty_bin], "try_install=False")


def page(root: Path, name: str) -> str:
    return (root / "_preview" / name).read_text(encoding="utf-8")


def test_no_quarto_prints_one_clear_line_and_builds_the_preview(built):
    _, done = built
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stderr.splitlines() if "Quarto was not found" in line]
    assert line == book.NO_QUARTO_MESSAGE
    assert "Offline preview written to" in done.stderr


def test_pages_mirror_the_source_paths(built):
    root, _ = built
    preview = root / "_preview"
    assert (preview / "index.html").is_file()
    assert (preview / "chapters" / "01-prices.html").is_file()
    assert (preview / "chapters" / "02-hardware.html").is_file()
    assert (preview / "assets" / "vega" / "vega-embed-bundle.js").stat().st_size > 500_000
    assert not list(root.glob(".preview-build-*")), "the staging folder is cleaned up"


def test_index_lists_every_chapter_in_book_order(built):
    root, _ = built
    toc = re.search(r"<ol class='toc'>(.*?)</ol>", page(root, "index.html"), re.S).group(1)
    hrefs = re.findall(r"href='([^']+)'", toc)
    assert hrefs == ["index.html", "chapters/01-prices.html", "chapters/02-hardware.html"]
    assert "1&nbsp;Token prices" in toc and "2&nbsp;GPU hours" in toc


def test_pages_link_previous_and_next(built):
    root, _ = built
    middle = page(root, "chapters/01-prices.html")
    assert "<a rel='prev' href='../index.html'>" in middle
    assert "<a rel='next' href='02-hardware.html'>" in middle
    assert "rel='prev'" not in page(root, "index.html")
    assert "rel='next'" not in page(root, "chapters/02-hardware.html")


def test_every_page_has_banner_offset_and_nothing_remote(built):
    root, _ = built
    for name, offset in [
        ("index.html", "./"),
        ("chapters/01-prices.html", "../"),
        ("chapters/02-hardware.html", "../"),
    ]:
        html = page(root, name)
        assert book.BANNER in html, name
        assert f'<meta name="quarto:offset" content="{offset}">' in html, name
        assert not re.search(r"<script[^>]*\bsrc=", html, re.I), f"{name} loads a script by URL"
        assert not re.search(r"<link[^>]*\bhref=[\"']?(https?:)?//", html, re.I), name
        assert not re.search(r"mathjax|require\.js|cdn\.", html, re.I), name


def test_chart_uses_the_local_bundle(built):
    root, _ = built
    html = page(root, "chapters/01-prices.html")
    assert 'id="vega-trend-' in html
    assert 'script.src = offset + "assets/vega/vega-embed-bundle.js"' in html
    assert (root / "_preview" / "chapters" / "../assets/vega/vega-embed-bundle.js").is_file()
    assert "data:image/png;base64," in html  # the <noscript> fallback


def test_inline_values_captions_and_references(built):
    root, _ = built
    chapter = page(root, "chapters/01-prices.html")
    assert "The cheapest price was 2.5 dollars" in chapter
    assert "{python}" not in chapter
    assert '<a href="#fig-prices-trend">Figure 1.1</a>' in chapter
    assert "<strong>Figure 1.1</strong>: Price per million tokens by month" in chapter
    assert "<strong>Table 1.1</strong>: Prices by month" in chapter
    assert 'id="fig-prices-trend"' in chapter and 'id="tbl-prices-table"' in chapter
    assert "<td>2.5</td>" in chapter  # the table's output is shown
    assert "import altair" not in chapter  # echo: false in _quarto.yml hides the code
    index = page(root, "index.html")
    assert "Prices fell by 8x" in index
    assert '<a href="chapters/01-prices.html#fig-prices-trend">Figure 1.1</a>' in index
    assert '<a href="chapters/01-prices.html#tbl-prices-table">Table 1.1</a>' in index
    assert "<h1 class='title'>Summary</h1>" in index


def test_markdown_after_a_heading_keeps_its_structure(built):
    root, _ = built
    hardware = page(root, "chapters/02-hardware.html")
    assert '<h2 id="sec-hardware-plan">Plan</h2>' in hardware
    assert "<li>rent by the <code>hour</code></li>" in hardware


def test_failing_chapter_fails_with_its_message_and_keeps_the_old_preview(tmp_path, capsys):
    root = write_project(tmp_path / "book")
    broken = PRICES.replace("show(alt.Chart", "1 / 0\nshow(alt.Chart")
    (root / "_preview").mkdir()
    (root / "_preview" / "index.html").write_text("previous preview")
    (root / "chapters" / "01-prices.qmd").write_text(broken)
    assert book.build_preview(root) == 1
    err = capsys.readouterr().err
    assert "chapters/01-prices.qmd: cell 'fig-prices-trend' failed: ZeroDivisionError" in err
    assert page(root, "index.html") == "previous preview"
    assert sorted(p.name for p in (root / "_preview").iterdir()) == ["index.html"]
    assert not list(root.glob(".preview-build-*"))


def test_quarto_on_path_is_used_and_its_exit_code_returned(tmp_path):
    """A `quarto` program on PATH gets `quarto render` in the project root; no preview is built."""
    root = write_project(tmp_path / "book")
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    quarto = fake_bin / "quarto"
    calls = tmp_path / "quarto-calls.txt"
    quarto.write_text(
        f'#!/bin/sh\necho "$PWD $@" >> "{calls}"\ncase "$1" in render) exit 3;; esac\n'
    )
    quarto.chmod(0o755)
    done = run_build(root, [fake_bin, Path("/usr/bin"), Path("/bin")])
    assert done.returncode == 3, done.stderr
    assert calls.read_text().splitlines()[-1] == f"{root} render"
    assert not (root / "_preview").exists()


def test_quarto_gets_the_running_python(tmp_path):
    """Quarto runs chapters with this Python. (Which frozen results go before it renders:
    tests/book/test_deps.py.)"""
    root = write_project(tmp_path / "book")
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    seen = tmp_path / "quarto-python.txt"
    quarto = fake_bin / "quarto"
    quarto.write_text(f'#!/bin/sh\necho "$QUARTO_PYTHON" > "{seen}"\nexit 0\n')
    quarto.chmod(0o755)
    env_python = os.environ.pop("QUARTO_PYTHON", None)
    try:
        done = run_build(root, [fake_bin, Path("/usr/bin"), Path("/bin")])
    finally:
        if env_python is not None:
            os.environ["QUARTO_PYTHON"] = env_python
    assert done.returncode == 0, done.stderr
    assert seen.read_text().strip() == sys.executable


# ---------------------------------------------------------------------------------------------
# The figure kit in the preview and on the Quarto path


def test_preview_has_a_figure_kit_index_listing_the_figure(built):
    root, done = built
    kit = root / "_preview" / "figures"
    for suffix in (".png", ".svg", ".csv", ".json"):
        assert (kit / "prices" / f"trend{suffix}").is_file(), suffix
    record = json.loads((kit / "prices" / "trend.json").read_text())
    assert record["id"] == "prices/trend"
    assert record["label"] == "fig-prices-trend"  # read from the cell's `#|` lines
    assert record["caption"] == "Price per million tokens by month"
    assert record["description"] == "A line falling from 10 to 2.5 dollars over three months"
    index = page(root, "figures/index.html")
    assert book.BANNER in index
    assert "<code>prices/trend</code>" in index
    for file in ("trend.png", "trend.svg", "trend.csv", "trend.json"):
        assert f"href='prices/{file}'" in index
    assert record["citation"] in index and record["data_version"] in index
    assert "Figure kit (1 figures) written to" in done.stderr


def test_preview_pages_link_the_kit(built):
    root, _ = built
    chapter = page(root, "chapters/01-prices.html")
    links = re.search(r'<p class="figure-kit-links"[^>]*>(.*?)</p>', chapter, re.S).group(1)
    hrefs = dict(
        (text, href)
        for href, text in re.findall(r'<a\b[^>]*\bhref="([^"]+)"[^>]*>(\w+)</a>', links)
    )
    assert hrefs == {
        "PNG": "../figures/prices/trend.png",
        "SVG": "../figures/prices/trend.svg",
        "CSV": "../figures/prices/trend.csv",
        "cite": "../figures/index.html#prices/trend",
    }
    for href in hrefs.values():
        assert (root / "_preview" / "chapters" / href.split("#")[0]).is_file(), href
    assert "<a href='../figures/index.html'>Figure kit</a>" in chapter  # the sidebar
    index = page(root, "index.html")
    assert "<a href='figures/index.html'>Figure kit</a>" in index
    assert "figure-kit-note" in index


def test_quarto_render_gets_the_figure_kit_folder(tmp_path):
    root = write_project(tmp_path / "book")
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    seen = tmp_path / "kit.txt"
    quarto = fake_bin / "quarto"
    quarto.write_text(f'#!/bin/sh\necho "$BOOK_FIGURE_KIT" > "{seen}"\nexit 0\n')
    quarto.chmod(0o755)
    assert run_build(root, [fake_bin, Path("/usr/bin"), Path("/bin")]).returncode == 0
    assert seen.read_text().strip() == str(root / book.KIT_DIR)


def test_the_preview_writes_maths_as_mathml():
    """As Quarto does with `html-math-method: mathml`: no script, no raw TeX, no network."""
    html = book.math_to_mathml("falls by $10^{-365 b}$ per year, $5 to $10, `$x$`.")
    assert html.count("<math ") == 1 and 'display="inline"' in html
    assert "<msup><mn>10</mn>" in html and "$10^" not in html
    assert "$5 to $10" in html, "a price range is not maths (pandoc's rules)"
    assert "`$x$`" in html, "code spans are left alone"
    block = book.math_to_mathml("$$\n\\ln p = a\\,t + c .\n$$")
    assert 'display="block"' in block and "\n" not in block.strip()
