"""Command line: `python -m analysis <command>`. Run with `-h` for the list.

Exit codes: 0 done, also when the reader closes stdout early (`... | head`); 1 a user error (a
usage mistake, a missing or malformed file, an unknown table or version: one located line per
problem on stderr); 2 an internal error (one line on stderr naming the file, under the system
temp dir, that holds the full traceback); 130 interrupted.
"""

from __future__ import annotations

import argparse
import difflib
import io
import json
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

from analysis.data import paths
from analysis.data.errors import DataError, fail


def _console(**options):
    """A rich Console on stdout that lets a closed pipe reach `main` (rich exits 1 on its own)."""
    from rich.console import Console

    class StdoutConsole(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    return StdoutConsole(**options)


def _print_csv(frame) -> None:
    """A table as CSV on stdout, written by Python, so that a closed pipe is a BrokenPipeError
    (polars' own writer reports it as a bare OSError)."""
    sys.stdout.write(frame.write_csv(date_format="%Y-%m-%d"))


def _data_build(args) -> int:
    from analysis.data import build

    dest = build.build(Path(args.sources), args.version, Path(args.out), args.description)
    print(f"built data version {args.version} in {dest}")
    return 0


def _data_add(args) -> int:
    from analysis.data import add

    if args.template:
        sys.stdout.write(add.template(args.template))
        sys.stderr.write(add.template_help(args.template))
        return 0
    if not args.file:
        print("data add: give FILE.csv, or --template TABLE for an empty one", file=sys.stderr)
        return 1
    out = add.add(
        Path(args.file),
        table=args.table,
        new_model=args.new_model,
        new_benchmark=args.new_benchmark,
        root=Path(args.data_dir) if args.data_dir else None,
        version=args.version,
        description=args.description,
        new_provider=args.new_provider,
        accept_outlier=args.accept_outlier,
        confirm_conflict=args.confirm_conflict,
        new_gpu=args.new_gpu,
    )
    for o in out.outcomes:
        print(f"  row {o.row}: {o.status}: {o.detail}")
    if not out.version:
        print(f"no new version: every row of {args.file} is a fact the release holds")
        return 0
    print(
        f"data version {out.version}: {out.rows} {out.table} rows added, {out.merged} merged "
        f"({len(out.new_models)} new models, {len(out.new_sources)} new sources) in {out.path}"
    )
    if out.chapters:
        print(f"  chapters that read {out.table} and will change: {', '.join(out.chapters)}")
    else:
        print(f"  chapters that read {out.table} will change (build the book once to list them)")
    for m in out.new_models:
        print(f"  new model: {m}")
    for s in out.new_sources:
        print(f"  new source: {s}")
    return 0


def _data_update(args) -> int:
    from analysis.data import update

    ups = update.UPSTREAMS
    if args.only:
        unknown = [o for o in args.only if o not in update.BY_FOLDER]
        if unknown:
            print(f"data update: unknown source {unknown[0]!r}; sources: "
                  + ", ".join(update.BY_FOLDER), file=sys.stderr)  # fmt: skip
            return 1
        ups = [update.BY_FOLDER[o] for o in args.only]
    options = {}
    if args.from_dir is None:
        options = {
            "api": args.github_api,
            "raw": args.github_raw,
            "timeout": args.timeout,
            "attempts": args.attempts,
        }
    report = update.update(
        root=Path(args.data_dir) if args.data_dir else None,
        store=Path(args.raw),
        from_dir=Path(args.from_dir) if args.from_dir else None,
        upstreams=ups,
        version=args.version,
        **options,
    )
    update.print_report(report, _console(soft_wrap=True), each_row=args.each_row)
    failed = [f.upstream.folder for f in report.fetched if f.error]
    if report.errors:
        print(
            f"data update: {len(failed)} of {len(report.fetched)} sources failed"
            + (f" ({', '.join(failed)})" if failed else "")
            + f", {len(report.skipped)} importers not run",
            file=sys.stderr,
        )
    return 1 if report.errors else 0


def _data_info(args) -> int:
    from rich.table import Table

    from analysis.data import info as datainfo

    report = datainfo.info(args.version)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    console = _console()
    title = f"Data version {report['version']}" + (
        " (latest)" if report["version"] == report["latest"] else ""
    )
    table = Table(title=title)
    for col in ("table", "rows", "from", "to", "distinct", "sources"):
        table.add_column(col, overflow="fold")
    for t in report["tables"]:
        distinct = ", ".join(
            f"{v} {k.removeprefix('distinct_')}" for k, v in t.items() if k.startswith("distinct_")
        )
        table.add_row(
            t["table"],
            f"{t['rows']:,}",
            t["first_date"] or "",
            t["last_date"] or "",
            distinct,
            str(len(t["sources"])),
        )
    console.print(table)
    rules = report["flag_rules"]
    if rules:
        flagged = Table(title="Anomaly rules (flagged rows stay in the data; analyses drop them)")
        for col in ("table", "rule", "flagged", "not evaluable", "why"):
            flagged.add_column(col, overflow="fold")
        for r in rules:
            flagged.add_row(
                r["table"], r["rule"], f"{r['flagged']:,}", f"{r['not_evaluable']:,}", r["why"]
            )
        console.print(flagged)
    names = report["unresolved_names"]
    rows = sum(n["token_prices_rows"] for n in names)
    console.print(
        f"{len(names)} source names resolve to no canonical model ({rows:,} token_prices rows):"
    )
    for n in names:
        console.print(
            f"  {n['name']} -> {n['model_id']}: {n['token_prices_rows']} price rows, "
            f"{n['benchmark_scores_rows']} score rows; {n['reason']}"
        )
    return 0


def _data_validate(args) -> int:
    from analysis.data import release as data
    from analysis.data.validate import check

    folder = Path(args.data_dir) if args.data_dir else data.version_dir(args.version)
    report = check(folder)
    for p in report.problems:
        print(p)
    sys.stdout.flush()
    for note in report.notes:
        print(f"note: {note}", file=sys.stderr)
    checked = f" (versions {', '.join(report.versions)})" if report.versions else ""
    print(f"{folder}{checked}: {len(report.problems)} problem(s)", file=sys.stderr)
    return 1 if report.problems else 0


def _data_export(args) -> int:
    from analysis.data import release as data
    from analysis.data.schema import TABLES

    if args.table not in TABLES:
        close = difflib.get_close_matches(args.table, list(TABLES), n=3, cutoff=0.7)
        hint = f"closest: {', '.join(close)}; " if close else ""
        raise fail("data export", None, "TABLE", args.table,
                   f"unknown table; {hint}tables are {', '.join(TABLES)}")  # fmt: skip
    _print_csv(data.load(args.table, args.version))
    return 0


def _data_diff(args) -> int:
    from analysis.data import changes
    from analysis.data import info as datainfo

    rows = datainfo.diff(args.v1, args.v2)
    print("table,rows_before,rows_after,added,removed,changed")
    for r in rows:
        print(
            f"{r['table']},{r['rows_before']},{r['rows_after']},{r['added']},{r['removed']},{r['changed']}"
        )
    print()
    print("Row counts of the curated tables, step by step and by rule:")
    print("table,step,rows")
    for r in datainfo.explain(args.v1, args.v2):
        print(
            f"{r['table']},{r['step']},{r['rows']:+d}"
            if "source rows" in r["step"] or r["step"].startswith(("merged", "split"))
            else f"{r['table']},{r['step']},{r['rows']}"
        )
    print()
    print("Rows added, changed and removed per table and source:")
    print("table,source_id,added,changed,removed")
    for r in changes.changes(args.v1, args.v2).iter_rows(named=True):
        print(f"{r['table']},{r['source_id'] or ''},{r['added']},{r['changed']},{r['removed']}")
    return 0


def _book(args) -> int:
    from analysis.book import build as book

    return book.build_book(paths.ROOT, preview_only=args.preview_only)


def _chapters_lint(args) -> int:
    from analysis.book import lint, notebook

    files = [Path(p) for p in args.files] or notebook.book_files(paths.ROOT)
    problems = lint.lint(files)
    for p in problems:
        print(p)
    return 1 if problems else 0


def _assets(args) -> int:
    from analysis.book import show as charts

    print(charts.write_vega_bundle(paths.ROOT))
    return 0


def _reproduce_epoch(args) -> int:
    from analysis.data import release as data
    from analysis.methods import fixed_capability

    table = fixed_capability.reproduce_epoch(
        data.load("token_prices", args.version),
        data.load("benchmark_scores", args.version),
        data.load("models", args.version),
    )
    _print_csv(table)
    return 0


def _reproduce_a16z(args) -> int:
    from analysis.methods import llmflation
    from analysis.report import results

    out = io.StringIO()
    code = llmflation.write_reproduction(*results.a16z(args.version), out=out)
    sys.stdout.write(out.getvalue())
    return code


def _reproduce_gundlach(args) -> int:
    from analysis.data import release as data
    from analysis.report import published

    sources = Path(args.sources)
    version = data.current_version(args.version)
    print(
        f"reproduce gundlach: the released data ({version}) has none of the authors' per-benchmark "
        f"token counts and benchmark costs; read from {sources}/inference-price-trends-gundlach "
        "(commit a6381e26)",
        file=sys.stderr,
    )
    if args.decomposition:
        table = published.gundlach_decomposition(version, sources)
    else:
        table = published.gundlach_reproduction(sources)
    _print_csv(table)
    return 0


def _reproduce_ai_index(args) -> int:
    from analysis.report import published

    _print_csv(published.ai_index_comparisons(args.version))
    return 0


def _reproduce_hardware(args) -> int:
    import polars as pl

    from analysis.report import published

    trend = published.hardware_trend(args.version)
    _print_csv(pl.DataFrame([trend]))
    return 0


def _reproduce_all(args) -> int:
    from analysis.report import published

    table = published.published_vs_reproduced(args.version, Path(args.sources))
    _print_csv(table)
    return 0


def _estimates(args) -> int:
    from analysis.report import estimates, vintages

    table = vintages.vintages() if args.vintages else estimates.headline(args.version)
    if args.json:
        print(json.dumps(table.to_dicts(), indent=2, default=str))
    else:
        _print_csv(table)
    return 0


def _claims(args) -> int:
    from analysis import evidence

    _print_csv(evidence.ledger(args.version))
    return 0


def _cost(args) -> int:
    import datetime as dt

    from analysis.data import release as data
    from analysis.data import workloads
    from analysis.methods import bill, prices

    version = data.current_version(args.version)
    token_prices, _ = prices.clean(data.load("token_prices", version))
    windows = data.load("tou_windows", version)
    if args.workload:
        if args.model or args.input is not None:
            raise fail(
                "cost", None, None, args.workload, "give a workload file or --model, not both"
            )
        w = workloads.read(args.workload)
        _cache_write_column(version, w.cache_write_tokens, args.workload)
        start = (
            dt.date.fromisoformat(args.at[:10]) if args.at else w.date or data.release_date(version)
        )
        table = bill.bills_frame(bill.workload_bills(token_prices, windows, w, start))
        if args.json:
            print(json.dumps(table.to_dicts(), indent=2, default=str))
        else:
            _print_csv(table)
        return 0
    if not args.model or args.input is None or args.output is None:
        raise fail(
            "cost", None, None, None, "give a workload FILE, or --model M --input N --output N"
        )
    try:
        request = bill.Request.from_usage(
            args.input, args.cached, args.output, args.reasoning, args.cache_write
        )
    except ValueError as err:
        flag, value = (
            ("--cache-write", args.cache_write)
            if "cache-write" in str(err)
            else ("--cached", args.cached)
        )
        raise fail("cost", None, flag, value, str(err)) from None
    _cache_write_column(version, args.cache_write, "--cache-write")
    at = (
        _instant(args.at) if args.at else dt.datetime.combine(data.release_date(version), dt.time())
    )
    bills, left_out = bill.request_bills(
        token_prices,
        request,
        args.model,
        at,
        provider=args.provider,
        batch=args.batch,
        currency=args.currency,
        context_tier=args.context_tier,
        windows=windows,
    )
    for reason in left_out:
        print(f"left out: {reason}", file=sys.stderr)
    rows = [b.row() for b in bills]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        import polars as pl

        _print_csv(pl.DataFrame(rows))
    return 0


def _cache_write_column(version: str, tokens: float, where: str) -> None:
    """Cache-write tokens need a release with the cache-write column (older ones load it as
    empty, which would read as "no rate" for every offer)."""
    from analysis.data import release as data

    if tokens and "cache_write_usd_per_mtok" not in data.fields("token_prices", version):
        raise fail("cost", None, where, tokens, f"data version {version} predates token_prices' "
                   "cache_write_usd_per_mtok: it holds no cache-write rate; use a later version")  # fmt: skip


def _instant(text: str):
    """YYYY-MM-DDTHH:MMZ (UTC) as a naive UTC datetime; a bad one is a located error."""
    import datetime as dt

    try:
        if not text.endswith("Z"):
            raise ValueError
        return dt.datetime.strptime(text, "%Y-%m-%dT%H:%MZ")
    except ValueError:
        raise fail("cost", None, "--at", text, "an instant in UTC: YYYY-MM-DDTHH:MMZ") from None


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m analysis", description="The book's data and build tools.")
    sub = p.add_subparsers(dest="command", required=True)

    d = sub.add_parser("data", help="the versioned datasets").add_subparsers(
        dest="data_command", required=True
    )
    b = d.add_parser("build", help="build a data version from the raw public sources")
    b.add_argument(
        "--sources",
        default=str(paths.SHARED_SOURCES),
        help="folder of raw sources (default: %(default)s)",
    )
    b.add_argument("--version", required=True, help="version id: the release date, YYYY-MM-DD")
    b.add_argument("--out", default=str(paths.DATA_DIR), help="data folder (default: %(default)s)")
    b.add_argument(
        "--description",
        default="Built from the raw public sources.",
        help="one line for versions.json",
    )
    b.set_defaults(func=_data_build)
    ad = d.add_parser(
        "add",
        help="cut a new version: the latest plus hand-entered rows from a CSV",
        description="Hand-entered token prices, GPU-hour prices or benchmark scores, each row "
        "with its provenance (source_title, source_url, accessed, entered_by). Print an empty "
        "CSV with --template TABLE (the column guide goes to stderr).",
    )
    ad.add_argument("file", nargs="?", help="CSV laid out as the template")
    ad.add_argument(
        "--template",
        metavar="TABLE",
        choices=["token_prices", "gpu_hour_prices", "benchmark_scores"],
        help="print the template's header for TABLE and exit",
    )
    ad.add_argument("--table", help="the table FILE holds (default: from its header)")
    ad.add_argument(
        "--new-model",
        action="store_true",
        help="add models the data does not know, with the facts in their rows' columns",
    )
    ad.add_argument("--new-benchmark", action="store_true", help="allow benchmark ids not seen yet")
    ad.add_argument(
        "--new-gpu", action="store_true", help="allow GPUs the data does not know (id: the name)"
    )
    ad.add_argument(
        "--new-provider", action="store_true", help="allow provider ids the release does not know"
    )
    ad.add_argument(
        "--accept-outlier",
        metavar="REASON",
        help="accept prices far from the same model's released prices; REASON is recorded",
    )
    ad.add_argument(
        "--confirm-conflict",
        action="store_true",
        help="add a value that differs from the release's for the same offer and date",
    )
    ad.add_argument("--version", help="version id (default: today, or today.N)")
    ad.add_argument("--description", help="one line for versions.json")
    ad.add_argument("--data-dir", help=f"data folder (default: {paths.DATA_DIR})")
    ad.set_defaults(func=_data_add)
    up = d.add_parser(
        "update",
        help="cut a new version from the live public files the importers read",
        description="Download each source's newest files from GitHub into the raw store, run "
        "the importers on them and cut a new version: the latest release's rows plus the new "
        "observations. A source that fails is reported in one line; the others still count "
        "(exit 1 if any failed).",
    )
    up.add_argument(
        "--from",
        dest="from_dir",
        metavar="DIR",
        help="update from files already downloaded: a raw store, or a raw sources folder",
    )
    up.add_argument(
        "--raw", default=str(paths.ROOT / "raw"), help="raw store (default: %(default)s)"
    )
    up.add_argument("--only", action="append", metavar="SOURCE", help="only this source (repeat)")
    up.add_argument("--version", help="version id (default: today, or today.N)")
    up.add_argument("--data-dir", help=f"data folder (default: {paths.DATA_DIR})")
    up.add_argument(
        "--each-row",
        action="store_true",
        help="print every added row's outcome (flagged rows are always listed, 10 per rule)",
    )
    up.add_argument("--timeout", type=float, default=30.0, help="seconds per request")
    up.add_argument("--attempts", type=int, default=3, help="tries per file")
    up.add_argument("--github-api", default="https://api.github.com", help=argparse.SUPPRESS)
    up.add_argument(
        "--github-raw", default="https://raw.githubusercontent.com", help=argparse.SUPPRESS
    )
    up.set_defaults(func=_data_update)
    i = d.add_parser("info", help="rows, date ranges, models and sources per table")
    i.add_argument("--version")
    i.add_argument("--json", action="store_true")
    i.set_defaults(func=_data_info)
    v = d.add_parser("validate", help="check every table against its schema; exit 1 on any problem")
    v.add_argument("--version")
    v.add_argument(
        "--data-dir",
        help="a version folder, a folder of table CSVs (with or without datapackage.json), or a "
        "data root such as data/ (every version it holds)",
    )
    v.set_defaults(func=_data_validate)
    e = d.add_parser("export", help="one table as CSV on stdout")
    e.add_argument("table")
    e.add_argument("--version")
    e.set_defaults(func=_data_export)
    f = d.add_parser("diff", help="rows added, changed and removed per table between two versions")
    f.add_argument("v1")
    f.add_argument("v2")
    f.set_defaults(func=_data_diff)

    bk = sub.add_parser(
        "book", help="render the book with Quarto, or an offline preview without it"
    )
    bk.add_argument(
        "--preview-only", action="store_true", help="skip Quarto; build the offline preview"
    )
    bk.set_defaults(func=_book)

    c = sub.add_parser("chapters", help="chapter checks").add_subparsers(
        dest="chapters_command", required=True
    )
    lint = c.add_parser(
        "lint", help="fig-alt, #| options, label prefixes, cross-references, citations"
    )
    lint.add_argument("files", nargs="*")
    lint.set_defaults(func=_chapters_lint)

    r = sub.add_parser(
        "reproduce", help="published results recomputed from the data"
    ).add_subparsers(dest="reproduce_command", required=True)
    re_epoch = r.add_parser(
        "epoch", help="Epoch AI's fixed-capability price trends (March 2025), as CSV"
    )
    re_epoch.add_argument("--version")
    re_epoch.set_defaults(func=_reproduce_epoch)
    re_a16z = r.add_parser(
        "a16z", help="a16z's LLMflation monthly minimum series (CSV) and fitted factor"
    )
    re_a16z.add_argument("--version")
    re_a16z.set_defaults(func=_reproduce_a16z)
    sources_help = "raw sources folder (default: %(default)s)"
    re_gundlach = r.add_parser(
        "gundlach",
        help="Gundlach et al.'s hedonic regressions (The Price of Progress), as CSV",
        description="The paper's table from the authors' per-benchmark tables, which no released "
        "data version carries: they are read from the raw sources folder.",
    )
    re_gundlach.add_argument("--version", help="data version for --decomposition")
    re_gundlach.add_argument("--sources", default=str(paths.SHARED_SOURCES), help=sources_help)
    re_gundlach.add_argument(
        "--decomposition",
        action="store_true",
        help="the steps from the paper's GPQA Diamond frontier factor to the book's",
    )
    re_gundlach.set_defaults(func=_reproduce_gundlach)
    re_ai = r.add_parser(
        "ai-index",
        help="the AI Index's 280-fold (GPT-3.5-level MMLU price), and to the newest data",
    )
    re_ai.add_argument("--version")
    re_ai.set_defaults(func=_reproduce_ai_index)
    re_hw = r.add_parser(
        "hardware", help="FLOP/s per dollar of chips over time (Epoch AI's ~30%% a year)"
    )
    re_hw.add_argument("--version")
    re_hw.set_defaults(func=_reproduce_hardware)
    re_all = r.add_parser(
        "all", help="every published figure the book cites beside its reproduction, as CSV"
    )
    re_all.add_argument("--version")
    re_all.add_argument("--sources", default=str(paths.SHARED_SOURCES), help=sources_help)
    re_all.set_defaults(func=_reproduce_all)

    est = sub.add_parser(
        "estimates", help="every quotable estimate with interval, n, window and data version"
    )
    est.add_argument("--version")
    est.add_argument("--json", action="store_true")
    est.add_argument(
        "--vintages",
        action="store_true",
        help="every estimate in every release, beside the previous release's value",
    )
    est.set_defaults(func=_estimates)

    a = sub.add_parser("assets", help="write the offline vega bundle into assets/vega/")
    a.set_defaults(func=_assets)

    cl = sub.add_parser(
        "claims", help="the digests' claims with evidence and verdict (the ledger), as CSV"
    )
    cl.add_argument("--version")
    cl.set_defaults(func=_claims)

    co = sub.add_parser(
        "cost",
        help="what a workload (a YAML file) or one request costs at each offer, as CSV",
        description="Bills by the rates in force: a workload file (docs/workloads.md), or one "
        "request given by flags. --input counts every input token, --cached how many of them "
        "are read from the cache; reasoning tokens are billed at the output rate.",
    )
    co.add_argument("workload", nargs="?", help="a workload YAML file (presets in workloads/)")
    co.add_argument("--model", help="a model_id (python -m analysis data info lists them)")
    co.add_argument("--provider", help="the seller (default: every seller of the model)")
    co.add_argument(
        "--input", type=token_count, help="every input token, cache reads and writes included"
    )
    co.add_argument("--cached", type=token_count, default=0, help="input tokens read from cache")
    co.add_argument("--output", type=token_count, help="output tokens (the answer)")
    co.add_argument("--reasoning", type=token_count, default=0, help="reasoning tokens")
    co.add_argument(
        "--cache-write",
        type=token_count,
        default=0,
        help="of the input tokens, how many are written to the cache",
    )
    co.add_argument("--batch", action="store_true", help="bill at the batch rates")
    co.add_argument(
        "--at", help="dispatch instant YYYY-MM-DDTHH:MMZ (default: release date 00:00Z)"
    )
    co.add_argument("--currency", choices=["USD", "CNY"], default="USD")
    co.add_argument("--context-tier", help="a context tier, e.g. '>200k' (default: the base tier)")
    co.add_argument("--version", help="data version (default: latest)")
    co.add_argument("--json", action="store_true", help="JSON instead of CSV")
    co.set_defaults(func=_cost)
    return p


def token_count(text: str) -> int:
    """A whole, non-negative token count (argparse turns the ValueError into a usage line)."""
    n = int(text)
    if n < 0:
        raise ValueError(text)
    return n


class _Parser(argparse.ArgumentParser):
    """A usage mistake is one line and exit 1, like every other user error."""

    def error(self, message: str):
        self.exit(1, f"{self.prog}: {message} (see {self.prog} -h)\n")


def _quiet_stdout() -> None:
    """The reader closed the pipe (`... | head`): point stdout at devnull so that the flush at
    exit cannot fail again (Python's documented recipe, signal module, note on SIGPIPE)."""
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError):  # not a real file (e.g. captured by a test)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)


def _internal_error(err: BaseException) -> int:
    """One line saying so, the full traceback in a file outside the repository; exit 2."""
    folder = Path(tempfile.gettempdir()) / "analysis-cli"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"traceback-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}.txt"
    path.write_text("".join(traceback.format_exception(err)), encoding="utf-8")
    print(
        f"python -m analysis: internal error ({type(err).__name__}: {err}); "
        f"the full traceback is in {path}",
        file=sys.stderr,
    )
    return 2


def main(argv: list[str] | None = None) -> int:
    """Exit codes: 0 done (also when the reader closes stdout early), 1 a user error (one
    located line on stderr per problem), 2 an internal error (one line, traceback in a file)."""
    try:
        args = parser().parse_args(argv)
    except SystemExit as done:  # -h (0) or a usage mistake (1)
        return done.code if isinstance(done.code, int) else 1
    try:
        code = args.func(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except DataError as err:
        print(err, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("python -m analysis: interrupted", file=sys.stderr)
        return 130
    except Exception as err:
        return _internal_error(err)


if __name__ == "__main__":
    sys.exit(main())
