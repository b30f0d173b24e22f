"""Which clean token-price rows have no release date with a source, and why (issue 19, class 8).

The 97% / 95% target of item 6 is a share of clean token_prices rows whose model has a
`release_date` and a `release_date_source_id`. This script lists what is left, per model, in
one of these classes (the first that applies), counted in models, rows and 2026 rows:

- `moving alias`: the id is a name that moves between snapshots (`-latest`, or the models
  table says "moving alias"); a release date would belong to whichever snapshot it meant.
- `date fragment in id`: the id ends in four digits that are a month (`2410`, `2507`, YYMM) or a
  month and day without a year (`0613`, MMDD); no full date is written, and no source the build
  reads dates that id.
- `metadata without a date`: some source's model metadata names the model (info_source_id) but
  none states a release date.
- `price libraries only`: only price tables name it (LiteLLM's mirrors, tokencost,
  genai-prices, simonw, OpenRouter, the leaderboards' price columns), none with a date.

    .venv/bin/python benchmarks/identity_gaps.py [VERSION|FOLDER] [--list]

Plain polars over the release's CSVs (models, token_prices).
"""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
FRAGMENT = r"-(?:(?:2[3-6])(?:0[1-9]|1[0-2])|(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))$"


def read(folder: Path, table: str) -> pl.DataFrame:
    return pl.read_csv(folder / f"{table}.csv", try_parse_dates=True, infer_schema_length=100000)


def gaps(folder: Path) -> pl.DataFrame:
    tp = read(folder, "token_prices").filter(pl.col("flags").is_null())
    models = read(folder, "models")
    undated = models.filter(
        pl.col("release_date").is_null() | pl.col("release_date_source_id").is_null()
    )
    rows = tp.join(undated, on="model_id", how="inner")
    per_model = rows.group_by("model_id").agg(
        pl.len().alias("rows"),
        (pl.col("date").dt.year() == 2026).sum().alias("rows_2026"),
        pl.col("source_id").unique().sort().str.join(";").alias("sources"),
        pl.col("info_source_id").first(),
        pl.col("unresolved_reason").first(),
    )
    why = (
        pl.when(
            pl.col("model_id").str.contains(r"-latest(?:-\d+k)?$")
            | pl.col("unresolved_reason").fill_null("").str.contains("moving alias")
        )
        .then(pl.lit("moving alias"))
        .when(pl.col("model_id").str.contains(FRAGMENT))
        .then(pl.lit("date fragment in id"))
        .when(pl.col("info_source_id").is_not_null())
        .then(pl.lit("metadata without a date"))
        .otherwise(pl.lit("price libraries only"))
    )
    return per_model.with_columns(why.alias("why")).sort(
        "rows", "model_id", descending=[True, False]
    )


def main(args: list[str]) -> None:
    listing = "--list" in args
    args = [a for a in args if a != "--list"]
    target = args[0] if args else "2026-12-03"
    folder = Path(target) if Path(target).is_dir() else ROOT / "data" / target
    g = gaps(folder)
    tp = read(folder, "token_prices").filter(pl.col("flags").is_null())
    n, n26 = tp.height, tp.filter(pl.col("date").dt.year() == 2026).height
    summary = (
        g.group_by("why")
        .agg(pl.len().alias("models"), pl.col("rows").sum(), pl.col("rows_2026").sum())
        .sort("rows", descending=True)
    )
    print(f"{folder.name}: {n} clean rows ({n26} in 2026); undated: {g['rows'].sum()} rows "
          f"({g['rows_2026'].sum()} in 2026) of {g.height} models")  # fmt: skip
    print(f"rows to date for 97% overall: {max(0, g['rows'].sum() - int(n * 0.03))}; "
          f"for 95% of 2026: {max(0, g['rows_2026'].sum() - int(n26 * 0.05))}")  # fmt: skip
    with pl.Config(tbl_rows=-1, tbl_hide_dataframe_shape=True, tbl_formatting="ASCII_MARKDOWN"):
        print(summary)
        if listing:
            with pl.Config(fmt_str_lengths=80, tbl_width_chars=200):
                print(g.select("model_id", "why", "rows", "rows_2026", "sources"))


if __name__ == "__main__":
    main(sys.argv[1:])
