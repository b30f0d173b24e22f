"""A leaderboard's published cost to run its index, reproduced from its token counts and the
book's prices (issue 22, item 5).

    .venv/bin/python benchmarks/leaderboard_costs.py [--sources DIR] [--snapshot 2026-07-10]

Artificial Analysis publishes, per model, the tokens its Intelligence Index run used
(`breakdowns.intelligence_index_token_counts`: input, answer, reasoning and output = answer +
reasoning) and what the run cost (`pricing.intelligence_index_cost_input/output/total`). This
script reads those from the raw scrape (aa-leaderboards-oolong/<date>_llms.json), names the
book's model through the release's aa_snapshots rows, and bills the same tokens with
`analysis.methods.bill.run_cost` at the first-party rates in force that day.

What it shows: output (reasoning included) reproduces to the cent at the book's output rate;
input at the list input rate is far above the published input cost, because the index's
multi-turn agentic tasks re-send their context and are billed at cache-read rates for it. The
tokens split gives no cache count, so the script states the cache-hit share that closes the gap
at the book's cached-input rate (a share between 0 and 1 means the gap is caching alone).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
from pathlib import Path

import polars as pl

from analysis.data import paths
from analysis.data import release as data
from analysis.methods import bill, prices

# AA's name for the run, and the seller whose card bills it (the model's own lab).
RUNS = {
    "GPT-5.6 Sol (high)": "openai",
    "DeepSeek V4 Pro (Reasoning, Max Effort)": "deepseek",
    "Gemini 3.5 Flash (high)": "google",
    "Kimi K2.6": "moonshot",
    "Claude Opus 4.8 (Adaptive Reasoning, Max Effort)": "anthropic",
}


def published_runs(sources: Path, snapshot: dt.date) -> list[dict]:
    """Token counts and published costs of RUNS, straight from the raw scrape."""
    path = sources / "aa-leaderboards-oolong" / f"{snapshot:%Y-%m-%d}_llms.json"
    models = json.loads(path.read_text(encoding="utf-8"))["models"]
    out = []
    for m in models:
        if m["name"] not in RUNS:
            continue
        counts = m["breakdowns"]["intelligence_index_token_counts"]
        p = m["pricing"]
        out.append(
            {
                "name": m["name"],
                "input_tokens": counts["inputTokens"],
                "output_tokens": counts["outputTokens"],  # answer + reasoning
                "published_input": p["intelligence_index_cost_input"],
                "published_output": p["intelligence_index_cost_output"],
                "published_total": p["intelligence_index_cost_total"],
                "aa_input_rate": p["price_1m_input_tokens"],
                "aa_output_rate": p["price_1m_output_tokens"],
            }
        )
    return out


def reproduce(sources: Path, snapshot: dt.date, version: str | None = None) -> pl.DataFrame:
    token_prices, _ = prices.clean(data.load("token_prices", version))
    windows = data.load("tou_windows", version)
    names = data.load("aa_snapshots", version).filter(pl.col("snapshot_date") == snapshot)
    model_of = dict(zip(names["source_model_name"], names["model_id"], strict=True))
    rows = []
    for run in published_runs(sources, snapshot):
        model_id = model_of[run["name"]]
        r = bill.run_cost(
            token_prices,
            windows,
            model_id,
            RUNS[run["name"]],
            snapshot,
            run["input_tokens"],
            run["output_tokens"],
            run["published_input"],
            run["published_output"],
        )
        rows.append(
            {
                "run": run["name"],
                "model_id": model_id,
                "input_mtok": run["input_tokens"] / 1e6,
                "output_mtok": run["output_tokens"] / 1e6,
                "published_output": run["published_output"],
                "book_output": r.book_output,
                "published_input": run["published_input"],
                "book_input_uncached": r.book_input_uncached,
                "published_total": run["published_total"],
                "book_total_uncached": r.book_input_uncached + r.book_output,
                "implied_cache_hit_share": r.implied_cache_hit_share,
                "row_ids": ";".join(r.row_ids),
            }
        )
    return pl.DataFrame(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sources", type=Path, default=paths.SHARED_SOURCES)
    ap.add_argument("--snapshot", type=dt.date.fromisoformat, default=dt.date(2026, 7, 10))
    ap.add_argument("--version")
    args = ap.parse_args()
    table = reproduce(args.sources, args.snapshot, args.version)
    print(f"Artificial Analysis Intelligence Index run cost, {args.snapshot}, USD")
    head = f"{'run':50} {'out pub':>9} {'out book':>9} {'in pub':>9} {'in list':>9} {'tot pub':>9} {'tot list':>9} {'hit':>5}"
    print(head)
    for r in table.iter_rows(named=True):
        print(
            f"{r['run'][:50]:50} {r['published_output']:9.2f} {r['book_output']:9.2f} "
            f"{r['published_input']:9.2f} {r['book_input_uncached']:9.2f} "
            f"{r['published_total']:9.2f} {r['book_total_uncached']:9.2f} "
            f"{r['implied_cache_hit_share']:5.0%}"
        )
    print(
        "out: output + reasoning tokens at the output rate; in list: every input token at the "
        "list input rate;\nhit: the cache-hit share that makes the book's input cost the "
        "published one at the book's cached-input rate."
    )


if __name__ == "__main__":
    main()
