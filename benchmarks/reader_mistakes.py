"""Reader mistakes and ordinary additions, each run as a reader would run it (issue 21).

    .venv/bin/python benchmarks/reader_mistakes.py [--no-book] [--only N]

Each case gets a fresh temporary data root holding a copy of the latest release, runs one
command (`python -m analysis ...`, a subprocess, as typed), and prints a Markdown table: the
command's message (its first lines), its exit code, what the release then holds (a new version
and its rows, or unchanged) and, where a version was cut, what the book then shows: the
headline estimates (`python -m analysis estimates` on the new version) that moved against the
release's own. Prices are test inputs near the release's own values for the same offer (Claude
Sonnet 5 is $2/$10 at Anthropic from 2026-07-09 in the release, simonw-llm-prices' row; an
H100 SXM on demand at RunPod is $2.99 in its 24 released rows); nothing here is committed.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.data import release as data  # noqa: E402
from analysis.data.paths import SHARED_SOURCES  # noqa: E402

PROV = {
    "source_title": "A reader's page",
    "source_url": "https://example.org/prices",
    "accessed": "2026-12-01",
    "entered_by": "reader",
}
SONNET = {
    "model": "Claude Sonnet 5",
    "provider": "anthropic",
    "date": "2026-09-20",
    "input_usd_per_mtok": "3",
    "output_usd_per_mtok": "15",
    **PROV,
}
H100 = {
    "gpu": "NVIDIA H100 SXM",
    "provider": "runpod",
    "date": "2026-09-08",
    "pricing": "on-demand",
    "usd_per_gpu_hour": "2.69",
    **PROV,
}
SCORE = {
    "model": "Claude Sonnet 5",
    "benchmark": "gpqa-diamond",
    "score": "80",
    "unit": "percent",
    "date": "2026-08-01",
    **PROV,
}
NEW = {"model_name": "Example Model 9", "organization": "Example Lab"}


@dataclass
class Case:
    what: str
    rows: list[dict] | None = None  # written as prices.csv (None: no file)
    args: list[str] = field(default_factory=list)  # after `data add prices.csv`
    command: list[str] | None = None  # a whole command instead
    raw: bytes | None = None  # the file's bytes, for encoding and delimiter mistakes
    twice: bool = False  # run the command twice (the second run is shown)


CASES = [
    Case("ordinary: a price the release does not hold", [SONNET | {"provider": "bedrock"}]),
    Case("per-1K price (1000x too low) for a known frontier model",
         [SONNET | {"input_usd_per_mtok": "0.002", "output_usd_per_mtok": "0.010"}]),
    Case("the same, accepted with a reason",
         [SONNET | {"input_usd_per_mtok": "0.002", "output_usd_per_mtok": "0.010"}],
         ["--accept-outlier", "page quotes per 1K tokens; kept to show the flag"]),
    Case("misspelt provider 'antropic'", [SONNET | {"provider": "antropic"}]),
    Case("a provider new to the data, deliberately", [SONNET | {"provider": "example-cloud"}],
         ["--new-provider"]),
    Case("duplicate of a released row, from another page",
         [SONNET | {"date": "2026-07-09", "input_usd_per_mtok": "2", "output_usd_per_mtok": "10"}]),
    Case("the same file entered twice", [SONNET | {"provider": "bedrock"}], twice=True),
    Case("conflicting value for a released offer and date",
         [SONNET | {"date": "2026-07-09", "input_usd_per_mtok": "2.5", "output_usd_per_mtok": "10"}]),
    Case("the conflict, confirmed",
         [SONNET | {"date": "2026-07-09", "input_usd_per_mtok": "2.5", "output_usd_per_mtok": "10"}],
         ["--confirm-conflict"]),
    Case("swapped input/output", [SONNET | {"input_usd_per_mtok": "10",
                                            "output_usd_per_mtok": "2"}]),
    Case("unknown model, no --new-model", [SONNET | {"model": "Example Model 9"}]),
    Case("new model with --new-model", [SONNET | {"model": "Example Model 9"} | NEW],
         ["--new-model"]),
    Case("a known model's name written differently (resolves to it)",
         [SONNET | {"model": "claude  sonnet-5", "model_name": "Claude Sonnet 5",
                    "organization": "Anthropic"}], ["--new-model"]),
    Case("row without provenance", [SONNET | {"entered_by": ""}]),
    Case("negative price and a date that does not exist",
         [SONNET | {"input_usd_per_mtok": "-3", "date": "2026-09-31"}]),
    Case("UTF-16 file (a spreadsheet's 'Unicode text')", raw=(
        "model,provider\nClaude Sonnet 5,anthropic\n").encode("utf-16")),
    Case("semicolon-separated file", raw=b"model;provider;date\nClaude Sonnet 5;anthropic;x\n"),
    Case("an extra column", [SONNET | {"notes": "seen on the page"}]),
    Case("missing file", command=["data", "add", "no-such-file.csv"]),
    Case("unknown table", [SONNET], ["--table", "token_price"]),
    Case("unknown version", command=["data", "diff", "LATEST", "2099-01-01"]),
    Case("a GPU price a month after the newest", [H100 | {"date": "2026-11-15"}]),
    Case("a GPU price at the newest date", [H100]),
    Case("a new GPU (in the GPU catalog, not yet priced)", [H100 | {"gpu": "AMD MI355X",
                                                                    "usd_per_gpu_hour": "2.99"}]),
    Case("an unknown GPU", [H100 | {"gpu": "Hopper-ish"}]),
    Case("a GPU price per 8-GPU node typed as per GPU", [H100 | {"usd_per_gpu_hour": "215"}]),
    Case("a benchmark score for an unknown benchmark", [SCORE | {"benchmark": "GPQA Diamnd"}]),
    Case("a benchmark score for a known benchmark, a new date",
         [SCORE | {"date": "2026-09-05"}]),
    Case("a GPU the data has never seen, deliberately (--new-gpu)",
         [H100 | {"gpu": "Example Accelerator 1", "usd_per_gpu_hour": "2.2"}], ["--new-gpu"]),
    Case("--new-gpu with a known GPU written otherwise",
         [H100 | {"gpu": "INTEL MAX 1550", "usd_per_gpu_hour": "2.2"}], ["--new-gpu"]),
    Case("a benchmark new to the data, deliberately (--new-benchmark)",
         [SCORE | {"benchmark": "Example Bench"}], ["--new-benchmark"]),
    Case("--new-model with a released model's name written otherwise",
         [SONNET | {"model": "CLAUDE_3_5_HAIKU_LATEST", "model_name": "Claude 3.5 Haiku",
                    "input_usd_per_mtok": "0.8", "output_usd_per_mtok": "4"}], ["--new-model"]),
    Case("data update: a source name misspelt", command=["data", "update", "--only", "simonw"]),
    Case("data update --from a folder that does not exist",
         command=["data", "update", "--from", "raw-files"]),
    Case("data update --from a folder without the source's files",
         command=["data", "update", "--from", ".", "--only", "llm-prices-simonw"]),
    Case("data update from the raw files the release was built from (simonw/llm-prices)",
         command=["data", "update", "--from", str(SHARED_SOURCES), "--only",
                  "llm-prices-simonw"]),
]  # fmt: skip


def _root(tmp: Path) -> Path:
    base = data.latest_version()
    root = tmp / "data"
    root.mkdir()
    shutil.copytree(data.data_dir() / base, root / base)
    rel = next(r for r in data.releases() if r.version == base)
    (root / "versions.json").write_text(json.dumps({"releases": [rel.__dict__]}, indent=2))
    return root


def _csv(rows: list[dict]) -> bytes:
    header = list(dict.fromkeys(k for r in rows for k in r))
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=header, lineterminator="\n")
    w.writeheader()
    w.writerows({k: r.get(k, "") for k in header} for r in rows)
    return out.getvalue().encode()


def _run(args: list[str], root: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = os.environ | {"BOOK_DATA_DIR": str(root)}
    return subprocess.run(
        [sys.executable, "-m", "analysis", *args],
        cwd=cwd,
        env=env | {"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
    )


def _estimates(root: Path, cwd: Path, version: str) -> dict[str, float | None]:
    r = _run(["estimates", "--version", version, "--json"], root, cwd)
    if r.returncode:
        return {"(estimates failed)": None}
    return {e["estimate_id"]: e["value"] for e in json.loads(r.stdout)}


def _book(before: dict, after: dict) -> str:
    if "(estimates failed)" in after:
        return "estimates FAIL"
    moved = [
        f"{k} {before[k]:.4g} -> {v:.4g}"
        for k, v in after.items()
        if v is not None and before.get(k) is not None and abs(v / before[k] - 1) > 1e-9
    ]
    missing = [k for k, v in after.items() if v is None]
    said = "; ".join(moved) if moved else "every estimate unchanged"
    return said + ("; not available: " + ", ".join(missing) if missing else "")


def _grown(root: Path, base: str, latest: str) -> str:
    """Rows each table gained (a released row is never rewritten, so counts say it)."""
    grown = []
    for table in data.tables(latest, root):
        n = data.load(table, latest, root).height - data.load(table, base, root).height
        if n:
            grown.append(f"{table} +{n}")
    return ", ".join(grown)


def run_case(case: Case, book: bool, before: dict) -> tuple[str, int, str, str]:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        root = _root(tmp)
        base = data.latest_version(root)
        if case.raw is not None or case.rows is not None:
            (tmp / "prices.csv").write_bytes(case.raw if case.raw is not None else _csv(case.rows))
        args = [base if a == "LATEST" else a for a in case.command or []] or [
            "data", "add", "prices.csv", "--data-dir", str(root), *case.args
        ]  # fmt: skip
        if args[:2] == ["data", "update"]:
            args += ["--data-dir", str(root), "--raw", str(tmp / "raw")]
        r = _run(args, root, tmp)
        if case.twice:
            r = _run(args, root, tmp)
        message = " / ".join((r.stdout + r.stderr).strip().replace(str(tmp) + "/", "").splitlines())
        latest = data.latest_version(root)
        if latest == base:
            held = "unchanged"
            shown = "unchanged"
        else:
            held = f"{latest}: " + _grown(root, base, latest)
            shown = _book(before, _estimates(root, tmp, latest)) if book else "(not run)"
        return message, r.returncode, held, shown


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-book", action="store_true", help="skip the estimates of each version")
    ap.add_argument("--only", type=int, action="append", help="run case N only (repeat)")
    a = ap.parse_args()
    before = {}
    if not a.no_book:
        with tempfile.TemporaryDirectory() as tmp:
            root = _root(Path(tmp))
            before = _estimates(root, Path(tmp), data.latest_version(root))
    print("| # | case | message | exit | release then | book then (headline estimates) |")
    print("|---|---|---|---|---|---|")
    for n, case in enumerate(CASES, start=1):
        if a.only and n not in a.only:
            continue
        message, code, held, shown = run_case(case, not a.no_book, before)
        cells = [str(n), case.what, message[:400], str(code), held[:200], shown[:300]]
        print("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |", flush=True)


if __name__ == "__main__":
    main()
