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
- The API price of the same work per million output tokens includes the prompt:
  output price + (isl / osl) x input price; the median and cheapest over third-party providers
  in one month (`tokens_per_dollar.api_prices_in_month`).
"""

from __future__ import annotations

from datetime import date

import polars as pl

from analysis.data.gpus import gpu_family
from analysis.methods import tokens_per_dollar as tpd

OWNERSHIPS = ["hyperscaler-owned", "neocloud", "3-year-rental"]  # InferenceX's three cases


def select_configs(
    bench: pl.DataFrame, *, isl: int, osl: int, min_interactivity: float
) -> pl.DataFrame:
    """One row per model and accelerator: the highest `tokens_per_s_per_gpu` run of workload
    (`isl`, `osl`) with `median_tokens_per_s_per_user` >= `min_interactivity` (the module's
    rule), with `n_configs` (runs of the workload) and `n_meeting` (those meeting the bar)."""
    work = bench.filter(pl.col("isl_tokens") == isl, pl.col("osl_tokens") == osl)
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
    ...) and `provisional` (the source marks the price temporary)."""
    wide = tco.pivot(on="ownership", index="gpu", values="usd_per_gpu_hour")
    flags = tco.group_by("gpu").agg(pl.col("provisional").any())
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
        )
    )


def api_workload_prices(
    token_prices: pl.DataFrame, model_ids: dict[str, str], month: date, *, isl: int, osl: int
) -> pl.DataFrame:
    """Per benchmark model (`model_ids`: benchmark model -> model_id): the median and cheapest
    third-party API price in `month` of a million output tokens of the workload, prompt
    included (output + isl/osl x input, per provider), and the number of providers."""
    ids = list(model_ids.values())
    out = tpd.api_prices_in_month(token_prices, ids, month, price_col="output_usd_per_mtok")
    inp = tpd.api_prices_in_month(token_prices, ids, month, price_col="input_usd_per_mtok")
    both = out.join(inp.select("model_id", "provider", "api_price"), on=["model_id", "provider"])
    per_provider = both.with_columns(
        (pl.col("api_price") + isl / osl * pl.col("api_price_right")).alias("workload_price")
    )
    back = pl.DataFrame({"benchmark_model": list(model_ids), "model_id": ids})
    return back.join(
        per_provider.group_by("model_id").agg(
            pl.col("workload_price").median().alias("api_median_usd_per_mtok"),
            pl.col("workload_price").min().alias("api_min_usd_per_mtok"),
            pl.len().alias("n_api_providers"),
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
    model's API workload prices (`api_workload_prices`). Accelerators without a TCO row drop."""
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
        "n_configs",
        "n_meeting",
    )
    both = imax.join(mlperf, on=key, how="full", coalesce=True)
    priced = attach_tco(both, tco).with_columns(
        *usd_columns("imax_output_tokens_per_s_per_gpu", "imax_usd_per_mtok"),
        *usd_columns("mlperf_tokens_per_s_per_gpu", "mlperf_usd_per_mtok"),
    )
    return priced.join(api, on="benchmark_model", how="left").sort(key)
