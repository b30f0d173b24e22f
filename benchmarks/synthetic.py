"""A synthetic but realistic data folder at scale, for the scale benchmark (no real numbers).

The shape follows a year and more of daily marketplace scrapes: a few thousand models, ~80
providers, every offer (model x provider x price kind x source) observed once a day for a run of
days, its price piecewise constant (a change every few months, drifting down over time), output
a multiple of input, some cached and batch prices, a few CNY rows with original amounts, a few
rows with only a blended price. Then a small share of rows is broken the ways hand edits and
spreadsheets break them (padded or non-breaking-space numbers, `1_000`, `inf`, `NaN`, `#N/A`,
decimal commas, Excel date serials, impossible and out-of-range dates, unknown codes, ids that
are not slugs, unknown models, duplicated rows). Every broken cell is recorded, so the benchmark
can check the validator finds exactly those.

Everything is seeded: the same arguments give the same bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analysis.data.schema import TABLE_ORDER, TABLES

START = np.datetime64("2023-01-01")
END = np.datetime64("2026-11-30")
ORGS = [
    "alpha-ai",
    "borealis",
    "cirrus",
    "deltalabs",
    "ember",
    "fjord",
    "granite",
    "helix",
    "iris",
    "juniper",
    "kestrel",
    "lumen",
    "meridian",
    "nimbus",
    "orbit",
    "prism",
    "quartz",
    "rune",
    "sable",
    "tundra",
]
SOURCES = ["scrape-a", "scrape-b", "scrape-c", "scrape-d", "scrape-e"]
BENCHMARKS = ["mmlu", "gpqa-diamond", "arena-elo"]

# Broken cells: (column, raw text, rule the validator must name). `{v}` is the cell's own value.
CORRUPTIONS = [
    ("input_usd_per_mtok", " {v} ", "type-error"),
    ("input_usd_per_mtok", "{v}\u00a0", "type-error"),
    ("output_usd_per_mtok", "1_000", "type-error"),
    ("output_usd_per_mtok", "inf", "type-error"),
    ("input_usd_per_mtok", "NaN", "type-error"),
    ("output_usd_per_mtok", "#N/A", "type-error"),
    ("input_usd_per_mtok", "2,5", "type-error"),
    ("output_usd_per_mtok", "-{v}", "minimum"),
    ("date", "2025-02-30", "type-error"),
    ("date", "45292", "type-error"),
    ("date", "15/01/2025", "type-error"),
    ("date", "1999-12-31", "minimum"),
    ("date", "2062-01-01", "future"),
    ("currency", "usd", "enum"),
    ("price_kind", "flash-sale", "enum"),
    ("provider", "Open AI", "pattern"),
    ("first_party", "TRUE", "type-error"),
    ("model_id", "no-such-model", "foreign-key"),
]


@dataclass(frozen=True)
class Panel:
    folder: Path
    rows: int  # data rows of token_prices.csv, bad ones included
    bad_cells: int  # cells broken on purpose
    duplicate_rows: int  # rows that repeat an earlier row's key
    bytes: int


def _models(rng: np.random.Generator, n: int) -> pl.DataFrame:
    org = rng.integers(0, len(ORGS), n)
    span = int((END - np.datetime64("2021-06-01")).astype(int))
    release = np.datetime64("2021-06-01") + rng.integers(0, span, n)
    return pl.DataFrame(
        {
            "model_id": [f"{ORGS[o]}-m{i:05d}" for i, o in enumerate(org)],
            "name": [f"{ORGS[o].title()} M{i:05d}" for i, o in enumerate(org)],
            "organization": [ORGS[o] for o in org],
            "release_date": release,
            "open_weights": rng.random(n) < 0.6,
            "parameters_b": np.round(np.exp(rng.normal(3.5, 1.2, n)), 1),
            "reasoning": rng.random(n) < 0.15,
        }
    ).with_columns(
        pl.col("release_date").cast(pl.Date),
        pl.lit(True).alias("resolved"),
        pl.lit("scrape-a").alias("info_source_id"),
        pl.col("parameters_b").alias("active_parameters_b"),
        pl.col("name").alias("aliases"),
    )


def _prices(rng: np.random.Generator, models: pl.DataFrame, rows: int) -> pl.DataFrame:
    """One row per offer per day; about `rows` rows in all."""
    n_models = models.height
    mean_days = 400
    n_offers = max(1, int(rows / (mean_days * 0.8)))  # offers cut short at END; trimmed below
    m = rng.integers(0, n_models, n_offers)
    providers = np.array([f"host-{i:02d}" for i in range(80)] + ORGS)
    # Mostly third-party hosts; a model's own organisation sells it too.
    own = rng.random(n_offers) < 0.15
    orgs = models["organization"].to_numpy()
    provider = np.where(own, orgs[m], providers[rng.integers(0, 80, n_offers)])
    release = models["release_date"].to_numpy().astype("datetime64[D]")[m]
    first = np.maximum(release, START)
    room = (END - first).astype(int)
    days = np.minimum(rng.integers(mean_days // 2, mean_days * 3 // 2, n_offers), room + 1)
    start = first + rng.integers(0, np.maximum(room - days + 2, 1))
    base = np.exp(rng.normal(0.0, 1.3, n_models))[m] * np.exp(rng.normal(0, 0.35, n_offers))
    offers = pl.DataFrame(
        {
            "offer": np.arange(n_offers),
            "model_id": models["model_id"].to_numpy()[m],
            "provider": provider,
            "first_party": own,
            "start": start,
            "days": days,
            "base": base,
            "out_ratio": rng.choice([2.0, 3.0, 4.0, 5.0], n_offers),
            "cached": rng.random(n_offers) < 0.3,
            "batch": rng.random(n_offers) < 0.1,
            "cny": rng.random(n_offers) < 0.03,
            "blended_only": rng.random(n_offers) < 0.01,
            "price_kind": rng.choice(
                ["list", "promotional", "off-peak"], n_offers, p=[0.95, 0.04, 0.01]
            ),
            "quantization": rng.choice(["", "fp8", "bf16"], n_offers, p=[0.7, 0.2, 0.1]),
            "source_id": rng.choice(SOURCES, n_offers),
            "change_every": rng.integers(60, 180, n_offers),
        }
    ).with_columns(pl.col("start").cast(pl.Date))
    # One offer per model x provider x price kind x source (the table's key, with the date).
    offers = offers.unique(["model_id", "provider", "price_kind", "source_id"], keep="first")
    offers = offers.sort("offer")
    df = (
        offers.with_columns(
            pl.date_ranges("start", pl.col("start") + pl.duration(days=pl.col("days") - 1)).alias(
                "date"
            )
        )
        .explode("date")
        .head(rows)
    )
    age = (pl.col("date") - pl.col("start")).dt.total_days()
    years = (pl.col("date") - pl.lit(np.datetime64("2023-01-01")).cast(pl.Date)).dt.total_days()
    # Piecewise constant: the price holds between changes and falls ~3x a year across changes.
    step = (age // pl.col("change_every")) * pl.col("change_every")
    level = pl.col("base") * (10 ** (-0.48 * (years - age + step) / 365))
    usd_in = level.round_sig_figs(3)
    usd_out = (level * pl.col("out_ratio")).round_sig_figs(3)
    cny = pl.col("cny")
    only_blend = pl.col("blended_only")
    return df.select(
        "model_id",
        "provider",
        "first_party",
        "date",
        pl.col("date").alias("last_seen"),
        pl.when(~only_blend).then(usd_in).alias("input_usd_per_mtok"),
        pl.when(~only_blend).then(usd_out).alias("output_usd_per_mtok"),
        pl.when(pl.col("cached") & ~only_blend)
        .then((usd_in * 0.1).round_sig_figs(3))
        .alias("cached_input_usd_per_mtok"),
        pl.when(pl.col("batch") & ~only_blend)
        .then((usd_in * 0.5).round_sig_figs(3))
        .alias("batch_input_usd_per_mtok"),
        pl.when(pl.col("batch") & ~only_blend)
        .then((usd_out * 0.5).round_sig_figs(3))
        .alias("batch_output_usd_per_mtok"),
        pl.when(only_blend)
        .then(((usd_in * 3 + usd_out) / 4).round_sig_figs(3))
        .alias("blended_usd_per_mtok"),
        pl.when(only_blend).then(pl.lit("3:1")).alias("blend"),
        pl.when(cny).then(pl.lit("CNY")).otherwise(pl.lit("USD")).alias("currency"),
        pl.when(cny & ~only_blend)
        .then((usd_in * 7.2).round_sig_figs(3))
        .alias("input_original_per_mtok"),
        pl.when(cny & ~only_blend)
        .then((usd_out * 7.2).round_sig_figs(3))
        .alias("output_original_per_mtok"),
        pl.lit(None, pl.Float64).alias("blended_original_per_mtok"),
        "price_kind",
        pl.lit(None, pl.String).alias("context_tier"),
        pl.when(pl.col("quantization") != "").then("quantization").alias("quantization"),
        pl.format("{}/{}", "provider", "model_id").alias("source_model_name"),
        "source_id",
        pl.format("{}/snapshots/{}.json@9f3c2a1b7d4e#offer {}", "source_id", "date", "offer").alias(
            "source_locator"
        ),
    )


def _corrupt(
    rng: np.random.Generator, df: pl.DataFrame, share: float
) -> tuple[pl.DataFrame, int, int]:
    """Break `share` of the rows: one cell each, or (1 in 19) a repeat of the row before.

    Returns the broken text, a log of the broken cells (row, column, rule the validator must
    name) and the number of repeated rows."""
    n = df.height
    n_bad = int(n * share)
    rows = np.sort(rng.choice(n, n_bad, replace=False))
    kinds = rng.integers(0, len(CORRUPTIONS) + 1, n_bad)
    dup = kinds == len(CORRUPTIONS)
    text = df.with_columns(pl.all().cast(pl.String)).with_row_index("_row")
    bad = pl.DataFrame({"_row": rows[~dup].astype(np.uint32), "_kind": kinds[~dup]})
    text = text.join(bad, on="_row", how="left")
    for k, (col, raw, _rule) in enumerate(CORRUPTIONS):
        hit = pl.col("_kind") == k
        if "{v}" in raw:
            before, after = raw.split("{v}")
            new = pl.concat_str(pl.lit(before), pl.col(col).fill_null("1.0"), pl.lit(after))
        else:
            new = pl.lit(raw)
        text = text.with_columns(pl.when(hit).then(new).otherwise(pl.col(col)).alias(col))
    # A duplicated row: the row is replaced by a copy of the row before it (same key).
    # Copy only from an unbroken row, so each copy is one duplicate key and nothing else.
    dup_rows = rows[dup]
    dup_rows = dup_rows[(dup_rows > 0) & ~np.isin(dup_rows - 1, rows)]
    src = pl.DataFrame(
        {"_row": (dup_rows - 1).astype(np.uint32), "_to": dup_rows.astype(np.uint32)}
    )
    copies = text.join(src, on="_row").drop("_row").rename({"_to": "_row"})
    text = pl.concat([text.filter(~pl.col("_row").is_in(dup_rows)), copies.select(text.columns)])
    text = text.sort("_row").drop("_row", "_kind")
    log = pl.DataFrame(
        {
            "row": rows[~dup] + 1,
            "column": [CORRUPTIONS[k][0] for k in kinds[~dup]],
            "rule": [CORRUPTIONS[k][2] for k in kinds[~dup]],
        }
    )
    return text, log, len(dup_rows)


def _scores(rng: np.random.Generator, models: pl.DataFrame) -> pl.DataFrame:
    days = (
        pl.col("release_date") - pl.lit(np.datetime64("2021-06-01")).cast(pl.Date)
    ).dt.total_days()
    frames = []
    for b in BENCHMARKS:
        skill = days / 2000 + pl.lit(rng.normal(0, 0.25, models.height))
        score = (
            (1000 + 500 * skill).round(0)
            if b == "arena-elo"
            else (100 / (1 + (-3 * (skill - 0.3)).exp())).round(1)
        )
        frames.append(
            models.select(
                "model_id",
                pl.lit(b).alias("benchmark"),
                score.alias("score"),
                pl.lit("elo" if b == "arena-elo" else "percent").alias("unit"),
                pl.col("release_date").alias("date"),
                pl.col("name").alias("source_model_name"),
                pl.lit("scrape-a").alias("source_id"),
                pl.format("leaderboard.csv@9f3c2a1b7d4e#{}", "model_id").alias("source_locator"),
            )
        )
    return pl.concat(frames)


def write_panel(folder: Path, rows: int, *, bad_share: float = 0.02, seed: int = 14) -> Panel:
    """Write models, sources, benchmark_scores and token_prices (about `rows` rows) to `folder`."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    n_models = int(min(5000, max(500, rows // 4000)))
    models = _models(rng, n_models)
    sources = pl.DataFrame(
        {
            "source_id": SOURCES,
            "title": [f"Synthetic scrape {s[-1]}" for s in SOURCES],
            "publisher": "benchmark",
            "url": [f"https://example.org/{s}" for s in SOURCES],
            "licence": "none stated",
        }
    ).with_columns(
        pl.lit(np.datetime64("2026-11-30")).cast(pl.Date).alias("retrieved"),
        pl.lit(None, pl.String).alias("notes"),
    )
    prices = _prices(rng, models, rows)
    broken, log, n_dup = _corrupt(rng, prices, bad_share)
    n_bad = log.height
    log.write_csv(folder / "broken.csv")
    tables = {
        "sources": sources,
        "models": models,
        "benchmark_scores": _scores(rng, models),
        "token_prices": broken,
    }
    for name, df in tables.items():
        cols = TABLES[name].column_names
        # The curated columns (developer, spells, flags, ...) are optional: written empty, except
        # the developer, which a synthetic model takes from its organisation.
        if name == "models" and "developer" not in df.columns:
            df = df.with_columns(pl.col("organization").alias("developer"))
        df = df.with_columns(
            pl.lit(None, dtype=pl.String).alias(c) for c in cols if c not in df.columns
        )
        df.select(cols).write_csv(folder / f"{name}.csv", date_format="%Y-%m-%d")
    (folder / "panel.json").write_text(
        json.dumps({"rows": broken.height, "bad_cells": n_bad, "duplicate_rows": n_dup})
    )
    return Panel(folder, broken.height, n_bad, n_dup, (folder / "token_prices.csv").stat().st_size)


def tables_written() -> list[str]:
    return [
        t for t in TABLE_ORDER if t in {"sources", "models", "benchmark_scores", "token_prices"}
    ]
