"""Build a data version from the raw public sources: `python -m analysis data build --sources DIR`.

Runs every importer, maps provider slugs to one id per seller (`analysis.data.providers`), resolves
model names to one id per model, checks keys, writes the tables and their Data Package
descriptor into a temporary folder, validates it, and only then moves it into place as
`data/<version>/` and records it in `data/versions.json`. Nothing half-written is left behind:
a failure leaves `data/` as it was.
"""

from __future__ import annotations

import importlib
import json
import tempfile
from pathlib import Path

import polars as pl
from rich.progress import Progress

from analysis.data import files, inputs, providers
from analysis.data import release as data_mod
from analysis.data.curate import panel
from analysis.data.errors import DataError, Problem
from analysis.data.importers.new_sources import NEW_IMPORTERS
from analysis.data.schema import TABLE_ORDER, TABLES
from analysis.data.validate import resource_descriptor, validate_folder

# One module per public format; see analysis/importers/__init__.py for the contract.
IMPORTERS = [
    "analysis.data.importers.epoch_prices",
    "analysis.data.importers.litellm",
    "analysis.data.importers.simonw",
    "analysis.data.importers.genai_prices",
    "analysis.data.importers.openrouter",
    "analysis.data.importers.lmarena",
    "analysis.data.importers.gundlach",
    "analysis.data.importers.epoch_benchmarks",
    "analysis.data.importers.epoch_models",
    "analysis.data.importers.epoch_hardware",
    "analysis.data.importers.gpu_index",
    "analysis.data.importers.gpu_markets",
    "analysis.data.importers.mlperf",
    "analysis.data.importers.fred",
    "analysis.data.importers.digests",
    "analysis.data.importers.model_metadata",
    *NEW_IMPORTERS,  # the ten folders added on 2026-12-01 (sources README, Part II)
]

# Tables only the source folders added on 2026-12-01 give rows for.
SOURCE_OPTIONAL_TABLES = {
    "mlperf_training_systems",
    "mlperf_training_results",
    "inference_benchmarks",
    "tco_assumptions",
    "aa_snapshots",
    "aa_index_runs",
    "tou_windows",
}

PACKAGE_TITLE = "The Economics of AI Inference: data"
HOMEPAGE = "https://github.com/inference-economics/book"
LICENCE = {
    "name": "CC-BY-4.0",
    "title": "Creative Commons Attribution 4.0 (compilation); each source keeps its own licence",
    "path": "https://creativecommons.org/licenses/by/4.0/",
}


def run_importers(sources_dir: Path, modules: list[str] = IMPORTERS) -> tuple[dict, list[dict]]:
    """Frames per table from every importer, plus every importer's SOURCES rows."""
    # An empty or cut-short raw file gets a located error here, not a traceback in an importer.
    damaged = files.check_raw_sources(sources_dir)
    if damaged:
        raise DataError(damaged)
    frames: dict[str, list[pl.DataFrame]] = {}
    sources: list[dict] = []
    with Progress(transient=True) as progress:
        task = progress.add_task("importing sources", total=len(modules))
        for name in modules:
            progress.update(task, description=f"importing {name.rsplit('.', 1)[-1]}")
            module = importlib.import_module(name)
            sources.extend(module.SOURCES)
            for table, df in module.build(sources_dir).items():
                if df.height:
                    frames.setdefault(table, []).append(df)
            progress.advance(task)
    return frames, sources


def _concat(dfs: list[pl.DataFrame]) -> pl.DataFrame:
    return pl.concat(dfs, how="diagonal_relaxed") if dfs else pl.DataFrame()


def _sources_table(rows: list[dict]) -> pl.DataFrame:
    """One row per source. Importers reading different files of one repository may each
    describe it: their notes are joined and `retrieved` is the newest; the url must agree."""
    by_id: dict[str, dict] = {}
    for r in rows:
        r = {**r, "retrieved": str(r["retrieved"]) if r.get("retrieved") else None}
        prev = by_id.get(r["source_id"])
        if prev is None:
            by_id[r["source_id"]] = r
            continue
        if prev["url"] != r["url"]:
            raise DataError(
                Problem(
                    "analysis/importers",
                    None,
                    "url",
                    r["url"],
                    f"source {r['source_id']} has two urls: {prev['url']}",
                )
            )
        notes = [n for n in (prev.get("notes"), r.get("notes")) if n]
        prev["notes"] = " ".join(dict.fromkeys(notes)) or None
        prev["retrieved"] = max(filter(None, [prev["retrieved"], r["retrieved"]]), default=None)
    cols = TABLES["sources"].column_names
    df = pl.DataFrame(
        [{c: by_id[k].get(c) for c in cols} for k in sorted(by_id)],
        schema={c: pl.String for c in cols},
    )
    return df.with_columns(pl.col("retrieved").str.to_date("%Y-%m-%d"))


def curate(
    merged: dict[str, pl.DataFrame], sources: pl.DataFrame | None = None
) -> tuple[dict[str, pl.DataFrame], list[dict]]:
    """The curated tables from the importers' frames (identity, spells, facts, flags: the one
    curation `data add` and `data update` run too, in analysis/data/curate/panel.py), and the
    count of rows each flag rule flagged or could not evaluate. `sources` (the sources table)
    gives each source's newest snapshot (`retrieved`), which decides what is still listed."""
    return panel.curate(merged, newest=panel.newest_snapshots(sources))


def _finish(table: str, df: pl.DataFrame) -> pl.DataFrame:
    """Schema column order, empty strings as nulls, rows sorted by primary key, keys unique."""
    spec = TABLES[table]
    missing = [c for c in spec.column_names if c not in df.columns]
    if missing:
        raise DataError(
            Problem(table, None, ", ".join(missing), None, "importers gave no such column")
        )
    df = df.select([pl.col(c).cast(spec.polars_schema[c], strict=True) for c in spec.column_names])
    df = df.with_columns(
        [
            pl.when(pl.col(c) == "").then(None).otherwise(pl.col(c)).alias(c)
            for c, t in df.schema.items()
            if t == pl.String
        ]
    )
    pk = spec.primary_key
    df = df.sort(pk, nulls_last=True, maintain_order=True)
    dup = df.filter(df.select(pk).is_duplicated())
    if dup.height:
        first = dup.row(0, named=True)
        raise DataError(
            Problem(
                f"{table}.csv",
                None,
                ", ".join(pk),
                ", ".join(str(first[k]) for k in pk),
                f"primary-key: {dup.height} rows share a key; the importer must deduplicate "
                f"(first from {first.get('source_locator')})",
            )
        )
    return df


def assemble(frames: dict[str, list[pl.DataFrame]], sources: list[dict]) -> dict[str, pl.DataFrame]:
    return assemble_with_counts(frames, sources)[0]


def assemble_with_counts(
    frames: dict[str, list[pl.DataFrame]], sources: list[dict]
) -> tuple[dict[str, pl.DataFrame], list[dict]]:
    merged = {t: _concat(dfs) for t, dfs in frames.items()}
    if "token_prices" in merged:  # one provider id per seller, whichever source wrote it
        merged["token_prices"] = providers.canonical_rows(merged["token_prices"])
    tables = {"sources": _sources_table(sources)}
    curated, counts = curate(merged, tables["sources"])
    tables.update(curated)
    for t in TABLE_ORDER:
        if t not in tables:
            tables[t] = merged.get(t, pl.DataFrame())
    # A build from a sources folder without the 2026-12 folders has no rows for their tables:
    # the release then does not hold them (its descriptor lists the tables it holds).
    return {
        t: _finish(t, tables[t])
        for t in TABLE_ORDER
        if not (t in SOURCE_OPTIONAL_TABLES and tables[t].is_empty())
    }, counts


def write_version(
    tables: dict[str, pl.DataFrame],
    root: Path,
    version: str,
    description: str,
    flag_counts: list[dict] | None = None,
    build_inputs: dict | None = None,
) -> Path:
    """Write data/<version>/ atomically and record it in data/versions.json. `build_inputs`: the
    descriptor's record of the raw files read (`inputs.section`)."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    dest = root / version
    with tempfile.TemporaryDirectory(dir=root, prefix=f".{version}-") as tmp:
        stage = Path(tmp) / version
        stage.mkdir()
        resources = []
        for t in (t for t in TABLE_ORDER if t in tables):
            path = stage / f"{t}.csv"
            tables[t].write_csv(path, date_format="%Y-%m-%d", line_terminator="\n")
            resources.append(
                resource_descriptor(t, path.name, data_mod.sha256(path))
                | {"bytes": path.stat().st_size}
            )
        descriptor = {
            "name": "inference-economics-data",
            "title": PACKAGE_TITLE,
            "version": version,
            # The Data Package standard wants an RFC 3339 date-time: the release day, 00:00 UTC.
            "created": f"{version_date(version)}T00:00:00Z",
            "homepage": HOMEPAGE,
            "description": description,
            "licenses": [LICENCE],
            "resources": resources,
        }
        if flag_counts is not None:
            descriptor["flag_rules"] = flag_rules(flag_counts)
        if build_inputs is not None:
            descriptor[inputs.SECTION] = build_inputs
        (stage / "datapackage.json").write_text(
            json.dumps(descriptor, indent=2) + "\n", encoding="utf-8"
        )
        problems = validate_folder(stage)
        if problems:
            raise DataError(problems)
        if dest.exists():
            if _same_tree(stage, dest):
                return dest  # rebuilding a released version byte for byte is a no-op
            raise DataError(
                Problem(
                    str(dest),
                    None,
                    None,
                    version,
                    "released versions are immutable; choose a new version id",
                )
            )
        stage.rename(dest)
    _record_release(root, version, description)
    return dest


def flag_rules(counts: list[dict]) -> list[dict]:
    """The descriptor's record of the anomaly rules: id, table, why, rows flagged, rows the
    rule could not evaluate (they stay unflagged)."""
    from analysis.data.curate.flags import RULES

    why = {r.id: r.why for r in RULES}
    return [
        {
            "rule": c["rule"],
            "table": c["table"],
            "why": why.get(c["rule"], ""),
            "flagged": c["flagged"],
            "not_evaluable": c["not_evaluable"],
            "rows": c["rows"],
        }
        for c in counts
    ]


def _same_tree(a: Path, b: Path) -> bool:
    fa = sorted(p.name for p in a.iterdir())
    return fa == sorted(p.name for p in b.iterdir()) and all(
        (a / n).read_bytes() == (b / n).read_bytes() for n in fa
    )


def version_date(version: str) -> str:
    """Versions are named by release date, YYYY-MM-DD (a `.N` suffix for a second release that day)."""
    return data_mod.version_date(version).isoformat()


def _record_release(root: Path, version: str, description: str) -> None:
    index = root / "versions.json"
    current = json.loads(index.read_text(encoding="utf-8")) if index.exists() else {"releases": []}
    current["releases"] = [r for r in current["releases"] if r["version"] != version]
    current["releases"].append(
        {
            "version": version,
            "released": version_date(version),
            "datapackage_sha256": data_mod.sha256(root / version / "datapackage.json"),
            "description": description,
        }
    )
    current["releases"].sort(key=lambda r: r["version"])
    tmp = index.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(current, indent=2) + "\n", encoding="utf-8")
    tmp.replace(index)


def build(
    sources_dir: Path,
    version: str,
    out_root: Path,
    description: str,
    modules: list[str] = IMPORTERS,
) -> Path:
    """Build `version` from the raw files under `sources_dir` (and `seeds/` beside it).

    Every raw file is checked against its folder's `_PROVENANCE.tsv` before anything is read, and
    again after the importers ran (a file changed during the build is caught too); the release's
    descriptor records them all (`build_inputs`), so it can be rebuilt from exactly those bytes.
    """
    sources_dir = Path(sources_dir)
    pinned = inputs.list_inputs(sources_dir)
    frames, sources = run_importers(sources_dir, modules)
    inputs.verify(sources_dir, pinned)
    tables, counts = assemble_with_counts(frames, sources)
    section = inputs.section(pinned, list(modules))
    return write_version(tables, out_root, version, description, counts, section)
