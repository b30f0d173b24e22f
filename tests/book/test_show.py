"""The one chart renderer: the MIME type each output format gets, and HTML that needs no CDN."""

from __future__ import annotations

import base64
import json
import re

import altair as alt
import polars as pl
import pytest
import vl_convert as vlc

from analysis.book import show as charts
from analysis.figures import theme

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def chart() -> alt.Chart:
    data = pl.DataFrame({"month": [1, 2, 3, 4], "usd": [10.0, 5.0, 2.5, 1.2], "kind": list("abab")})
    return (
        alt.Chart(data, title="Price per month")
        .mark_line()
        .encode(x="month", y="usd", color="kind")
    )


@pytest.fixture
def quarto_format(monkeypatch, tmp_path):
    """Point the renderer at a Quarto execute-info file, as Quarto >= 1.8 does for the kernel."""
    monkeypatch.delenv(charts.FORMAT_OVERRIDE_ENV, raising=False)

    def use(base_format: str) -> None:
        info = tmp_path / "execute-info.json"
        info.write_text(json.dumps({"format": {"identifier": {"base-format": base_format}}}))
        monkeypatch.setenv(charts.EXECUTE_INFO_ENV, str(info))

    return use


def test_html_output_embeds_the_spec_and_loads_the_local_bundle(chart, quarto_format):
    quarto_format("html")
    bundle = charts.show(chart, "Price trend")._repr_mimebundle_()
    html = bundle["text/html"]
    assert 'id="vega-price-trend-' in html
    assert '"usd"' in html  # the spec itself is inline
    assert charts.VEGA_BUNDLE.as_posix() in html
    assert 'meta[name="quarto:offset"]' in html
    assert not re.search(r"<script[^>]*\bsrc=", html), "the bundle is loaded by the loader only"
    urls = set(re.findall(r"https?://[^\"' ]+", html))
    # The spec's $schema names the Vega-Lite version; vega-embed reads it, never fetches it.
    assert urls == {chart.to_dict()["$schema"]}, f"remote URLs in chart HTML: {urls}"
    png = re.search(r'<noscript><img src="data:image/png;base64,([^"]+)"', html)
    assert png and base64.b64decode(png.group(1)).startswith(PNG_MAGIC)


def test_html_loader_fetches_the_bundle_once_per_page(chart, quarto_format):
    quarto_format("html")
    first = charts.show(chart, "a")._repr_mimebundle_()["text/html"]
    second = charts.show(chart, "a")._repr_mimebundle_()["text/html"]
    assert "if (!window.bookVegaBundle)" in first  # a shared promise guards the script tag
    ids = [re.search(r'<div id="([^"]+)"', html).group(1) for html in (first, second)]
    assert ids[0] != ids[1], "two charts on one page need two element ids"


def test_pdf_output_is_a_pdf(chart, quarto_format):
    quarto_format("pdf")
    bundle = charts.show(chart)._repr_mimebundle_()
    assert "text/html" not in bundle
    assert base64.b64decode(bundle["application/pdf"]).startswith(b"%PDF")


def test_typst_output_is_svg(chart, quarto_format):
    quarto_format("typst")
    bundle = charts.show(chart)._repr_mimebundle_()
    assert set(bundle) == {"image/svg+xml", "text/plain"}
    assert bundle["image/svg+xml"].lstrip().startswith("<svg")


@pytest.mark.parametrize("base_format", ["epub", "docx"])
def test_other_formats_get_png(chart, quarto_format, base_format):
    quarto_format(base_format)
    bundle = charts.show(chart)._repr_mimebundle_()
    assert set(bundle) == {"image/png", "text/plain"}
    assert base64.b64decode(bundle["image/png"]).startswith(PNG_MAGIC)


def test_plain_notebook_without_execute_info_gets_png_at_scale_2(chart, monkeypatch):
    monkeypatch.delenv(charts.EXECUTE_INFO_ENV, raising=False)
    monkeypatch.delenv(charts.FORMAT_OVERRIDE_ENV, raising=False)
    rendered = charts.show(chart)
    png = base64.b64decode(rendered._repr_mimebundle_()["image/png"])
    assert png == rendered.png(scale=2)
    assert _png_width(png) == 2 * _png_width(rendered.png(scale=1))


def test_override_wins_over_execute_info(chart, quarto_format, monkeypatch):
    quarto_format("pdf")
    monkeypatch.setenv(charts.FORMAT_OVERRIDE_ENV, "html")
    assert "text/html" in charts.show(chart)._repr_mimebundle_()


def test_unreadable_execute_info_falls_back_to_png(chart, monkeypatch, tmp_path):
    monkeypatch.delenv(charts.FORMAT_OVERRIDE_ENV, raising=False)
    monkeypatch.setenv(charts.EXECUTE_INFO_ENV, str(tmp_path / "missing.json"))
    assert "image/png" in charts.show(chart)._repr_mimebundle_()


def test_theme_is_enabled_with_palette_and_width(chart):
    assert alt.theme.active == "book"
    config = chart.to_dict()["config"]
    assert config["range"]["category"] == theme.PALETTE
    assert config["view"]["continuousWidth"] == theme.CHART_WIDTH
    assert config["axis"]["labelFontSize"] >= 11


def test_vega_bundle_is_written_once_and_defines_vega_embed(tmp_path):
    path = charts.write_vega_bundle(tmp_path)
    assert path == tmp_path / "assets" / "vega" / "vega-embed-bundle.js"
    text = path.read_text(encoding="utf-8")
    assert "window.vegaEmbed=" in text.replace(" ", "")
    assert len(text) > 500_000  # vega + vega-lite + vega-embed, not a stub
    mtime = path.stat().st_mtime_ns
    assert charts.write_vega_bundle(tmp_path).stat().st_mtime_ns == mtime  # unchanged: no rewrite


def test_a_bundle_of_the_same_versions_is_copied_and_a_stale_one_rebuilt(tmp_path, monkeypatch):
    """The last preview's bundle is reused when its first line names today's versions."""
    vega_lite = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])  # "v6.4.1" -> "6.4"
    header = (
        f"/* vega {vlc.get_vega_version()}, vega-lite {vega_lite}, vega-embed "
        f"{vlc.get_vega_embed_version()}: built by vl-convert {vlc.__version__} */\n"
    )
    last = tmp_path / "last.js"
    last.write_text(header + "window.vegaEmbed = 'last';\n", encoding="utf-8")

    def no_bundling():
        raise AssertionError("bundled again although the last bundle was current")

    monkeypatch.setattr(charts, "_bundle_js", no_bundling)
    copied = charts.write_vega_bundle(tmp_path / "new", reuse=last)
    assert copied.read_text(encoding="utf-8") == last.read_text(encoding="utf-8")

    last.write_text("/* vega 0.0.1, built by vl-convert 0.0 */\nstale\n", encoding="utf-8")
    monkeypatch.setattr(charts, "_bundle_js", lambda: header + "rebuilt\n")
    rebuilt = charts.write_vega_bundle(tmp_path / "newer", reuse=last)
    assert rebuilt.read_text(encoding="utf-8") == header + "rebuilt\n"


def test_pre_render_step_writes_the_bundle_into_the_project(tmp_path):
    (written,) = charts.write_project_assets(tmp_path)
    assert written == tmp_path / charts.VEGA_BUNDLE
    assert written.is_file()


def _png_width(png: bytes) -> int:
    return int.from_bytes(png[16:20], "big")  # IHDR width


def test_svg_is_the_same_after_other_charts_were_rendered():
    """Vega numbers SVG gradients per process; `svg()` renumbers them so the bytes repeat."""
    data = pl.DataFrame({"x": [1, 2, 3], "y": [3.0, 1.0, 2.0]})
    legend = alt.Chart(data).mark_point().encode(x="x", y="y", color="y")
    first = charts.show(legend).svg()
    charts.show(legend).png()  # renders the gradient again, moving vega's counter on
    assert charts.show(legend).svg() == first
    assert 'id="gradient_1"' in first and "url(#gradient_1)" in first


def test_description_and_title_are_found_in_layers(chart):
    layered = alt.layer(chart.properties(description="Prices fall"), chart.mark_point())
    rendered = charts.show(layered.properties(title="Layered"))
    assert rendered.description == "Prices fall"
    assert rendered.title == "Layered"


def test_a_bound_param_with_an_expression_follows_it_in_the_browser():
    """Vega-Lite evaluates a bound param's `expr` once (`init`); the embed's patch adds an `on`
    handler re-evaluating it whenever a signal it names changes, and only for such params."""
    pick = alt.param(name="pick", value="a", bind=alt.binding_select(options=["a", "b"]))
    table = alt.param(name="table", value={"a": 1, "b": 2})
    follows = alt.param(
        name="follows", value=1, expr="table[pick]", bind=alt.binding_range(min=0, max=5)
    )
    plain = alt.param(name="plain", value=3, bind=alt.binding_range(min=0, max=5))
    chart = alt.Chart(alt.Data(values=[{"x": 1}])).mark_point().encode(x="x:Q")
    spec = chart.add_params(pick, table, follows, plain).to_dict()
    ops = charts.follow_patch(spec)
    tests = [op for op in ops if op["op"] == "test"]
    adds = [op for op in ops if op["op"] == "add"]
    assert [op["value"] for op in tests] == ["follows"]
    (add,) = adds
    assert add["path"] == tests[0]["path"].replace("/name", "/on")
    (handler,) = add["value"]
    assert handler["update"] == "table[pick]"
    assert sorted(e["signal"] for e in handler["events"]) == ["pick", "table"]
    assert charts.follow_patch(chart.add_params(pick, plain).to_dict()) == []
