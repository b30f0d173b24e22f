"""Every published figure the book cites, beside the book's reproduction of it.

`published_vs_reproduced(version)` returns one row per figure: what the publication states, the
value the book's data and the publication's own method give, the difference, whether the two
agree at the precision the publication states the figure, and the command that reproduces it
(`python -m analysis reproduce all` prints the table as CSV).

Agreement rules: "nearest" means the reproduction rounds to the published value at the stated
precision (|reproduced - published| <= precision / 2: "about 40x" is stated to the nearest 10);
"at least" means the published value is a floor stated to that precision ("more than
280-fold": 280 <= reproduced < 290).

Gundlach et al.'s per-benchmark tables are in no released data version: their rows are read from
the raw sources folder, and where it is absent they carry no reproduced value and say why.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis.data import reads
from analysis.data import release as data
from analysis.data.cache import cached
from analysis.data.errors import DataError
from analysis.data.importers import gundlach_benchmarks
from analysis.data.paths import SHARED_SOURCES
from analysis.data.reads import memo
from analysis.methods import ai_index, fixed_capability, gpu_prices, gundlach, llmflation
from analysis.report import results
from analysis.report.quote import Quote

SCHEMA = {
    "figure": pl.String,
    "publication": pl.String,
    "citation": pl.String,
    "stated": pl.String,
    "published": pl.Float64,
    "reproduced": pl.Float64,
    "difference": pl.Float64,
    "unit": pl.String,
    "precision": pl.Float64,
    "rule": pl.String,
    "within_rounding": pl.Boolean,
    "command": pl.String,
    "note": pl.String,
    "data_version": pl.String,
}
RULES = ("nearest", "at least")
GUNDLACH_NAMES = {
    "gpqa-diamond": "GPQA Diamond",
    "aime": "AIME",
    "swe-bench-verified": "SWE-bench Verified",
    "arc-agi-1": "ARC-AGI-1",
}


def agrees(published: float, reproduced: float | None, precision: float, rule: str) -> bool | None:
    """Does `reproduced` give `published` at the stated precision (module docstring)?"""
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}, got {rule!r}")
    if reproduced is None:
        return None
    eps = 1e-9 * max(1.0, abs(published))  # so that a value exactly half-way rounds up
    if rule == "nearest":
        return abs(reproduced - published) <= precision / 2 + eps
    return published - eps <= reproduced < published + precision


def _row(figure, publication, citation, stated, published, reproduced, unit, precision, rule,
         command, note=None) -> dict:  # fmt: skip
    return {
        "figure": figure,
        "publication": publication,
        "citation": citation,
        "stated": stated,
        "published": float(published),
        "reproduced": None if reproduced is None else float(reproduced),
        "difference": None if reproduced is None else float(reproduced) - float(published),
        "unit": unit,
        "precision": float(precision),
        "rule": rule,
        "within_rounding": agrees(published, reproduced, precision, rule),
        "command": command,
        "note": note,
    }


# --- the reproductions, on a data version ------------------------------------------------------


def _tables(version: str) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The tables every analysis reads: the release less its flagged rows."""
    return results.token_tables(version)


def gundlach_rows(sources_dir: Path | None = None) -> pl.DataFrame:
    """The authors' per-benchmark rows, from the raw sources (they are in no released version)."""
    sources_dir = sources_dir or SHARED_SOURCES
    reads.record_folder(sources_dir / gundlach_benchmarks.FOLDER)  # an input of the page too
    return gundlach_benchmarks.read(sources_dir)


def gundlach_reproduction(sources_dir: Path | None = None) -> pl.DataFrame:
    """`python -m analysis reproduce gundlach`: every benchmark x sample x price variable."""
    return gundlach.reproduce(gundlach_rows(sources_dir))


def gundlach_decomposition(
    version: str | None = None, sources_dir: Path | None = None
) -> pl.DataFrame:
    """From the paper's GPQA Diamond frontier factor to the book's hedonic one, step by step
    (`gundlach.decomposition`), with the data version the book's steps use."""
    v = data.current_version(version)
    table = gundlach.decomposition(gundlach_rows(sources_dir), *_tables(v))
    return table.with_columns(pl.lit(v).alias("data_version"))


def decomposition_steps(version: str | None = None) -> pl.DataFrame:
    """`gundlach_decomposition` where the raw sources are at hand, else an empty frame (no
    released data version holds the authors' per-benchmark rows)."""
    if SHARED_SOURCES.exists():
        return _decomposition(data.current_version(version), raw_fingerprint())
    return pl.DataFrame(schema={"step": pl.Int64, "change": pl.String})


def raw_fingerprint() -> str:
    """The sha256 of the authors' raw files (`reads.folder_digest`): an argument of the cached
    results read from them, so an edit to those files is a miss."""
    return reads.folder_digest(SHARED_SOURCES / gundlach_benchmarks.FOLDER)


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fits
def _decomposition(v: str, _raw: str) -> pl.DataFrame:
    return gundlach_decomposition(v)


def decomposition_sentence(steps: pl.DataFrame) -> str:
    """The path from the paper's factor to the book's, or why this rendering cannot show it."""
    if steps.height == 0:
        return (
            "The decomposition needs the authors' per-benchmark rows, which are in no released "
            "data version: render the book beside the raw sources to see it."
        )
    first, last = steps.row(0, named=True), steps.row(-1, named=True)
    largest = steps.slice(1).sort("ratio_to_previous", descending=True).row(0, named=True)
    return (
        f"It starts from the paper's own figure, {Quote(first['factor_per_year'], 'factor')} per "
        f"year, reproduced from the authors' data, and ends at the book's, "
        f"{Quote(last['factor_per_year'], 'factor')}; the largest single step is "
        f"\u201c{largest['change']}\u201d, which multiplies the factor by "
        f"{Quote(largest['ratio_to_previous'], 'number')}."
    )


def ai_index_comparisons(version: str | None = None) -> pl.DataFrame:
    """`python -m analysis reproduce ai-index`: the 280-fold and its extension to the newest data."""
    v = data.current_version(version)
    return ai_index.comparisons(*_tables(v)).with_columns(pl.lit(v).alias("data_version"))


def hardware_trend(version: str | None = None) -> dict:
    """`python -m analysis reproduce hardware`: growth of FLOP/s (FP32) per dollar of release
    price across the chips in `gpu_specs`, the fit the GPU-hour chapter draws beside Epoch's ~30%."""
    v = data.current_version(version)
    at_release = gpu_prices.flops_per_dollar_at_release(data.load("gpu_specs", v))
    return gpu_prices.flops_per_dollar_trend(at_release, data_version=v)


# --- the table ---------------------------------------------------------------------------------


def epoch_rows(token_prices, scores, models) -> list[dict]:
    table = fixed_capability.reproduce_epoch(token_prices, scores, models)
    gpt4 = table.filter(
        (pl.col("benchmark") == "gpqa-diamond") & (pl.col("threshold_model") == "GPT-4-0314")
    ).row(0, named=True)
    pub = fixed_capability.EPOCH_PUBLISHED
    cmd = "python -m analysis reproduce epoch"
    who, key = "Cottier et al. 2025 (Epoch AI)", "cottier2025llminference"
    factor = "factor per year (price falls)"
    return [
        _row("Epoch: GPT-4-level price on GPQA Diamond", who, key, "40x per year",
             pub["gpqa_gpt4_level_factor"], gpt4["factor_per_year"], factor, 10, "nearest", cmd,
             f"90% interval {gpt4['ci90_low']:.1f} to {gpt4['ci90_high']:.0f}, n={gpt4['n']}"),
        _row("Epoch: slowest trend across benchmarks and thresholds", who, key, "9x per year",
             pub["range_low"], table["factor_per_year"].min(), factor, 1, "nearest", cmd),
        _row("Epoch: fastest trend across benchmarks and thresholds", who, key, "900x per year",
             pub["range_high"], table["factor_per_year"].max(), factor, 100, "nearest", cmd),
        _row("Epoch: trends in the table (distinct thresholds)", who, key, "21 trends",
             pub["trends"], table.height, "trends", 1, "nearest", cmd),
    ]  # fmt: skip


def a16z_rows(token_prices, scores, version: str) -> list[dict]:
    through = results.version_date(version)
    series = llmflation.monthly_minimum(token_prices, scores, through=through)
    fit = llmflation.a16z_fit(series, window="a16z window")
    cmd, who, key = (
        "python -m analysis reproduce a16z",
        "Appenzeller 2024 (a16z)",
        "appenzeller2024llmflation",
    )
    note = (
        f"endpoints {fit['first_model']} ${fit['first_price']:g} to {fit['last_model']} "
        f"${fit['last_price']:g}; the log-linear fit through the monthly minima gives "
        f"{fit['factor_per_year']:.1f}x (90% {fit['ci90_low']:.1f} to {fit['ci90_high']:.1f})"
    )
    usd = "USD per 1M tokens (1:1 blend)"
    return [
        _row("a16z: LLMflation, cheapest model with MMLU >= 42", who, key, "10x per year",
             llmflation.A16Z_STATED["factor_per_year"], fit["endpoint_factor_per_year"],
             "factor per year (endpoints)", 1, "nearest", cmd, note),
        _row("a16z: price in November 2021 (GPT-3)", who, key, "$60", 60, fit["first_price"],
             usd, 1, "nearest", cmd),
        _row("a16z: price in November 2024 (Llama 3.2 3B)", who, key, "$0.06", 0.06,
             fit["last_price"], usd, 0.01, "nearest", cmd, f"the book's cheapest: {fit['last_model']}"),
    ]  # fmt: skip


def gundlach_published_rows(sources_dir: Path | None) -> list[dict]:
    cmd, key = "python -m analysis reproduce gundlach", "gundlach2025priceofprogress"
    try:
        table = gundlach_reproduction(sources_dir)
        low, high = gundlach.frontier_range(table)
        note = None
    except DataError as err:
        table, low, high, note = None, None, None, f"not reproduced: {err}"
    frontier_note = (
        note
        or "all-licence frontier, benchmark cost, across GPQA Diamond, AIME, SWE-bench Verified "
        "and ARC-AGI-1 (the authors' data at a6381e26, which postdates v2)"
    )
    who = "Gundlach et al., arXiv 2511.23455v2 abstract"
    rows = [
        _row("Gundlach et al.: frontier price of fixed performance, low end", who, key,
             "around 5x per year", gundlach.PUBLISHED_FRONTIER_RANGE[0], low,
             "factor per year (price falls)", 1, "nearest", cmd, frontier_note),
        _row("Gundlach et al.: frontier price of fixed performance, high end", who, key,
             "around 10x per year", gundlach.PUBLISHED_FRONTIER_RANGE[1], high,
             "factor per year (price falls)", 1, "nearest", cmd, frontier_note),
    ]  # fmt: skip
    for bench, name in GUNDLACH_NAMES.items():
        published = gundlach.PUBLISHED[(bench, "frontier")][0]
        got = None
        if table is not None:
            got = table.filter(
                (pl.col("benchmark") == bench)
                & (pl.col("sample") == "frontier")
                & (pl.col("price_variable") == "benchmark cost")
            )["factor_per_year"][0]
        rows.append(
            _row(f"Gundlach et al.: {name} frontier (authors' results table)",
                 "Gundlach et al., results table at the data's commit", key, f"{published:.3f}",
                 published, got, "factor per year (price falls)", 0.001, "nearest", cmd,
                 note or gundlach.PUBLISHED_SOURCE)
        )  # fmt: skip
    return rows


def ai_index_rows(token_prices, scores, models) -> list[dict]:
    r = ai_index.comparisons(token_prices, scores, models).row(0, named=True)
    pub = ai_index.PUBLISHED
    cmd, who = "python -m analysis reproduce ai-index", "AI Index Report 2025 (Stanford HAI)"
    usd = "USD per 1M tokens (3:1 blend)"
    return [
        _row("AI Index: GPT-3.5-level MMLU price, November 2022", who, None, "$20",
             pub["start_price"], r["start_price"], usd, 1, "nearest", cmd,
             f"{r['start_model']}, {r['start_date']}"),
        _row("AI Index: GPT-3.5-level MMLU price, October 2024", who, None, "$0.07",
             pub["end_price"], r["end_price"], usd, 0.01, "nearest", cmd,
             f"{r['end_model']}, {r['end_date']}"),
        _row("AI Index: fall in that price", who, None, "more than 280-fold", pub["fold"],
             r["fold"], "fold", 10, "at least", cmd),
    ]  # fmt: skip


def hardware_rows(version: str) -> list[dict]:
    t = hardware_trend(version)
    note = (
        f"FP32 FLOP/s per dollar of release price, {t['n']} chips "
        f"{t['start_date']:%Y}-{t['end_date']:%Y}; 90% interval "
        f"{(t['ci90_low'] - 1) * 100:.0f}% to {(t['ci90_high'] - 1) * 100:.0f}% a year"
    )
    return [
        _row("Epoch: ML hardware FLOP/s per dollar", "Hobbhahn and Besiroglu 2022 (Epoch AI)",
             "hobbhahn2022gpupriceperformance", "~30% per year",
             gpu_prices.EPOCH_FLOPS_PER_DOLLAR_GROWTH * 100, t["pct_per_year"],
             "percent per year (rises)", 10, "nearest", "python -m analysis reproduce hardware",
             note)
    ]  # fmt: skip


def published_vs_reproduced(
    version: str | None = None, sources_dir: Path | None = None
) -> pl.DataFrame:
    """Every published figure the book cites, with its reproduction (SCHEMA)."""
    v = data.current_version(version)
    if sources_dir is None:  # the book's: kept on disk, keyed to the raw files it reads too
        return _reproduced(v, raw_fingerprint())
    return _published_vs_reproduced(v, sources_dir)


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fits
def _reproduced(v: str, _raw: str) -> pl.DataFrame:
    return _published_vs_reproduced(v, None)


def _published_vs_reproduced(v: str, sources_dir: Path | None) -> pl.DataFrame:
    tp, scores, models = _tables(v)
    rows = [
        *epoch_rows(tp, scores, models),
        *a16z_rows(tp, scores, v),
        *gundlach_published_rows(sources_dir),
        *ai_index_rows(tp, scores, models),
        *hardware_rows(v),
    ]
    return pl.DataFrame(
        rows, schema={k: t for k, t in SCHEMA.items() if k != "data_version"}
    ).with_columns(pl.lit(v).alias("data_version"))
