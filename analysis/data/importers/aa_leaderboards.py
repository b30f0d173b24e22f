"""Artificial Analysis LLM leaderboard snapshots: indices, prices and speed, 2026-04 .. 2026-07.

Where and when: `github.com/oolong-tea-2026/artificial-analysis-leaderboards` (MIT), a daily scrape
of artificialanalysis.ai's public leaderboard page payload; `aa-leaderboards-oolong/` holds the
last commit of 2026-04-10 (the first day), 05-01, 06-01, 07-01 and 07-10 (the newest)
(sources README, Part II §4.1). A **secondary copy** of AA's pages: AA's own terms apply to the
numbers (the MIT licence covers the repository), and the sources row says so. `<date>_llms.json`
is read; `<date>__index.json` only names the endpoints and counts and is not.

A snapshot's date is its `meta.fetched_at` (UTC day), which must equal the file name's date.

What is produced:

- `aa_snapshots` (analysis.data.schema): one row per model entry per snapshot, as AA
  showed it: intelligence / coding / agentic index (with AA's "estimated" flag), input, output
  and 3:1 blended price, the cost AA reports to run its index, median output speed, time to first
  token and end-to-end time, context window and parameters. AA re-scores models when the index
  changes, so compare scores within one snapshot.
- `token_prices`: AA's input and output price (USD per 1M), provider `unspecified` (AA shows one
  price per model and the page payload does not say whose), price kind `list`. Snapshots giving a
  model the same price are one spell (first and last snapshot seen). A price of 0 for input and
  output (21 entries on 2026-07-10: Gemma on Google's free tier, Devstral 2, Command A+, ...) is
  a free offer, not a list price: kept in aa_snapshots, left out of token_prices. AA's price may
  be promotional (DeepSeek V4 Pro at 0.435/0.87 on 2026-07-10 is DeepSeek's promotional card);
  the payload does not say, so the kind stays `list`.
- `benchmark_scores`: the three AA indices (`aa-intelligence-index`, `aa-coding-index`,
  `aa-agentic-index`, unit index) and GPQA Diamond, Humanity's Last Exam and SciCode (fractions in
  the payload, percent here), dated by the snapshot. A score is written at the first snapshot
  that shows it and again whenever it changes (AA re-scored); a repeat of the same value is not a
  new observation. Intelligence-index values AA marks `..._is_estimated` are AA's estimates, not
  measurements: kept in aa_snapshots (flagged), left out of benchmark_scores.
- `aa_index_runs`: the tokens each entry's Intelligence Index run used
  (`breakdowns.intelligence_index_token_counts`: `inputTokens`, `outputTokens` = `answerTokens`
  + `reasoningTokens`), one row per entry that states them (319, 355, 353, 80 and 128 in the
  five snapshots). AA rounds each count: 48 entries of 2026-04-10 and 49 of 2026-05-01 state an
  output one token above answer + reasoning, so the sum must hold within one token. What AA
  published the run cost stays in the entry's aa_snapshots row (`index_cost_*`). Read by
  "What a workload costs" (`analysis.methods.bill.leaderboard_costs`).
- `model_info`: name, creator, release date, open weights, total and active parameters
  (billions) and `reasoning_model`, from the newest snapshot naming the model; a field that
  snapshot leaves null is taken from the newest earlier snapshot that states it, in a row of its
  own with that snapshot's locator. (`reasoning_model` is null on every entry of 2026-07-10 but
  stated in 2026-04-10 .. 2026-07-01: `Magistral Medium 1.2` true at 2026-07-01 models[296].)

`model_hint` drops AA's configuration suffix (`DeepSeek V4 Pro (Reasoning, High Effort)` ->
`DeepSeek V4 Pro`), as the identity rules drop run settings; `source_model_name` keeps it.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.importers.common import MODEL_INFO_SCHEMA, frame, locator
from analysis.data.importers.new_sources import file_date, fit_token_price_key, number, spells

FOLDER = "aa-leaderboards-oolong"
SOURCE_ID = "aa-leaderboards-oolong"
PROVIDER = "unspecified"

SOURCES = [
    {
        "source_id": SOURCE_ID,
        "title": "Artificial Analysis LLM leaderboard, daily scrape (llms.json)",
        "publisher": "Artificial Analysis (scraped by oolong-tea-2026/artificial-analysis-leaderboards)",
        "url": "https://github.com/oolong-tea-2026/artificial-analysis-leaderboards",
        "licence": "MIT (repository); Artificial Analysis' terms apply to the numbers",
        "retrieved": "2026-07-10",
        "notes": "Secondary copy of artificialanalysis.ai's public leaderboard payload; snapshots "
        "2026-04-10, 05-01, 06-01, 07-01, 07-10. AA re-scores models when its index changes: "
        "compare within a snapshot. Prices are whatever AA showed that day, provider unstated.",
    }
]

# evaluations key -> (benchmark id, unit, the payload's form)
SCORES = {
    "artificial_analysis_intelligence_index": ("aa-intelligence-index", "index", "number"),
    "artificial_analysis_coding_index": ("aa-coding-index", "index", "number"),
    "artificial_analysis_agentic_index": ("aa-agentic-index", "index", "number"),
    "gpqa": ("gpqa-diamond", "percent", "fraction"),
    "hle": ("hle", "percent", "fraction"),
    "scicode": ("scicode", "percent", "fraction"),
}
ESTIMATED = "artificial_analysis_intelligence_index_is_estimated"
_CONFIG = re.compile(
    r"\s*\((?=[^()]*\b(?:reasoning|non-reasoning|effort|thinking|max|x?high|low|medium|minimal|"
    r"adaptive)\b)[^()]*\)\s*$",
    re.IGNORECASE,
)


def model_hint(name: str) -> str:
    """AA's name without its configuration suffix: `GPT-5.6 Sol (max)` -> `GPT-5.6 Sol`."""
    return _CONFIG.sub("", name).strip()


def _get(doc: dict, *keys: str) -> object:
    for k in keys:
        doc = doc.get(k) if isinstance(doc, dict) else None
    return doc


def _day(path: Path, text: object, where: str) -> dt.date | None:
    if text in (None, ""):
        return None
    try:
        return dt.date.fromisoformat(str(text)[:10])
    except ValueError:
        raise fail(path, None, where, text, "must be an ISO date") from None


def _bool(path: Path, where: str, value: object) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    raise fail(path, None, where, value, "must be true, false or null")


def parse_snapshot(path: Path) -> tuple[dt.date, list[dict]]:
    """(snapshot date, one dict per model entry) of one `<date>_llms.json`."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise fail(path, None, None, None, f"not valid JSON: {e}") from None
    fetched = _day(path, _get(doc, "meta", "fetched_at"), "meta.fetched_at")
    if fetched is None or fetched != file_date(path):
        raise fail(path, None, "meta.fetched_at", fetched, "must be the file name's date")
    models = doc.get("models")
    if not isinstance(models, list) or not all(isinstance(m, dict) for m in models):
        raise fail(path, None, "models", None, "expected a list of model objects")
    out, seen = [], set()
    for i, m in enumerate(models):
        where = f"models[{i}]"
        for key in ("id", "name", "slug"):
            if not isinstance(m.get(key), str) or not m[key].strip():
                raise fail(path, None, f"{where}.{key}", m.get(key), "required text field")
        if m["id"] in seen:
            raise fail(path, None, f"{where}.id", m["id"], "model id listed twice")
        seen.add(m["id"])
        out.append(_entry(path, where, m) | {"index": i})
    return fetched, out


def _num(path: Path, where: str, value: object) -> float | None:
    return number(path, None, where, value)


def _entry(path: Path, where: str, m: dict) -> dict:
    ev, price, speed, cap = (
        m.get(k) or {} for k in ("evaluations", "pricing", "speed", "capabilities")
    )
    scores = {}
    for key, (_, _, form) in SCORES.items():
        value = ev.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise fail(path, None, f"{where}.evaluations.{key}", value, "must be a number")
        if form == "fraction" and not 0 <= value <= 1:
            raise fail(path, None, f"{where}.evaluations.{key}", value, "must be a fraction 0-1")
        scores[key] = float(value)
    return {
        "run": _run(path, f"{where}.breakdowns.intelligence_index_token_counts", m),
        "aa_model_id": m["id"],
        "aa_slug": m["slug"],
        # AA writes one name with a trailing space; the locator keeps the exact entry.
        "source_model_name": m["name"].strip(),
        "creator": _get(m, "creator", "name"),
        "release_date": _day(path, m.get("release_date"), f"{where}.release_date"),
        "reasoning": _bool(path, f"{where}.reasoning_model", m.get("reasoning_model")),
        "open_weights": _bool(path, f"{where}.open_weights", _get(m, "open_weights", "is_open_weights")),
        "deprecated": _bool(path, f"{where}.deprecated", m.get("deprecated")),
        "scores": scores,
        "intelligence_index_estimated": _bool(path, f"{where}.evaluations.{ESTIMATED}", ev.get(ESTIMATED)),
        "input_usd_per_mtok": _num(path, f"{where}.pricing.price_1m_input_tokens", price.get("price_1m_input_tokens")),
        "output_usd_per_mtok": _num(path, f"{where}.pricing.price_1m_output_tokens", price.get("price_1m_output_tokens")),
        "blended_usd_per_mtok": _num(path, f"{where}.pricing.price_1m_blended_3_to_1", price.get("price_1m_blended_3_to_1")),
        "index_cost_usd": _num(path, f"{where}.pricing.intelligence_index_cost_total", price.get("intelligence_index_cost_total")),
        # The index run's bill split (output includes reasoning): what a workload's bill share
        # from output and reasoning tokens is tested on.
        "index_cost_input_usd": _num(path, f"{where}.pricing.intelligence_index_cost_input", price.get("intelligence_index_cost_input")),
        "index_cost_output_usd": _num(path, f"{where}.pricing.intelligence_index_cost_output", price.get("intelligence_index_cost_output")),
        "index_cost_reasoning_usd": _num(path, f"{where}.pricing.intelligence_index_cost_reasoning", price.get("intelligence_index_cost_reasoning")),
        "output_tokens_per_s": _num(path, f"{where}.speed.output_tokens_per_second", speed.get("output_tokens_per_second")),
        "ttft_s": _num(path, f"{where}.speed.time_to_first_token_seconds", speed.get("time_to_first_token_seconds")),
        "e2e_response_s": _num(path, f"{where}.speed.end_to_end_response_time_seconds", speed.get("end_to_end_response_time_seconds")),
        "context_window_tokens": _whole(path, f"{where}.capabilities.context_window_tokens", cap.get("context_window_tokens")),
        "parameters_b": _num(path, f"{where}.capabilities.total_parameters", cap.get("total_parameters")),
        "active_parameters_b": _num(path, f"{where}.capabilities.active_parameters", cap.get("active_parameters")),
    }  # fmt: skip


# intelligence_index_token_counts key -> aa_index_runs column
RUN_COUNTS = {
    "inputTokens": "input_tokens",
    "outputTokens": "output_tokens",
    "answerTokens": "answer_tokens",
    "reasoningTokens": "reasoning_tokens",
}


def _run(path: Path, where: str, m: dict) -> dict | None:
    """The entry's index run tokens, or None where it states none."""
    counts = _get(m, "breakdowns", "intelligence_index_token_counts")
    if not counts:
        return None
    if not isinstance(counts, dict):
        raise fail(path, None, where, counts, "expected an object of token counts")
    run = {}
    for key, column in RUN_COUNTS.items():
        value = _whole(path, f"{where}.{key}", counts.get(key))
        if value is None:
            raise fail(path, None, f"{where}.{key}", None, "required with the other counts")
        run[column] = value
    if abs(run["output_tokens"] - run["answer_tokens"] - run["reasoning_tokens"]) > 1:
        raise fail(path, None, f"{where}.outputTokens", run["output_tokens"],
                   "must be answerTokens + reasoningTokens (within one token)")  # fmt: skip
    return run


def _whole(path: Path, where: str, value: object) -> int | None:
    number_ = number(path, None, where, value)
    if number_ is None:
        return None
    if number_ != int(number_):
        raise fail(path, None, where, value, "must be a whole number")
    return int(number_)


def build(sources_dir: Path, key: list[str] | None = None) -> dict[str, pl.DataFrame]:
    sources_dir = Path(sources_dir)
    paths = sorted((sources_dir / FOLDER).glob("*_llms.json"))
    if not paths:
        raise fail(sources_dir / FOLDER, None, None, None, "no <date>_llms.json snapshot")
    snaps, runs, prices, scores, info = [], [], [], [], {}
    for path in paths:
        day, entries = parse_snapshot(path)
        for e in entries:
            loc = locator(sources_dir, path, f"models[{e['index']}] ({e['source_model_name']})")
            base = {"source_model_name": e["source_model_name"], "source_id": SOURCE_ID}
            hint = model_hint(e["source_model_name"])
            s = e["scores"]
            snaps.append(
                {k: v for k, v in e.items() if k not in ("scores", "index", "run")}
                | base
                | {
                    "snapshot_date": day,
                    "intelligence_index": s.get("artificial_analysis_intelligence_index"),
                    "coding_index": s.get("artificial_analysis_coding_index"),
                    "agentic_index": s.get("artificial_analysis_agentic_index"),
                    "model_hint": hint,
                    "source_locator": loc,
                }
            )
            if e["run"] is not None:
                runs.append(
                    e["run"]
                    | base
                    | {"snapshot_date": day, "aa_model_id": e["aa_model_id"], "source_locator": loc}
                )
            prices += _price_row(e, base, day, hint, loc)
            scores += _score_rows(e, base, day, hint, loc)
            info.setdefault(e["source_model_name"], []).append(_info(e, hint, loc))
    return {
        "aa_snapshots": frame("aa_snapshots", snaps, drop=("model_id",)).sort(
            "snapshot_date", "source_model_name"
        ),
        "aa_index_runs": frame("aa_index_runs", runs).sort("snapshot_date", "source_model_name"),
        "token_prices": _token_prices(prices, key),
        "benchmark_scores": _scores(scores),
        "model_info": pl.DataFrame(
            [{k: r.get(k) for k in MODEL_INFO_SCHEMA} for v in info.values() for r in _newest(v)],
            schema=MODEL_INFO_SCHEMA,
        ).sort("source_model_name"),
    }


def _price_row(e: dict, base: dict, day: dt.date, hint: str, loc: str) -> list[dict]:
    inp, out = e["input_usd_per_mtok"], e["output_usd_per_mtok"]
    if inp is None or out is None or (inp == 0 and out == 0):
        return []
    return [
        base
        | {
            "provider": PROVIDER,
            "date": day,
            "last_seen": day,
            "input_usd_per_mtok": inp,
            "output_usd_per_mtok": out,
            "blended_usd_per_mtok": e["blended_usd_per_mtok"],
            "blend": "3:1" if e["blended_usd_per_mtok"] is not None else None,
            "currency": "USD",
            "price_kind": "list",
            "context_tier": "",
            "model_hint": hint,
            "source_locator": loc,
        }
    ]


def _score_rows(e: dict, base: dict, day: dt.date, hint: str, loc: str) -> list[dict]:
    rows = []
    for key, value in e["scores"].items():
        if key == "artificial_analysis_intelligence_index" and e["intelligence_index_estimated"]:
            continue
        benchmark, unit, form = SCORES[key]
        score = round(value * 100, 10) if form == "fraction" else value
        row = {"benchmark": benchmark, "score": score, "unit": unit, "date": day}
        rows.append(base | row | {"model_hint": hint, "source_locator": loc})
    return rows


def _scores(rows: list[dict]) -> pl.DataFrame:
    """A score at its first snapshot and whenever it changes (see the module docstring)."""
    kept = [
        {k: v for k, v in r.items() if k != "last_seen"}
        for r in spells(rows, ("source_model_name", "benchmark"), ("score",))
    ]
    df = frame("benchmark_scores", kept, drop=("model_id",))
    return df.sort("benchmark", "source_model_name", "date")


def _token_prices(rows: list[dict], key: list[str] | None) -> pl.DataFrame:
    values = ("input_usd_per_mtok", "output_usd_per_mtok", "blended_usd_per_mtok")
    kept, _ = fit_token_price_key(spells(rows, ("source_model_name",), values), key)
    df = frame("token_prices", kept, drop=("model_id", "first_party"))
    return df.sort("source_model_name", "date")


INFO_FACTS = ("organization", "release_date", "open_weights", "parameters_b",
              "active_parameters_b", "reasoning")  # fmt: skip


def _newest(rows: list[dict]) -> list[dict]:
    """The newest snapshot's row of a model (rows oldest first), and for the facts it leaves
    null, one row per earlier snapshot that is the newest to state them (its own locator)."""
    newest, fill = rows[-1], {}
    for fact in INFO_FACTS:
        if newest[fact] is None:
            stated = [r for r in rows[:-1] if r[fact] is not None]
            if stated:
                fill.setdefault(id(stated[-1]), (stated[-1], []))[1].append(fact)
    extra = [
        {k: (v if k not in INFO_FACTS or k in facts else None) for k, v in row.items()}
        for row, facts in fill.values()
    ]
    return [newest, *extra]


def _info(e: dict, hint: str, loc: str) -> dict:
    return {
        "source_id": SOURCE_ID,
        "source_model_name": e["source_model_name"],
        "model_hint": hint,
        "name": e["source_model_name"],
        "organization": e["creator"],
        "release_date": e["release_date"],
        "open_weights": e["open_weights"],
        "parameters_b": e["parameters_b"],
        "active_parameters_b": e["active_parameters_b"],
        "reasoning": e["reasoning"],
        "source_locator": loc,
    }
