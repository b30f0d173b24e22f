"""What the pages say to readers of the site: no issue numbers of the project's tracker, and no
command a reader cannot run without the project, unless the sentence says it runs in the book's
repository. Prose only: code cells and `#|` options are not printed as prose."""

from __future__ import annotations

import re

from analysis.book import notebook as chapters

ISSUE = re.compile(r"\(issues? \d+[^)]*\)|\bissue \d+\b", re.I)
COMMAND = re.compile(r"`python -m analysis\b")
WHERE = "book's repository"


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of a page's prose, outside fenced code cells."""
    out, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            out.append((number, line))
    return out


def problems(text: str, name: str) -> list[str]:
    found = []
    for number, line in prose_lines(text):
        found += [f"{name}:{number}: issue number {m.group(0)!r}" for m in ISSUE.finditer(line)]
        for sentence in re.split(r"(?<=[.;])\s+", line):
            if COMMAND.search(sentence) and WHERE not in sentence:
                found.append(f"{name}:{number}: a command with no word of where it runs")
    return found


def test_no_page_prints_an_issue_number_or_a_command_without_where_it_runs():
    found = []
    for entry in chapters.book_entries():
        found += problems(entry.path.read_text(encoding="utf-8"), entry.path.name)
    assert found == []


def test_the_check_catches_both():
    text = "A rule (issue 9) applies.\n\n`python -m analysis claims` prints it.\n```{python}\n# issue 3\n```\n"
    assert problems(text, "x.qmd") == [
        "x.qmd:1: issue number '(issue 9)'",
        "x.qmd:3: a command with no word of where it runs",
    ]


def test_release_tables_drop_tracker_references():
    import polars as pl

    from analysis.figures import data_overview, data_versions

    releases = pl.DataFrame(
        {
            "version": ["2026-12-01.3"],
            "released": ["2026-12-01"],
            "description": ["Spells from snapshots (issue 19, classes 1-6): what is listed"],
            "datapackage_sha256": ["ab"],
        }
    )
    for table in (data_overview.releases_gt(releases), data_versions.releases_gt(releases)):
        html = table.as_raw_html()
        assert "Spells from snapshots: what is listed" in html and "issue 19" not in html
