"""What "What a workload costs" shows: three preset workloads billed at the offers in force, what
caching, batch and off-peak routing save, the scheduled 2027 changes, and the bill at fixed
capability since 2023.

The page shows how it reads a workload and bills it (`workloads.read`, `bill.workload_bills`,
drawn by `figures.bill`); `compute(version)` returns the same frames and `q`, the quotes.
Every choice the prose states is a named constant here.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, replace

import polars as pl

from analysis.data import workloads
from analysis.data.cache import cached
from analysis.data.errors import fail
from analysis.data.reads import memo
from analysis.data.workloads import Offer, Workload
from analysis.methods import bill
from analysis.methods import time_of_use as tou
from analysis.report import estimates, left_out, results, verdicts
from analysis.report.quote import Quote, Quotes

SLUG = "workload-costs"
PAGE = "chapters/workload-costs.qmd"
PRESETS = ("chat-assistant", "coding-agent", "nightly-batch")
CALCULATOR_DEFAULT = "chat assistant"  # the preset the interactive calculator opens on
# The digests' two frontier models of the "cost 3.6x" claim, on the coding agent.
FRONTIER_PAIR = (Offer("claude-opus-5.5", "anthropic"), Offer("gpt-6-sol", "openai"))
# Off-peak routing is costed on DeepSeek-V4 Pro with the chat assistant's daytime profile.
ROUTED = Offer("deepseek-v4-pro", "deepseek")
# Batch is costed on the nightly job at the first offer with a batch rate.
BATCHED = Offer("gpt-5.6-sol-pro", "openai")
# The scheduled doubling on 2027-01-01: the chat assistant without cache hits (Gemini 3.8
# Flash's card states no cache rate), on a December and a January day.
SCHEDULED = (Offer("gemini-3.8-flash", "google"), Offer("gemini-3.7-flash", "google"))
SCHEDULED_DAYS = (dt.date(2026, 12, 15), dt.date(2027, 1, 15))
# The digests' workload claims (claims table ids) the chapter sets its bills against.
CLAIMS = {
    "output_share": "agent-bill-output-share",
    "ratio": "opus-5-vs-grok-4.6-cost",
    "routing": "deepseek-batch-routing-saving",
}
# Fixed capability: the chat assistant's token mix on the cheapest model reaching GPT-4's GPQA
# Diamond score (the fixed-capability chapter's trend).
FIXED_BENCHMARK, FIXED_MODEL = estimates.GPT4_GPQA

# Artificial Analysis's Intelligence Index runs reproduced from their token counts: the newest
# snapshot in the sources, three frontier runs and two open-model runs, each billed at the card
# of the model's own lab (the seller AA prices it at).
LEADERBOARD_SNAPSHOT = dt.date(2026, 7, 10)
LEADERBOARD_RUNS = {
    "GPT-5.6 Sol (high)": "openai",
    "Claude Opus 4.8 (Adaptive Reasoning, Max Effort)": "anthropic",
    "Gemini 3.5 Flash (high)": "google",
    "Kimi K2.6": "moonshot",
    "DeepSeek V4 Pro (Reasoning, Max Effort)": "deepseek",
}

NEEDS = left_out.Needs(
    "DeepSeek's time-of-use rate cards and the autumn-2026 frontier prices",
    tables=("tou_windows",),
    rows=("token_prices", lambda p: p.filter(pl.col("model_id") == "claude-opus-5.5")),
    scope="chapter",
)
# The leaderboard section: the runs' token counts (and their snapshot's published costs).
LEADERBOARD_NEEDS = left_out.Needs(
    "Artificial Analysis Intelligence Index runs' token counts",
    tables=("aa_index_runs", "aa_snapshots"),
)


@dataclass(frozen=True)
class WorkloadCosts:
    version: str
    bills: pl.DataFrame | None  # bill.bills_frame of every preset, one row per offer
    fixed: bill.FixedCapabilityBill | None
    rates: pl.DataFrame | None  # bill.effective_rates: the interactive calculator's data
    leaderboard: pl.DataFrame | None  # bill.leaderboard_costs (None: see leaderboard_left_out)
    sources: list[str]  # source ids of the price rows billed (the figures' source line)
    q: Quotes
    left_out: str | None = None
    leaderboard_left_out: str | None = None  # why the release cannot show the leaderboard runs

    @property
    def shown(self) -> bool:
        return self.left_out is None

    @property
    def with_leaderboard(self) -> bool:
        """The release holds the leaderboard runs' token counts."""
        return self.leaderboard is not None


def preset(name: str) -> Workload:
    return workloads.read(workloads.WORKLOADS_DIR / f"{name}.yaml")


def presets_fingerprint() -> tuple[tuple[str, str], ...]:
    """(preset, sha256 of its file) of each of PRESETS: the page's bills are computed from these
    files as well as the release, so its cached result is keyed to them too."""
    return tuple(
        (name, hashlib.sha256((workloads.WORKLOADS_DIR / f"{name}.yaml").read_bytes()).hexdigest())
        for name in PRESETS
    )


def compute(version: str | None = None) -> WorkloadCosts:
    return _compute(results.version(version), presets_fingerprint())


def _row(frame: pl.DataFrame, workload: str, model_id: str) -> dict:
    return frame.filter(pl.col("workload") == workload, pl.col("model_id") == model_id).row(
        0, named=True
    )


def _one(bills: list[bill.DailyBill], model_id: str) -> bill.DailyBill:
    return next(b for b in bills if b.model_id == model_id)


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's bill
def fixed_bill(
    v: str, workload: Workload, benchmark: str, threshold_model: str
) -> bill.FixedCapabilityBill:
    """`bill.fixed_capability_bill` of `workload` on the release's token tables, less the rows an
    anomaly rule flags (the workload's fields are in the key: an edited preset is a miss)."""
    return bill.fixed_capability_bill(
        *results.token_tables(v), workload, benchmark, threshold_model
    )


@memo
@cached  # on disk too: the second output format, and later renders, reuse the result
def _compute(v: str, _presets: tuple[tuple[str, str], ...]) -> WorkloadCosts:
    q = Quotes(SLUG)
    q["version"] = Quote(v)
    why = left_out.reason(NEEDS, v)
    if why:
        q["left_out"] = Quote(why)
        q.leave_out()
        return WorkloadCosts(v, None, None, None, None, [], q, why)
    prices, windows = results.table("token_prices", v), results.table("tou_windows", v)
    q["removed"] = Quote(results.removed_text(("token_prices",), v))
    chat, agent, nightly = (preset(p) for p in PRESETS)
    billed = {w.name: bill.workload_bills(prices, windows, w) for w in (chat, agent, nightly)}
    frame = pl.concat([bill.bills_frame(b) for b in billed.values()], how="vertical_relaxed")
    q["start"] = Quote(chat.date, "day")
    claims = results.table("claims", v)
    stated = {
        k: claims.filter(pl.col("claim_id") == c).row(0, named=True) for k, c in CLAIMS.items()
    }
    q["claim_output_share"] = Quote(stated["output_share"]["value"] / 100, "share")
    q["claim_ratio"] = Quote(stated["ratio"]["value"], "stated_factor")
    q["claim_ratio_text"] = Quote(stated["ratio"]["claim"])
    q["claim_routing"] = Quote(stated["routing"]["value"] / 100, "share")
    for key, w in (("chat", chat), ("agent", agent), ("nightly", nightly)):
        rows = frame.filter(pl.col("workload") == w.name).sort("per_30_days")
        q[f"{key}_requests"] = Quote(w.requests_per_day, "count")
        q[f"{key}_n"] = Quote(rows.height, "count")
        q[f"{key}_cheapest"] = Quote(rows["model_id"][0], "model")
        q[f"{key}_cheapest_month"] = Quote(rows["per_30_days"][0], "usd")
        q[f"{key}_dearest"] = Quote(rows["model_id"][-1], "model")
        q[f"{key}_dearest_month"] = Quote(rows["per_30_days"][-1], "usd")
        q[f"{key}_spread"] = Quote(rows["per_30_days"][-1] / rows["per_30_days"][0], "factor")

    # the digests' agent claims: output+reasoning share and the frontier cost ratio
    opus, sol = (_one(billed[agent.name], o.model_id) for o in FRONTIER_PAIR)
    q["agent_output_share"] = Quote(bill.output_and_reasoning_share(opus), "share")
    q["agent_output_share_range"] = Quote(
        (
            min(bill.output_and_reasoning_share(b) for b in billed[agent.name]),
            max(bill.output_and_reasoning_share(b) for b in billed[agent.name]),
        ),
        "share",
    )
    q["frontier_ratio"] = Quote(bill.cost_ratio(opus, sol), "factor")
    q["opus_name"], q["sol_name"] = Quote(opus.model_id, "model"), Quote(sol.model_id, "model")

    # what caching, batch and off-peak routing save
    uncached = replace(agent, cache_hit_share=0.0, compare=(FRONTIER_PAIR[0],))
    (no_cache,) = bill.workload_bills(prices, windows, uncached)
    q["cache_hit_share"] = Quote(agent.cache_hit_share, "share")
    q["cache_saving"] = Quote(1 - opus.per_day / no_cache.per_day, "share")
    standard = replace(nightly, batch_share=0.0, compare=(BATCHED,))
    (at_standard,) = bill.workload_bills(prices, windows, standard)
    batched = _one(billed[nightly.name], BATCHED.model_id)
    q["batch_model"] = Quote(BATCHED.model_id, "model")
    q["batch_saving"] = Quote(1 - batched.per_day / at_standard.per_day, "share")
    routed = replace(chat, compare=(ROUTED,))
    saving = bill.routing_saving(prices, windows, routed, chat.date)
    q["routed_model"] = Quote(ROUTED.model_id, "model")
    q["routing_bound"] = Quote(saving.bound, "share")
    q["routing_typical"] = Quote(saving.typical, "share")
    q["routing_dear_share"] = Quote(saving.dear_share, "share")
    # The ledger judges the routing claim on the price-war chapter's workload spread evenly over
    # the week (`verdicts.batch_routing`, one computation with the ledger's evidence): quoted
    # beside the chat assistant's own saving, each with its workload.
    ledger = verdicts.batch_routing(v).saving
    q["routing_ledger_typical"] = Quote(ledger.saving_from_spread, "share")
    q["routing_ledger_dear_share"] = Quote(ledger.peak_hours_per_week / tou.HOURS_PER_WEEK, "share")

    # the scheduled 2027 change
    scheduled = replace(chat, cache_hit_share=0.0, compare=SCHEDULED)
    on = bill.bills_on(prices, windows, scheduled, list(SCHEDULED_DAYS))
    before, after = (on.filter(pl.col("start") == d) for d in SCHEDULED_DAYS)
    first = SCHEDULED[0].model_id
    b0, b1 = (f.filter(pl.col("model_id") == first)["per_30_days"][0] for f in (before, after))
    q["scheduled_model"] = Quote(first, "model")
    successor = prices.filter(pl.col("model_id") == first, pl.col("valid_from") > chat.date)
    q["scheduled_change_day"] = Quote(successor["valid_from"].min(), "day")
    q["scheduled_before_day"], q["scheduled_after_day"] = (Quote(d, "day") for d in SCHEDULED_DAYS)
    q["scheduled_before"], q["scheduled_after"] = Quote(b0, "usd"), Quote(b1, "usd")
    q["scheduled_factor"] = Quote(b1 / b0, "factor")
    q["scheduled_extra_year"] = Quote(12 * (b1 - b0), "usd")

    # the same workload since 2023 at fixed capability
    fixed = fixed_bill(v, chat, FIXED_BENCHMARK, FIXED_MODEL)
    steps = fixed.steps
    q["fixed_model"] = Quote(FIXED_MODEL, "model")
    q["fixed_first_day"] = Quote(steps["date"][0], "month")
    q["fixed_first_bill"] = Quote(30 * steps["per_day"][0], "usd")
    q["fixed_last_model"] = Quote(steps["model"][-1], "model")
    q["fixed_last_day"] = Quote(steps["date"][-1], "month")
    q["fixed_last_bill"] = Quote(30 * steps["per_day"][-1], "usd")
    q["fixed_fall"] = Quote(steps["per_day"][0] / steps["per_day"][-1], "factor")
    t = fixed.trend
    q["fixed_factor"] = Quote(t["factor_per_year"], "factor")
    q["fixed_ci"] = Quote((t["ci90_low"], t["ci90_high"]), "factor")
    q["fixed_n"] = Quote(t["n"], "count")

    ids = {i for r in frame["row_ids"] for i in r.split(";")}
    sources = sorted(set(prices.filter(pl.col("row_id").is_in(list(ids)))["source_id"]))
    rates = bill.effective_rates(frame, [chat, agent, nightly])
    board_left_out = left_out.reason(LEADERBOARD_NEEDS, v)
    board = None if board_left_out else bill.leaderboard_costs(prices, windows, leaderboard_runs(v))
    _leaderboard_quotes(q, board)
    return WorkloadCosts(
        v, frame, fixed, rates, board, sources, q, leaderboard_left_out=board_left_out
    )


def leaderboard_runs(v: str) -> list[bill.PublishedRun]:
    """LEADERBOARD_RUNS as release `v` holds them: each run's tokens (`aa_index_runs`) and its
    published cost, the rates AA priced it at and the book's model id (the `aa_snapshots` row
    of the same snapshot and entry)."""
    runs = results.table("aa_index_runs", v).filter(pl.col("snapshot_date") == LEADERBOARD_SNAPSHOT)
    snapshot = results.table("aa_snapshots", v).filter(
        pl.col("snapshot_date") == LEADERBOARD_SNAPSHOT
    )
    joined = runs.join(snapshot, on=["snapshot_date", "aa_model_id", "source_id"], suffix="_aa")
    out = []
    for name, provider in LEADERBOARD_RUNS.items():
        rows = joined.filter(pl.col("source_model_name") == name)
        if rows.height != 1:
            raise fail(
                f"aa_index_runs.csv (data version {v})", None, "source_model_name", name,
                f"{rows.height} runs of {LEADERBOARD_SNAPSHOT} with their aa_snapshots row; "
                "expected one",
            )  # fmt: skip
        r = rows.row(0, named=True)
        out.append(
            bill.PublishedRun(
                name,
                r["model_id"],
                provider,
                LEADERBOARD_SNAPSHOT,
                r["input_tokens"],
                r["output_tokens"],
                r["index_cost_input_usd"],
                r["index_cost_output_usd"],
                r["index_cost_usd"],
                r["input_usd_per_mtok"],
                r["output_usd_per_mtok"],
            )
        )
    return out


def _leaderboard_quotes(q: Quotes, board: pl.DataFrame | None) -> None:
    """The reproduction's numbers, and the paragraph that states them (placeholders where the
    release cannot show the section: its page shows why instead)."""
    if board is None:
        q.leave_out()
        return
    q["lb_snapshot"] = Quote(LEADERBOARD_SNAPSHOT, "day")
    q["lb_n"] = Quote(board.height, "count")
    to_the_cent = (board["published_output"] - board["book_output"]).abs() < 0.005
    q["lb_output_match"] = Quote(int(to_the_cent.sum()), "count")
    same_rates = (board["published_input_rate"] - board["book_input_rate"]).abs() < 1e-9
    same_rates &= (board["published_output_rate"] - board["book_output_rate"]).abs() < 1e-9
    q["lb_same_rates"] = Quote(int(same_rates.sum()), "count")
    over = board["book_input_uncached"] / board["published_input"]
    q["lb_input_over"] = Quote((over.min(), over.max()), "factor")
    hit = board["implied_cache_hit_share"]
    q["lb_hit"] = Quote((hit.min(), hit.max()), "share")
    total = board["book_total_uncached"] / board["published_total"]
    q["lb_total_over"] = Quote((total.min(), total.max()), "factor")
    q["lb_text"] = Quote(
        f"For {q.lb_same_rates.text} of the {q.lb_n.text} runs the leaderboard priced the run at "
        "the same input and output rates as the book's cards on that day. Output, reasoning "
        f"included, reproduces: for {q.lb_output_match.text} of the {q.lb_n.text} runs the "
        "book's output rate times the run's output tokens is the published output cost to the "
        "cent. Input does not: every input token at the list input rate comes to "
        f"{q.lb_input_over.text} the published input cost, and the whole run to "
        f"{q.lb_total_over.text} the published total. The scrape counts no cache hits and does "
        "not say how the input was billed; at the book's cached-input rate a cache-hit share of "
        f"{q.lb_hit.text} of the input tokens would close the gap, which is what a run that "
        "re-sends its context each turn would read from the cache. That share is what would "
        "close the gap, not a measured one."
    )


def claim_values(version: str | None = None) -> dict[str, float]:
    """The values the claims ledger can judge the digests' workload claims by: the output and
    reasoning share of the coding agent's bill on Claude Opus 5.5 and Opus 5.5's bill over GPT-6
    Sol's on it. (The routing claim's evidence is `verdicts.batch_routing`'s, not this page's.)"""
    q = compute(version).q
    return {
        "agent_output_and_reasoning_share": q["agent_output_share"].value,
        "frontier_cost_ratio": q["frontier_ratio"].value,
    }
