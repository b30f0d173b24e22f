"""Hand-entered observations: `python -m analysis data add FILE.csv`.

A reader who has read this month's prices on a provider's page writes them in a CSV whose
header `data add --template TABLE` prints (token_prices, gpu_hour_prices, benchmark_scores),
one row per observation. Every row carries its provenance: the source's title, its URL (or, for
a document, a reference to it), the date it was accessed and who entered it; a row without them
is refused. Then:

1. each name is resolved to the data's ids: a model through the release's ids and aliases and
   `analysis.data.models` (catalog, normalisation), a provider through
   `analysis.data.providers`, a GPU through `analysis.data.gpus`; an unknown model is refused
   with the closest known ids (difflib), unless `--new-model` adds it with the metadata columns
   of its row (`model_name`, `organization`, ...);
2. the rows, the new models and a `sources` row per source (id derived from its URL or title)
   are checked with `analysis.data.validate`, each problem located in FILE (row, column, value,
   rule);
3. a new version is cut from the latest release plus these rows (`analysis.data.cut`): nothing
   is written unless every check passes.

A hand-entered row's `source_locator` says where the value sits (the row's own `source_locator`,
e.g. a table or section, after the URL), when it was read and by whom.
"""

from __future__ import annotations

import csv
import difflib
import hashlib
import io
import json
import re
import tempfile
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from urllib.parse import urlparse

import polars as pl

from analysis.data import cut, gpu_evidence, gpus, models, providers
from analysis.data import release as data_mod
from analysis.data.curate import first_party, models_table, panel, spells
from analysis.data.errors import DataError, Problem
from analysis.data.importers.common import slug
from analysis.data.paths import ROOT
from analysis.data.schema import CURATION_COLUMNS, PRICE_CURATION_COLUMNS, SLUG, TABLES
from analysis.data.validate import validate_resource

# Provenance every row must carry, and what may come with it.
PROVENANCE = {
    "source_title": "Title of the page or document the values were read from",
    "source_url": "Its URL, or a reference to the document (publisher, title, edition)",
    "accessed": "Date the source was read, YYYY-MM-DD",
    "entered_by": "Who entered the row (name or handle)",
}
PROVENANCE_OPTIONAL = {
    "source_publisher": "Who publishes the source (default: the URL's host)",
    "source_licence": "The source's licence, as it states it",
}
LOCATOR_HELP = "Where in the source the value sits: table, section, page (optional)"
# A new model's facts (used with --new-model only), as the source states them.
MODEL_META = {
    "model_name": "name",
    "organization": "organization",
    "release_date": "release_date",
    "open_weights": "open_weights",
    "parameters_b": "parameters_b",
    "active_parameters_b": "active_parameters_b",
    "reasoning": "reasoning",
}


@dataclass(frozen=True)
class Template:
    table: str
    identity: str  # the template column naming the model, GPU or benchmark as the source does
    direct: list[str]  # table columns entered as they are
    defaults: dict[str, str]
    required: list[str]  # template columns that must be filled (beyond provenance)

    @property
    def columns(self) -> list[str]:
        meta = list(MODEL_META) if self.identity == "model" else []
        return [
            self.identity,
            *self.direct,
            "source_locator",
            *PROVENANCE,
            *PROVENANCE_OPTIONAL,
            *meta,
        ]


def _direct(table: str, derived: set[str]) -> list[str]:
    skip = derived | {"source_id", "source_locator"}
    return [c for c in TABLES[table].column_names if c not in skip]


# The curation writes these (analysis/data/curate/): ids, spells, sources, flags, offers.
CURATED = {c.name for c in CURATION_COLUMNS}
CURATED_PRICES = CURATED | {c.name for c in PRICE_CURATION_COLUMNS} | {"first_party", "last_seen"}
TEMPLATES: dict[str, Template] = {
    "token_prices": Template(
        "token_prices",
        "model",
        _direct("token_prices", {"model_id", "source_model_name", *CURATED_PRICES}),
        {"currency": "USD", "price_kind": "list"},
        ["model", "provider", "date"],
    ),
    "gpu_hour_prices": Template(
        "gpu_hour_prices",
        "gpu",
        _direct("gpu_hour_prices", {"gpu", "source_gpu_name", *CURATED}),
        {"statistic": "quote"},
        ["gpu", "provider", "date", "pricing", "usd_per_gpu_hour"],
    ),
    "benchmark_scores": Template(
        "benchmark_scores",
        "model",
        _direct("benchmark_scores", {"model_id", "source_model_name", *CURATED}),
        {},
        ["model", "benchmark", "score", "unit", "date"],
    ),
}
PRICE_COLUMNS = [
    "input_usd_per_mtok",
    "output_usd_per_mtok",
    "cached_input_usd_per_mtok",
    "batch_input_usd_per_mtok",
    "batch_output_usd_per_mtok",
    "blended_usd_per_mtok",
    "input_original_per_mtok",
    "output_original_per_mtok",
    "blended_original_per_mtok",
]
ORIGINAL_COLUMNS = [c for c in PRICE_COLUMNS if "_original_" in c]


def template(table: str) -> str:
    """The CSV header of the template for `table`."""
    if table not in TEMPLATES:
        raise KeyError(f"no template for {table!r}; tables: {', '.join(TEMPLATES)}")
    return ",".join(TEMPLATES[table].columns) + "\n"


def template_help(table: str) -> str:
    """One line per template column: required or optional, and what goes in it."""
    t = TEMPLATES[table]
    spec = TABLES[table]
    lines = []
    for c in t.columns:
        if c == t.identity:
            what = {
                "model": "The model's name as the source writes it (resolved to a model id)",
                "gpu": "The GPU's name as the source writes it (resolved to a GPU id)",
            }[c]
        elif c in PROVENANCE:
            what = PROVENANCE[c]
        elif c in PROVENANCE_OPTIONAL:
            what = PROVENANCE_OPTIONAL[c]
        elif c == "source_locator":
            what = LOCATOR_HELP
        elif c in MODEL_META:
            what = "With --new-model: " + TABLES["models"].column(MODEL_META[c]).description
        else:
            what = spec.column(c).description
            enum = spec.column(c).enum
            if enum and not all(e in what for e in enum):
                what += f" ({' / '.join(enum)})"
        need = "required" if c in t.required or c in PROVENANCE else "optional"
        default = f", default {t.defaults[c]}" if c in t.defaults else ""
        lines.append(f"{c}: {need}{default}. {what}")
    lines.append("Optional columns may be left empty or removed from the header.")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# reading the file
# --------------------------------------------------------------------------------------------

UTF16 = (
    "encoding: the file is UTF-16 (a spreadsheet's 'Unicode text' export), not UTF-8: save it as "
    "'CSV UTF-8', or convert it: iconv -f UTF-16 -t UTF-8 FILE > FILE-utf8.csv"
)
NOT_UTF8 = (
    "encoding: not valid UTF-8 (saved as Windows-1252 / Latin-1?): save it as 'CSV UTF-8', or "
    "convert it: iconv -f WINDOWS-1252 -t UTF-8 FILE > FILE-utf8.csv"
)


def _read(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    if not path.is_file():
        why = "is a folder, not a CSV file" if path.is_dir() else "no such file"
        raise DataError(Problem(str(path), None, None, None, why))
    raw = path.read_bytes()
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in raw.split(b"\n", 1)[0]:
        raise DataError(Problem(str(path), None, None, None, UTF16))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        row = raw[: e.start].count(b"\n") or None  # the header is line 1, data row 1 line 2
        bad = "0x" + raw[e.start : e.end].hex()
        raise DataError(Problem(str(path), row, None, bad, f"byte {e.start}: {NOT_UTF8}")) from None
    with io.StringIO(text, newline="") as fh:
        reader = csv.DictReader(fh)
        header = [h.strip() for h in (reader.fieldnames or [])]
        rows = [
            {h: (v or "").strip() for h, v in zip(header, r.values(), strict=False)}
            for r in reader
            if any((v or "").strip() for v in r.values() if isinstance(v, str))
        ]
    return header, rows


def infer_table(header: list[str]) -> str | None:
    """The one template whose columns hold every header column and whose identity column is there."""
    fits = [
        t.table
        for t in TEMPLATES.values()
        if t.identity in header and set(header) <= set(t.columns) and set(t.required) <= set(header)
    ]
    return fits[0] if len(fits) == 1 else None


def _no_template(file: str, header: list[str]) -> Problem:
    """Why a header fits no template: another delimiter, or the columns no template has."""
    if len(header) == 1:
        for sep, name in ((";", "semicolons"), ("\t", "tabs"), ("|", "pipes")):
            if sep in header[0]:
                return Problem(file, None, None, header[0][:60],
                               f"delimiter: the header is separated by {name}, not commas: save "
                               "the file with ',' as the separator (a spreadsheet's 'CSV UTF-8')")  # fmt: skip
    known = {c for t in TEMPLATES.values() for c in t.columns}
    unknown = [c for c in header if c not in known]
    if unknown:
        return Problem(file, None, None, ",".join(unknown),
                       f"header has {len(unknown)} column(s) no template knows: "
                       f"{', '.join(unknown)}; remove them, or compare with "
                       "`data add --template TABLE`")  # fmt: skip
    return Problem(file, None, None, ",".join(header),
                   "header matches no template; print one with `data add --template TABLE` "
                   f"({', '.join(TEMPLATES)}) or pass --table")  # fmt: skip


def _header_problems(file: str, header: list[str], t: Template) -> list[Problem]:
    problems = [
        Problem(file, None, c, c, f"unknown column for {t.table}; the template's columns are "
                + ",".join(t.columns))
        for c in header
        if c not in t.columns
    ]  # fmt: skip
    for c in [*t.required, *PROVENANCE]:
        if c not in header:
            problems.append(Problem(file, None, c, None, "required column is missing"))
    return problems


# --------------------------------------------------------------------------------------------
# provenance and sources
# --------------------------------------------------------------------------------------------


def _is_url(text: str) -> bool:
    u = urlparse(text)
    return u.scheme in ("http", "https") and bool(u.netloc)


def derive_source_id(title: str, url: str) -> str:
    """`hand-` and a slug of the URL's host and path (of the title, for a document)."""
    if _is_url(url):
        u = urlparse(url)
        base = u.netloc.removeprefix("www.") + u.path
    else:
        base = title
    s = slug(base)[:48].strip("-.")
    # The prefix marks a hand entry for the curation (each row stays its own row).
    return f"{spells.HAND_ENTERED}{s}" if s else f"{spells.HAND_ENTERED}source"


def _hash_suffix(title: str, url: str) -> str:
    return hashlib.sha256(f"{title}\n{url}".encode()).hexdigest()[:6]


@dataclass
class _Source:
    source_id: str
    title: str
    url: str
    publisher: str
    licence: str
    accessed: set[str]
    entered_by: set[str]
    rows: int = 0


def _provenance(
    file: str, i: int, row: dict[str, str], problems: list[Problem]
) -> tuple[str, str, str, str] | None:
    """(title, url, accessed, entered_by) of one row, or None with the problems recorded."""
    missing = [c for c in PROVENANCE if not row.get(c)]
    for c in missing:
        problems.append(
            Problem(file, i, c, "", f"provenance is required on every row: {PROVENANCE[c]}")
        )
    accessed = row.get("accessed", "")
    if accessed:
        try:
            day = date.fromisoformat(accessed)
        except ValueError:
            problems.append(Problem(file, i, "accessed", accessed, "must be a date YYYY-MM-DD"))
            return None
        if day > date.today():
            problems.append(Problem(file, i, "accessed", accessed, "is in the future"))
            return None
    if not row.get("source_publisher") and row.get("source_url") and not _is_url(row["source_url"]):
        problems.append(
            Problem(
                file,
                i,
                "source_publisher",
                "",
                "required when source_url is a document reference rather than a URL",
            )
        )
        return None
    if missing:
        return None
    return row["source_title"], row["source_url"], accessed, row["entered_by"]


def _assign_source(
    sources: dict[tuple[str, str], _Source],
    existing: pl.DataFrame,
    title: str,
    url: str,
    row: dict[str, str],
) -> _Source:
    key = (title, url)
    if key in sources:
        return sources[key]
    sid = derive_source_id(title, url)
    taken_here = {s.source_id for s in sources.values()}
    prior = existing.filter(pl.col("source_id") == sid)
    reused = prior.height == 1 and prior["url"][0] == url and prior["title"][0] == title
    if (prior.height and not reused) or sid in taken_here:
        sid = f"{sid}-{_hash_suffix(title, url)}"
    publisher = row.get("source_publisher") or urlparse(url).netloc.removeprefix("www.")
    src = _Source(sid, title, url, publisher, row.get("source_licence", ""), set(), set())
    src.rows = -1 if reused else 0  # -1: already a source of the release; no new row
    sources[key] = src
    return src


def _sources_rows(sources: dict[tuple[str, str], _Source], file: Path) -> pl.DataFrame:
    rows = [
        {
            "source_id": s.source_id,
            "title": s.title,
            "publisher": s.publisher,
            "url": s.url,
            "licence": s.licence or None,
            "retrieved": max(s.accessed),
            "notes": f"Entered by hand with `data add` from {file.name} by "
            f"{', '.join(sorted(s.entered_by))}; accessed {', '.join(sorted(s.accessed))}.",
        }
        for s in sources.values()
        if s.rows >= 0
    ]
    schema = {c: pl.String for c in TABLES["sources"].column_names}
    return pl.DataFrame(rows, schema=schema).with_columns(pl.col("retrieved").str.to_date())


# --------------------------------------------------------------------------------------------
# identity
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Known:
    models: pl.DataFrame  # the release's models table
    alias: dict[str, str]  # lowercased alias or id -> model_id
    gpus: set[str]
    benchmarks: set[str]
    token_providers: set[str]  # provider ids of token_prices, and the provider table's
    gpu_providers: set[str]
    compact: dict[str, str]  # compact_name of every id, alias and source name -> model_id

    @classmethod
    def of(cls, version: str, root: Path) -> Known:
        m = data_mod.load("models", version, root)
        alias: dict[str, str] = {}
        for mid, aliases in m.select("model_id", "aliases").iter_rows():
            for a in filter(None, (aliases or "").split(";")):
                alias.setdefault(a.strip().lower(), mid)
        for mid in m["model_id"]:
            alias[mid] = mid
        gpu_ids = set(data_mod.load("gpu_hour_prices", version, root)["gpu"]) | set(
            data_mod.load("gpu_specs", version, root)["gpu"]
        )
        bench = data_mod.load("benchmark_scores", version, root)
        tp = data_mod.load("token_prices", version, root)
        gp = data_mod.load("gpu_hour_prices", version, root)
        token_providers = set(tp["provider"]) | set(providers.table()["provider"])
        compact: dict[str, str] = {}
        for frame in (tp, bench):
            for name, mid in frame.select("source_model_name", "model_id").unique().iter_rows():
                if name and mid:
                    compact.setdefault(compact_name(name), mid)
        for a, mid in alias.items():
            compact.setdefault(compact_name(a), mid)
        return cls(
            m,
            alias,
            gpu_ids,
            set(bench["benchmark"]),
            token_providers,
            set(gp["provider"]),
            compact,
        )


def compact_name(name: str) -> str:
    """A name with case, spaces and punctuation dropped, and a provider prefix before `/`:
    `Anthropic/Claude-Sonnet 5` and `claude sonnet 5` are both `claudesonnet5`."""
    return re.sub(r"[^a-z0-9.]", "", name.lower().rsplit("/", 1)[-1]).replace(".", "")


def resolve_model(name: str, known: Known) -> tuple[str, bool]:
    """(model_id, known): the release's id for `name`, else the id a new model would get."""
    key = name.strip().lower()
    if key in known.alias:
        return known.alias[key], True
    candidate = models.match_catalog(name, None) or models.normalize(name)
    if candidate in known.alias:
        return known.alias[candidate], True
    return candidate, False


def closest(word: str, choices: set[str], n: int = 3) -> list[str]:
    return difflib.get_close_matches(word, sorted(choices), n=n, cutoff=0.5)


def _suggest(word: str, choices: set[str]) -> str:
    near = closest(word, choices)
    return f"closest known: {', '.join(near)}" if near else "no known id is close"


# --------------------------------------------------------------------------------------------
# the rows
# --------------------------------------------------------------------------------------------


@dataclass
class _NewModel:
    model_id: str
    row: int  # first input row naming it
    names: set[str]
    meta: dict[str, str]


def _write_rows(path: Path, table: str, rows: list[dict]) -> None:
    names = TABLES[table].column_names
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=names, lineterminator="\n")
        w.writeheader()
        w.writerows({c: r.get(c) or "" for c in names} for r in rows)


def _validate_as(table: str, rows: list[dict], file: str, columns: dict[str, str]) -> list[Problem]:
    """Check rows (strings) with analysis.data.validate as `table`; problems located in `file`
    (row i of `rows` is data row i there, columns named as the template names them).
    No rows is nothing to check (e.g. no new models), not a header-only release table."""
    if not rows:
        return []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{table}.csv"
        _write_rows(path, table, rows)
        found = validate_resource(path, table)
    return [
        Problem(file, p.row, columns.get(p.column or "", p.column), p.value, p.rule) for p in found
    ]


def _typed(table: str, rows: list[dict]) -> pl.DataFrame:
    """Rows (strings, already validated) with the table's dtypes."""
    if not rows:  # e.g. no new models: an empty frame, not a header-only file to validate
        return pl.DataFrame(schema=TABLES[table].polars_schema)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{table}.csv"
        _write_rows(path, table, rows)
        return data_mod.read_table_csv(path, table)


# Table columns that come from a template column of another name (for locating problems).
TEMPLATE_COLUMN = {
    "model_id": "model",
    "source_model_name": "model",
    "source_gpu_name": "gpu",
    "source_id": "source_title",
    "name": "model_name",
}


@dataclass(frozen=True)
class Added:
    version: str
    path: Path
    table: str
    rows: int
    new_models: list[str]
    new_sources: list[str]
    outcomes: list[Outcome] = field(default_factory=list)  # what happened to each input row
    chapters: list[str] = field(default_factory=list)  # the pages that read `table`
    merged: int = 0  # rows that added a source to a fact the release holds


@dataclass(frozen=True)
class Outcome:
    row: int  # data row of the input file
    status: str  # added, merged, flagged
    detail: str


def add(
    file: Path,
    table: str | None = None,
    new_model: bool = False,
    new_benchmark: bool = False,
    root: Path | None = None,
    version: str | None = None,
    description: str | None = None,
    new_provider: bool = False,
    accept_outlier: str | None = None,
    confirm_conflict: bool = False,
    new_gpu: bool = False,
) -> Added:
    """Check FILE's rows and cut a new version: the latest release plus them. Raises DataError
    with every problem found, each located in FILE; on any problem nothing is written."""
    file = Path(file)
    where = str(file)
    root = data_mod.data_dir(root)
    header, raw = _read(file)
    table = table or infer_table(header)
    if table is None:
        raise DataError(_no_template(where, header))
    if table not in TEMPLATES:
        raise DataError(Problem(where, None, None, table, f"tables: {', '.join(TEMPLATES)}"))
    t = TEMPLATES[table]
    problems = _header_problems(where, header, t)
    if problems:
        raise DataError(problems)
    if not raw:
        raise DataError(Problem(where, None, None, None, "no data rows"))

    base = data_mod.latest_version(root)
    known = Known.of(base, root)
    existing_sources = data_mod.load("sources", base, root)
    sources: dict[tuple[str, str], _Source] = {}
    new_models: dict[str, _NewModel] = {}
    out: list[dict] = []
    for i, row in enumerate(raw, start=1):
        row = {c: row.get(c, "") or t.defaults.get(c, "") for c in t.columns}
        prov = _provenance(where, i, row, problems)
        rec: dict = {c: row[c] for c in t.direct}
        if prov:
            title, url, accessed, who = prov
            src = _assign_source(sources, existing_sources, title, url, row)
            src.accessed.add(accessed)
            src.entered_by.add(who)
            rec["source_id"] = src.source_id
            where_in = "; ".join(filter(None, [url, row["source_locator"]]))
            rec["source_locator"] = f"{where_in}; accessed {accessed}; entered by {who}"
        name = row[t.identity]
        if not name:
            problems.append(Problem(where, i, t.identity, "", "a value is required"))
        elif t.identity == "gpu":
            gpu = gpus.canonical_gpu(name) or (name if name in known.gpus else None)
            if gpu is None:
                gpu = _new_gpu(where, i, name, new_gpu, known, problems)
            rec.update(gpu=gpu or "", source_gpu_name=name)
        else:
            mid, is_known = resolve_model(name, known)
            rec.update(model_id=mid, source_model_name=name)
            if not is_known:
                _new_model(where, i, name, mid, row, new_model, known, new_models, problems)
        if table == "token_prices":
            rec["provider"] = providers.canonical_provider(slug(row["provider"]))
            _known_provider(where, i, row, rec, known.token_providers, new_provider, problems)
            _price_rules(where, i, row, problems)
        elif table == "gpu_hour_prices":
            rec["provider"] = slug(row["provider"])
            _known_provider(where, i, row, rec, known.gpu_providers, new_provider, problems)
            if row["statistic"] and row["statistic"] not in gpu_evidence.HAND_ENTERED_CLASSES:
                problems.append(
                    Problem(where, i, "statistic", row["statistic"], "a hand-entered GPU-hour "
                            "price is one of: " + ", ".join(gpu_evidence.HAND_ENTERED_CLASSES)
                            + " (its evidence class follows from it)")
                )  # fmt: skip
        elif table == "benchmark_scores":
            rec["benchmark"] = slug(row["benchmark"])
            if rec["benchmark"] and rec["benchmark"] not in known.benchmarks and not new_benchmark:
                problems.append(
                    Problem(where, i, "benchmark", row["benchmark"], "unknown benchmark; "
                            + _suggest(rec["benchmark"], known.benchmarks)
                            + " (or pass --new-benchmark)")
                )  # fmt: skip
        out.append(rec)
    unsourced = {p.row for p in problems if p.column in {*PROVENANCE, "source_publisher"}}
    said = {(p.row, p.column) for p in problems}
    problems += [  # a cell already refused above (or a row without provenance) is said once
        p
        for p in _validate_as(table, out, where, TEMPLATE_COLUMN)
        if (p.row, p.column) not in said
        and not (p.row in unsourced and p.column in {"source_title", "source_locator"})
    ]
    models_rows = [_model_row(m, out, sources) for m in new_models.values()]
    model_problems = _validate_as("models", models_rows, where, TEMPLATE_COLUMN)
    rows_of = [m.row for m in new_models.values()]
    for p in model_problems:  # models rows are numbered in the order their models appear
        row = rows_of[p.row - 1] if p.row else None
        if (row, p.column) not in said:
            problems.append(Problem(p.file, row, p.column, p.value, p.rule))
    if problems:
        raise DataError(sorted(problems, key=lambda p: (p.row or 0, p.column or "")))

    typed = _typed(table, out)
    released = data_mod.load(table, base, root)
    released_links = data_mod.load("observations", base, root)
    judged = _judge(table, typed, released, where, accept_outlier, confirm_conflict)
    if judged.problems:
        raise DataError(judged.problems)
    for i, why in judged.outliers.items():  # the reason is part of the row's provenance
        out[i - 1]["source_locator"] += f"; accepted outlier: {why}"
    keep = [i for i in range(1, len(out) + 1) if i not in judged.merged]
    typed = _typed(table, [out[i - 1] for i in keep])
    merged_links = _merge_links(table, judged.merged, out, released_links)
    for src in sources.values():
        if src.rows >= 0:
            src.rows += sum(r.get("source_id") == src.source_id for r in out)
    new_models_df = _curated_models(_typed("models", models_rows))
    counts = data_mod.datapackage(base, root).get("flag_rules", [])
    rows = released.clear()
    links = released_links.clear()
    if typed.height:
        all_models = pl.concat([known.models, new_models_df])
        rows, links, ext = _curated(table, typed, base, root, all_models)
        if table == "token_prices":
            new_models_df = _first_listed(new_models_df, all_models, rows)
        described = {(r["rule"], r["table"]) for r in counts}
        counts = cut.flag_rules(
            root,
            base,
            [  # a rule newer than the base is described where it flags an added row
                c
                for c in ext.flag_counts({table: rows})
                if not described or (c["rule"], c["table"]) in described or c["flagged"]
            ],
        )
    outcomes = _outcomes(table, keep, rows, judged.merged, merged_links, out)
    links = pl.concat([links, merged_links.select(links.columns)])
    chapters = chapters_reading(table)
    if not rows.height and not links.height:  # every row is a fact and source the release has
        return Added("", root, table, 0, [], [], outcomes, chapters, len(judged.merged))
    tables = {
        table: pl.concat([released, rows]),
        "observations": pl.concat([released_links, links]),
        "sources": pl.concat([existing_sources, _sources_rows(sources, file)]),
        "models": pl.concat([known.models, new_models_df]),
    }
    n_old = released.height
    desc = description or (
        f"{base} plus {rows.height} hand-entered {table} rows ({file.name}), "
        f"from {len(sources)} source(s)."
    )
    try:
        dest = cut.cut_version(
            tables, desc, root, base=base, version=version, extra={"flag_rules": counts}
        )
    except DataError as err:
        raise DataError([_to_input(p, where, table, n_old) for p in err.problems]) from err
    return Added(
        dest.name,
        dest,
        table,
        rows.height,
        sorted(new_models),
        sorted(s.source_id for s in sources.values() if s.rows >= 0),
        outcomes,
        chapters,
        len(judged.merged),
    )


# --------------------------------------------------------------------------------------------
# plausibility and duplicates: each row judged beside the release's facts
# --------------------------------------------------------------------------------------------

# A price more than this factor from the same offer's (else the same model's) released median
# is refused unless the user accepts it: a per-1K price typed as per-1M is 1000x, a per-node
# price typed per GPU 8x; sellers of one model rarely differ tenfold.
OUTLIER_FACTOR = 10.0
# What one fact is, beside its source: the offer and its date.
OFFER = {
    "token_prices": ["model_id", "provider", "price_kind", "context_tier", "currency", "region"],
    "gpu_hour_prices": ["gpu", "provider", "pricing", "statistic", "region"],
    "benchmark_scores": ["model_id", "benchmark"],
}
VALUES = {
    "token_prices": PRICE_COLUMNS,
    "gpu_hour_prices": ["usd_per_gpu_hour"],
    "benchmark_scores": ["score"],
}
# Where a price is judged for plausibility: the same model's (GPU's) released prices.
PEERS = {
    "token_prices": ["model_id", "currency"],
    "gpu_hour_prices": ["gpu", "pricing"],
}
OUTLIER_COLUMNS = {
    "token_prices": ["input_usd_per_mtok", "output_usd_per_mtok"],
    "gpu_hour_prices": ["usd_per_gpu_hour"],
}


@dataclass
class _Judged:
    problems: list[Problem] = field(default_factory=list)
    merged: dict[int, dict] = field(default_factory=dict)  # input row -> the release's row
    outliers: dict[int, str] = field(default_factory=dict)  # input row -> accepted reason


def _eq(column: str, value) -> pl.Expr:
    return pl.col(column).is_null() if value is None else pl.col(column) == value


def _in_force(table: str, released: pl.DataFrame, r: dict) -> pl.DataFrame:
    """The release's unflagged rows stating the same offer on r's date (in its spell)."""
    same = released.filter(pl.col("flags").is_null(), *[_eq(c, r[c]) for c in OFFER[table]])
    if "valid_from" in released.columns:
        d = r["date"]
        start = pl.coalesce("valid_from", "date")
        return same.filter(
            (start <= d) & (pl.col("valid_to").is_null() | (pl.col("valid_to") >= d))
        )
    return same.filter(pl.col("date") == r["date"])


def _same_values(frame: pl.DataFrame, r: dict, columns: list[str]) -> pl.DataFrame:
    filled = [c for c in columns if r.get(c) is not None]
    return frame.filter(*[(pl.col(c) - r[c]).abs() <= 1e-9 * max(1.0, abs(r[c])) for c in filled])


def _show(r: dict, columns: list[str]) -> str:
    return ", ".join(f"{c} {r[c]:g}" for c in columns if r.get(c) is not None)


def _judge(
    table: str,
    typed: pl.DataFrame,
    released: pl.DataFrame,
    file: str,
    accept_outlier: str | None,
    confirm_conflict: bool,
) -> _Judged:
    """Each row beside the release: a fact it holds (merged), a conflicting value for the same
    offer and date (refused unless confirmed), a price far from its peers' (refused unless
    accepted with a reason)."""
    j = _Judged()
    values = VALUES[table]
    for i, r in enumerate(typed.iter_rows(named=True), start=1):
        in_force = _in_force(table, released, r)
        if in_force.height:
            same = _same_values(in_force, r, values)
            if same.height:
                j.merged[i] = same.row(0, named=True)
                continue
            # A different value on the very date a released row states: a conflict. (A
            # value inside a released spell but on another day is a new observation.)
            dated = in_force.filter(pl.col("date") == r["date"])
            if dated.height and not confirm_conflict:
                old = dated.row(0, named=True)
                shown = [c for c in values if r.get(c) is not None]
                j.problems.append(
                    Problem(file, i, values[0], _show(r, shown), "conflict: the release "
                            f"states {_show(old, shown)} for this offer on {r['date']} (row "
                            f"{old['row_id']}, source {old['source_id']}); check the page, or "
                            "pass --confirm-conflict to add this value as its own row")
                )  # fmt: skip
        if table not in PEERS:
            continue
        peers = released.filter(pl.col("flags").is_null(), *[_eq(c, r[c]) for c in PEERS[table]])
        seller = in_force if in_force.height else peers.filter(_eq("provider", r["provider"]))
        scope, who = (seller, "this seller's") if seller.height else (peers, "every seller's")
        for c in OUTLIER_COLUMNS[table]:
            ref = scope[c].drop_nulls()
            if r.get(c) is None or not ref.len() or not ref.median():
                continue
            ratio = r[c] / ref.median()
            if 1 / OUTLIER_FACTOR <= ratio <= OUTLIER_FACTOR:
                continue
            if accept_outlier:
                j.outliers[i] = accept_outlier
                continue
            hint = " (a per-1K price? give USD per million tokens)" if ratio < 0.01 else ""
            j.problems.append(
                Problem(file, i, c, f"{r[c]:g}", f"implausible: {_times(ratio)} the median "
                        f"{ref.median():g} of {who} {ref.len()} released prices of "
                        f"{r.get('model_id') or r.get('gpu')}{hint}; correct it, or pass "
                        "--accept-outlier 'REASON' (recorded with the row)")
            )  # fmt: skip
    return j


def _times(ratio: float) -> str:
    return f"{ratio:,.0f}x" if ratio >= 1 else f"1/{1 / ratio:,.0f} of"


def _merge_links(
    table: str, merged: dict[int, dict], out: list[dict], released_links: pl.DataFrame
) -> pl.DataFrame:
    """An `observations` row per merged input row: its source behind the release's fact (none
    where the release already has that source and locator behind it)."""
    spec = TABLES["observations"]
    name = "source_gpu_name" if table == "gpu_hour_prices" else "source_model_name"
    rows = [
        {
            "table": table,
            "row_id": fact["row_id"],
            "source_id": out[i - 1]["source_id"],
            "source_name": out[i - 1][name],
            "source_locator": out[i - 1]["source_locator"],
            "date": out[i - 1]["date"],
            "last_seen": out[i - 1]["date"],
        }
        for i, fact in merged.items()
    ]
    frame = pl.DataFrame(rows, schema={c: pl.String for c in spec.column_names})
    frame = frame.with_columns(pl.col("date", "last_seen").str.to_date())
    frame = frame.cast({c: t for c, t in released_links.schema.items() if c in frame.columns})
    return frame.join(released_links, on=spec.primary_key, how="anti", nulls_equal=True)


def _outcomes(
    table: str,
    keep: list[int],
    rows: pl.DataFrame,
    merged: dict[int, dict],
    links: pl.DataFrame,
    out: list[dict],
) -> list[Outcome]:
    said: list[Outcome] = []
    for i, r in zip(keep, rows.iter_rows(named=True), strict=True):
        if r.get("flags"):
            said.append(Outcome(i, "flagged", f"added as {r['row_id']}, flagged by rule "
                                f"{r['flags']} (excluded from estimates by default)"))  # fmt: skip
        else:
            said.append(Outcome(i, "added", f"added as {r['row_id']}"))
    new_links = set(links["row_id"].to_list())
    for i, fact in merged.items():
        if fact["row_id"] in new_links:
            said.append(Outcome(i, "merged", f"the release holds this fact ({fact['row_id']}, "
                                f"from {fact['source_ids']}): its source is added to that "
                                "fact's provenance, no new row"))  # fmt: skip
        else:
            said.append(Outcome(i, "merged", f"already in the release ({fact['row_id']}) from "
                                "this source: nothing added"))  # fmt: skip
    return sorted(said, key=lambda o: o.row)


# Each chapter's run records the tables it read in its manifest (analysis/book/deps.py,
# `_deps/<mode>/...json`, key `table:NAME`); the data layer reads those files, it imports no book.
DEPS_DIR = ROOT / "_deps"


def chapters_reading(table: str) -> list[str]:
    """The pages whose last run read `table` (empty where the book has not been built here)."""
    found = set()
    for manifest in DEPS_DIR.glob("*/**/*.json"):
        try:
            reads = json.loads(manifest.read_text()).get("reads", {})
        except (OSError, ValueError):
            continue
        if f"table:{table}" in reads:
            found.add(str(manifest.relative_to(DEPS_DIR).with_suffix(".qmd")).split("/", 1)[1])
    return sorted(found)


def _to_input(p: Problem, file: str, table: str, n_old: int) -> Problem:
    """A problem in the staged table's appended rows, located in the input file instead."""
    if Path(p.file).name == f"{table}.csv" and p.row and p.row > n_old:
        rule = p.rule
        m = re.search(r"first at row (\d+)", rule)
        if m and int(m.group(1)) <= n_old:
            rule = rule.replace(m.group(0), f"the release has this key (row {m.group(1)})")
        column = TEMPLATE_COLUMN.get(p.column or "", p.column)
        return Problem(file, p.row - n_old, column, p.value, rule)
    return p


def _known_provider(
    file: str, i: int, row: dict, rec: dict, known: set[str], allowed: bool, problems: list
) -> None:
    """A provider the release does not know is refused with the closest ids (a misspelt seller
    would otherwise be a new third-party seller, outside every first-party series)."""
    if rec["provider"] and rec["provider"] not in known and not allowed:
        problems.append(
            Problem(file, i, "provider", row["provider"], "unknown provider; "
                    + _suggest(rec["provider"], known) + " (or pass --new-provider)")
        )  # fmt: skip


def _new_gpu(
    file: str, i: int, name: str, allowed: bool, known: Known, problems: list[Problem]
) -> str | None:
    """The id of a GPU the data does not know, where `--new-gpu` allows it: its name as a slug.
    A name that is a known id once case, spaces and punctuation are dropped is that GPU."""
    same = {compact_name(g): g for g in sorted(known.gpus)}.get(compact_name(name))
    if same:
        problems.append(
            Problem(file, i, "gpu", name, f"is GPU {same} after normalisation (case, spaces and "
                    f"punctuation aside): write {same}")
        )  # fmt: skip
        return None
    if not allowed:
        problems.append(
            Problem(file, i, "gpu", name, "unknown GPU; " + _suggest(name.lower(), known.gpus)
                    + " (or pass --new-gpu)")
        )  # fmt: skip
        return None
    gpu = slug(name)
    if not re.match(SLUG, gpu):
        problems.append(Problem(file, i, "gpu", name, f"no GPU id can be made ({gpu!r})"))
        return None
    return gpu


def _price_rules(file: str, i: int, row: dict[str, str], problems: list[Problem]) -> None:
    if not any(row.get(c) for c in PRICE_COLUMNS):
        problems.append(Problem(file, i, "input_usd_per_mtok", "", "a price row needs a price"))
    if row.get("currency") == "USD":
        for c in ORIGINAL_COLUMNS:
            if row.get(c):
                problems.append(
                    Problem(file, i, c, row[c], "for USD prices fill the usd_per_mtok columns; "
                            "the original columns are for prices quoted in another currency")
                )  # fmt: skip


def _new_model(
    file: str,
    i: int,
    name: str,
    mid: str,
    row: dict[str, str],
    allowed: bool,
    known: Known,
    new_models: dict[str, _NewModel],
    problems: list[Problem],
) -> None:
    same = known.compact.get(compact_name(name))
    if same:
        problems.append(
            Problem(file, i, "model", name, f"is model {same} after normalisation (case, spaces "
                    f"and punctuation aside): write {same}")
        )  # fmt: skip
        return
    if not allowed:
        hint = _suggest(mid, set(known.models["model_id"]))
        problems.append(
            Problem(file, i, "model", name, f"unknown model; {hint} (or pass --new-model, "
                    "with model_name and the model's facts in its columns)")
        )  # fmt: skip
        return
    if not re.match(SLUG, mid):
        problems.append(Problem(file, i, "model", name, f"no model id can be made ({mid!r})"))
        return
    meta = {c: row[c] for c in MODEL_META if row.get(c)}
    catalog = models.catalog().entries.filter(pl.col("model_id") == mid)
    if catalog.height:  # the curated catalog knows it: its name and organisation count
        meta.setdefault("model_name", catalog["name"][0])
        if catalog["organization"][0]:
            meta.setdefault("organization", catalog["organization"][0])
    if "model_name" not in meta:
        problems.append(Problem(file, i, "model_name", "", "a new model needs its name"))
    prev = new_models.get(mid)
    if prev is None:
        new_models[mid] = _NewModel(mid, i, {name}, meta)
        return
    prev.names.add(name)
    for c, v in meta.items():
        if prev.meta.setdefault(c, v) != v:
            problems.append(
                Problem(file, i, c, v, f"differs from row {prev.row} for model {mid}: {prev.meta[c]}")
            )  # fmt: skip


def _model_row(m: _NewModel, out: list[dict], sources: dict) -> dict:
    first = next(r for r in out if r.get("model_id") == m.model_id)
    row = {MODEL_META[c]: v for c, v in m.meta.items()}
    return row | {
        "model_id": m.model_id,
        "aliases": ";".join(sorted(m.names)),
        "resolved": "true",
        "info_source_id": first.get("source_id", ""),
    }


def _curated_models(new: pl.DataFrame) -> pl.DataFrame:
    """New models with the curated columns a build gives them: the developer its organisation
    names, and the hand source as what identifies it."""
    return new.with_columns(
        pl.col("organization")
        .map_elements(first_party.developer_of, return_dtype=pl.String)
        .alias("developer"),
        pl.lit("source metadata").alias("identified_by"),
        pl.when(pl.col("release_date").is_not_null())
        .then(pl.col("info_source_id"))
        .alias("release_date_source_id"),
    )


def _first_listed(
    new: pl.DataFrame, all_models: pl.DataFrame, prices: pl.DataFrame
) -> pl.DataFrame:
    """New models that no source dates get the release date a build gives such a model: their
    first listing among the rows entered, labelled as one (`date_by_first_listing`: an upper
    bound on the release, its source the row's; a month-day id takes its family's date)."""
    if new.is_empty():
        return new
    dated = models_table.date_by_first_listing(all_models, prices)
    return dated.filter(pl.col("model_id").is_in(new["model_id"].implode())).select(new.columns)


def _curated(
    table: str, rows: pl.DataFrame, base: str, root: Path, all_models: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame, panel.Extension]:
    """The hand-entered rows with their curated columns and `observations` rows, by the
    curation a build and `data update` use (`panel.extend`; each hand-entered row stays its own
    row): ids, spells, sources, flags judged beside the release's rows, first party from the
    developer. A row the release already has comes back as it is, for the key check to refuse."""
    tables = {t: data_mod.load(t, base, root) for t in ("token_prices", "benchmark_scores",
                                                         "gpu_hour_prices", "observations",
                                                         "sources")}  # fmt: skip
    release = panel.Release.of({**tables, "models": all_models})
    pins = None
    if table == "gpu_hour_prices":
        merged = {table: rows}
    else:  # the model each name was resolved to here, on the row's date
        merged = {table: rows.with_columns(pl.lit(None, dtype=pl.String).alias("model_hint"))}
        pins = rows.select(
            pl.lit(table).alias("table"),
            "source_id",
            "source_model_name",
            "date",
            pl.col("date").alias("last_seen"),
            "model_id",
            pl.lit(None, dtype=pl.String).alias("offer"),
        )
    ext = panel.extend(release, merged, pins)
    name = "source_gpu_name" if table == "gpu_hour_prices" else "source_model_name"
    links = rows.select("source_id", "source_locator", pl.col(name).alias("source_model_name"))
    curated = ext.rows_of(table, links)
    # In the order entered (each row is its own row: one observation, on the row's date).
    order = rows.select(
        "source_id", "source_locator", pl.col(name).alias("source_name"), "date"
    ).with_row_index("_n")
    obs = (
        ext.tables["observations"]
        .filter(pl.col("table") == table)
        .filter(pl.col("row_id").is_in(curated["row_id"].implode()))
        .join(order, on=["source_id", "source_locator", "source_name", "date"], how="inner")
        .sort("_n")
        .unique("row_id", keep="first", maintain_order=True)
    )
    curated = curated.join(obs.select("row_id", "_n"), on="row_id").sort("_n").drop("_n")
    spec, links_spec = TABLES[table], TABLES["observations"]
    obs = obs.select(links_spec.column_names).join(  # a link the release has is not new
        tables["observations"], on=links_spec.primary_key, how="anti", nulls_equal=True
    )
    curated = curated.select([pl.col(c).cast(spec.polars_schema[c]) for c in spec.column_names])
    return curated, obs, ext
