"""The one description of every data table: columns, types, units, rules and keys.

Everything else derives from this module: the Frictionless Table Schemas written into each
version's `datapackage.json`, the polars dtypes used when loading, and the column order of
every CSV. Units live in column names (`usd_per_mtok`, `usd_per_gpu_hour`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import polars as pl

SLUG = r"^[a-z0-9][a-z0-9._+-]*$"
ISO_DATE_MIN = "2000-01-01"

# `list` is the standard price; `peak` and `off-peak` the two rates of a time-of-use card;
# `batch-only` an endpoint that publishes only a batch price (it never ends a standard spell).
PRICE_KINDS = ["list", "promotional", "off-peak", "reported", "peak", "batch-only"]
BLENDS = ["3:1", "1:1", "unknown"]
PRICING_TYPES = ["on-demand", "spot", "1-year", "3-year", "index", "marketplace", "purchase"]
CURRENCIES = ["USD", "CNY", "EUR", "GBP", "JPY"]
SCENARIOS = ["Offline", "Server", "Interactive", "SingleStream", "MultiStream"]


@dataclass(frozen=True)
class Column:
    name: str
    type: str  # Frictionless type: string, number, integer, boolean, date
    description: str
    required: bool = False
    minimum: float | str | None = None  # a number, or an ISO date for a date column
    maximum: float | str | None = None
    enum: list[str] | None = None
    pattern: str | None = None

    def frictionless(self) -> dict:
        out: dict = {"name": self.name, "type": self.type, "description": self.description}
        if self.type == "boolean":
            out["trueValues"] = ["true"]
            out["falseValues"] = ["false"]
        rules: dict = {}
        if self.required:
            rules["required"] = True
        if self.minimum is not None:
            rules["minimum"] = self.minimum
        if self.maximum is not None:
            rules["maximum"] = self.maximum
        if self.enum is not None:
            rules["enum"] = self.enum
        if self.pattern is not None:
            rules["pattern"] = self.pattern
        if rules:
            out["constraints"] = rules
        return out

    @property
    def polars_dtype(self) -> pl.DataType:
        return {
            "string": pl.String,
            "number": pl.Float64,
            "integer": pl.Int64,
            "boolean": pl.Boolean,
            "date": pl.Date,
        }[self.type]()


@dataclass(frozen=True)
class Table:
    name: str
    title: str
    description: str
    columns: list[Column]
    primary_key: list[str]
    foreign_keys: list[tuple[list[str], str, list[str]]] = field(default_factory=list)

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    @property
    def polars_schema(self) -> dict[str, pl.DataType]:
        return {c.name: c.polars_dtype for c in self.columns}

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    def frictionless(self) -> dict:
        schema: dict = {
            "fields": [c.frictionless() for c in self.columns],
            "primaryKey": self.primary_key,
            "missingValues": [""],
        }
        if self.foreign_keys:
            schema["foreignKeys"] = [
                {"fields": f, "reference": {"resource": r, "fields": rf}}
                for f, r, rf in self.foreign_keys
            ]
        return schema


def _id(name: str, what: str) -> Column:
    return Column(name, "string", what, required=True, pattern=SLUG)


def _usd(name: str, what: str, required: bool = False) -> Column:
    return Column(name, "number", what, required=required, minimum=0)


SOURCE = _id("source_id", "Source of the row; resolves in `sources`")
LOCATOR = Column(
    "source_locator",
    "string",
    "Where in the source the value sits: file@commit and row, key or page",
    required=True,
)
# Columns of the curated releases (from 2026-12-01; see analysis/data/curate/). Releases built
# before them load these columns as empty.
FLAG_LIST = r"^[a-z0-9_]+(;[a-z0-9_]+)*$"
ROW_ID = Column(
    "row_id",
    "string",
    "Id of the curated row; its sources are the `observations` rows with this id",
    pattern=r"^[a-z]+-[0-9a-f]{12}$",
)
CURATION_COLUMNS = [
    ROW_ID,
    Column(
        "source_ids",
        "string",
        "Every source that reported this fact, ';'-separated (locators in `observations`)",
    ),
    Column(
        "flags",
        "string",
        "Anomaly rules the row breaks, ';'-separated rule ids (analysis/data/curate/flags.py); "
        "empty when clean. Flagged rows stay in the data; analyses exclude them by default",
        pattern=FLAG_LIST,
    ),
]
PRICE_CURATION_COLUMNS = [
    Column(
        "offer",
        "string",
        "Route or tier words the source's name adds to the model (fast, maas, tput, turbo, ...): "
        "an attribute of the offer, not another model",
    ),
    Column("region", "string", "Region the source names for the route; empty for the default"),
    Column(
        "alias_of",
        "string",
        "The moving alias the source wrote (gpt-4o, mistral-large-latest) where the row was "
        "resolved by date to a snapshot, or stayed on the alias",
    ),
    Column(
        "valid_from",
        "date",
        "First evidence of this price of this offer (spells: analysis/data/curate/spells.py)",
    ),
    Column(
        "valid_to",
        "date",
        "Last day in force: the day before the next different price of the same offer, else "
        "the last date a source saw this price; empty while a source's newest snapshot still "
        "shows it",
    ),
    Column(
        "announced",
        "date",
        "A scheduled price: the price was announced before it took effect. The earliest "
        "retrieval date (newest snapshot) of a source that listed it before `valid_from`; the "
        "announcement may be older. Empty for a price first seen in force. A scheduled price "
        "keeps its kind (`list`, ...) and is in force from `valid_from`, not before",
    ),
    *CURATION_COLUMNS,
]
GPU_CURATION_COLUMNS = [
    Column(
        "offer_count",
        "integer",
        "Offers behind a market statistic (median, percentile) where the source counts them",
        minimum=0,
    ),
    *CURATION_COLUMNS,
]
MODEL_IDENTITY_COLUMNS = [
    Column("developer", "string", "Canonical developer id (analysis/data/tables/developers.csv)"),
    Column("release_date_source_id", "string", "Source of release_date", pattern=SLUG),
    Column(
        "release_date_note",
        "string",
        "Release dates other sources state that differ from release_date by more than 30 days",
    ),
    Column(
        "identified_by",
        "string",
        "How the model is known: catalog, source metadata, repository id; empty if unresolved",
    ),
    Column("unresolved_reason", "string", "Why no canonical model could be named"),
]
MODEL_FK = (["model_id"], "models", ["model_id"])
SOURCE_FK = (["source_id"], "sources", ["source_id"])

TABLES: dict[str, Table] = {}


def _table(t: Table) -> Table:
    TABLES[t.name] = t
    return t


_table(
    Table(
        "sources",
        "Sources",
        "Every public source a row can name: repository or publication, licence, retrieval.",
        [
            _id("source_id", "Source id (lowercase slug)"),
            Column("title", "string", "Title of the source", required=True),
            Column("publisher", "string", "Who publishes it", required=True),
            Column("url", "string", "Where to get it", required=True),
            Column("licence", "string", "Licence as stated by the source (or 'none stated')"),
            Column("retrieved", "date", "Date of the newest commit or snapshot read"),
            Column("notes", "string", "Caveats that matter when using the source"),
        ],
        ["source_id"],
    )
)

_table(
    Table(
        "models",
        "Models",
        "One row per model. Every name the sources use for it is an alias.",
        [
            _id("model_id", "Canonical model id (lowercase slug)"),
            Column("name", "string", "Display name", required=True),
            Column("organization", "string", "Developer of the model"),
            Column("release_date", "date", "Public release date, from a source"),
            Column("open_weights", "boolean", "Weights downloadable"),
            Column("parameters_b", "number", "Total parameters, billions", minimum=0),
            Column(
                "active_parameters_b", "number", "Active parameters per token, billions", minimum=0
            ),
            Column("reasoning", "boolean", "Reasoning model (thinks before answering)"),
            Column("aliases", "string", "Every name the sources use, ';'-separated"),
            Column(
                "resolved",
                "boolean",
                "False when no curated entry or source metadata names it",
                required=True,
            ),
            Column(
                "info_source_id",
                "string",
                "Source of release date / organisation / parameters",
                pattern=SLUG,
            ),
            *MODEL_IDENTITY_COLUMNS,
        ],
        ["model_id"],
    )
)

_table(
    Table(
        "token_prices",
        "Token prices",
        "API prices per million tokens: one row per model x provider x date a price was in force "
        "or observed (sources sampled monthly give the first date a price was seen and the last).",
        [
            _id("model_id", "Canonical model id"),
            _id(
                "provider",
                "Who sells the tokens: canonical id of the seller (analysis/providers.py), e.g. "
                "openai, together, bedrock; a seller's separate offer has its own id "
                "(deepinfra-turbo, huggingface-novita)",
            ),
            Column(
                "first_party",
                "boolean",
                "The seller is the model's developer (its own API); empty where the developer or "
                "the seller is unknown",
            ),
            Column("date", "date", "Date the price was in force or first observed", required=True),
            Column("last_seen", "date", "Last date the same price was observed in the same source"),
            _usd("input_usd_per_mtok", "Input (prompt) price, USD per 1M tokens"),
            _usd("output_usd_per_mtok", "Output (completion) price, USD per 1M tokens"),
            _usd("cached_input_usd_per_mtok", "Cache-read input price, USD per 1M tokens"),
            _usd(
                "cache_write_usd_per_mtok",
                "Cache-write input price (writing the prompt to the cache; the default 5-minute "
                "lifetime where the seller prices lifetimes apart), USD per 1M tokens; empty "
                "where the source states none (not zero). releases up to 2026-12-02 lack the column",
            ),
            _usd("batch_input_usd_per_mtok", "Batch API input price, USD per 1M tokens"),
            _usd("batch_output_usd_per_mtok", "Batch API output price, USD per 1M tokens"),
            _usd("blended_usd_per_mtok", "Blended price where the source gives only that"),
            Column("blend", "string", "Blend of blended_usd_per_mtok (input:output)", enum=BLENDS),
            Column(
                "currency", "string", "Currency the source quotes", required=True, enum=CURRENCIES
            ),
            Column(
                "input_original_per_mtok",
                "number",
                "Input price in the original currency",
                minimum=0,
            ),
            Column(
                "output_original_per_mtok",
                "number",
                "Output price in the original currency",
                minimum=0,
            ),
            Column(
                "blended_original_per_mtok",
                "number",
                "Blended or unspecified price in the original currency",
                minimum=0,
            ),
            Column(
                "cached_input_original_per_mtok",
                "number",
                "Cache-read input price in the original currency",
                minimum=0,
            ),
            Column(
                "price_kind",
                "string",
                "list (standard) / promotional / off-peak / peak / batch-only / reported",
                required=True,
                enum=PRICE_KINDS,
            ),
            Column(
                "stated_end",
                "date",
                'Last day of a promotion as its source states it ("$0.75 through December 31, '
                "2026.\" -> 2026-12-31; the cell the row's source_locator names); empty where "
                "the source states no end. `valid_to` stays the spell's end from the evidence",
            ),
            Column(
                "context_tier",
                "string",
                "Context-length tier the price applies to, as the source states it: '>200k' for "
                "prompts longer than 200 thousand tokens; empty for the base (shortest) tier",
                pattern=r"^>\d+k?$",
            ),
            Column(
                "quantization",
                "string",
                "Precision the endpoint serves the model in, as the source states it, lowercased "
                "(fp8, bf16, fp4, int4, ...); empty where the source does not say",
                pattern=r"^[a-z0-9][a-z0-9._-]*$",
            ),
            Column("source_model_name", "string", "The model's name in the source", required=True),
            SOURCE,
            LOCATOR,
            *PRICE_CURATION_COLUMNS,
        ],
        # A source may state long-context tiers, and a USD and a CNY table priced separately
        # (DeepSeek), for one model, provider and day: tier and currency are part of the key.
        [
            "model_id",
            "provider",
            "date",
            "price_kind",
            "context_tier",
            "currency",
            "source_id",
            "source_model_name",
        ],
        [MODEL_FK, SOURCE_FK],
    )
)

_table(
    Table(
        "gpu_hour_prices",
        "GPU-hour prices",
        "Rental price of one accelerator for one hour.",
        [
            _id("gpu", "Canonical GPU id: h100-sxm, a100-80gb-sxm, tpu-v5e, ..."),
            Column("source_gpu_name", "string", "The GPU's name in the source", required=True),
            _id("provider", "Cloud, marketplace or index publisher"),
            Column("date", "date", "Date of the quote or index period", required=True),
            Column("pricing", "string", "Pricing type", required=True, enum=PRICING_TYPES),
            _usd("usd_per_gpu_hour", "USD per GPU-hour", required=True),
            Column(
                "statistic",
                "string",
                "What the value is: quote, median, min, p25, mean, index ...",
                required=True,
            ),
            Column("region", "string", "Region or location as the source gives it"),
            Column(
                "gpus_per_instance",
                "integer",
                "GPUs in the priced instance, where stated",
                minimum=1,
            ),
            SOURCE,
            LOCATOR,
            *GPU_CURATION_COLUMNS,
        ],
        # A source may quote one GPU at one vendor on one date several times (instance sizes):
        # the locator tells them apart. Key fields must all be required (a Frictionless rule).
        [
            "gpu",
            "provider",
            "date",
            "pricing",
            "statistic",
            "source_gpu_name",
            "source_id",
            "source_locator",
        ],
        [SOURCE_FK],
    )
)

_table(
    Table(
        "benchmark_scores",
        "Benchmark scores",
        "One score of a model on a benchmark, with the date it refers to.",
        [
            _id("model_id", "Canonical model id"),
            _id("benchmark", "Benchmark id: mmlu, mmlu-pro, gpqa-diamond, math-500, ..."),
            Column(
                "score",
                "number",
                "Score in the benchmark's unit (percent 0-100, Elo, index)",
                required=True,
            ),
            Column(
                "unit",
                "string",
                "percent / elo / index",
                required=True,
                enum=["percent", "elo", "index"],
            ),
            Column(
                "date",
                "date",
                "Date the score refers to (model release date or leaderboard date)",
                required=True,
            ),
            Column("source_model_name", "string", "The model's name in the source", required=True),
            SOURCE,
            LOCATOR,
            *CURATION_COLUMNS,
        ],
        ["model_id", "benchmark", "date", "source_id", "source_model_name"],
        [MODEL_FK, SOURCE_FK],
    )
)

_table(
    Table(
        "mlperf_results",
        "MLPerf Inference results",
        "Datacenter LLM results, throughput per system as submitted.",
        [
            Column(
                "round",
                "string",
                "MLPerf Inference round: v3.1, v4.0, v4.1, v5.1, ...",
                required=True,
            ),
            Column("date", "date", "Publication date of the round", required=True),
            Column("submitter", "string", "Submitting organisation", required=True),
            Column("system", "string", "System name as submitted", required=True),
            Column(
                "platform",
                "string",
                "Results folder of the system as submitted; unique per submitter, round and "
                "division",
                required=True,
            ),
            _id("accelerator", "Canonical accelerator id (same ids as gpu_hour_prices.gpu)"),
            Column("source_accelerator_name", "string", "Accelerator as submitted", required=True),
            Column(
                "accelerator_count",
                "integer",
                "Accelerators in the system",
                required=True,
                minimum=1,
            ),
            Column(
                "benchmark_model", "string", "Benchmark model: llama2-70b-99, ...", required=True
            ),
            Column(
                "model_run",
                "string",
                "Model actually run, where the division allows a substitute (open division); "
                "else the benchmark model's own",
                required=True,
            ),
            Column("scenario", "string", "Scenario", required=True, enum=SCENARIOS),
            Column("category", "string", "Availability category: available / preview / rdi"),
            Column("division", "string", "closed / open", required=True, enum=["closed", "open"]),
            Column(
                "tokens_per_s",
                "number",
                "Throughput of the whole system, tokens per second",
                required=True,
                minimum=0,
            ),
            SOURCE,
            LOCATOR,
        ],
        [
            "round",
            "submitter",
            "platform",
            "benchmark_model",
            "model_run",
            "scenario",
            "division",
            "source_id",
        ],
        [SOURCE_FK],
    )
)

_table(
    Table(
        "gpu_specs",
        "Accelerator specifications",
        "Specs of each accelerator, from chip data.",
        [
            _id("gpu", "Canonical GPU id"),
            Column("name", "string", "Name in the source", required=True),
            Column("manufacturer", "string", "Manufacturer"),
            Column("release_date", "date", "Release date"),
            Column("memory_gb", "number", "Memory, GB", minimum=0),
            Column("memory_bandwidth_tb_per_s", "number", "Memory bandwidth, TB/s", minimum=0),
            Column("fp32_tflop_per_s", "number", "Dense FP32 TFLOP/s", minimum=0),
            Column("tf32_tflop_per_s", "number", "Dense TF32 tensor TFLOP/s", minimum=0),
            Column("fp16_tflop_per_s", "number", "Dense FP16/BF16 tensor TFLOP/s", minimum=0),
            Column("fp8_tflop_per_s", "number", "Dense FP8 TFLOP/s", minimum=0),
            Column("int8_tops", "number", "Dense INT8 TOP/s", minimum=0),
            Column("tdp_w", "number", "Thermal design power, W", minimum=0),
            _usd("release_price_usd", "Price at release, USD"),
            SOURCE,
            LOCATOR,
        ],
        ["gpu", "source_id"],
        [SOURCE_FK],
    )
)

_table(
    Table(
        "fx_rates",
        "Exchange rates",
        "Monthly exchange rates, units of currency per US dollar.",
        [
            Column("currency", "string", "ISO currency code", required=True, enum=CURRENCIES),
            Column("month", "date", "First day of the month", required=True),
            Column("per_usd", "number", "Units of the currency per USD", required=True, minimum=0),
            SOURCE,
            LOCATOR,
        ],
        ["currency", "month"],
        [SOURCE_FK],
    )
)

_table(
    Table(
        "cpi",
        "Consumer price index",
        "CPI-U all items, U.S. city average, 1982-84 = 100, monthly.",
        [
            Column("month", "date", "First day of the month", required=True),
            Column("cpi_u", "number", "Index, 1982-84 = 100", required=True, minimum=0),
            SOURCE,
            LOCATOR,
        ],
        ["month"],
        [SOURCE_FK],
    )
)

_table(
    Table(
        "claims",
        "Claims in the news digests",
        "Every quantitative claim in the seed digests, to be checked against the data.",
        [
            _id("claim_id", "Claim id"),
            Column("claim", "string", "What is claimed, in the digest's words", required=True),
            Column("subject", "string", "What the number is about", required=True),
            Column("value", "number", "The number", required=True),
            Column("value_high", "number", "Upper end where the digest gives a range"),
            Column("unit", "string", "Unit of the number", required=True),
            Column(
                "claim_date", "date", "Date the claim refers to or was published", required=True
            ),
            Column("digest_file", "string", "Digest file name", required=True),
            Column("checkable_with", "string", "Table that can test it, or '' if none"),
            SOURCE,
            LOCATOR,
        ],
        ["claim_id"],
        [SOURCE_FK],
    )
)

_table(
    Table(
        "observations",
        "Observations",
        "Provenance of the curated rows: every source row (file, key or row) that reported the "
        "fact a curated row of token_prices, gpu_hour_prices or benchmark_scores holds, with the "
        "dates that source saw it.",
        [
            Column(
                "table",
                "string",
                "Table of the curated row",
                required=True,
                enum=["token_prices", "gpu_hour_prices", "benchmark_scores"],
            ),
            Column(
                "row_id",
                "string",
                "row_id of the curated row",
                required=True,
                pattern=ROW_ID.pattern,
            ),
            SOURCE,
            Column(
                "source_name", "string", "The model's or GPU's name in the source", required=True
            ),
            LOCATOR,
            Column("date", "date", "First date this source shows the fact", required=True),
            Column("last_seen", "date", "Last date this source shows it"),
        ],
        ["table", "row_id", "source_id", "source_locator"],
        [SOURCE_FK],
    )
)

# --- Tables of the kinds of fact the 2026-12 sources bring (sources README, Part II) ------
# Instants (DeepSeek's tariff switch at 16:00 UTC) are strings YYYY-MM-DDTHH:MM:SSZ: the
# column types have no datetime, and a date alone would lose the hour.

UTC_INSTANT = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"
OWNERSHIP = ["hyperscaler-owned", "neocloud", "3-year-rental"]
TARIFFS = ["peak", "off-peak"]
WEEKDAYS = r"^(mon|tue|wed|thu|fri|sat|sun)(;(mon|tue|wed|thu|fri|sat|sun))*$"


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
            _nonneg("index_cost_input_usd", "Of the index cost, input tokens, USD"),
            _nonneg(
                "index_cost_output_usd",
                "Of the index cost, output tokens (reasoning included), USD",
            ),
            _nonneg("index_cost_reasoning_usd", "Of the index cost, reasoning tokens, USD"),
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

_table(
    Table(
        "aa_index_runs",
        "Artificial Analysis Intelligence Index runs: tokens",
        "The tokens one run of Artificial Analysis's Intelligence Index used, per model entry and "
        "snapshot, as the leaderboard payload states them (breakdowns."
        "intelligence_index_token_counts): a real workload. What AA published the run cost, and "
        "the rates it priced it at, are in the aa_snapshots row of the same snapshot_date and "
        "aa_model_id. AA rounds each count, so output_tokens is answer_tokens + reasoning_tokens "
        "within one token.",
        [
            _req("snapshot_date", "date", "Day the leaderboard was read"),
            _req("aa_model_id", "string", "AA's id of the model entry (as in aa_snapshots)"),
            _req("source_model_name", "string", "The model's name on AA"),
            _count("input_tokens", "Input tokens of the run", required=True),
            _count("output_tokens", "Output tokens of the run, reasoning included", required=True),
            _count("answer_tokens", "Of the output tokens, the answers", required=True),
            _count("reasoning_tokens", "Of the output tokens, reasoning", required=True),
            SOURCE,
            LOCATOR,
        ],
        ["snapshot_date", "aa_model_id", "source_id"],
        [SOURCE_FK],
    )
)

TABLE_ORDER = [
    "sources",
    "models",
    "token_prices",
    "gpu_hour_prices",
    "benchmark_scores",
    "mlperf_results",
    "mlperf_training_systems",
    "mlperf_training_results",
    "inference_benchmarks",
    "tco_assumptions",
    "aa_snapshots",
    "aa_index_runs",
    "tou_windows",
    "gpu_specs",
    "fx_rates",
    "cpi",
    "claims",
    "observations",
]
assert sorted(TABLE_ORDER) == sorted(TABLES), "TABLE_ORDER must list every table"


# --- Rules beyond the column declarations above -------------------------------------------------
# Additive on purpose: new columns pick these up without their declarations changing.

# Dates before 2000 are typos in every dated table, except where history reaches further back:
# CPI (from 1913), exchange rates (from 1971) and chip release dates.
DATES_BEFORE_2000 = {"cpi": {"month"}, "fx_rates": {"month"}, "gpu_specs": {"release_date"}}
# A date this many days after the day of validation is a typo (2062 for 2026); sources do list
# scheduled prices a few weeks ahead.
FUTURE_DAYS = 366


def _date_minimums() -> None:
    for t in TABLES.values():
        for i, c in enumerate(t.columns):
            exempt = c.name in DATES_BEFORE_2000.get(t.name, set())
            if c.type == "date" and c.minimum is None and not exempt:
                t.columns[i] = replace(c, minimum=ISO_DATE_MIN)


_date_minimums()


@dataclass(frozen=True)
class Check:
    """A rule Table Schema cannot state (it spans columns), as a polars expression over the
    table's typed columns that is True where a row breaks it. `after_version`: the rule applies
    to data versions released after that one only (a released version is immutable; older ones
    that break it are reported as a note, not as a problem)."""

    table: str
    column: str  # the column the problem is reported in
    rule: str
    bad: Callable[[], pl.Expr]
    after_version: str | None = None
    needs: tuple[str, ...] = ()  # other columns it reads (absent in an older release: null)


PERCENT_SCORE = "percent"
CHECKS: list[Check] = [
    Check(
        "benchmark_scores",
        "score",
        "constraint-error: percent: a score in percent must be within 0-100",
        lambda: (pl.col("unit") == PERCENT_SCORE) & ~pl.col("score").is_between(0, 100),
    ),
    Check(
        "gpu_hour_prices",
        "usd_per_gpu_hour",
        "constraint-error: exclusiveMinimum: a GPU-hour price must be above $0.00 (a zero is a "
        "missing or unavailable quote, not a price) unless the row is flagged zero_not_offered",
        # Curated releases keep a source's zero quotes, flagged, with their provenance.
        lambda: (
            (pl.col("usd_per_gpu_hour") <= 0)
            & ~pl.col("flags").fill_null("").str.contains("zero_not_offered", literal=True)
        ),
        # 2026-11-30 holds 66 RunPod zero quotes (runpod_daily.csv, secure cloud, 2026-07/08).
        after_version="2026-11-30",
        needs=("flags",),
    ),
    Check(
        "aa_index_runs",
        "output_tokens",
        "constraint-error: sum: output_tokens must be answer_tokens + reasoning_tokens (within "
        "the one token AA's rounding of each count leaves)",
        lambda: (
            (pl.col("output_tokens") - pl.col("answer_tokens") - pl.col("reasoning_tokens")).abs()
            > 1
        ),
    ),
    Check(
        "token_prices",
        "stated_end",
        "constraint-error: stated_end: a stated end belongs to a promotional price and is not "
        "before its date",
        lambda: (
            pl.col("stated_end").is_not_null()
            & ((pl.col("price_kind") != "promotional") | (pl.col("stated_end") < pl.col("date")))
        ),
        after_version="2026-12-03.2",
        needs=("stated_end",),
    ),
]


def checks_for(table: str) -> list[Check]:
    return [c for c in CHECKS if c.table == table]
