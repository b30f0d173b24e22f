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
