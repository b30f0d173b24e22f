"""The evidence class of GPU-hour rows: the curated table, its coverage, and the join."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import data
from analysis.data import gpu_evidence, lookup
from analysis.data.errors import DataError


def test_the_table_passes_its_schema_and_cites_the_sources_readme():
    rows = lookup.read("gpu_evidence_classes")
    assert rows and all("sources README" in r["reason"] for r in rows)
    assert {r["evidence_class"] for r in rows} == set(gpu_evidence.CLASSES)


@pytest.mark.parametrize("version", [r.version for r in data.releases()])
def test_every_row_of_every_release_has_an_evidence_class(version):
    prices = gpu_evidence.with_evidence_class(data.load("gpu_hour_prices", version))
    assert prices["evidence_class"].null_count() == 0


def test_the_restated_per_provider_medians_are_restated_reconstructions():
    # sources README §2.3: the henryzhang back-series' per-provider medians are restated with
    # judgement factors; its unrestated across-provider median is an index aggregate.
    classes = lookup.gpu_evidence_classes()
    assert classes[("gpu-index-henryzhang", "median-restated")] == "restated-reconstruction"
    assert classes[("gpu-index-henryzhang", "median-raw")] == "index"
    assert classes[("epoch-hardware", "quote")] == "observed-listing"
    assert classes[("vast-market-sui414", "median")] == "marketplace-median"


def _rows(*pairs) -> pl.DataFrame:
    return pl.DataFrame(
        [{"source_id": s, "statistic": t, "usd_per_gpu_hour": 1.0} for s, t in pairs]
    )


def test_the_join_keeps_row_order_and_variants_select_classes():
    prices = gpu_evidence.with_evidence_class(
        _rows(
            ("gpu-index-henryzhang", "median-restated"),
            ("epoch-hardware", "quote"),
            ("ornn-gpu-index", "index"),
            ("vast-market-sui414", "median"),
        )
    )
    assert prices["evidence_class"].to_list() == [
        "restated-reconstruction",
        "observed-listing",
        "index",
        "marketplace-median",
    ]
    assert gpu_evidence.select(prices, "direct").height == 2
    assert gpu_evidence.select(prices, "without-restated").height == 3
    assert gpu_evidence.select(prices, "all").height == 4
    with pytest.raises(KeyError, match="no evidence variant"):
        gpu_evidence.select(prices, "some")


def test_an_unclassed_source_is_refused_by_name():
    with pytest.raises(DataError, match="new-source, median"):
        gpu_evidence.with_evidence_class(
            _rows(("epoch-hardware", "quote"), ("new-source", "median"))
        )
