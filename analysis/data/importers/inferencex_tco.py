"""SemiAnalysis InferenceX's GPU cost assumptions: $/GPU-hour by ownership model, and kW per GPU.

Where and when: `github.com/SemiAnalysisAI/InferenceX-app` (GPL-3.0),
`packages/app/src/lib/constants.ts`, two versions: 2026-03-18 (initial commit c410b1f5) and
2026-04-02 (8647066e), in `inferencex-tco-assumptions/` (sources README, Part II §2.2). The data
is the TypeScript `GPU_SPECS` table, one line per GPU:

    h100: { power: 1.73, costh: 1.3, costn: 1.69, costr: 1.3 },

The repository's docs call `costh` / `costn` / `costr` the hyperscaler-owning / neocloud /
3-year-rental GPU hourly costs (USD per GPU-hour) and the app labels `power` kW; the app divides a
cost by tokens per hour to get $ per million tokens. These are a calculator's assumptions, not
observed prices: they go to `tco_assumptions` (analysis.data.schema), not to
gpu_hour_prices.

One row per GPU x ownership model. A comment line saying "temporary" (B300: "using 1.2x B200
pricing until official pricing is available"; GB300 the same of GB200) marks the entry below it
`provisional`. The two versions carry identical lines, so each value is one spell: dated by the
first version (2026-03-18), `last_seen` the last (2026-04-02), located at its line in the first.
Everything else in the file (colours, hardware labels) is not data and is not read.
"""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.gpus import canonical_gpu
from analysis.data.importers.common import frame, locator
from analysis.data.importers.new_sources import observed_date, spells

FOLDER = "inferencex-tco-assumptions"
SOURCE_ID = "inferencex-tco"
TABLE = "tco_assumptions"
FIELDS = {"costh": "hyperscaler-owned", "costn": "neocloud", "costr": "3-year-rental"}

SOURCES = [
    {
        "source_id": SOURCE_ID,
        "title": "InferenceX app: GPU_SPECS cost and power assumptions (constants.ts)",
        "publisher": "SemiAnalysis (SemiAnalysisAI/InferenceX-app)",
        "url": "https://github.com/SemiAnalysisAI/InferenceX-app",
        "licence": "GPL-3.0",
        "retrieved": "2026-04-02",
        "notes": "Assumed USD per GPU-hour for hyperscaler owning (costh), neocloud (costn) and "
        "3-year rental (costr), and kW per GPU; B300 and GB300 costs are marked temporary "
        "(1.2x B200 / GB200). A calculator's inputs, not observed prices.",
    }
]

_START = re.compile(r"^export const GPU_SPECS\b.*=\s*\{\s*$")
_ENTRY = re.compile(r"^\s*'?([a-z0-9_-]+)'?\s*:\s*\{(.*)\}\s*,?\s*$")
_FIELD = re.compile(r"^\s*([a-z]+)\s*:\s*([0-9.]+)\s*$")


def parse_constants(path: Path) -> list[dict]:
    """GPU_SPECS entries: {gpu key, line, power, costh, costn, costr, provisional}."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next((i for i, line in enumerate(lines) if _START.match(line)), None)
    if start is None:
        raise fail(path, None, "GPU_SPECS", None, "no `export const GPU_SPECS = {` block")
    out, provisional = [], False
    for n in range(start + 2, len(lines) + 1):  # n: 1-based line number
        text = lines[n - 1].strip()
        if text.startswith("}"):
            break
        if not text:
            continue
        if text.startswith("//"):
            provisional = provisional or "temporary" in text.lower()
            continue
        out.append(_entry(path, n, lines[n - 1], provisional))
        provisional = False
    else:
        raise fail(path, None, "GPU_SPECS", None, "the GPU_SPECS block is never closed")
    if not out:
        raise fail(path, start + 1, "GPU_SPECS", None, "the GPU_SPECS block has no entries")
    return out


def _entry(path: Path, n: int, line: str, provisional: bool) -> dict:
    m = _ENTRY.match(line)
    if m is None:
        raise fail(
            path, n, "GPU_SPECS", line.strip(), "expected `gpu: { power: x, costh: y, ... }`"
        )
    fields = {}
    for part in m.group(2).split(","):
        if not part.strip():
            continue
        f = _FIELD.match(part)
        if f is None:
            raise fail(path, n, m.group(1), part.strip(), "expected `name: number`")
        fields[f.group(1)] = float(f.group(2))
    missing = [k for k in ("power", *FIELDS) if k not in fields]
    if missing:
        raise fail(path, n, missing[0], line.strip(), "field missing from the entry")
    return {"key": m.group(1), "line": n, "provisional": provisional, **fields}


def _gpu(path: Path, n: int, key: str) -> str:
    gpu = canonical_gpu(key)
    if gpu is None:
        raise fail(path, n, "GPU_SPECS", key, "GPU key not known to analysis.data.gpus")
    return gpu


def build(sources_dir: Path) -> dict[str, pl.DataFrame]:
    sources_dir = Path(sources_dir)
    rows = []
    for path in sorted((sources_dir / FOLDER).glob("*_constants.ts")):
        day = observed_date(sources_dir, path)
        for e in parse_constants(path):
            for field_name, ownership in FIELDS.items():
                rows.append(
                    {
                        "gpu": _gpu(path, e["line"], e["key"]),
                        "source_gpu_name": e["key"],
                        "date": day,
                        "last_seen": day,
                        "ownership": ownership,
                        "usd_per_gpu_hour": e[field_name],
                        "power_kw_per_gpu": e["power"],
                        "provisional": e["provisional"],
                        "source_field": field_name,
                        "source_id": SOURCE_ID,
                        "source_locator": locator(
                            sources_dir, path, f"line {e['line']} ({e['key']}.{field_name})"
                        ),
                    }
                )
    if not rows:
        raise fail(sources_dir / FOLDER, None, None, None, "no *_constants.ts file found")
    values = ("usd_per_gpu_hour", "power_kw_per_gpu", "provisional")
    kept = spells(rows, ("gpu", "source_gpu_name", "ownership"), values)
    df = frame(TABLE, kept).sort("gpu", "ownership", "date")
    return {TABLE: df}
