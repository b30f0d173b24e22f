"""What a chapter reads is recorded where it loads data, written where the book asks for it,
and kept with cached results (analysis.data.reads)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from analysis.data import paths, reads, release

BASE = "2026-12-01"
OLDER = "2026-11-30"

pytestmark = pytest.mark.skipif(
    not (paths.DATA_DIR / BASE).is_dir() or not (paths.DATA_DIR / OLDER).is_dir(),
    reason=f"needs the released data versions {OLDER} and {BASE}",
)


def descriptor_sha(version: str, table: str) -> str:
    desc = json.loads((paths.DATA_DIR / version / "datapackage.json").read_text())
    (res,) = [r for r in desc["resources"] if r["name"] == table]
    return res["hash"].removeprefix("sha256:")


@pytest.fixture
def recorded(monkeypatch):
    """An empty record for the test, and the data pinned to BASE."""
    monkeypatch.setenv(release.VERSION_ENV, BASE)
    monkeypatch.delenv(reads.READS_FILE_ENV, raising=False)
    monkeypatch.delenv(reads.DEPS_DIR_ENV, raising=False)
    before = reads.snapshot()
    reads.clear()
    yield
    reads.clear()
    reads.replay(before)


def test_load_records_the_table_and_its_checksum_from_the_descriptor(recorded):
    release.load("claims")
    release.load("claims", OLDER)
    got = reads.snapshot()
    assert got["table:claims"]["sha256"] == descriptor_sha(BASE, "claims")
    assert got["table:claims"]["version"] == BASE
    # Another version than the current one is named in the key: it is that version's table.
    assert got[f"table@{OLDER}:claims"]["sha256"] == descriptor_sha(OLDER, "claims")


def test_looking_up_rows_records_those_rows_not_the_table(recorded):
    rows = release.select_rows("sources", "source_id", ["epoch-hardware"], ["publisher"])
    assert rows.to_dicts() == [{"source_id": "epoch-hardware", "publisher": "Epoch AI"}]
    got = reads.snapshot()
    assert "table:sources" not in got
    (key,) = got
    assert key.startswith("rows:sources:source_id:publisher:")
    assert got[key]["values"] == ["epoch-hardware"]
    assert release.read_now(key, got[key]) == got[key]


def test_the_list_of_releases_is_a_read_but_finding_the_current_version_is_not(recorded):
    release.current_version()
    assert reads.snapshot() == {}
    release.releases()
    assert set(reads.snapshot()) == {"releases"}


def test_checking_a_read_records_nothing(recorded):
    release.read_now("table:claims", {})
    with reads.paused():
        release.load("claims")
    assert reads.snapshot() == {}


def test_a_read_of_a_gone_version_or_table_reads_as_none(recorded):
    assert release.read_now("table@1999-01-01:claims", {}) is None
    assert release.read_now(f"table@{OLDER}:observations", {}) is None  # it predates the table


def run(code: str, env: dict, cwd: Path) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env={**os.environ, **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done


def test_reads_go_to_the_file_the_executor_names(tmp_path):
    target = tmp_path / "reads.json"
    run(
        "from analysis.data import release; release.load('claims')",
        {reads.READS_FILE_ENV: str(target), release.VERSION_ENV: BASE},
        tmp_path,
    )
    written = json.loads(target.read_text())["reads"]
    assert written["table:claims"]["sha256"] == descriptor_sha(BASE, "claims")


def test_under_quarto_reads_go_beside_the_other_records_named_by_the_document(tmp_path):
    """Quarto's kernel has no per-chapter variable of ours: the document comes from
    QUARTO_EXECUTE_INFO (`document-path`), the folder from BOOK_DEPS_DIR."""
    root = tmp_path / "book"
    (root / "chapters").mkdir(parents=True)
    info = tmp_path / "info.json"
    info.write_text(json.dumps({"document-path": str(root / "chapters" / "gpus.qmd")}))
    deps_dir = root / "_deps" / "quarto"
    run(
        "from analysis.data import release; release.load('claims')",
        {
            reads.DEPS_DIR_ENV: str(deps_dir),
            "QUARTO_EXECUTE_INFO": str(info),
            "QUARTO_PROJECT_ROOT": str(root),
            release.VERSION_ENV: BASE,
        },
        root,
    )
    written = json.loads((deps_dir / "chapters" / "gpus.reads.json").read_text())["reads"]
    assert set(written) == {"table:claims"}


def test_a_result_from_the_disk_cache_still_records_what_it_was_made_from(tmp_path):
    """Two processes: the first computes and stores, the second gets the stored result without
    loading anything, and still records the table the result was made from."""
    (tmp_path / "slow.py").write_text(
        textwrap.dedent(
            """\
            from analysis.data import release
            from analysis.data.cache import cached

            @cached
            def claim_count(v):
                return release.load("claims", v).height
            """
        )
    )
    code = f"""\
        import json, sys
        sys.path.insert(0, {str(tmp_path)!r})
        from analysis.data import release, reads
        import slow
        loads = []
        real = release._load_cached
        release._load_cached = lambda *a: loads.append(a) or real(*a)
        n = slow.claim_count({BASE!r})
        print(json.dumps({{"n": n, "loads": len(loads), "reads": reads.snapshot()}}))
        """
    env = {"BOOK_CACHE_DIR": str(tmp_path / "cache"), release.VERSION_ENV: BASE}
    first, second = (json.loads(run(code, env, tmp_path).stdout) for _ in range(2))
    assert first["loads"] >= 1 and second["loads"] == 0  # the second came from the cache
    assert first["n"] == second["n"]
    assert second["reads"] == first["reads"]
    assert second["reads"]["table:claims"]["sha256"] == descriptor_sha(BASE, "claims")


def test_raw_files_a_page_reads_are_a_read_of_their_folder(recorded, tmp_path):
    folder = tmp_path / "raw"
    reads.record_folder(folder)
    (key,) = reads.snapshot()
    assert reads.snapshot()[key] == {"sha256": "absent"}
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "a.csv").write_text("x\n1\n")
    now = release.read_now(key, {})
    assert now["sha256"] != "absent"
    (folder / "sub" / "a.csv").write_text("x\n2\n")
    assert release.read_now(key, {})["sha256"] != now["sha256"]
