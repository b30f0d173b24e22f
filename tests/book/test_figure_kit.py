"""The figure kit: `show()` writes PNG, SVG, CSV and a citable JSON record when asked to."""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
import subprocess
import sys
from datetime import date
from html import unescape
from pathlib import Path

import altair as alt
import polars as pl
import pytest
import vl_convert as vlc
from polars.testing import assert_frame_equal

from analysis.book import figure_kit, postrender
from analysis.book import notebook as chapters
from analysis.book import show as charts
from analysis.data import release as data
from analysis.data.paths import ROOT
from analysis.figures import theme

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PRICES = pl.DataFrame(
    {
        "month": [1, 2, 3, 4],
        "usd": [10.0, 5.0, 2.5, 1.25e-05],
        "model": ["a", "b, c", 'quoted "d"', "e"],
        "open_weights": [True, False, None, True],
    }
)


@pytest.fixture
def kit(monkeypatch, tmp_path) -> Path:
    """The kit on, for chapter `prices`, as `make book` and the chapter setup cell set it."""
    folder = tmp_path / "kit"
    monkeypatch.setenv(figure_kit.KIT_ENV, str(folder))
    monkeypatch.setenv(figure_kit.CHAPTER_ENV, "prices")
    monkeypatch.delenv(charts.FORMAT_OVERRIDE_ENV, raising=False)
    monkeypatch.delenv(charts.EXECUTE_INFO_ENV, raising=False)
    return folder


def line_chart(df: pl.DataFrame = PRICES) -> alt.Chart:
    return (
        alt.Chart(df, title="Price per month", description="A falling line")
        .mark_line()
        .encode(x="month", y="usd")
    )


def gradient_chart() -> alt.Chart:
    """A quantitative colour legend: vega draws it with a numbered SVG gradient."""
    return alt.Chart(PRICES).mark_point().encode(x="month", y="usd", color="usd")


def files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_show_writes_png_svg_csv_and_a_citable_record(kit):
    rendered = charts.show(line_chart(), "Trend")
    folder = kit / "prices"
    assert sorted(p.name for p in folder.iterdir()) == [
        "trend.csv",
        "trend.json",
        "trend.png",
        "trend.svg",
        "trend.vl.json",
    ]
    png, svg = (folder / "trend.png").read_bytes(), (folder / "trend.svg").read_text()
    assert png.startswith(PNG_MAGIC)
    assert png == vlc.svg_to_png(svg, scale=2), "the PNG is the SVG, source line included"
    assert svg.lstrip().startswith("<svg")
    assert json.loads((folder / "trend.vl.json").read_text()) == rendered.fixed_spec
    record = json.loads((folder / "trend.json").read_text())
    assert record["id"] == "prices/trend" == rendered.kit.figure_id
    assert record["number"] is None, "chapter `prices` is not in the book: no number"
    assert record["title"] == "Price per month"
    assert record["description"] == "A falling line"
    assert record["data_version"] == data.current_version()
    book_url = "https://inference-economics.github.io/book/"  # _quarto.yml's citation url
    assert record["citation"] == (
        f"Figure prices/trend: Price per month. In The Economics of AI Inference, {book_url}. "
        f"{data.citation()}"
    )
    assert record["files"] == {
        name: hashlib.sha256((folder / name).read_bytes()).hexdigest()
        for name in ["trend.png", "trend.svg", "trend.csv", "trend.vl.json"]
    }
    assert not list(folder.glob("*.tmp")), "temp files are renamed into place"


def test_running_it_twice_gives_byte_identical_files(kit):
    charts.show(gradient_chart(), "legend")
    charts.show(line_chart(), "trend")
    first = files(kit)
    # Vega's gradient ids count up across renders in one process: the kit renumbers them.
    charts.show(gradient_chart(), "other")._repr_mimebundle_()
    charts.show(gradient_chart(), "legend")
    charts.show(line_chart(), "trend")
    second = {name: content for name, content in files(kit).items() if "other" not in name}
    assert second == first
    assert b'id="gradient_1"' in first["prices/legend.svg"]


def test_without_the_variable_nothing_is_written(monkeypatch, tmp_path):
    monkeypatch.delenv(figure_kit.KIT_ENV, raising=False)
    monkeypatch.setenv(figure_kit.CHAPTER_ENV, "prices")
    monkeypatch.setenv(charts.FORMAT_OVERRIDE_ENV, "html")
    monkeypatch.chdir(tmp_path)
    rendered = charts.show(line_chart(), "trend")
    assert rendered.kit is None
    assert "Download:" not in rendered._repr_mimebundle_()["text/html"]
    assert list(tmp_path.iterdir()) == []


def test_csv_round_trips_the_chart_data(kit):
    charts.show(line_chart(), "trend")
    assert_frame_equal(pl.read_csv(kit / "prices" / "trend.csv"), PRICES)


def test_layers_with_their_own_data_get_their_own_csv(kit):
    rule = pl.DataFrame({"month": [2]})
    chart = alt.layer(
        line_chart(),
        alt.Chart(rule).mark_rule().encode(x="month"),
        line_chart().mark_point(),  # same data as the first layer: no file of its own
        alt.Chart(rule).mark_rule().encode(x="month"),  # same as layer 2
    )
    charts.show(chart, "layers")
    folder = kit / "prices"
    assert sorted(p.name for p in folder.glob("*.csv")) == ["layers-layer2.csv", "layers.csv"]
    assert_frame_equal(pl.read_csv(folder / "layers-layer2.csv"), rule)
    record = json.loads((folder / "layers.json").read_text())
    assert list(record["files"]) == [
        "layers.png",
        "layers.svg",
        "layers.csv",
        "layers-layer2.csv",
        "layers.vl.json",
    ]
    assert record["description"] == "A falling line"  # found in the first layer


def test_html_output_links_the_kit_from_the_site_root(kit, monkeypatch):
    monkeypatch.setenv(charts.FORMAT_OVERRIDE_ENV, "html")
    html = charts.show(line_chart(), "trend")._repr_mimebundle_()["text/html"]
    assert 'class="figure-kit-links"' in html
    for suffix in (".png", ".svg", ".csv"):
        assert f'data-kit-path="figures/prices/trend{suffix}"' in html
    assert 'data-kit-path="figures/index.html#prices/trend"' in html
    assert html.count('meta[name="quarto:offset"]') == 2  # the bundle loader and the links


def test_chapter_comes_from_quarto_when_the_setup_cell_did_not_set_it(kit, monkeypatch, tmp_path):
    monkeypatch.delenv(figure_kit.CHAPTER_ENV)
    monkeypatch.delenv("QUARTO_DOCUMENT_FILE", raising=False)
    info = tmp_path / "execute-info.json"
    info.write_text(json.dumps({"document-path": "/book/chapters/02-gpu-hours.qmd"}))
    monkeypatch.setenv(charts.EXECUTE_INFO_ENV, str(info))
    assert charts.show(line_chart(), "trend").kit.figure_id == "gpu-hours/trend"


def test_first_entry_of_a_run_clears_the_chapters_old_figures(kit):
    stale = kit / "prices" / "renamed-away.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"old")
    charts.show(line_chart(), "trend")
    assert not stale.exists()


def test_setup_cell_names_the_chapter(tmp_path):
    (tmp_path / "_quarto.yml").write_text("book:\n  chapters:\n    - chapters/01-prices.qmd\n")
    qmd = tmp_path / "chapters" / "01-prices.qmd"
    qmd.parent.mkdir()
    qmd.write_text("# Prices\n\n```{python}\nx = 1\n```\n")
    setup = chapters.to_notebook(qmd).cells[0]
    assert chapters.is_setup_cell(setup)
    assert "os.environ['BOOK_CHAPTER'] = 'prices'" in setup.source


def test_post_render_publishes_the_kit_and_its_index(kit, tmp_path):
    charts.show(line_chart(), "trend")
    index = postrender.publish_kit(tmp_path, output_dir="site", kit=kit)
    published = tmp_path / "site" / "figures"
    assert index == published / "index.html"
    assert files(kit) == {k: v for k, v in files(published).items() if k != "index.html"}
    page = index.read_text()
    assert "<code>prices/trend</code>" in page and "Price per month" in page
    assert "href='prices/trend.png'" in page and "href='prices/trend.json'" in page
    assert data.citation() in page
    assert postrender.publish_kit(tmp_path, output_dir="site", kit=tmp_path / "none") is None


def test_post_render_script_uses_quartos_output_dir(kit, tmp_path):
    """Quarto runs the script with QUARTO_PROJECT_OUTPUT_DIR set; the kit comes from the env."""
    charts.show(line_chart(), "trend")
    out = tmp_path / "book-out"
    env = {**os.environ, postrender.OUTPUT_DIR_ENV: str(out)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "analysis" / "book" / "postrender.py")],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "figure kit (1 figures) published" in done.stderr
    assert (out / "figures" / "prices" / "trend.svg").is_file()
    assert "prices/trend" in (out / "figures" / "index.html").read_text()


# ---------------------------------------------------------------------------------------------
# The source line, the book's figure numbers and the image widths

TINY_BOOK = """\
project:
  type: book
book:
  title: "Tiny book"
  author:
    - name: "Tiny authors"
  chapters:
    - index.qmd
    - part: chapters/part-one.qmd
      chapters:
        - chapters/01-intro.qmd
        - chapters/02-prices.qmd
citation:
  url: https://example.org/tiny
"""
PRICES_QMD = """\
# Prices

```{python}
#| label: tbl-prices-table
x = 1
```

```{python}
#| label: fig-prices-first
x = 2
```

```{python}
#| label: fig-prices-trend
#| fig-cap: "Trend"
x = 3
```
"""


@pytest.fixture
def tiny_book(kit, monkeypatch, tmp_path) -> Path:
    """A book whose second chapter, `prices`, has two figures: `trend` is Figure 2.2."""
    root = tmp_path / "book"
    (root / "chapters").mkdir(parents=True)
    (root / "_quarto.yml").write_text(TINY_BOOK)
    (root / "index.qmd").write_text("# Summary {.unnumbered}\n")
    (root / "chapters" / "part-one.qmd").write_text("# Part one\n")
    (root / "chapters" / "01-intro.qmd").write_text("# Intro\n")
    (root / "chapters" / "02-prices.qmd").write_text(PRICES_QMD)
    monkeypatch.chdir(root)  # chapters run from the project root
    return root


def test_the_record_cites_the_figure_by_its_number_in_the_book(tiny_book, kit):
    charts.show(line_chart(), "prices-trend")
    record = json.loads((kit / "prices" / "prices-trend.json").read_text())
    assert record["label"] == "fig-prices-trend"  # the name is the label without `fig-`
    assert record["number"] == "2.2"  # chapter 2 (index and part unnumbered), its second figure
    url = "https://example.org/tiny/chapters/02-prices.html#fig-prices-trend"
    assert record["url"] == url
    assert record["citation"].startswith(f"Figure 2.2: Price per month. In Tiny book, {url}. ")
    year = data.current_version()[:4]  # a release is named by its date
    assert record["apa"].startswith(
        f"Tiny authors. ({year}). Figure 2.2: Price per month [Figure]. "
    )
    assert record["apa"].endswith(f"In Tiny book (Data version {data.current_version()}). {url}")
    assert record["bibtex"].startswith("@incollection{tiny-book-")
    assert "  title = {Figure 2.2: Price per month},\n" in record["bibtex"]
    assert f"  url = {{{url}}}\n}}" in record["bibtex"]
    assert "Figure 2.2 of Tiny book" in record["source_line"]


def svg_texts(svg: str, group_class: str) -> list[str]:
    group = re.search(rf'<g class="{group_class}"[^>]*>(.*?)</g>', svg, re.S).group(1)
    return re.findall(r"<text[^>]*>([^<]*)</text>", group)


def test_the_kit_images_carry_a_source_line(tiny_book, kit):
    sourced = PRICES.with_columns(pl.lit("epoch-llm-price-trends").alias("source_id"))
    charts.show(line_chart(sourced), "prices-trend")
    svg = (kit / "prices" / "prices-trend.svg").read_text()
    text = " ".join(svg_texts(svg, "source-line"))
    version = data.current_version()
    # The publisher of source `epoch-llm-price-trends` and the year it was retrieved, as
    # sources.csv gives them (publisher "Epoch AI", retrieved 2025-03-13).
    assert text.startswith(
        f"Source: Epoch AI (2025) · Data version {version} · Figure 2.2 of Tiny book"
    )
    record = json.loads((kit / "prices" / "prices-trend.json").read_text())
    assert record["sources"] == ["Epoch AI (2025)"]
    assert record["source_records"][0]["retrieved"] == "2025-03-13"
    assert record["source_records"][0]["url"].endswith("epoch-research/llm-benchmark-efficiency")
    assert text.endswith("https://example.org/tiny/chapters/02-prices.html#fig-prices-trend")
    png = (kit / "prices" / "prices-trend.png").read_bytes()
    width, height = struct.unpack(">II", png[16:24])  # the PNG header's size
    svg_size = re.match(r'<svg[^>]*\swidth="([\d.]+)" height="([\d.]+)"', svg).groups()
    assert abs(width - 2 * float(svg_size[0])) <= 1 and abs(height - 2 * float(svg_size[1])) <= 1


def test_the_source_line_wraps_to_the_chart_and_grows_the_image():
    svg = charts.show(line_chart(), None).svg()
    long = "Source: " + "; ".join(f"Publisher {i}" for i in range(40))
    out = figure_kit.with_source_line(
        svg, long + " · https://example.org/a/b", "https://example.org/a/b"
    )
    width, height = (
        float(v) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"', svg).groups()
    )
    lines = svg_texts(out, "source-line")
    assert len(lines) >= 3 and lines[-1] == "https://example.org/a/b"
    assert " ".join(lines[:-1]) == long
    per_line = (width - 16) / (figure_kit.SOURCE_LINE_FONT_SIZE * 0.5)  # Helvetica averages 0.5em
    assert all(len(line) <= per_line for line in lines)
    new_height = float(re.search(r'<svg[^>]*\sheight="([\d.]+)"', out).group(1))
    assert new_height > height + 3 * figure_kit.SOURCE_LINE_FONT_SIZE
    assert f'viewBox="0 0 {width:g} {new_height:g}"' in out


def test_a_long_address_breaks_after_a_slash_and_stays_in_the_image():
    svg = charts.show(line_chart().properties(width=150).facet(column="model:N"), None).svg()
    url = "https://example.org/" + "a-long-folder-name/" * 8 + "page.html#fig-a-long-label-too"
    lines = svg_texts(figure_kit.with_source_line(svg, f"Source: x · {url}", url), "source-line")
    assert lines[0] == "Source: x" and "".join(lines[1:]) == url and len(lines) > 2
    width = float(re.search(r'width="([\d.]+)"', svg).group(1))
    per_line = (width - 16) / (figure_kit.SOURCE_LINE_FONT_SIZE * figure_kit.SOURCE_LINE_CHAR_WIDTH)
    assert all(len(line) <= per_line for line in lines)
    assert all(line.endswith(("/", "#")) for line in lines[1:-1])


def test_every_date_axis_shows_years(kit):
    days = pl.DataFrame(
        {"day": pl.date_range(date(2024, 3, 1), date(2025, 6, 30), "1d", eager=True)}
    ).with_columns(pl.int_range(pl.len()).alias("n"))
    for frame in (days, days.head(20)):  # fifteen months, and a few days of March
        chart = alt.Chart(frame).mark_line().encode(x="day:T", y="n:Q")
        labels = svg_texts(charts.show(chart, "days").svg(), "mark-text role-axis-label")
        assert labels and all(re.search(r"\b20\d\d\b", label) for label in labels), labels


def test_single_and_layered_views_take_the_fixed_width_and_the_columns_width(kit):
    layered = alt.layer(line_chart(), line_chart().mark_point())
    faceted = line_chart().properties(width=100).facet(column="model:N")
    for chart in (line_chart(), layered):
        rendered = charts.show(chart, "fits")
        svg_width = float(re.search(r'<svg[^>]*\swidth="([\d.]+)"', rendered.svg()).group(1))
        assert svg_width == theme.FIXED_WIDTH
        assert rendered.html_spec["width"] == "container"
    rendered = charts.show(faceted, "facet")
    assert not charts.is_responsive(rendered.spec)
    assert rendered.fixed_spec == rendered.html_spec == rendered.spec  # drawn as built


def test_the_book_and_figure_citations_read_back_through_pandoc(tiny_book):
    """The BibTeX is read back by an independent parser (pandoc's BibTeX reader, to CSL JSON):
    a group author stays one literal name, the year is the release's."""
    pypandoc = pytest.importorskip("pypandoc")
    version = data.current_version()
    book = figure_kit.book_citation(version)
    assert book.apa == (
        f"Tiny authors. ({version[:4]}). Tiny book (Data version {version}). https://example.org/tiny/"
    )
    figure = figure_kit.figure_citation(version, "Figure 2.2", "Price per month", "https://x/#f")
    for cited, kind, title in [(book, "book", "Tiny book"), (figure, "chapter", "Figure 2.2")]:
        (item,) = json.loads(pypandoc.convert_text(cited.bibtex, "csljson", format="bibtex"))
        assert item["type"] == kind and item["title"].startswith(title)
        assert item["author"] == [{"literal": "Tiny authors"}]
        assert item["issued"] == {"date-parts": [[int(version[:4])]]}
    block = figure_kit.cite_block(version)._repr_markdown_()
    assert book.bibtex in block and "Tiny authors. \\(" in block


# ---------------------------------------------------------------------------------------------
# Every figure of the book, as the offline preview's kit holds it, names its sources


def test_every_figure_of_the_book_names_its_sources_by_publisher_and_year(preview_site):
    """Each record and image names the publisher and year of every source it lists, as the
    release's sources table gives them (read here straight from the release's sources.csv),
    never only "the book's data release"; each record's caption is filled."""
    table = {
        row["source_id"]: row
        for row in pl.read_csv(data.version_dir() / "sources.csv", infer_schema=False).to_dicts()
    }
    records = [json.loads(p.read_text()) for p in figure_kit.record_files(preview_site / "figures")]
    assert len(records) >= 26, "the preview's kit holds every figure of the book"
    problems = []
    for record in records:
        name = record["id"].split("/", 1)[1]
        svg = (preview_site / "figures" / record["chapter"] / f"{name}.svg").read_text()
        image = unescape(" ".join(svg_texts(svg, "source-line")))
        if "the book's data release" in image or "the book's data release" in json.dumps(record):
            problems.append(f"{record['id']}: only the book's data release")
        if not record.get("caption"):
            problems.append(f"{record['id']}: no caption")
        if not record["source_records"]:
            problems.append(f"{record['id']}: no sources")
        expected = []
        for source in record["source_records"]:
            row = table.get(source["id"])
            if row is None:
                problems.append(f"{record['id']}: source {source['id']} not in sources.csv")
                continue
            # The year the source was read; "n.d." (APA's "no date") where the table has none.
            year = row["retrieved"][:4] if row["retrieved"] else "n.d."
            expected.append(f"{row['publisher']} ({year})")
        expected = list(dict.fromkeys(expected))
        if record["sources"] != expected:
            problems.append(f"{record['id']}: sources {record['sources']} != {expected}")
        shown = expected[:5] if len(expected) > 6 else expected  # the image lists up to six
        if not image.startswith("Source: ") or not all(n in image for n in shown):
            problems.append(f"{record['id']}: image's source line {image[:120]!r}")
    assert not problems, "\n".join(problems)


def test_sources_of_reads_the_rows_before_they_are_aggregated(tiny_book, kit):
    rows = pl.DataFrame(
        {
            "month": [1, 1, 2],
            "usd": [3.0, 1.0, 2.0],
            "source_id": ["epoch-llm-price-trends", "epoch-llm-price-trends", None],
            "source_ids": [None, "epoch-llm-price-trends;artificial-analysis", None],
        }
    )
    assert data.sources_of(rows) == ["epoch-llm-price-trends", "artificial-analysis"]
    medians = rows.group_by("month").agg(pl.col("usd").median()).sort("month")
    with pytest.raises(ValueError, match=r"frame 1 of 1 has no source column.*before they were"):
        data.sources_of(medians)  # an aggregate no longer says where its rows came from
    charts.show(line_chart(medians), "prices-trend", data.sources_of(rows))
    record = json.loads((kit / "prices" / "prices-trend.json").read_text())
    # sources.csv by hand: epoch-llm-price-trends is Epoch AI's, retrieved 2025-03-13.
    assert record["sources"][0] == "Epoch AI (2025)"
    assert [s["id"] for s in record["source_records"]] == data.sources_of(rows)


# The figures whose drawn data (the kit's CSVs) does not yet say which rows each plotted value
# came from, so the check below cannot tell their kept rows from every candidate row. None of them
# over-lists as far as read by hand: Epoch's staircase names Epoch's rows, the real-dollar series
# a16z's minima and the CPI, the training chart every MLPerf Training run it draws; the workload
# bills name their offers' sources (analysis.chapters.workload_costs). A figure leaves this set
# when its method keeps a source column on the rows it draws.
UNCHECKED = {
    "fixed-capability/fixed-capability-gpqa",
    "token-prices/token-prices-real",
    "tokens-per-dollar/tokens-per-dollar-training",
    "workload-costs/workload-costs-buckets",
    "workload-costs/workload-costs-calculator",
}


def test_every_figure_names_only_sources_its_drawn_rows_come_from(preview_site):
    """A memo that cites a figure names its publishers: each must have a row among those the
    figure's values were computed from. Those rows are read back from the figure's own CSVs
    (the data the chart draws): every source id in their source columns (`source_id`,
    `source_ids`, `source`, `sources`, `*_source`; a cell lists ids separated by ";"). Failing
    before the methods kept their rows' sources (main at d47d3d6: 14 figures whose drawn rows
    named no sources, the extension, headline and ladder among them), and when a page passes
    every candidate row again (the extension given every clean price and score: 7 sources no
    staircase row has)."""
    problems, checked = [], 0
    for path in figure_kit.record_files(preview_site / "figures"):
        record = json.loads(path.read_text())
        drawn: set[str] = set()
        has_column = False
        for file in record["files"]:
            if not file.endswith(".csv"):
                continue
            frame = pl.read_csv(path.parent / file, infer_schema=False)
            for column in frame.columns:
                if re.fullmatch(r"source_id|source_ids|source|sources|.+_source", column):
                    has_column = True
                    for cell in frame[column].drop_nulls():
                        drawn |= {part.strip() for part in cell.split(";") if part.strip()}
        if record["id"] in UNCHECKED:
            if has_column:
                problems.append(f"{record['id']}: its CSV names sources now; check it")
            continue
        if not has_column:
            problems.append(f"{record['id']}: its CSVs name no sources of the rows drawn")
            continue
        checked += 1
        named = [s["id"] for s in record["source_records"]]
        extra = sorted(set(named) - drawn)
        if extra:
            problems.append(f"{record['id']}: names {len(extra)} sources no drawn row has: {extra}")
    assert not problems, "\n".join(problems)
    assert checked >= 20, f"only {checked} figures checked"


def test_the_one_snapshot_trends_name_their_price_sources_not_only_the_score_snapshot(
    preview_site,
):
    """Each trend of the 2026 extension rests on a staircase of prices and one snapshot's scores:
    its record and image name both. The price sources are found here from the release itself
    (token_prices' `source_id`s; the scores' are Artificial Analysis's snapshot and the Epoch Hub
    export). Failed before the method kept its rows' sources (main at 2a919f9: the record named
    only the two score snapshots, none of the price lists)."""
    from analysis.methods import fixed_capability as fc

    price_sources = set(data.load("token_prices")["source_id"].drop_nulls())
    score_sources = {fc.AA_SOURCE, *fc.HUB_SOURCES}
    for name in ("fixed-capability-2026", "fixed-capability-windows"):
        path = preview_site / "figures" / "fixed-capability" / f"{name}.json"
        record = json.loads(path.read_text())
        named = {s["id"] for s in record["source_records"]}
        assert named & score_sources, (name, named)
        prices = (named & price_sources) - score_sources
        assert prices, f"{name} names no price source: {sorted(named)}"
        publishers = {s["publisher"] for s in record["source_records"] if s["id"] in prices}
        assert any(p in record["source_line"] for p in publishers), record["source_line"]
