"""The columns of token-price runs as the spell tests write them by hand (the importers' rows
before curation), shared by the spell tests and the column-walk tests.

Importable as `price_runs`: pytest puts tests/ on the path (pyproject.toml)."""

from __future__ import annotations

import polars as pl

SCHEMA = {
    "model_id": pl.String, "provider": pl.String, "price_kind": pl.String,
    "context_tier": pl.String, "quantization": pl.String, "offer": pl.String, "region": pl.String,
    "currency": pl.String, "date": pl.Date, "last_seen": pl.Date,
    "input_usd_per_mtok": pl.Float64, "output_usd_per_mtok": pl.Float64,
    "blended_usd_per_mtok": pl.Float64, "input_original_per_mtok": pl.Float64,
    "output_original_per_mtok": pl.Float64, "blended_original_per_mtok": pl.Float64,
    "cached_input_usd_per_mtok": pl.Float64, "batch_input_usd_per_mtok": pl.Float64,
    "batch_output_usd_per_mtok": pl.Float64, "source_id": pl.String,
    "source_model_name": pl.String, "source_locator": pl.String,
}  # fmt: skip


def runs(rows: list[dict], model: str = "o3", provider: str = "openai") -> pl.DataFrame:
    """Runs of one model at one seller (list price, standard tier, USD) unless a row says
    otherwise; a row without a locator gets `<source_id>#<row>`."""
    base = {c: None for c in SCHEMA} | {
        "model_id": model,
        "provider": provider,
        "price_kind": "list",
        "context_tier": "",
        "currency": "USD",
        "source_model_name": model,
    }
    out = []
    for i, r in enumerate(rows):
        row = base | r
        row["source_locator"] = row["source_locator"] or f"{row['source_id']}#{i}"
        out.append(row)
    return pl.DataFrame(out, schema=SCHEMA)
