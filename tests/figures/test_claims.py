"""The claims-ledger table and figure on small hand-made frames."""

from __future__ import annotations

import polars as pl
import vl_convert as vlc

from analysis.book.figure_kit import chart_data
from analysis.figures import claims as fig


def _table() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "claim": ["\u201croughly 13x\u201d"],
            "digest": ["2026-09-27"],
            "subject": ["A decline"],
            "claimed": ["13 factor per year"],
            "verdict": ["partly supported"],
            "evidence": ["9.0; n = 12. A fit."],
            "section": ["[fixed-capability](fixed-capability.html#sec-fixed-capability-x)"],
        }
    )


def test_the_ledger_table_labels_every_column_and_links_the_section():
    html = fig.ledger_gt(_table()).as_raw_html()
    for label in ("Claim", "Digest", "About", "Claimed", "Verdict", "Evidence", "Section"):
        assert f">{label}<" in html
    assert 'href="fixed-capability.html#sec-fixed-capability-x"' in html
    assert "roughly 13x" in html


def test_the_ratio_chart_draws_the_ledger_over_the_rule_bands():
    ledger = pl.DataFrame(
        {
            "claim_id": ["a", "b", "c"],
            "subject": ["Price of a", "Price of b", "Share of c"],
            "claim": ["x", "y", "z"],
            "claimed": [13.0, 2.0, 1.0],
            "claimed_high": [None, None, None],
            "unit": ["factor"] * 3,
            "evidence_value": [9.0, 2.0, None],
            "verdict": ["partly supported", "supported", "cannot be tested with this data"],
            "ratio_to_claim": [9 / 13, 1.0, None],
        }
    )
    bands = pl.DataFrame({"band": ["in", "near"], "low": [0.9, 0.5], "high": [1.1, 2.0]})
    spec = fig.ratio_chart(ledger, bands, ["supported", "partly supported"]).to_dict()
    data = chart_data(spec)
    assert [suffix for suffix, _ in data] == ["", "layer1"]  # the ledger first: the kit's CSV
    assert [r["claim_id"] for r in data[0][1]] == ["a", "b", "c"]
    points = spec["layer"][2]
    assert points["encoding"]["x"]["scale"]["type"] == "log"
    assert points["transform"] == [{"filter": "isValid(datum.ratio_to_claim)"}]
    assert points["encoding"]["color"]["scale"]["domain"] == ["supported", "partly supported"]
    svg = vlc.vegalite_to_svg(spec)
    # each tested claim is labelled by what it is about, not by its id in words ("A", "B")
    assert ">Price of a<" in svg and ">Price of b<" in svg and ">A<" not in svg
