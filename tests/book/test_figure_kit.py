"""The figure kit: `show()` writes PNG, SVG, CSV and a citable JSON record when asked to."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import altair as alt
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analysis.book import figure_kit, postrender
from analysis.book import notebook as chapters
from analysis.book import show as charts
from analysis.data import release as data
from analysis.data.paths import ROOT

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
    ]
    assert (folder / "trend.png").read_bytes().startswith(PNG_MAGIC)
    assert (folder / "trend.png").read_bytes() == rendered.png(scale=2)
    assert (folder / "trend.svg").read_text().lstrip().startswith("<svg")
    record = json.loads((folder / "trend.json").read_text())
    assert record["id"] == "prices/trend" == rendered.kit.figure_id
    assert record["title"] == "Price per month"
    assert record["description"] == "A falling line"
    assert record["data_version"] == data.current_version()
    assert record["citation"] == f"Figure prices/trend: Price per month. {data.citation()}"
    assert record["files"] == {
        name: hashlib.sha256((folder / name).read_bytes()).hexdigest()
        for name in ["trend.png", "trend.svg", "trend.csv"]
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
    assert list(record["files"]) == ["layers.png", "layers.svg", "layers.csv", "layers-layer2.csv"]
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
