"""Canonical accelerator ids: names from every source map to the shared ids."""

from __future__ import annotations

import csv
import glob
import json

import pytest

from analysis.data.gpus import canonical_gpu, gpu_family

EXPECTED = {
    # Epoch hardware prices and chip dataset
    "NVIDIA A100 SXM4 80 GB": "a100-80gb-sxm",
    "NVIDIA A100 SXM4 40 GB": "a100-40gb",
    "NVIDIA A100 PCIe": "a100-pcie",
    "NVIDIA A100": "a100",
    "NVIDIA H100 SXM5 80GB": "h100-sxm",
    "NVIDIA H100 PCIe": "h100-pcie",
    "NVIDIA H100 NVL": "h100-nvl",
    "NVIDIA H200 SXM": "h200",
    "NVIDIA Tesla V100 DGXS 16 GB": "v100",
    "NVIDIA Tesla P100 PCIe 16GB": "p100",
    "NVIDIA Tesla K80": "k80",
    "NVIDIA Tesla T4": "t4",
    "NVIDIA RTX A6000": "a6000",
    "NVIDIA A10 PCIe": "a10",
    "NVIDIA A10G": "a10g",
    "NVIDIA A40 PCIe": "a40",
    "NVIDIA L40S": "l40s",
    "NVIDIA L4": "l4",
    "NVIDIA GeForce RTX 4090": "rtx-4090",
    "Google TPU v3": "tpu-v3",
    "Google TPU v5e": "tpu-v5e",
    "Google TPU v6e Trillium": "tpu-v6e",
    "AMD Radeon Instinct MI250X": "mi250x",
    "Intel Habana Gaudi2": "gaudi2",
    "Intel Habana Gaudi3": "gaudi3",
    "NVIDIA GB300": "gb300",
    # henryzhang index codes without the prefix, tugot17 gpu_type + socket
    "H100": "h100",
    "H100_80GB SXM5": "h100-sxm",
    "A100_80GB PCIe": "a100-80gb-pcie",
    "GH200_96GB": "gh200",
    "B200_180GB": "b200",
    # Ornn, vast.ai, RunPod
    "A100 SXM4": "a100-sxm",
    "H100 SXM": "h100-sxm",
    "RTX 5090": "rtx-5090",
    "RTX 6000Ada": "rtx-6000-ada",
    "RTX 4080S": "rtx-4080-super",
    "RTX PRO 6000 WS": "rtx-pro-6000",
    "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition": "rtx-pro-6000-max-q",
    "NVIDIA A100-SXM4-80GB": "a100-80gb-sxm",
    "AMD Instinct MI300X OAM": "mi300x",
    "NVIDIA H200 NVL": "h200-nvl",
    "NVIDIA B300 SXM6 AC": "b300",
    # MLPerf
    "NVIDIA H100-SXM-80GB": "h100-sxm",
    "NVIDIA H100-NVL-94GB": "h100-nvl",
    "NVIDIA H200-SXM-141GB-CTS": "h200",
    "NVIDIA B200-SXM-180GB": "b200",
    "NVIDIA GB200": "gb200",
    "NVIDIA GH200 Grace Hopper Superchip 144GB": "gh200",
    "AMD Instinct MI300X": "mi300x",
    "AMD Instinct MI300X-NPS1-SPX-192GB-750W": "mi300x",
    "AMD Instinct MI325X 256GB HBM3e": "mi325x",
    "AMD Instinct MI355X 288GB HBM3e": "mi355x",
    "NVIDIA RTX PRO 6000 Blackwell Server Edition": "rtx-pro-6000-server",
    "RTX PRO 6000 S": "rtx-pro-6000-server",  # vast.ai: the Server Edition, priced apart from WS
    "NVIDIA A100-PCIe-80GB": "a100-80gb-pcie",
    "Virtualized NVIDIA H100-SXM-80GB": "h100-sxm",
    "Intel® Gaudi® 2 AI Accelerator": "gaudi2",
    "TPU v5e": "tpu-v5e",
    "TPU v6": "tpu-v6e",
    "Tesla T4": "t4",
}

NOT_ONE_ACCELERATOR = [
    "",
    "N/A",
    "unknown",
    "NVIDIA RTX PRO 6000 Blackwell Server Edition MIG 1g.24gb",  # a slice, priced per slice
    "RTX 4060 laptop",
    "AMD Instinct MI300X 192GB HBM3 (x32), AMD Instinct MI325X 256GB HBM3e (x16)",
    "AMD A10-9700",  # an APU, not the NVIDIA A10
    "Intel A100",  # a CPU
    "Cerebras CS-2",
]


@pytest.mark.parametrize(("name", "gpu"), sorted(EXPECTED.items()))
def test_names_map_to_canonical_ids(name: str, gpu: str) -> None:
    assert canonical_gpu(name) == gpu


@pytest.mark.parametrize("name", NOT_ONE_ACCELERATOR)
def test_names_that_are_not_one_known_accelerator_give_none(name: str) -> None:
    assert canonical_gpu(name) is None


def test_form_factor_only_where_the_name_says_it() -> None:
    assert canonical_gpu("NVIDIA H100 80GB HBM3") == "h100"
    assert canonical_gpu("H100 PCIe") == "h100-pcie"


def test_family_drops_form_factor_and_a100_memory() -> None:
    assert gpu_family("h100-sxm") == "h100"
    assert gpu_family("a100-80gb-pcie") == "a100"
    assert gpu_family("h200-nvl") == "h200"
    assert gpu_family("tpu-v5e") == "tpu-v5e"


def test_every_mlperf_accelerator_of_one_kind_is_known(sources_dir) -> None:
    names = set()
    for f in glob.glob(str(sources_dir / "mlperf-inference" / "*.json")):
        with open(f, encoding="utf-8") as fh:
            names |= {r.get("Accelerator") or "" for r in json.load(fh)}
    names = {n for n in names if n and "(x" not in n}
    unknown = sorted(n for n in names if canonical_gpu(n) is None)
    # Only non-GPU parts the table has no id for are left.
    assert unknown == ["Intel(R) Arc(TM) 140T GPU"]
    assert {"h100-sxm", "h200", "b200", "gb200", "mi300x", "mi325x", "l40s"} <= {
        canonical_gpu(n) for n in names
    }


def test_every_epoch_cloud_quote_gpu_is_known(sources_dir) -> None:
    path = (
        sources_dir / "epoch-hardware-prices" / "2026-04-01_HEAD" / "data" / "Hardware prices.csv"
    )
    with path.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    cloud = {r["Hardware model"] for r in rows if r["Price per chip-hour (on-demand)"]}
    assert {n for n in cloud if canonical_gpu(n) is None} == set()
