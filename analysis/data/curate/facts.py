"""One row per distinct benchmark score and GPU-hour quote, with every source in `observations`.

- **Benchmark scores**: the same model, benchmark and date with the same score (within
  `SCORE_TOLERANCE`, the rounding by which Epoch's two exports of one database differ) is one
  measurement, however many sources or names report it (the Benchmarking Hub export and the
  benchmark-stitching files double-count Epoch's runs). The row keeps the score, name and
  locator of the first source in `SCORE_PRECEDENCE`; `source_ids` lists all of them and
  `observations` every row behind it. Different scores stay separate rows (the flag rule
  `conflicting_scores` marks the extra ones of one source).
- **GPU-hour prices**: each quote is already one fact (a source's quote on a date); rows get a
  `row_id` and their observation, nothing is merged.
"""

from __future__ import annotations

import polars as pl

from analysis.data.curate.spells import HAND_ENTERED, OBS_SCHEMA, row_id

# Epoch's hub export writes fractions to many decimals, the stitching files percent strings to
# one; the same run differs by at most 0.05 percentage points between them.
SCORE_TOLERANCE = 0.05
# Epoch's price-trend inputs first: the book reproduces that analysis from its own rows.
SCORE_PRECEDENCE = [
    "epoch-llm-price-trends",
    "epoch-benchmarking-hub",
    "epoch-benchmark-stitching",
    "gundlach-inference",
    "lmarena-catalog",
    "lmarena-fboulnois",
]


def _rank(source: str) -> int:
    return SCORE_PRECEDENCE.index(source) if source in SCORE_PRECEDENCE else 99


def curate_scores(scores: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(benchmark_scores, observations): equal measurements merged."""
    df = scores.with_columns(
        pl.col("source_id").map_elements(_rank, return_dtype=pl.Int64).alias("_rank")
    ).sort("model_id", "benchmark", "date", "score", "_rank", "source_locator")
    # A hand-entered score (`data add`) is its own measurement, kept as its reader entered it.
    hand = pl.col("source_id").str.starts_with(HAND_ENTERED)
    df = df.with_columns(pl.when(hand).then(pl.col("source_locator")).alias("_own"))
    key = ["model_id", "benchmark", "unit", "date", "_own"]
    # Consecutive scores (sorted) closer than the tolerance form one measurement.
    gap = (pl.col("score") - pl.col("score").shift(1).over(key)).fill_null(float("inf"))
    df = df.with_columns((gap > SCORE_TOLERANCE).cum_sum().over(key).alias("_m"))
    df = df.with_columns(pl.col("_rank").rank("ordinal").over([*key, "_m"]).alias("_pos"))
    ids = df.group_by([*key, "_m"]).agg(pl.col("source_id").unique().alias("_s"))
    ids = ids.with_columns(
        pl.col("_s")
        .map_elements(
            lambda v: ";".join(sorted(v, key=lambda x: (_rank(x), x))), return_dtype=pl.String
        )
        .alias("source_ids")
    ).drop("_s")
    df = df.join(ids, on=[*key, "_m"], how="left", nulls_equal=True)
    df = df.with_columns(
        pl.struct(*key, "_m")
        .map_elements(
            lambda s: row_id(
                "bs",
                s["model_id"],
                s["benchmark"],
                s["unit"],
                s["date"],
                s["_m"],
                *([s["_own"]] if s["_own"] is not None else []),
            ),
            return_dtype=pl.String,
        )
        .alias("row_id")
    )
    obs = df.select(
        pl.lit("benchmark_scores").alias("table"),
        "row_id",
        "source_id",
        pl.col("source_model_name").alias("source_name"),
        "source_locator",
        "date",
        pl.lit(None, dtype=pl.Date).alias("last_seen"),
    ).unique(["row_id", "source_id", "source_locator"], maintain_order=True)
    # The first source in precedence (then the lowest score of a merged group, as sorted)
    # gives the row's own score, name and locator.
    kept = df.filter(pl.col("_pos") == 1).drop("_rank", "_m", "_pos", "_own")
    return kept, obs.cast(OBS_SCHEMA)


def curate_gpus(gpu: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(gpu_hour_prices with row_id and source_ids, observations)."""
    key = [
        "gpu",
        "provider",
        "date",
        "pricing",
        "statistic",
        "source_gpu_name",
        "source_id",
        "source_locator",
    ]
    df = gpu.with_columns(
        pl.struct(*key)
        .map_elements(lambda s: row_id("gp", *s.values()), return_dtype=pl.String)
        .alias("row_id"),
        pl.col("source_id").alias("source_ids"),
    )
    obs = df.select(
        pl.lit("gpu_hour_prices").alias("table"),
        "row_id",
        "source_id",
        pl.col("source_gpu_name").alias("source_name"),
        "source_locator",
        "date",
        pl.lit(None, dtype=pl.Date).alias("last_seen"),
    )
    return df, obs.cast(OBS_SCHEMA)
