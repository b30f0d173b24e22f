"""Gundlach et al.'s per-benchmark price tables: what it cost to run a benchmark, at the prices then.

Where and when: `github.com/hansgundlach/Algorithmic_Progress_Inference`, folder `data/` at the
commit of 2026-04-27 (a6381e26), copied byte for byte into
`inference-price-trends-gundlach/2026-04-27_HEAD/data/`. These are the tables the regressions of
"The Price of Progress" (arXiv 2511.23455) run on; the book's released data (the `gundlach-inference`
source, `importers/gundlach.py`) carries the authors' general table `inference_data_new_large.csv`
but none of the fields below, so `python -m analysis reproduce gundlach` reads them from here.

Files and fields (headers have whitespace collapsed, as in `importers/gundlach.py`):

- `gpqa_price_reduction_models.csv` (GPQA Diamond, score `epoch_gpqa`: Epoch's run),
  `aime_price_reduction_models.csv` (AIME, score `oneshot_AIME`: Epoch's OTIS Mock AIME
  2024-2025 run) and `swe_price_reduction_models.csv` (SWE-bench Verified, score `epoch_swe`):
  one row per model and price snapshot. The model name carries the snapshot month
  (`"GPT-4 04/01/2024"`) and `Release Date` is that month's first day (MM/DD/YYYY), not the
  model's release: a price change is a new row. `Input/Output Price USD/1M Tokens` are the prices
  in force then (the authors' data card: the lowest price across providers on Artificial
  Analysis, from Wayback Machine snapshots). `Benchmark Cost USD` is the paper's price variable.
- `merged.csv` (ARC-AGI-1): the authors' general table with ARC Prize leaderboard entries matched
  to models (`arc_ARC-AGI-1` score, `arc_Cost/Task` in USD, the paper's price variable for ARC);
  one row per model, dated by `Release Date` (m/d/yy, the model's release). Rows without an ARC
  score are left out.

Benchmark cost from token counts (`recomputed_cost_usd`; the regression uses the file's own
`Benchmark Cost USD`): token counts are Epoch's totals over all runs (`gpqa_epochs`,
`AIME_epochs`; blank is one run), so cost = (input x input price + billed output x output price)
/ runs / 10^6, where billed output adds the reasoning tokens when the file says they are not
already in the output count (`gpqa_reasoning_in_output` / `reasoning_in_output` False).
This gives the file's cost on every GPQA and AIME row. SWE-bench counts are one run; cached
input is billed at the cache-read price when `cache_in_input` is True (taken out of the input
count) and cache writes at the cache-write price: this gives the file's cost on 23 of its 28
rows; on the other 5 (Gemini 3.1 Pro, GPT-5.2, GPT-5.1, GPT-5 mini high, o3-mini) the file
bills all input at the full input price. ARC has no token counts (null).

Also produced: the 3:1 blended price per 1M tokens (`Blended Price (3:1) USD/1M Tokens` in the
per-benchmark files, `Blended USD/1M Tokens`, Artificial Analysis' current blend, in
`merged.csv`), `open_licence` (the authors' rule: `License` contains "open"; blank is not open)
and `reasoning` (`Reasoning_TF`; blank is unknown). Scores are percent (`"93.30%"` -> 93.3).
Nothing is filtered here: rows with a missing or zero price or score are the method's to drop.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.importers.common import locator
from analysis.data.importers.gundlach import parse_price, parse_score

FOLDER = "inference-price-trends-gundlach/2026-04-27_HEAD/data"
COMMIT = "a6381e26b51c771ff73ecaffbb7dafbbbb411af5"

INPUT = "Input Price USD/1M Tokens"
OUTPUT = "Output Price USD/1M Tokens"


@dataclass(frozen=True)
class Tokens:
    """Token-count columns of one benchmark (names as in the file)."""

    input: str
    output: str
    reasoning: str
    reasoning_in_output: str
    runs: str | None = None
    cache_reads: str | None = None
    cache_writes: str | None = None
    cache_in_input: str | None = None


@dataclass(frozen=True)
class BenchmarkFile:
    file: str
    score: str
    cost: str
    blended: str
    tokens: Tokens | None


FILES = {
    "gpqa-diamond": BenchmarkFile(
        "gpqa_price_reduction_models.csv",
        "epoch_gpqa",
        "Benchmark Cost USD",
        "Blended Price (3:1) USD/1M Tokens",
        Tokens(
            "input_tokens_epoch_gpqa",
            "output_tokens_epoch_gpqa",
            "gpqa_reasoning_tokens",
            "gpqa_reasoning_in_output",
            runs="gpqa_epochs",
        ),
    ),
    "aime": BenchmarkFile(
        "aime_price_reduction_models.csv",
        "oneshot_AIME",
        "Benchmark Cost USD",
        "Blended Price (3:1) USD/1M Tokens",
        Tokens(
            "input tokens AIME",
            "output tokens AIME",
            "AIME_reasoning",
            "reasoning_in_output",
            runs="AIME_epochs",
        ),
    ),
    "swe-bench-verified": BenchmarkFile(
        "swe_price_reduction_models.csv",
        "epoch_swe",
        "Benchmark Cost USD",
        "Blended Price (3:1) USD/1M Tokens",
        Tokens(
            "input tokens swe",
            "output tokens swe",
            "reasoning swe",
            "reasoning_in_output_swe",
            cache_reads="cache reads swe",
            cache_writes="cache write swe",
            cache_in_input="cache_in_input",
        ),
    ),
    "arc-agi-1": BenchmarkFile(
        "merged.csv", "arc_ARC-AGI-1", "arc_Cost/Task", "Blended USD/1M Tokens", None
    ),
}
CACHE_READ_PRICE = "cache_read_cost"
CACHE_WRITE_PRICE = "cache_write_cost"

SCHEMA = {
    "benchmark": pl.String,
    "source_model_name": pl.String,
    "date": pl.Date,
    "score": pl.Float64,
    "benchmark_cost_usd": pl.Float64,
    "recomputed_cost_usd": pl.Float64,
    "input_usd_per_mtok": pl.Float64,
    "output_usd_per_mtok": pl.Float64,
    "blended_usd_per_mtok_3to1": pl.Float64,
    "open_licence": pl.Boolean,
    "reasoning": pl.Boolean,
    "source_locator": pl.String,
}


def read_records(path: Path, required: list[str]) -> tuple[dict[str, int], list[list[str]]]:
    """Records with headers whitespace-collapsed; `required` columns must exist and be unique."""
    with path.open(newline="", encoding="utf-8-sig") as fh:
        header, *records = list(csv.reader(fh))
    names = [" ".join(h.split()) for h in header]
    for name in required:
        if names.count(name) != 1:
            rule = "required column is missing" if name not in names else "column appears twice"
            raise fail(path, None, name, None, rule)
    for i, rec in enumerate(records, start=1):
        if len(rec) != len(names):
            raise fail(path, i, None, len(rec), f"row must have {len(names)} fields")
    return {n: names.index(n) for n in required}, records


def parse_count(path: Path, row: int, column: str, text: str) -> float | None:
    """Token counts: `"1,065,633,273"`, `"2.86E+06"`, `"7580000.0"`; blank -> None."""
    text = text.strip().replace(",", "")
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise fail(path, row, column, text, "must be a token count") from None
    if not value.is_finite() or value < 0:
        raise fail(path, row, column, text, "must be a finite count >= 0")
    return float(value)


def parse_date(path: Path, row: int, column: str, text: str) -> dt.date | None:
    """`03/01/2026` or `8/7/25` -> a date; blank -> None."""
    text = text.strip()
    if not text:
        return None
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})", text)
    try:
        if not m:
            raise ValueError
        year = int(m[3]) + (2000 if len(m[3]) == 2 else 0)
        return dt.date(year, int(m[1]), int(m[2]))
    except ValueError:
        raise fail(path, row, column, text, "must be a date MM/DD/YYYY or m/d/yy") from None


def parse_flag(path: Path, row: int, column: str, text: str) -> bool | None:
    """`True` / `False` in any case; blank -> None."""
    text = text.strip().lower()
    if not text:
        return None
    if text not in ("true", "false"):
        raise fail(path, row, column, text, "expected True, False or blank")
    return text == "true"


def recompute_cost(path: Path, i: int, cell, t: Tokens) -> float | None:
    """Benchmark cost in USD from token counts and the prices in force (module docstring)."""
    count = {
        c: parse_count(path, i, c, cell(c))
        for c in (t.input, t.output, t.reasoning, t.runs, t.cache_reads, t.cache_writes)
        if c
    }
    p_in, p_out = (parse_price(path, i, c, cell(c)) for c in (INPUT, OUTPUT))
    if count[t.input] is None or count[t.output] is None or p_in is None or p_out is None:
        return None
    billed_output = count[t.output]
    if parse_flag(path, i, t.reasoning_in_output, cell(t.reasoning_in_output)) is False:
        billed_output += count[t.reasoning] or 0.0
    cost = count[t.input] * p_in + billed_output * p_out
    if t.cache_reads:
        p_read = parse_price(path, i, CACHE_READ_PRICE, cell(CACHE_READ_PRICE)) or 0.0
        p_write = parse_price(path, i, CACHE_WRITE_PRICE, cell(CACHE_WRITE_PRICE)) or 0.0
        reads, writes = count[t.cache_reads] or 0.0, count[t.cache_writes] or 0.0
        if parse_flag(path, i, t.cache_in_input, cell(t.cache_in_input)):
            cost -= reads * p_in  # cached input counted in the input: bill it at the cache price
        cost += reads * p_read + writes * p_write
    runs = (count.get(t.runs) if t.runs else None) or 1.0
    return cost / runs / 1e6


def read_benchmark(sources_dir: Path, benchmark: str) -> pl.DataFrame:
    """One benchmark's rows (SCHEMA), in file order."""
    spec = FILES[benchmark]
    path = sources_dir / FOLDER / spec.file
    t = spec.tokens
    token_cols = [c for c in vars(t).values() if c] if t else []
    prices = [INPUT, OUTPUT] + (
        [CACHE_READ_PRICE, CACHE_WRITE_PRICE] if t and t.cache_reads else []
    )
    required = ["Model", "Release Date", "License", "Reasoning_TF", spec.score, spec.cost]
    col, records = read_records(path, [*required, spec.blended, *prices, *token_cols])
    rows = []
    for i, rec in enumerate(records, start=1):

        def cell(name: str, rec=rec) -> str:
            return rec[col[name]]

        score = parse_score(path, i, spec.score, cell(spec.score), "percent")
        if benchmark == "arc-agi-1" and score is None:
            continue  # merged.csv is the general table: only rows matched to an ARC entry
        rows.append(
            {
                "benchmark": benchmark,
                "source_model_name": " ".join(cell("Model").split()),
                "date": parse_date(path, i, "Release Date", cell("Release Date")),
                "score": score,
                "benchmark_cost_usd": parse_price(path, i, spec.cost, cell(spec.cost)),
                "recomputed_cost_usd": recompute_cost(path, i, cell, t) if t else None,
                "input_usd_per_mtok": parse_price(path, i, INPUT, cell(INPUT)),
                "output_usd_per_mtok": parse_price(path, i, OUTPUT, cell(OUTPUT)),
                "blended_usd_per_mtok_3to1": parse_price(path, i, spec.blended, cell(spec.blended)),
                "open_licence": "open" in cell("License").lower(),
                "reasoning": parse_flag(path, i, "Reasoning_TF", cell("Reasoning_TF")),
                "source_locator": locator(sources_dir, path, f"row {i}"),
            }
        )
    return pl.DataFrame(rows, schema=SCHEMA)


def read(sources_dir: Path, benchmarks: list[str] | None = None) -> pl.DataFrame:
    """Every benchmark's rows in one frame (SCHEMA). The folder must exist: these fields are in
    no released data version."""
    if not (sources_dir / FOLDER).is_dir():
        raise fail(
            sources_dir / FOLDER,
            None,
            None,
            None,
            "folder not found: the authors' per-benchmark tables (token counts, benchmark costs) "
            "are not in the released data; they are read from the raw sources (../shared/sources)",
        )
    return pl.concat([read_benchmark(sources_dir, b) for b in benchmarks or list(FILES)])
