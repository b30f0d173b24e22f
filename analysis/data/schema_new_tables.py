"""Tables for the kinds of fact the 2026-12 sources bring, and the token_prices key change.

Written in the shape of `analysis.data.schema.TABLES` entries (`Table` of `Column`s), to be
merged into `schema.py` by the lead: move each `_table(...)` below into schema.py, append the
names in `NEW_TABLE_ORDER` to `schema.TABLE_ORDER`, and apply `TOKEN_PRICES_CHANGES`. Until then
the importers of the new folders (`analysis.data.importers.new_sources.NEW_IMPORTERS`) return
frames for these tables that `build.assemble` leaves out (it builds only `TABLE_ORDER`), so
adding the importers first breaks nothing.

Units live in column names (`_per_s`, `_s`, `_kw`, `usd_per_gpu_hour`); ids are slugs; dates are
ISO. Instants (DeepSeek's tariff switch at 16:00 UTC) are strings `YYYY-MM-DDTHH:MM:SSZ`: the
schema's Column types have no datetime, and a date alone would lose the hour.
"""

from __future__ import annotations

import polars as pl

from analysis.data.schema import LOCATOR, MODEL_FK, SLUG, SOURCE, SOURCE_FK, Column, Table

UTC_INSTANT = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"
OWNERSHIP = ["hyperscaler-owned", "neocloud", "3-year-rental"]
TARIFFS = ["peak", "off-peak"]
WEEKDAYS = r"^(mon|tue|wed|thu|fri|sat|sun)(;(mon|tue|wed|thu|fri|sat|sun))*$"

NEW_TABLES: dict[str, Table] = {}


def _table(t: Table) -> Table:
    NEW_TABLES[t.name] = t
    return t


def _id(name: str, what: str) -> Column:
    return Column(name, "string", what, required=True, pattern=SLUG)


def _req(name: str, type_: str, what: str, **kw) -> Column:
    return Column(name, type_, what, required=True, **kw)


def _opt(name: str, type_: str, what: str, **kw) -> Column:
    return Column(name, type_, what, **kw)


def _count(name: str, what: str, required: bool = False) -> Column:
    return Column(name, "integer", what, required=required, minimum=0)


def _nonneg(name: str, what: str, required: bool = False) -> Column:
    return Column(name, "number", what, required=required, minimum=0)


_table(
    Table(
        "inference_benchmarks",
        "Inference-serving benchmark runs",
        "Throughput per GPU of one serving configuration of an open model on one accelerator, "
        "as one benchmark run measured it (InferenceMAX CI artefacts). Per GPU already: "
        "multiply by GPUs, or turn into $/1M tokens with a $/GPU-hour.",
        [
            _id("benchmark", "Benchmark suite: inferencemax"),
            _req("run_id", "string", "The suite's run id (InferenceMAX: GitHub Actions run id)"),
            _opt("date", "date", "Date of the run, where a source gives it; else empty"),
            _id("benchmark_model", "Model benchmarked: gpt-oss-120b, deepseek-r1"),
            _req("source_model_name", "string", "Model as the run names it (repo id or path)"),
            _id("accelerator", "Canonical accelerator id (same ids as gpu_hour_prices.gpu)"),
            _req("source_hw", "string", "Hardware key of the run: b200, b200-trt, mi355x-amd_0"),
            _req("framework", "string", "Serving framework: vllm, sglang, trt, dynamo-trt, ..."),
            _req("precision", "string", "Weight precision: fp4, fp8"),
            _req("spec_decoding", "string", "Speculative decoding: none, mtp"),
            _req("disaggregated", "boolean", "Prefill and decode on separate workers"),
            _req("multinode", "boolean", "Run spans several nodes"),
            _req("isl_tokens", "integer", "Input sequence length, tokens", minimum=1),
            _req("osl_tokens", "integer", "Output sequence length, tokens", minimum=1),
            _req("concurrency", "integer", "Concurrent requests", minimum=1),
            _count("tp", "Tensor parallelism (aggregated serving)"),
            _count("ep", "Expert parallelism (aggregated serving)"),
            _opt("dp_attention", "boolean", "Data-parallel attention (aggregated serving)"),
            _count("prefill_tp", "Tensor parallelism of a prefill worker"),
            _count("prefill_ep", "Expert parallelism of a prefill worker"),
            _count("prefill_workers", "Prefill workers"),
            _count("prefill_gpus", "GPUs on prefill"),
            _opt("prefill_dp_attention", "boolean", "Data-parallel attention on prefill"),
            _count("decode_tp", "Tensor parallelism of a decode worker"),
            _count("decode_ep", "Expert parallelism of a decode worker"),
            _count("decode_workers", "Decode workers"),
            _count("decode_gpus", "GPUs on decode"),
            _opt("decode_dp_attention", "boolean", "Data-parallel attention on decode"),
            _nonneg("tokens_per_s_per_gpu", "Input + output tokens per second per GPU", True),
            _nonneg("output_tokens_per_s_per_gpu", "Output tokens per second per GPU"),
            _nonneg("input_tokens_per_s_per_gpu", "Input tokens per second per GPU"),
            _nonneg("median_ttft_s", "Median time to first token, seconds"),
            _nonneg("p99_ttft_s", "99th-percentile time to first token, seconds"),
            _nonneg("median_tpot_s", "Median time per output token, seconds"),
            _nonneg("median_e2e_latency_s", "Median end-to-end request latency, seconds"),
            _nonneg("median_tokens_per_s_per_user", "Median interactivity, tokens/s per user"),
            SOURCE,
            LOCATOR,
        ],
        # One record per row of a run file; the importer checks that no run repeats a
        # configuration, so the locator (file and row) is the natural key.
        ["benchmark", "run_id", "source_id", "source_locator"],
        [SOURCE_FK],
    )
)

_table(
    Table(
        "tco_assumptions",
        "GPU cost assumptions of cost-per-token calculators",
        "Hourly cost of one GPU under an ownership model, as a calculator assumes it (InferenceX: "
        "hyperscaler owning, neocloud, 3-year rental), with the power per GPU it assumes.",
        [
            _id("gpu", "Canonical GPU id"),
            _req("source_gpu_name", "string", "The GPU's key in the source: h100, gb300, ..."),
            _req("date", "date", "First date the source version read carries this value"),
            _opt("last_seen", "date", "Last date a version read carries the same value"),
            _req("ownership", "string", "Ownership model the cost assumes", enum=OWNERSHIP),
            _nonneg("usd_per_gpu_hour", "Assumed cost, USD per GPU-hour", True),
            _nonneg("power_kw_per_gpu", "Assumed power draw, kW per GPU"),
            _req(
                "provisional",
                "boolean",
                "The source marks the value temporary (e.g. 1.2x an older GPU's until priced)",
            ),
            _req("source_field", "string", "Field in the source: costh, costn, costr"),
            SOURCE,
            LOCATOR,
        ],
        ["gpu", "ownership", "date", "source_id"],
        [SOURCE_FK],
    )
)

_table(
    Table(
        "tou_windows",
        "Time-of-use tariff windows",
        "Hours in which a provider bills its peak tariff (every other hour bills off-peak), "
        "in UTC, with the days they apply on and the period the rule is in force. Rates are in "
        "token_prices (price_kind 'list' = peak, 'off-peak').",
        [
            _id("provider", "Provider whose rate card it is (token_prices.provider)"),
            _req("tariff", "string", "Tariff billed in the window", enum=TARIFFS),
            _req(
                "start_hour_utc", "integer", "First hour of the window, UTC", minimum=0, maximum=23
            ),
            _req(
                "end_hour_utc",
                "integer",
                "Hour the window ends (exclusive), UTC",
                minimum=1,
                maximum=24,
            ),
            _req(
                "weekdays",
                "string",
                "Days (UTC calendar) the window applies on, ';'-separated: mon;tue;...",
                pattern=WEEKDAYS,
            ),
            _req("local_timezone", "string", "Clock the provider states the windows in"),
            _req("start_hour_local", "integer", "First hour, provider's clock", maximum=23),
            _req("end_hour_local", "integer", "End hour (exclusive), provider's clock", maximum=24),
            _req("date", "date", "UTC date the rule takes effect"),
            _req(
                "effective_from_utc",
                "string",
                "Instant the rule takes effect",
                pattern=UTC_INSTANT,
            ),
            _opt(
                "effective_until_utc",
                "string",
                "Instant a later rule replaced it, where the source says",
                pattern=UTC_INSTANT,
            ),
            _req("models", "string", "Models on the card the windows apply to, ';'-separated"),
            _req("observed", "date", "Date of the copy of the rate card read"),
            SOURCE,
            LOCATOR,
        ],
        ["provider", "effective_from_utc", "start_hour_utc", "source_id", "source_locator"],
        [SOURCE_FK],
    )
)

_table(
    Table(
        "mlperf_training_systems",
        "MLPerf Training systems",
        "Systems submitted to an MLPerf Training round, as described by their systems JSON.",
        [
            _req("round", "string", "MLPerf Training round: v5.0, v5.1", pattern=r"^v\d+\.\d+$"),
            _req("date", "date", "Date the round's results were committed upstream"),
            _req("submitter", "string", "Submitting organisation (results folder)"),
            _req(
                "system", "string", "System name: the systems/<name>.json file and results folder"
            ),
            _req("division", "string", "closed / open", enum=["closed", "open"]),
            _opt("availability", "string", "status as submitted: Available cloud, ..."),
            _id("accelerator", "Canonical accelerator id"),
            _req("source_accelerator_name", "string", "accelerator_model_name as submitted"),
            _req("accelerators_per_node", "integer", "Accelerators per node", minimum=0),
            _req("node_count", "integer", "Nodes", minimum=1),
            _req("accelerator_count", "integer", "Accelerators in the system", minimum=0),
            _opt("framework", "string", "Software framework as submitted"),
            SOURCE,
            LOCATOR,
        ],
        ["round", "submitter", "system", "source_id"],
        [SOURCE_FK],
    )
)

_table(
    Table(
        "mlperf_training_results",
        "MLPerf Training runs",
        "One logged training run of one system on one benchmark: wall time from the log's "
        "run_start to run_stop. Raw, not MLPerf's official time-to-train score.",
        [
            _req("round", "string", "MLPerf Training round: v5.0, v5.1", pattern=r"^v\d+\.\d+$"),
            _req("date", "date", "Date the round's results were committed upstream"),
            _req("submitter", "string", "Submitting organisation (results folder)"),
            _req("system", "string", "System name (mlperf_training_systems.system)"),
            _req("benchmark", "string", "Benchmark: llama31_405b"),
            _req("run", "string", "Result file of the run: result_0, result_1, ..."),
            _id("accelerator", "Canonical accelerator id (from the system's JSON)"),
            _req("accelerator_count", "integer", "Accelerators in the system", minimum=1),
            _req("run_minutes", "number", "run_stop - run_start, minutes", minimum=0),
            _req("status", "string", "run_stop status: success / aborted"),
            _count("samples_count", "Samples trained at run_stop"),
            SOURCE,
            LOCATOR,
        ],
        ["round", "submitter", "system", "benchmark", "run", "source_id"],
        [SOURCE_FK],
    )
)

_table(
    Table(
        "aa_snapshots",
        "Artificial Analysis leaderboard snapshots",
        "What the Artificial Analysis LLM leaderboard showed for a model on one day: indices, "
        "prices and speed. Compare scores within one snapshot: AA re-scores when its index changes.",
        [
            _id("model_id", "Canonical model id"),
            _req("snapshot_date", "date", "Day the leaderboard was read"),
            _req("aa_model_id", "string", "AA's id of the model entry"),
            _req("aa_slug", "string", "AA's slug of the model entry"),
            _req("source_model_name", "string", "The model's name on AA"),
            _opt("creator", "string", "Creator as AA names it"),
            _opt("release_date", "date", "Release date as AA gives it"),
            _opt("reasoning", "boolean", "AA marks it a reasoning model"),
            _opt("open_weights", "boolean", "AA marks its weights open"),
            _opt("deprecated", "boolean", "AA marks the entry deprecated"),
            _opt("intelligence_index", "number", "Artificial Analysis Intelligence Index"),
            _opt(
                "intelligence_index_estimated",
                "boolean",
                "AA marks the index value as its estimate",
            ),
            _opt("coding_index", "number", "Artificial Analysis Coding Index"),
            _opt("agentic_index", "number", "Artificial Analysis Agentic Index"),
            _nonneg("input_usd_per_mtok", "Input price AA shows, USD per 1M tokens"),
            _nonneg("output_usd_per_mtok", "Output price AA shows, USD per 1M tokens"),
            _nonneg("blended_usd_per_mtok", "AA's 3:1 blended price, USD per 1M tokens"),
            _nonneg("index_cost_usd", "Cost AA reports to run its Intelligence Index, USD"),
            _nonneg("output_tokens_per_s", "Median output speed, tokens per second"),
            _nonneg("ttft_s", "Median time to first token, seconds"),
            _nonneg("e2e_response_s", "Median end-to-end response time, seconds"),
            _count("context_window_tokens", "Context window, tokens"),
            _nonneg("parameters_b", "Total parameters, billions"),
            _nonneg("active_parameters_b", "Active parameters, billions"),
            SOURCE,
            LOCATOR,
        ],
        ["model_id", "snapshot_date", "aa_model_id", "source_id"],
        [MODEL_FK, SOURCE_FK],
    )
)

NEW_TABLE_ORDER = list(NEW_TABLES)

# token_prices: long-context tiers and separately published currency tables join the key.
#
# 1. `context_tier` becomes required, "base" for the base (shortest-context) price and `>Nk` for
#    a tier a source states (`>200k`, `>272k`), pattern TIER_PATTERN. Frictionless reads "" as
#    missing and key fields must be required, so the base tier needs a word of its own.
#    Importers keep writing "" for the base (today's convention); `build._finish` turns ""/null
#    into "base" for token_prices before the key check, so no importer has to change.
# 2. `currency` (already required) joins the key: DeepSeek publishes a USD table and a CNY table
#    for the same model, tariff and date, separately priced (not FX conversions of each other).
# 3. `cached_input_original_per_mtok` is added beside the other original-currency columns (the
#    CNY cache-hit rates have nowhere to go otherwise); `build._resolve_models` nulls it on USD
#    rows like the other three.
# Methods that select the base tier with `context_tier.fill_null("") == ""` (hedonic,
# dispersion, llmflation) then select `context_tier == "base"`.
TIER_PATTERN = r"^(base|>\d+k?)$"
TOKEN_PRICES_KEY = [
    "model_id",
    "provider",
    "date",
    "price_kind",
    "context_tier",
    "currency",
    "source_id",
    "source_model_name",
]
TOKEN_PRICES_CHANGES = {
    "primary_key": TOKEN_PRICES_KEY,
    "context_tier": Column(
        "context_tier",
        "string",
        "Context-length tier the price applies to: 'base' (shortest context) or '>Nk' "
        "(prompts longer than N thousand tokens), as the source states it",
        required=True,
        pattern=TIER_PATTERN,
    ),
    "add_after_output_original_per_mtok": Column(
        "cached_input_original_per_mtok",
        "number",
        "Cache-read input price in the original currency",
        minimum=0,
    ),
}


def frame(table: str, rows: list[dict], drop: tuple[str, ...] = ()) -> pl.DataFrame:
    """Rows -> frame with a new table's columns and dtypes (minus `drop`), extras kept last.

    The same as `importers.common.frame`, for the tables defined here.
    """
    schema = {k: v for k, v in NEW_TABLES[table].polars_schema.items() if k not in drop}
    extra = [k for k in (rows[0] if rows else {}) if k not in schema]
    out = {k: pl.Series(k, [r.get(k) for r in rows]) for k in extra}
    for k, dtype in schema.items():
        values = [r.get(k) for r in rows]
        if dtype == pl.Date() and any(isinstance(v, str) for v in values):
            out[k] = pl.Series(k, values, dtype=pl.String).str.to_date("%Y-%m-%d", strict=True)
        else:
            out[k] = pl.Series(k, values, dtype=dtype, strict=True)
    return pl.DataFrame(out).select([*schema, *extra])
