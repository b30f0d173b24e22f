"""The window and base-period rules (analysis.methods.windows) on synthetic series, and the
hedonic index built by them: one thin month after the data neither ends the window nor moves
the base, so the index is the one fitted without it."""

from __future__ import annotations

from datetime import date

import numpy as np
import polars as pl
import pytest

from analysis.methods import gpu_prices, windows
from analysis.methods.trends import InsufficientData


def month(k: int) -> date:
    """The k-th month from 2024-01 (k = 0)."""
    return date(2024 + k // 12, k % 12 + 1, 1)


def test_a_thin_month_is_not_a_window_end():
    # Months 0-5 have 3 observations each; month 6 has 1 (a reader's row a month later).
    obs = [month(k) for k in range(6) for _ in range(3)] + [month(6)]
    w = windows.unbroken_window(obs, minimum=3)
    assert (w.start, w.end) == (month(0), month(5))
    # With a minimum of one the thin month is the end.
    assert windows.unbroken_window(obs, minimum=1).end == month(6)


def test_the_run_starts_after_the_last_gap_or_thin_month():
    # Month 2 is missing, month 4 thin: the run ending at month 7 starts at month 5.
    counts = {0: 3, 1: 3, 3: 4, 4: 2, 5: 3, 6: 5, 7: 3, 9: 1}
    obs = [month(k) for k, n in counts.items() for _ in range(n)]
    w = windows.unbroken_window(obs, minimum=3)
    assert (w.start, w.end) == (month(5), month(7))


def test_no_month_with_the_minimum_is_insufficient_data():
    with pytest.raises(InsufficientData, match="at least 3 observations; the most is 2"):
        windows.unbroken_window([month(0), month(0), month(1)], minimum=3, method="index")


def test_the_base_is_fixed_by_the_method_not_the_window():
    w = windows.Window(month(0), month(8), 3)
    assert windows.fixed_base(w, month(2)) == month(2)
    with pytest.raises(InsufficientData, match="base month 2023-12 is outside the window"):
        windows.fixed_base(w, date(2023, 12, 1))


def _panel_prices(months: int, per_month: int, factor_per_month: float) -> pl.DataFrame:
    """GPU-hour quotes from `per_month` providers each month, price falling by a known factor
    a month, with provider levels and small noise."""
    rng = np.random.default_rng(3)
    rows = []
    for k in range(months):
        for p in range(per_month):
            price = 2.0 * (1 + 0.1 * p) * factor_per_month**k * np.exp(rng.normal(0, 0.01))
            rows.append(("h100-sxm", f"cloud-{p}", month(k), "on-demand", float(price)))
    return pl.DataFrame(
        rows, schema=["gpu", "provider", "date", "pricing", "usd_per_gpu_hour"], orient="row"
    ).with_columns(pl.lit("quote").alias("statistic"))


def test_one_thin_month_after_the_data_leaves_the_index_as_it_was():
    prices = _panel_prices(12, 4, 0.98)
    late = pl.DataFrame(
        [("h100-sxm", "cloud-0", month(14), "on-demand", 9.0, "quote")],
        schema=prices.schema,
        orient="row",
    )
    before = gpu_prices.hedonic_window(prices)
    after = gpu_prices.hedonic_window(pl.concat([prices, late]))
    assert before == after and (after.start, after.end) == (month(0), month(11))
    # The old rule (a run of months with any observation) would end the window at the row.
    assert gpu_prices.unbroken_months_start(pl.concat([prices, late])) == month(14)
    index, info = gpu_prices.hedonic_index(
        pl.concat([prices, late]), start=after.start, end=after.end, base_month=month(0)
    )
    assert info["end"] == month(11) and info["base_period"] == month(0)
    # The known decline: 0.98 a month, so the last month's index is 0.98^11.
    last = index.sort("period")["index"][-1]
    assert last == pytest.approx(0.98**11, rel=0.02)
