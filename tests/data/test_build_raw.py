"""A damaged raw source file stops the build with a located message, before any importer runs."""

from __future__ import annotations

import pytest

from analysis.data import build, files
from analysis.data.errors import DataError

HEADER = "date,gpu_type,index_value\n"
GOOD = HEADER + "2026-01-01,h100,2.31\n2026-01-02,h100,2.29\n"


def sources(tmp_path, **named: bytes):
    """A sources folder with one source folder holding the given files and their provenance."""
    folder = tmp_path / "sources" / "gpu-index"
    folder.mkdir(parents=True)
    rows = ["file\trepo\tcommit\tcommit_date\tpath_in_repo\tsha256"]
    for name, data in named.items():
        (folder / name).write_bytes(data)
        rows.append(f"gpu-index/{name}\to/r\tabc\t2026-01-01\t{name}\t0")
    (folder / "_PROVENANCE.tsv").write_text("\n".join(rows) + "\n")
    return tmp_path / "sources"


@pytest.mark.parametrize(
    ("data", "row", "rule"),
    [
        (b"", None, "raw file is empty (0 bytes)"),
        (GOOD.encode()[:-9], 2, "the last row has 2 fields, the header 3, and no line end"),
        ((HEADER + '2026-01-01,"h100').encode(), None, "cut short inside a quoted value"),
    ],
    ids=["empty", "cut-mid-row", "cut-in-quote"],
)
def test_damaged_raw_csv(tmp_path, data, row, rule):
    src = sources(tmp_path, **{"index.csv": data, "ok.csv": GOOD.encode()})
    (p,) = files.check_raw_sources(src)
    assert (p.file.endswith("index.csv"), p.row) == (True, row)
    assert rule in p.rule
    with pytest.raises(DataError, match=r"index\.csv") as err:
        build.run_importers(src)
    assert err.value.problems == [p]


def test_truncated_raw_json(tmp_path):
    src = sources(tmp_path, **{"prices.json": b'{"models": [{"id": "a", "price": 1.5}, {"id"'})
    (p,) = files.check_raw_sources(src)
    assert p.file.endswith("prices.json")
    assert "json: file ends early (truncated?)" in p.rule and "line 1, column 45" in p.rule


def test_a_last_line_without_a_newline_is_not_damage(tmp_path):
    src = sources(tmp_path, **{"index.csv": GOOD.encode().rstrip(b"\n")})
    assert files.check_raw_sources(src) == []
