"""Every chart the book builds, as the figure kit of the offline preview holds it (the preview
runs every chapter): it fits the text column, its date axes show years, its images carry the
source line, and its citation names it as the book numbers it."""

from __future__ import annotations

import itertools
import json
import re
import struct
from html import unescape
from pathlib import Path

import pytest
import vl_convert as vlc

from analysis.book import figure_kit
from analysis.book.show import is_responsive
from analysis.data import release as data
from analysis.figures import theme

COLUMN = 749  # the book theme's text column at desktop widths (a real Quarto 1.10.18 render)
BOOK_URL = "https://inference-economics.github.io/book/"  # _quarto.yml's citation url


@pytest.fixture(scope="module")
def kit(preview_site) -> list[dict]:
    records = [json.loads(p.read_text()) for p in figure_kit.record_files(preview_site / "figures")]
    assert len(records) >= 15
    for record in records:
        record["folder"] = preview_site / "figures" / record["chapter"]
    return records


def svg_of(record: dict) -> str:
    return (record["folder"] / f"{record['id'].split('/')[1]}.svg").read_text()


def page_of(record: dict) -> str:
    """The page a figure sits on, relative to the site: the summary at the root."""
    chapter = record["chapter"]
    return "index.html" if chapter == "index" else f"chapters/{chapter}.html"


def spec_of(record: dict) -> dict:
    name = record["id"].split("/")[1]
    return json.loads((record["folder"] / f"{name}{figure_kit.SPEC_SUFFIX}").read_text())


def svg_size(svg: str) -> tuple[float, float]:
    found = re.match(r'<svg[^>]*\swidth="([\d.]+)" height="([\d.]+)"', svg)
    return float(found.group(1)), float(found.group(2))


def test_every_chart_fits_the_column(kit):
    """Single and layered views take the column's width in the HTML (`width: "container"`) and
    are drawn 720 px wide in every image; facets and concatenations must fit as built."""
    too_wide = []
    for record in kit:
        spec = spec_of(record)
        width = svg_size(vlc.vegalite_to_svg(spec, vl_version=spec_version(spec)))[0]
        if width > COLUMN:
            too_wide.append(f"{record['id']}: {width:g} px")
        if is_responsive(spec):
            assert width == theme.FIXED_WIDTH, record["id"]
    assert too_wide == []


def spec_version(spec: dict) -> str:
    return re.search(r"/v(\d+\.\d+)", spec["$schema"]).group(1)


def test_the_html_gives_single_and_layered_views_the_columns_width(preview_site, kit):
    responsive = [r for r in kit if is_responsive(spec_of(r))]
    assert len(responsive) >= 10
    for record in responsive:
        page = (preview_site / page_of(record)).read_text()
        name = record["id"].split("/")[1]
        # nbconvert may reorder the div's attributes
        embed = re.search(
            rf'<div [^>]*id="vega-{re.escape(name)}-\d+"[^>]*>.*?var spec = (\{{.*?\}});\n',
            page,
            re.S,
        )
        assert embed, f"no chart {name} on its page"
        assert '"width":"container"' in embed.group(1), name


def axis_labels(svg: str) -> dict[str, list[str]]:
    """Each axis's aria-label (which names its scale type) and its tick labels."""
    axes = {}
    for match in re.finditer(r'<g class="mark-group role-axis" [^>]*aria-label="([^"]*)"', svg):
        rest = svg[match.end() :]
        labels = re.search(r'<g class="mark-text role-axis-label"[^>]*>(.*?)</g>', rest, re.S)
        axes[match.group(1)] = re.findall(r"<text[^>]*>([^<]*)</text>", labels.group(1))
    return axes


def test_every_date_axis_shows_years(kit):
    date_axes = 0
    for record in kit:
        for axis, labels in axis_labels(svg_of(record)).items():
            if "time scale" in axis or "utc scale" in axis:
                date_axes += 1
                yearless = [label for label in labels if not re.search(r"\b(19|20)\d\d\b", label)]
                assert yearless == [], f"{record['id']}: {axis[:40]}...: {yearless}"
    assert date_axes >= 10


def test_every_kit_image_carries_its_source_line(kit):
    version = data.current_version()
    for record in kit:
        svg = svg_of(record)
        group = re.search(r'<g class="source-line"[^>]*>(.*?)</g>', svg, re.S)
        assert group, f"{record['id']}: no source line"
        lines = [unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", group.group(1))]
        text = " ".join(lines)
        assert text.startswith("Source: ")
        assert f"Data version {version}" in text
        url = f"{BOOK_URL}{page_of(record)}#{record['label']}"
        assert url in "".join(lines), "the address, broken only after / or #"
        width = svg_size(svg)[0]
        limit = (width - 16) / (
            figure_kit.SOURCE_LINE_FONT_SIZE * figure_kit.SOURCE_LINE_CHAR_WIDTH
        )
        assert all(len(line) <= limit for line in lines), (
            f"{record['id']}: a line wider than the image"
        )
        assert f"Figure {record['number']} of The Economics of AI Inference" in text
        name = record["id"].split("/")[1]
        png = (record["folder"] / f"{name}.png").read_bytes()
        size = struct.unpack(">II", png[16:24])
        expected = [2 * v for v in svg_size(svg)]
        assert all(abs(a - b) <= 1 for a, b in zip(size, expected, strict=True)), "SVG at scale 2"


def test_citations_name_the_figure_as_the_book_numbers_it(kit, preview_site):
    by_label = {record["label"]: record for record in kit}
    # The book's order (_quarto.yml): data 1, token prices 2, price war 3, workload costs 4,
    # fixed capability 5, quality-adjusted 6, GPU-hour prices 7, tokens per dollar 8; the
    # summary and parts unnumbered.
    expected = {
        "fig-data-token-coverage": "1.1",
        "fig-token-prices-history": "2.1",
        "fig-price-war-cuts": "3.1",
        "fig-workload-costs-buckets": "4.1",
        "fig-fixed-capability-gpqa": "5.1",
        "fig-fixed-capability-a16z": "5.2",
        "fig-tokens-per-dollar-throughput": "8.1",
    }
    for label, number in expected.items():
        record = by_label[label]
        assert record["number"] == number
        assert record["citation"].startswith(f"Figure {number}: {record['title']}. ")
        page = (preview_site / page_of(record)).read_text()
        assert f"<strong>Figure {number}</strong>" in page, "the page captions it the same"
    assert all(record["number"] for record in kit), "every figure has a labelled cell"


def test_every_kit_file_is_in_its_record(kit):
    for record in kit:
        listed = set(record["files"])
        name = record["id"].split("/")[1]
        on_disk = {
            p.name
            for p in Path(record["folder"]).iterdir()
            if p.name.startswith(f"{name}.")
            or re.match(rf"{re.escape(name)}-(layer|view)\d", p.name)
        } - {f"{name}.json"}
        assert on_disk == listed, record["id"]


# --- every chart at the 1024 px window's column --------------------------------------------------
# Rendered with vl-convert at the column a 1024 px window leaves (541 px with the page's padding:
# theme.NARROW_COLUMN_WIDTH is 536 px of text), the chart's scenegraph gives every text mark's
# anchor; its extent is estimated from its length (CHAR_WIDTH of the font size per character, an
# overestimate for Helvetica's lower case), so two visible labels of one axis that overlap, or a
# text that runs past the chart's edge, are found without a browser.
NARROW = 541
CHAR_WIDTH = 0.5


def text_boxes(scene: dict) -> list[dict]:
    """Every visible text mark of a vl-convert scenegraph: its role, text and estimated box in
    the chart's coordinates (the scene's origin and each group's offset added up); and the ticks
    of vertical axes (role `axis-tick`, their row's `y`), for the labels' rows."""
    boxes: list[dict] = []

    def walk(node: dict, dx: float, dy: float, role: str, marktype: str, group: int) -> None:
        for item in node.get("items") or []:
            x, y = dx + item.get("x", 0), dy + item.get("y", 0)
            if role == "axis-tick" and item.get("x2"):  # a tick of a vertical axis, at its row
                boxes.append({"role": role, "y": y, "axis": node["axis"]})
            if marktype == "text" and item.get("text") not in (None, "") and item.get("opacity", 1):
                lines = [item["text"]] if isinstance(item["text"], str) else item["text"]
                text = " ".join(lines)  # a multi-line text is as wide as its longest line
                size = item.get("fontSize", 11)
                width = max(len(line) for line in lines) * size * CHAR_WIDTH
                # Vega cuts a text longer than its `limit` (px) there, with an ellipsis.
                limit = item.get("limit") or 0
                shown = text
                if 0 < limit < width:
                    width = limit
                    shown = text[: max(int(limit / (size * CHAR_WIDTH)) - 1, 0)] + "…"
                angle = item.get("angle", 0) or 0
                align = item.get("align", "left")
                left = x - (width if align == "right" else width / 2 if align == "center" else 0)
                if angle % 180 != 0:  # rotated: only the vertical run matters here
                    left, width = x - size / 2, size
                boxes.append(
                    {
                        "role": role,
                        "text": text,
                        "shown": shown,
                        "x0": left,
                        "x1": left + width,
                        "y": y,
                        "size": size,
                        "group": group,
                        "angle": angle,
                        "lines": len(lines),
                        "baseline": item.get("baseline"),
                        "axis": node.get("axis"),
                    }
                )
            if "items" in item:
                if node.get("role") == "axis":  # the axis's ticks and labels share its id
                    for mark in item["items"]:
                        mark["axis"] = id(item)
                walk(item, x, y, item.get("role", role), item.get("marktype", ""), id(item))

    origin = scene.get("origin", [0, 0])
    walk(scene["scenegraph"], origin[0], origin[1], "", scene["scenegraph"].get("marktype", ""), 0)
    return boxes


def _label_groups(boxes: list[dict]) -> list[list[dict]]:
    """The labels of each axis (its label group) and of all legends, cut by Vega's limit."""
    by_axis: dict[int, list[dict]] = {}
    for box in boxes:
        if box["role"] == "axis-label":
            by_axis.setdefault(box["group"], []).append(box)
    legend = [b for b in boxes if b["role"] == "legend-label"]
    return [
        group
        for group in [*by_axis.values(), legend]
        if any(b["shown"] != b["text"] for b in group)
    ]


def reading_problems(spec: dict, width: int = NARROW) -> list[str]:
    from analysis.book.show import sized

    scene = vlc.vegalite_to_scenegraph(sized(spec, width) if is_responsive(spec) else spec)
    boxes, problems = text_boxes(scene), []
    total = scene["width"]
    for box in (b for b in boxes if b["role"] != "axis-tick"):
        if box["x0"] < -1 or box["x1"] > total + 1:
            problems.append(f"text {box['text']!r} runs past the chart's edge")
    labels = [b for b in boxes if b["role"] == "axis-label" and b["angle"] % 180 == 0]
    by_axis: dict[int, list[dict]] = {}
    for label in labels:
        by_axis.setdefault(label["group"], []).append(label)
    for axis in by_axis.values():
        row = sorted((b for b in axis if abs(b["y"] - axis[0]["y"]) < 1), key=lambda b: b["x0"])
        for left, right in itertools.pairwise(row):
            if left["x1"] > right["x0"] + 1:
                problems.append(f"tick labels {left['text']!r} and {right['text']!r} overlap")
        # a vertical axis: labels in one column, each as tall as its font; a label's further
        # lines go below its first, which sits on its row, one font size and 2 px apart (Vega's
        # default line height)
        column = sorted((b for b in axis if abs(b["x1"] - axis[0]["x1"]) < 1), key=lambda b: b["y"])
        for above, below in itertools.pairwise(column):
            under = (above["lines"] - 1) * (above["size"] + 2)
            if below["y"] - above["y"] < under + min(above["size"], below["size"]) - 1:
                problems.append(f"tick labels {above['text']!r} and {below['text']!r} overlap")
    # A label of several lines on a vertical axis is centred on its row's tick: Vega draws its
    # first line there and the others under it, unless the axis lifts it (theme.two_lines_centred).
    axes: dict[int, tuple[list, list]] = {}
    for box in boxes:
        if box.get("axis") is not None and box["role"] in ("axis-tick", "axis-label"):
            axes.setdefault(box["axis"], ([], []))[box["role"] == "axis-label"].append(box)
    for ticks, labels in axes.values():
        if not ticks or len(ticks) != len(labels):
            continue
        for tick, label in zip(ticks, labels, strict=True):
            centre = label["y"] + (label["lines"] - 1) * (label["size"] + 2) / 2
            if label["baseline"] == "middle" and abs(centre - tick["y"]) > 1:
                problems.append(
                    f"label {label['text']!r} sits {centre - tick['y']:+.0f} px off its row"
                )
    # Labels of one axis or legend that Vega cuts to the same text read as one.
    for group in _label_groups(boxes):
        shown = [b["shown"] for b in group]
        problems += [f"label {t!r} appears twice" for t in sorted(set(shown)) if shown.count(t) > 1]
    return problems


def test_the_reading_check_catches_overlapping_ticks_and_clipped_text():
    crowded = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "data": {"values": [{"a": f"a long category name {i}", "b": i} for i in range(20)]},
        "mark": "bar",
        "encoding": {
            "x": {"field": "a", "type": "nominal", "axis": {"labelAngle": 0}},
            "y": {"field": "b", "type": "quantitative"},
        },
    }
    found = reading_problems(crowded)
    assert any("overlap" in p for p in found), found
    calm = {**crowded, "data": {"values": [{"a": f"c{i}", "b": i} for i in range(4)]}}
    assert reading_problems(calm) == []
    # twenty categories in 100 px: labels of a vertical axis on top of each other
    stacked = {
        **crowded,
        "height": 100,
        "encoding": {
            "y": {"field": "a", "type": "nominal"},
            "x": {"field": "b", "type": "quantitative"},
        },
    }
    assert any("overlap" in p for p in reading_problems(stacked)), reading_problems(stacked)
    # labels on two lines in rows 16 px apart run into each other (each is about 24 px tall)
    wrapped = {
        **stacked,
        "height": {"step": 16},
        "data": {"values": [{"a": f"model {i} (a long seller name)", "b": i} for i in range(6)]},
        "encoding": {
            "y": {"field": "a", "type": "nominal", "axis": {"labelExpr": theme.wrapped(most=10)}},
            "x": {"field": "b", "type": "quantitative"},
        },
    }
    assert any("overlap" in p for p in reading_problems(wrapped)), reading_problems(wrapped)
    wrapped["height"] = {"step": 30}
    # in rows far enough apart, a two-line label not lifted half a line sits below its row
    assert any("px off its row" in p for p in reading_problems(wrapped)), reading_problems(wrapped)
    wrapped["encoding"]["y"]["axis"] = theme.wrapped_axis(most=10, size=10).to_dict()
    assert reading_problems(wrapped) == []
    # two labels Vega cuts at its 180 px label limit to the same text
    long = "a very long model name that the axis cuts off at its limit"
    cut = {
        **crowded,
        "data": {"values": [{"a": f"{long} {i}", "b": i} for i in range(2)]},
        "encoding": {
            "y": {"field": "a", "type": "nominal"},
            "x": {"field": "b", "type": "quantitative"},
        },
    }
    assert any("appears twice" in p for p in reading_problems(cut)), reading_problems(cut)


def test_every_chart_reads_at_the_narrow_column(kit):
    found = {r["id"]: reading_problems(spec_of(r)) for r in kit}
    assert {k: v for k, v in found.items() if v} == {}


def split_legends(spec) -> list[str]:
    """Fields a view encodes in both colour and shape whose legends Vega-Lite does not merge into
    one (the shape's hidden, or a `sort` on either channel): the reader then sees circles, or two
    lists of the same labels, where the marks are squares and triangles."""
    found: list[str] = []
    if isinstance(spec, dict):
        encoding = spec.get("encoding") or {}
        color, shape = encoding.get("color"), encoding.get("shape")
        if isinstance(color, dict) and isinstance(shape, dict):
            field = color.get("field")
            if field and field == shape.get("field"):
                hidden = "legend" in shape and shape["legend"] is None
                if hidden or "sort" in color or "sort" in shape:
                    found.append(field)
        for value in spec.values():
            found += split_legends(value)
    elif isinstance(spec, list):
        for item in spec:
            found += split_legends(item)
    return found


def test_the_legend_check_finds_a_hidden_shape_legend():
    view = {"mark": "point", "encoding": {"color": {"field": "m"}, "shape": {"field": "m"}}}
    assert split_legends({"layer": [view]}) == []
    view["encoding"]["shape"]["legend"] = None
    assert split_legends({"layer": [view]}) == ["m"]
    view["encoding"]["shape"] = {"field": "m", "sort": ["a", "b"]}
    assert split_legends(view) == ["m"]


def test_one_field_in_colour_and_shape_has_one_legend(kit):
    found = {r["id"]: split_legends(spec_of(r)) for r in kit}
    assert {k: v for k, v in found.items() if v} == {}


# Vega cuts a text longer than its `limit` with an ellipsis; vl-convert measures text as the
# browser does (the labels it cuts are those the preview's pages show cut, checked by hand on the
# six pages of issue 24), so its SVG shows what a reader loses.
CUT_TEXT = re.compile(r">([^<>]*…)<")


def cut_texts(spec: dict, width: int) -> list[str]:
    """The texts of `spec` drawn at `width` px that Vega cuts off (each ends in "…")."""
    from analysis.book.show import sized

    svg = vlc.vegalite_to_svg(sized(spec, width) if is_responsive(spec) else spec)
    return [unescape(text) for text in CUT_TEXT.findall(svg)]


def test_the_cut_check_finds_a_label_cut_at_its_limit():
    long = "a very long model name that the axis cuts off at its limit"
    spec = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "data": {"values": [{"a": long, "b": 1}, {"a": "short", "b": 2}]},
        "mark": "bar",
        "encoding": {
            "y": {"field": "a", "type": "nominal"},
            "x": {"field": "b", "type": "quantitative"},
        },
    }
    assert [t.startswith("a very long") for t in cut_texts(spec, NARROW)] == [True]
    spec["encoding"]["y"]["axis"] = {"labelExpr": theme.wrapped("datum.label"), "labelLimit": 0}
    assert cut_texts(spec, NARROW) == []


def test_no_chart_cuts_a_label_at_either_width(kit):
    """A label cut to "kimi-k3 (Moonshot AI (Kimi), m…" names no offer: every axis label, legend
    entry and title is whole at the narrow column and at the desktop one. Failed before the offer
    axes and the trends' threshold axes wrapped long names (main at 2a919f9: the workload bills'
    "kimi-k3 (Moonshot AI (Kimi), m…", the extension's "deepseek-reasoner (DeepSeek API m…" and
    two other charts)."""
    found = {}
    for record in kit:
        cut = [t for w in (NARROW, COLUMN) for t in cut_texts(spec_of(record), w)]
        if cut:
            found[record["id"]] = sorted(set(cut))
    assert found == {}


def marks_of(scene: dict, marktype: str) -> list[dict]:
    """Every item of `marktype` in a vl-convert scenegraph, with its x and y in the chart's
    coordinates (`x0`, `x1` for a rect; the anchor `x`, its `align` and `fill` for a text)."""
    found: list[dict] = []

    def walk(node: dict, dx: float, dy: float, kind: str) -> None:
        for item in node.get("items") or []:
            x, y = dx + item.get("x", 0), dy + item.get("y", 0)
            if kind == marktype:
                found.append({**item, "x": x, "y": y, "x1": x + item.get("width", 0)})
            if "items" in item:
                walk(item, x, y, item.get("marktype", ""))

    origin = scene.get("origin", [0, 0])
    walk(scene["scenegraph"], origin[0], origin[1], scene["scenegraph"].get("marktype", ""))
    return found


def test_every_calculator_label_reads_beside_or_inside_its_bar(kit):
    """The calculator's bill labels: a label on its bar is white and ends inside it; any other
    starts right of its bar's end, in the dark text colour. Before (main at 2a919f9) every label
    started at the axis in black, so a short bar's "$3,061" ran across the bar's end, dark on
    blue. Checked for each preset at both widths."""
    from analysis.book.show import sized

    (record,) = [r for r in kit if r["id"] == "workload-costs/workload-costs-calculator"]
    spec = spec_of(record)
    presets = next(p for p in spec["params"] if p["name"] == "presets")["value"]
    problems = []
    for preset, width in itertools.product(presets, (NARROW, COLUMN)):
        picked = json.loads(json.dumps(spec))
        next(p for p in picked["params"] if p["name"] == "preset")["value"] = preset
        scene = vlc.vegalite_to_scenegraph(sized(picked, width))
        bars = marks_of(scene, "rect")
        bars = [b for b in bars if b.get("height", 0) > 5 and b["x"] >= 0]  # not the background
        labels = [t for t in marks_of(scene, "text") if str(t.get("text", "")).startswith("$")]
        assert len(labels) >= 4, (preset, width, labels)
        for label in labels:
            text, size = label["text"], label.get("fontSize", 11)
            bar = next(b for b in bars if b["y"] <= label["y"] <= b["y"] + b["height"])
            right = label.get("align") == "right"
            start = label["x"] - (len(text) * size * CHAR_WIDTH if right else 0)
            if right and not (label.get("fill") == "white" and bar["x"] <= start):
                problems.append(f"{preset} {width}: {text} on its bar is not white inside it")
            if not right and (label["x"] < bar["x1"] or label.get("fill") in (None, "white")):
                problems.append(f"{preset} {width}: {text} is not dark beside its bar")
    assert problems == []


# --- names, not ids ------------------------------------------------------------------------------
# Readers see names: no page's text, table cell or chart label, and no field a chart encodes
# (axes, legends, facets, tooltips), shows the raw id of a provider, GPU or model that the
# display-name table (analysis.report.names) names. The ids come from the release's data.


def named_ids() -> dict[str, str]:
    """{id: kind} of every provider, GPU and model id in the latest release whose display name
    differs from the id."""
    from analysis.report import names

    in_data = {
        "provider": set(data.load("token_prices")["provider"])
        | set(data.load("gpu_hour_prices")["provider"]),
        "gpu": set(data.load("gpu_hour_prices")["gpu"])
        | set(data.load("mlperf_results")["accelerator"]),
        "model": set(data.load("token_prices")["model_id"])
        | set(data.load("benchmark_scores")["model_id"]),
    }
    return {
        key: kind
        for kind, keys in in_data.items()
        for key in keys & names.known_ids(kind)
        if names.display_name(kind, key) != key
    }


# In running prose an id is looked for only where it cannot be an ordinary word ("together",
# "modal" and "seed" are providers' ids): with a hyphen, a dot or a digit in it.
SLUG_LIKE = re.compile(r"[-.\d]")


def reader_text(html: str) -> tuple[str, list[str]]:
    """A page's prose (scripts, styles, code and tags removed) and the text of its table cells."""
    body = re.sub(r"<(script|style|pre|code|noscript)\b.*?</\1>", " ", html, flags=re.S)
    cells = [
        unescape(re.sub(r"<[^>]+>", "", c)).strip()
        for c in re.findall(r"<t[dh]\b[^>]*>(.*?)</t[dh]>", body, re.S)
    ]
    return unescape(re.sub(r"<[^>]+>", " ", body)), cells


def ids_in_prose(text: str, ids: dict[str, str]) -> list[str]:
    tokens = set(re.findall(r"(?<![\w/])[a-z0-9][a-z0-9._+-]*[a-z0-9]", text))
    return sorted(t for t in tokens if t in ids and SLUG_LIKE.search(t))


def encoded_fields(spec) -> set[str]:
    """Every field a chart encodes, in any view, layer or facet."""
    found: set[str] = set()
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key in ("encoding", "facet") and isinstance(value, dict):
                for channel in value.values():
                    for item in channel if isinstance(channel, list) else [channel]:
                        if isinstance(item, dict) and isinstance(item.get("field"), str):
                            found.add(item["field"])
                        elif isinstance(item, str):
                            found.add(item.split(":")[0])
            found |= encoded_fields(value)
    elif isinstance(spec, list):
        for item in spec:
            found |= encoded_fields(item)
    return found


def ids_in_chart(spec: dict, ids: dict[str, str]) -> list[str]:
    fields = encoded_fields(spec)
    values = {
        str(row[f])
        for rows in (spec.get("datasets") or {}).values()
        for row in rows
        for f in fields
        if f in row
    }
    scene = vlc.vegalite_to_scenegraph(spec)
    labels = {b["text"] for b in text_boxes(scene) if b["role"] != "axis-tick"}
    return sorted((values | labels) & set(ids))


def without_glosses(text: str, ids: dict[str, str]) -> str:
    """`text` without the display names that hold their own id (the models table names the
    DeepSeek API's moving alias "deepseek-chat (DeepSeek API moving alias)"): there the id is the
    name a reader sees, and the id alone is still found."""
    from analysis.report import names

    for key, kind in ids.items():
        name = names.display_name(kind, key)
        if key in name:
            text = text.replace(name, " ")
    return text


def test_the_check_finds_raw_ids_in_prose_cells_and_charts():
    ids = {"claude-opus-5.5": "model", "amazon-web-services": "provider", "together": "provider"}
    text, cells = reader_text(
        "<p>claude-opus-5.5 costs more, together with others</p><pre>amazon-web-services</pre>"
        "<table><tr><td>together</td><td>Together</td></tr></table>"
    )
    assert ids_in_prose(text, ids) == ["claude-opus-5.5"]
    alias = {"deepseek-chat": "model"}  # named "deepseek-chat (DeepSeek API moving alias)"
    glossed = "deepseek-chat (DeepSeek API moving alias) and deepseek-chat"
    assert ids_in_prose(without_glosses(glossed, alias), alias) == ["deepseek-chat"]
    assert ids_in_prose(without_glosses(glossed.split(" and ")[0], alias), alias) == []
    assert [c for c in cells if c in ids] == ["together"]
    chart = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "datasets": {"d": [{"p": "amazon-web-services", "n": "Amazon Web Services", "v": 1}]},
        "data": {"name": "d"},
        "mark": "bar",
        "encoding": {"y": {"field": "n", "type": "nominal"}, "x": {"field": "v"}},
    }
    assert ids_in_chart(chart, ids) == []
    chart["encoding"]["tooltip"] = [{"field": "p", "type": "nominal"}]
    assert ids_in_chart(chart, ids) == ["amazon-web-services"]


def test_the_names_pass_names_ids_in_running_text():
    """By hand from data/2026-12-03.2/models.csv (name column) and
    analysis/data/tables/provider_names.csv: an id in a sentence reads as its name; a path, a
    bare word and an id inside a longer token stay as written."""
    from analysis.report import names

    text = (
        "First-party list price of claude-opus-5.5 (aimeter-pricing); gpt-5.6 is gpt-5.6-sol "
        "under a second id. See data/entries/gpt-6-sol.csv, together with gpt-6-sol-x and "
        "gpt-6-sol at deepinfra-turbo."
    )
    assert names.in_text(text, "2026-12-03.2") == (
        "First-party list price of Claude Opus 5.5 (aimeter-pricing); gpt-5.6 is GPT-5.6 Sol "
        "under a second id. See data/entries/gpt-6-sol.csv, together with gpt-6-sol-x and "
        "GPT-6 Sol at DeepInfra Turbo."
    )


def test_pages_and_charts_show_names_not_ids(preview_site, kit):
    ids = named_ids()
    assert len(ids) > 100, "ids with a display name, from the data"
    found = {}
    for page in sorted(preview_site.rglob("*.html")):
        if page.parent.name == "figures" or "figures" in page.relative_to(preview_site).parts:
            continue
        text, cells = reader_text(page.read_text())
        raw = ids_in_prose(without_glosses(text, ids), ids) + sorted({c for c in cells if c in ids})
        if raw:
            found[str(page.relative_to(preview_site))] = raw
    for record in kit:
        raw = ids_in_chart(spec_of(record), ids)
        if raw:
            found[record["id"]] = raw
    # Every page and chart: text written with ids (the ledger's evidence, a release's
    # description) reaches the reader through analysis.report.names.in_text.
    assert found == {}
