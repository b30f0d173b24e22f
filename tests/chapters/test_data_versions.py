"""The data-versions appendix: what changed, said in one sentence, and which estimates moved."""

from __future__ import annotations

import polars as pl

from analysis.chapters import data_versions as chapter


def test_change_sentence_counts_rows_and_names_new_models():
    table = pl.DataFrame({"added": [3, 1200], "changed": [0, 2], "removed": [1, 0]})
    text = chapter.change_sentence("2026-11-30", table, ["kimi-k3", "glm-5.3-flash"], ["zai"])
    assert text == (
        "Against the release before it (2026-11-30), this release adds 1,203 rows, changes 2 and "
        "removes 1; it prices 2 models the previous release did not (kimi-k3, glm-5.3-flash); "
        "new providers: 1 (zai)."
    )
    assert chapter.change_sentence(None, table, [], []).startswith("This is the first release")


def test_moved_keeps_estimates_that_changed_by_more_than_the_share():
    vintage = pl.DataFrame(
        {
            "estimate_id": ["a", "b", "c", "a"],
            "data_version": ["2026-12-01", "2026-12-01", "2026-12-01", "2026-11-30"],
            "change_ratio": [1.05, 0.85, None, None],  # +5%, -15%, no previous value
        }
    )
    assert chapter.moved(vintage)["estimate_id"].to_list() == ["b"]


def test_the_appendix_of_the_current_release():
    c = chapter.compute()
    assert c.q.n_estimates.text == str(len(chapter.vintages.estimates.REGISTRY))
    assert c.releases["version"].to_list()[-1] == c.version


def test_the_releases_up_to_a_version_are_read_from_versions_json_oldest_first():
    """By hand from data/versions.json: the list of releases, cut after the one rendered."""
    import json

    from analysis.data.paths import ROOT

    listed = [
        r["version"] for r in json.loads((ROOT / "data/versions.json").read_text())["releases"]
    ]
    assert chapter.releases_up_to(listed[1]) == listed[:2]
    assert chapter.releases_up_to(listed[-1]) == listed
    table = chapter.release_table(listed[:2])
    assert table["version"].to_list() == listed[:2]
    assert table.columns == ["version", "released", "description"]


def test_the_first_release_has_no_changes_to_count():
    first = chapter.releases_up_to(chapter.data.current_version())[0]
    changes = chapter.release_changes(first)
    assert changes.height == 0
    assert set(changes.columns) >= {"table", "source_id", "added", "changed", "removed"}
