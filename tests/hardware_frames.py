"""Small hand-made frames of the hardware methods' inputs, shared by the method tests
(tests/methods/test_tokens_per_dollar.py) and the figure tests (tests/figures/test_hardware.py).
Importable as `hardware_frames`: pytest puts tests/ on the path (pyproject.toml)."""

from __future__ import annotations

from datetime import date

import polars as pl

from analysis.methods import tokens_per_dollar as tpd

ROUND_DATE = date(2025, 9, 4)


def specs() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "gpu": ["h100-sxm", "b200"],
            "fp16_tflop_per_s": [989.4, 2250.0],
            "fp8_tflop_per_s": [None, 4500.0],
            "memory_bandwidth_tb_per_s": [3.35, 8.0],
        }
    )


def models() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "model_id": list(tpd.MLPERF_MODEL_IDS.values()),
            "parameters_b": [70.0, 405.0, 8.0, 46.7, 671.0],
            "active_parameters_b": [None, None, None, 12.9, 37.0],
        }
    )


def costs(accelerator: str, usd_per_gpu_hour: float, tokens_per_s: float) -> pl.DataFrame:
    """One MLPerf v5.1 Offline result priced at `usd_per_gpu_hour`."""
    return pl.DataFrame(
        {
            "round": ["v5.1"],
            "date": [ROUND_DATE],
            "base_model": ["llama2-70b"],
            "scenario": ["Offline"],
            "accelerator": [accelerator],
            "submitter": ["NVIDIA"],
            "system": ["DGX"],
            "tokens_per_s_per_accelerator": [tokens_per_s],
            "usd_per_gpu_hour": [usd_per_gpu_hour],
            "price_gpu": [accelerator],
            "price_month": [date(2025, 9, 1)],
            "price_pricing": ["on-demand"],
            "hardware_usd_per_mtok": [tpd.usd_per_mtok(usd_per_gpu_hour, tokens_per_s)],
        }
    )
