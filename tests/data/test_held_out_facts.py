"""Held-out facts: values transcribed by hand from the raw public files, checked against the book's API.

How to add a fact
-----------------
Add a row to `held_out_facts.csv` (next to this module). Read the value from the raw file yourself
(grep, sed, jq or a few lines of plain Python over the file under `sources/`), never from a release
CSV or from program output, and give the file (`raw_file`, a path under `sources/`) and a locator
(row, line or JSON path) that lets a reader find it again. Columns:

- `table`: token_prices, gpu_hour_prices, mlperf_results, inference_benchmarks,
  benchmark_scores or models.
- `kind`: for token prices `in_force` (some offer of `subject` at `seller` in force on `date`
  carries `value` in `field`) or `not_in_force` (no offer in force on `date` carries it);
  for models `identity` (the model's `field`, a release date or a reasoning flag, is `value`);
  otherwise `observed`, `per_accelerator`, `per_gpu` or `score`.
- `subject`: model id, GPU id or MLPerf system name; `seller`: provider or MLPerf submitter.
- `price_kind`: empty for any standard kind; `peak`/`off-peak`/`promotional` to demand that kind.
  `hour_utc` records the hour the fact is about (peak or off-peak on that day).
- `qualifiers`: `column=value;...` filters on the loaded table (e.g. `scenario=Offline`; for
  token prices on the offers in force, e.g. `quantization=fp8`).
- `known_wrong_in`: `<version>: <audit class>` (several separated by `|`) for a release in which
  the fact is known to fail (issue 19). On that release the fact is a strict xfail, so a fix
  shows up as an XPASS failure: then remove the version from the column.

Token prices are read with `price_in_force` on the loaded release's `token_prices`; the other
tables through `analysis.data.load`. MLPerf per-accelerator throughput is the system's tokens/s
divided by its accelerator count. A benchmark score is the latest row of each source variant
on or before `date`, matched as stored or as a percentage of a fraction. Rows with a context tier or a `reported` price kind are not the standard offer and are
left out of token-price checks.
"""

from __future__ import annotations

import csv
import math
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from analysis import data
from analysis.methods import inference_cost
from analysis.methods.prices import price_in_force

FACTS_CSV = Path(__file__).with_name("held_out_facts.csv")
REL_TOL = 1e-6


def _facts() -> list[dict[str, str]]:
    with FACTS_CSV.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


FACTS = _facts()
VERSION = data.current_version()


def _wrong_in(fact: dict[str, str]) -> dict[str, str]:
    out = {}
    for part in filter(None, (p.strip() for p in fact["known_wrong_in"].split("|"))):
        version, _, why = part.partition(":")
        out[version.strip()] = why.strip()
    return out


def _param(fact: dict[str, str]):
    marks = []
    wrong = _wrong_in(fact)
    if VERSION in wrong:
        marks.append(
            pytest.mark.xfail(strict=True, reason=f"known wrong in {VERSION}: {wrong[VERSION]}")
        )
    return pytest.param(fact, id=fact["fact_id"], marks=marks)


def _close(a, b) -> bool:
    return a is not None and math.isclose(float(a), float(b), rel_tol=REL_TOL, abs_tol=1e-12)


def _qualify(frame: pl.DataFrame, qualifiers: str) -> pl.DataFrame:
    for part in filter(None, qualifiers.split(";")):
        col, _, value = part.partition("=")
        if col not in frame.columns:
            pytest.skip(f"column {col} absent from this release")
        frame = frame.filter(pl.col(col).cast(pl.String) == value)
    return frame


def _table(name: str) -> pl.DataFrame:
    if name not in data.tables(VERSION):
        pytest.skip(f"table {name} absent from release {VERSION}")
    return data.load(name, VERSION)


def _describe(frame: pl.DataFrame, cols: list[str]) -> str:
    cols = [c for c in cols if c in frame.columns]
    return str(frame.select(cols).head(12).rows()) if frame.height else "no rows"


def _standard_offers(prices: pl.DataFrame, fact: dict[str, str]) -> pl.DataFrame:
    rows = prices.filter(
        (pl.col("model_id") == fact["subject"])
        & (pl.col("provider") == fact["seller"])
        & (pl.col("currency") == fact["currency"])
    )
    if "context_tier" in rows.columns:
        rows = rows.filter(pl.col("context_tier").is_null() | (pl.col("context_tier") == ""))
    if fact["price_kind"]:
        rows = rows.filter(pl.col("price_kind") == fact["price_kind"])
    else:
        rows = rows.filter(pl.col("price_kind") != "reported")
    return rows


def check_token_price(fact: dict[str, str]) -> None:
    prices = _table("token_prices")
    on = date.fromisoformat(fact["date"])
    rows = _qualify(_standard_offers(price_in_force(prices, on), fact), fact["qualifiers"])
    hits = [v for v in rows[fact["field"]].to_list() if _close(v, fact["value"])]
    shown = _describe(rows, ["price_kind", fact["field"], "valid_from", "valid_to", "source_id"])
    where = f"{fact['subject']} at {fact['seller']} on {on} ({fact['raw_file']} {fact['locator']})"
    if fact["kind"] == "in_force":
        assert hits, f"{fact['field']} {fact['value']} not in force for {where}; in force: {shown}"
    else:
        assert not hits, f"{fact['field']} {fact['value']} still in force for {where}: {shown}"


def check_gpu_price(fact: dict[str, str]) -> None:
    rows = _table("gpu_hour_prices").filter(
        (pl.col("gpu") == fact["subject"])
        & (pl.col("provider") == fact["seller"])
        & (pl.col("date") == date.fromisoformat(fact["date"]))
    )
    rows = _qualify(rows, fact["qualifiers"])
    assert any(_close(v, fact["value"]) for v in rows[fact["field"]].to_list()), (
        f"{fact['subject']} at {fact['seller']} on {fact['date']}: no {fact['value']}; "
        f"rows: {_describe(rows, ['pricing', 'usd_per_gpu_hour', 'statistic', 'source_id'])}"
    )


def check_mlperf(fact: dict[str, str]) -> None:
    rows = _table("mlperf_results").filter(
        (pl.col("system") == fact["subject"]) & (pl.col("submitter") == fact["seller"])
    )
    rows = _qualify(rows, fact["qualifiers"])
    per = (rows["tokens_per_s"] / rows["accelerator_count"]).to_list()
    assert any(_close(v, fact["value"]) for v in per), (
        f"{fact['subject']}: no {fact['value']} tokens/s per accelerator; got {per}"
    )


def check_inference_benchmark(fact: dict[str, str]) -> None:
    # Per-GPU throughput as the book uses it: over every GPU of the run (issue 19, class 11).
    bench = inference_cost.all_gpu_throughput(_table("inference_benchmarks"))
    rows = bench.filter(pl.col("source_hw") == fact["subject"])
    rows = _qualify(rows, fact["qualifiers"])
    got = rows[fact["field"]].to_list()
    assert any(_close(v, fact["value"]) for v in got), (
        f"{fact['fact_id']}: no {fact['field']} {fact['value']}; got {got}"
    )


def check_benchmark_score(fact: dict[str, str]) -> None:
    """The score recorded for the model on `date`: per source variant (a leaderboard's effort
    label), its latest row on or before the date, since an unchanged score is not repeated."""
    on = date.fromisoformat(fact["date"])
    rows = _table("benchmark_scores").filter(
        (pl.col("model_id") == fact["subject"]) & (pl.col("date") <= on)
    )
    rows = _qualify(rows, fact["qualifiers"])
    latest = pl.col("date") == pl.col("date").max().over("source_model_name")
    rows = rows.filter(latest)
    value = float(fact["value"])
    got = rows["score"].to_list()
    assert any(_close(v, value) or _close(v, value * 100) for v in got), (
        f"{fact['subject']} {fact['qualifiers']} on {on}: no {value}; got {got}"
    )


def check_model(fact: dict[str, str]) -> None:
    """A model's identity (issue 19, class 8): its `field` in the models table, as text."""
    rows = _table("models").filter(pl.col("model_id") == fact["subject"])
    got = [str(v).lower() for v in rows[fact["field"]].to_list()]
    assert fact["value"].lower() in got, (
        f"{fact['subject']}: {fact['field']} is {got}, not {fact['value']} "
        f"({fact['raw_file']} {fact['locator']})"
    )


CHECKS = {
    "models": check_model,
    "token_prices": check_token_price,
    "gpu_hour_prices": check_gpu_price,
    "mlperf_results": check_mlperf,
    "inference_benchmarks": check_inference_benchmark,
    "benchmark_scores": check_benchmark_score,
}


def test_table_is_well_formed():
    ids = [f["fact_id"] for f in FACTS]
    assert len(ids) == len(set(ids)), "fact ids repeat"
    assert len(FACTS) >= 40
    for fact in FACTS:
        assert fact["table"] in CHECKS, fact["fact_id"]
        assert fact["raw_file"] and fact["locator"], f"{fact['fact_id']} has no file or locator"
        if fact["table"] != "models":
            float(fact["value"])


@pytest.mark.parametrize("fact", [_param(f) for f in FACTS])
def test_held_out_fact(fact: dict[str, str]):
    CHECKS[fact["table"]](fact)
