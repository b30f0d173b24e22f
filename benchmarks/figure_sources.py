"""The sources each figure of the book names, before and after (issue 24): for two built figure
kits (the offline preview's `_preview/figures/`, or Quarto's `_figures/`), one line per figure with
the number of sources its record names in each and, where they differ, which were dropped or added;
then the number of sources the figure's drawn rows (its CSVs' source columns) name, or "-" where
its CSVs have no source column.

    .venv/bin/python benchmarks/figure_sources.py BEFORE_KIT AFTER_KIT

e.g. BEFORE_KIT a preview built from main, AFTER_KIT one built from this branch.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import polars as pl

SOURCE_COLUMN = re.compile(r"^(source_id|source_ids|source|sources|.+_source)$")


def records(kit: Path) -> dict[str, tuple[dict, Path]]:
    found = {}
    for path in sorted(kit.glob("*/*.json")):
        if path.name.endswith(".vl.json"):
            continue
        record = json.loads(path.read_text(encoding="utf-8"))
        found[record["id"]] = (record, path.parent)
    return found


def drawn_sources(record: dict, folder: Path) -> set[str] | None:
    """The source ids in the source columns of the figure's CSVs; None when they have none."""
    ids: set[str] | None = None
    for file in record["files"]:
        if not file.endswith(".csv"):
            continue
        frame = pl.read_csv(folder / file, infer_schema=False)
        for column in filter(SOURCE_COLUMN.match, frame.columns):
            ids = ids or set()
            for cell in frame[column].drop_nulls():
                ids |= {p for p in re.split(r"[;,|\s]+", cell) if p}
    return ids


def main(before_kit: str, after_kit: str) -> None:
    before, after = records(Path(before_kit)), records(Path(after_kit))
    print(f"{'figure':<50} {'before':>6} {'after':>6} {'drawn':>6}  change")
    changed = 0
    for figure_id in sorted(before.keys() | after.keys()):
        old = (
            [s["id"] for s in before[figure_id][0]["source_records"]] if figure_id in before else []
        )
        new = [s["id"] for s in after[figure_id][0]["source_records"]] if figure_id in after else []
        drawn = drawn_sources(*after[figure_id]) if figure_id in after else None
        change = []
        if set(old) - set(new):
            change.append("dropped " + ", ".join(sorted(set(old) - set(new))))
        if set(new) - set(old):
            change.append("added " + ", ".join(sorted(set(new) - set(old))))
        changed += bool(change)
        shown = "-" if drawn is None else len(drawn)
        print(f"{figure_id:<50} {len(old):>6} {len(new):>6} {shown:>6}  {'; '.join(change)}")
    print(f"{changed} of {len(before.keys() | after.keys())} figures name other sources")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
