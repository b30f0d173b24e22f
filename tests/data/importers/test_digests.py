"""Claims and reported prices from the news digests: every claim anchored to its text."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import digests

DIGEST = """Inference Efficiency — 2026-09-27
Context & numbers
- Opus 5.5: $4 input / $20 output per 1M tokens; GPT-6 Sol: $2 / $10 per 1M tokens
- H100 cloud prices stabilized at $2.85–3.50/hr after a 64–75% drawdown
"""

FIXTURE_CLAIMS = [
    c
    for c in digests.CLAIMS
    if c.claim_id
    in {"opus-5.5-input-price", "h100-cloud-price-settled", "h100-cloud-price-drawdown"}
]


def write_seeds(root: Path, text: str = DIGEST) -> Path:
    seeds = root / "seeds"
    seeds.mkdir(parents=True, exist_ok=True)
    (seeds / digests.D27).write_text(text, encoding="utf-8")
    return seeds


def test_claims_carry_the_quote_its_line_and_the_numbers(tmp_path):
    rows = {r["claim_id"]: r for r in digests.claim_rows(write_seeds(tmp_path), FIXTURE_CLAIMS)}
    h100 = rows["h100-cloud-price-settled"]
    assert (h100["value"], h100["value_high"], h100["unit"]) == (2.85, 3.50, "USD per GPU-hour")
    assert h100["source_locator"] == f"seeds/{digests.D27}#line 4"
    assert rows["opus-5.5-input-price"]["source_locator"].endswith("#line 3")
    assert h100["source_id"] == "digest-2026-09-27"


def test_a_claim_the_digest_does_not_make_is_refused(tmp_path):
    seeds = write_seeds(tmp_path, DIGEST.replace("64–75%", "60–70%"))
    with pytest.raises(DataError, match="the digest does not contain this text"):
        digests.claim_rows(seeds, FIXTURE_CLAIMS)


def test_a_value_not_written_in_the_quote_is_refused(tmp_path):
    bad = digests.Claim("x", digests.D27, "Opus 5.5: $4 input", "s", 5, "USD", "2026-09-27", "$5")
    with pytest.raises(DataError, match="must appear in the quote"):
        digests.claim_rows(write_seeds(tmp_path), [bad])


def test_reported_prices_keep_currency_and_kind(sources_dir):
    out = digests.build(sources_dir)
    tp = out["token_prices"]
    cny = tp.filter(pl.col("currency") == "CNY")
    # CNY prices stay in CNY: the USD columns are empty and the amount is kept as quoted.
    assert cny["input_usd_per_mtok"].null_count() == cny.height
    assert set(cny["blended_original_per_mtok"]) == {0.13, 1.0}
    assert set(cny["price_kind"]) == {"promotional", "off-peak"}
    assert out["claims"].height == len(digests.CLAIMS) >= 15
