"""Epoch AI's price-and-benchmark inputs for "LLM inference prices have fallen rapidly but unequally".

Where and when: `github.com/epoch-research/llm-benchmark-efficiency`, folder `data/` at its newest
commit (2025-03-13), copied byte for byte into `epoch-llm-price-trends/2025-03-13_HEAD/data/`.
These are the inputs of Epoch AI's March 2025 insight (Cottier et al.). Two files are read:

- `aa_data_with_math5.csv` (38 rows, Artificial Analysis data plus Epoch's MATH level 5 runs) and
- `epoch_ai_price_data_not_in_aa_with_benchmarks.csv` (35 rows, Epoch's own additions).

Both have `Model Name, Release Date, USD per 1M Tokens, MMLU, GPQA Diamond, HumanEval, MATH-500,
LMSys Chatbot Arena ELO, MATH 5, ...`. The book must reproduce Epoch's published table from these
rows, so every row is kept and every value is carried exactly as written (no rounding, no unit
change: the benchmark columns are already percent 0-100 written as plain numbers, e.g. `71` or
`78.5`; the Arena column is Elo).

What the rows mean, and what was decided:

- `USD per 1M Tokens` is one blended price. Epoch's stated method: the 3:1 input:output blend from
  the first-party API, else the median across providers. So `blend` is "3:1" and input/output are
  null. The file does not say which provider a price came from: provider is `unspecified`.
- `Release Date` evidently holds the date of the price point, not the model's release (GPT-3
  appears four times with different dates and prices; Claude 2 is dated 2024-08-12). It is kept as
  the price `date` and as the date of the benchmark scores on the same row, and it is *not* used
  as a release date in `model_info` (which carries the name only).
- Rows repeat a model name at different dates (GPT-3 175B (davinci) x4, Command R+, Llama 2-13B,
  Llama 2-7B, o1-mini x2); they differ in date, so the table keys stay unique. An exact repeat of
  (name, date) would be a key collision and raises `DataError`.
- Reasoning models (o1, o1-mini, o1-preview, o3-mini, DeepSeek-R1) are kept: Epoch's analysis
  excludes them, and that choice belongs to the analysis, not the import.
- Left out: `Tokens per Second`, `Prefill Latency (s)` and `Prompt Length (tk)` (no table holds
  them), and `epoch_ai_eval_data.csv`. That file gives token counts per model and task from
  Epoch's evaluation runs (input/output/total tokens, epochs, samples); no price or score in it,
  and the price analysis works on the blended per-token price, so it is not needed here.
"""

from __future__ import annotations

import csv
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.importers.common import (
    MODEL_INFO_SCHEMA,
    check_unique,
    frame,
    iso_date,
    locator,
    number,
)

SOURCE_ID = "epoch-llm-price-trends"
DATA_DIR = "epoch-llm-price-trends/2025-03-13_HEAD/data"
FILES = ["aa_data_with_math5.csv", "epoch_ai_price_data_not_in_aa_with_benchmarks.csv"]

SOURCES = [
    {
        "source_id": SOURCE_ID,
        "title": "LLM inference prices have fallen rapidly but unequally across tasks: input data",
        "publisher": "Epoch AI",
        "url": "https://github.com/epoch-research/llm-benchmark-efficiency",
        "licence": "none stated",
        "retrieved": "2025-03-13",
        "notes": (
            "Blended 3:1 price per model and date (first-party API, else the median across "
            "providers; provider not named). 'Release Date' holds the date of the price point. "
            "Scores in percent (0-100) and Arena Elo, as Epoch used them."
        ),
    }
]

PRICE_COLUMN = "USD per 1M Tokens"
# Column in the files -> (benchmark id, unit). All percent columns are written as 0-100 numbers.
SCORE_COLUMNS = {
    "MMLU": ("mmlu", "percent"),
    "GPQA Diamond": ("gpqa-diamond", "percent"),
    "HumanEval": ("humaneval", "percent"),
    "MATH-500": ("math-500", "percent"),
    "LMSys Chatbot Arena ELO": ("arena-elo", "elo"),
    "MATH 5": ("math-level-5", "percent"),
}
REQUIRED = ["Model Name", "Release Date", PRICE_COLUMN, *SCORE_COLUMNS]


def model_hint(name: str) -> str:
    """Lowercase name with whitespace collapsed: `GPT-4o-2024-05` -> `gpt-4o-2024-05`."""
    return " ".join(name.split()).lower()


def read_rows(path: Path) -> list[dict[str, str]]:
    """Data rows of one Epoch price file, checked for the columns the import needs."""
    with path.open(newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
        if missing:
            raise fail(path, None, missing[0], None, "required column is missing")
        return list(reader)


def _score(path: Path, row: int, column: str, text: str, unit: str) -> float | None:
    value = number(path, row, column, text, rule="must be a plain number")
    if value is not None and unit == "percent" and not 0 <= value <= 100:
        raise fail(path, row, column, text, "percent score must lie in 0-100")
    return value


def parse_file(path: Path, sources_dir: Path) -> tuple[list[dict], list[dict], list[dict]]:
    """One file -> (token_prices rows, benchmark_scores rows, model_info rows)."""
    prices, scores, info = [], [], []
    for i, rec in enumerate(read_rows(path), start=1):
        name = rec["Model Name"].strip()
        if not name:
            raise fail(path, i, "Model Name", rec["Model Name"], "every row needs a model name")
        date = iso_date(path, i, "Release Date", rec["Release Date"], required=True)
        price = number(path, i, PRICE_COLUMN, rec[PRICE_COLUMN], rule="must be a plain number")
        if price is None or price < 0:
            raise fail(path, i, PRICE_COLUMN, rec[PRICE_COLUMN], "every row needs a price >= 0")
        common = {
            "source_model_name": name,
            "model_hint": model_hint(name),
            "source_id": SOURCE_ID,
            "source_locator": locator(sources_dir, path, f"row {i}"),
        }
        prices.append(
            {
                **common,
                "provider": "unspecified",
                "date": date,
                "blended_usd_per_mtok": price,
                "blend": "3:1",
                "currency": "USD",
                "price_kind": "list",
                "context_tier": "",
            }
        )
        for column, (benchmark, unit) in SCORE_COLUMNS.items():
            value = _score(path, i, column, rec[column], unit)
            if value is not None:
                scores.append(
                    {**common, "benchmark": benchmark, "score": value, "unit": unit, "date": date}
                )
        info.append({**common, "name": name})
    return prices, scores, info


def model_info_frame(rows: list[dict]) -> pl.DataFrame:
    """One row per source model name (first occurrence wins), columns as the contract lists."""
    first: dict[str, dict] = {}
    for r in rows:
        first.setdefault(r["source_model_name"], r)
    data = [{k: r.get(k) for k in MODEL_INFO_SCHEMA} for r in first.values()]
    return pl.DataFrame(data, schema=MODEL_INFO_SCHEMA).sort("source_model_name")


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    prices, scores, info = [], [], []
    for name in FILES:
        p, s, m = parse_file(sources_dir / DATA_DIR / name, sources_dir)
        prices += p
        scores += s
        info += m
    check_unique(prices, ("source_model_name", "date"), "token_prices")
    check_unique(scores, ("source_model_name", "benchmark", "date"), "benchmark_scores")
    token_prices = frame("token_prices", prices, drop=("model_id", "first_party"))
    benchmark_scores = frame("benchmark_scores", scores, drop=("model_id",))
    return {
        "token_prices": token_prices.sort("source_model_name", "date"),
        "benchmark_scores": benchmark_scores.sort("benchmark", "source_model_name", "date"),
        "model_info": model_info_frame(info),
    }
