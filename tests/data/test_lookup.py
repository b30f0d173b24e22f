"""Curated lookup tables: every table passes its schema, and a bad row is reported where it is."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from analysis.data import lookup
from analysis.data.errors import DataError
from analysis.data.importers.common import check_unique, iso_date, number, read_csv_records


@pytest.mark.parametrize("name", sorted(lookup.SPECS))
def test_every_curated_table_passes_its_schema(name):
    spec = lookup.SPECS[name]
    rows, problems = lookup.check(spec, spec.path)
    assert problems == [] and rows


def _spec() -> lookup.Spec:
    return lookup.Spec(
        "t",
        "test table",
        [
            lookup.Col("id", required=True, pattern=lookup.ID),
            lookup.Col("kind", enum=("a", "b")),
            lookup.Col("flag", boolean=True),
        ],
        key=["id"],
        sorted_by_key=True,
    )


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_bad_row_is_located_by_file_row_column_value_and_rule(tmp_path):
    path = _write(tmp_path, "id,kind,flag\nb-1,a,true\nA 2,c,yes\nb-1,b,\n,a,false\n")
    with pytest.raises(DataError) as err:
        lookup.read_checked(_spec(), path)
    text = str(err.value)
    assert f"{path}, row 2, column 'id': value 'A 2': must match" in text
    assert f"{path}, row 2, column 'kind': value 'c': must be one of a, b" in text
    assert f"{path}, row 2, column 'flag': value 'yes': must be true or false" in text
    assert f"{path}, row 3: value 'b-1': duplicate key (id); first at row 1" in text
    assert f"{path}, row 4, column 'id': value '': a value is required" in text


def test_a_wrong_header_is_one_problem(tmp_path):
    path = _write(tmp_path, "id,flag,kind\nx,true,a\n")
    _, problems = lookup.check(_spec(), path)
    assert len(problems) == 1 and problems[0].rule == "columns must be id,kind,flag"


def test_rows_out_of_key_order_are_reported(tmp_path):
    _, problems = lookup.check(_spec(), _write(tmp_path, "id,kind,flag\nb,a,\na,a,\n"))
    assert [p.rule for p in problems] == ["rows must be sorted by id"]


def test_shared_number_parsing(tmp_path):
    f = tmp_path / "x.csv"
    assert number(f, 1, "c", " $1,234.5 ", strip="$,") == 1234.5
    assert number(f, 1, "c", "") is None and number(f, 1, "c", None) is None
    assert number(f, 1, "c", 3) == 3.0
    with pytest.raises(DataError, match=r"x.csv, row 2, column 'c': value 'n/a': must be a number"):
        number(f, 2, "c", "n/a")
    with pytest.raises(DataError, match=r"row 3, column 'c': value '-1': must not be negative"):
        number(f, 3, "c", "-1", minimum=0)


def test_shared_date_parsing(tmp_path):
    f = tmp_path / "x.csv"
    assert iso_date(f, 1, "d", "2026-02-28") == dt.date(2026, 2, 28)
    assert iso_date(f, 1, "d", " ") is None
    with pytest.raises(DataError, match=r"row 4, column 'd': value '2026-02-30': must be an ISO"):
        iso_date(f, 4, "d", "2026-02-30")
    with pytest.raises(DataError, match="must be an ISO date"):
        iso_date(f, 4, "d", "", required=True)


def test_shared_csv_records_and_unique_keys(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text('\ufeffa,b\n1,"two\nlines"\n', encoding="utf-8")
    assert read_csv_records(path, ["a", "b"]) == [{"a": "1", "b": "two\nlines"}]
    with pytest.raises(DataError, match=r"r.csv, column 'c'.*required column missing"):
        read_csv_records(path, ["a", "c"])
    rows = [{"k": 1, "source_locator": "f#1"}, {"k": 1, "source_locator": "f#2"}]
    with pytest.raises(DataError, match=r"f#2, column 'k'.*duplicate t key; first at f#1"):
        check_unique(rows, ("k",), "t")
