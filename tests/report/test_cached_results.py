"""Results the book's second output format reuses from the first (analysis.data.cache): the
vintages table (the estimate registry on every release) and the workload page's bills. A hit
returns what the miss computed; a change to any release read, or to a workload preset file, is
a miss. Each test has its own cache folder; the real functions run (a spy only counts calls)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

from analysis.chapters import data_versions, workload_costs
from analysis.data import cache, changes, paths, workloads
from analysis.data.paths import ROOT
from analysis.methods import fixed_capability as fc
from analysis.report import estimates, results, vintages

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
