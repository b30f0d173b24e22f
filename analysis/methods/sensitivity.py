"""How much one fixed-capability trend depends on the choices behind it.

One threshold's staircase trend (Epoch's method on the full data, `fixed_capability`) rerun
under other choices, one at a time: the blend of input and output prices (`BLENDS`), reasoning
models included, and windows that end earlier (`WINDOW_ENDS`). A variant that cannot be fitted
(too few staircase points, or the threshold model absent) keeps its row, with the reason in
`note` and no estimate.
"""

from __future__ import annotations

from datetime import date

import polars as pl

from analysis.methods import fixed_capability as fc

BASE_BLEND = (3, 1)  # Epoch's blend: every other variant keeps it
BLENDS = [(3, 1), (1, 1), (1, 3), (10, 1)]  # input:output weights
WINDOW_ENDS = [date(2024, 12, 31), date(2025, 6, 30)]  # prices up to these dates only
# Epoch's rows give only a 3:1 blend, so other blends lose the 2021-2023 history.
OTHER_BLEND_NOTE = "Sources giving only a 3:1 blend are left out."

SCHEMA = {
    "variant": pl.String,
    "n": pl.Int64,
    "factor_per_year": pl.Float64,
    "ci90_low": pl.Float64,
    "ci90_high": pl.Float64,
    "note": pl.String,
}
ESTIMATE_COLUMNS = ("n", "factor_per_year", "ci90_low", "ci90_high")


def variant_row(label: str, obs: pl.DataFrame, benchmark: str, threshold_model: str) -> dict:
    """The trend of `threshold_model`'s threshold in `obs`, or a row saying why there is none."""
    try:
        score = obs.filter(pl.col("model") == threshold_model)["score"][0]
        r = fc.trend(obs, benchmark, threshold_model, score)
    except (IndexError, ValueError) as err:  # too few points, or the model absent
        return {"variant": label, **dict.fromkeys(ESTIMATE_COLUMNS), "note": str(err)}
    return {"variant": label, **{k: r[k] for k in ESTIMATE_COLUMNS}, "note": ""}


def sensitivity(
    token_prices: pl.DataFrame,
    scores: pl.DataFrame,
    models: pl.DataFrame,
    benchmark: str,
    threshold_model: str,
) -> pl.DataFrame:
    """One threshold's factor per year under other choices: blend ratio, reasoning models, window.

    One row per variant (`SCHEMA`), in the order: each of `BLENDS`, reasoning models included,
    then each of `WINDOW_ENDS`.
    """
    rows = []
    for ratio in BLENDS:
        obs = fc.full_observations(token_prices, scores, models, benchmark, ratio=ratio)
        row = variant_row(
            f"blend {ratio[0]}:{ratio[1]} input:output", obs, benchmark, threshold_model
        )
        if ratio != BASE_BLEND:
            row["note"] = f"{row['note']} {OTHER_BLEND_NOTE}".strip()
        rows.append(row)
    reasoning = fc.full_observations(
        token_prices, scores, models, benchmark, include_reasoning=True
    )
    rows.append(variant_row("reasoning models included", reasoning, benchmark, threshold_model))
    base = fc.full_observations(token_prices, scores, models, benchmark)
    for end in WINDOW_ENDS:
        rows.append(
            variant_row(
                f"prices up to {end} only",
                base.filter(pl.col("date") <= end),
                benchmark,
                threshold_model,
            )
        )
    return pl.DataFrame(rows, schema=SCHEMA)


def factor_span(table: pl.DataFrame) -> tuple[float, float]:
    """(slowest, fastest) factor per year over the variants that could be fitted."""
    factors = table["factor_per_year"].drop_nulls()
    return (factors.min(), factors.max())
