"""Prices in force on a grid of dates in two builds, for the readers of `price_kind == "list"`
and for every clean row: do scheduled prices (`announced`), stated ends (`stated_end`) and the
offer-word fold (issue 19, item 3 and class 5) leave the prices in force as they were?

    .venv/bin/python benchmarks/scheduled_in_force.py OLD NEW

OLD and NEW are release versions or folders of trial builds (/tmp/NAME-data/V). Per date (the
first of each month 2024-01 .. 2027-03, and 2026-09-13 and 2026-12-31: 41 dates) it prints the
rows `prices.price_in_force(clean rows, d)` returns in each build and the distinct facts among
them (model, seller, currency, kind, tier, quantization, region, input, output, blended: the
offer words left out, since folding two offers of one price makes one row of two), and how
many facts only one build has. Then the price kinds, and the rows that say `announced` and
`stated_end`.
"""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import polars as pl

from analysis.methods import prices

ROOT = Path(__file__).resolve().parents[1]
FACT = [
    "model_id", "provider", "currency", "price_kind", "context_tier", "quantization", "region",
    "input_usd_per_mtok", "output_usd_per_mtok", "blended_usd_per_mtok",
]  # fmt: skip


def read(version: str) -> pl.DataFrame:
    folder = Path(version) if "/" in version else ROOT / "data" / version
    return pl.read_csv(folder / "token_prices.csv", try_parse_dates=True, infer_schema_length=0)


def typed(tp: pl.DataFrame) -> pl.DataFrame:
    dates = [
        c for c in ("date", "valid_from", "valid_to", "announced", "stated_end") if c in tp.columns
    ]
    nums = [c for c in FACT if c.endswith("_mtok")]
    return tp.with_columns(pl.col(dates).str.to_date(), pl.col(nums).cast(pl.Float64))  # fmt: skip


def grid() -> list[date]:
    months = [date(y, m, 1) for y in (2024, 2025, 2026, 2027) for m in range(1, 13)]
    extra = [date(2026, 9, 13), date(2026, 12, 31)]
    return sorted({d for d in months if d <= date(2027, 3, 1)} | set(extra))


def facts(rows: pl.DataFrame) -> set[tuple]:
    return set(rows.select(FACT).rows())


def main(old_v: str, new_v: str) -> None:
    old, new = (prices.clean(typed(read(v)))[0] for v in (old_v, new_v))
    for label, pick in [
        ('readers of price_kind == "list"', pl.col("price_kind") == "list"),
        ("every clean row", pl.lit(True)),
    ]:
        print(
            f"\n{label}: rows in force (old / new), distinct facts (old / new), facts only in one"
        )
        total_diff = 0
        for on in grid():
            a = prices.price_in_force(old.filter(pick), on)
            b = prices.price_in_force(new.filter(pick), on)
            fa, fb = facts(a), facts(b)
            diff = len(fa ^ fb)
            total_diff += diff
            print(
                f"  {on}: rows {a.height:5d} / {b.height:5d}   facts {len(fa):5d} / {len(fb):5d}   only in one {diff}"
            )
        print(f"  facts only in one build, summed over the grid: {total_diff}")
    for v, tp in ((old_v, old), (new_v, new)):
        kinds = dict(tp.group_by("price_kind").len().sort("price_kind").rows())
        print(f"\n{v}: clean rows {tp.height}; price_kind {kinds}")
        for col in ("announced", "stated_end"):
            if col in tp.columns:
                got = tp.filter(pl.col(col).is_not_null())
                print(f"  rows with {col}: {got.height}")
                for r in got.sort("model_id").iter_rows(named=True):
                    print(f"    {r['model_id']} @ {r['provider']} {r['price_kind']} "
                          f"{r['input_usd_per_mtok']}/{r['output_usd_per_mtok']} "
                          f"from {r['valid_from']} to {r['valid_to']}: {col} {r[col]}")  # fmt: skip
            else:
                print(f"  no {col} column")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
