"""Claims and reported prices from the two news digests the project started from.

The digests (`seeds/000_ca50ba5f6b81128b.txt`, dated 2026-09-27, and
`seeds/003_f9b90635183e6400.txt`, dated 2026-09-13) are AI-written news summaries: their numbers
are claims to be checked against the other data, never facts. Each claim below quotes the
digest verbatim; the build finds the quote in the file (its line number becomes the locator)
and checks that the number is written in the quote, so a claim cannot drift from its text.

Reported prices: the digests' per-model prices become `token_prices` rows with the digest as
source, dated by the event date the digest gives, else the digest's date:
  - Opus 5.5 ($4 / $20) and GPT-6 Sol ($2 / $10): price_kind "reported".
  - GLM-5.3-Flash, about CNY 0.13 per million tokens, "time-limited 50% off": "promotional",
    input/output unspecified, so kept as an unspecified price in CNY (blend "unknown").
  - DeepSeek Flash idle-time calls at 1 CNY per million tokens (2026-09-10): "off-peak",
    input/output unspecified. The digest's own "~$0.14" conversion is kept as a claim only.
Claims with no number (e.g. "doubles") keep the word as written in `value_text`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.importers.common import frame

DIGESTS = {
    "000_ca50ba5f6b81128b.txt": ("digest-2026-09-27", "2026-09-27"),
    "003_f9b90635183e6400.txt": ("digest-2026-09-13", "2026-09-13"),
}

SOURCES = [
    {
        "source_id": sid,
        "title": f"Inference Efficiency: MLPerf, Tokens per Dollar, Hardware (news digest, {day})",
        "publisher": "Crew (AI-written news digest)",
        "url": f"seeds/{name}",
        "licence": "none stated",
        "retrieved": day,
        "notes": "AI-collected and AI-summarised news; the digest itself warns it may contain inaccuracies. Claims, not facts.",
    }
    for name, (sid, day) in DIGESTS.items()
]


@dataclass(frozen=True)
class Claim:
    claim_id: str
    digest: str
    quote: str  # verbatim from the digest
    subject: str
    value: float
    unit: str
    claim_date: str
    value_text: str  # how the value is written in the quote
    value_high: float | None = None
    checkable_with: str = ""


D27, D13 = "000_ca50ba5f6b81128b.txt", "003_f9b90635183e6400.txt"

CLAIMS = [
    Claim(
        "mlperf-training-v61-rl-params",
        D27,
        "a 397B-parameter agentic RL workload run on 256 Blackwell Ultra GPUs",
        "Parameters of the model in MLPerf Training v6.1's RL benchmark",
        397,
        "billion parameters",
        "2026-09-27",
        "397B",
    ),
    Claim(
        "mlperf-training-v61-rl-gpus",
        D27,
        "a 397B-parameter agentic RL workload run on 256 Blackwell Ultra GPUs",
        "GPUs in the MLPerf Training v6.1 RL reference run",
        256,
        "GPUs",
        "2026-09-27",
        "256",
    ),
    Claim(
        "opus-5.5-input-price",
        D27,
        "Opus 5.5: $4 input / $20 output per 1M tokens",
        "Opus 5.5 input price",
        4,
        "USD per 1M input tokens",
        "2026-09-27",
        "$4",
        checkable_with="token_prices",
    ),
    Claim(
        "opus-5.5-output-price",
        D27,
        "Opus 5.5: $4 input / $20 output per 1M tokens",
        "Opus 5.5 output price",
        20,
        "USD per 1M output tokens",
        "2026-09-27",
        "$20",
        checkable_with="token_prices",
    ),
    Claim(
        "gpt-6-sol-input-price",
        D27,
        "GPT-6 Sol: $2 / $10 per 1M tokens",
        "GPT-6 Sol input price",
        2,
        "USD per 1M input tokens",
        "2026-09-27",
        "$2",
        checkable_with="token_prices",
    ),
    Claim(
        "gpt-6-sol-output-price",
        D27,
        "GPT-6 Sol: $2 / $10 per 1M tokens",
        "GPT-6 Sol output price",
        10,
        "USD per 1M output tokens",
        "2026-09-27",
        "$10",
        checkable_with="token_prices",
    ),
    Claim(
        "open-model-provider-spread",
        D27,
        "the same open model can cost 9x more on one inference provider than another",
        "Price ratio between providers of one open model",
        9,
        "ratio (max/min)",
        "2026-09-27",
        "9x",
        checkable_with="token_prices",
    ),
    Claim(
        "deepseek-raise",
        D27,
        "$7.5B raise (Weibo-reported, unconfirmed by the company)",
        "DeepSeek financing round",
        7.5,
        "billion USD",
        "2026-09-25",
        "$7.5B",
    ),
    Claim(
        "deepseek-revenue-before",
        D27,
        "DeepSeek annualized revenue reportedly rose from <$500M to ~$1B",
        "DeepSeek annualized revenue, before",
        500,
        "million USD (upper bound)",
        "2026-09-25",
        "<$500M",
    ),
    Claim(
        "deepseek-revenue-after",
        D27,
        "DeepSeek annualized revenue reportedly rose from <$500M to ~$1B",
        "DeepSeek annualized revenue, after",
        1,
        "billion USD (approximate)",
        "2026-09-25",
        "~$1B",
    ),
    Claim(
        "deepseek-api-price-rise",
        D27,
        "API prices recently raised 2.3–4.5x",
        "DeepSeek API price increase",
        2.3,
        "factor",
        "2026-09-25",
        "2.3–4.5x",
        value_high=4.5,
        checkable_with="token_prices",
    ),
    Claim(
        "deepseek-2t-model",
        D27,
        "is training a 2-trillion-parameter model",
        "Parameters of DeepSeek's model in training",
        2,
        "trillion parameters",
        "2026-09-23",
        "2-trillion",
    ),
    Claim(
        "epoch-fixed-capability-decline",
        D27,
        "the cost of inference for fixed AI capability falls roughly 13x per year",
        "Decline of the price of a fixed capability (attributed to Epoch)",
        13,
        "factor per year",
        "2026-09-27",
        "13x",
        checkable_with="token_prices;benchmark_scores",
    ),
    Claim(
        "glm-5.3-flash-price",
        D27,
        "GLM-5.3-Flash at about ¥0.13 per million tokens (time-limited 50% off)",
        "Zhipu GLM-5.3-Flash promotional price",
        0.13,
        "CNY per 1M tokens",
        "2026-09-27",
        "¥0.13",
        checkable_with="token_prices",
    ),
    Claim(
        "agent-bill-output-share",
        D27,
        "output and reasoning tokens are ~60% of the bill",
        "Share of an agent workload's bill from output and reasoning tokens",
        60,
        "percent",
        "2026-09-27",
        "~60%",
    ),
    Claim(
        "opus-5-vs-grok-4.6-cost",
        D27,
        "Opus 5 cost 3.6x Grok 4.6",
        "Cost of Opus 5 relative to Grok 4.6 on one agent workload",
        3.6,
        "ratio",
        "2026-09-27",
        "3.6x",
    ),
    Claim(
        "gpt-4-equivalent-price-2022",
        D27,
        "GPT-4-equivalent inference fell from ~$20/M tokens (late 2022) to ~$0.40/M tokens",
        "Price of GPT-4-equivalent inference, late 2022",
        20,
        "USD per 1M tokens",
        "2022-12-31",
        "~$20/M",
        checkable_with="token_prices;benchmark_scores",
    ),
    Claim(
        "gpt-4-equivalent-price-now",
        D27,
        "GPT-4-equivalent inference fell from ~$20/M tokens (late 2022) to ~$0.40/M tokens",
        "Price of GPT-4-equivalent inference, 2026",
        0.40,
        "USD per 1M tokens",
        "2026-09-27",
        "~$0.40/M",
        checkable_with="token_prices;benchmark_scores",
    ),
    Claim(
        "h100-cloud-price-settled",
        D27,
        "H100 cloud prices stabilized at $2.85–3.50/hr after a 64–75% drawdown",
        "H100 cloud price after the drawdown",
        2.85,
        "USD per GPU-hour",
        "2026-09-27",
        "$2.85–3.50/hr",
        value_high=3.50,
        checkable_with="gpu_hour_prices",
    ),
    Claim(
        "h100-cloud-price-drawdown",
        D27,
        "H100 cloud prices stabilized at $2.85–3.50/hr after a 64–75% drawdown",
        "H100 cloud price drawdown from peak",
        64,
        "percent",
        "2026-09-27",
        "64–75%",
        value_high=75,
        checkable_with="gpu_hour_prices",
    ),
    Claim(
        "gemini-3.8-flash-price-doubling",
        D27,
        "Gemini 3.8 Flash is scheduled to double in price on January 1, 2027",
        "Scheduled price change of Gemini 3.8 Flash",
        2,
        "factor",
        "2027-01-01",
        "double",
        checkable_with="token_prices",
    ),
    Claim(
        "deepseek-flash-idle-price-cny",
        D13,
        "Idle-time calls for Flash models are now priced at 1 CNY (~$0.14) per million tokens",
        "DeepSeek Flash off-peak price",
        1,
        "CNY per 1M tokens",
        "2026-09-10",
        "1 CNY",
        checkable_with="token_prices;fx_rates",
    ),
    Claim(
        "deepseek-flash-idle-price-usd",
        D13,
        "Idle-time calls for Flash models are now priced at 1 CNY (~$0.14) per million tokens",
        "DeepSeek Flash off-peak price, digest's USD conversion",
        0.14,
        "USD per 1M tokens",
        "2026-09-10",
        "~$0.14",
        checkable_with="fx_rates",
    ),
    Claim(
        "deepseek-v4-pro-peak-multiple",
        D27,
        "DeepSeek V4 Pro, which doubles rates in two UTC windows",
        "DeepSeek V4 Pro peak rate relative to its off-peak rate",
        2,
        "factor",
        "2026-09-27",
        "doubles",
        checkable_with="token_prices;tou_windows",
    ),
    Claim(
        "deepseek-v4-pro-peak-windows",
        D27,
        "DeepSeek V4 Pro, which doubles rates in two UTC windows",
        "Daily peak-rate windows of DeepSeek V4 Pro",
        2,
        "windows per day",
        "2026-09-27",
        "two",
        checkable_with="tou_windows",
    ),
    Claim(
        "deepseek-batch-routing-saving",
        D27,
        "batch-routing can reportedly halve bills on DeepSeek V4 Pro",
        "Saving from routing batch work on DeepSeek V4 Pro into off-peak hours",
        50,
        "percent of the bill",
        "2026-09-27",
        "halve",
        checkable_with="token_prices;tou_windows",
    ),
    Claim(
        "deepseek-revenue-10x",
        D27,
        "DeepSeek training pivot to Huawei Ascend, $7.5B raise and 10x revenue jump",
        "DeepSeek revenue growth (the digest's headline)",
        10,
        "factor",
        "2026-09-27",
        "10x",
    ),
    Claim(
        "glm-5.3-flash-discount",
        D27,
        "GLM-5.3-Flash at about ¥0.13 per million tokens (time-limited 50% off)",
        "Zhipu GLM-5.3-Flash promotional discount",
        50,
        "percent off",
        "2026-09-27",
        "50%",
        checkable_with="token_prices",
    ),
    Claim(
        "cisco-first-multivendor-mlperf",
        D27,
        "Cisco also published the industry's first multi-vendor heterogeneous MLPerf Inference "
        "submission",
        "Cisco's mixed-vendor MLPerf Inference submission, the first of its kind",
        1,
        "rank (first)",
        "2026-09-27",
        "first",
        checkable_with="mlperf_results",
    ),
    Claim(
        "tpu-v7-perf-per-dollar",
        D13,
        "Google TPUv7 Ironwood offers up to 50% better performance per dollar than NVIDIA B200/B300",
        "TPUv7 Ironwood performance per dollar advantage over B200/B300",
        50,
        "percent (up to)",
        "2026-09-13",
        "50%",
        checkable_with="gpu_hour_prices;mlperf_results",
    ),
    Claim(
        "coreweave-mlperf-v6.0-gain",
        D13,
        "The company reported doubling inference performance compared to previous generations",
        "CoreWeave MLPerf Inference v6.0 gain over previous generations",
        2,
        "factor",
        "2026-09-10",
        "doubling",
        checkable_with="mlperf_results",
    ),
    Claim(
        "anthropic-openai-cuts-hours-apart",
        D27,
        "Anthropic and OpenAI slash inference prices within hours of each other",
        "Days between Anthropic's and OpenAI's price cuts (Opus 5.5, GPT-6 Sol)",
        1,
        "days apart (within hours: under one day)",
        "2026-09-27",
        "within hours",
        checkable_with="token_prices",
    ),
    Claim(
        "sub-cent-token-rates",
        D13,
        "some services now offering rates below 1 cent per million tokens",
        "Lowest token rates offered",
        0.01,
        "USD per 1M tokens (upper bound)",
        "2026-09-13",
        "1 cent",
        checkable_with="token_prices",
    ),
]


@dataclass(frozen=True)
class ReportedPrice:
    claim_ids: tuple[str, ...]
    model: str  # name as the digest writes it
    organization: str
    provider: str
    date: str
    price_kind: str
    currency: str
    input: float | None = None
    output: float | None = None
    unspecified: float | None = None  # a price "per million tokens" without input/output


REPORTED_PRICES = [
    ReportedPrice(
        ("opus-5.5-input-price", "opus-5.5-output-price"),
        "Opus 5.5",
        "Anthropic",
        "anthropic",
        "2026-09-27",
        "reported",
        "USD",
        4,
        20,
    ),
    ReportedPrice(
        ("gpt-6-sol-input-price", "gpt-6-sol-output-price"),
        "GPT-6 Sol",
        "OpenAI",
        "openai",
        "2026-09-27",
        "reported",
        "USD",
        2,
        10,
    ),
    ReportedPrice(
        ("glm-5.3-flash-price",),
        "GLM-5.3-Flash",
        "Zhipu AI",
        "zhipu",
        "2026-09-27",
        "promotional",
        "CNY",
        unspecified=0.13,
    ),
    ReportedPrice(
        ("deepseek-flash-idle-price-cny",),
        "DeepSeek Flash",
        "DeepSeek",
        "deepseek",
        "2026-09-10",
        "off-peak",
        "CNY",
        unspecified=1,
    ),
]


def find_line(path: Path, quote: str) -> int:
    """1-based line of the quote in the digest; an error if the digest does not say it."""
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if quote in line:
            return n
    raise fail(path, None, "quote", quote, "the digest does not contain this text")


def claim_rows(seeds_dir: Path, claims: list[Claim] = CLAIMS) -> list[dict]:
    rows = []
    for c in claims:
        if c.value_text not in c.quote:
            raise fail(
                f"analysis/importers/digests.py ({c.claim_id})",
                None,
                "value_text",
                c.value_text,
                "must appear in the quote",
            )
        path = seeds_dir / c.digest
        line = find_line(path, c.quote)
        source_id, _ = DIGESTS[c.digest]
        rows.append(
            {
                "claim_id": c.claim_id,
                "claim": c.quote,
                "subject": c.subject,
                "value": c.value,
                "value_high": c.value_high,
                "unit": c.unit,
                "claim_date": c.claim_date,
                "digest_file": c.digest,
                "checkable_with": c.checkable_with,
                "source_id": source_id,
                "source_locator": f"seeds/{c.digest}#line {line}",
            }
        )
    return rows


def price_rows(claims: list[dict]) -> tuple[list[dict], list[dict]]:
    by_id = {c["claim_id"]: c for c in claims}
    prices, info = [], []
    for p in REPORTED_PRICES:
        first = by_id[p.claim_ids[0]]
        usd = p.currency == "USD"
        prices.append(
            {
                "provider": p.provider,
                "date": p.date,
                "input_usd_per_mtok": p.input if usd else None,
                "output_usd_per_mtok": p.output if usd else None,
                "blend": "unknown" if p.unspecified is not None else None,
                "currency": p.currency,
                "input_original_per_mtok": p.input,
                "output_original_per_mtok": p.output,
                "blended_original_per_mtok": p.unspecified,
                "price_kind": p.price_kind,
                "source_model_name": p.model,
                "source_id": first["source_id"],
                "source_locator": first["source_locator"],
                "model_hint": p.model.lower().replace(" ", "-"),
            }
        )
        info.append(
            {
                "source_id": first["source_id"],
                "source_model_name": p.model,
                "model_hint": p.model.lower().replace(" ", "-"),
                "name": p.model,
                "organization": p.organization,
                "source_locator": first["source_locator"],
            }
        )
    return prices, info


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    seeds_dir = Path(sources_dir).parent / "seeds"
    claims = claim_rows(seeds_dir)
    prices, info = price_rows(claims)
    return {
        "claims": frame("claims", claims).sort("claim_id"),
        "token_prices": frame("token_prices", prices, drop=("model_id", "first_party")),
        "model_info": pl.DataFrame(info),
    }
