"""Page titles read from `.qmd` files (analysis.data.titles): front matter first, else the first
level-1 heading outside code, else the file's name; each chapter title read is recorded, and a
changed title reads as a change to the pages that showed it."""

from __future__ import annotations

from analysis.book import deps
from analysis.data import paths, reads, release, titles


def test_a_title_comes_from_front_matter_else_a_heading_outside_code_else_the_name(tmp_path):
    front = tmp_path / "a.qmd"
    front.write_text('---\ntitle: "The cost of a fixed capability"\n---\n\n# Not this\n')
    heading = tmp_path / "b.qmd"
    heading.write_text("Some text.\n\n```{python}\n# a comment, not a heading\n```\n\n# Summary {.unnumbered}\n")  # fmt: skip
    neither = tmp_path / "no-title.qmd"
    neither.write_text("Only text.\n")
    assert titles.page_title(front) == "The cost of a fixed capability"
    assert titles.page_title(heading) == "Summary"
    assert titles.page_title(neither) == "no-title"


def test_the_books_chapter_titles_are_read_and_recorded():
    """Titles as the chapters' front matter gives them (read by hand: chapters/price-war.qmd and
    chapters/claims-ledger.qmd, line 2)."""
    reads.clear()
    found = titles.chapter_titles()
    assert found["price-war"] == "The autumn-2026 price war"
    assert found["claims-ledger"] == "The digests' claims, checked"
    path = (paths.ROOT / "chapters" / "price-war.qmd").resolve()
    assert reads.snapshot()[f"title:{path}"] == {"value": "The autumn-2026 price war"}


def test_a_changed_title_reads_as_a_change(tmp_path):
    page = tmp_path / "price-war.qmd"
    page.write_text('---\ntitle: "The price war"\n---\n')
    recorded = {f"title:{page.resolve()}": {"value": "The price war"}}
    assert release.read_now(*recorded.popitem()) == {"value": "The price war"}
    recorded = {f"title:{page.resolve()}": {"value": "The price war"}}
    assert deps.read_changes(recorded) == []
    page.write_text('---\ntitle: "The autumn price war"\n---\n')
    assert deps.read_changes(recorded) == [
        "the title of price-war.qmd changed (The price war → The autumn price war)"
    ]
    page.unlink()
    assert deps.read_changes(recorded) == ["the title of price-war.qmd is gone"]
