"""The workload-costs chapter: its quotes against hand calculations from the raw rate cards and
the preset files, and its claim values.

Rates by hand (files under ../shared/sources): Claude Opus 5.5 4 / 20, cache read 0.20 and GPT-6
Sol 2 / 10 / 0.20 (frontier-price-notes-2026-09/2026-09-23_aimeter__docs__pricing.md lines 8 and
11); DeepSeek-V4 Pro off-peak 0.66 / 1.98 / hit 0.022, peak twice that (deepseek-tou-ratecards/
2026-08-20_dsh-meter__docs__pricing.json lines 139-153), peak 01-04 and 06-10 UTC on weekdays;
GPT-5.6 Sol Pro 5 / 30 standard, 2.5 / 15 batch (openrouter-sui414 endpoints 2026-08-08 lines
717 and 719); Gemini 3.8 Flash 0.75 / 3.75 to 2026-12-31, 1.50 / 7.50 from 2027-01-01
(api-evangelist gemini-plans-pricing.yml lines 36-48); GPT-4 at launch $30 / $60 (the list price
shared/sources/README.md checks the tokencost YAML's unit against). Workloads: workloads/*.yaml.
"""

from __future__ import annotations

import pytest

from analysis.chapters import workload_costs as chapter
from analysis.data import reads


@pytest.fixture(scope="module")
def c() -> chapter.WorkloadCosts:
    return chapter.compute()


def test_the_chat_assistant_on_opus_by_hand(c):
    # 50,000 requests a day of 2,500 input (40% cached) and 400 output tokens:
    # 1,500 x 4 + 1,000 x 0.2 + 400 x 20 = 14,200 per 1M = $0.0142 a request; x 50,000 x 30.
    assert c.q.chat_dearest.value == "claude-opus-5.5"
    assert c.q.chat_dearest_month.value == pytest.approx(21_300)


def test_the_agent_claims_by_hand(c):
    # Coding agent per step: 60,000 input, 85% cached; 1,500 output; 6,000 reasoning.
    # Opus: 9,000 x 4 + 51,000 x 0.2 + 7,500 x 20 = 36,000 + 10,200 + 150,000 (per 1M)
    opus = 36_000 + 10_200 + 150_000
    # GPT-6 Sol: 9,000 x 2 + 51,000 x 0.2 + 7,500 x 10
    sol = 18_000 + 10_200 + 75_000
    assert c.q.agent_output_share.value == pytest.approx(150_000 / opus)
    assert c.q.frontier_ratio.value == pytest.approx(opus / sol)
    # without cache hits Opus costs 60,000 x 4 + 150,000
    assert c.q.cache_saving.value == pytest.approx(1 - opus / (240_000 + 150_000))


def test_batch_and_routing_savings_by_hand(c):
    assert c.q.batch_saving.value == pytest.approx(0.5)  # 2.5 / 15 against 5 / 30
    assert c.q.routing_bound.value == pytest.approx(0.5)  # off-peak is half of peak
    # The chat profile's weights (workloads/chat-assistant.yaml) sum to 114; the peak hours
    # 1, 2, 3 and 6, 7, 8, 9 hold 1 + 1 + 1 + 3 + 5 + 7 + 8 = 26. On 5 of the week's 7 days:
    # f = 5/7 x 26/114 of requests pay twice; routed / profile = 1 / (1 + f).
    f = 5 / 7 * 26 / 114
    assert c.q.routing_typical.value == pytest.approx(f / (1 + f))
    assert c.q.routing_dear_share.value == pytest.approx(f)
    # The ledger's workload spreads its tokens evenly over the week: 35 of 168 hours are peak
    # (5 weekdays x 1-4 and 6-10 UTC), so it saves 1 - 1 / (1 + 35/168) at twice the rate.
    assert c.q.routing_ledger_dear_share.value == pytest.approx(35 / 168)
    assert c.q.routing_ledger_typical.value == pytest.approx(1 - 1 / (1 + 35 / 168))


def test_the_scheduled_doubling_by_hand(c):
    # 50,000 x (2,500 x 0.75 + 400 x 3.75) per 1M = $168.75 a day; twice from 2027.
    assert c.q.scheduled_before.value == pytest.approx(30 * 168.75)
    assert c.q.scheduled_after.value == pytest.approx(2 * 30 * 168.75)
    assert c.q.scheduled_extra_year.value == pytest.approx(12 * 30 * 168.75)
    assert c.q.scheduled_change_day.text == "January 1, 2027"


def test_the_fixed_capability_bill_starts_at_gpt4_launch_prices(c):
    # GPT-4 at $30 / $60: 50,000 x (2,500 x 30 + 400 x 60) per 1M x 30 days
    assert c.q.fixed_model.value == "gpt-4-0314"
    assert c.q.fixed_first_bill.value == pytest.approx(30 * 50_000 * (2_500 * 30 + 400 * 60) / 1e6)
    steps = c.fixed.steps
    assert steps["per_day"].is_sorted(descending=True)  # a staircase only steps down
    assert c.q.fixed_fall.value == pytest.approx(steps["per_day"][0] / steps["per_day"][-1])
    low, high = c.q.fixed_ci.value
    assert low < c.q.fixed_factor.value < high


def test_claim_values_for_the_ledger(c):
    values = chapter.claim_values()
    assert set(values) == {"agent_output_and_reasoning_share", "frontier_cost_ratio"}
    assert values["agent_output_and_reasoning_share"] == c.q.agent_output_share.value
    assert c.q.claim_output_share.value == pytest.approx(0.6)  # "~60% of the bill"


def test_every_offer_is_priced_from_rows_of_the_release(c):
    assert c.bills.height == sum(int(c.q[f"{k}_n"].value) for k in ("chat", "agent", "nightly"))
    assert (c.bills["per_day"] > 0).all()
    assert "aimeter-pricing" in c.sources and "deepseek-tou-dsh-meter" in c.sources


def test_the_leaderboard_runs_reproduce_by_hand(c):
    """Five Intelligence Index runs of 2026-07-10 (aa-leaderboards-oolong/2026-07-10_llms.json),
    from the release's aa_index_runs and aa_snapshots tables.
    GPT-5.6 Sol (high): 340,868,286 input and 21,248,736 output tokens (lines 64158, 64161),
    published 318.0878574665286 input and 637.46208 output (lines 63987-63988); its card 5 / 30,
    cached 0.50 (llm-prices-simonw/2026-08-05_data/openai.json lines 529-533)."""
    if c.leaderboard_left_out:
        pytest.skip(f"the latest release lacks the runs' tokens: {c.leaderboard_left_out}")
    board = c.leaderboard
    assert board.height == 5 and c.q.lb_n.value == 5
    sol = board.filter(board["model_id"] == "gpt-5.6-sol").row(0, named=True)
    assert sol["book_output"] == pytest.approx(21_248_736 * 30 / 1e6)
    assert sol["book_input_uncached"] == pytest.approx(340_868_286 * 5 / 1e6)
    hit = (340_868_286 * 5 / 1e6 - 318.0878574665286) / (340_868_286 * (5 - 0.5) / 1e6)
    assert sol["implied_cache_hit_share"] == pytest.approx(hit)
    low, high = c.q.lb_hit.value
    assert low <= hit <= high
    # output reproduces to the cent for every run, at the rates the leaderboard itself states
    assert c.q.lb_output_match.value == 5 and c.q.lb_same_rates.value == 5
    assert "to the cent" in c.q.lb_text.text


def test_a_release_without_the_runs_leaves_the_leaderboard_section_out():
    """Release 2026-12-03.2 predates aa_index_runs: the section says so and names the table;
    the rest of the chapter is shown, and nothing outside the release is read."""
    with reads.capture() as got:
        old = chapter.compute("2026-12-03.2")
    assert [k for k in got if k.startswith("folder:")] == []  # no raw source folder
    assert old.shown and old.leaderboard is None and not old.with_leaderboard
    assert old.leaderboard_left_out.startswith(
        "Data version 2026-12-03.2 predates the table aa_index_runs"
    )
    assert "section is left out" in old.leaderboard_left_out
    assert old.q.chat_dearest.value == "claude-opus-5.5"  # the other sections still computed
