"""What the "Tokens per dollar" chapter shows: the frames behind its figures and tables, and every
value its prose quotes.

`build` runs the chapter's analysis (all estimates come from `analysis.methods.tokens_per_dollar`) and
returns a `TokensChapter`: the frames the figures and tables take, and `numbers`, a
`hardware_views.Numbers` holding each quoted value as the prose shows it
(`` `{python} numbers["h100_gain"]` `` -> `1.4`) and unformatted (`numbers.raw`).

The section functions (`throughput_numbers`, `cost_numbers`, `floor_numbers`, ...) take the
frames that `tokens_per_dollar` returns, so they can be tested on small hand-made frames.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analysis.figures import hardware as views
from analysis.figures.hardware import Numbers, and_join, one_row, share, times, usd
from analysis.methods import tokens_per_dollar

# Choices the chapter states in its prose (each is also quoted from `numbers`).
PRICING, MAX_LAG_MONTHS = tokens_per_dollar.PRICING, tokens_per_dollar.MAX_LAG_MONTHS
SCENARIO, BENCHMARK = tokens_per_dollar.SCENARIO, tokens_per_dollar.BENCHMARK
H100 = "h100-sxm"  # the accelerator followed from round to round
FLOOR_GPUS = ["h100-sxm", "h200", "b200"]  # the GPUs of the physical-floor table
SMALL_MODEL, BIG_MODEL = "llama3.1-8b", "llama3.1-405b"
V6_CLAIM = "coreweave-mlperf-v6.0-gain"
RL_PARAMS_CLAIM = "mlperf-training-v61-rl-params"
RL_GPUS_CLAIM = "mlperf-training-v61-rl-gpus"
NO_TRAINING = (
    "Not in the data: the project holds MLPerf Inference results only, no MLPerf Training."
)


@dataclass(frozen=True)
class TokensChapter:
    """The frames the chapter's figures and tables take, and its quoted values."""

    summary: pl.DataFrame  # tokens_per_dollar.throughput_summary: the throughput figure
    offline: pl.DataFrame  # cheapest result per round and model, Offline: the cost table
    floors: pl.DataFrame  # tokens_per_dollar.floor_table: the floor table
    ladder: pl.DataFrame  # tokens_per_dollar.cost_ladder: the ladder figure and table
    break_even: pl.DataFrame  # tokens_per_dollar.break_even_utilisation: its table
    claim_checks: pl.DataFrame  # hardware_views.claim_checks: the claims table
    numbers: Numbers


def build(
    mlperf: pl.DataFrame,
    prices: pl.DataFrame,
    specs: pl.DataFrame,
    token_prices: pl.DataFrame,
    models: pl.DataFrame,
    claims: pl.DataFrame,
    *,
    version: str | None = None,
) -> TokensChapter:
    """Run the chapter's analysis on the data tables (`mlperf_results`, `gpu_hour_prices`,
    `gpu_specs`, `token_prices`, `models`, `claims`) of data version `version`."""
    per_acc = tokens_per_dollar.mlperf_per_accelerator(mlperf)
    summary = tokens_per_dollar.throughput_summary(per_acc)
    costs = tokens_per_dollar.mlperf_usd_per_mtok(
        per_acc, prices, pricing=PRICING, max_lag_months=MAX_LAG_MONTHS
    )
    unmatched = tokens_per_dollar.unmatched_price_rows(
        per_acc, prices, pricing=PRICING, max_lag_months=MAX_LAG_MONTHS
    )
    offline = tokens_per_dollar.cheapest_by_round(costs).filter(pl.col("scenario") == SCENARIO)
    floors = tokens_per_dollar.floor_table(specs, FLOOR_GPUS, models)
    ladder = tokens_per_dollar.cost_ladder(
        costs, specs, models, token_prices, scenario=SCENARIO, data_version=version
    )
    break_even = tokens_per_dollar.break_even_utilisation(costs, token_prices, models)

    throughput = throughput_numbers(per_acc, summary)
    numbers = Numbers.merge(
        throughput,
        cost_numbers(per_acc, costs, unmatched),
        floor_numbers(floors, throughput.raw["h100_last_tokens"]),
        ladder_numbers(ladder),
        break_even_numbers(break_even, throughput.raw["latest_round"]),
        claim_numbers(claims, mlperf),
    )
    return TokensChapter(
        summary=summary,
        offline=offline,
        floors=floors,
        ladder=ladder,
        break_even=break_even,
        claim_checks=views.claim_checks(claims, claim_findings(numbers)),
        numbers=numbers,
    )


# ------------------------------------------------------------------ numbers, section by section


def rounds_in_order(frame: pl.DataFrame) -> list[str]:
    """The MLPerf rounds of a frame with `round` and `date`, oldest first."""
    return frame.sort("date")["round"].unique(maintain_order=True).to_list()


def throughput_numbers(per_acc: pl.DataFrame, summary: pl.DataFrame) -> Numbers:
    """The MLPerf results (from `tokens_per_dollar.mlperf_per_accelerator`) and the throughput
    of Llama 2 70B Offline (from `throughput_summary`): the H100 SXM's best result in its first
    and latest round (`h100_first_*`, `h100_last_*`, `h100_gain`) and the fastest accelerator in
    the latest round (`best_*`)."""
    rounds = rounds_in_order(per_acc)
    n = Numbers()
    n.add("n_results", per_acc.height, ",")
    n.add("n_accelerators", per_acc["accelerator"].n_unique(), ",")
    n.add("n_identical_pairs", per_acc["accuracy_pair_identical"].sum(), ",")
    n.add("rounds", rounds, and_join)
    n.add("latest_round", rounds[-1])
    bench = summary.filter(pl.col("base_model") == BENCHMARK, pl.col("scenario") == SCENARIO)
    h100 = bench.filter(pl.col("accelerator") == H100).sort("date")
    for name, row in (("first", 0), ("last", -1)):
        if h100.height == 0:
            raise LookupError(f"no {SCENARIO} {BENCHMARK} result on {H100}")
        r = h100.row(row, named=True)
        n.add(f"h100_{name}_tokens", r["best_tokens_per_s_per_acc"], ",.0f")
        n.add(f"h100_{name}_round", r["round"])
    n.add("h100_gain", n.raw["h100_last_tokens"] / n.raw["h100_first_tokens"], times)
    best = one_row(
        bench.sort("best_tokens_per_s_per_acc", descending=True),
        f"a {rounds[-1]} {BENCHMARK} result",
        pl.col("round") == rounds[-1],
    )
    n.add("best_accelerator", best["accelerator"], str.upper)
    n.add("best_tokens", best["best_tokens_per_s_per_acc"], ",.0f")
    return n


def price_coverage(costs: pl.DataFrame, unmatched: pl.DataFrame) -> tuple[list[str], list[str]]:
    """The accelerators with unpriced results (from `unmatched_price_rows`), split into those
    never priced and those priced in some rounds (present in `costs`); each sorted."""
    priced = set(costs["accelerator"].to_list())
    accs = unmatched["accelerator"].unique().sort().to_list()
    return [a for a in accs if a not in priced], [a for a in accs if a in priced]


def cost_numbers(per_acc: pl.DataFrame, costs: pl.DataFrame, unmatched: pl.DataFrame) -> Numbers:
    """Hardware cost per million tokens (from `tokens_per_dollar.mlperf_usd_per_mtok`): how many
    results find a GPU-hour price and which accelerators do not, the cheapest Llama 2 70B
    Offline result in the first and latest round (`llama_cost_first_*`, `llama_cost_last_*`)
    and the H100 SXM's own cheapest result then (`h100_cost_*`)."""
    n = Numbers()
    n.add("pricing", PRICING)
    n.add("max_lag", MAX_LAG_MONTHS)
    n.add("n_priced", costs.height, ",")
    never, sometimes = price_coverage(costs, unmatched)
    n.add("never_priced", never, lambda ids: and_join(views.gpu_names(ids)))
    n.add("sometimes_priced", sometimes, lambda ids: and_join(views.gpu_names(ids)))
    where = (pl.col("base_model") == BENCHMARK, pl.col("scenario") == SCENARIO)
    cheapest = tokens_per_dollar.cheapest_by_round(costs).filter(*where).sort("date")
    h100 = (
        tokens_per_dollar.cheapest_by_round(costs, by_accelerator=True)
        .filter(*where, pl.col("accelerator") == H100)
        .sort("date")
    )
    for frame, what in ((cheapest, "a priced result"), (h100, f"a priced {H100} result")):
        if frame.height == 0:
            raise LookupError(f"no {SCENARIO} {BENCHMARK} {what}")
    for name, row in (("first", 0), ("last", -1)):
        r = cheapest.row(row, named=True)
        n.add(f"llama_cost_{name}_usd", r["hardware_usd_per_mtok"], usd)
        n.add(f"llama_cost_{name}_round", r["round"])
        n.add(f"llama_cost_{name}_accelerator", r["accelerator"], str.upper)
        h = h100.row(row, named=True)
        n.add(f"h100_cost_{name}_usd", h["hardware_usd_per_mtok"], usd)
        n.add(f"h100_cost_{name}_gpu_hour_usd", h["usd_per_gpu_hour"], usd)
    fall = n.raw["llama_cost_first_usd"] / n.raw["llama_cost_last_usd"]
    n.add("llama_cost_fall", fall, times)
    return n


def floor_numbers(floors: pl.DataFrame, h100_best_tokens: float) -> Numbers:
    """The physical bounds (from `tokens_per_dollar.floor_table`): the GPUs bounded at FP16,
    Llama 2 70B on the H100 SXM (`h100_floor_*`, and the share of its compute bound that
    `h100_best_tokens`, the best measured result, reaches), and the MoE models' active
    parameters."""
    n = Numbers()
    fp16 = floors.filter(pl.col("precision") == "fp16")["gpu"].unique().sort().to_list()
    n.add("fp16_gpus", fp16, lambda ids: " and ".join(views.gpu_names(ids)))
    h100 = one_row(
        floors,
        f"the {BENCHMARK} floor on {H100}",
        pl.col("base_model") == BENCHMARK,
        pl.col("gpu") == H100,
    )
    n.add("h100_floor_precision", h100["precision"], str.upper)
    n.add("h100_floor_compute", h100["compute_bound_tokens_per_s"], ",.0f")
    n.add("h100_floor_memory", h100["memory_bound_tokens_per_s"], ",.0f")
    n.add("h100_floor_crossover", h100["crossover_batch"], ",.0f")
    n.add("h100_share_of_bound", h100_best_tokens / h100["compute_bound_tokens_per_s"], share)
    for key, model in (("mixtral", "mixtral-8x7b"), ("deepseek", "deepseek-r1")):
        row = one_row(floors, f"the {model} floor", pl.col("base_model") == model)
        n.add(f"{key}_active_b", row["active_parameters_b"], "g")
    return n


def ladder_numbers(ladder: pl.DataFrame) -> Numbers:
    """The ladder from the floor to the API price (from `tokens_per_dollar.cost_ladder`): its
    round, the Llama 2 70B rungs and ratios (`llama_rung_*`), the range of the ratios across
    models, and the Llama 3.1 405B hardware cost against its API price (`big_rung_*`)."""
    n = Numbers()
    n.add("ladder_round", one_row(ladder, "a ladder row")["round"])
    n.add("ladder_n_models", ladder.height)
    llama = one_row(ladder, f"the {BENCHMARK} rung", pl.col("base_model") == BENCHMARK)
    n.add("llama_rung_accelerator", llama["accelerator"], str.upper)
    n.add("llama_rung_floor_usd", llama["floor_usd_per_mtok"], lambda x: usd(x, 3))
    n.add("llama_rung_hardware_usd", llama["hardware_usd_per_mtok"], lambda x: usd(x, 3))
    n.add("llama_rung_api_usd", llama["api_median_usd_per_mtok"], usd)
    for ratio in ("hardware_over_floor", "api_over_hardware", "api_over_floor"):
        n.add(f"llama_rung_{ratio}", llama[ratio], times)
    for ratio in ("hardware_over_floor", "api_over_floor"):
        n.add(f"{ratio}_min", ladder[ratio].min(), times)
        n.add(f"{ratio}_max", ladder[ratio].max(), times)
    big = one_row(ladder, f"the {BIG_MODEL} rung", pl.col("base_model") == BIG_MODEL)
    n.add("big_rung_hardware_usd", big["hardware_usd_per_mtok"], usd)
    n.add("big_rung_api_usd", big["api_median_usd_per_mtok"], usd)
    return n


def break_even_numbers(break_even: pl.DataFrame, latest_round: str) -> Numbers:
    """Break-even utilisation in `latest_round`, Offline (from
    `tokens_per_dollar.break_even_utilisation`), at the median and the cheapest API price:
    `be_llama_*` (Llama 2 70B), `be_small_*` (Llama 3.1 8B), `be_big_*` (Llama 3.1 405B)."""
    rows = break_even.filter(pl.col("scenario") == SCENARIO, pl.col("round") == latest_round)
    n = Numbers()
    for key, model in (("llama", BENCHMARK), ("small", SMALL_MODEL), ("big", BIG_MODEL)):
        r = one_row(rows, f"a {latest_round} break-even of {model}", pl.col("base_model") == model)
        n.add(f"be_{key}", r["break_even_utilisation"], share)
        n.add(f"be_{key}_at_min_price", r["break_even_utilisation_at_min_price"], share)
        n.add(f"be_{key}_api_min_usd", r["api_min_usd_per_mtok"], usd)
    return n


def claim_numbers(claims: pl.DataFrame, mlperf: pl.DataFrame) -> Numbers:
    """The digests' MLPerf claims: the values they state and how many results the data holds
    from any v6 round (`n_v6_results`)."""
    n = Numbers()
    n.add("v6_claim_factor", views.claim_row(claims, V6_CLAIM)["value"], "g")
    n.add("rl_params_b", views.claim_row(claims, RL_PARAMS_CLAIM)["value"], "g")
    n.add("rl_gpus", views.claim_row(claims, RL_GPUS_CLAIM)["value"], "g")
    n.add("n_v6_results", mlperf.filter(pl.col("round").str.starts_with("v6")).height)
    return n


def claim_findings(numbers: Numbers) -> dict[str, str]:
    """What the data shows for each digest claim (claim_id -> text for the claims table), from
    the values `throughput_numbers` and `claim_numbers` put in `numbers`."""
    return {
        V6_CLAIM: (
            f"Not in the data: MLPerf Inference rounds held are {numbers['rounds']}; "
            f"{numbers['n_v6_results']} results from any v6 round."
        ),
        RL_PARAMS_CLAIM: NO_TRAINING,
        RL_GPUS_CLAIM: NO_TRAINING,
    }
