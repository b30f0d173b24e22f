"""The AI Index's "280-fold": the price of GPT-3.5-level performance on MMLU, then and now.

Stanford HAI's AI Index Report 2025, from Epoch AI's data: the cheapest model scoring at least
GPT-3.5's MMLU score cost $20 per million tokens in November 2022 and $0.07 (Gemini-1.5-Flash-8B)
in October 2024, a more than 280-fold fall. Those are the two ends of Epoch's staircase at
GPT-3.5's score (`fixed_capability.staircase`): walk the models in date order and keep each one
that scores at least the threshold and is cheaper than every earlier one.

Three comparisons, each (first step, last step up to an end date):

- "AI Index window, Epoch's rows": Epoch's own rows (`fixed_capability.epoch_observations`, 3:1
  blend, reasoning models out), threshold = GPT-3.5's MMLU score there (64.8), through
  October 2024. This is the reproduction.
- "AI Index window, full data": the same through October 2024 on every source
  (`fixed_capability.full_observations`: 3:1 blend, first-party else the median across
  providers, each model's median score), threshold = gpt-3.5's score there.
- "to the newest data, full data": the same with no end date: the cheapest model at GPT-3.5's
  level as of the newest price in the data.

The fall is also given per year, fold ** (365 / days between the two steps).
"""

from __future__ import annotations

from datetime import date

import polars as pl

from analysis.methods import fixed_capability as fc

# What the AI Index Report 2025 states (as quoted in the book's issue 13; the report itself is
# not among the project's sources).
PUBLISHED = {
    "start_price": 20.0,  # USD per 1M tokens, November 2022
    "start_month": "2022-11",
    "end_price": 0.07,  # USD per 1M tokens, October 2024
    "end_month": "2024-10",
    "end_model": "Gemini-1.5-Flash-8B",
    "fold": 280.0,  # "more than 280-fold"
}
AI_INDEX_END = date(2024, 10, 31)
EPOCH_MODEL = "GPT-3.5"  # the threshold model, as Epoch's rows name it
FULL_MODEL = "gpt-3.5"  # and as the book's model ids do

SCHEMA = {
    "comparison": pl.String,
    "observations": pl.String,
    "threshold_model": pl.String,
    "threshold_score": pl.Float64,
    "through": pl.Date,
    "start_model": pl.String,
    "start_date": pl.Date,
    "start_price": pl.Float64,
    "end_model": pl.String,
    "end_date": pl.Date,
    "end_price": pl.Float64,
    "steps": pl.Int64,
    "fold": pl.Float64,
    "factor_per_year": pl.Float64,
}


def threshold_score(obs: pl.DataFrame, model: str) -> float:
    scores = obs.filter(pl.col("model") == model)["score"].unique()
    if scores.len() != 1:
        raise ValueError(f"{model} must have exactly one MMLU score, found {scores.to_list()}")
    return float(scores[0])


def fall(obs: pl.DataFrame, threshold: float, through: date | None = None) -> dict:
    """First and last step of the staircase at `threshold` (up to `through`), and the fold."""
    steps = fc.staircase(obs, threshold)
    if through is not None:
        steps = steps.filter(pl.col("date") <= through)
    if steps.height < 2:
        raise ValueError(f"the staircase at {threshold:g} has {steps.height} step(s), needs 2")
    first, last = steps.row(0, named=True), steps.row(-1, named=True)
    fold = first["price"] / last["price"]
    days = (last["date"] - first["date"]).days
    return {
        "start_model": first["model"],
        "start_date": first["date"],
        "start_price": first["price"],
        "end_model": last["model"],
        "end_date": last["date"],
        "end_price": last["price"],
        "steps": steps.height,
        "fold": fold,
        "factor_per_year": fold ** (365 / days),
    }


def comparisons(
    token_prices: pl.DataFrame, scores: pl.DataFrame, models: pl.DataFrame
) -> pl.DataFrame:
    """The three comparisons of the module docstring, one row each (SCHEMA)."""
    epoch = fc.epoch_observations(token_prices, scores, models, "mmlu")
    full = fc.full_observations(token_prices, scores, models, "mmlu")
    rows = []
    for name, label, obs, model, through in (
        ("AI Index window, Epoch's rows", "epoch", epoch, EPOCH_MODEL, AI_INDEX_END),
        ("AI Index window, full data", "full", full, FULL_MODEL, AI_INDEX_END),
        ("to the newest data, full data", "full", full, FULL_MODEL, None),
    ):
        score = threshold_score(obs, model)
        rows.append(
            {
                "comparison": name,
                "observations": label,
                "threshold_model": model,
                "threshold_score": score,
                "through": through or obs["date"].max(),
                **fall(obs, score, through),
            }
        )
    return pl.DataFrame(rows, schema=SCHEMA)
