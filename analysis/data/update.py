"""Update the data from the live public files: `python -m analysis data update`.

For each upstream repository the importers read (`UPSTREAMS`: the LiteLLM price list as RoCry's
mirror publishes it, simonw/llm-prices, pydantic/genai-prices, the OpenRouter model and
endpoint listings scraped by sui414, Epoch AI's price, benchmark and hardware CSVs, the FRED
exchange-rate and CPI series as datasets/ publishes them):

1. ask GitHub for the newest commit, list the files the importers read at that commit, and
   download each one pinned to it (raw.githubusercontent.com/<repo>/<commit>/<path>), with
   timeouts, retries with back-off, and a check that the body is whole (its Content-Length, and
   that it parses as JSON, YAML or CSV); a source that fails is reported in one line and the
   others still count;
2. keep every file untouched in the local raw store (`analysis.data.raw_store`) with its
   provenance row (URL, retrieval time, sha256, bytes, commit);
3. run the importers on the newest snapshot of each source (`--from DIR` skips 1-2 and reads
   a folder already laid out so: a raw store, or the project's raw sources folder);
4. curate their rows with the previous release's (`analysis.data.curate.panel.extend`: the
   same identity, spells, facts and flag rules as a build of both), and cut a new version
   (`analysis.data.cut`): the previous release's rows, unchanged, plus the rows that state
   something the release does not (`merge_observations`).
"""

from __future__ import annotations

import csv
import fnmatch
import gzip
import hashlib
import importlib
import io
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from urllib.parse import quote

import httpx
import polars as pl
import yaml
from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TransferSpeedColumn,
)

from analysis.data import build, cut, paths, providers, raw_store
from analysis.data import release as data_mod
from analysis.data.add import chapters_reading
from analysis.data.curate import panel
from analysis.data.errors import DataError, fail
from analysis.data.importers import (
    epoch_benchmarks,
    epoch_models,
    epoch_prices,
    litellm,
)
from analysis.data.raw_store import RawFile
from analysis.data.schema import TABLE_ORDER, TABLES

GITHUB_API = "https://api.github.com"
GITHUB_RAW = "https://raw.githubusercontent.com"
USER_AGENT = "inference-economics-book (python -m analysis data update)"


@dataclass(frozen=True)
class Pattern:
    path: str  # path in the repository; a glob in its last part lists that folder
    newest: bool = False  # only the last match by name (daily scrape files: the newest day)


@dataclass(frozen=True)
class Upstream:
    folder: str  # the raw store folder, named as the project's raw sources folder names it
    repo: str  # GitHub owner/name
    patterns: tuple[Pattern, ...]
    layout: str  # how the importer wants the file named: head, flat or prefix (`store_name`)
    ref: str = "HEAD"  # GitHub's name for the default branch's newest commit

    def store_name(self, path: str, day: str) -> str:
        """`<folder>/<day>_HEAD/<path>` (head), `<folder>/<day>_<path with / as __>` (flat), or
        `<folder>/<day>_<path>` (prefix): the names the importers' globs look for."""
        name = {
            "head": f"{day}_HEAD/{path}",
            "flat": f"{day}_{path.replace('/', '__')}",
            "prefix": f"{day}_{path}",
        }[self.layout]
        return f"{self.folder}/{name}"


UPSTREAMS: list[Upstream] = [
    Upstream(
        "litellm-prices-rocry-mirror",
        "RoCry/llm-api-price",
        (Pattern("model_prices_and_context_window.json"),),
        "flat",
    ),
    Upstream("llm-prices-simonw", "simonw/llm-prices", (Pattern("data/*.json"),), "prefix"),
    Upstream(
        "genai-prices-pydantic",
        "pydantic/genai-prices",
        (Pattern("prices/providers/*.yml"),),
        "head",
    ),
    Upstream(
        "openrouter-sui414",
        "sui414/openrouter-pricing-data",
        (
            Pattern("data/csv/models/date=*.csv", newest=True),
            Pattern("data/csv/endpoints/date=*.csv", newest=True),
        ),
        "head",
    ),
    Upstream(
        "epoch-llm-price-trends",
        "epoch-research/llm-benchmark-efficiency",
        tuple(Pattern(f"data/{f}") for f in epoch_prices.FILES),
        "head",
    ),
    Upstream(
        "epoch-benchmark-stitching",
        "epoch-research/benchmark-stitching",
        (Pattern("data/*.csv"),),
        "head",
    ),
    Upstream(
        "epoch-hardware-prices",
        "epoch-research/training-cost-trends",
        (
            Pattern("data/Hardware prices.csv"),
            Pattern("data/Chip dataset-Grid view.csv"),
            Pattern(f"data/{epoch_models.ML_SYSTEMS.name}"),
        ),
        "head",
    ),
    Upstream(
        "fx-usd-exchange-rates", "datasets/exchange-rates", (Pattern("data/monthly.csv"),), "head"
    ),
    Upstream("cpi-us", "datasets/cpi-us", (Pattern("data/cpiai.csv"),), "head"),
]
BY_FOLDER = {u.folder: u for u in UPSTREAMS}


def _litellm_rocry(view: Path) -> dict[str, pl.DataFrame]:
    """LiteLLM prices from RoCry's mirror alone: the tokencost mirror the build also reads
    stopped in 2025, so only RoCry's has a live file."""
    files = sorted((view / litellm.ROCRY_DIR).glob(litellm.ROCRY_JSON_GLOB))
    snaps = [
        litellm.Snapshot("litellm-rocry", p, litellm.snapshot_date(p), litellm.read_litellm_json(p))
        for p in files
    ]
    return {"token_prices": litellm.token_price_rows(view, litellm.fill_missing(snaps))}


@dataclass(frozen=True)
class Step:
    name: str  # importer module under analysis.data.importers
    needs: tuple[str, ...]  # raw store folders it reads
    run: Callable[[Path], dict[str, pl.DataFrame]] | None = None  # default: the module's build

    def build(self, view: Path) -> dict[str, pl.DataFrame]:
        if self.run is not None:
            return self.run(view)
        return importlib.import_module(f"analysis.data.importers.{self.name}").build(view)

    @property
    def sources(self) -> list[dict]:
        return importlib.import_module(f"analysis.data.importers.{self.name}").SOURCES


STEPS: list[Step] = [
    Step("litellm", ("litellm-prices-rocry-mirror",), _litellm_rocry),
    Step("simonw", ("llm-prices-simonw",)),
    Step("genai_prices", ("genai-prices-pydantic",)),
    Step("openrouter", ("openrouter-sui414",)),
    Step("epoch_prices", ("epoch-llm-price-trends",)),
    Step("epoch_benchmarks", ("epoch-benchmark-stitching",)),
    Step("epoch_models", ("epoch-hardware-prices", "epoch-benchmark-stitching")),
    Step("epoch_hardware", ("epoch-hardware-prices",)),
    Step("fred", ("fx-usd-exchange-rates", "cpi-us")),
]


def fixed_snapshots() -> dict[str, str]:
    """Folders some importer reads at one fixed, dated snapshot (`<date>_HEAD`) rather than the
    newest: the view gives them the name the importer wants (seam: drop once they glob)."""
    out: dict[str, str] = {}
    for const in (
        epoch_prices.DATA_DIR,
        epoch_benchmarks.STITCHING_DIR,
        epoch_models.ML_SYSTEMS,
        epoch_models.MODEL_VERSIONS,
    ):
        folder, snap = Path(const).parts[:2]
        if out.setdefault(folder, snap) != snap:
            raise fail(const, None, None, snap, f"importers read two snapshots of {folder}")
    return out


# --------------------------------------------------------------------------------------------
# downloading
# --------------------------------------------------------------------------------------------


class SourceError(Exception):
    """One upstream failed: the message is the one line the user sees."""


RETRY_STATUS = {429, 500, 502, 503, 504}


@dataclass
class Fetcher:
    client: httpx.Client
    api: str = GITHUB_API
    raw: str = GITHUB_RAW
    attempts: int = 3
    backoff: float = 1.0  # seconds before the second attempt; doubles after
    progress: Progress | None = None

    def get(self, url: str, what: str) -> bytes:
        """The whole body of `url`, retried on network errors, truncation and 429/5xx."""
        last = ""
        for attempt in range(self.attempts):
            if attempt:
                time.sleep(self.backoff * 2 ** (attempt - 1))
            try:
                return self._get_once(url, what)
            except _Retry as err:
                last = str(err)
        raise SourceError(f"{last} (after {self.attempts} attempts)")

    def _get_once(self, url: str, what: str) -> bytes:
        task = None
        try:
            with self.client.stream("GET", url) as r:
                if r.status_code in RETRY_STATUS:
                    raise _Retry(f"HTTP {r.status_code} {r.reason_phrase} from {url}")
                if r.status_code != 200:
                    raise SourceError(f"HTTP {r.status_code} {r.reason_phrase} from {url}")
                expected = r.headers.get("content-length")
                if self.progress is not None:
                    total = int(expected) if expected and expected.isdigit() else None
                    task = self.progress.add_task(what, total=total)
                chunks = []
                for chunk in r.iter_raw():
                    chunks.append(chunk)
                    if task is not None:
                        self.progress.advance(task, len(chunk))
                body = b"".join(chunks)
                encoding = r.headers.get("content-encoding", "identity")
        except httpx.RemoteProtocolError as err:  # h11: closed before Content-Length bytes
            raise _Retry(f"body truncated from {url}: {err}") from err
        except httpx.HTTPError as err:
            raise _Retry(f"{type(err).__name__} from {url}: {err}") from err
        finally:
            if task is not None:
                self.progress.remove_task(task)
        if expected and expected.isdigit() and len(body) != int(expected):
            raise _Retry(f"body truncated from {url}: {len(body)} of {expected} bytes")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding not in ("identity", ""):
            raise SourceError(f"unexpected Content-Encoding {encoding!r} from {url}")
        return body

    def json(self, url: str, what: str):
        body = self.get(url, what)
        try:
            return json.loads(body)
        except ValueError as err:
            raise SourceError(f"not JSON from {url}: {err}") from err


class _Retry(Exception):
    pass


def check_whole(name: str, body: bytes) -> None:
    """Raise SourceError unless the file parses as its extension says (a cut-off body rarely
    does): JSON, YAML, CSV (its last row as wide as its header), gzip."""
    try:
        if name.endswith(".gz"):
            body = gzip.decompress(body)
            name = name.removesuffix(".gz")
        if name.endswith(".json"):
            json.loads(body)
        elif name.endswith((".yml", ".yaml")):
            yaml.safe_load(body)
        elif name.endswith(".csv"):
            text = io.StringIO(body.decode("utf-8-sig"), newline="")
            rows = [r for r in csv.reader(text) if r]
            if not rows or not rows[0]:
                raise ValueError("no header row")
            # A body cut mid-line leaves a last row narrower than the header (real files may
            # have odd rows elsewhere, so only the last one is held to it).
            if len(rows) > 1 and len(rows[-1]) < len(rows[0]):
                raise ValueError(f"last line has {len(rows[-1])} fields, the header {len(rows[0])}")
    except (ValueError, EOFError, OSError, csv.Error, yaml.YAMLError) as err:
        msg = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise SourceError(f"{name} does not parse (truncated?): {msg}") from err


def _listing(fetch: Fetcher, up: Upstream, commit: str) -> list[str]:
    """Paths at `commit` the upstream's patterns select."""
    paths: list[str] = []
    for pat in up.patterns:
        folder, _, name = pat.path.rpartition("/")
        if not any(ch in name for ch in "*?["):
            paths.append(pat.path)
            continue
        url = f"{fetch.api}/repos/{up.repo}/contents/{quote(folder)}?ref={commit}"
        entries = fetch.json(url, f"{up.folder}: listing {folder}")
        hits = sorted(e["path"] for e in entries if fnmatch.fnmatch(e["name"], name))
        if not hits:
            raise SourceError(f"no file matches {pat.path} at commit {commit[:12]}")
        paths += hits[-1:] if pat.newest else hits
    return paths


def fetch_upstream(fetch: Fetcher, up: Upstream, store: Path) -> tuple[list[RawFile], int]:
    """Download one upstream's files at its newest commit into the raw store (all or none).
    Returns the files and how many bytes were downloaded (0 where the store had them)."""
    head = fetch.json(f"{fetch.api}/repos/{up.repo}/commits/{up.ref}", f"{up.folder}: commit")
    try:
        commit = head["sha"]
        day = head["commit"]["committer"]["date"][:10]
        date.fromisoformat(day)
    except (KeyError, TypeError, ValueError) as err:
        raise SourceError(f"unexpected answer for the newest commit of {up.repo}") from err
    got: list[tuple[RawFile, bytes]] = []
    files: list[RawFile] = []
    for path in _listing(fetch, up, commit):
        url = f"{fetch.raw}/{up.repo}/{commit}/{quote(path)}"
        known = [
            r
            for r in raw_store.read(store, up.folder)
            if r.commit == commit and r.path_in_repo == path
        ]
        if known and raw_store.has(store, known[0]):
            files.append(known[0])
            continue
        body = fetch.get(url, f"{up.folder}: {path}")
        check_whole(path, body)
        raw = RawFile(
            up.store_name(path, day),
            up.repo,
            commit,
            day,
            path,
            len(body),
            hashlib.sha256(body).hexdigest(),
            url,
            datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        )
        got.append((raw, body))
        files.append(raw)
    raw_store.put(store, got)  # only once every file of the source arrived whole
    return files, sum(len(b) for _, b in got)


# --------------------------------------------------------------------------------------------
# merging
# --------------------------------------------------------------------------------------------

# Not part of what a row observes: when it was seen last, where, and what the build derives.
NOT_OBSERVED = {
    "last_seen",
    "source_locator",
    "first_party",
    "row_id",
    "source_ids",
    "flags",
    "offer_count",
}
DATE_COLUMNS = ("date", "month")
# Curated tables whose new rows `panel.extend` chooses: a spell or measurement is new when no
# observation the release holds stands behind it.
CURATED = ("token_prices", "benchmark_scores")


def merge_observations(
    previous: dict[str, pl.DataFrame], new: dict[str, pl.DataFrame]
) -> dict[str, pl.DataFrame]:
    """Every table of the next version: the previous rows, unchanged and first, then the new
    distinct observations.

    - token_prices, benchmark_scores: `new` holds the rows `panel.extend` found new (a price
      spell or a measurement no released observation stands behind); they are added as they
      are, with their curated columns.
    - other tables with a date in their key (gpu_hour_prices among them): a row's series is its
      key without the date (and locator) plus its other non-numeric columns, and a row is kept
      when its numbers differ from the row before it in its series, or it is the first of its
      series.
    - observations: the provenance rows of the curated rows added.

    A key (or row_id) the previous version already has is never rewritten, even where the new
    value differs (`revisions` counts those).
    """
    out = {}
    for t, prev in previous.items():
        rows = new.get(t)
        if t == "observations" or rows is None or rows.is_empty():
            out[t] = prev
            continue
        out[t] = pl.concat([prev, new_observations(t, prev, rows)])
    if "observations" in new:
        ids = [
            (t, out[t].slice(previous[t].height).select("row_id"))
            for t in (*CURATED, "gpu_hour_prices")
            if t in out
        ]
        keep = pl.concat([df.with_columns(pl.lit(t).alias("table")) for t, df in ids])
        obs = new["observations"].join(keep, on=["table", "row_id"], how="semi")
        obs = obs.select(TABLES["observations"].column_names).join(
            previous["observations"],
            on=TABLES["observations"].primary_key,
            how="anti",
            nulls_equal=True,
        )
        out["observations"] = pl.concat([previous["observations"], obs])
    return out


def new_observations(table: str, prev: pl.DataFrame, rows: pl.DataFrame) -> pl.DataFrame:
    spec = TABLES[table]
    pk = spec.primary_key
    rows = rows.select(spec.column_names).unique(maintain_order=True)
    fresh = rows.join(prev.select(pk), on=pk, how="anti", nulls_equal=True, maintain_order="left")
    if "row_id" in spec.column_names:  # an id the release gave another row stays its
        fresh = fresh.join(prev.select("row_id"), on="row_id", how="anti", maintain_order="left")
    if table in CURATED:  # already chosen by the curation (`panel.extend`)
        return fresh
    date_col = next((c for c in DATE_COLUMNS if c in pk), None)
    if date_col is None or fresh.is_empty():
        return fresh
    numbers = [c.name for c in spec.columns if c.type == "number" and c.name not in pk]
    series = [c for c in spec.column_names if c not in {date_col, *numbers, *NOT_OBSERVED}]
    both = pl.concat(
        [
            prev.select(spec.column_names).with_columns(pl.lit(-1, pl.Int64).alias("_new")),
            fresh.with_row_index("_new")
            .with_columns(pl.col("_new").cast(pl.Int64))
            .select([*spec.column_names, "_new"]),
        ]
    ).sort([*series, date_col, "_new"], nulls_last=True)
    changed = pl.any_horizontal(
        [pl.col(c).ne_missing(pl.col(c).shift(1).over(series)) for c in numbers]
        + [pl.col(date_col).shift(1).over(series).is_null()]
    )
    kept = both.filter((pl.col("_new") >= 0) & changed).sort("_new")
    return kept.drop("_new")


def revised(table: str, prev: pl.DataFrame, rows: pl.DataFrame) -> int:
    """Rows whose key the previous version has, with other numbers: kept as released."""
    spec = TABLES[table]
    numbers = [
        c.name for c in spec.columns if c.type == "number" and c.name not in spec.primary_key
    ]
    if rows.is_empty() or not numbers:
        return 0
    both = rows.join(prev, on=spec.primary_key, how="inner", nulls_equal=True, suffix="_old")
    differs = pl.any_horizontal([pl.col(c).ne_missing(pl.col(f"{c}_old")) for c in numbers])
    return both.filter(differs).height


# --------------------------------------------------------------------------------------------
# the update
# --------------------------------------------------------------------------------------------


@dataclass
class Fetched:
    upstream: Upstream
    files: list[RawFile] = field(default_factory=list)
    downloaded: int = 0
    error: str | None = None


@dataclass
class Report:
    fetched: list[Fetched]
    imported: dict[str, int]  # importer -> rows it gave
    skipped: dict[str, str]  # importer -> why it did not run
    added: dict[str, pl.DataFrame]  # table -> the rows added
    revisions: dict[str, int]  # table -> new values for keys the release already has (ignored)
    version: str | None
    base: str
    # table -> ids of released facts the new files state again (merged: no row is added)
    held: dict[str, set[str]] = field(default_factory=dict)

    @property
    def errors(self) -> list[str]:
        return [f"{f.upstream.folder}: {f.error}" for f in self.fetched if f.error] + [
            f"importer {k}: {v}" for k, v in self.skipped.items()
        ]


def select_from(folder_root: Path, upstreams: list[Upstream]) -> list[Fetched]:
    """`--from DIR`: the newest snapshot of each upstream in a folder laid out as the raw store."""
    out = []
    for up in upstreams:
        rows = raw_store.read(folder_root, up.folder)
        picked = raw_store.newest(rows, [(p.path, p.newest) for p in up.patterns])
        missing = [p for p in picked if not (folder_root / p.file).exists()]
        if not rows:
            out.append(Fetched(up, error=f"no {raw_store.TSV} in {folder_root / up.folder}"))
        elif not picked:
            out.append(
                Fetched(up, error="no file matches " + ", ".join(p.path for p in up.patterns))
            )
        elif missing:
            out.append(Fetched(up, error=f"listed but missing: {missing[0].file}"))
        else:
            out.append(Fetched(up, picked))
    return out


def download(
    upstreams: list[Upstream],
    store: Path,
    api: str = GITHUB_API,
    raw: str = GITHUB_RAW,
    attempts: int = 3,
    backoff: float = 1.0,
    timeout: float = 30.0,
    console: Console | None = None,
) -> list[Fetched]:
    """Fetch every upstream into the raw store; a failing one gets its error, the rest go on."""
    console = console or Console(stderr=True)
    out = []
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
    )
    limits = httpx.Timeout(timeout, connect=min(timeout, 10.0))
    headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "gzip"}
    with (
        httpx.Client(timeout=limits, headers=headers, follow_redirects=True) as client,
        Progress(*columns, console=console, transient=True) as progress,
    ):
        fetch = Fetcher(client, api.rstrip("/"), raw.rstrip("/"), attempts, backoff, progress)
        for up in upstreams:
            try:
                files, n = fetch_upstream(fetch, up, store)
                out.append(Fetched(up, files, n))
            except SourceError as err:
                out.append(Fetched(up, error=str(err)))
    return out


def make_view(base: Path, fetched: list[Fetched], view: Path) -> dict[str, tuple[str, str]]:
    """A sources folder for the importers: each fetched file (hard-linked, so paths resolve
    inside the view) under the name its importer looks for, and its provenance table.
    Returns {folder: (name in the view, name in the store)} of renamed snapshot folders."""
    fixed = fixed_snapshots()
    renamed: dict[str, tuple[str, str]] = {}
    for f in fetched:
        if f.error:
            continue
        folder = f.upstream.folder
        rows = []
        for r in f.files:
            rel = r.file
            snap = rel.split("/")[1]
            if folder in fixed and snap.endswith("_HEAD") and snap != fixed[folder]:
                renamed[folder] = (fixed[folder], snap)
                rel = f"{folder}/{fixed[folder]}/" + rel.split("/", 2)[2]
            dest = view / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(base / r.file, dest)
            except OSError:
                shutil.copyfile(base / r.file, dest)
            rows.append(RawFile(**{**r.__dict__, "file": rel}))
        raw_store.write_rows(view, folder, rows)
    return renamed


def _relocate(df: pl.DataFrame, renamed: dict[str, tuple[str, str]]) -> pl.DataFrame:
    """Locators name the store's files, not the view's renamed snapshot folders."""
    if "source_locator" not in df.columns or not renamed:
        return df
    loc = pl.col("source_locator")
    for folder, (alias, real) in renamed.items():
        loc = loc.str.replace(f"^{re.escape(f'{folder}/{alias}/')}", f"{folder}/{real}/")
    return df.with_columns(loc.alias("source_locator"))


def _importer_frame(table: str) -> pl.DataFrame:
    """An empty frame shaped as an importer gives `table` (the build needs every table)."""
    schema = dict(TABLES[table].polars_schema)
    if table in ("token_prices", "benchmark_scores", "aa_snapshots"):  # named, not yet identified
        schema.pop("model_id")
        schema.pop("first_party", None)
        schema["model_hint"] = pl.String()
    return pl.DataFrame(schema=schema)


def import_view(
    view: Path,
    requested: set[str],
    available: set[str],
    renamed: dict[str, tuple[str, str]],
    console: Console,
) -> tuple[dict[str, list[pl.DataFrame]], list[dict], dict[str, int], dict[str, str]]:
    """Run every importer whose folders were fetched; one whose folders were asked for but not
    all fetched is reported (importers of sources not asked for are left out silently)."""
    frames: dict[str, list[pl.DataFrame]] = {}
    sources: list[dict] = []
    imported: dict[str, int] = {}
    skipped: dict[str, str] = {}
    for step in STEPS:
        if not set(step.needs) <= requested:
            continue
        lacking = [n for n in step.needs if n not in available]
        if lacking:
            skipped[step.name] = f"not run: {', '.join(lacking)} not fetched"
            continue
        try:
            with console.status(f"importing {step.name}"):
                out = step.build(view)
        except (DataError, ValueError, KeyError, OSError) as err:
            skipped[step.name] = f"failed: {str(err).splitlines()[0] if str(err) else err!r}"
            continue
        sources.extend(step.sources)
        n = 0
        for table, df in out.items():
            if df.height:
                frames.setdefault(table, []).append(_relocate(df, renamed))
                n += df.height if table != "model_info" else 0
        imported[step.name] = n
    return complete(frames), sources, imported, skipped


def complete(frames: dict[str, list[pl.DataFrame]]) -> dict[str, list[pl.DataFrame]]:
    """Frames for every table the build assembles (empty where no importer that ran gives it)."""
    out = dict(frames)
    for t in TABLE_ORDER:
        if t not in ("models", "sources") and t not in out:
            out[t] = [_importer_frame(t)]
    return out


def extension(
    frames: dict[str, list[pl.DataFrame]], sources: list[dict], previous: dict[str, pl.DataFrame]
) -> tuple[panel.Extension, dict[str, pl.DataFrame]]:
    """The importers' rows curated with the previous release's (`panel.extend`), and every
    table's new rows in schema order (`build`'s last step)."""
    merged = {t: build._concat(dfs) for t, dfs in frames.items()}
    if "token_prices" in merged:  # one provider id per seller, whichever source wrote it
        merged["token_prices"] = providers.canonical_rows(merged["token_prices"])
    source_rows = build._sources_table(sources)
    ext = panel.extend(panel.Release.of(previous), merged, sources=source_rows)
    tables = {
        **{t: df for t, df in merged.items() if t in TABLES},
        **{t: ext.tables[t] for t in ("aa_snapshots",) if t in ext.tables},
        **ext.rows,
        "models": ext.models,
        "observations": ext.observations,
        "sources": source_rows,
    }
    return ext, {t: build._finish(t, df) for t, df in tables.items() if t in TABLE_ORDER}


def update(
    root: Path | None = None,
    store: Path | None = None,
    from_dir: Path | None = None,
    upstreams: list[Upstream] | None = None,
    version: str | None = None,
    console: Console | None = None,
    **download_options,
) -> Report:
    """Fetch (or read `from_dir`), import, merge and cut. See the module docstring."""
    root = data_mod.data_dir(root)
    console = console or Console(stderr=True)
    upstreams = upstreams or UPSTREAMS
    if from_dir is not None:
        base_dir = Path(from_dir)
        if not base_dir.is_dir():  # a reader's typo, not an internal error
            raise fail(base_dir, None, None, None, "no such folder (--from takes a raw store, or "
                       "a raw sources folder, laid out as data update downloads it)")  # fmt: skip
        fetched = select_from(base_dir, upstreams)
    else:
        base_dir = Path(store) if store is not None else paths.ROOT / "raw"
        base_dir.mkdir(parents=True, exist_ok=True)
        fetched = download(upstreams, base_dir, console=console, **download_options)
    base = data_mod.latest_version(root)
    available = {f.upstream.folder for f in fetched if not f.error}
    with tempfile.TemporaryDirectory(dir=base_dir, prefix=".view-") as tmp:
        view = Path(tmp)
        renamed = make_view(base_dir, fetched, view)
        frames, sources, imported, skipped = import_view(
            view, {u.folder for u in upstreams}, available, renamed, console
        )
    # The tables the base holds (one released before a table existed goes on without it).
    previous = {t: data_mod.load(t, base, root) for t in data_mod.tables(base, root)}
    ext = None
    new: dict[str, pl.DataFrame] = {}
    if imported:
        ext, new = extension(frames, sources, previous)
    merged = merge_observations(previous, new)
    added = {t: merged[t].slice(previous[t].height) for t in previous}
    # A model or source row is added only where an added row names it.
    named_models = set(added["token_prices"]["model_id"]) | set(
        added["benchmark_scores"]["model_id"]
    )
    added["models"] = added["models"].filter(pl.col("model_id").is_in(list(named_models)))
    named_sources = set().union(
        *(
            set(df["source_id"])
            for t, df in added.items()
            if t != "sources" and "source_id" in df.columns
        )
    )
    added["sources"] = added["sources"].filter(pl.col("source_id").is_in(list(named_sources)))
    revisions = {t: revised(t, previous[t], df) for t, df in new.items() if t in previous}
    held = held_facts(ext, previous) if ext is not None else {}
    report = Report(fetched, imported, skipped, added, revisions, None, base, held)
    if not any(df.height for t, df in added.items() if t not in ("models", "sources")):
        return report
    tables = {t: pl.concat([previous[t], added[t]]) for t in previous}
    counts = ", ".join(f"{df.height} {t}" for t, df in added.items() if df.height)
    done = [f.upstream.folder for f in fetched if not f.error]
    description = (
        f"{base} plus new observations from the live public files ({', '.join(done)}): {counts}."
    )
    extra = {
        "flag_rules": cut.flag_rules(root, base, ext.flag_counts(added)),
        "raw_inputs": [
            {
                "path": r.file,
                "url": r.url or f"https://github.com/{r.repo}/blob/{r.commit}/{r.path_in_repo}",
                "commit": r.commit,
                "sha256": r.sha256,
                "bytes": r.bytes,
                "retrieved_at": r.retrieved_at or None,
            }
            for f in fetched
            if not f.error
            for r in f.files
        ],
    }
    dest = cut.cut_version(tables, description, root, base=base, version=version, extra=extra)
    report.version = dest.name
    return report


# The tables whose rows a reader's estimates read, in the order the outcomes are printed.
OUTCOME_TABLES = ("token_prices", "gpu_hour_prices", "benchmark_scores")
# Flagged rows listed one by one, per table and rule, before "and N more".
SHOWN_PER_RULE = 10


def held_facts(ext: panel.Extension, previous: dict[str, pl.DataFrame]) -> dict[str, set[str]]:
    """The released rows an observation of the new files stands behind that the release does not
    record (a new snapshot stating a released fact): merged, nothing is added for them."""
    seen = ext.tables["observations"].join(
        previous["observations"], on=["source_id", "source_locator"], how="anti"
    )
    out = {}
    for t in OUTCOME_TABLES:
        if t in previous and "row_id" in previous[t].columns:
            ids = set(seen.filter(pl.col("table") == t)["row_id"]) & set(previous[t]["row_id"])
            if ids:
                out[t] = ids
    return out


def _row_name(r: dict) -> str:
    return r.get("source_model_name") or r.get("source_gpu_name") or r.get("gpu") or ""


def print_outcomes(report: Report, console: Console, each_row: bool = False) -> None:
    """Per table, what became of the new files' rows, as `data add` says it per row: added,
    merged into a released fact, flagged by rule X (kept, excluded from estimates by default),
    refused (a released row's key with other values: the released row stays); each flagged row
    by id (every row with `each_row`), and which chapters read the table."""
    for t in OUTCOME_TABLES:
        df = report.added.get(t)
        if df is None:
            continue
        flagged = df.filter(pl.col("flags").is_not_null()) if "flags" in df.columns else df.clear()
        held, refused = len(report.held.get(t, ())), report.revisions.get(t, 0)
        if not (df.height or held or refused):
            continue
        console.print(
            f"{t}: {df.height - flagged.height:,} added, {flagged.height:,} flagged (kept, "
            f"excluded from estimates by default), {held:,} merged into released facts (nothing "
            f"added), {refused:,} refused (a released row's key with other values: kept as "
            "released)",
            soft_wrap=True,
        )
        rules = flagged.select(pl.col("flags").str.split(";").explode()).to_series()
        for rule in sorted(set(rules)):
            mine = flagged.filter(pl.col("flags").str.split(";").list.contains(rule))
            shown = mine if each_row else mine.head(SHOWN_PER_RULE)
            for r in shown.iter_rows(named=True):
                console.print(
                    f"  {r['row_id']} ({r['source_id']}, {_row_name(r)}): flagged by rule "
                    f"{rule} (excluded from estimates by default)",
                    soft_wrap=True,
                )
            if mine.height > shown.height:
                console.print(f"  ... and {mine.height - shown.height:,} more flagged by {rule}")
        if each_row:
            for r in df.filter(pl.col("flags").is_null()).iter_rows(named=True):
                console.print(f"  {r['row_id']} ({r['source_id']}, {_row_name(r)}): added")
        if df.height and report.version:
            pages = chapters_reading(t)
            console.print(
                f"  chapters that read {t} and will change: {', '.join(pages)}"
                if pages
                else f"  chapters that read {t} will change (build the book once to list them)",
                soft_wrap=True,
            )


def print_report(report: Report, console: Console | None = None, each_row: bool = False) -> None:
    """What was fetched, what each importer gave, the rows added, the version cut."""
    console = console or Console()
    for f in report.fetched:
        if f.error:
            console.print(f"[red]FAILED[/red] {f.upstream.folder}: {f.error}", soft_wrap=True)
            continue
        commits = sorted({r.commit[:12] for r in f.files})
        size = sum(r.bytes for r in f.files)
        console.print(
            f"fetched {f.upstream.folder}: {len(f.files)} file{'s' * (len(f.files) != 1)}, {size:,} bytes "
            f"({f.downloaded:,} downloaded) from {f.upstream.repo}@{','.join(commits)}",
            soft_wrap=True,
        )
    for name, n in report.imported.items():
        console.print(f"imported {name}: {n:,} rows" + (" (model facts only)" if not n else ""))
    for name, why in report.skipped.items():
        console.print(f"[red]SKIPPED[/red] importer {name}: {why}", soft_wrap=True)
    for t, df in report.added.items():
        if df.height:
            by = (
                df.group_by("source_id").len().sort("source_id").iter_rows()
                if "source_id" in df.columns and t != "sources"
                else []
            )
            detail = ", ".join(f"{n} from {s}" for s, n in by)
            console.print(f"added {df.height:,} rows to {t}" + (f" ({detail})" if detail else ""))
    for t, n in report.revisions.items():
        if n:
            console.print(f"kept {n:,} released {t} rows whose source now gives other values")
    print_outcomes(report, console, each_row)
    if report.version:
        console.print(f"cut data version {report.version} (from {report.base})")
    else:
        console.print(f"nothing new: no version cut ({report.base} stays the latest)")
