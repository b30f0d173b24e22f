"""Cost per million tokens from InferenceMAX throughput at InferenceX's own $/GPU-hour, set beside
the MLPerf-based cost on the same accelerators and the API prices of the same open models.

Frames in, frames out: a chapter passes `inference_benchmarks`, `tco_assumptions`, the MLPerf
results per accelerator (`tokens_per_dollar.mlperf_per_accelerator`) and `token_prices`.

Rules, stated once:
- Workload: one input/output length pair (`isl`, `osl` tokens) of the InferenceMAX sweep.
- Serving configuration: for each model and accelerator, the run with the highest throughput per
  GPU among those whose median interactivity (output tokens/s seen by one user) is at least
  `min_interactivity`. Every framework, precision, parallelism, disaggregation and speculative-
  decoding setting counts: InferenceMAX reports them all as ways to serve the model. The best
  over repeated runs of one configuration counts (the undated runs cannot be ordered).
- Cost per million *output* tokens: the GPU-hour over the output tokens of that hour, so the
  hardware time that reads the prompt is paid for by the tokens generated (as MLPerf counts).
- Per GPU means per GPU the run used. In a disaggregated run InferenceMAX's
  `output_tput_per_gpu` is divided by the decode GPUs only and `input_tput_per_gpu` by the
  prefill GPUs only, while `tput_per_gpu` is over all of them (checked by hand on raw rows:
  run_20321908209 row 1, GB200, 20 prefill + 32 decode GPUs: 9972.92 x 20 + 778.79 x 32 =
  224,380 tokens/s = 4315.0 x 52). `all_gpu_throughput` restates the output and input figures
  over prefill_gpus + decode_gpus (keeping the raw ones); every cost per token uses them.
- The API price of the same work per million output tokens includes the prompt:
  output price + (isl / osl) x input price; the median and cheapest over third-party providers
  in one month (`tokens_per_dollar.api_prices_in_month`).
"""

from __future__ import annotations

from datetime import date

import polars as pl

from analysis.data.gpus import gpu_family
from analysis.methods import tokens_per_dollar as tpd
from analysis.methods.prices import SOURCES, joined_sources

OWNERSHIPS = ["hyperscaler-owned", "neocloud", "3-year-rental"]  # InferenceX's three cases


RAW_SUFFIX = "_raw"  # the figures as InferenceMAX gives them, kept beside the restated ones


def all_gpus_expr() -> pl.Expr:
    """GPUs a run used: prefill_gpus + decode_gpus for a disaggregated run, else null (an
    aggregated run's per-GPU figures are over all its GPUs already)."""
    return (
        pl.when(pl.col("disaggregated"))
        .then(pl.col("prefill_gpus") + pl.col("decode_gpus"))
        .otherwise(None)
        .alias("all_gpus")
    )


def all_gpu_throughput(bench: pl.DataFrame) -> pl.DataFrame:
    """InferenceMAX runs with per-GPU throughput over every GPU the run used (the module's
    rule): `output_tokens_per_s_per_gpu` x decode_gpus / all_gpus and `input_tokens_per_s_per_gpu`
    x prefill_gpus / all_gpus for disaggregated runs; aggregated runs unchanged. The raw figures
    stay as `<column>_raw`, with `all_gpus` and `output_gpu_ratio` (raw / restated output figure:
    all_gpus / decode_gpus, 1 for aggregated runs). `tokens_per_s_per_gpu` is over all GPUs in
    the source already and is left as it is."""
    if "output_tokens_per_s_per_gpu" + RAW_SUFFIX in bench.columns:
        return bench  # restated already
    absent = [
        c
        for c in ("prefill_gpus", "decode_gpus", "input_tokens_per_s_per_gpu")
        if c not in bench.columns
    ]
    bench = bench.with_columns(pl.lit(None, dtype=pl.Float64).alias(c) for c in absent)
    disagg = pl.col("disaggregated").fill_null(False)
    missing = bench.filter(
        disagg & (pl.col("prefill_gpus").is_null() | pl.col("decode_gpus").is_null())
    )
    if missing.height:
        raise ValueError(
            f"{missing.height} disaggregated InferenceMAX runs lack prefill_gpus or decode_gpus"
        )
    total = pl.col("prefill_gpus") + pl.col("decode_gpus")
    out_col, in_col = "output_tokens_per_s_per_gpu", "input_tokens_per_s_per_gpu"
    return bench.with_columns(
        pl.col(out_col).alias(out_col + RAW_SUFFIX),
        pl.col(in_col).alias(in_col + RAW_SUFFIX),
        pl.when(disagg).then(total).otherwise(None).alias("all_gpus"),
    ).with_columns(
        pl.when(disagg)
        .then(pl.col(out_col) * pl.col("decode_gpus") / total)
        .otherwise(pl.col(out_col))
        .alias(out_col),
        pl.when(disagg)
        .then(pl.col(in_col) * pl.col("prefill_gpus") / total)
        .otherwise(pl.col(in_col))
        .alias(in_col),
        pl.when(disagg)
        .then(total / pl.col("decode_gpus"))
        .otherwise(1.0)
        .alias("output_gpu_ratio"),
    )


def select_configs(
    bench: pl.DataFrame, *, isl: int, osl: int, min_interactivity: float
) -> pl.DataFrame:
    """One row per model and accelerator: the highest `tokens_per_s_per_gpu` run of workload
    (`isl`, `osl`), per-GPU figures over all the run's GPUs (`all_gpu_throughput`), with `median_tokens_per_s_per_user` >= `min_interactivity` (the module's
    rule), with `n_configs` (runs of the workload) and `n_meeting` (those meeting the bar)."""
    work = all_gpu_throughput(bench).filter(
        pl.col("isl_tokens") == isl, pl.col("osl_tokens") == osl
    )
    if work.height == 0:
        raise LookupError(f"no InferenceMAX run with isl {isl} and osl {osl}")
    key = ["benchmark_model", "accelerator"]
    counts = work.group_by(key).agg(
        pl.len().alias("n_configs"),
        (pl.col("median_tokens_per_s_per_user") >= min_interactivity).sum().alias("n_meeting"),
    )
    best = (
        work.filter(pl.col("median_tokens_per_s_per_user") >= min_interactivity)
        .sort("tokens_per_s_per_gpu", descending=True)
        .group_by(key, maintain_order=True)
        .first()
    )
    return best.join(counts, on=key).sort(key)


def tco_wide(tco: pl.DataFrame) -> pl.DataFrame:
    """InferenceX's $/GPU-hour per GPU, one column per ownership case (`usd_hyperscaler-owned`,
    ...), `provisional` (the source marks the price temporary) and `tco_source` (the sources of
    the GPU's rows)."""
    wide = tco.pivot(on="ownership", index="gpu", values="usd_per_gpu_hour")
    kept = [e.alias("tco_source") for e in joined_sources(tco)]  # the rows of the prices
    flags = tco.group_by("gpu").agg(pl.col("provisional").any(), *kept)
    missing = [o for o in OWNERSHIPS if o not in wide.columns]
    if missing:
        raise LookupError(f"tco_assumptions has no ownership {', '.join(missing)}")
    return wide.rename({o: f"usd_{o}" for o in OWNERSHIPS}).join(flags, on="gpu")


def _price_gpu(accelerator: str, gpus: set[str]) -> str | None:
    """The TCO row for an accelerator: its own id, else its family (`h100-sxm` -> `h100`)."""
    for cand in (accelerator, gpu_family(accelerator)):
        if cand in gpus:
            return cand
    return None


def attach_tco(
    rows: pl.DataFrame, tco: pl.DataFrame, *, gpu_col: str = "accelerator"
) -> pl.DataFrame:
    """Add InferenceX's $/GPU-hour (`usd_<ownership>` columns, `tco_gpu`, `provisional`) to
    each row; rows whose accelerator has no TCO row are dropped."""
    wide = tco_wide(tco)
    gpus = set(wide["gpu"].to_list())
    mapped = rows.with_columns(
        pl.col(gpu_col)
        .map_elements(lambda a: _price_gpu(a, gpus), return_dtype=pl.String)
        .alias("tco_gpu")
    )
    return mapped.join(wide.rename({"gpu": "tco_gpu"}), on="tco_gpu", how="inner")


def usd_columns(tokens_col: str, prefix: str) -> list[pl.Expr]:
    """$ per million tokens at each ownership case's price: `<prefix>_<ownership>`."""
    return [
        tpd.usd_per_mtok_expr(f"usd_{o}", tokens_col).alias(f"{prefix}_{o}") for o in OWNERSHIPS
    ]


def mlperf_best(
    per_acc: pl.DataFrame, *, round_: str, scenario: str, models: list[str]
) -> pl.DataFrame:
    """Best MLPerf tokens/s per accelerator of `models` in `round_` and `scenario`, per
    accelerator family (InferenceMAX names GPUs by family: `h100`, not `h100-sxm`)."""
    rows = per_acc.filter(
        pl.col("round") == round_,
        pl.col("scenario") == scenario,
        pl.col("base_model").is_in(models),
    ).with_columns(
        pl.col("accelerator")
        .map_elements(gpu_family, return_dtype=pl.String)
        .alias("accelerator_family")
    )
    return (
        rows.sort("tokens_per_s_per_accelerator", descending=True)
        .group_by("base_model", "accelerator_family", maintain_order=True)
        .first()
        .select(
            pl.col("base_model").alias("benchmark_model"),
            pl.col("accelerator_family").alias("accelerator"),
            pl.col("accelerator").alias("mlperf_accelerator"),
            pl.col("system").alias("mlperf_system"),
            pl.col("tokens_per_s_per_accelerator").alias("mlperf_tokens_per_s_per_gpu"),
            *([pl.col("source_id").alias("mlperf_source")] if "source_id" in rows.columns else []),
        )
    )


def round_month(mlperf: pl.DataFrame, round_: str) -> date:
    """The first day of the month MLPerf published `round_` in (its results' `date`): the month
    whose API prices are set beside the round."""
    dates = mlperf.filter(pl.col("round") == round_)["date"].unique()
    if dates.len() != 1:
        raise LookupError(
            f"mlperf_results: expected one date for round {round_!r}, found {dates.len()}"
        )
    return dates[0].replace(day=1)


def api_workload_prices(
    token_prices: pl.DataFrame, model_ids: dict[str, str], month: date, *, isl: int, osl: int
) -> pl.DataFrame:
    """Per benchmark model (`model_ids`: benchmark model -> model_id): the median and cheapest
    third-party API price in `month` of a million output tokens of the workload, prompt
    included (output + isl/osl x input, per provider), and the number of providers."""
    ids = list(model_ids.values())
    out = tpd.api_prices_in_month(token_prices, ids, month, price_col="output_usd_per_mtok")
    inp = tpd.api_prices_in_month(token_prices, ids, month, price_col="input_usd_per_mtok")
    kept = [SOURCES] if SOURCES in inp.columns else []
    both = out.join(
        inp.select("model_id", "provider", "api_price", *kept), on=["model_id", "provider"]
    )
    if kept:  # the output and the input price's rows
        both = both.with_columns(pl.format("{};{}", SOURCES, f"{SOURCES}_right").alias(SOURCES))
    per_provider = both.with_columns(
        (pl.col("api_price") + isl / osl * pl.col("api_price_right")).alias("workload_price")
    )
    back = pl.DataFrame({"benchmark_model": list(model_ids), "model_id": ids})
    return back.join(
        per_provider.group_by("model_id").agg(
            pl.col("workload_price").median().alias("api_median_usd_per_mtok"),
            pl.col("workload_price").min().alias("api_min_usd_per_mtok"),
            pl.len().alias("n_api_providers"),
            *[e.alias("api_source") for e in joined_sources(per_provider)],
        ),
        on="model_id",
        how="left",
    )


def cost_comparison(
    configs: pl.DataFrame,
    mlperf: pl.DataFrame,
    tco: pl.DataFrame,
    api: pl.DataFrame,
) -> pl.DataFrame:
    """One row per model and accelerator (family) found in InferenceMAX or MLPerf: the chosen
    InferenceMAX configuration (`select_configs`) and its cost (`imax_usd_per_mtok_<ownership>`), the best MLPerf result
    (`mlperf_best`) at the same InferenceX prices (`mlperf_usd_per_mtok_<ownership>`), and the
    model's API workload prices (`api_workload_prices`). Accelerators without a TCO row drop.
    Each part keeps the sources of its rows: `imax_source`, `mlperf_source`, `tco_source`,
    `api_source`."""
    key = ["benchmark_model", "accelerator"]
    imax = configs.select(
        *key,
        "framework",
        "precision",
        "spec_decoding",
        "disaggregated",
        "concurrency",
        "median_tokens_per_s_per_user",
        pl.col("tokens_per_s_per_gpu").alias("imax_tokens_per_s_per_gpu"),
        pl.col("output_tokens_per_s_per_gpu").alias("imax_output_tokens_per_s_per_gpu"),
        pl.col("output_tokens_per_s_per_gpu_raw").alias("imax_output_tokens_per_s_per_gpu_raw"),
        "output_gpu_ratio",
        "n_configs",
        "n_meeting",
        *([pl.col("source_id").alias("imax_source")] if "source_id" in configs.columns else []),
    )
    both = imax.join(mlperf, on=key, how="full", coalesce=True)
    priced = attach_tco(both, tco).with_columns(
        *usd_columns("imax_output_tokens_per_s_per_gpu", "imax_usd_per_mtok"),
        *usd_columns("mlperf_tokens_per_s_per_gpu", "mlperf_usd_per_mtok"),
    )
    return priced.join(api, on="benchmark_model", how="left").sort(key)
