"""The one renderer every chapter uses: `show(chart)`.

A figure cell ends with `show(chart, "name")`. The object it returns hands Jupyter (and so Quarto)
the output the current format needs:

- html: interactive vega-embed HTML. vega, vega-lite and vega-embed come from one local bundle
  (`assets/vega/vega-embed-bundle.js`, written by `write_vega_bundle`), found from the page's
  `<meta name="quarto:offset">` tag and loaded once per page; a static PNG sits in `<noscript>`.
  A single or layered view takes the width of the text column (`width: "container"`, so it fits
  the 749 px column at desktop widths and the 536 px one in a 1024 px window); a facet or
  concatenation keeps the width its figure module gives it and shrinks to the column if wider.
- pdf (LaTeX): `application/pdf`; typst: `image/svg+xml`.
- anything else, or no format known (a plain notebook): `image/png` at scale 2.

Every image (PDF, SVG, PNG, the figure kit's too) draws a single or layered view at a fixed
width, `theme.FIXED_WIDTH` in all, axes and legends included.

The format comes from Quarto's `QUARTO_EXECUTE_INFO` (a JSON file path; Quarto >= 1.8 sets it for
the kernel). `BOOK_OUTPUT_FORMAT` overrides it: the offline preview and the chapter tests set it in
their setup cell because no Quarto is running there.

When `BOOK_FIGURE_KIT` names a folder (`make book` sets it), `show` also writes the chart's figure
kit entry (PNG, SVG, CSV, JSON; see analysis.book.figure_kit), and the HTML output ends with a
"Download: PNG · SVG · CSV · cite" line linking it in the site's `figures/`.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

import altair as alt
import vl_convert as vlc

from analysis.book import figure_kit
from analysis.data.cache import cached
from analysis.data.paths import ROOT
from analysis.data.reads import memo
from analysis.figures import theme  # registers and enables the house theme
from analysis.report import names
from analysis.report.quote import escape_markdown

# Every figure and table a page builds labels models, GPUs and providers by their display names.
theme.use_names(names.display_name)

# One place for where the bundle lives, relative to the site (and project) root.
VEGA_BUNDLE = Path("assets/vega/vega-embed-bundle.js")
FORMAT_OVERRIDE_ENV = "BOOK_OUTPUT_FORMAT"
EXECUTE_INFO_ENV = "QUARTO_EXECUTE_INFO"


def output_format() -> str | None:
    """The base format being rendered (html, pdf, typst, ...), or None outside Quarto."""
    override = os.environ.get(FORMAT_OVERRIDE_ENV)
    if override:
        return override
    info_path = os.environ.get(EXECUTE_INFO_ENV)
    if not info_path:
        return None
    try:
        info = json.loads(Path(info_path).read_text(encoding="utf-8"))
        return info["format"]["identifier"]["base-format"]
    except (OSError, ValueError, KeyError, TypeError):
        return None  # unreadable info: fall back to PNG rather than fail the chapter


_chart_numbers = itertools.count(1)


COMPOSITE_VIEWS = ("facet", "repeat", "concat", "hconcat", "vconcat")
FACET_CHANNELS = ("row", "column", "facet")


def is_responsive(spec: dict[str, Any]) -> bool:
    """True for a single or layered view: vega-lite can fit its width to a container
    (`width: "container"`), which it cannot do for facets, repeats and concatenations."""

    def faceted(view: dict[str, Any]) -> bool:
        encoding = view.get("encoding") or {}
        return any(channel in encoding for channel in FACET_CHANNELS) or any(
            faceted(layer) for layer in view.get("layer") or [] if isinstance(layer, dict)
        )

    return not any(key in spec for key in COMPOSITE_VIEWS) and not faceted(spec)


def sized(spec: dict[str, Any], width: int | str) -> dict[str, Any]:
    """`spec` `width` wide in all (axes, legends and padding included) when it is a single or
    layered view; a composite view as it is. `width` may be "container"."""
    if not is_responsive(spec):
        return spec
    autosize = {"type": "fit-x", "contains": "padding"}
    if width == "container":
        autosize["resize"] = True  # follow the column when the window is resized
    return {**spec, "width": width, "autosize": autosize}


@dataclass
class RenderedChart:
    """What `show` returns: Jupyter calls `_repr_mimebundle_` to display it.

    `spec` is the chart as its figure module built it; `fixed_spec` the same at the book's fixed
    image width, which every image (PDF, SVG, PNG, figure kit) draws.
    """

    spec: dict[str, Any]
    element_id: str
    description: str = ""
    base_format: str | None = field(default_factory=output_format)
    title: str = ""
    kit: figure_kit.KitEntry | None = None  # the figure kit entry, when one was written
    sources: tuple[str, ...] = ()  # source ids the chart's data comes from, when `show` is told

    @property
    def fixed_spec(self) -> dict[str, Any]:
        return sized(self.spec, theme.FIXED_WIDTH)

    @property
    def html_spec(self) -> dict[str, Any]:
        return sized(self.spec, "container")

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        plain = {"text/plain": f"<chart {self.element_id}>"}
        if self.base_format == "html":
            return {"text/html": self.html(), **plain}
        if self.base_format == "pdf":
            return {"application/pdf": _b64(render("pdf", self.fixed_spec)), **plain}
        if self.base_format == "typst":
            return {"image/svg+xml": self.svg(), **plain}
        return {"image/png": _b64(self.png(scale=2)), **plain}

    def png(self, scale: float = 2) -> bytes:
        return render("png", self.fixed_spec, scale)

    def svg(self) -> str:
        """The chart as SVG, the same bytes every time (see `_stable_svg_ids`)."""
        return _stable_svg_ids(render("svg", self.fixed_spec))

    def html(self) -> str:
        fallback = base64.b64encode(self.png(scale=1)).decode("ascii")
        alt_text = escape(self.description or "Chart", quote=True)
        return _EMBED_HTML.format(
            id=self.element_id,
            spec=json.dumps(self.html_spec, separators=(",", ":")).replace("</", "<\\/"),
            bundle=VEGA_BUNDLE.as_posix(),
            patch=_patch_option(follow_patch(self.html_spec)),
            png=fallback,
            alt=alt_text,
        ) + (figure_kit.links_html(self.kit, self.element_id) if self.kit else "")


def show(
    chart: alt.TopLevelMixin, name: str | None = None, sources: list[str] | None = None
) -> RenderedChart:
    """Render `chart` for the current output format; call it as the last line of a figure cell.

    `name` makes the HTML element id readable (`vega-<name>-<n>`); the counter keeps ids unique
    when a page shows the same chart twice. It is also the figure's name in the figure kit,
    written when `BOOK_FIGURE_KIT` is set. `sources` (source ids of the data release, taken from
    the rows the chart was computed from with `analysis.data.sources_of`) names the chart's
    sources on its kit images and record; without it they are read from the chart's data
    (columns `source_id`, `source`, `sources`, `*_source`).
    """
    spec = chart.to_dict()
    slug = re.sub(r"[^a-z0-9]+", "-", (name or "chart").lower()).strip("-") or "chart"
    title = _title_text(_first(spec, "title"))
    description = str(_first(spec, "description") or title)
    rendered = RenderedChart(
        spec,
        f"vega-{slug}-{next(_chart_numbers)}",
        description,
        title=title,
        sources=tuple(sources or ()),
    )
    rendered.kit = figure_kit.write_entry(rendered, name)
    return rendered


# The class of the notice that stands for a part the data version cannot show. The Quarto
# filter (left-out.lua beside this file) and the offline preview keep the notice and drop the
# rest of its section.
LEFT_OUT_CLASS = "left-out"


@dataclass(frozen=True)
class LeftOutNotice:
    """The notice `left_out(reason)` displays: the reason, one paragraph in a `.left-out` div."""

    reason: str

    def _repr_markdown_(self) -> str:
        return f"::: {{.{LEFT_OUT_CLASS}}}\n{escape_markdown(self.reason)}\n:::\n"


def left_out(reason: str | None) -> LeftOutNotice | None:
    """The first cell of a section (or page) a data version may not be able to show: nothing
    when `reason` is None, else the notice saying why the rest is left out
    (`analysis.report.left_out.reason`)."""
    return LeftOutNotice(reason) if reason else None


def write_vega_bundle(dest_dir: Path | str, reuse: Path | None = None) -> Path:
    """Write the offline vega + vega-lite + vega-embed bundle to `dest_dir/assets/vega/`.

    Bundling takes vl-convert seconds, so a bundle already there, or at `reuse` (the last
    preview's), whose first line names the same versions is kept or copied instead; Quarto and
    browsers see a stable file.
    """
    target = Path(dest_dir) / VEGA_BUNDLE
    header = _bundle_header()
    if _first_line(target) == header:
        return target
    if reuse is not None and _first_line(reuse) == header:
        content = Path(reuse).read_text(encoding="utf-8")
    else:
        content = _bundle_js()
    target.parent.mkdir(parents=True, exist_ok=True)
    # Write then rename: a half-written bundle would break every chart on the site.
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=target.parent, delete=False, suffix=".tmp"
    ) as tmp:
        tmp.write(content)
    Path(tmp.name).replace(target)
    return target


def _first_line(path: Path | str) -> str | None:
    try:
        with open(path, encoding="utf-8") as file:
            return file.readline()
    except OSError:
        return None


def write_project_assets(root: Path | str = ROOT) -> list[Path]:
    """Quarto `pre-render` step (`python -m analysis assets`): files the site serves as resources."""
    return [write_vega_bundle(root)]


def render(kind: str, spec: dict[str, Any], scale: float = 1) -> Any:
    """vl-convert's `kind` ("svg", "png" or "pdf") of `spec`. Each output format of a Quarto
    render draws the same charts in a fresh kernel, so renders are kept in the result cache
    (analysis.data.cache), keyed by the spec and vl-convert's version."""
    spec_json = json.dumps(spec, separators=(",", ":"))
    return _render(kind, spec_json, float(scale), vlc.__version__, _versions()["vl_version"])


@cached
def _render(kind: str, spec_json: str, scale: float, _converter: str, vl_version: str) -> Any:
    spec = json.loads(spec_json)
    if kind == "svg":
        return vlc.vegalite_to_svg(spec, vl_version=vl_version)
    if kind == "png":
        return vlc.vegalite_to_png(spec, scale=scale, vl_version=vl_version)
    if kind == "pdf":
        return vlc.vegalite_to_pdf(spec, vl_version=vl_version)
    raise ValueError(f"unknown render kind {kind!r}")


@memo
def _bundle_header() -> str:
    """The bundle's first line: the versions it is built from."""
    return (
        f"/* vega {vlc.get_vega_version()}, vega-lite {_versions()['vl_version']}, "
        f"vega-embed {vlc.get_vega_embed_version()}: built by vl-convert {vlc.__version__} */\n"
    )


@memo
def _bundle_js() -> str:
    # The bundle declares top-level consts; the function scope keeps them off the global scope,
    # and the guard makes a second load harmless.
    bundle = vlc.javascript_bundle(vl_version=_versions()["vl_version"])
    return (
        _bundle_header()
        + "(function () {\nif (window.vegaEmbed) { return; }\n"
        + bundle
        + "\n})();\n"
    )


@memo
def _versions() -> dict[str, str]:
    # Render with the Vega-Lite version Altair writes specs for (e.g. "v6.4.1" -> "6.4").
    major_minor = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    return {"vl_version": major_minor}


def follow_patch(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """A JSON Patch (RFC 6902) of the chart's compiled Vega, for vega-embed's `patch` option:
    an input bound to a param with an `expr` shows the expression's value again whenever a
    signal the expression names changes (a picked preset), and the reader's edits in between.

    Vega-Lite compiles such a param to a signal evaluated once (`init`), so the input would
    keep its first value after the preset changes; Vega's `on` handlers re-evaluate it on each
    change without overwriting edits, as an `update` expression would. Empty (no patch) for a
    chart without such a param. Each operation is preceded by a `test` of the signal's name, so
    a compile that differs in the browser fails the chart visibly instead of patching another
    signal."""
    if not any("bind" in p and "expr" in p for p in spec.get("params") or []):
        return []
    signals = vlc.vegalite_to_vega(spec, vl_version=_versions()["vl_version"]).get("signals", [])
    names = [s["name"] for s in signals]
    ops: list[dict[str, Any]] = []
    for i, s in enumerate(signals):
        if "bind" not in s or "init" not in s:
            continue
        named = [
            n for n in names if n != s["name"] and re.search(rf"\b{re.escape(n)}\b", s["init"])
        ]
        ops += [
            {"op": "test", "path": f"/signals/{i}/name", "value": s["name"]},
            {
                "op": "add",
                "path": f"/signals/{i}/on",
                "value": [{"events": [{"signal": n} for n in named], "update": s["init"]}],
            },
        ]
    return ops


def _patch_option(ops: list[dict[str, Any]]) -> str:
    """The vega-embed option line for `ops`, or nothing (the embed of most charts unchanged)."""
    if not ops:
        return ""
    return ",\n        patch: " + json.dumps(ops, separators=(",", ":")).replace("</", "<\\/")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _first(spec: dict[str, Any], key: str) -> Any:
    """`spec[key]`, else the first one in its layers, concatenated views or facet spec."""
    if spec.get(key):
        return spec[key]
    subs = [spec.get("spec")] + [
        s for k in ("layer", "concat", "hconcat", "vconcat") for s in spec.get(k) or []
    ]
    for sub in subs:
        if isinstance(sub, dict):
            found = _first(sub, key)
            if found:
                return found
    return None


def _stable_svg_ids(svg: str) -> str:
    """Renumber gradient and clip-path ids from 1, in order of appearance.

    Vega numbers them with counters global to its JS runtime, so the same chart rendered later in
    a session (after the HTML fallback PNG, or after another chart) gets other ids.
    """
    ids = re.findall(r'\bid="((?:gradient_|clip)\d+)"', svg)
    mapping: dict[str, str] = {}
    for old in ids:
        if old not in mapping:
            prefix = "gradient_" if old.startswith("gradient_") else "clip"
            count = sum(new.startswith(prefix) for new in mapping.values()) + 1
            mapping[old] = f"{prefix}{count}"
    if not mapping:
        return svg

    def swap(match: re.Match) -> str:
        return mapping.get(match.group(0), match.group(0))

    return re.sub(r'(?<=id=")[^"]+(?=")|(?<=#)(?:gradient_|clip)\d+\b', swap, svg)


def _title_text(title: Any) -> str:
    if isinstance(title, dict):
        title = title.get("text", "")
    if isinstance(title, list):
        title = " ".join(str(part) for part in title)
    return str(title or "")


# The loader promise lives on window, so the bundle is fetched once per page however many charts.
_EMBED_HTML = """\
<style>
.book-chart {{ width: 100%; }}
.book-chart .vega-embed {{ display: block; width: 100%; max-width: 100%; }}
.book-chart .vega-embed details, .book-chart .vega-embed details summary {{ position: relative; }}
.book-chart svg, .book-chart canvas {{ max-width: 100%; height: auto; }}
</style>
<div id="{id}" class="book-chart"></div>
<noscript><img src="data:image/png;base64,{png}" alt="{alt}" style="max-width: 100%"></noscript>
<script>
(function () {{
  var spec = {spec};
  function loadBundle() {{
    if (window.vegaEmbed) {{ return Promise.resolve(); }}
    if (!window.bookVegaBundle) {{
      var meta = document.querySelector('meta[name="quarto:offset"]');
      var offset = meta ? meta.getAttribute("content") : "./";
      window.bookVegaBundle = new Promise(function (resolve, reject) {{
        var script = document.createElement("script");
        script.src = offset + "{bundle}";
        script.onload = resolve;
        script.onerror = function () {{ reject(new Error("could not load " + script.src)); }};
        document.head.appendChild(script);
      }});
    }}
    return window.bookVegaBundle;
  }}
  loadBundle()
    .then(function () {{
      return vegaEmbed("#{id}", spec, {{
        renderer: "svg",
        actions: {{export: true, source: false, compiled: false, editor: false}}{patch}
      }});
    }})
    .catch(function (error) {{
      document.getElementById("{id}").textContent = "Chart failed to load: " + error;
    }});
}})();
</script>
"""
