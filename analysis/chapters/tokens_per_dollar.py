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

import math
from dataclasses import dataclass
from datetime import date

import polars as pl

from analysis.data.cache import cached
from analysis.data.reads import memo
from analysis.figures import hardware as fig
from analysis.methods import inference_cost, tokens_per_dollar, training_scale
from analysis.methods.claims import Evidence, claim_row, claim_verdict
from analysis.methods.gpu_prices import one_row
from analysis.report import estimates, left_out, results
from analysis.report.names import gpu_name, unnamed_note
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
MLPERF_COST = "mlperf-llama2-70b-cost"
V6_CLAIM = "coreweave-mlperf-v6.0-gain"
RL_PARAMS_CLAIM = "mlperf-training-v61-rl-params"
RL_GPUS_CLAIM = "mlperf-training-v61-rl-gpus"
TPU_CLAIM = "tpu-v7-perf-per-dollar"
CISCO_CLAIM = "cisco-first-multivendor-mlperf"
CLAIM_IDS = [V6_CLAIM, TPU_CLAIM, RL_GPUS_CLAIM, RL_PARAMS_CLAIM, CISCO_CLAIM]
TPU_V7 = "tpu-v7"
# The v6.0 claim: CoreWeave's v6.0 results against the previous round held, same accelerator.
V6_SUBMITTER, V6_ROUND, V6_FROM_ROUND = "CoreWeave", "v6.0", "v5.1"
# "Compared to previous generations": CoreWeave's Grace Blackwell results against the previous
# generation, NVIDIA Hopper, in the same round, benchmark and scenario.
GRACE_BLACKWELL = ("gb200", "gb300")
HOPPER = ("h100-sxm", "h100-pcie", "h100-nvl", "h200", "h200-nvl", "gh200")
CISCO = "Cisco"
# InferenceMAX: the workload (input and output tokens per request), the interactivity bar a
# serving configuration must meet (median output tokens/s one user sees) and the bar the prose
# sets beside it; the InferenceX ownership case the prose quotes; the MLPerf scenario set beside
# it (Server: like the bar, it bounds latency); the models, by MLPerf/InferenceMAX name.
WORKLOAD_ISL, WORKLOAD_OSL = 1024, 1024
MIN_INTERACTIVITY, STRICT_INTERACTIVITY = 20.0, 50.0
OWNERSHIP = "neocloud"
COMPARE_SCENARIO = "Server"
OPEN_MODELS = {"gpt-oss-120b": "gpt-oss-120b", "deepseek-r1": "deepseek-r1"}
TRAINING_BENCHMARK = "llama31_405b"
LEVEL = 0.90
# Section anchors of the page (claim evidence points at them).
SEC_V6, SEC_CLAIMS = "sec-tokens-per-dollar-v6", "sec-tokens-per-dollar-digest-claims"
# The sections older releases cannot show (release 2026-12-01 predates these sources); the
# InferenceMAX costs are set beside MLPerf v6.0, and the digest claims quote v6.0 and training.
NEEDS = {
    "v6": left_out.Needs(
        f"MLPerf Inference {V6_ROUND} results",
        rows=("mlperf_results", lambda mlperf: mlperf.filter(pl.col("round") == V6_ROUND)),
    ),
    "inferencemax": left_out.Needs(
        "InferenceMAX runs and InferenceX's GPU-hour prices",
        tables=("inference_benchmarks", "tco_assumptions"),
    ),
    "training": left_out.Needs(
        "MLPerf Training systems and results",
        tables=("mlperf_training_systems", "mlperf_training_results"),
    ),
}
READS = {"inferencemax": ("v6",), "digest": ("v6", "training")}
CLAIM_PARTS = {
    V6_CLAIM: "v6",
    TPU_CLAIM: "digest",
    RL_GPUS_CLAIM: "training",
    RL_PARAMS_CLAIM: "training",
    CISCO_CLAIM: "digest",
}


@dataclass(frozen=True)
class TokensPerDollar:
    """What the page reads besides its folded cells (which call the methods themselves): the
    data version, the claim evidence, the quotes, and the sections the version leaves out."""

    version: str  # the data version the chapter ran on
    evidence: dict[str, Evidence]  # claim_evidence_from: one per claim of CLAIM_IDS it holds
    q: Quotes
    left_out: dict[str, str]  # section (NEEDS, READS) -> why this data version cannot show it

    def shows(self, part: str) -> bool:
        return part not in self.left_out


def compute(version: str | None = None) -> TokensPerDollar:
    """The chapter's analysis of data version `version` (None: the current one), once per
    version and process."""
    return _compute(results.version(version))


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's fit
def training_fit(v: str, fixed_effects: bool = True) -> training_scale.ScalingFit:
    """`training_scale.scaling_fit` of the release's MLPerf Training systems
    (`training_scale.system_times` on TRAINING_BENCHMARK), with one intercept per accelerator
    unless `fixed_effects` is False."""
    runs = results.table("mlperf_training_results", v)
    systems = training_scale.system_times(runs, benchmark=TRAINING_BENCHMARK)
    return training_scale.scaling_fit(systems, fixed_effects=fixed_effects, level=LEVEL)


@memo
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
    floors = tokens_per_dollar.floor_table(specs, FLOOR_GPUS, models)
    ladder = tokens_per_dollar.cost_ladder(
        costs, specs, models, token_prices, scenario=SCENARIO, data_version=v
    )
    break_even = tokens_per_dollar.break_even_utilisation(costs, token_prices, models)
    latest_round = rounds_in_order(per_acc)[-1]
    absent = left_out.reasons(NEEDS, v, READS)

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
    v6_generation = training_systems = None
    if "v6" not in absent:
        v6_gain = tokens_per_dollar.submitter_gain(
            per_acc, submitter=V6_SUBMITTER, to_round=V6_ROUND, from_round=V6_FROM_ROUND
        )
        q.update(v6_quotes(v6_gain, per_acc))
        v6_generation = tokens_per_dollar.generation_gain(
            per_acc, submitter=V6_SUBMITTER, in_round=V6_ROUND, new=GRACE_BLACKWELL, old=HOPPER
        )
        q.update(generation_quotes(v6_generation))
    # The accelerators the throughput and InferenceMAX figures label: those no source names are
    # drawn as their ids in capitals (fig.gpu_name), and the page says so once.
    drawn = set(
        tokens_per_dollar.top_accelerators(summary, scenario=SCENARIO, top=THROUGHPUT_TOP)[
            "accelerator"
        ]
    )
    if "inferencemax" not in absent:
        drawn |= inference_section(mlperf, per_acc, token_prices, costs, v, q)
    q["unnamed_accelerators"] = Quote(unnamed_note("gpu", drawn, v, capitals=True), "text")
    if "training" not in absent:
        runs = results.table("mlperf_training_results", v)
        systems = training_scale.system_times(runs, benchmark=TRAINING_BENCHMARK)
        fit, pooled = training_fit(v), training_fit(v, fixed_effects=False)
        training_systems = results.table("mlperf_training_systems", v)
        q.update(training_quotes(systems, runs, training_systems, fit, pooled))
    if "digest" not in absent:
        vendors = tokens_per_dollar.vendors_by_submitter(mlperf)
        q.update(digest_hardware_quotes(mlperf, prices, training_systems, vendors))
    if absent:
        q.leave_out()  # the prose of the left-out sections still runs, and reads placeholders
    evidence = claim_evidence_from(q, v6_generation, claims, absent)
    if "v6" not in absent:
        q["v6_verdict"] = Quote(claim_verdict(claim_row(claims, V6_CLAIM), evidence[V6_CLAIM]))
    return TokensPerDollar(version=v, evidence=evidence, q=q, left_out=absent)


def inference_section(
    mlperf: pl.DataFrame,
    per_acc: pl.DataFrame,
    token_prices: pl.DataFrame,
    costs: pl.DataFrame,
    v: str,
    q: Quotes,
) -> set[str]:
    """The quotes of InferenceMAX's cost per token at InferenceX's prices beside MLPerf v6.0 and
    API prices, at the interactivity bar and the stricter one (the page draws the first); returns
    the accelerators of the one drawn."""
    bench, tco = results.table("inference_benchmarks", v), results.table("tco_assumptions", v)
    api_month = inference_cost.round_month(mlperf, V6_ROUND)
    api = inference_cost.api_workload_prices(
        token_prices, OPEN_MODELS, api_month, isl=WORKLOAD_ISL, osl=WORKLOAD_OSL
    )
    mlperf_v6 = inference_cost.mlperf_best(
        per_acc, round_=V6_ROUND, scenario=COMPARE_SCENARIO, models=list(OPEN_MODELS)
    )
    inference = {
        bar: inference_cost.cost_comparison(
            inference_cost.select_configs(
                bench, isl=WORKLOAD_ISL, osl=WORKLOAD_OSL, min_interactivity=bar
            ),
            mlperf_v6,
            tco,
            api,
        )
        for bar in (MIN_INTERACTIVITY, STRICT_INTERACTIVITY)
    }
    q.update(inference_quotes(inference[MIN_INTERACTIVITY], inference[STRICT_INTERACTIVITY], bench))
    q.update(all_gpu_quotes(bench, inference[MIN_INTERACTIVITY]))
    q.update(imax_range_quotes(inference[MIN_INTERACTIVITY], bench, v))
    q.update(on_demand_quotes(costs, inference[MIN_INTERACTIVITY]))
    q["api_month"] = Quote(api_month, "month")
    return set(inference[MIN_INTERACTIVITY]["accelerator"].drop_nulls())


def claim_evidence(version: str | None = None) -> dict[str, Evidence]:
    """The evidence this chapter gives for each digest claim it discusses (CLAIM_IDS)."""
    return compute(version).evidence


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


def ladder_order(ladder: pl.DataFrame) -> list[str]:
    """The ladder figure's models, top to bottom: fewest active parameters first."""
    return (
        ladder.sort("active_parameters_b")
        .select(fig.model_label().alias("model"))["model"]
        .to_list()
    )


def claim_findings(evidence: dict[str, Evidence]) -> dict[str, str]:
    """What the data shows for each claim (claim_id -> the evidence's text): the claims table."""
    return {cid: e.text for cid, e in evidence.items()}


# ------------------------------------------------------------------ quotes, section by section


def names(ids: list[str]) -> Quote:
    """Accelerator ids as the prose lists them: `GAUDI2, GB200 and MI300X`."""
    return Quote(fig.and_join([gpu_name(i) for i in ids]))


def gpu_quote(gpu: str) -> Quote:
    return Quote(gpu_name(gpu))


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
        "best_accelerator": gpu_quote(best["accelerator"]),
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
        "llama_cost_first_accelerator": gpu_quote(first["accelerator"]),
        "llama_cost_last_usd": latest,
        "llama_cost_last_round": Quote(last["round"]),
        "llama_cost_last_accelerator": gpu_quote(last["accelerator"]),
        "llama_cost_fall": Quote(fall, "number"),
        **llama_cost_price_quotes(latest.extra),
        "h100_cost_first_usd": Quote(h_first["hardware_usd_per_mtok"], "usd"),
        "h100_cost_last_usd": Quote(h_last["hardware_usd_per_mtok"], "usd"),
        "h100_cost_first_gpu_hour_usd": Quote(h_first["usd_per_gpu_hour"], "usd"),
        "h100_cost_last_gpu_hour_usd": Quote(h_last["usd_per_gpu_hour"], "usd"),
    }


def llama_cost_price_quotes(extra: dict) -> dict:
    """The GPU-hour price the latest Llama 2 70B cost per token uses and the range over the
    defensible prices (issue 19), from the `extra` of the registry's MLPerf cost estimate:
    what the price is (variant, GPU, month, providers, evidence), its USD per GPU-hour, the
    cost's range and the defensible prices. Empty where the estimate carries none (a hand-made
    one)."""
    if "price" not in extra:
        return {}
    used = extra["price"]
    what = (
        f"the {used['price_gpu'].upper()} {used['price']} of {used['price_month']:%B %Y} "
        f"({used['n_providers']} providers; evidence: {used['evidence']})"
    )
    return {
        "llama_cost_last_price": Quote(what),
        "llama_cost_last_gpu_hour": Quote(used["usd_per_gpu_hour"], "usd"),
        "llama_cost_last_range": Quote((extra["range_low"], extra["range_high"]), "usd"),
        "llama_cost_last_n_prices": Quote(len(extra["defensible"]), "count"),
        "llama_cost_last_prices": Quote(
            "; ".join(
                f"{r['price']} {Quote(r['usd_per_gpu_hour'], 'usd').text}"
                for r in extra["defensible"]
            )
        ),
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
    mixtral = one_row(floors, "the mixtral-8x7b floor", pl.col("base_model") == "mixtral-8x7b")
    deepseek = one_row(floors, "the deepseek-r1 floor", pl.col("base_model") == "deepseek-r1")
    q["mixtral_active_b"] = Quote(mixtral["active_parameters_b"], "number")
    q["deepseek_active_b"] = Quote(deepseek["active_parameters_b"], "number")
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
        "llama_rung_accelerator": gpu_quote(llama["accelerator"]),
        "llama_rung_floor_usd": Quote(llama["floor_usd_per_mtok"], "usd"),
        "llama_rung_hardware_usd": Quote(llama["hardware_usd_per_mtok"], "usd"),
        "llama_rung_api_usd": Quote(llama["api_median_usd_per_mtok"], "usd"),
        "big_rung_hardware_usd": Quote(big["hardware_usd_per_mtok"], "usd"),
        "big_rung_api_usd": Quote(big["api_median_usd_per_mtok"], "usd"),
        "big_rung_verdict": Quote(
            big_rung_verdict(big["hardware_usd_per_mtok"], big["api_median_usd_per_mtok"])
        ),
    }
    q["llama_rung_hardware_over_floor"] = Quote(llama["hardware_over_floor"], "number")
    q["llama_rung_api_over_hardware"] = Quote(llama["api_over_hardware"], "number")
    q["llama_rung_api_over_floor"] = Quote(llama["api_over_floor"], "number")
    over_floor, api_over_floor = ladder["hardware_over_floor"], ladder["api_over_floor"]
    q["hardware_over_floor_range"] = Quote((over_floor.min(), over_floor.max()), "number")
    q["api_over_floor_range"] = Quote((api_over_floor.min(), api_over_floor.max()), "number")
    return q


def break_even_quotes(break_even: pl.DataFrame, latest_round: str) -> dict:
    """Break-even utilisation in `latest_round`, SCENARIO (from
    `tokens_per_dollar.break_even_utilisation`), at the median and the cheapest API price:
    `be_llama_*` (BENCHMARK), `be_small_*` (SMALL_MODEL), `be_big_*` (BIG_MODEL)."""
    rows = break_even.filter(pl.col("scenario") == SCENARIO, pl.col("round") == latest_round)

    def of(model: str) -> dict:
        return one_row(
            rows, f"a {latest_round} break-even of {model}", pl.col("base_model") == model
        )

    llama, small, big = of(BENCHMARK), of(SMALL_MODEL), of(BIG_MODEL)
    q = {
        "be_llama": Quote(llama["break_even_utilisation"], "share"),
        "be_llama_at_min_price": Quote(llama["break_even_utilisation_at_min_price"], "share"),
        "be_small": Quote(small["break_even_utilisation"], "share"),
        "be_small_at_min_price": Quote(small["break_even_utilisation_at_min_price"], "share"),
        "be_small_api_min_usd": Quote(small["api_min_usd_per_mtok"], "usd"),
        "be_big": Quote(big["break_even_utilisation"], "share"),
    }
    q["be_small_min_reading"] = Quote(
        "no on-demand GPU pays for itself"
        if small["break_even_utilisation_at_min_price"] > 1
        else "an on-demand GPU pays for itself only near full use"
    )
    q["be_big_reading"] = Quote(
        "above 100%, for the reason the ladder shows: output prices alone do not pay for "
        "prompt-heavy work"
        if big["break_even_utilisation"] > 1
        else "below 100%: at the median output price a GPU rented on demand pays for itself"
    )
    return q


def claim_quotes(claims: pl.DataFrame) -> dict:
    """The values the digests' MLPerf claims state."""
    return {
        "v6_claim_factor": Quote(claim_row(claims, V6_CLAIM)["value"], "stated_factor"),
        "rl_params_b": Quote(claim_row(claims, RL_PARAMS_CLAIM)["value"], "count"),
        "rl_gpus": Quote(claim_row(claims, RL_GPUS_CLAIM)["value"], "count"),
    }


# ------------------------------------------------------------------ MLPerf v6.0: the CoreWeave claim


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in values) / len(values))


def v6_quotes(gain: pl.DataFrame, per_acc: pl.DataFrame) -> dict:
    """CoreWeave's v6.0 results against v5.1 on the same accelerator, benchmark and scenario
    (from `tokens_per_dollar.submitter_gain`): the pairs, their geometric mean and range, the
    ratios to CoreWeave's own v5.1 results, the CoreWeave v6.0 benchmarks with no v5.1
    counterpart, and GB300 over GB200 within CoreWeave's v6.0 results."""
    if gain.height == 0:
        raise LookupError(f"no {V6_SUBMITTER} {V6_ROUND} result with a {V6_FROM_ROUND} match")
    mine = per_acc.filter(pl.col("round") == V6_ROUND, pl.col("submitter") == V6_SUBMITTER)
    paired = set(gain["base_model"].to_list())
    unpaired = sorted(set(mine["base_model"].to_list()) - paired)
    own = gain["own_ratio"].drop_nulls()
    best = mine.group_by("accelerator", "base_model", "scenario").agg(
        pl.col("tokens_per_s_per_accelerator").max()
    )
    gen = best.filter(pl.col("accelerator") == "gb300").join(
        best.filter(pl.col("accelerator") == "gb200"), on=["base_model", "scenario"]
    )
    gen_ratio = gen["tokens_per_s_per_accelerator"] / gen["tokens_per_s_per_accelerator_right"]
    return {
        "v6_submitter": Quote(V6_SUBMITTER),
        "v6_round": Quote(V6_ROUND),
        "v6_from_round": Quote(V6_FROM_ROUND),
        "v6_n_results": Quote(mine.height, "count"),
        "v6_n_pairs": Quote(gain.height, "count"),
        "v6_pair_models": Quote(fig.and_join(sorted(fig.MODEL_LABELS.get(m, m) for m in paired))),
        "v6_pair_accelerators": names(gain["accelerator"].unique().sort().to_list()),
        "v6_gain": Quote(geometric_mean(gain["ratio"].to_list()), "factor"),
        "v6_gain_range": Quote((gain["ratio"].min(), gain["ratio"].max()), "factor"),
        "v6_n_own": Quote(own.len(), "count"),
        "v6_own_range": Quote((own.min(), own.max()), "factor") if own.len() else Quote("none"),
        "v6_unpaired_models": Quote(fig.and_join(fig.MODEL_LABELS.get(m, m) for m in unpaired)),
        "v6_n_gen_pairs": Quote(gen.height, "count"),
        "v6_gen_range": Quote((gen_ratio.min(), gen_ratio.max()), "factor"),
    }


def generation_quotes(generation: pl.DataFrame) -> dict:
    """CoreWeave's Grace Blackwell results over the best Hopper result of the same round,
    benchmark and scenario (`tokens_per_dollar.generation_gain`)."""
    if generation.height == 0:
        raise LookupError(
            f"no {V6_SUBMITTER} {V6_ROUND} Grace Blackwell result with a Hopper match"
        )
    return {
        "v6_hopper_n": Quote(generation.height, "count"),
        "v6_hopper_gain": Quote(geometric_mean(generation["ratio"].to_list()), "factor"),
        "v6_hopper_range": Quote((generation["ratio"].min(), generation["ratio"].max()), "factor"),
        "v6_hopper_models": Quote(
            fig.and_join(
                sorted({fig.MODEL_LABELS.get(m, m) for m in generation["base_model"].to_list()})
            )
        ),
        "v6_hopper_old": names(generation["old_accelerator"].unique().sort().to_list()),
    }


# ------------------------------------------------------------------ InferenceMAX against MLPerf and APIs


OSS, R1 = "gpt-oss-120b", "deepseek-r1"  # the InferenceMAX models the prose follows, by name
IMAX_COL = f"imax_usd_per_mtok_{OWNERSHIP}"  # InferenceMAX's cost at OWNERSHIP's price
ML_COL = f"mlperf_usd_per_mtok_{OWNERSHIP}"  # MLPerf's cost at the same price


def _cheapest(costs: pl.DataFrame, model: str, col: str, *, descending: bool = False) -> dict:
    """The row of `model` with the lowest (`descending`: highest) priced `col`."""
    return one_row(
        costs.filter(pl.col(col).is_not_null()).sort(col, descending=descending),
        f"a priced {model} row of {col}",
        pl.col("benchmark_model") == model,
    )


def config_text(r: dict) -> str:
    """A chosen InferenceMAX configuration: `vllm, FP4, 64 concurrent requests`."""
    return f"{r['framework']}, {r['precision'].upper()}, {r['concurrency']} concurrent requests"


def ownership_range(r: dict) -> Quote:
    """A configuration's cost per token over InferenceX's cheapest and dearest ownership."""
    lo, hi = (r[f"imax_usd_per_mtok_{o}"] for o in ("hyperscaler-owned", "3-year-rental"))
    return Quote(tuple(sorted((lo, hi))), "usd")


def n_chosen(costs: pl.DataFrame, model: str) -> Quote:
    """The accelerators with an InferenceMAX configuration of `model`."""
    rows = costs.filter(pl.col("benchmark_model") == model, pl.col("framework").is_not_null())
    return Quote(rows.height, "count")


def inference_quotes(costs: pl.DataFrame, strict: pl.DataFrame, bench: pl.DataFrame) -> dict:
    """InferenceMAX cost at InferenceX prices (from `inference_cost.cost_comparison`, at the
    MIN_INTERACTIVITY bar; `strict` at STRICT_INTERACTIVITY): per model (OSS, R1) the cheapest
    accelerator and its configuration, the range over InferenceX's ownership cases, the API
    workload prices and their ratio to the cheapest hardware cost; MLPerf against InferenceMAX
    on the same accelerator; what the stricter bar costs."""
    work = bench.filter(pl.col("isl_tokens") == WORKLOAD_ISL, pl.col("osl_tokens") == WORKLOAD_OSL)
    both = costs.filter(pl.col("imax_output_tokens_per_s_per_gpu").is_not_null()).filter(
        pl.col("mlperf_tokens_per_s_per_gpu").is_not_null()
    )
    ml_over = both["mlperf_tokens_per_s_per_gpu"] / both["imax_output_tokens_per_s_per_gpu"]
    oss, r1 = _cheapest(costs, OSS, IMAX_COL), _cheapest(costs, R1, IMAX_COL)
    oss_ml, r1_ml = _cheapest(costs, OSS, ML_COL), _cheapest(costs, R1, ML_COL)
    oss_dear = _cheapest(costs, OSS, IMAX_COL, descending=True)
    r1_dear = _cheapest(costs, R1, IMAX_COL, descending=True)
    oss_strict, r1_strict = _cheapest(strict, OSS, IMAX_COL), _cheapest(strict, R1, IMAX_COL)
    return {
        "imax_isl": Quote(WORKLOAD_ISL, "count"),
        "imax_osl": Quote(WORKLOAD_OSL, "count"),
        "imax_bar": Quote(MIN_INTERACTIVITY, "count"),
        "imax_strict_bar": Quote(STRICT_INTERACTIVITY, "count"),
        "imax_ownership": Quote(OWNERSHIP),
        "imax_scenario": Quote(COMPARE_SCENARIO),
        "imax_n_runs": Quote(bench.height, "count"),
        "imax_n_workload_runs": Quote(work.height, "count"),
        "imax_n_chosen": Quote(costs["framework"].is_not_null().sum(), "count"),
        "imax_run_dates": Quote(
            (bench["date"].drop_nulls().min(), bench["date"].drop_nulls().max()), "day"
        ),
        "imax_n_undated": Quote(bench["date"].null_count(), "count"),
        "imax_provisional": names(costs.filter("provisional")["tco_gpu"].unique().sort().to_list()),
        "ml_n_both": Quote(both.height, "count"),
        "ml_over_imax_range": Quote((ml_over.min(), ml_over.max()), "factor"),
        "oss_imax_accelerator": gpu_quote(oss["accelerator"]),
        "oss_imax_config": Quote(config_text(oss)),
        "oss_imax_user_tps": Quote(oss["median_tokens_per_s_per_user"], "number"),
        "oss_imax_usd": Quote(oss[IMAX_COL], "usd"),
        "oss_imax_usd_range": ownership_range(oss),
        "oss_imax_gpu_hour": Quote(oss[f"usd_{OWNERSHIP}"], "usd"),
        "oss_api_median": Quote(oss["api_median_usd_per_mtok"], "usd"),
        "oss_api_min": Quote(oss["api_min_usd_per_mtok"], "usd"),
        "oss_api_n": Quote(oss["n_api_providers"], "count"),
        "oss_api_over_imax": Quote(oss["api_median_usd_per_mtok"] / oss[IMAX_COL], "factor"),
        "oss_api_min_over_imax": Quote(oss["api_min_usd_per_mtok"] / oss[IMAX_COL], "factor"),
        "oss_ml_accelerator": gpu_quote(oss_ml["accelerator"]),
        "oss_ml_usd": Quote(oss_ml[ML_COL], "usd"),
        "oss_imax_dearest_accelerator": gpu_quote(oss_dear["accelerator"]),
        "oss_imax_dearest_usd": Quote(oss_dear[IMAX_COL], "usd"),
        "oss_strict_usd": Quote(oss_strict[IMAX_COL], "usd"),
        "oss_strict_accelerator": gpu_quote(oss_strict["accelerator"]),
        "oss_strict_over": Quote(oss_strict[IMAX_COL] / oss[IMAX_COL], "factor"),
        "oss_strict_n": n_chosen(strict, OSS),
        "oss_n": n_chosen(costs, OSS),
        "r1_imax_accelerator": gpu_quote(r1["accelerator"]),
        "r1_imax_config": Quote(config_text(r1)),
        "r1_imax_user_tps": Quote(r1["median_tokens_per_s_per_user"], "number"),
        "r1_imax_usd": Quote(r1[IMAX_COL], "usd"),
        "r1_imax_usd_range": ownership_range(r1),
        "r1_imax_gpu_hour": Quote(r1[f"usd_{OWNERSHIP}"], "usd"),
        "r1_api_median": Quote(r1["api_median_usd_per_mtok"], "usd"),
        "r1_api_min": Quote(r1["api_min_usd_per_mtok"], "usd"),
        "r1_api_n": Quote(r1["n_api_providers"], "count"),
        "r1_api_over_imax": Quote(r1["api_median_usd_per_mtok"] / r1[IMAX_COL], "factor"),
        "r1_api_min_over_imax": Quote(r1["api_min_usd_per_mtok"] / r1[IMAX_COL], "factor"),
        "r1_ml_accelerator": gpu_quote(r1_ml["accelerator"]),
        "r1_ml_usd": Quote(r1_ml[ML_COL], "usd"),
        "r1_imax_dearest_accelerator": gpu_quote(r1_dear["accelerator"]),
        "r1_imax_dearest_usd": Quote(r1_dear[IMAX_COL], "usd"),
        "r1_strict_usd": Quote(r1_strict[IMAX_COL], "usd"),
        "r1_strict_accelerator": gpu_quote(r1_strict["accelerator"]),
        "r1_strict_over": Quote(r1_strict[IMAX_COL] / r1[IMAX_COL], "factor"),
        "r1_strict_n": n_chosen(strict, R1),
        "r1_n": n_chosen(costs, R1),
    }


def raw_cost(r: dict) -> Quote:
    """A configuration's cost at the source's per-decode-GPU output figure (no all-GPU rule)."""
    raw = tokens_per_dollar.usd_per_mtok(
        r[f"usd_{OWNERSHIP}"], r["imax_output_tokens_per_s_per_gpu_raw"]
    )
    return Quote(raw, "usd")


def disaggregated(r: dict) -> Quote:
    return Quote("disaggregated" if r["disaggregated"] else "aggregated")


def all_gpu_quotes(bench: pl.DataFrame, costs: pl.DataFrame) -> dict:
    """The all-GPU rule of `inference_cost.all_gpu_throughput` (issue 19, class 11): the
    disaggregated runs it restates, the range and median of raw over restated output per GPU
    (prefill + decode GPUs over decode GPUs), and, per model, the cheapest configuration's cost
    at the source's per-decode-GPU figure (`oss_imax_raw_usd`, `r1_imax_raw_usd`)."""
    restated = inference_cost.all_gpu_throughput(bench).filter(pl.col("output_gpu_ratio") != 1)
    ratio = restated["output_gpu_ratio"]
    oss, r1 = _cheapest(costs, OSS, IMAX_COL), _cheapest(costs, R1, IMAX_COL)
    return {
        "imax_n_disagg": Quote(restated.height, "count"),
        "imax_disagg_gpus": names(restated["accelerator"].unique().sort().to_list()),
        "imax_ratio_median": Quote(ratio.median() if ratio.len() else 1.0, "factor"),
        "imax_ratio_range": Quote((ratio.min(), ratio.max()) if ratio.len() else (1, 1), "factor"),
        "oss_imax_raw_usd": raw_cost(oss),
        "oss_imax_disaggregated": disaggregated(oss),
        "r1_imax_raw_usd": raw_cost(r1),
        "r1_imax_disaggregated": disaggregated(r1),
    }


def defensible_costs(costs: pl.DataFrame, model: str, when: date, v: str) -> pl.DataFrame:
    """The cheapest InferenceMAX configuration of `model` priced at every defensible GPU-hour
    price of its accelerator in `when`'s month (`results.defensible_prices`: each evidence
    variant's on-demand median, the index, InferenceX's three costs)."""
    r = _cheapest(costs, model, IMAX_COL)
    return tokens_per_dollar.cost_range(
        results.defensible_prices(v, r["accelerator"], when),
        r["imax_output_tokens_per_s_per_gpu"],
    )


def cost_span(found: pl.DataFrame) -> Quote:
    return Quote((found["usd_per_mtok"].min(), found["usd_per_mtok"].max()), "usd")


def prices_text(found: pl.DataFrame) -> Quote:
    """The defensible prices as the prose lists them: `on-demand median $2.10; ...`."""
    return Quote(
        "; ".join(
            f"{p['price']} {Quote(p['usd_per_gpu_hour'], 'usd').text}"
            for p in found.iter_rows(named=True)
        )
    )


def imax_range_quotes(costs: pl.DataFrame, bench: pl.DataFrame, v: str) -> dict:
    """The range of the cheapest InferenceMAX cost per model over every defensible GPU-hour
    price of its accelerator in the month of the latest dated run (`defensible_costs`)."""
    when = bench["date"].drop_nulls().max()
    oss, r1 = defensible_costs(costs, OSS, when, v), defensible_costs(costs, R1, when, v)
    return {
        "imax_price_month": Quote(when, "month"),
        "oss_imax_defensible_range": cost_span(oss),
        "oss_imax_n_defensible": Quote(oss.height, "count"),
        "oss_imax_defensible": prices_text(oss),
        "r1_imax_defensible_range": cost_span(r1),
        "r1_imax_n_defensible": Quote(r1.height, "count"),
        "r1_imax_defensible": prices_text(r1),
    }


def on_demand_quotes(costs: pl.DataFrame, comparison: pl.DataFrame) -> dict:
    """The chapter's own pricing of the same MLPerf results: the cheapest V6_ROUND
    COMPARE_SCENARIO result of each open model at the PRICING GPU-hour price in force (from
    `tokens_per_dollar.mlperf_usd_per_mtok`), and that price over InferenceX's OWNERSHIP price
    for the same accelerator (from `inference_cost.cost_comparison`)."""
    rows = tokens_per_dollar.cheapest_by_round(costs).filter(
        pl.col("round") == V6_ROUND, pl.col("scenario") == COMPARE_SCENARIO
    )

    def cheapest(model: str) -> dict:
        return one_row(rows, f"a priced {V6_ROUND} {model} result", pl.col("base_model") == model)

    def over_tco(model: str, r: dict) -> Quote:
        tco = one_row(
            comparison,
            f"an InferenceX price for {r['accelerator']}",
            pl.col("benchmark_model") == model,
            pl.col("mlperf_accelerator") == r["accelerator"],
        )
        return Quote(r["usd_per_gpu_hour"] / tco[f"usd_{OWNERSHIP}"], "factor")

    oss, r1 = cheapest(OSS), cheapest(R1)
    return {
        "oss_od_accelerator": gpu_quote(oss["accelerator"]),
        "oss_od_usd": Quote(oss["hardware_usd_per_mtok"], "usd"),
        "oss_od_gpu_hour": Quote(oss["usd_per_gpu_hour"], "usd"),
        "oss_od_over_tco": over_tco(OSS, oss),
        "r1_od_accelerator": gpu_quote(r1["accelerator"]),
        "r1_od_usd": Quote(r1["hardware_usd_per_mtok"], "usd"),
        "r1_od_gpu_hour": Quote(r1["usd_per_gpu_hour"], "usd"),
        "r1_od_over_tco": over_tco(R1, r1),
    }


def cost_points(costs: pl.DataFrame) -> pl.DataFrame:
    """The cost table one mark per row (`row`: model and accelerator, or the model's API
    price), `measure` (`fig.COST_MEASURES`) and `usd_per_mtok`, at OWNERSHIP's prices; and,
    where the table keeps them, each mark's `sources`: those of the run or MLPerf result and of
    the GPU-hour price it was computed from, or of the API prices."""
    hw_label = pl.format(
        "{} on {}", fig.model_label("benchmark_model"), fig.gpu_label("accelerator")
    )
    api_label = pl.format("{}: API", fig.model_label("benchmark_model"))
    marks = [  # (measure, value column, row label, the columns naming its rows' sources)
        ("imax", f"imax_usd_per_mtok_{OWNERSHIP}", hw_label, ["imax_source", "tco_source"]),
        ("mlperf", f"mlperf_usd_per_mtok_{OWNERSHIP}", hw_label, ["mlperf_source", "tco_source"]),
        ("api_min", "api_min_usd_per_mtok", api_label, ["api_source"]),
        ("api_median", "api_median_usd_per_mtok", api_label, ["api_source"]),
    ]
    frames = []
    for measure, column, label, source_columns in marks:
        present = [pl.col(c) for c in source_columns if c in costs.columns]
        sources = [pl.concat_str(present, separator=";", ignore_nulls=True).alias("sources")]
        frame = costs.select(
            label.alias("row"),
            pl.lit(measure).alias("measure"),
            pl.col(column).alias("usd_per_mtok"),
            *(sources if present else []),
        )
        frames.append(frame.unique("row", keep="first", maintain_order=True))  # API: per model
    return (
        pl.concat(frames, how="diagonal")
        .filter(pl.col("usd_per_mtok").is_not_null())
        .with_columns(pl.col("measure").replace(fig.COST_MEASURES))
    )


def cost_order(costs: pl.DataFrame) -> list[str]:
    """The cost figure's rows: per model its API row, then its accelerators by name."""
    order = []
    for model in costs["benchmark_model"].unique().sort().to_list():
        name = fig.MODEL_LABELS.get(model, model)
        order.append(f"{name}: API")
        accs = costs.filter(pl.col("benchmark_model") == model)["accelerator"].sort()
        order += [f"{name} on {a}" for a in fig.gpu_names(accs.to_list())]
    return order


# ------------------------------------------------------------------ MLPerf Training at scale


def training_quotes(
    systems: pl.DataFrame,
    runs: pl.DataFrame,
    training_systems: pl.DataFrame,
    fit: training_scale.ScalingFit,
    pooled: training_scale.ScalingFit,
) -> dict:
    """MLPerf Training v5.0/v5.1: the systems submitted and the largest, the TRAINING_BENCHMARK
    systems (from `training_scale.system_times`), the resubmissions dropped, the log-log fits
    with and without accelerator intercepts, and the fastest time."""
    biggest = training_systems.sort("accelerator_count", descending=True).row(0, named=True)
    fastest = systems.sort("minutes").row(0, named=True)
    n_with_runs = runs.select("round", "system").unique().height
    return {
        "train_rounds": Quote(fig.and_join(training_systems["round"].unique().sort().to_list())),
        "train_n_systems": Quote(training_systems.height, "count"),
        "train_median_gpus": Quote(training_systems["accelerator_count"].median(), "count"),
        "train_max_gpus": Quote(biggest["accelerator_count"], "count"),
        "train_max_accelerator": gpu_quote(biggest["accelerator"]),
        "train_max_round": Quote(biggest["round"]),
        "train_max_submitter": Quote(biggest["submitter"]),
        "train_n_over_1000": Quote(
            training_systems.filter(pl.col("accelerator_count") >= 1000).height, "count"
        ),
        "train_benchmarks": Quote(fig.and_join(runs["benchmark"].unique().sort().to_list())),
        "train_n": Quote(fit.n, "count"),
        "train_n_resubmitted": Quote(n_with_runs - systems.height, "count"),
        "train_n_accelerators": Quote(fit.n_accelerators, "count"),
        "train_accelerators": names(systems["accelerator"].unique().sort().to_list()),
        "train_gpu_range": Quote(
            (systems["accelerator_count"].min(), systems["accelerator_count"].max()), "count"
        ),
        "train_slope": Quote(fit.slope, "number"),
        "train_slope_ci": Quote((fit.ci_low, fit.ci_high), "number"),
        "train_r2": Quote(fit.r_squared, "number"),
        "train_doubling_share": Quote(fit.doubling_time_factor, "share"),
        "train_pooled_slope": Quote(pooled.slope, "number"),
        "train_pooled_ci": Quote((pooled.ci_low, pooled.ci_high), "number"),
        "train_level": Quote(fit.level, "share"),
        "train_fastest_minutes": Quote(fastest["minutes"], "number"),
        "train_fastest_gpus": Quote(fastest["accelerator_count"], "count"),
        "train_fastest_accelerator": gpu_quote(fastest["accelerator"]),
        "train_fastest_round": Quote(fastest["round"]),
    }


# ------------------------------------------------------------------ the digests' hardware claims


def digest_hardware_quotes(
    mlperf: pl.DataFrame,
    prices: pl.DataFrame,
    training_systems: pl.DataFrame,
    vendors: pl.DataFrame,
) -> dict:
    """What the data holds for the claims it cannot settle: TPU results and TPU v7 prices, the
    MLPerf Training rounds, and Cisco's v6.0 systems and their vendors against the submitters of
    earlier rounds held that also used more than one vendor (from
    `tokens_per_dollar.vendors_by_submitter`)."""
    cisco = one_row(
        vendors,
        f"{CISCO}'s {V6_ROUND} submission",
        pl.col("submitter") == CISCO,
        pl.col("round") == V6_ROUND,
    )
    v6_date = cisco["date"]
    earlier = vendors.filter(pl.col("n_vendors") > 1, pl.col("date") < v6_date)
    first = earlier.sort("date", "submitter").row(0, named=True) if earlier.height else None
    same_round = vendors.filter(
        pl.col("n_vendors") > 1, pl.col("round") == V6_ROUND, pl.col("submitter") != CISCO
    )
    return {
        "n_tpu_mlperf": Quote(
            mlperf.filter(pl.col("accelerator").str.starts_with("tpu")).height, "count"
        ),
        "n_tpu7_prices": Quote(prices.filter(pl.col("gpu") == TPU_V7).height, "count"),
        "n_tpu_training": Quote(
            training_systems.filter(pl.col("accelerator").str.contains("tpu")).height, "count"
        ),
        "cisco_n_systems": Quote(cisco["n_systems"], "count"),
        "cisco_vendors": Quote(fig.and_join(cisco["vendors"])),
        "cisco_n_earlier": Quote(earlier["submitter"].n_unique(), "count"),
        "cisco_first_submitter": Quote(first["submitter"] if first else "none"),
        "cisco_first_round": Quote(first["round"] if first else "none"),
        "cisco_n_same_round": Quote(same_round.height, "count"),
        "mixed_systems": Quote(mixed_systems_text(mlperf)),
        "mlperf_rounds_held": Quote(
            fig.and_join(mlperf.sort("date")["round"].unique(maintain_order=True).to_list())
        ),
    }


def mixed_systems_text(mlperf: pl.DataFrame) -> str:
    """The heterogeneous systems the release holds (an `accelerator` joining several ids with
    "+", as the v6.0 importer keeps them), each with its round, mix and vendors."""
    mixed = mlperf.filter(pl.col("accelerator").str.contains("+", literal=True))
    if mixed.is_empty():
        return (
            "This release holds no heterogeneous system (the importers of its build left them "
            "out; the importers now keep v5.1's two and v6.0's one, and a release built with them "
            "holds them)"
        )
    systems = mixed.unique(["round", "submitter", "system"]).sort("round", "submitter")
    each, multi_vendor = [], 0
    for r in systems.iter_rows(named=True):
        makers = {tokens_per_dollar.accelerator_vendor(a) for a in r["accelerator"].split("+")}
        multi_vendor += len(makers) > 1
        each.append(
            f"{r['submitter']}'s in {r['round']} ({r['source_accelerator_name']}; "
            f"{' and '.join(sorted(makers))})"
        )
    cisco = systems.filter(pl.col("submitter") == CISCO).height
    return (
        f"The release holds {systems.height} heterogeneous system"
        f"{'s' if systems.height > 1 else ''}: {'; '.join(each)}; {cisco} of them Cisco's, "
        f"{multi_vendor} mixing vendors"
    )


def claim_evidence_from(
    q: Quotes, gain: pl.DataFrame | None, claims: pl.DataFrame, absent: dict[str, str]
) -> dict[str, Evidence]:
    """One Evidence per claim of CLAIM_IDS the claims table holds, from the chapter's quotes and
    CoreWeave's generation pairs (`generation_gain`); a claim of a part the data version leaves out (`absent`, by
    CLAIM_PARTS) is untestable for the reason the part is left out."""
    found = _claim_evidence(q, gain)
    for cid, part in CLAIM_PARTS.items():
        if part in absent:
            found[cid] = Evidence(cid, None, absent[part], found[cid].section, testable=False)
    held = set(claims["claim_id"])
    return {cid: e for cid, e in found.items() if cid in held}


def _claim_evidence(q: Quotes, gain: pl.DataFrame | None) -> dict[str, Evidence]:
    # Read lazily: the quotes of a left-out part are placeholders, and its evidence is replaced.
    t = _Texts(q)
    gain = gain if gain is not None else pl.DataFrame({"ratio": [float("nan")]})
    sec_v6 = f"chapters/{SLUG}.qmd#{SEC_V6}"
    sec_claims = f"chapters/{SLUG}.qmd#{SEC_CLAIMS}"
    window = f"{V6_ROUND} (MLPerf Inference)"
    training = (
        f"The data holds MLPerf Training rounds {t['train_rounds']} only, with result logs of "
        f"{t['train_benchmarks']}; the largest system has {t['train_max_gpus']} GPUs "
        f"({t['train_max_accelerator']}, {t['train_max_round']}). Settling it needs the "
        "Training v6.1 results (systems JSON and the RL benchmark's logs) from MLCommons."
    )
    return {
        V6_CLAIM: Evidence(
            claim_id=V6_CLAIM,
            value=geometric_mean(gain["ratio"].to_list()),
            low=gain["ratio"].min(),
            high=gain["ratio"].max(),
            n=gain.height,
            window=window,
            section=sec_v6,
            text=(
                f"{V6_SUBMITTER}'s Grace Blackwell (GB200, GB300) {V6_ROUND} results per "
                f"accelerator against the best Hopper result ({t['v6_hopper_old']}) of the same "
                f"round, benchmark and scenario (closed division): {t['v6_hopper_n']} pairs, "
                f"all {t['v6_hopper_models']}, geometric mean {t['v6_hopper_gain']}, range "
                f"{t['v6_hopper_range']}. On the same chips between rounds ({V6_FROM_ROUND} to "
                f"{V6_ROUND}) the gain is {t['v6_gain_range']}: tuning, not a generation."
            ),
            like_for_like=(
                "across hardware generations, as the claim says (Grace Blackwell over Hopper), "
                "per accelerator, in one round, on the same benchmark and scenario"
            ),
        ),
        TPU_CLAIM: Evidence(
            claim_id=TPU_CLAIM,
            value=None,
            testable=False,
            section=sec_claims,
            text=(
                f"Not testable: {t['n_tpu_mlperf']} MLPerf Inference results on any TPU in rounds "
                f"{t['mlperf_rounds_held']} and {t['n_tpu7_prices']} TPU v7 GPU-hour prices. "
                "Settling it needs TPU v7 chip-hour prices and B200/B300 prices on the same "
                "terms and dates, and throughput on the same model and scenario (MLPerf or "
                "InferenceMAX runs on TPU v7)."
            ),
        ),
        RL_GPUS_CLAIM: Evidence(
            claim_id=RL_GPUS_CLAIM, value=None, testable=False, section=sec_claims, text=training
        ),
        RL_PARAMS_CLAIM: Evidence(
            claim_id=RL_PARAMS_CLAIM, value=None, testable=False, section=sec_claims, text=training
        ),
        CISCO_CLAIM: Evidence(
            claim_id=CISCO_CLAIM,
            value=None,
            testable=False,
            section=sec_claims,
            text=(
                f"{CISCO}'s {V6_ROUND} submission has {t['cisco_n_systems']} systems on "
                f"{t['cisco_vendors']} accelerators, each system on one vendor's; "
                f"{t['cisco_n_earlier']} submitters in earlier rounds held also submitted systems "
                f"of two vendors in one round (first: {t['cisco_first_submitter']}, "
                f"{t['cisco_first_round']}). {t['mixed_systems']}. "
                "The claim is dated after the last round held, so its submission is in "
                "a round the data lack (nor is v5.0 held): "
                "MLCommons' results of that round would settle it."
            ),
        ),
    }


class _Texts(dict):
    """Quote name -> its text, read from the Quotes when asked."""

    def __init__(self, q: Quotes) -> None:
        super().__init__()
        self.q = q

    def __missing__(self, name: str) -> str:
        return self.q[name].text
