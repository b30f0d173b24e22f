"""Curated lookup tables: small CSV files under `analysis/data/tables/`, each with a schema.

These are the project's own judgements (which provider slug is which seller, which file of an
export holds which benchmark, which organisation develops which models), kept as data so a change
is a reviewable one-line diff. `read(name)` checks a table against its `Spec` before anything uses
it: the header, required cells, patterns, allowed values, booleans and the unique key. Every
problem is reported at once, naming the file, the row (1-based, header not counted), the column,
the value and the rule, as for the released data.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from analysis.data.errors import DataError, Problem
from analysis.data.reads import memo
from analysis.data.schema import SLUG

TABLES_DIR = Path(__file__).parent / "tables"


@dataclass(frozen=True)
class Col:
    name: str
    required: bool = False
    pattern: str | None = None  # regular expression the whole cell must match
    enum: tuple[str, ...] | None = None
    boolean: bool = False  # "true" / "false" (or empty when not required)


@dataclass(frozen=True)
class Spec:
    name: str  # file name without .csv
    description: str
    columns: list[Col]
    key: list[str] = field(default_factory=list)  # unique across rows (empty: no key)
    sorted_by_key: bool = False  # rows must be in key order (keeps diffs small)

    @property
    def path(self) -> Path:
        return TABLES_DIR / f"{self.name}.csv"


def check(spec: Spec, path: Path) -> tuple[list[dict[str, str]], list[Problem]]:
    """Rows of `path` read as `spec`, and every problem found."""
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        header = reader.fieldnames or []
        rows = list(reader)
    expected = [c.name for c in spec.columns]
    if header != expected:
        rule = f"columns must be {','.join(expected)}"
        return rows, [Problem(str(path), None, None, ",".join(header), rule)]
    problems: list[Problem] = []
    seen: dict[tuple, int] = {}
    previous: tuple | None = None
    for i, row in enumerate(rows, start=1):
        if None in row:  # more cells than columns
            problems.append(Problem(str(path), i, None, str(row[None]), "too many cells"))
        for c in spec.columns:
            value = row.get(c.name)
            if value is None:
                problems.append(Problem(str(path), i, c.name, None, "too few cells"))
                continue
            if value != value.strip():
                problems.append(Problem(str(path), i, c.name, value, "no surrounding spaces"))
            if value == "":
                if c.required:
                    problems.append(Problem(str(path), i, c.name, value, "a value is required"))
                continue
            if c.pattern and not re.fullmatch(c.pattern, value):
                problems.append(Problem(str(path), i, c.name, value, f"must match {c.pattern}"))
            if c.enum and value not in c.enum:
                rule = "must be one of " + ", ".join(c.enum)
                problems.append(Problem(str(path), i, c.name, value, rule))
            if c.boolean and value not in ("true", "false"):
                problems.append(Problem(str(path), i, c.name, value, "must be true or false"))
        if spec.key:
            k = tuple(row.get(c) for c in spec.key)
            if k in seen:
                rule = f"duplicate key ({', '.join(spec.key)}); first at row {seen[k]}"
                problems.append(Problem(str(path), i, None, ", ".join(map(str, k)), rule))
            seen.setdefault(k, i)
            if spec.sorted_by_key and previous is not None and k < previous:
                rule = f"rows must be sorted by {', '.join(spec.key)}"
                problems.append(Problem(str(path), i, spec.key[0], str(k[0]), rule))
            previous = k
    return rows, problems


def read_checked(spec: Spec, path: Path | None = None) -> list[dict[str, str]]:
    """Rows of a curated table; raises DataError listing every problem."""
    rows, problems = check(spec, path or spec.path)
    if problems:
        raise DataError(problems)
    return rows


@memo
def read(name: str) -> tuple[dict[str, str], ...]:
    """The rows of one registered table (checked once per process)."""
    return tuple(read_checked(SPECS[name]))


def boolean(text: str) -> bool | None:
    return {"true": True, "false": False}.get(text)


SPECS: dict[str, Spec] = {}


def register(spec: Spec) -> Spec:
    SPECS[spec.name] = spec
    return spec


ID = SLUG
register(
    Spec(
        "providers",
        "Every provider slug an importer writes -> the canonical id of the seller (see "
        "analysis/data/providers.py); `seller` only for a separate offer of a seller.",
        [
            Col("slug", required=True, pattern=ID),
            Col("provider", required=True, pattern=ID),
            Col("seller", pattern=ID),
            Col("why"),
        ],
        key=["slug"],
        sorted_by_key=True,
    )
)
register(
    Spec(
        "developers",
        "Model developers: canonical id, the organisation names sources use (a regular "
        "expression on the lowercased name), and the provider ids that are the developer's own "
        "API (see analysis/data/curate/identity.py).",
        [
            Col("developer", required=True, pattern=ID),
            Col("name", required=True),
            Col("organization_pattern", required=True),
            Col("own_providers", pattern=r"[a-z0-9][a-z0-9._+-]*(;[a-z0-9][a-z0-9._+-]*)*"),
            Col("why"),
        ],
        key=["developer"],
        sorted_by_key=True,
    )
)
register(
    Spec(
        "epoch_benchmark_files",
        "Which file and column of Epoch AI's exports hold which benchmark, and in what form "
        "(see analysis/data/importers/epoch_benchmarks.py).",
        [
            Col("benchmark", required=True, pattern=ID),
            Col("unit", required=True, enum=("percent", "elo", "index")),
            Col("export", required=True, enum=("hub", "stitching")),
            Col("file", required=True, pattern=r"[a-z0-9_]+\.csv"),
            Col("column", required=True),
            Col("form", required=True, enum=("fraction", "percent", "percent-string", "number")),
            Col("note"),
        ],
        key=["export", "file"],
    )
)
register(
    Spec(
        "epoch_run_tasks",
        "Epoch's own runs (benchmarks_runs.csv `task`) -> benchmark id.",
        [Col("task", required=True), Col("benchmark", required=True, pattern=ID), Col("note")],
        key=["task"],
    )
)
register(
    Spec(
        "epoch_skipped_files",
        "Files of Epoch's exports that the importer reads no scores from, and why.",
        [Col("file", required=True, pattern=r"[a-z0-9_]+\.csv"), Col("reason", required=True)],
        key=["file"],
    )
)
register(
    Spec(
        "model_families",
        "Name families and their developer: a slug no catalog entry or source metadata names, "
        "but whose name is the developer's own family name (first matching pattern wins; see "
        "analysis/data/curate/identity.py).",
        [
            Col("pattern", required=True),
            Col("developer", required=True, pattern=ID),
            Col("why", required=True),
        ],
        key=["pattern"],
    )
)
register(
    Spec(
        "model_catalog",
        "Curated models: canonical id, display name, organisation, aliases (';'-separated; "
        "a leading '=' makes an alias exact-only). See analysis/data/models.py.",
        [
            Col("model_id", required=True, pattern=ID),
            Col("name", required=True),
            Col("organization"),
            Col("aliases"),
        ],
        key=["model_id"],
    )
)
# The evidence class of a GPU-hour row (issue 19, class 10): what kind of evidence a source's
# statistic is. `observed-listing` and `marketplace-median` are direct observations of what
# sellers listed; `index` rows are aggregates an index computes; `restated-reconstruction` rows
# are archived rate cards restated with an index's judgement factors.
GPU_EVIDENCE_CLASSES = (
    "observed-listing",
    "marketplace-median",
    "index",
    "restated-reconstruction",
)
DIRECT_EVIDENCE = ("observed-listing", "marketplace-median")
register(
    Spec(
        "gpu_evidence_classes",
        "gpu_hour_prices (source_id, statistic) -> evidence class, with the reason from the "
        "sources README (see gpu_evidence_class below).",
        [
            Col("source_id", required=True, pattern=ID),
            Col("statistic", required=True, pattern=ID),
            Col("evidence_class", required=True, enum=GPU_EVIDENCE_CLASSES),
            Col("reason", required=True),
        ],
        key=["source_id", "statistic"],
        sorted_by_key=True,
    )
)


def gpu_evidence_classes() -> dict[tuple[str, str], str]:
    """(source_id, statistic) -> evidence class, from the checked table."""
    return {
        (r["source_id"], r["statistic"]): r["evidence_class"] for r in read("gpu_evidence_classes")
    }


def gpu_evidence_class_problems(pairs: list[tuple[str, str]], where: str) -> list[Problem]:
    """A problem for each (source_id, statistic) of gpu_hour_prices the table does not class."""
    known = gpu_evidence_classes()
    rule = "no evidence class in analysis/data/tables/gpu_evidence_classes.csv"
    return [
        Problem(where, None, "source_id, statistic", f"{s}, {t}", rule)
        for s, t in sorted(set(pairs))
        if (s, t) not in known
    ]


def _names_table(table: str, key: str, what: str, precedence: str) -> Spec:
    """A curated table of display names (`key`, `name`, `where`): how a source that lists each
    id names it, read by analysis/report/names.py."""
    return Spec(
        table,
        f"Display names of {what}: how a source that lists each names it (`where`: the source, "
        f"its file or key, and the field), read by analysis/report/names.py. {precedence}",
        [
            Col(key, required=True, pattern=ID),
            Col("name", required=True),
            Col("where", required=True),
        ],
        key=[key],
        sorted_by_key=True,
    )


register(
    _names_table(
        "model_names",
        "model_id",
        "models the release's models table does not name (its `name` is the id)",
        "The models table's own name wins where it has one.",
    )
)
register(
    _names_table(
        "gpu_names",
        "gpu",
        "accelerators the release's gpu_specs table does not name",
        "The gpu_specs table's own name wins where it has one.",
    )
)
register(
    _names_table(
        "provider_names",
        "provider",
        "providers the developers table does not name",
        "A provider's name is how it writes itself in that source.",
    )
)
