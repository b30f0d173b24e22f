"""OpenRouter (sui414 scrape) importer: per-token -> per-1M, variants, per-provider endpoints."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import openrouter

MODEL_HEADER_LINE = (
    "scrape_date,scraped_at,id,model_slug,variant,permaslug,canonical_slug,name,author,created_at,"
    "context_length,modality,tokenizer,prompt_price,completion_price,cache_read_price,cache_write_price,"
    "image_price,request_price,is_moderated,knowledge_cutoff,aa_intelligence,aa_coding,aa_agentic,headliner_json"
)
ENDPOINT_HEADER_LINE = (
    "scrape_date,scraped_at,model_slug,permaslug,variant,endpoint_id,endpoint_name,provider_name,"
    "provider_slug,provider_display_name,provider_region,quantization,context_length,"
    "max_completion_tokens,max_prompt_tokens,price_prompt,price_completion,price_cache_read,"
    "price_cache_write,price_image,price_request,price_web_search,price_internal_reasoning,discount,"
    "is_free,is_byok,is_hidden,is_disabled,is_deranked,status,p50_throughput,p50_latency,pricing_json"
)
# The header lines as in the public files (endpoints: the columns used, in file order).
MODEL_HEADER = MODEL_HEADER_LINE.split(",")
ENDPOINT_HEADER = ENDPOINT_HEADER_LINE.split(",")
DAY = "2026-08-08"


def _model(
    model_id: str, prompt: str, completion: str, modality: str = "text->text", cached: str = ""
) -> dict:
    slug, _, variant = model_id.partition(":")
    return {
        "scrape_date": DAY,
        "scraped_at": f"{DAY}T15:31:24+00:00",
        "id": model_id,
        "model_slug": slug,
        "variant": variant or "standard",
        "permaslug": slug,
        "canonical_slug": slug,
        "name": slug,
        "modality": modality,
        "prompt_price": prompt,
        "completion_price": completion,
        "cache_read_price": cached,
        "aa_intelligence": "58.1",
    }


def _endpoint(model: str, provider: str, prompt: str, completion: str, **extra: str) -> dict:
    slug, _, variant = model.partition(":")
    row = {
        "scrape_date": DAY,
        "model_slug": slug,
        "permaslug": slug,
        "variant": variant or "standard",
        "provider_slug": provider,
        "provider_name": provider.title(),
        "price_prompt": prompt,
        "price_completion": completion,
        "discount": "0",
        "is_free": str(variant == "free"),
        "quantization": "fp8",
    }
    return {**row, **extra}


def _write_csv(path: Path, header: list[str], rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=header, restval="")
        writer.writeheader()
        writer.writerows(rows)
    return path


MODELS = [
    _model("meta-llama/llama-3.3-70b-instruct", "0.0000001", "0.00000032"),
    _model("meta-llama/llama-3.3-70b-instruct:free", "0", "0"),
    _model(
        "anthropic/claude-sonnet-5",
        "0.000002",
        "0.00001",
        "text+image+file->text",
        cached="0.0000002",
    ),
    _model("anthropic/claude-sonnet-5:batch", "0.000001", "0.000005", "text+image+file->text"),
    _model("google/gemini-3-pro-image", "0.000002", "0.000012", "text+image->text+image"),
    _model("openrouter/auto", "-1", "-1", "text+image+file+audio+video->text+image"),
    _model("~anthropic/claude-sonnet-latest", "0.000002", "0.00001"),
]

ENDPOINTS = [
    _endpoint("meta-llama/llama-3.3-70b-instruct", "deepinfra/turbo", "0.0000001", "0.00000032"),
    _endpoint(
        "meta-llama/llama-3.3-70b-instruct",
        "together",
        "0.00000104",
        "0.00000104",
        quantization="unknown",
    ),
    _endpoint(
        "meta-llama/llama-3.3-70b-instruct",
        "sambanova",
        "0.00000045",
        "0.0000009",
        discount="0.25",
        quantization="BF16",
    ),
    _endpoint("meta-llama/llama-3.3-70b-instruct:free", "darkbloom", "0", "0"),
    _endpoint(
        "anthropic/claude-sonnet-5",
        "anthropic",
        "0.000002",
        "0.00001",
        price_cache_read="0.0000002",
        price_cache_write="0.0000025",
    ),
    _endpoint("anthropic/claude-sonnet-5:batch", "anthropic", "0.000001", "0.000005"),
    _endpoint(
        "anthropic/claude-sonnet-5",
        "amazon-bedrock",
        "0.0000022",
        "0.000011",
        provider_region="eu-west-1",
        quantization="bf16",
    ),
    _endpoint(
        "anthropic/claude-sonnet-5", "amazon-bedrock", "0.000002", "0.00001", quantization=""
    ),
    _endpoint("anthropic/claude-sonnet-5", "google-vertex/europe", "0.0000022", "0.000011"),
    _endpoint("openai/text-embedding-3-small", "openai", "0.00000002", "0"),
]


@pytest.fixture
def scrape(tmp_path: Path) -> Path:
    base = "openrouter-sui414/2026-08-08_HEAD/data/csv"
    files = {
        f"{base}/models/date={DAY}.csv": (MODEL_HEADER, MODELS),
        f"{base}/endpoints/date={DAY}.csv": (ENDPOINT_HEADER, ENDPOINTS),
    }
    lines = ["file\trepo\tcommit\tcommit_date\tpath_in_repo\tbytes\tsha256"]
    for rel, (header, rows) in files.items():
        _write_csv(tmp_path / rel, header, rows)
        lines.append(
            f"{rel}\tsui414/openrouter-pricing-data\tabcdef1234567890\t{DAY}\t{rel.split('_HEAD/', 1)[1]}\t0\t-"
        )
    (tmp_path / "openrouter-sui414/_PROVENANCE.tsv").write_text(
        "\n".join(lines) + "\n", encoding="utf-8"
    )
    return tmp_path


def _get(prices: pl.DataFrame, name: str, provider: str) -> dict:
    [row] = prices.filter(
        (pl.col("source_model_name") == name) & (pl.col("provider") == provider)
    ).to_dicts()
    return row


def test_openrouter_list_price_is_converted_to_usd_per_million_exactly(scrape):
    prices = openrouter.build(scrape)["token_prices"]
    row = _get(prices, "meta-llama/llama-3.3-70b-instruct", "openrouter")
    assert (row["input_usd_per_mtok"], row["output_usd_per_mtok"]) == (0.1, 0.32)
    assert (row["date"], row["last_seen"], row["price_kind"]) == (
        dt.date(2026, 8, 8),
        dt.date(2026, 8, 8),
        "list",
    )
    assert row["model_hint"] == "llama-3.3-70b-instruct"
    assert (
        row["source_locator"]
        == f"openrouter-sui414/2026-08-08_HEAD/data/csv/models/date={DAY}.csv@abcdef123456#row 1"
    )


def test_free_variant_is_promotional_and_batch_fills_the_batch_columns(scrape):
    prices = openrouter.build(scrape)["token_prices"]
    free = _get(prices, "meta-llama/llama-3.3-70b-instruct:free", "openrouter")
    assert (free["price_kind"], free["input_usd_per_mtok"], free["model_hint"]) == (
        "promotional",
        0.0,
        "llama-3.3-70b-instruct",
    )
    sonnet = _get(prices, "anthropic/claude-sonnet-5", "openrouter")
    assert (sonnet["input_usd_per_mtok"], sonnet["cached_input_usd_per_mtok"]) == (2.0, 0.2)
    assert (sonnet["batch_input_usd_per_mtok"], sonnet["batch_output_usd_per_mtok"]) == (1.0, 5.0)
    assert sonnet["source_locator"].endswith("#row 3 (batch: row 4)")


def test_router_aliases_and_non_text_models_are_left_out(scrape):
    names = set(openrouter.build(scrape)["token_prices"]["source_model_name"])
    assert (
        not {"openrouter/auto", "~anthropic/claude-sonnet-latest", "google/gemini-3-pro-image"}
        & names
    )
    assert "openai/text-embedding-3-small" not in names  # endpoint of a model not in the chat list


def test_every_upstream_provider_keeps_its_own_row(scrape):
    prices = openrouter.build(scrape)["token_prices"].filter(pl.col("provider") != "openrouter")
    llama = prices.filter(pl.col("source_model_name") == "meta-llama/llama-3.3-70b-instruct")
    assert dict(llama.select("provider", "input_usd_per_mtok").rows()) == {
        "deepinfra-turbo": 0.1,
        "together": 1.04,
        "sambanova": 0.45,
    }
    assert (
        _get(prices, "meta-llama/llama-3.3-70b-instruct", "sambanova")["price_kind"]
        == "promotional"
    )
    assert (
        _get(prices, "meta-llama/llama-3.3-70b-instruct:free", "darkbloom")["price_kind"]
        == "promotional"
    )


def test_provider_endpoints_keep_the_cheapest_region_and_merge_batch(scrape):
    prices = openrouter.build(scrape)["token_prices"].filter(
        pl.col("source_model_name") == "anthropic/claude-sonnet-5"
    )
    bedrock = _get(prices, "anthropic/claude-sonnet-5", "bedrock")
    assert (bedrock["input_usd_per_mtok"], bedrock["source_locator"][-5:]) == (2.0, "row 8")
    assert (
        _get(prices, "anthropic/claude-sonnet-5", "google-vertex-europe")["input_usd_per_mtok"]
        == 2.2
    )
    anthropic = _get(prices, "anthropic/claude-sonnet-5", "anthropic")
    assert (anthropic["batch_input_usd_per_mtok"], anthropic["cached_input_usd_per_mtok"]) == (
        1.0,
        0.2,
    )


def test_endpoint_quantization_is_the_stated_precision_lowercased_and_null_where_unstated(scrape):
    prices = openrouter.build(scrape)["token_prices"]
    llama = prices.filter(pl.col("source_model_name") == "meta-llama/llama-3.3-70b-instruct")
    assert dict(llama.select("provider", "quantization").rows()) == {
        "deepinfra-turbo": "fp8",
        "together": None,  # "unknown" in the file
        "sambanova": "bf16",  # "BF16"
        "openrouter": None,  # OpenRouter's own listing states no precision
    }
    # The cheapest Bedrock endpoint is kept with its own (empty) precision, not the dearer bf16.
    assert _get(prices, "anthropic/claude-sonnet-5", "bedrock")["quantization"] is None
    assert prices.columns.index("quantization") == prices.columns.index("context_tier") + 1


def test_bad_quantization_names_file_row_and_column(tmp_path):
    rows = [
        _endpoint("meta-llama/llama-3.3-70b-instruct", "together", "0", "0", quantization="8 bit")
    ]
    path = _write_csv(tmp_path / f"date={DAY}.csv", ENDPOINT_HEADER, rows)
    with pytest.raises(DataError, match=r"row 1, column 'quantization': value '8 bit'"):
        openrouter.parse_endpoints_csv(path, {("meta-llama/llama-3.3-70b-instruct", "standard")})


def test_bad_price_names_file_row_and_column(tmp_path):
    rows = [_model("meta-llama/llama-3.3-70b-instruct", "0.0000001", "n/a")]
    path = _write_csv(tmp_path / f"date={DAY}.csv", MODEL_HEADER, rows)
    with pytest.raises(
        DataError, match=r"date=2026-08-08.csv, row 1, column 'completion_price': value 'n/a'"
    ):
        openrouter.parse_models_csv(path)


@pytest.mark.parametrize("column", ["discount", "quantization"])
def test_missing_column_is_an_error(tmp_path, column):
    path = _write_csv(tmp_path / f"date={DAY}.csv", [c for c in ENDPOINT_HEADER if c != column], [])
    with pytest.raises(DataError, match=rf"column '{column}'.*missing"):
        openrouter.parse_endpoints_csv(path, set())


@pytest.mark.sources
def test_real_scrape_gives_provider_dispersion_for_open_models(sources_dir):
    prices = openrouter.build(sources_dir)["token_prices"]
    key = ["source_model_name", "provider", "date", "price_kind"]
    assert not prices.select(key).is_duplicated().any()
    own = prices.filter(pl.col("provider") == "openrouter")
    assert set(own["date"]) == {dt.date(2026, 7, 17), dt.date(2026, 8, 8)}
    assert own.filter(pl.col("date") == dt.date(2026, 8, 8)).height > 300
    upstream = prices.filter(
        (pl.col("provider") != "openrouter") & (pl.col("price_kind") == "list")
    )
    per_model = upstream.group_by("source_model_name").agg(pl.col("provider").n_unique().alias("n"))
    assert per_model.filter(pl.col("source_model_name") == "openai/gpt-oss-120b")["n"].item() >= 10
    assert per_model.filter(pl.col("n") >= 5).height >= 40
    assert upstream["provider"].n_unique() >= 80
    stated = set(upstream["quantization"].drop_nulls())
    assert {"fp8", "bf16", "fp4", "int4"} <= stated and "unknown" not in stated
    assert own["quantization"].null_count() == own.height


def test_an_endpoints_cache_write_price_is_its_own_column_and_null_where_unstated(scrape):
    prices = openrouter.build(scrape)["token_prices"]
    row = _get(prices, "anthropic/claude-sonnet-5", "anthropic")
    assert (row["cached_input_usd_per_mtok"], row["cache_write_usd_per_mtok"]) == (0.2, 2.5)
    other = _get(prices, "meta-llama/llama-3.3-70b-instruct", "openrouter")
    assert other["cache_write_usd_per_mtok"] is None
