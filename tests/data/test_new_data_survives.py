"""A reader's new rows cannot break the book (issue 21, item 1): for each table a reader can add
to, one plausible row at (a) the newest date, (b) a month or more after it, (c) an old date and
(d) on a new model or GPU (and a GPU the data has never seen, with --new-gpu); then every
registered estimate of every release, `estimates --vintages` and every chapter's analysis still
run, with no estimate missing.

One data root holds a copy of the latest release and three releases cut on it with `data add`
(token prices, then GPU-hour prices, then benchmark scores, four rows each, five GPU-hour
rows); one subprocess (the caches are per data version and folder) runs the registry on each
release, the vintages, and every chapter on the last. The rows are test inputs near the
release's own values for the same offer (Claude Sonnet 5 at $3/$15 as OpenRouter lists it on
2026-09-01, an H100 SXM at RunPod's $2.69 community-cloud price of 2026-08-08); the new model
and GPUs are named as such.
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

from analysis.data import add
from analysis.data import release as data
from analysis.data.paths import DATA_DIR, ROOT

pytestmark = pytest.mark.slow

PROVENANCE = {
    "source_title": "Test input for issue 21",
    "source_url": "https://example.org/issue-21",
    "accessed": "2026-12-01",
    "entered_by": "test-suite",
}
KINDS = ("newest date", "a month after", "old date", "new model or GPU")

RUN = r"""
import importlib, json, pkgutil, sys
import analysis.chapters as chapters
from analysis import evidence
from analysis.data import release as data
from analysis.report import estimates, vintages

out = {"estimates": {}, "chapters": []}
for r in data.releases():
    h = estimates.headline(r.version)
    out["estimates"][r.version] = h.filter(h["value"].is_null())["estimate_id"].to_list()
out["vintages"] = vintages.vintages().height
for m in pkgutil.iter_modules(chapters.__path__):
    mod = importlib.import_module(f"analysis.chapters.{m.name}")
    if m.name == "claims_ledger":
        mod.compute(evidence.collect())
    elif hasattr(mod, "compute"):
        mod.compute()
    out["chapters"].append(m.name)
print(json.dumps(out))
"""


def _write(path: Path, rows: list[dict]) -> Path:
    header = list(dict.fromkeys(k for r in rows for k in r))
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=header)
        w.writeheader()
        w.writerows({k: r.get(k, "") for k in header} for r in rows)
    return path


def _newest(table: str, v: str) -> date:
    """The newest date of `table` that is not in the future (a scheduled price can be)."""
    dates = data.load(table, v)["date"]
    return dates.filter(dates <= date(2026, 12, 1)).max()


def rows_by_table(v: str) -> dict[str, list[dict]]:
    tp, gp, bs = (_newest(t, v) for t in ("token_prices", "gpu_hour_prices", "benchmark_scores"))
    sonnet = {"model": "Claude Sonnet 5", "provider": "openrouter",
              "input_usd_per_mtok": "3", "output_usd_per_mtok": "15", **PROVENANCE}  # fmt: skip
    h100 = {"gpu": "NVIDIA H100 SXM", "provider": "runpod", "pricing": "on-demand",
            "usd_per_gpu_hour": "2.69", **PROVENANCE}  # fmt: skip
    score = {"model": "Claude Sonnet 5", "benchmark": "gpqa-diamond", "score": "80",
             "unit": "percent", **PROVENANCE}  # fmt: skip
    new_model = {"model_name": "Issue21 Test Model", "organization": "Issue21 Lab"}
    return {
        "token_prices": [
            sonnet | {"date": str(tp)},
            sonnet | {"date": str(tp + timedelta(days=62))},
            {
                **sonnet,
                "model": "gpt-4-0314",
                "provider": "openai",
                "date": "2023-06-15",
                "input_usd_per_mtok": "30",
                "output_usd_per_mtok": "60",
            },
            {**sonnet, "model": "Issue21 Test Model", "date": str(tp), **new_model},
        ],
        "gpu_hour_prices": [
            h100 | {"date": str(gp)},
            h100 | {"date": str(gp + timedelta(days=62))},
            h100 | {"date": "2023-03-15", "usd_per_gpu_hour": "4.69"},
            h100 | {"gpu": "NVIDIA RTX PRO 6000", "date": str(gp), "usd_per_gpu_hour": "1.79"},
            # and a GPU the data has never seen, added with --new-gpu (a test input's name)
            h100 | {"gpu": "Issue21 Test Accelerator", "date": str(gp), "usd_per_gpu_hour": "2.2"},
        ],
        "benchmark_scores": [
            score | {"date": str(bs)},
            score | {"date": str(bs + timedelta(days=62))},
            score | {"model": "gpt-4-0314", "score": "36", "date": "2023-06-15"},
            score | {"model": "Issue21 Test Model", "score": "70", "date": str(bs)},
        ],
    }


def test_every_estimate_and_chapter_survives_a_readers_rows(tmp_path):
    base = data.latest_version()
    root = tmp_path / "data"
    root.mkdir()
    shutil.copytree(DATA_DIR / base, root / base)
    rel = next(r for r in data.releases() if r.version == base)
    (root / "versions.json").write_text(json.dumps({"releases": [rel.__dict__]}, indent=2))
    added = {}
    for table, rows in rows_by_table(base).items():
        out = add.add(
            _write(tmp_path / f"{table}.csv", rows), root=root, new_model=True, new_gpu=True
        )
        # a row stating a fact the release holds merges into it (issue 21, item 3)
        assert out.rows + out.merged == len(rows), table
        added[table] = out.version
        # Each kind of row is in the release as entered (the new GPU too).
        tail = data.load(table, out.version, root).tail(len(rows))
        assert tail.height == len(rows)
    env = {"BOOK_DATA_DIR": str(root), "BOOK_NO_CACHE": "1", "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [sys.executable, "-c", RUN], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    # No estimate of any release is missing: the new rows neither broke nor thinned one.
    assert out["estimates"] == {v: [] for v in [base, *added.values()]}
    assert out["vintages"] > 0
    assert {"gpu_hour_prices", "token_prices", "quality_adjusted"} <= set(out["chapters"])


def test_the_matrix_names_every_table_and_kind():
    rows = rows_by_table(data.latest_version())
    assert set(rows) == set(add.TEMPLATES)
    assert all(len(r) >= len(KINDS) for r in rows.values())
    # (b) is a month or more after (a); (c) is older than any of the release's newest dates.
    for table, (a, b, c, *_) in rows.items():
        da, db, dc = (date.fromisoformat(r["date"]) for r in (a, b, c))
        assert db - da >= timedelta(days=31) and dc < da, table
