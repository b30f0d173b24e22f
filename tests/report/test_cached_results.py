"""Results the book's second output format reuses from the first (analysis.data.cache): the
vintages table (the estimate registry on every release), the workload page's bills, the fits
pages draw in their visible cells (an index, a staircase, a table of trends), and the claims
ledger's rows and evidence that pages quote for their verdicts. A hit
returns what the miss computed; a change to any release read, or to a workload preset file, is
a miss. Each test has its own cache folder; the real functions run (a spy only counts calls)."""

from __future__ import annotations

import dataclasses
import json
import math
import shutil
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analysis import evidence
from analysis.chapters import (
    claims_ledger,
    data_versions,
    fixed_capability,
    gpu_hour_prices,
    quality_adjusted,
    tokens_per_dollar,
    workload_costs,
)
from analysis.data import cache, changes, paths, titles, workloads
from analysis.data.paths import ROOT
from analysis.methods import (
    bill,
    claims,
    gpu_prices,
    hedonic,
    outlook,
    sensitivity,
    training_scale,
)
from analysis.methods import fixed_capability as fc
from analysis.report import estimates, names, published, results, verdicts, vintages

OLDEST, SECOND = "2026-11-30", "2026-12-01"


# Each test gets a result cache of its own, turned on (tests/conftest.py: cache_folder).
pytestmark = pytest.mark.usefixtures("cache_folder")


def stored(folder: Path, func) -> int:
    """How many results of `func` the cache folder holds."""
    return len(list((folder / cache._name(func)).glob("*.pickle")))


def spy(monkeypatch, module, name: str) -> list:
    """Count the calls of module.name; the real function still runs."""
    calls, real = [], getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def data_root(tmp_path: Path) -> Path:
    """Two releases, the oldest and the next (the current version), their files linked to the
    real ones and their descriptors copies that a test may change."""
    data = tmp_path / "data"
    real = json.loads((ROOT / "data" / "versions.json").read_text())["releases"]
    for version in (OLDEST, SECOND):
        (data / version).mkdir(parents=True)
        shutil.copy(ROOT / "data" / version / "datapackage.json", data / version)
    for version in (OLDEST, SECOND):
        for file in (ROOT / "data" / version).iterdir():
            if file.name != "datapackage.json":
                (data / version / file.name).symlink_to(file)
    kept = [r for r in real if r["version"] in (OLDEST, SECOND)]
    (data / "versions.json").write_text(json.dumps({"releases": kept}))
    return data


def test_vintages_hit_is_the_miss_and_a_changed_release_is_a_miss(
    monkeypatch, tmp_path, cache_folder
):
    monkeypatch.setattr(paths, "DATA_DIR", data_root(tmp_path))
    monkeypatch.delenv("BOOK_DATA_VERSION", raising=False)
    calls = spy(monkeypatch, estimates, "headline")
    miss = vintages.vintages([OLDEST])
    assert calls == [(OLDEST,)] and stored(cache_folder, vintages._vintages) == 1
    hit = vintages.vintages([OLDEST])
    assert calls == [(OLDEST,)], "read from the cache, not computed again"
    assert_frame_equal(hit, miss)
    # The oldest release's descriptor changes (a byte more): not the current release, so the
    # key's data part is the same, but the result was read from it.
    descriptor = tmp_path / "data" / OLDEST / "datapackage.json"
    descriptor.write_text(descriptor.read_text() + "\n")
    changed = vintages.vintages([OLDEST])
    assert len(calls) == 2, "a release it reads changed: computed again"
    assert stored(cache_folder, vintages._vintages) == 2
    assert_frame_equal(changed, miss)  # its tables are the same files


def test_workload_bills_hit_is_the_miss_and_a_changed_preset_is_a_miss(
    monkeypatch, tmp_path, cache_folder
):
    presets = tmp_path / "workloads"
    shutil.copytree(workloads.WORKLOADS_DIR, presets)
    monkeypatch.setattr(workloads, "WORKLOADS_DIR", presets)
    calls = spy(monkeypatch, workload_costs, "preset")
    on_disk = workload_costs._compute.__wrapped__  # below the in-process memo: the disk cache
    v = workload_costs.results.version()
    miss = on_disk(v, workload_costs.presets_fingerprint())
    n = len(calls)
    assert n >= len(workload_costs.PRESETS)
    hit = on_disk(v, workload_costs.presets_fingerprint())
    assert len(calls) == n, "read from the cache, not computed again"
    assert_frame_equal(hit.bills, miss.bills)
    assert_frame_equal(hit.rates, miss.rates)
    assert {k: q.text for k, q in hit.q.items()} == {k: q.text for k, q in miss.q.items()}
    # The chat assistant's preset gains a comment: its file changed, so the bills are recomputed.
    chat = presets / "chat-assistant.yaml"
    chat.write_text(chat.read_text() + "# edited\n")
    again = on_disk(v, workload_costs.presets_fingerprint())
    assert len(calls) > n, "a preset file changed: computed again"
    assert stored(cache_folder, on_disk) == 2
    assert_frame_equal(again.bills, miss.bills)  # a comment changes no bill


@pytest.mark.parametrize(
    ("cached_fit", "method", "extra"),
    [
        (results._extension, "extension_trends", (False,)),
        (results._epoch, "reproduce_epoch", (False,)),
    ],
)
def test_shared_fits_hit_is_the_miss_and_another_release_is_a_miss(
    monkeypatch, cache_folder, cached_fit, method, extra
):
    calls = spy(monkeypatch, fc, method)
    on_disk = cached_fit.__wrapped__  # below the in-process memo: the disk cache
    newest = results.version()
    miss = on_disk(newest, *extra)
    hit = on_disk(newest, *extra)
    assert len(calls) == 1, "read from the cache, not computed again"
    assert_frame_equal(hit, miss)
    older = [r.version for r in results.data.releases()][-2]
    other = on_disk(older, *extra)
    assert len(calls) == 2, "another release: computed again"
    assert stored(cache_folder, on_disk) == 2
    assert other.height > 0


def test_release_changes_hit_is_the_miss_and_a_changed_release_is_a_miss(
    monkeypatch, tmp_path, cache_folder
):
    monkeypatch.setattr(paths, "DATA_DIR", data_root(tmp_path))
    monkeypatch.delenv("BOOK_DATA_VERSION", raising=False)
    calls = spy(monkeypatch, changes, "changes")
    miss = data_versions.release_changes(SECOND)
    hit = data_versions.release_changes(SECOND)
    assert calls == [(OLDEST, SECOND)], "the second call read from the cache"
    assert_frame_equal(hit, miss)
    descriptor = tmp_path / "data" / OLDEST / "datapackage.json"  # the older of the two
    descriptor.write_text(descriptor.read_text() + "\n")
    assert_frame_equal(data_versions.release_changes(SECOND), miss)
    assert len(calls) == 2, "a release it compares changed: computed again"
    assert stored(cache_folder, data_versions._changes) == 2


def assert_same(got, want, where: str = "result") -> None:
    """`got` equals `want`: frames by value, dataclasses by their compared fields, dicts, tuples
    and lists item by item, floats exactly (NaN equals NaN)."""
    if isinstance(want, pl.DataFrame):
        assert isinstance(got, pl.DataFrame), where
        assert_frame_equal(got, want, check_exact=True)
    elif dataclasses.is_dataclass(want):
        assert type(got) is type(want), where
        for f in dataclasses.fields(want):
            if f.compare:
                assert_same(getattr(got, f.name), getattr(want, f.name), f"{where}.{f.name}")
    elif isinstance(want, dict):
        assert got.keys() == want.keys(), where
        for key in want:
            assert_same(got[key], want[key], f"{where}[{key!r}]")
    elif isinstance(want, (list, tuple)):
        assert type(got) is type(want) and len(got) == len(want), where
        for i, (a, b) in enumerate(zip(got, want, strict=True)):
            assert_same(a, b, f"{where}[{i}]")
    elif isinstance(want, float) and math.isnan(want):
        assert isinstance(got, float) and math.isnan(got), where
    else:
        assert got == want, f"{where}: {got!r} != {want!r}"


def _threshold(v: str) -> float:
    """GPT-4's score on GPQA Diamond: the threshold of the fixed-capability page's staircase."""
    gpqa = results.trend_row(
        results.epoch(v), fixed_capability.BENCHMARK, fixed_capability.THRESHOLD_MODEL
    )
    return gpqa["threshold_score"]


# The fits pages draw in visible cells and the ledger's rows their setup cells quote, kept on
# disk so the second output format (a fresh kernel) computes none of them again: (cached
# function, its arguments from the current version, the module and name of the method whose
# calls show a computation).
REUSED_RESULTS = {
    "reference_index": (
        results._reference_index,
        lambda v: (v, quality_adjusted.BENCHMARK, tuple(quality_adjusted.INDEX_SAMPLES)),
        (hedonic, "reference_index"),
    ),
    "extension_2026": (quality_adjusted.extension_2026, lambda v: (v,), (hedonic, "window_fits")),
    "breaks": (quality_adjusted.breaks, lambda v: (v,), (outlook, "staircase_breaks")),
    "gpu_index_from": (
        results._gpu_index_from,
        lambda v: (v, gpu_prices.unbroken_months_start(results.table("gpu_hour_prices", v))),
        (gpu_prices, "hedonic_index"),
    ),
    "hyperscaler_gap": (
        results._hyperscaler_gap,
        lambda v: (v, "direct", gpu_hour_prices.LEVEL),
        (gpu_prices, "hyperscaler_gap"),
    ),
    "flops_trends": (
        results._flops_trends,
        lambda v: (v,),
        (gpu_prices, "flops_per_dollar_trend"),
    ),
    "epoch_staircase": (
        results._epoch_staircase,
        lambda v: (v, fixed_capability.BENCHMARK, _threshold(v)),
        (fc, "staircase_fit"),
    ),
    "trends_2026": (fixed_capability.trends_2026, lambda v: (v,), (fc, "trends_by_series")),
    "windows_2026": (
        fixed_capability.windows_2026,
        lambda v: (v, fc.epoch_window_end(results.table("token_prices", v))),
        (fc, "window_comparisons"),
    ),
    "choices": (
        fixed_capability.choices,
        lambda v: (v, fixed_capability.BENCHMARK, fixed_capability.THRESHOLD_MODEL),
        (sensitivity, "sensitivity"),
    ),
    "fixed_bill": (
        workload_costs.fixed_bill,
        lambda v: (
            v,
            workload_costs.preset("chat-assistant"),
            workload_costs.FIXED_BENCHMARK,
            workload_costs.FIXED_MODEL,
        ),
        (bill, "fixed_capability_bill"),
    ),
    "training_fit": (
        tokens_per_dollar.training_fit,
        lambda v: (v, True),
        (training_scale, "scaling_fit"),
    ),
    "published_vs_reproduced": (
        published._reproduced,
        lambda v: (v, published.raw_fingerprint()),
        (published, "_published_vs_reproduced"),
    ),
    "decomposition_steps": (
        published._decomposition,
        lambda v: (v, published.raw_fingerprint()),
        (published, "gundlach_decomposition"),
    ),
    # The ledger's row of a claim a page's sentence quotes for its verdict (the setup cell's
    # `with_verdicts`), built in the report layer or from a chapter's evidence, and the evidence
    # of every claim, which the claims-ledger page gathers.
    "report_verdict_row": (
        verdicts._row,
        lambda v: (verdicts.SPREAD_CLAIM, v),
        (claims, "ledger"),
    ),
    "chapter_verdict_row": (
        evidence._chapter_claim,
        lambda v: ("deepseek-api-price-rise", v),
        (claims, "ledger"),
    ),
    "ledger_evidence": (evidence._collected, lambda v: (v,), (workload_costs, "compute")),
    "ledger_appendix": (
        claims_ledger._compute,
        lambda v: (evidence.collect(v), v, titles.chapter_titles()),
        (claims_ledger, "ledger"),
    ),
    # The display names `names.in_text` puts in place of ids in stored texts (a finding's
    # evidence, the ledger's cells).
    "named_ids": (names._named_ids, lambda v: (v,), (names, "display_name")),
}


@pytest.mark.parametrize("name", REUSED_RESULTS)
def test_reused_results_are_read_from_disk_and_equal_a_fresh_one(monkeypatch, cache_folder, name):
    if name == "decomposition_steps" and not paths.SHARED_SOURCES.exists():
        pytest.skip(f"the authors' raw files are read from {paths.SHARED_SOURCES}, absent here")
    cached_fit, arguments, (module, method) = REUSED_RESULTS[name]
    # below the in-process memo, where there is one: what a fresh kernel calls
    on_disk = cached_fit.__wrapped__ if hasattr(cached_fit, "cache_clear") else cached_fit
    args = arguments(results.version())
    calls = spy(monkeypatch, module, method)
    miss = on_disk(*args)
    n = len(calls)
    assert n >= 1 and stored(cache_folder, on_disk) == 1
    hit = on_disk(*args)
    assert len(calls) == n, f"{name}: read from the cache, not computed again"
    fresh = on_disk.__wrapped__(*args)  # the function itself, no cache
    assert len(calls) == 2 * n
    assert_same(hit, fresh, name)
    assert_same(miss, fresh, name)
