"""One row per benchmark measurement: the two Epoch exports of one run are one score."""

from __future__ import annotations

from datetime import date

import polars as pl

from analysis.data.curate import facts


def test_equal_scores_from_two_sources_merge_and_different_ones_stay():
    d = date(2025, 2, 24)
    df = pl.DataFrame(
        {
            "model_id": ["m", "m", "m", "m"],
            "benchmark": ["gpqa-diamond"] * 4,
            "unit": ["percent"] * 4,
            "date": [d] * 4,
            "score": [66.035354, 66.0, 76.767677, 66.04],
            "source_id": ["epoch-benchmark-stitching", "gundlach-inference", "epoch-benchmarking-hub", "epoch-benchmarking-hub"],
            "source_model_name": ["m", "M", "m_32K", "m"],
            "source_locator": ["st#1", "gu#1", "hub#2", "hub#1"],
        }
    )  # fmt: skip
    kept, obs = facts.curate_scores(df)
    rows = kept.sort("score").select("score", "source_id", "source_ids").rows()
    # 66.0 is a different rounding (0.035 apart: merged); 76.8 is another run
    assert rows == [
        (66.04, "epoch-benchmarking-hub", "epoch-benchmarking-hub;epoch-benchmark-stitching;gundlach-inference"),
        (76.767677, "epoch-benchmarking-hub", "epoch-benchmarking-hub"),
    ]  # fmt: skip
    assert obs.height == 4 and set(obs["row_id"]) == set(kept["row_id"])


def test_gpu_quotes_get_ids_and_one_observation_each():
    df = pl.DataFrame(
        {
            "gpu": ["h100", "h100"],
            "provider": ["a", "a"],
            "date": [date(2026, 1, 1)] * 2,
            "pricing": ["on-demand"] * 2,
            "statistic": ["quote"] * 2,
            "source_gpu_name": ["H100", "H100"],
            "source_id": ["s", "s"],
            "source_locator": ["f#1", "f#2"],
        }
    )
    kept, obs = facts.curate_gpus(df)
    assert kept["row_id"].n_unique() == 2 and obs["row_id"].to_list() == kept["row_id"].to_list()
