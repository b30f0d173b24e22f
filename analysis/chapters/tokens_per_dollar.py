"""What the "Tokens per dollar" chapter shows: the frames behind its figures and tables, and every
value its prose quotes.

`compute(version)` runs the chapter's analysis on one data release and returns a
`TokensPerDollar`: the frames the figures and tables take (prepared here, so
`analysis.figures.hardware` only draws) and `q`, the chapter's `Quotes`
(`` `{python} q.h100_gain` `` -> `1.40`). The MLPerf costs come from `analysis.report.results`
and the latest Llama 2 70B cost is the registry's estimate `mlperf-llama2-70b-cost`, so the
chapter and the summary page share one computation.

The section functions (`throughput_quotes`, `cost_quotes`, `floor_quotes`, ...) take the frames
that `analysis.methods.tokens_per_dollar` returns and give a dict of quotes, so they can be
tested on small hand-made frames.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import polars as pl

from analysis.data.cache import cached
from analysis.figures import hardware as fig
from analysis.methods import tokens_per_dollar
from analysis.methods.gpu_prices import claim_checks, claim_row, one_row
from analysis.report import estimates, results
from analysis.report.quote import Estimate, Quote, Quotes

SLUG = "tokens-per-dollar"

# Choices the chapter states in its prose (each is also a quote). The pricing rule and the
# benchmark the headline follows live in the method, which the estimate registry shares.
PRICING, MAX_LAG_MONTHS = tokens_per_dollar.PRICING, tokens_per_dollar.MAX_LAG_MONTHS
SCENARIO, BENCHMARK = tokens_per_dollar.SCENARIO, tokens_per_dollar.BENCHMARK
H100 = "h100-sxm"  # the accelerator followed from round to round
FLOOR_GPUS = ["h100-sxm", "h200", "b200"]  # the GPUs of the physical-floor table
THROUGHPUT_TOP = 8  # the throughput figure draws the accelerators with the most results
SMALL_MODEL, BIG_MODEL = "llama3.1-8b", "llama3.1-405b"
MOE_MODELS = {"mixtral": "mixtral-8x7b", "deepseek": "deepseek-r1"}  # quoted active parameters
MLPERF_COST = "mlperf-llama2-70b-cost"
V6_CLAIM = "coreweave-mlperf-v6.0-gain"
RL_PARAMS_CLAIM = "mlperf-training-v61-rl-params"
RL_GPUS_CLAIM = "mlperf-training-v61-rl-gpus"
NO_TRAINING = (
    "Not in the data: the project holds MLPerf Inference results only, no MLPerf Training."
)


@dataclass(frozen=True)
class TokensPerDollar:
    """The frames the chapter's figures and tables take, and its quotes."""

    scenario: str  # SCENARIO: the MLPerf scenario of the figures and tables
    summary: pl.DataFrame  # tokens_per_dollar.throughput_summary: every accelerator and scenario
    throughput: pl.DataFrame  # its rows the throughput figure draws (`top_accelerators`)
    costs: pl.DataFrame  # tokens_per_dollar.mlperf_usd_per_mtok: every priced result
    offline: pl.DataFrame  # cheapest result per round and model, SCENARIO: the cost table
    floors: pl.DataFrame  # tokens_per_dollar.floor_table: the floor table
    ladder: pl.DataFrame  # tokens_per_dollar.cost_ladder: the ladder table
    ladder_rungs: pl.DataFrame  # the ladder one rung per row: the ladder figure
    ladder_order: list[str]  # the figure's models, top to bottom (fewest active parameters first)
    break_even: pl.DataFrame  # tokens_per_dollar.break_even_utilisation, SCENARIO: its table
    claim_checks: pl.DataFrame  # gpu_prices.claim_checks: the claims table
    q: Quotes


def compute(version: str | None = None) -> TokensPerDollar:
    """The chapter's analysis of data version `version` (None: the current one), once per
    version and process."""
    return _compute(results.version(version))


@cache
@cached  # on disk too: the second output format, and later renders, reuse the result
def _compute(v: str) -> TokensPerDollar:
    mlperf, prices = results.table("mlperf_results", v), results.table("gpu_hour_prices", v)
    specs, models = results.table("gpu_specs", v), results.table("models", v)
    token_prices, claims = results.table("token_prices", v), results.table("claims", v)
    per_acc = tokens_per_dollar.mlperf_per_accelerator(mlperf)
    summary = tokens_per_dollar.throughput_summary(per_acc)
    costs = results.mlperf_costs(v)
    unmatched = tokens_per_dollar.unmatched_price_rows(
        per_acc, prices, pricing=PRICING, max_lag_months=MAX_LAG_MONTHS
    )
    offline = tokens_per_dollar.cheapest_by_round(costs).filter(pl.col("scenario") == SCENARIO)
    floors = tokens_per_dollar.floor_table(specs, FLOOR_GPUS, models)
    ladder = tokens_per_dollar.cost_ladder(
        costs, specs, models, token_prices, scenario=SCENARIO, data_version=v
    )
    break_even = tokens_per_dollar.break_even_utilisation(costs, token_prices, models)
    latest_round = rounds_in_order(per_acc)[-1]

    q = Quotes(SLUG)
    for part in (
        throughput_quotes(per_acc, summary, v),
        cost_quotes(costs, unmatched, estimates.estimate(MLPERF_COST, v)),
        floor_quotes(floors, best_h100(summary)["best_tokens_per_s_per_acc"]),
        ladder_quotes(ladder),
        break_even_quotes(break_even, latest_round),
        claim_quotes(claims),
    ):
        q.update(part)
    # The rows the anomaly rules took out of the tables this page reads (issue 9).
    q["removed"] = Quote(results.removed_text(("gpu_hour_prices", "token_prices"), v))
    return TokensPerDollar(
        scenario=SCENARIO,
        summary=summary,
        throughput=tokens_per_dollar.top_accelerators(
            summary, scenario=SCENARIO, top=THROUGHPUT_TOP
        ),
        costs=costs,
        offline=offline,
        floors=floors,
        ladder=ladder,
        ladder_rungs=ladder_rungs(ladder),
        ladder_order=ladder.sort("active_parameters_b")
        .select(fig.model_label().alias("model"))["model"]
        .to_list(),
        break_even=break_even.filter(pl.col("scenario") == SCENARIO),
        claim_checks=claim_checks(claims, claim_findings(q, mlperf)),
        q=q,
    )


# ------------------------------------------------------------------ frames


def rounds_in_order(frame: pl.DataFrame) -> list[str]:
    """The MLPerf rounds of a frame with `round` and `date`, oldest first."""
    return frame.sort("date")["round"].unique(maintain_order=True).to_list()


def benchmark_rows(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows of the benchmark and scenario the prose follows (BENCHMARK, SCENARIO)."""
    return frame.filter(pl.col("base_model") == BENCHMARK, pl.col("scenario") == SCENARIO)


def h100_throughput(summary: pl.DataFrame) -> pl.DataFrame:
    """The H100 SXM's best BENCHMARK result per round (from `throughput_summary`), by date."""
    rows = benchmark_rows(summary).filter(pl.col("accelerator") == H100).sort("date")
    if rows.height == 0:
        raise LookupError(f"no {SCENARIO} {BENCHMARK} result on {H100}")
    return rows


def best_h100(summary: pl.DataFrame) -> dict:
    """The H100 SXM's best BENCHMARK result in its latest round."""
    return h100_throughput(summary).row(-1, named=True)


def price_coverage(costs: pl.DataFrame, unmatched: pl.DataFrame) -> tuple[list[str], list[str]]:
    """The accelerators with unpriced results (from `unmatched_price_rows`), split into those
    never priced and those priced in some rounds (present in `costs`); each sorted."""
    priced = set(costs["accelerator"].to_list())
    accs = unmatched["accelerator"].unique().sort().to_list()
    return [a for a in accs if a not in priced], [a for a in accs if a in priced]


def ladder_rungs(ladder: pl.DataFrame) -> pl.DataFrame:
    """The ladder one rung per row with the models' and rungs' names (`fig.LADDER_RUNGS`)."""
    named = ladder.with_columns(fig.model_label().alias("model"))
    return tokens_per_dollar.ladder_long(named, fig.LADDER_RUNGS)


# ------------------------------------------------------------------ quotes, section by section


def names(ids: list[str]) -> Quote:
    """Accelerator ids as the prose lists them: `GAUDI2, GB200 and MI300X`."""
    return Quote(fig.and_join(fig.gpu_names(ids)))


def gpu_name(gpu: str) -> Quote:
    return Quote(fig.gpu_names([gpu])[0])


def throughput_quotes(per_acc: pl.DataFrame, summary: pl.DataFrame, version: str) -> dict:
    """The MLPerf results (from `tokens_per_dollar.mlperf_per_accelerator`) and the throughput
    of BENCHMARK in SCENARIO (from `throughput_summary`): the H100 SXM's best result in its first
    and latest round (`h100_first_*`, `h100_last_*`, `h100_gain`) and the fastest accelerator in
    the latest round (`best_*`)."""
    rounds = rounds_in_order(per_acc)
    h100 = h100_throughput(summary)
    first, last = h100.row(0, named=True), h100.row(-1, named=True)
    best = one_row(
        benchmark_rows(summary).sort("best_tokens_per_s_per_acc", descending=True),
        f"a {rounds[-1]} {BENCHMARK} result",
        pl.col("round") == rounds[-1],
    )
    gain = last["best_tokens_per_s_per_acc"] / first["best_tokens_per_s_per_acc"]
    return {
        "version": Quote(version),
        "n_results": Quote(per_acc.height, "count"),
        "n_accelerators": Quote(per_acc["accelerator"].n_unique(), "count"),
        "n_identical_pairs": Quote(per_acc["accuracy_pair_identical"].sum(), "count"),
        "rounds": Quote(fig.and_join(rounds)),
        "latest_round": Quote(rounds[-1]),
        "h100_first_tokens": Quote(first["best_tokens_per_s_per_acc"], "number"),
        "h100_first_round": Quote(first["round"]),
        "h100_last_tokens": Quote(last["best_tokens_per_s_per_acc"], "number"),
        "h100_last_round": Quote(last["round"]),
        "h100_gain": Quote(gain, "number"),
        "best_accelerator": gpu_name(best["accelerator"]),
        "best_tokens": Quote(best["best_tokens_per_s_per_acc"], "number"),
    }


def cost_quotes(costs: pl.DataFrame, unmatched: pl.DataFrame, latest: Estimate) -> dict:
    """Hardware cost per million tokens (from `tokens_per_dollar.mlperf_usd_per_mtok`): how many
    results find a GPU-hour price and which accelerators do not, the cheapest BENCHMARK result
    in SCENARIO in the first and latest round (`llama_cost_first_*`; the latest cost is the
    registry's estimate `latest`, `llama_cost_last_usd`) and the H100 SXM's own cheapest result
    then (`h100_cost_*`)."""
    never, sometimes = price_coverage(costs, unmatched)
    cheapest = benchmark_rows(tokens_per_dollar.cheapest_by_round(costs)).sort("date")
    h100 = (
        benchmark_rows(tokens_per_dollar.cheapest_by_round(costs, by_accelerator=True))
        .filter(pl.col("accelerator") == H100)
        .sort("date")
    )
    for frame, what in ((cheapest, "a priced result"), (h100, f"a priced {H100} result")):
        if frame.height == 0:
            raise LookupError(f"no {SCENARIO} {BENCHMARK} {what}")
    first, last = cheapest.row(0, named=True), cheapest.row(-1, named=True)
    h_first, h_last = h100.row(0, named=True), h100.row(-1, named=True)
    fall = first["hardware_usd_per_mtok"] / latest.value
    return {
        "pricing": Quote(PRICING),
        "max_lag": Quote(MAX_LAG_MONTHS, "count"),
        "n_priced": Quote(costs.height, "count"),
        "never_priced": names(never),
        "sometimes_priced": names(sometimes),
        "llama_cost_first_usd": Quote(first["hardware_usd_per_mtok"], "usd"),
        "llama_cost_first_round": Quote(first["round"]),
        "llama_cost_first_accelerator": gpu_name(first["accelerator"]),
        "llama_cost_last_usd": latest,
        "llama_cost_last_round": Quote(last["round"]),
        "llama_cost_last_accelerator": gpu_name(last["accelerator"]),
        "llama_cost_fall": Quote(fall, "number"),
        "h100_cost_first_usd": Quote(h_first["hardware_usd_per_mtok"], "usd"),
        "h100_cost_last_usd": Quote(h_last["hardware_usd_per_mtok"], "usd"),
        "h100_cost_first_gpu_hour_usd": Quote(h_first["usd_per_gpu_hour"], "usd"),
        "h100_cost_last_gpu_hour_usd": Quote(h_last["usd_per_gpu_hour"], "usd"),
    }


def floor_quotes(floors: pl.DataFrame, h100_best_tokens: float) -> dict:
    """The physical bounds (from `tokens_per_dollar.floor_table`): the GPUs bounded at FP16,
    BENCHMARK on the H100 SXM (`h100_floor_*`, and the share of its compute bound that
    `h100_best_tokens`, the best measured result, reaches), and the MoE models' active
    parameters."""
    fp16 = floors.filter(pl.col("precision") == "fp16")["gpu"].unique().sort().to_list()
    h100 = one_row(
        floors,
        f"the {BENCHMARK} floor on {H100}",
        pl.col("base_model") == BENCHMARK,
        pl.col("gpu") == H100,
    )
    q = {
        "fp16_gpus": names(fp16),
        "h100_floor_precision": Quote(h100["precision"].upper()),
        "h100_floor_compute": Quote(h100["compute_bound_tokens_per_s"], "number"),
        "h100_floor_memory": Quote(h100["memory_bound_tokens_per_s"], "number"),
        "h100_floor_crossover": Quote(h100["crossover_batch"], "number"),
        "h100_share_of_bound": Quote(
            h100_best_tokens / h100["compute_bound_tokens_per_s"], "share"
        ),
    }
    for key, model in MOE_MODELS.items():
        row = one_row(floors, f"the {model} floor", pl.col("base_model") == model)
        q[f"{key}_active_b"] = Quote(row["active_parameters_b"], "number")
    return q


def big_rung_verdict(hardware_usd: float, api_median_usd: float) -> str:
    """Whether the biggest model's MLPerf cost breaks the ladder (sits above its API price)."""
    if hardware_usd > api_median_usd:
        return "breaks the ladder: its MLPerf cost is above the median API price"
    return "stays on the ladder: its MLPerf cost is below the median API price"


def ladder_quotes(ladder: pl.DataFrame) -> dict:
    """The ladder from the floor to the API price (from `tokens_per_dollar.cost_ladder`): its
    round, the BENCHMARK rungs and ratios (`llama_rung_*`), the range of the ratios across
    models, and the BIG_MODEL hardware cost against its API price (`big_rung_*`)."""
    llama = one_row(ladder, f"the {BENCHMARK} rung", pl.col("base_model") == BENCHMARK)
    big = one_row(ladder, f"the {BIG_MODEL} rung", pl.col("base_model") == BIG_MODEL)
    q = {
        "ladder_round": Quote(one_row(ladder, "a ladder row")["round"]),
        "ladder_n_models": Quote(ladder.height, "count"),
        "llama_rung_accelerator": gpu_name(llama["accelerator"]),
        "llama_rung_floor_usd": Quote(llama["floor_usd_per_mtok"], "usd"),
        "llama_rung_hardware_usd": Quote(llama["hardware_usd_per_mtok"], "usd"),
        "llama_rung_api_usd": Quote(llama["api_median_usd_per_mtok"], "usd"),
        "big_rung_hardware_usd": Quote(big["hardware_usd_per_mtok"], "usd"),
        "big_rung_api_usd": Quote(big["api_median_usd_per_mtok"], "usd"),
        "big_rung_verdict": Quote(
            big_rung_verdict(big["hardware_usd_per_mtok"], big["api_median_usd_per_mtok"])
        ),
    }
    for ratio in ("hardware_over_floor", "api_over_hardware", "api_over_floor"):
        q[f"llama_rung_{ratio}"] = Quote(llama[ratio], "number")
    for ratio in ("hardware_over_floor", "api_over_floor"):
        q[f"{ratio}_range"] = Quote((ladder[ratio].min(), ladder[ratio].max()), "number")
    return q


def break_even_quotes(break_even: pl.DataFrame, latest_round: str) -> dict:
    """Break-even utilisation in `latest_round`, SCENARIO (from
    `tokens_per_dollar.break_even_utilisation`), at the median and the cheapest API price:
    `be_llama_*` (BENCHMARK), `be_small_*` (SMALL_MODEL), `be_big_*` (BIG_MODEL)."""
    rows = break_even.filter(pl.col("scenario") == SCENARIO, pl.col("round") == latest_round)
    q, r_of = {}, {}
    for key, model in (("llama", BENCHMARK), ("small", SMALL_MODEL), ("big", BIG_MODEL)):
        r = one_row(rows, f"a {latest_round} break-even of {model}", pl.col("base_model") == model)
        r_of[key] = r
        q[f"be_{key}"] = Quote(r["break_even_utilisation"], "share")
        q[f"be_{key}_at_min_price"] = Quote(r["break_even_utilisation_at_min_price"], "share")
        q[f"be_{key}_api_min_usd"] = Quote(r["api_min_usd_per_mtok"], "usd")
    q["be_small_min_reading"] = Quote(
        "no on-demand GPU pays for itself"
        if r_of["small"]["break_even_utilisation_at_min_price"] > 1
        else "an on-demand GPU pays for itself only near full use"
    )
    q["be_big_reading"] = Quote(
        "above 100%, for the reason the ladder shows: output prices alone do not pay for "
        "prompt-heavy work"
        if r_of["big"]["break_even_utilisation"] > 1
        else "below 100%: at the median output price a GPU rented on demand pays for itself"
    )
    return q


def claim_quotes(claims: pl.DataFrame) -> dict:
    """The values the digests' MLPerf claims state."""
    return {
        "v6_claim_factor": Quote(claim_row(claims, V6_CLAIM)["value"], "number"),
        "rl_params_b": Quote(claim_row(claims, RL_PARAMS_CLAIM)["value"], "count"),
        "rl_gpus": Quote(claim_row(claims, RL_GPUS_CLAIM)["value"], "count"),
    }


def claim_findings(q: Quotes | dict[str, Quote], mlperf: pl.DataFrame) -> dict[str, str]:
    """What the data shows for each digest claim (claim_id -> text for the claims table): the
    rounds held (`q["rounds"]`) and how many results of `mlperf` come from any v6 round."""
    n_v6 = mlperf.filter(pl.col("round").str.starts_with("v6")).height
    return {
        V6_CLAIM: (
            f"Not in the data: MLPerf Inference rounds held are {q['rounds'].text}; "
            f"{n_v6} results from any v6 round."
        ),
        RL_PARAMS_CLAIM: NO_TRAINING,
        RL_GPUS_CLAIM: NO_TRAINING,
    }
