"""Are the book's outputs unchanged by a refactor? Build them at a git ref and in the working tree,
and print each difference.

    .venv/bin/python benchmarks/compare_outputs.py                       # main vs the working tree
    .venv/bin/python benchmarks/compare_outputs.py --ref main --pages price-war token-prices

For each side it runs `python -m analysis estimates --json` and executes each named page (all
pages of the book when --pages is not given) with the figure kit on (BOOK_FIGURE_KIT), so every
figure-kit CSV the page writes is built; it also keeps each page's evaluated inline values (the
numbers its prose prints). The ref is exported with `git archive` into a temporary folder (beside a
link to the shared raw sources, as the working tree has them) and run with this .venv, its own
code first on PYTHONPATH; each side has a result cache of its own, so
neither reads what the other computed. It compares the estimates row by row, every CSV byte for
byte (printing the first differing lines), and every inline value, and exits 1 when anything
differs.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
# Run in the side's tree: execute one page with the figure kit on, print its inline values.
RUN_PAGE = """
import json, sys
from pathlib import Path
from analysis.book import notebook
run = notebook.execute(Path(sys.argv[1]), root=Path.cwd())
print(json.dumps(run.inline, sort_keys=True))
"""


def export(ref: str, dest: Path) -> Path:
    """The tree of git `ref` in `dest` (tracked files only: data releases are tracked)."""
    archive = dest.with_suffix(".tar")
    subprocess.run(
        ["git", "archive", "--format=tar", "-o", str(archive), ref], cwd=ROOT, check=True
    )
    dest.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    archive.unlink()
    return dest


def env_for(tree: Path, work: Path, slug: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("BOOK_DATA_VERSION", None)  # both sides on the latest release
    env["PYTHONPATH"] = str(tree)
    env["BOOK_CACHE_DIR"] = str(work / "cache")
    env["BOOK_FIGURE_KIT"] = str(work / "kit")
    if slug:
        env["BOOK_CHAPTER"] = slug
    return env


def run(args: list[str], tree: Path, env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise SystemExit(f"{tree}: {' '.join(args[:4])} failed:\n" + "\n".join(tail))
    return done.stdout


def page_paths(tree: Path) -> list[Path]:
    out = run(
        [
            PYTHON,
            "-c",
            "from analysis.book import notebook; "
            "print('\\n'.join(p.as_posix() for p in notebook.book_files()))",
        ],
        tree,
        env_for(tree, tree),
    )
    return [Path(line) for line in out.splitlines() if line]


def slug_of(qmd: Path) -> str:
    return "index" if qmd.stem == "index" else qmd.stem


def build(tree: Path, work: Path, pages: list[str] | None) -> dict:
    """The side's estimates (by id), figure-kit CSVs (path -> text) and inline values per page."""
    work.mkdir(parents=True, exist_ok=True)
    rows = json.loads(
        run([PYTHON, "-m", "analysis", "estimates", "--json"], tree, env_for(tree, work))
    )
    estimates = {
        r.get("id") or r.get("estimate_id") or json.dumps(r, sort_keys=True): r for r in rows
    }
    qmds = page_paths(tree)
    if pages:
        qmds = [p for p in qmds if slug_of(p) in pages]
        missing = set(pages) - {slug_of(p) for p in qmds}
        if missing:
            raise SystemExit(f"{tree}: no page {sorted(missing)} in the book")
    inline = {}
    for qmd in qmds:
        slug = slug_of(qmd)
        print(f"  {tree.name}: {slug}", file=sys.stderr, flush=True)
        out = run([PYTHON, "-c", RUN_PAGE, str(qmd)], tree, env_for(tree, work, slug))
        inline[slug] = json.loads(out.strip().splitlines()[-1])
    kit = work / "kit"
    csvs = {p.relative_to(kit).as_posix(): p.read_text() for p in sorted(kit.rglob("*.csv"))}
    return {"estimates": estimates, "csvs": csvs, "inline": inline}


def differences(before: dict, after: dict) -> list[str]:
    found = []
    for key in sorted(before["estimates"].keys() | after["estimates"].keys()):
        a, b = before["estimates"].get(key), after["estimates"].get(key)
        if a != b:
            fields = sorted((a or {}).keys() | (b or {}).keys())
            changed = [f for f in fields if (a or {}).get(f) != (b or {}).get(f)]
            found.append(
                f"estimate {key}: "
                + "; ".join(f"{f}: {(a or {}).get(f)!r} -> {(b or {}).get(f)!r}" for f in changed)
            )
    for path in sorted(before["csvs"].keys() | after["csvs"].keys()):
        a, b = before["csvs"].get(path), after["csvs"].get(path)
        if a is None or b is None:
            found.append(f"figure-kit {path}: {'only after' if a is None else 'only before'}")
        elif a != b:
            diff = difflib.unified_diff(a.splitlines(), b.splitlines(), "before", "after", n=0)
            found.append(f"figure-kit {path}:\n    " + "\n    ".join(list(diff)[2:12]))
    for slug in sorted(before["inline"].keys() | after["inline"].keys()):
        a, b = before["inline"].get(slug, {}), after["inline"].get(slug, {})
        for expr in sorted(a.keys() | b.keys()):
            if a.get(expr) != b.get(expr):
                found.append(f"page {slug}: `{expr}`: {a.get(expr)!r} -> {b.get(expr)!r}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="main", help="the git ref to compare against (main)")
    parser.add_argument("--pages", nargs="*", help="page slugs to run (default: every page)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="compare-outputs-") as tmp:
        tmp = Path(tmp)
        ref_tree = export(args.ref, tmp / "ref")
        shared = ROOT.parent / "shared"  # the raw sources sit beside the project (paths.py)
        if shared.exists():
            (tmp / "shared").symlink_to(shared)
        print(f"building {args.ref} and the working tree", file=sys.stderr)
        before = build(ref_tree, tmp / "before", args.pages)
        after = build(ROOT, tmp / "after", args.pages)
    found = differences(before, after)
    what = f"pages {', '.join(args.pages)}" if args.pages else "every page"
    print(
        f"{args.ref} vs working tree, {what}: {len(before['estimates'])} estimates, "
        f"{len(before['csvs'])} figure-kit CSVs before and {len(after['csvs'])} after, "
        f"{sum(map(len, before['inline'].values()))} inline values"
    )
    for line in found:
        print(line)
    print(f"{len(found)} difference(s)")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
