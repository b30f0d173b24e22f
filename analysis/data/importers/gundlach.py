"""Gundlach et al.'s research table: AA-style scores, release dates and monthly prices per model.

Where and when: `github.com/hansgundlach/Algorithmic_Progress_Inference`, file
`data/inference_data_new_large.csv` at HEAD (commit of 2026-04-27), copied byte for byte into
`inference-price-trends-gundlach/2026-04-27_HEAD/data/`. It is the data behind "The Price of
Progress" (arXiv 2511.23455): 342 rows (327 named models), 160 columns, hand-curated from
Artificial Analysis (AA) pages plus Epoch evaluation logs. No licence is stated.

Reading the file:

- Headers contain embedded `\\r\\n`; they are normalised by collapsing whitespace
  (`"Context\\r\\n Window"` -> `"Context Window"`). Model names are stripped of outer spaces.
- Scores come in two forms, even within one column: percent strings (`"85.40%"` -> 85.4) and,
  in the block of rows copied from AA on 10/25/25, plain fractions (`0.826` -> 82.6). A plain
  number above 1 in a percent column is an error.
- The AA Intelligence Index is a plain number (`61.4`) on some rows and a spreadsheet percent on
  others (`"6900.00%"` means 69.00: the cell held 69 formatted as a percent). AA has re-based
  the index between versions; values are carried as the file gives them.
- In all 46 rows of the 10/25/25 block the MMLU-Pro and LiveCodeBench cells are identical: one
  column was evidently pasted over the other and the file does not say which. Both values are
  dropped on rows where the two cells are identical.
- Prices are USD per 1M tokens, written `0.3` or `"$1.25 "`. A price of 0 marks "no price" in
  this file (Grok 2 and GPT-4o Realtime show $0.00, though both were sold at a price): it is
  read as missing, and a price row with nothing left is skipped.

What is produced:

- `benchmark_scores`: AA Intelligence Index (`aa-intelligence-index`, index), MMLU-Pro, GPQA
  Diamond, Humanity's Last Exam (`hle`), LiveCodeBench, SciCode, HumanEval, MATH-500, AIME 2024
  (`aime-2024`, the column names the 2024 paper set) in percent, and `Chatbot Arena`
  (`arena-elo`, Elo). Each is dated by the row's `Release Date` (m/d/yy); rows without one are
  skipped.
- `token_prices`, provider `unspecified` (the file does not say which provider; the monthly
  prices look like the cheapest or primary provider's), price kind `list`, two kinds of row:
  * monthly observations from the `M/1/YYYY input price` / `output price` columns (4/1/2024 to
    4/1/2026), one row per model x month with a value, dated the 1st of the month;
  * the current input, output and blended price, dated by `Access Date on AA` where given, else
    by the file's HEAD commit date (2026-04-27), which is only an upper bound on when the price
    was read. The blend is AA's 3:1: of the 264 rows with all three prices non-zero, 253 match
    (3 x input + output) / 4 within 1% or 1 cent (the cells are rounded); the other 11 (Llama
    3/3.1/3.3 70B, Llama 4 Scout and Maverick, GLM-4.5, GLM-4.6, Kimi K2 0905, QwQ, ...) are
    multi-provider models whose blended, input and output prices may be medians taken
    separately. None matches a 1:1 blend better.
- `pricing notes` has one entry (Qwen3 235B A22B 2507 (Reasoning)): "december has minimum input
  and output on different providers, weights and bias price looks promotional". The December
  observation is therefore marked `promotional`; in general, a note that says "promotional"
  marks the observations of the months it names.
- `model_info`: name, organisation (`Creator`), release date, open weights (`License` Open /
  Proprietary), parameters and known active parameters (billions: e.g. MiniMax-M2 230 / 10),
  reasoning (`Reasoning_TF`; TRUE or FALSE, blank is unknown).

Left out: tokens/s and latency columns, context window, other AA indices with under 50 values
(IFBench, LCR, Terminal-Bench Hard, tau2-Bench, Multilingual), and the Epoch-eval token counts,
costs and scores (the Epoch benchmark importer reads Epoch's own data).
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.importers.common import (
    MODEL_INFO_SCHEMA,
    check_unique,
    frame,
    locator,
    provenance,
)

SOURCE_ID = "gundlach-inference"
FILE = "inference-price-trends-gundlach/2026-04-27_HEAD/data/inference_data_new_large.csv"

SOURCES = [
    {
        "source_id": SOURCE_ID,
        "title": "Algorithmic Progress in Inference: data for 'The Price of Progress' (arXiv 2511.23455)",
        "publisher": "Hans Gundlach et al.",
        "url": "https://github.com/hansgundlach/Algorithmic_Progress_Inference",
        "licence": "none stated",
        "retrieved": "2026-04-27",
        "notes": (
            "Hand-curated from Artificial Analysis and Epoch logs. Provider of prices not stated. "
            "Current prices dated by AA access date or the commit date (upper bound). "
            "MMLU-Pro and LiveCodeBench dropped where the two cells are identical."
        ),
    }
]

MODEL = "Model"
RELEASE = "Release Date"
ACCESS = "Access Date on AA"
AA_INDEX = "Artificial Analysis Intelligence Index"
MMLU_PRO = "MMLU-Pro (Reasoning & Knowledge)"
LIVECODEBENCH = "LiveCodeBench (Coding)"
BLENDED = "Blended USD/1M Tokens"
INPUT = "Input Price USD/1M Tokens"
OUTPUT = "Output Price USD/1M Tokens"
NOTES = "pricing notes"

# Column -> (benchmark id, unit).
SCORE_COLUMNS = {
    AA_INDEX: ("aa-intelligence-index", "index"),
    MMLU_PRO: ("mmlu-pro", "percent"),
    "GPQA Diamond (Scientific Reasoning)": ("gpqa-diamond", "percent"),
    "Humanity's Last Exam (Reasoning & Knowledge)": ("hle", "percent"),
    LIVECODEBENCH: ("livecodebench", "percent"),
    "SciCode (Coding)": ("scicode", "percent"),
    "HumanEval (Coding)": ("humaneval", "percent"),
    "MATH-500 (Quantitative Reasoning)": ("math-500", "percent"),
    "AIME 2024 (Competition Math)": ("aime-2024", "percent"),
    "Chatbot Arena": ("arena-elo", "elo"),
}
INFO_COLUMNS = ["Creator", "License", "Parameters", "Known Active Parameters", "Reasoning_TF"]
REQUIRED = [MODEL, RELEASE, ACCESS, BLENDED, INPUT, OUTPUT, NOTES, *SCORE_COLUMNS, *INFO_COLUMNS]
MONTHLY = re.compile(r"^(\d{1,2})/1/(\d{4}) (input|output) price$")
MONTHS = "january february march april may june july august september october november december"


_SETTING = re.compile(r"_(?:minimal|low|medium|high|xhigh|\d+[kK])$")


def model_hint(name: str) -> str:
    """Lowercase, whitespace collapsed, route prefix and run setting dropped (`_xhigh`)."""
    base = " ".join(name.split()).rsplit("/", 1)[-1]
    return _SETTING.sub("", base).lower()


@dataclass
class Table:
    """The file's records with normalised headers; `col` maps a header to its position."""

    path: Path
    col: dict[str, int]
    records: list[list[str]]
    monthly: list[tuple[dt.date, str, int]]  # (month, "input"/"output", position)


@dataclass
class Parsed:
    prices: list[dict] = field(default_factory=list)
    scores: list[dict] = field(default_factory=list)
    info: list[dict] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)


def read_table(path: Path) -> Table:
    """Read the CSV; headers have whitespace collapsed and the needed ones must be unique."""
    with path.open(newline="", encoding="utf-8-sig") as fh:
        header, *records = list(csv.reader(fh))
    names = [" ".join(h.split()) for h in header]
    col: dict[str, int] = {}
    for i, name in enumerate(names):
        col.setdefault(name, i)
    for name in REQUIRED:
        if name not in col:
            raise fail(path, None, name, None, "required column is missing")
        if names.count(name) > 1:
            raise fail(path, None, name, None, "column name appears more than once")
    for i, rec in enumerate(records, start=1):
        if len(rec) != len(names):
            raise fail(path, i, None, len(rec), f"row must have {len(names)} fields")
    monthly = []
    for i, name in enumerate(names):
        if m := MONTHLY.match(name):
            monthly.append((dt.date(int(m[2]), int(m[1]), 1), m[3], i))
    return Table(path, col, records, monthly)


def _decimal(path: Path, row: int, column: str, text: str) -> Decimal:
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise fail(path, row, column, text, "must be a number") from None
    if not value.is_finite() or value < 0:
        raise fail(path, row, column, text, "must be a finite number >= 0")
    return value


def parse_score(path: Path, row: int, column: str, text: str, unit: str) -> float | None:
    """`"85.40%"` -> 85.4, `0.826` -> 82.6 (percent); `"6900.00%"` -> 69.0, `61.4` -> 61.4 (index)."""
    text = text.strip()
    if not text:
        return None
    if text.endswith("%"):
        value = _decimal(path, row, column, text[:-1])
        return float(value / 100) if unit == "index" else float(value)
    value = _decimal(path, row, column, text)
    if unit != "percent":
        return float(value)
    if value > 1:
        raise fail(
            path, row, column, text, "a plain number in a percent column must be a fraction 0-1"
        )
    return float(value * 100)


def parse_price(path: Path, row: int, column: str, text: str) -> float | None:
    """`"$1.25 "` or `1.25` -> 1.25 USD per 1M tokens; blank or 0 (no price in this file) -> None."""
    text = text.strip().removeprefix("$").replace(",", "").strip()
    if not text:
        return None
    value = _decimal(path, row, column, text)
    return float(value) if value else None


def parse_date(path: Path, row: int, column: str, text: str) -> dt.date | None:
    """`4/8/26` -> 2026-04-08; blank -> None."""
    text = text.strip()
    if not text:
        return None
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{2})", text)
    try:
        if not m:
            raise ValueError
        return dt.date(2000 + int(m[3]), int(m[1]), int(m[2]))
    except ValueError:
        raise fail(path, row, column, text, "must be a date m/d/yy") from None


def _flag(path: Path, row: int, column: str, text: str, true: str, false: str) -> bool | None:
    text = text.strip()
    if not text:
        return None
    if text not in (true, false):
        raise fail(path, row, column, text, f"expected {true!r}, {false!r} or blank")
    return text == true


def _number(path: Path, row: int, column: str, text: str) -> float | None:
    text = text.strip()
    return float(_decimal(path, row, column, text)) if text else None


class RowReader:
    """Cells of one record by header name, with errors that point at the record."""

    def __init__(self, table: Table, row: int):
        self.table, self.row, self.rec = table, row, table.records[row - 1]

    def __getitem__(self, column: str) -> str:
        return self.rec[self.table.col[column]]

    def at(self, position: int) -> str:
        return self.rec[position]


def _scores(t: Table, r: RowReader, date: dt.date | None, base: dict, out: Parsed) -> None:
    pasted = r[MMLU_PRO].strip() and r[MMLU_PRO] == r[LIVECODEBENCH]
    for column, (benchmark, unit) in SCORE_COLUMNS.items():
        score = parse_score(t.path, r.row, column, r[column], unit)
        if score is None:
            continue
        if pasted and column in (MMLU_PRO, LIVECODEBENCH):
            out.skipped["MMLU-Pro and LiveCodeBench cells identical"] += 1
        elif date is None:
            out.skipped["score without release date"] += 1
        else:
            out.scores.append(
                {**base, "benchmark": benchmark, "score": score, "unit": unit, "date": date}
            )


def _promotional_months(note: str) -> set[int]:
    """Months named in a pricing note that calls a price promotional."""
    note = note.lower()
    if "promotional" not in note:
        return set()
    return {i for i, month in enumerate(MONTHS.split(), start=1) if month in note}


def _monthly_prices(t: Table, r: RowReader, base: dict, out: Parsed) -> None:
    promo = _promotional_months(r[NOTES])
    by_month: dict[dt.date, dict[str, float | None]] = {}
    for month, side, pos in t.monthly:
        header = f"{month.month}/1/{month.year} {side} price"
        by_month.setdefault(month, {})[side] = parse_price(t.path, r.row, header, r.at(pos))
    for month, sides in sorted(by_month.items()):
        if sides.get("input") is None and sides.get("output") is None:
            continue
        kind = "promotional" if month.month in promo else "list"
        row = _price_row(base, month, sides.get("input"), sides.get("output"), None, kind)
        # one locator per cell pair, so each month stays its own observation
        row["source_locator"] = f"{base['source_locator']}, {month.month}/1/{month.year} prices"
        out.prices.append(row)


def _price_row(base: dict, date: dt.date, inp, outp, blended, kind: str) -> dict:
    return {
        **base,
        "provider": "unspecified",
        "date": date,
        "input_usd_per_mtok": inp,
        "output_usd_per_mtok": outp,
        "blended_usd_per_mtok": blended,
        "blend": "3:1" if blended is not None else None,
        "currency": "USD",
        "price_kind": kind,
        "context_tier": "",
    }


def _current_price(t: Table, r: RowReader, base: dict, observed: dt.date, out: Parsed) -> None:
    values = [parse_price(t.path, r.row, c, r[c]) for c in (INPUT, OUTPUT, BLENDED)]
    if all(v is None for v in values):
        zero = any(r[c].strip() for c in (INPUT, OUTPUT, BLENDED))
        out.skipped["current price is 0 (no price)" if zero else "no current price"] += 1
        return
    date = parse_date(t.path, r.row, ACCESS, r[ACCESS]) or observed
    row = _price_row(base, date, *values, "list")
    row["source_locator"] = f"{base['source_locator']}, current price"
    out.prices.append(row)


def _info(t: Table, r: RowReader, name: str, date: dt.date | None, base: dict) -> dict:
    p, i = t.path, r.row
    return {
        **base,
        "name": name,
        "organization": r["Creator"].strip() or None,
        "release_date": date,
        "open_weights": _flag(p, i, "License", r["License"], "Open", "Proprietary"),
        "parameters_b": _number(p, i, "Parameters", r["Parameters"]),
        "active_parameters_b": _number(
            p, i, "Known Active Parameters", r["Known Active Parameters"]
        ),
        "reasoning": _flag(p, i, "Reasoning_TF", r["Reasoning_TF"], "TRUE", "FALSE"),
    }


def parse(path: Path, sources_dir: Path) -> Parsed:
    """The whole file -> prices, scores and model info rows, plus skip counts by reason."""
    t = read_table(path)
    observed = dt.date.fromisoformat(provenance(sources_dir, path).commit_date)
    out = Parsed()
    for i in range(1, len(t.records) + 1):
        r = RowReader(t, i)
        name = " ".join(r[MODEL].split())
        if not name:
            out.skipped["no model name"] += 1
            continue
        base = {
            "source_model_name": name,
            "model_hint": model_hint(name),
            "source_id": SOURCE_ID,
            "source_locator": locator(sources_dir, path, f"row {i}"),
        }
        date = parse_date(path, i, RELEASE, r[RELEASE])
        _scores(t, r, date, base, out)
        _monthly_prices(t, r, base, out)
        _current_price(t, r, base, observed, out)
        out.info.append(_info(t, r, name, date, base))
    return out


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    out = parse(sources_dir / FILE, sources_dir)
    check_unique(out.prices, ("source_model_name", "date", "price_kind"), "token_prices")
    check_unique(out.scores, ("source_model_name", "benchmark", "date"), "benchmark_scores")
    check_unique(out.info, ("source_model_name",), "model_info")
    prices = frame("token_prices", out.prices, drop=("model_id", "first_party"))
    scores = frame("benchmark_scores", out.scores, drop=("model_id",))
    info = pl.DataFrame(
        [{k: r.get(k) for k in MODEL_INFO_SCHEMA} for r in out.info], schema=MODEL_INFO_SCHEMA
    )
    return {
        "token_prices": prices.sort("source_model_name", "date", "price_kind"),
        "benchmark_scores": scores.sort("benchmark", "source_model_name", "date"),
        "model_info": info.sort("source_model_name"),
    }
