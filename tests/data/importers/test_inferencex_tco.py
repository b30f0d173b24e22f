"""InferenceX GPU_SPECS: one row per GPU x ownership, provisional entries flagged, versions merged."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import inferencex_tco

FOLDER = "inferencex-tco-assumptions"
TS = """import { HardwareConfig } from '@/components/inference/types';

export interface GpuSpecs {
  power: number;
}

export const GPU_SPECS: Record<string, GpuSpecs> = {
  h100: { power: 1.73, costh: 1.3, costn: 1.69, costr: 1.3 },
  // TODO: B300 pricing is temporary - using 1.2x B200 pricing until official pricing is available
  b300: { power: 2.17, costh: 2.34, costn: 2.808, costr: 3.48 },
  mi355x: { power: 2.65, costh: 1.48, costn: 1.9, costr: 2.1 },
};

export const HARDWARE_CONFIG = { h100: { name: 'h100' } };
"""


def _tables(tree, versions=("2026-03-18", "2026-04-02"), text=TS):
    for day in versions:
        tree.add(f"{FOLDER}/{day}_packages__app__src__lib__constants.ts", text, commit_date=day)
    return inferencex_tco.build(tree.root)["tco_assumptions"]


def test_each_gpu_gives_three_ownership_costs_and_its_power(tree):
    df = _tables(tree)
    h100 = {r["ownership"]: r for r in df.filter(pl.col("gpu") == "h100").iter_rows(named=True)}
    # The README's table: H100 costh 1.30, costn 1.69, costr 1.30, power 1.73 kW.
    assert {k: v["usd_per_gpu_hour"] for k, v in h100.items()} == {
        "hyperscaler-owned": 1.3,
        "neocloud": 1.69,
        "3-year-rental": 1.3,
    }
    assert {v["power_kw_per_gpu"] for v in h100.values()} == {1.73}
    assert df.height == 3 * 3


def test_only_the_entry_under_a_temporary_comment_is_provisional(tree):
    df = _tables(tree)
    flagged = df.group_by("gpu").agg(pl.col("provisional").all()).sort("gpu")
    assert dict(flagged.iter_rows()) == {"b300": True, "h100": False, "mi355x": False}


def test_identical_versions_are_one_spell_located_in_the_first(tree):
    df = _tables(tree)
    assert set(df["date"]) == {dt.date(2026, 3, 18)}
    assert set(df["last_seen"]) == {dt.date(2026, 4, 2)}
    row = df.filter((pl.col("gpu") == "mi355x") & (pl.col("ownership") == "neocloud")).row(
        0, named=True
    )
    assert row["source_locator"] == (
        f"{FOLDER}/2026-03-18_packages__app__src__lib__constants.ts@c0ffee000000"
        "#line 11 (mi355x.costn)"
    )


def test_a_changed_value_starts_a_new_spell(tree):
    tree.add(
        f"{FOLDER}/2026-03-18_packages__app__src__lib__constants.ts", TS, commit_date="2026-03-18"
    )
    changed = TS.replace("costn: 1.69", "costn: 1.59")
    df = _tables(tree, versions=("2026-04-02",), text=changed)
    neo = df.filter((pl.col("gpu") == "h100") & (pl.col("ownership") == "neocloud")).sort("date")
    assert neo["usd_per_gpu_hour"].to_list() == [1.69, 1.59]
    assert neo["last_seen"].to_list() == [dt.date(2026, 3, 18), dt.date(2026, 4, 2)]


def test_a_malformed_entry_names_file_line_and_text(tree):
    bad = TS.replace("costr: 2.1 }", "costr: two }")
    tree.add(f"{FOLDER}/2026-03-18_packages__app__src__lib__constants.ts", bad)
    with pytest.raises(DataError) as err:
        inferencex_tco.build(tree.root)
    p = err.value.problems[0]
    assert p.file.endswith("2026-03-18_packages__app__src__lib__constants.ts")
    assert (p.row, p.column, p.value) == (11, "mi355x", "costr: two")


def test_a_missing_field_or_block_is_an_error(tree):
    tree.add(f"{FOLDER}/2026-03-18_x_constants.ts", TS.replace(", costr: 1.3", ""))
    with pytest.raises(DataError, match="costr"):
        inferencex_tco.build(tree.root)
    path = tree.add(f"{FOLDER}/2026-03-18_x_constants.ts", "export const OTHER = {};\n")
    with pytest.raises(DataError, match="GPU_SPECS"):
        inferencex_tco.parse_constants(path)


def test_real_file_has_nine_gpus_and_the_readme_values(sources_dir):
    df = inferencex_tco.build(sources_dir)["tco_assumptions"]
    assert df.height == 27 and df["gpu"].n_unique() == 9
    gb300 = df.filter(pl.col("gpu") == "gb300").sort("ownership")
    # README II.2.2: GB300 costh 2.652, costn 3.3, costr 3.96; "temporary" 1.2x GB200.
    assert gb300["usd_per_gpu_hour"].to_list() == [3.96, 2.652, 3.3]
    assert gb300["provisional"].all()
    assert set(df.filter(pl.col("provisional"))["gpu"]) == {"b300", "gb300"}
