"""Artificial Analysis's Intelligence Index runs as workloads: the tokens one run used and what
AA published it cost, per model, from the raw leaderboard scrape (no released table holds the
token counts; `aa_snapshots` keeps the published costs only).

Where: `aa-leaderboards-oolong/<date>_llms.json` (oolong-tea-2026/artificial-analysis-
leaderboards, sources README Part II), one object per model with
`breakdowns.intelligence_index_token_counts` (`inputTokens`; `outputTokens` = `answerTokens` +
`reasoningTokens`) and `pricing.intelligence_index_cost_input/_output/_total` (USD) beside the
rates AA priced them at (`price_1m_input_tokens`, `price_1m_output_tokens`). Read by the page
that bills them (`analysis.methods.bill.leaderboard_costs`), not by the build.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from analysis.data.errors import fail

FOLDER = "aa-leaderboards-oolong"


def snapshot_file(sources_dir: Path, snapshot: dt.date) -> Path:
    return Path(sources_dir) / FOLDER / f"{snapshot:%Y-%m-%d}_llms.json"


def read_runs(path: Path, names: list[str]) -> list[dict]:
    """One record per AA model name in `names` (in that order): its index run's tokens and
    published cost. A name the file lacks, or a run without token counts, is an error."""
    try:
        models = json.loads(Path(path).read_text(encoding="utf-8"))["models"]
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as err:
        raise fail(path, None, "models", None, f"not an AA llms.json ({err})") from None
    by_name = {m.get("name"): m for m in models if isinstance(m, dict)}
    out = []
    for name in names:
        m = by_name.get(name)
        if m is None:
            raise fail(path, None, "name", name, "no model of this name in the snapshot")
        counts = (m.get("breakdowns") or {}).get("intelligence_index_token_counts")
        p = m.get("pricing") or {}
        if not counts:
            raise fail(path, None, f"{name}: intelligence_index_token_counts", None, "no run")
        record = {
            "name": name,
            "input_tokens": counts.get("inputTokens"),
            "output_tokens": counts.get("outputTokens"),
            "answer_tokens": counts.get("answerTokens"),
            "reasoning_tokens": counts.get("reasoningTokens"),
            "published_input": p.get("intelligence_index_cost_input"),
            "published_output": p.get("intelligence_index_cost_output"),
            "published_total": p.get("intelligence_index_cost_total"),
            "aa_input_rate": p.get("price_1m_input_tokens"),
            "aa_output_rate": p.get("price_1m_output_tokens"),
        }
        for key, value in record.items():
            if key != "name" and (isinstance(value, bool) or not isinstance(value, int | float)):
                raise fail(path, None, f"{name}: {key}", value, "must be a number")
        if record["answer_tokens"] + record["reasoning_tokens"] != record["output_tokens"]:
            raise fail(path, None, f"{name}: outputTokens", record["output_tokens"],
                       "must be answerTokens + reasoningTokens")  # fmt: skip
        out.append(record)
    return out
