"""_quarto.yml is a valid Quarto 1.10 book config with what the book promises its readers."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest
import yaml

from analysis.book import notebook as chapters
from analysis.data.paths import QUARTO_SCHEMA, ROOT

CONFIG_TEXT = (ROOT / "_quarto.yml").read_text(encoding="utf-8")
CONFIG = yaml.safe_load(CONFIG_TEXT)


def test_config_validates_against_quartos_own_schema():
    if not QUARTO_SCHEMA.exists():
        pytest.skip(f"Quarto's schema not found at {QUARTO_SCHEMA} (only build machines have it)")
    schema = json.loads(QUARTO_SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    errors = [f"{'/'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(CONFIG)]
    assert errors == []


def test_the_schema_check_catches_a_bad_value():
    if not QUARTO_SCHEMA.exists():
        pytest.skip(f"Quarto's schema not found at {QUARTO_SCHEMA} (only build machines have it)")
    schema = json.loads(QUARTO_SCHEMA.read_text(encoding="utf-8"))
    bad = {**CONFIG, "project": {**CONFIG["project"], "execute-dir": "somewhere"}}
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(bad))


def test_book_project_runs_chapters_from_the_project_root_with_python():
    assert CONFIG["project"]["type"] == "book"
    assert CONFIG["project"]["execute-dir"] == "project"
    assert CONFIG["jupyter"] == "python3"


def test_freeze_is_auto_and_says_why():
    assert CONFIG["execute"]["freeze"] == "auto"
    lines = CONFIG_TEXT.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("freeze:"))
    assert any(line.strip().startswith("#") for line in lines[max(0, at - 4) : at]), (
        "the freeze setting needs a comment saying why"
    )


def test_html_and_pdf_through_typst():
    assert {"html", "typst"} <= set(CONFIG["format"])


def test_every_page_is_citable():
    assert CONFIG["google-scholar"] is True, "google-scholar must be at the top level of a book"
    assert CONFIG["citation"]["type"] == "book"
    # Quarto 1.10 emits no `appendix-cite-as` block in books: the book writes its own (index.qmd's
    # "Cite this book", the figure kit's records), so the option is not set to look as if it did.
    assert "appendix-cite-as" not in CONFIG["format"]["html"]
    assert "figure_kit.cite_block(" in (ROOT / "index.qmd").read_text(encoding="utf-8")
    assert (ROOT / CONFIG["bibliography"]).exists()


def test_every_listed_chapter_exists_and_parts_are_pages():
    files = chapters.book_files(ROOT)
    assert files[0] == ROOT / "index.qmd"
    assert all(f.exists() for f in files), [str(f) for f in files if not f.exists()]
    assert len(files) == len(set(files))


def test_vega_bundle_is_served_with_the_site():
    assert "assets/vega/" in CONFIG["project"]["resources"]
    assert (ROOT / CONFIG["project"]["pre-render"]).exists()


# Pandoc's HTML maths methods that need nothing from the network: MathML is drawn by the browser,
# `plain` writes Unicode text. MathJax, KaTeX and WebTeX load scripts or images from a CDN unless
# given a local `url`.
OFFLINE_MATH_METHODS = {"mathml", "plain"}


def math_needs_network(setting) -> bool:
    """True when pandoc's `html-math-method` setting loads anything from another host."""
    setting = setting or "mathjax"  # Quarto's default
    method, url = (
        (setting["method"], setting.get("url")) if isinstance(setting, dict) else (setting, None)
    )
    if method in OFFLINE_MATH_METHODS:
        return False
    if method == "gladtex":
        return False  # images made at render time, served with the site
    return not url or re.match(r"^([a-z]+:)?//", url) is not None


def test_html_maths_needs_no_network():
    assert not math_needs_network(CONFIG["format"]["html"].get("html-math-method"))


def test_the_math_check_catches_the_cdn_defaults():
    assert math_needs_network(None)  # Quarto's default, MathJax from a CDN
    assert math_needs_network("katex")
    assert math_needs_network({"method": "mathjax", "url": "https://cdn.example/mathjax.js"})
    assert not math_needs_network({"method": "mathjax", "url": "assets/mathjax/tex-chtml.js"})
    assert not math_needs_network("mathml")


def test_typst_header_include_exists():
    include = CONFIG["format"]["typst"]["include-in-header"]
    assert (ROOT / include).is_file()


def test_the_html_theme_loads_no_web_font():
    """Bootswatch themes (cosmo among them) @import a Google Fonts stylesheet unless
    `$web-font-path` is false in a `scss:defaults` layer."""
    themes = CONFIG["format"]["html"]["theme"]
    themes = [themes] if isinstance(themes, str) else themes
    layers = [ROOT / t for t in themes if t.endswith(".scss")]
    assert layers, "a theme layer of the project's own"
    defaults = " ".join(
        layer.read_text(encoding="utf-8")
        .split("/*-- scss:defaults --*/", 1)[1]
        .split("/*-- scss:")[0]
        for layer in layers
    )
    assert re.search(r"\$web-font-path:\s*false\s*;", defaults)


def test_the_typst_formats_reader_settings_are_quarto_options_with_valid_values():
    """The project schema does not check a format's own keys, so each key the typst format sets
    for citations and tables is checked against the definition Quarto's schema data gives it."""
    if not QUARTO_SCHEMA.exists():
        pytest.skip(f"Quarto's schema not found at {QUARTO_SCHEMA} (only build machines have it)")
    definitions = json.loads(QUARTO_SCHEMA.read_text(encoding="utf-8"))["$defs"]
    typst = CONFIG["format"]["typst"]
    checked = {
        "citeproc": "quarto-resource-document-references-citeproc",
        "css-property-processing": "quarto-resource-document-render-css-property-processing",
    }
    for key, definition in checked.items():
        assert key in typst, key
        jsonschema.validate(typst[key], definitions[definition])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate("translated", definitions[checked["css-property-processing"]])
    html = CONFIG["format"]["html"]
    assert (ROOT / html["include-after-body"]).is_file()


# What Quarto's Jupyter engine writes for a visible, folded cell: a `cell` div holding the code
# (`cell-code`, with its fold options) and the cell's output; and a code span in the prose.
FOLDED_CELL = """
Some prose with `q.name` in it.

::: {.cell}
``` {.python .cell-code code-fold="true" code-summary="Code: load the prices"}
prices = results.table("token_prices", c.version)
```

::: {.cell-output .cell-output-display}
The table the cell made.
:::
:::

``` python
an example the prose quotes
```
"""


@pytest.mark.parametrize("fmt", ["typst", "html"])
def test_the_pdf_prints_no_code_and_the_site_keeps_it_folded(fmt):
    pypandoc = pytest.importorskip(
        "pypandoc", reason="pypandoc-binary (pandoc) is a dev dependency"
    )
    lua = "analysis/book/print-no-code.lua"
    assert lua in CONFIG["filters"]  # every format runs it; it acts on Typst only
    out = pypandoc.convert_text(
        FOLDED_CELL, fmt, format="markdown", filters=[str(ROOT / lua)], extra_args=["--wrap=none"]
    )
    assert "The table the cell made." in out
    assert "an example the prose quotes" in out  # code that is not a cell's stays
    assert ("results.table" in out) is (fmt == "html")
    # Without the filter, Typst prints the cell's code open: the bug it guards.
    bare = pypandoc.convert_text(FOLDED_CELL, fmt, format="markdown")
    assert "results.table" in bare
