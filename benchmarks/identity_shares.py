"""Identity shares of the clean token-price rows (issue 19, class 8), per release, side by side:
developer known; release date known with the source that dates it (and how many of those are a
listing date or a first listing, labelled so); at least one benchmark score for the model. Overall and for rows
dated in 2026. Plain polars over each release's CSVs.

    .venv/bin/python benchmarks/identity_shares.py [VERSION|FOLDER ...]

A FOLDER is a built release folder (e.g. /tmp/out/2026-12-01.4); a VERSION is read from data/.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]


def read(folder: Path, table: str) -> pl.DataFrame:
    return pl.read_csv(folder / f"{table}.csv", try_parse_dates=True, infer_schema_length=100000)


def shares(folder: Path) -> dict[str, str]:
    tp = read(folder, "token_prices").filter(pl.col("flags").is_null())
    models = read(folder, "models")
    scored = read(folder, "benchmark_scores").filter(pl.col("flags").is_null())["model_id"]
    if "release_date_note" not in models.columns:
        models = models.with_columns(pl.lit(None, pl.String).alias("release_date_note"))
    m = models.select(
        "model_id",
        pl.col("developer").is_not_null().alias("developer"),
        (
            pl.col("release_date").is_not_null() & pl.col("release_date_source_id").is_not_null()
        ).alias("dated"),
        pl.col("release_date_note").fill_null("").str.starts_with("listing date").alias("listing"),
        pl.col("release_date_note").fill_null("").str.starts_with("first listing").alias("first"),
    )
    rows = (
        tp.join(m, on="model_id", how="left")
        .with_columns(
            pl.col("model_id").is_in(scored.implode()).alias("scored"),
            pl.col(["developer", "dated", "listing", "first"]).fill_null(False),
        )
        .with_columns(
            (pl.col("dated") & pl.col("developer")).alias("developer and dated"),
            (pl.col("dated") & ~pl.col("first")).alias("dated w/o first listing"),
            (pl.col("dated") & ~pl.col("first") & ~pl.col("listing")).alias("dated by a release"),
        )
    )
    out = {}
    for label, frame in (("all", rows), ("2026", rows.filter(pl.col("date").dt.year() == 2026))):
        n = frame.height
        out[f"{label}: clean rows"] = f"{n}"
        cols = ("developer", "dated", "developer and dated", "listing", "first",
                "dated w/o first listing",
                "dated by a release", "scored")  # fmt: skip
        for col in cols:
            k = int(frame[col].sum())
            out[f"{label}: {col}"] = f"{k} ({100 * k / n:.1f}%)"
    return out


def main(args: list[str]) -> None:
    targets = args or ["2026-12-01.3"]
    cols = {}
    for t in targets:
        folder = Path(t) if Path(t).is_dir() else ROOT / "data" / t
        cols[folder.name if not Path(t).is_dir() else t] = shares(folder)
    names = list(next(iter(cols.values())))
    width = max(map(len, names)) + 2
    print("".ljust(width) + "".join(k[-24:].rjust(26) for k in cols))
    for name in names:
        print(name.ljust(width) + "".join(c[name].rjust(26) for c in cols.values()))
    print("developer: models.developer; dated: release_date with release_date_source_id;")
    print("listing: of those, dated by a marketplace listing date (release_date_note says so);")
    print("first: of those, dated by a first listing, an upper bound (release_date_note says so);")
    print("dated w/o first listing: dated minus first; dated by a release: minus both listings;")
    print("scored: the model has at least one clean benchmark_scores row.")


if __name__ == "__main__":
    main(sys.argv[1:])
