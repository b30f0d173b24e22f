"""Command line: `python -m analysis <command>`. Run with `-h` for the list."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from analysis.data import paths
from analysis.data.errors import DataError


def _data_build(args) -> int:
    from analysis.data import build

    dest = build.build(Path(args.sources), args.version, Path(args.out), args.description)
    print(f"built data version {args.version} in {dest}")
    return 0


def _data_info(args) -> int:
    from rich.console import Console
    from rich.table import Table

    from analysis.data import info as datainfo

    report = datainfo.info(args.version)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    console = Console()
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
    unresolved = report["unresolved_models"]
    console.print(f"{len(unresolved)} model names resolve to no curated model or source metadata:")
    for m in unresolved:
        console.print(f"  {m['model_id']}: {m['aliases']}")
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

    data.load(args.table, args.version).write_csv(sys.stdout, date_format="%Y-%m-%d")
    return 0


def _data_diff(args) -> int:
    from analysis.data import info as datainfo

    rows = datainfo.diff(args.v1, args.v2)
    print("table,rows_before,rows_after,added,removed,changed")
    for r in rows:
        print(
            f"{r['table']},{r['rows_before']},{r['rows_after']},{r['added']},{r['removed']},{r['changed']}"
        )
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
    table.write_csv(sys.stdout, date_format="%Y-%m-%d")
    return 0


def _reproduce_a16z(args) -> int:
    from analysis.methods import llmflation

    return llmflation.write_reproduction(args.version)


def _estimates(args) -> int:
    from analysis.report import estimates

    table = estimates.headline(args.version)
    if args.json:
        print(json.dumps(table.to_dicts(), indent=2, default=str))
    else:
        table.write_csv(sys.stdout, date_format="%Y-%m-%d")
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m analysis", description="The book's data and build tools."
    )
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

    est = sub.add_parser(
        "estimates", help="every quotable estimate with interval, n, window and data version"
    )
    est.add_argument("--version")
    est.add_argument("--json", action="store_true")
    est.set_defaults(func=_estimates)

    a = sub.add_parser("assets", help="write the offline vega bundle into assets/vega/")
    a.set_defaults(func=_assets)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except DataError as err:
        print(err, file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
