"""Tokens per dollar on real hardware: MLPerf throughput, GPU-hour prices, API prices and the
physical floor.

    $ per M tokens = ($ per GPU-hour) / (tokens/s per GPU x 3600 / 10^6)

Frames in, frames out: a chapter passes `data.load("mlperf_results")`, `data.load(
"gpu_hour_prices")`, `data.load("gpu_specs")`, `data.load("token_prices")`, `data.load("models")`.

Rules, stated once:
- MLPerf: closed division only; throughput per accelerator = tokens_per_s / accelerator_count.
- Accuracy variants. `llama2-70b-99` and `-99.9` are the same benchmark at two accuracy targets
  and most systems submit identical numbers for both. A result at 99.9% of reference accuracy
  also meets the 99% target, so for the 99% target (default) each system contributes its 99%
  row, or its 99.9% row where it submitted only that; for the 99.9% target only 99.9% rows
  count. Either way a system counts once per round, scenario and benchmark.
- Price in force: the monthly median across providers (each provider's monthly median counts
  once, aggregate rows dropped; see `analysis.methods.gpu_prices`) of the stated pricing type, for the
  accelerator's exact id, else its family (`h100-sxm` -> `h100`); the round's month, else the
  nearest earlier month within `max_lag_months`. The output names the price's GPU id, month,
  pricing type and provider count.
"""

from __future__ import annotations

from datetime import date

import polars as pl

from analysis.data import gpu_evidence
from analysis.data.gpus import gpu_family
from analysis.methods import gpu_prices
from analysis.methods.prices import SOURCES, joined_sources, row_source_list

SECONDS_PER_HOUR = 3600
TOKENS_PER_MTOK = 1e6

# The book's pricing of MLPerf results (the tokens-per-dollar chapter and its headline estimate).
PRICING = "on-demand"  # the GPU-hour price each MLPerf result is priced at
MAX_LAG_MONTHS = 3  # ... in the round's month or up to this many months earlier
SCENARIO = "Offline"  # the MLPerf scenario the prose quotes
BENCHMARK = "llama2-70b"  # the benchmark that runs through every round

# MLPerf benchmark model (accuracy suffix removed) -> model_id in the models table.
MLPERF_MODEL_IDS = {
    "llama2-70b": "llama-2-70b",
    "llama3.1-405b": "llama-3.1-405b",
    "llama3.1-8b": "llama-3.1-8b",
    "mixtral-8x7b": "mixtral-8x7b",
    "deepseek-r1": "deepseek-r1",
}
BYTES_PER_PARAMETER = {"fp8": 1.0, "fp16": 2.0}
# Token-price rows whose seller is not named: a dataset's representative price, not one more
# provider, so it is left out of the per-provider API prices.
UNNAMED_PROVIDERS = ["unspecified"]


class PriceNotFound(LookupError):
    """No GPU-hour price for an accelerator in the searched months."""


# ---------------------------------------------------------------- formulas (expressions)


def usd_per_mtok_expr(usd_per_gpu_hour: str, tokens_per_s_per_gpu: str) -> pl.Expr:
    """$ per million tokens = $/GPU-hour / (tokens/s per GPU x 3600 / 1e6)."""
    mtok_per_hour = pl.col(tokens_per_s_per_gpu) * SECONDS_PER_HOUR / TOKENS_PER_MTOK
    return pl.col(usd_per_gpu_hour) / mtok_per_hour


def usd_per_mtok(usd_per_gpu_hour: float, tokens_per_s_per_gpu: float) -> float:
    """The same formula on plain numbers."""
    return usd_per_gpu_hour / (tokens_per_s_per_gpu * SECONDS_PER_HOUR / TOKENS_PER_MTOK)


def base_model_expr() -> pl.Expr:
    """The benchmark model without its accuracy suffix (`llama2-70b-99.9` -> `llama2-70b`)."""
    return pl.col("benchmark_model").str.replace(r"-99(\.9)?$", "").alias("base_model")


def accuracy_expr() -> pl.Expr:
    """The accuracy target of the row: "99", "99.9" or "" where the benchmark has one target."""
    return (
        pl.col("benchmark_model").str.extract(r"-(99(?:\.9)?)$", 1).fill_null("").alias("accuracy")
    )


def system_key_expr() -> pl.Expr:
    """Same system across rounds: the submitted name, lowercased, spaces collapsed. The results
    folder (`platform`) is not used: submitters rename it between rounds (HPE's
    `..._TRT_TRT` in v4.0 is `..._TRT` in v4.1 for the same Cray XD670). `software_gains`
    adds submitter, accelerator and accelerator count to the key."""
    name = pl.col("system").str.to_lowercase().str.replace_all(r"\s+", " ").str.strip_chars()
    return name.alias("system_key")


# ---------------------------------------------------------------- MLPerf throughput


def mlperf_per_accelerator(results: pl.DataFrame, *, accuracy: str = "99") -> pl.DataFrame:
    """Closed-division results, one row per system, round, scenario and benchmark (see the
    module's accuracy rule), with tokens_per_s_per_accelerator. Adds base_model, accuracy,
    system_key and `accuracy_pair_identical` (both targets submitted with the same number)."""
    rows = results.filter(pl.col("division") == "closed").with_columns(
        base_model_expr(), accuracy_expr(), system_key_expr()
    )
    keep = ["", "99", "99.9"] if accuracy == "99" else ["", "99.9"]
    rows = rows.filter(pl.col("accuracy").is_in(keep))
    # One system of one round: its results folder (`platform`) keeps apart systems submitted
    # under one name (AMD's 1x and 8x MI300X in v4.1).
    key = ["round", "submitter", "system", "platform", "accelerator", "base_model", "scenario"]
    # "" and "99" rank before "99.9": the looser target's own row wins when both exist.
    ranked = rows.sort([*key, "accuracy"]).with_columns(
        (pl.col("tokens_per_s").n_unique().over(key) == 1).alias("same"),
        pl.len().over(key).alias("n_variants"),
    )
    return (
        ranked.unique(subset=key, keep="first", maintain_order=True)
        .with_columns(
            ((pl.col("n_variants") > 1) & pl.col("same")).alias("accuracy_pair_identical"),
            (pl.col("tokens_per_s") / pl.col("accelerator_count")).alias(
                "tokens_per_s_per_accelerator"
            ),
        )
        .drop("same", "n_variants")
    )


def throughput_summary(per_accelerator: pl.DataFrame) -> pl.DataFrame:
    """Tokens/s per accelerator by round, accelerator, benchmark and scenario: number of
    systems, best and median, and the `sources` of the systems' rows. A chapter shows it as a
    table or a dot plot by round."""
    return (
        per_accelerator.group_by("round", "date", "accelerator", "base_model", "scenario")
        .agg(
            pl.len().alias("n_systems"),
            pl.col("tokens_per_s_per_accelerator").max().alias("best_tokens_per_s_per_acc"),
            pl.col("tokens_per_s_per_accelerator").median().alias("median_tokens_per_s_per_acc"),
            *joined_sources(per_accelerator),  # every system's row: the median counts them all
        )
        .sort("base_model", "scenario", "accelerator", "round")
    )


def top_accelerators(summary: pl.DataFrame, *, scenario: str, top: int) -> pl.DataFrame:
    """The rows of `throughput_summary` in `scenario` for the `top` accelerators with the most
    results there (ties broken by accelerator id): what the throughput figure draws."""
    rows = summary.filter(pl.col("scenario") == scenario)
    keep = (
        rows.group_by("accelerator")
        .agg(pl.col("n_systems").sum())
        .sort("n_systems", "accelerator", descending=[True, False])
        .head(top)["accelerator"]
    )
    return rows.filter(pl.col("accelerator").is_in(keep.to_list()))


def software_gains(per_accelerator: pl.DataFrame) -> pl.DataFrame:
    """Throughput gains of the same system between rounds: same submitter, system key (the
    submitted name, see `system_key_expr`), accelerator and accelerator count, benchmark and
    scenario (so the hardware is fixed and the gain is software). The results folder is
    round-specific and not part of the key. Each consecutive pair of rounds a system appears in
    gives one row: ratio = later / earlier tokens/s per accelerator. Where a submitter has
    several results of one key in a round (several folders, e.g. software stacks), the best
    counts. What the name does not say is not held fixed: AMD's "Supermicro AS-8125GS-TNMR2"
    with 8 MI300X has EPYC 9374F and EPYC Turin hosts in v4.1 and EPYC 9575F in v5.1."""
    key = ["submitter", "system_key", "accelerator", "accelerator_count", "base_model", "scenario"]
    best = per_accelerator.group_by([*key, "round", "date"]).agg(
        pl.col("tokens_per_s_per_accelerator").max()
    )
    ordered = best.sort([*key, "date"]).with_columns(
        pl.col("round").shift(1).over(key).alias("from_round"),
        pl.col("date").shift(1).over(key).alias("from_date"),
        pl.col("tokens_per_s_per_accelerator").shift(1).over(key).alias("from_tokens_per_s"),
    )
    return (
        ordered.filter(pl.col("from_round").is_not_null())
        .rename({"round": "to_round", "tokens_per_s_per_accelerator": "to_tokens_per_s"})
        .with_columns((pl.col("to_tokens_per_s") / pl.col("from_tokens_per_s")).alias("ratio"))
        .select(*key, "from_round", "to_round", "from_tokens_per_s", "to_tokens_per_s", "ratio")
        .sort("base_model", "scenario", "submitter", "system_key")
    )


def software_gain_summary(gains: pl.DataFrame) -> pl.DataFrame:
    """Per pair of rounds and scenario: n systems, median and geometric-mean ratio."""
    return (
        gains.group_by("from_round", "to_round", "scenario")
        .agg(
            pl.len().alias("n"),
            pl.col("ratio").median().alias("median_ratio"),
            pl.col("ratio").log().mean().exp().alias("geometric_mean_ratio"),
        )
        .sort("from_round", "to_round", "scenario")
    )


# ---------------------------------------------------------------- prices in force


def price_lookup_table(prices: pl.DataFrame, *, pricing: str = "on-demand") -> pl.DataFrame:
    """Monthly price per exact GPU id and per family, of one pricing type: columns price_gpu,
    month, usd_per_gpu_hour, n_providers. Exact ids and family ids share the column."""
    exact = gpu_prices.monthly_median_across_providers(prices, by_family=False, pricing=pricing)
    family = gpu_prices.monthly_median_across_providers(prices, by_family=True, pricing=pricing)
    both = pl.concat([exact, family.join(exact, on=["gpu_group", "month"], how="anti")])
    return both.rename({"gpu_group": "price_gpu"}).drop("pricing").sort("price_gpu", "month")


def _candidates(gpu: str) -> list[str]:
    fam = gpu_family(gpu)
    return [gpu] if fam == gpu else [gpu, fam]


def _month_window(d: date, max_lag_months: int) -> list[date]:
    first = date(d.year, d.month, 1)
    months = []
    for k in range(max_lag_months + 1):
        y, m = divmod(first.month - 1 - k, 12)
        months.append(date(first.year + y, m + 1, 1))
    return months


def _find_price(table: pl.DataFrame, gpu: str, d: date, max_lag_months: int) -> dict | None:
    """Nearest month at or before d (within the window), exact id before family."""
    window = _month_window(d, max_lag_months)
    for cand in _candidates(gpu):
        hits = table.filter(pl.col("price_gpu") == cand, pl.col("month").is_in(window))
        if hits.height:
            return hits.sort("month", descending=True).row(0, named=True)
    return None


def attach_gpu_price(
    rows: pl.DataFrame,
    prices: pl.DataFrame,
    *,
    pricing: str = "on-demand",
    max_lag_months: int = 3,
    gpu_col: str = "accelerator",
    date_col: str = "date",
    on_missing: str = "raise",
) -> pl.DataFrame:
    """Add the GPU-hour price in force (see the module's rule) to each row.

    New columns: usd_per_gpu_hour, price_gpu, price_month, price_pricing, price_n_providers,
    price_source (the source ids of the quotes the price is the median of, ";"-joined).
    `on_missing="raise"` raises PriceNotFound naming the GPU, the month and what was searched;
    `"drop"` drops rows without a price, `"keep"` keeps them with nulls.
    """
    table = price_lookup_table(prices, pricing=pricing)
    found = {}
    for gpu, d in rows.select(gpu_col, date_col).unique().iter_rows():
        hit = _find_price(table, gpu, d, max_lag_months)
        if hit is None and on_missing == "raise":
            raise PriceNotFound(_not_found_message(gpu, d, pricing, max_lag_months))
        found[(gpu, d)] = hit
    lookup = pl.DataFrame(
        [
            {
                gpu_col: g,
                date_col: d,
                "usd_per_gpu_hour": h and h["usd_per_gpu_hour"],
                "price_gpu": h and h["price_gpu"],
                "price_month": h and h["month"],
                "price_n_providers": h and h["n_providers"],
                "price_source": h and h.get("sources"),  # the quotes the price is the median of
            }
            for (g, d), h in found.items()
        ],
        schema={
            gpu_col: pl.String,
            date_col: pl.Date,
            "usd_per_gpu_hour": pl.Float64,
            "price_gpu": pl.String,
            "price_month": pl.Date,
            "price_n_providers": pl.Int64,
            "price_source": pl.String,
        },
    ).with_columns(pl.lit(pricing).alias("price_pricing"))
    out = rows.join(lookup, on=[gpu_col, date_col], how="left")
    return out.filter(pl.col("usd_per_gpu_hour").is_not_null()) if on_missing == "drop" else out


def _not_found_message(gpu: str, d: date, pricing: str, lag: int) -> str:
    window = _month_window(d, lag)
    return (
        f"no {pricing} GPU-hour price for {gpu} in {d:%Y-%m}: searched gpu ids "
        f"{', '.join(_candidates(gpu))} in months {window[-1]:%Y-%m} .. {window[0]:%Y-%m} "
        f"(the month and up to {lag} months earlier)"
    )


def unmatched_price_rows(rows: pl.DataFrame, prices: pl.DataFrame, **kwargs) -> pl.DataFrame:
    """The rows `attach_gpu_price` finds no price for, with the reason: for reporting gaps."""
    kwargs = {**kwargs, "on_missing": "keep"}
    out = attach_gpu_price(rows, prices, **kwargs).filter(pl.col("usd_per_gpu_hour").is_null())
    pricing, lag = kwargs.get("pricing", "on-demand"), kwargs.get("max_lag_months", 3)
    gpu_col, date_col = kwargs.get("gpu_col", "accelerator"), kwargs.get("date_col", "date")
    reasons = [
        _not_found_message(g, d, pricing, lag) for g, d in out.select(gpu_col, date_col).rows()
    ]
    return out.with_columns(pl.Series("reason", reasons, dtype=pl.String))


def mlperf_usd_per_mtok(
    per_accelerator: pl.DataFrame,
    prices: pl.DataFrame,
    *,
    pricing: str = "on-demand",
    max_lag_months: int = 3,
    on_missing: str = "drop",
) -> pl.DataFrame:
    """$ per million tokens of every MLPerf result at the GPU-hour price in force at the round's
    date, at 100% utilisation. A chapter shows the cheapest per round and model, and how the
    same accelerator's cost falls between rounds. Rows without a price are dropped by default;
    list them with `unmatched_price_rows`."""
    priced = attach_gpu_price(
        per_accelerator,
        prices,
        pricing=pricing,
        max_lag_months=max_lag_months,
        on_missing=on_missing,
    )
    return priced.with_columns(
        usd_per_mtok_expr("usd_per_gpu_hour", "tokens_per_s_per_accelerator").alias(
            "hardware_usd_per_mtok"
        )
    )


def in_scenario(frame: pl.DataFrame, scenario: str) -> pl.DataFrame:
    """The rows of one MLPerf scenario (`Offline`, `Server`) of a frame with `scenario`."""
    return frame.filter(pl.col("scenario") == scenario)


def cheapest_by_round(costs: pl.DataFrame, *, by_accelerator: bool = False) -> pl.DataFrame:
    """The cheapest hardware $/Mtok per round, benchmark and scenario, with the system and the
    sources of the result and its price (with `by_accelerator`, the cheapest per accelerator
    too: how one GPU's cost moves)."""
    by = ["round", "date", "base_model", "scenario"] + (["accelerator"] if by_accelerator else [])
    return (
        costs.sort("hardware_usd_per_mtok")
        .group_by(by, maintain_order=True)
        .first()
        .select(
            *by,
            *([] if by_accelerator else ["accelerator"]),
            "submitter",
            "system",
            "tokens_per_s_per_accelerator",
            "usd_per_gpu_hour",
            "price_gpu",
            "price_month",
            "price_pricing",
            "hardware_usd_per_mtok",
            # where the result and its GPU-hour price came from
            *[c for c in ("source_id", "price_source") if c in costs.columns],
        )
        .sort("base_model", "scenario", "date")
    )


# ---------------------------------------------------------------- API prices and break-even


def model_ids(models: pl.DataFrame, mapping: dict[str, str] | None = None) -> pl.DataFrame:
    """MLPerf benchmark model -> model_id and active parameters (billions) from the models
    table (active_parameters_b, else parameters_b for dense models). Raises if an id is absent."""
    mapping = MLPERF_MODEL_IDS if mapping is None else mapping
    found = models.filter(pl.col("model_id").is_in(list(mapping.values())))
    missing = sorted(set(mapping.values()) - set(found["model_id"].to_list()))
    if missing:
        raise LookupError(f"models table has no model_id {', '.join(missing)}")
    pairs = pl.DataFrame({"base_model": list(mapping), "model_id": list(mapping.values())})
    return pairs.join(
        found.select(
            "model_id",
            pl.coalesce("active_parameters_b", "parameters_b").alias("active_parameters_b"),
        ),
        on="model_id",
    )


def api_prices_in_month(
    token_prices: pl.DataFrame,
    ids: list[str],
    month: date,
    *,
    price_col: str = "output_usd_per_mtok",
) -> pl.DataFrame:
    """Third-party (first_party false) USD list prices of the models in force in `month`:
    the row's date is on or before the month's end and its last_seen (or date) on or after the
    month's start. One row per model and named provider (the latest price seen); rows without
    a named seller (`UNNAMED_PROVIDERS`) are left out."""
    start = date(month.year, month.month, 1)
    end = date(start.year + start.month // 12, start.month % 12 + 1, 1)  # next month's first day
    row_sources = row_source_list(token_prices)
    return (
        token_prices.filter(
            pl.col("model_id").is_in(ids),
            ~pl.col("first_party"),
            ~pl.col("provider").is_in(UNNAMED_PROVIDERS),
            pl.col("currency") == "USD",
            pl.col("price_kind") == "list",
            pl.col(price_col).is_not_null(),
            pl.col("date") < end,
            pl.coalesce("last_seen", "date") >= start,
        )
        .sort("date")
        .group_by("model_id", "provider", maintain_order=True)
        .last()
        .select(
            "model_id",
            "provider",
            "date",
            "last_seen",
            pl.col(price_col).alias("api_price"),
            *([row_sources.list.join(";").alias(SOURCES)] if row_sources is not None else []),
        )
    )


def break_even_utilisation(
    costs: pl.DataFrame,
    token_prices: pl.DataFrame,
    models: pl.DataFrame,
    *,
    price_col: str = "output_usd_per_mtok",
) -> pl.DataFrame:
    """Hardware $/Mtok at 100% utilisation against third-party API prices of the same model in
    the round's month: break_even_utilisation = hardware $/Mtok / median API price (a provider
    renting GPUs at that price breaks even when busy this share of the time).

    The default compares with the *output* price: MLPerf counts generated tokens, and the
    hardware time also pays for reading the prompt, so output price alone understates revenue
    per generated token and the break-even share is an upper bound. Uses the cheapest MLPerf
    result per round, benchmark and scenario (`cheapest_by_round`).
    """
    ids = model_ids(models)
    cheapest = cheapest_by_round(costs).join(ids, on="base_model")
    rows = []
    for r in cheapest.iter_rows(named=True):
        api = api_prices_in_month(token_prices, [r["model_id"]], r["date"], price_col=price_col)
        if api.height == 0:
            continue
        rows.append(
            {
                **r,
                "api_price_col": price_col,
                "n_api_providers": api.height,
                "api_median_usd_per_mtok": float(api["api_price"].median()),
                "api_min_usd_per_mtok": float(api["api_price"].min()),
            }
        )
    if not rows:
        return pl.DataFrame()
    return pl.DataFrame(rows).with_columns(
        (pl.col("hardware_usd_per_mtok") / pl.col("api_median_usd_per_mtok")).alias(
            "break_even_utilisation"
        ),
        (pl.col("hardware_usd_per_mtok") / pl.col("api_min_usd_per_mtok")).alias(
            "break_even_utilisation_at_min_price"
        ),
    )


# ---------------------------------------------------------------- the physical floor


def compute_bound_tokens_per_s(peak_tflop_per_s: float, active_parameters_b: float) -> float:
    """Tokens/s per GPU <= peak FLOP/s / (2 N): decoding takes about 2N FLOP per token."""
    return peak_tflop_per_s * 1e12 / (2 * active_parameters_b * 1e9)


def memory_bound_tokens_per_s(
    bandwidth_tb_per_s: float, active_parameters_b: float, bytes_per_parameter: float, batch: int
) -> float:
    """Tokens/s per GPU <= bandwidth / (bytes per parameter x N) x batch: each decoding step
    reads the weights once, shared by the batch. The KV cache is ignored (it only adds reads,
    so this bound stays an upper bound on throughput)."""
    step_per_s = bandwidth_tb_per_s * 1e12 / (bytes_per_parameter * active_parameters_b * 1e9)
    return step_per_s * batch


def precision_expr() -> pl.Expr:
    """FP8 where gpu_specs gives an FP8 rate, else FP16."""
    return (
        pl.when(pl.col("fp8_tflop_per_s").is_not_null())
        .then(pl.lit("fp8"))
        .otherwise(pl.lit("fp16"))
        .alias("precision")
    )


def physical_floor(
    specs: pl.DataFrame,
    gpus: list[str],
    active_parameters_b: float,
    *,
    batch: int | None = None,
) -> pl.DataFrame:
    """Upper bounds on tokens/s per GPU for a model of N active parameters, per GPU.

    Precision: FP8 where gpu_specs has an FP8 rate, else FP16 (stated per row; the chip data
    lacks FP8 rates for Hopper, so H100/H200 use FP16, whose compute bound is half the FP8
    one). Bytes per parameter follow the precision (1 for FP8, 2 for FP16). The memory bound
    grows with the batch until, at `crossover_batch` = peak FLOP/s x bytes / (2 x bandwidth),
    compute binds. With `batch=None` (default) the bound is the compute bound: the most any
    batch can get, so the floor holds for every batch size. With a batch, the bound is the
    smaller of the two. Both bounds count every token processed; MLPerf counts generated
    tokens only, so prompt-heavy benchmarks (Llama 3.1 405B) sit further above this floor.
    """
    chosen = specs.filter(pl.col("gpu").is_in(gpus)).with_columns(precision_expr())
    peak = (
        pl.when(pl.col("precision") == "fp8")
        .then(pl.col("fp8_tflop_per_s"))
        .otherwise(pl.col("fp16_tflop_per_s"))
    )
    n = active_parameters_b * 1e9
    bytes_pp = pl.col("precision").replace_strict(BYTES_PER_PARAMETER, return_dtype=pl.Float64)
    steps_per_s = pl.col("memory_bandwidth_tb_per_s") * 1e12 / (bytes_pp * n)
    out = chosen.select(
        "gpu",
        "precision",
        peak.alias("peak_tflop_per_s"),
        "memory_bandwidth_tb_per_s",
        pl.lit(active_parameters_b).alias("active_parameters_b"),
        pl.lit(batch, dtype=pl.Int64).alias("batch"),
        (peak * 1e12 / (2 * n)).alias("compute_bound_tokens_per_s"),
        (steps_per_s * (batch or 1)).alias("memory_bound_tokens_per_s"),
        (peak * 1e12 / (2 * n) / steps_per_s).alias("crossover_batch"),
        *([pl.col("source_id").alias("spec_source")] if "source_id" in chosen.columns else []),
    )
    if batch is None:
        return out.with_columns(
            pl.lit(None, dtype=pl.Float64).alias("memory_bound_tokens_per_s"),
            pl.col("compute_bound_tokens_per_s").alias("bound_tokens_per_s"),
        )
    return out.with_columns(
        pl.min_horizontal("compute_bound_tokens_per_s", "memory_bound_tokens_per_s").alias(
            "bound_tokens_per_s"
        )
    )


def floor_vs_observed(
    costs: pl.DataFrame,
    specs: pl.DataFrame,
    models: pl.DataFrame,
    *,
    batch: int | None = None,
) -> pl.DataFrame:
    """How far MLPerf results sit above the physical floor, same GPU price and month.

    For each priced MLPerf result: the bound on tokens/s per GPU (`physical_floor`) for its
    model's active parameters, the floor $/Mtok = GPU-hour price / bound, and
    times_above_floor = hardware $/Mtok / floor $/Mtok (1 = at the physical limit). Rows whose
    GPU lacks specs are dropped. `exceeds_bound` flags results faster than the bound (the spec
    precision differs from what the submission ran, e.g. FP4).
    """
    ids = model_ids(models)
    frames = []
    for (_base, gpu), grp in costs.join(ids, on="base_model").group_by("base_model", "accelerator"):
        n = grp["active_parameters_b"][0]
        floor = physical_floor(specs, [gpu], n, batch=batch)
        if floor.height == 0 or floor["bound_tokens_per_s"][0] is None:
            continue
        frames.append(grp.join(floor.rename({"gpu": "accelerator"}), on="accelerator"))
    if not frames:
        return pl.DataFrame()
    out = pl.concat(frames, how="diagonal_relaxed").sort(
        "base_model", "scenario", "round", "system"
    )
    return out.with_columns(
        usd_per_mtok_expr("usd_per_gpu_hour", "bound_tokens_per_s").alias("floor_usd_per_mtok"),
    ).with_columns(
        (pl.col("hardware_usd_per_mtok") / pl.col("floor_usd_per_mtok")).alias("times_above_floor"),
        (pl.col("tokens_per_s_per_accelerator") > pl.col("bound_tokens_per_s")).alias(
            "exceeds_bound"
        ),
    )


def floor_table(specs: pl.DataFrame, gpus: list[str], models: pl.DataFrame) -> pl.DataFrame:
    """`physical_floor` at batch 1 for every MLPerf benchmark model on each GPU: the compute
    bound (any batch), the memory bound of one sequence, and the batch where they cross.
    One row per model and GPU, with base_model, model_id and active parameters."""
    frames = [
        physical_floor(specs, gpus, row["active_parameters_b"], batch=1).with_columns(
            pl.lit(row["base_model"]).alias("base_model"), pl.lit(row["model_id"]).alias("model_id")
        )
        for row in model_ids(models).iter_rows(named=True)
    ]
    return pl.concat(frames).sort("active_parameters_b", "gpu")


def floor_to_api_ratio(floor_usd_per_mtok: float, api_usd_per_mtok: float) -> float:
    """How many times the physical floor an API list price is (1 = priced at the floor)."""
    return api_usd_per_mtok / floor_usd_per_mtok


def ladder_ratio_exprs() -> list[pl.Expr]:
    """The steps of the ladder as ratios: hardware cost over the floor, API median price over
    hardware cost, and API median price over the floor (`floor_to_api_ratio`)."""
    floor, hardware = pl.col("floor_usd_per_mtok"), pl.col("hardware_usd_per_mtok")
    api = pl.col("api_median_usd_per_mtok")
    return [
        (hardware / floor).alias("hardware_over_floor"),
        (api / hardware).alias("api_over_hardware"),
        (api / floor).alias("api_over_floor"),
    ]


def cost_ladder(
    costs: pl.DataFrame,
    specs: pl.DataFrame,
    models: pl.DataFrame,
    token_prices: pl.DataFrame,
    *,
    round_: str | None = None,
    scenario: str = "Offline",
    price_col: str = "output_usd_per_mtok",
    data_version: str | None = None,
) -> pl.DataFrame:
    """From the physical floor to the API list price, per open model, in one MLPerf round.

    For each benchmark model, the cheapest priced result of `scenario` in the round (default:
    the latest round in `costs`) gives the accelerator, its GPU-hour price in force and the
    hardware $/Mtok at 100% utilisation. On the same accelerator at the same price, the floor
    $/Mtok is the compute bound of `physical_floor` (full batch, FP8 where the chip data has
    it). The API rungs are the cheapest and the median third-party list price (`price_col`) in
    the round's month. Models without an API price keep nulls there.
    """
    rnd = round_ or costs.sort("date")["round"][-1]
    chosen = cheapest_by_round(costs.filter(pl.col("round") == rnd, pl.col("scenario") == scenario))
    rows = []
    for r in chosen.join(model_ids(models), on="base_model").iter_rows(named=True):
        floor = physical_floor(specs, [r["accelerator"]], r["active_parameters_b"])
        if floor.height == 0 or floor["bound_tokens_per_s"][0] is None:
            continue
        api = api_prices_in_month(token_prices, [r["model_id"]], r["date"], price_col=price_col)
        rows.append(
            {
                **r,
                "precision": floor["precision"][0],
                "bound_tokens_per_s": floor["bound_tokens_per_s"][0],
                "floor_usd_per_mtok": usd_per_mtok(
                    r["usd_per_gpu_hour"], floor["bound_tokens_per_s"][0]
                ),
                "api_price_col": price_col,
                "n_api_providers": api.height,
                "api_min_usd_per_mtok": api["api_price"].min() if api.height else None,
                "api_median_usd_per_mtok": api["api_price"].median() if api.height else None,
                # Every row the rungs were computed from: the MLPerf result, the GPU-hour
                # quotes, the chip's specs and the API prices.
                SOURCES: ";".join(
                    sorted(
                        {
                            i
                            for cell in [
                                r.get("source_id"),
                                r.get("price_source"),
                                *floor.get_column("spec_source", default=pl.Series([None])),
                                *api.get_column(SOURCES, default=pl.Series([None])),
                            ]
                            if cell
                            for i in cell.split(";")
                            if i
                        }
                    )
                ),
            }
        )
    version = pl.lit(data_version, dtype=pl.String).alias("data_version")
    return (
        pl.DataFrame(rows).with_columns(*ladder_ratio_exprs(), version).sort("active_parameters_b")
    )


def ladder_long(
    ladder: pl.DataFrame,
    rungs: dict[str, str],
    *,
    index: tuple[str, ...] = ("model", "accelerator", "round"),
) -> pl.DataFrame:
    """The ladder (from `cost_ladder`) one rung per row: for each column of `rungs` (column ->
    the rung's label) a row with the `index` columns, `rung` (the label) and `usd_per_mtok`;
    rungs without a value (a model with no API price) are left out."""
    index = (*index, *([SOURCES] if SOURCES in ladder.columns else []))  # kept on each rung
    return (
        ladder.unpivot(
            list(rungs), index=list(index), variable_name="rung", value_name="usd_per_mtok"
        )
        .filter(pl.col("usd_per_mtok").is_not_null())
        .with_columns(pl.col("rung").replace(rungs))
    )


# ---------------------------------------------------------------- one submitter, round on round


def submitter_gain(
    per_accelerator: pl.DataFrame, *, submitter: str, to_round: str, from_round: str
) -> pl.DataFrame:
    """A submitter's results in `to_round` against `from_round` on the same accelerator,
    benchmark and scenario (closed division, per accelerator, from `mlperf_per_accelerator`):
    the submitter's best `to_tokens_per_s` per accelerator, benchmark and scenario, the best
    result of any submitter in `from_round` (`from_tokens_per_s`, `ratio`) and the
    submitter's own there (`own_from_tokens_per_s`, `own_ratio`; null where it has none).
    Results with no `from_round` counterpart are dropped: there is nothing to compare."""
    key = ["accelerator", "base_model", "scenario"]
    best = pl.col("tokens_per_s_per_accelerator").max()
    to = (
        per_accelerator.filter(pl.col("round") == to_round, pl.col("submitter") == submitter)
        .group_by(key)
        .agg(best.alias("to_tokens_per_s"), pl.col("system").first().alias("to_system"))
    )
    earlier = per_accelerator.filter(pl.col("round") == from_round)
    any_from = earlier.group_by(key).agg(best.alias("from_tokens_per_s"))
    own_from = (
        earlier.filter(pl.col("submitter") == submitter)
        .group_by(key)
        .agg(best.alias("own_from_tokens_per_s"))
    )
    return (
        to.join(any_from, on=key)
        .join(own_from, on=key, how="left")
        .with_columns(
            (pl.col("to_tokens_per_s") / pl.col("from_tokens_per_s")).alias("ratio"),
            (pl.col("to_tokens_per_s") / pl.col("own_from_tokens_per_s")).alias("own_ratio"),
            pl.lit(submitter).alias("submitter"),
            pl.lit(from_round).alias("from_round"),
            pl.lit(to_round).alias("to_round"),
        )
        .sort(key)
    )


def generation_gain(
    per_accelerator: pl.DataFrame,
    *,
    submitter: str,
    in_round: str,
    new: tuple[str, ...],
    old: tuple[str, ...],
) -> pl.DataFrame:
    """A submitter's results on `new` accelerators in `in_round` against the best result of any
    submitter on an `old` (earlier-generation) accelerator in the same round, benchmark and
    scenario (from `mlperf_per_accelerator`): one row per new accelerator, benchmark and
    scenario with both, `ratio` = new over old tokens/s per accelerator. A gain "compared to
    previous generations" is this, not one chip across rounds."""
    key = ["base_model", "scenario"]
    best = pl.col("tokens_per_s_per_accelerator").max()
    round_rows = per_accelerator.filter(pl.col("round") == in_round)
    mine = (
        round_rows.filter(pl.col("submitter") == submitter, pl.col("accelerator").is_in(new))
        .group_by("accelerator", *key)
        .agg(best.alias("new_tokens_per_s"))
    )
    earlier = (
        round_rows.filter(pl.col("accelerator").is_in(old))
        .sort("tokens_per_s_per_accelerator", descending=True)
        .group_by(key, maintain_order=True)
        .agg(
            pl.col("tokens_per_s_per_accelerator").first().alias("old_tokens_per_s"),
            pl.col("accelerator").first().alias("old_accelerator"),
        )
    )
    return (
        mine.join(earlier, on=key)
        .with_columns((pl.col("new_tokens_per_s") / pl.col("old_tokens_per_s")).alias("ratio"))
        .sort("accelerator", *key)
    )


def accelerator_vendor(accelerator: str) -> str:
    """The maker of an accelerator id: `mi*` AMD, `arc-*`/`gaudi*` Intel, `tpu*` Google,
    everything else (H100, B200, GB300, L40S, RTX ...) NVIDIA, as the MLPerf rounds held run."""
    if accelerator.startswith("mi"):
        return "AMD"
    if accelerator.startswith(("arc", "gaudi")):
        return "Intel"
    if accelerator.startswith("tpu"):
        return "Google"
    return "NVIDIA"


def vendors_by_submitter(results: pl.DataFrame) -> pl.DataFrame:
    """Per round and submitter: systems, accelerator vendors (`accelerator_vendor`, sorted) and
    `n_vendors`; closed and open divisions alike (`mlperf_results` rows)."""
    return (
        results.with_columns(
            pl.col("accelerator")
            .map_elements(accelerator_vendor, return_dtype=pl.String)
            .alias("vendor")
        )
        .group_by("round", "date", "submitter")
        .agg(
            pl.col("system").n_unique().alias("n_systems"),
            pl.col("vendor").unique().sort().alias("vendors"),
        )
        .with_columns(pl.col("vendors").list.len().alias("n_vendors"))
        .sort("date", "submitter")
    )


# ---------------------------------------------------------------- the GPU-hour price, named


def defensible_prices(
    prices: pl.DataFrame,
    tco: pl.DataFrame | None,
    gpu: str,
    d: date,
    *,
    max_lag_months: int = MAX_LAG_MONTHS,
    variants: tuple[str, ...] = ("direct", "without-restated", "all"),
) -> pl.DataFrame:
    """Every GPU-hour price a cost per token of `gpu` on date `d` could defensibly use (issue 19,
    class 10): the on-demand median across providers in force (this module's rule) on each
    evidence variant of `prices` (a frame with `evidence_class`; `gpu_evidence.VARIANTS`) that
    finds one, the index's own value in force (pricing "index"), and InferenceX's three
    ownership costs (`tco`, exact id else family). Columns: price (a name), usd_per_gpu_hour,
    price_gpu, price_month, n_providers, evidence (the classes of the rows behind it)."""
    rows = []
    for variant in variants:
        chosen = gpu_evidence.select(prices, variant)
        hit = _find_price(price_lookup_table(chosen, pricing="on-demand"), gpu, d, max_lag_months)
        if hit is not None:
            rows.append(_named(f"on-demand median ({variant})", hit, chosen, "on-demand"))
    hit = _find_price(price_lookup_table(prices, pricing="index"), gpu, d, max_lag_months)
    if hit is not None:
        rows.append(_named("index", hit, prices, "index"))
    if tco is not None:
        for cand in _candidates(gpu):
            found = tco.filter(pl.col("gpu") == cand).sort("ownership")
            if found.height:
                for r in found.iter_rows(named=True):
                    rows.append(
                        {
                            "price": f"InferenceX {r['ownership']}",
                            "usd_per_gpu_hour": r["usd_per_gpu_hour"],
                            "price_gpu": cand,
                            "price_month": None,
                            "n_providers": None,
                            "evidence": "InferenceX TCO assumption",
                        }
                    )
                break
    return pl.DataFrame(rows, schema=_DEFENSIBLE_SCHEMA)


_DEFENSIBLE_SCHEMA = {
    "price": pl.String,
    "usd_per_gpu_hour": pl.Float64,
    "price_gpu": pl.String,
    "price_month": pl.Date,
    "n_providers": pl.Int64,
    "evidence": pl.String,
}


def _named(name: str, hit: dict, prices: pl.DataFrame, pricing: str) -> dict:
    """A price found by `_find_price`, named, with the evidence classes of its month's rows."""
    rows = prices.filter(
        pl.col("pricing") == pricing,
        pl.col("statistic").is_in(gpu_prices.CENTRAL_STATISTICS),
        gpu_prices.month_expr() == hit["month"],
    ).with_columns(
        gpu_prices.gpu_group_expr(by_family=hit["price_gpu"] == gpu_family(hit["price_gpu"]))
    )
    rows = rows.filter(pl.col("gpu_group") == hit["price_gpu"])
    if pricing != "index":
        rows = rows.filter(~gpu_prices.is_aggregate())
    classes = rows["evidence_class"].unique().to_list()
    return {
        "price": name,
        "usd_per_gpu_hour": hit["usd_per_gpu_hour"],
        "price_gpu": hit["price_gpu"],
        "price_month": hit["month"],
        "n_providers": hit["n_providers"],
        "evidence": gpu_evidence.describe(classes) if classes else "",
    }


def cost_range(defensible: pl.DataFrame, tokens_per_s_per_gpu: float) -> pl.DataFrame:
    """$ per million tokens at each defensible price (`defensible_prices`), cheapest first."""
    return defensible.with_columns(
        (
            pl.col("usd_per_gpu_hour") / (tokens_per_s_per_gpu * SECONDS_PER_HOUR / TOKENS_PER_MTOK)
        ).alias("usd_per_mtok")
    ).sort("usd_per_mtok")
