"""The summary page: it prints registry estimates only, and a few quotes derived from them.

Each headline is the registry's own `Estimate`; the derived quotes are checked against an
independent derivation (the H100 fall against the decline table's own percent column, the claim
against the claims table, the index base against the index frame). Then the page itself: every
`{python} ...` in index.qmd names a quote, every quote is printed, the setup cell is a few lines,
and the quotes read as the page prints them on the pinned release.
"""

from __future__ import annotations

import polars as pl
import pytest

from analysis.chapters import index as chapter
from analysis.data import release as data
from analysis.methods import dispersion, llmflation
from analysis.report import estimates, results

PINNED = "2026-11-30"  # the release the exact-text examples were read from


@pytest.fixture(scope="module")
def c() -> chapter.Index:
    return chapter.compute()


# --- the page -----------------------------------------------------------------------------------


def test_compute_is_cached_per_version(c):
    assert chapter.compute() is c
    assert chapter.compute(results.version()) is c


# --- the numbers --------------------------------------------------------------------------------


def test_every_headline_is_the_registry_estimate(c):
    for name, key in chapter.HEADLINES.items():
        assert c.q[name] == estimates.estimate(key), name
    assert c.estimates.equals(estimates.headline())
    assert set(c.estimates["estimate_id"]) == set(estimates.REGISTRY)


def test_h100_fall_is_the_decline_tables_own_percent(c):
    row = (
        results.gpu_declines()
        .filter((pl.col("gpu_group") == "h100") & (pl.col("pricing") == "on-demand"))
        .row(0, named=True)
    )
    # The table states the change as (1 / factor - 1) x 100: negative for a fall.
    assert c.q.h100_pct.value == pytest.approx(-row["pct_per_year"] / 100)
    low, high = c.q.h100_pct_ci.value
    # The slower fall bounds the change from above: the interval's ends swap.
    assert (low, high) == pytest.approx((-row["pct_ci90_high"] / 100, -row["pct_ci90_low"] / 100))
    assert low < c.q.h100_pct.value < high
    assert chapter.yearly_fall(2.0) == 0.5  # a price that halves falls 50% a year


def test_claim_threshold_and_index_base_come_from_the_data(c):
    assert c.q.spread_claim.value == dispersion.claim_value(results.table("claims"))
    index, info = results.gpu_index()
    base = index.filter(pl.col("period") == c.q.gpu_index_base.value)
    assert base["index"].to_list() == pytest.approx([1.0])  # the base month is 1 by definition
    assert c.q.gpu_index_base.value == info["base_period"]
    assert c.q.a16z_threshold.value == llmflation.A16Z_THRESHOLD
    assert c.q.citation.text == data.citation(c.version)
    assert c.q.version.text == c.version == data.current_version()


# --- as the page prints them --------------------------------------------------------------------


def test_quotes_read_in_the_house_format_on_the_pinned_release():
    q = chapter.compute(PINNED).q
    assert q.epoch_gpqa.text == "42.0x"
    assert q.epoch_gpqa.ci.text == "4.40x to 401x"  # was "4x to 401x"
    assert q.epoch_gpqa.end.text == "December 2024"
    assert (q.full_gpqa.text, q.full_gpqa.ci.text) == ("6.36x", "3.02x to 13.4x")
    # 34 distinct thresholds: tied thresholds count once, as in Epoch's table (issue 13)
    assert (q.full_median.text, q.full_median.n_text.text) == ("21.5x", "34")
    assert (q.a16z_full.text, q.a16z_full.ci.text) == ("10.1x", "8.22x to 12.4x")
    assert (q.hedonic.text, q.hedonic.ci.text) == ("27.2x", "17.7x to 41.7x")
    assert (q.spread_share.text, q.spread_claim.text) == ("21%", "9x")
    # Direct observations only since issue 19 (listings and marketplace medians, no restated
    # reconstructions): factor 1.0092 [0.911, 1.118] on 2026-11-30 -> fall 1 - 1/f, rounded.
    assert (q.h100_pct.text, q.h100_pct_ci.text) == ("1%", "-10% to 11%")
    assert (q.gpu_index.text, q.gpu_index.ci.text) == ("0.986", "0.787 to 1.23")
    assert q.gpu_index_base.text == "September 2023"
    assert q.mlperf_cost.text == "$0.12"
    assert q.mlperf_cost._repr_markdown_() == r"\$0.12"  # a dollar sign is not maths
    assert q.a16z_threshold.text == "42"
