"""A leaderboard's published cost to run its index, reproduced from its token counts and the
book's prices (issue 22, item 5).

    .venv/bin/python benchmarks/leaderboard_costs.py [--version V]

Artificial Analysis publishes, per model, the tokens its Intelligence Index run used
(`breakdowns.intelligence_index_token_counts`: input, answer, reasoning and output = answer +
reasoning) and what the run cost (`pricing.intelligence_index_cost_input/output/total`). This
script prints what the chapter's table shows: the runs' tokens from the release's
`aa_index_runs` table, their published costs from its `aa_snapshots` rows
(`analysis.chapters.workload_costs.leaderboard_runs`), billed by
`analysis.methods.bill.leaderboard_costs` at the first-party rates in force that day.

What it shows: output (reasoning included) reproduces to the cent at the book's output rate;
input at the list input rate is far above the published input cost. The scrape counts no cache
hits, so the script states the cache-hit share that would close the gap at the book's
cached-input rate (a share between 0 and 1 means caching alone could close it).
"""

from __future__ import annotations

import argparse

import polars as pl

from analysis.chapters import workload_costs as chapter
from analysis.data import release as data
from analysis.methods import bill, prices
from analysis.report import left_out


def reproduce(version: str | None = None) -> pl.DataFrame:
    """`bill.leaderboard_costs` of the chapter's runs (`chapter.LEADERBOARD_RUNS`)."""
    v = data.current_version(version)
    token_prices, _ = prices.clean(data.load("token_prices", v))
    windows = data.load("tou_windows", v)
    return bill.leaderboard_costs(token_prices, windows, chapter.leaderboard_runs(v))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--version")
    args = ap.parse_args()
    why = left_out.reason(chapter.LEADERBOARD_NEEDS, data.current_version(args.version))
    if why:  # an older release: say which release has the runs, no traceback
        raise SystemExit(why.replace("this section is left out", "there is nothing to reproduce"))
    table = reproduce(args.version)
    print(f"Artificial Analysis Intelligence Index run cost, {chapter.LEADERBOARD_SNAPSHOT}, USD")
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
