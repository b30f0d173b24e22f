"""`files._odd_lines` counting commas in bulk (a file polars read as it is) finds the lines the
line-by-line count finds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from analysis.data import files

WIDTH = 5


def _file(seed: int, tmp_path: Path) -> Path:
    """Lines of WIDTH fields, some short, some blank, some with a quoted comma; no line longer."""
    rng = random.Random(seed)
    lines = [",".join(f"c{i}" for i in range(WIDTH))]
    for n in range(400):
        kind = rng.random()
        if kind < 0.03:
            lines.append("")  # a blank line
        elif kind < 0.08:
            lines.append(",".join(["x"] * rng.randrange(1, WIDTH)))  # short
        elif kind < 0.12:
            lines.append(",".join(['"2,5"', *["y"] * (WIDTH - 1)]))  # a quoted comma
        else:
            lines.append(",".join([f"v{n}", *[""] * (WIDTH - 1)]))
    end = "\r\n" if seed % 2 else "\n"
    text = end.join(lines) + (end if seed % 3 else "")  # some files end without a newline
    path = tmp_path / f"t{seed}.csv"
    path.write_bytes(text.encode())
    return path


@pytest.mark.parametrize("seed", range(12))
def test_the_bulk_count_finds_the_lines_the_line_by_line_count_finds(seed, tmp_path, monkeypatch):
    monkeypatch.setattr(files, "CHUNK", 1 << 9)  # many blocks, some with no odd line at all
    path = _file(seed, tmp_path)
    assert files._odd_lines(path, WIDTH, longer=False) == files._odd_lines(path, WIDTH)


def test_a_file_of_good_lines_has_only_its_quoted_lines_looked_at(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text('a,b,c\n1,,\n"2,5",x,\n3,,\n')
    assert files._odd_lines(path, 3, longer=False) == (4, [(2, 4, '"2,5",x,')])
    # A short line among them is found, and the right number of fields is given for it.
    path.write_text('a,b,c\n1,,\n"2,5",x,\n3,\n')
    assert files._odd_lines(path, 3, longer=False) == (4, [(2, 4, '"2,5",x,'), (3, 2, None)])
