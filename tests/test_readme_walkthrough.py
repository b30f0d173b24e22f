"""The "Add this month's prices" walkthrough (docs/data-workflow.md) runs as written (issue 21,
item 6): its CSV block and its `python -m analysis data ...` commands are read from the page and
run in a temporary copy of the latest release; each command's commented output (the `#   `
lines under it) is what the command prints, the version name aside. The commands run in this
process (`main`, with the copy as the data root and the temporary folder as the working
directory): the entry point as a process is tested in tests/test_cli_errors.py."""

from __future__ import annotations

import json
import re
import shutil

from analysis.data import paths
from analysis.data import release as data
from analysis.data.paths import DATA_DIR, ROOT

PAGE = ROOT / "docs" / "data-workflow.md"


def walkthrough() -> str:
    text = PAGE.read_text()
    start = text.index("## Add this month's prices")
    return text[start : text.index("### From the live public files", start)]


def steps(section: str) -> tuple[str, list[tuple[list[str], list[str]]]]:
    """(the CSV, [(command argv after `-m analysis`, its commented output lines)]): output is
    `#   text` under a command, prose `# 3. ...` or `#    text`."""
    (csv_block,) = re.findall(r"```csv\n(.*?)```", section, flags=re.S)
    rows = "\n".join(line.strip() for line in csv_block.strip().splitlines()) + "\n"
    commands: list[tuple[list[str], list[str]]] = []
    for block in re.findall(r"```sh\n(.*?)```", section, flags=re.S):
        for line in block.splitlines():
            if line.startswith(".venv/bin/python -m analysis "):
                argv = line.split("#")[0].split()[3:]
                commands.append((argv, []))
            elif re.match(r"#   \S", line) and commands:  # output; prose is "#    ..."
                commands[-1][1].append(line[4:])
    return rows, commands


def test_the_walkthrough_runs_as_written(tmp_path, monkeypatch, cli):
    rows, commands = steps(walkthrough())
    base = data.latest_version()
    root = tmp_path / "data"
    root.mkdir()
    shutil.copytree(DATA_DIR / base, root / base)
    rel = next(r for r in data.releases() if r.version == base)
    (root / "versions.json").write_text(json.dumps({"releases": [rel.__dict__]}, indent=2))
    monkeypatch.setattr(paths, "DATA_DIR", root)
    monkeypatch.setenv("BOOK_NO_CACHE", "1")
    monkeypatch.chdir(tmp_path)
    ran = []
    for argv, said in commands:
        if argv[:2] == ["data", "add"] and "--template" in argv:
            argv = argv[: argv.index(">")] if ">" in argv else argv
        if argv[:2] == [
            "data",
            "diff",
        ]:  # the page's two names: the release it started from, the new one
            argv = ["data", "diff", base, data.latest_version(root)]
        r = cli(*argv)
        assert r.returncode == 0, (argv, r.stderr)
        if "--template" in argv:  # step 1: the CSV of step 2 uses the template's columns
            header = rows.splitlines()[0].split(",")
            assert set(header) <= set(r.stdout.strip().split(","))
            (tmp_path / "prices.csv").write_text(rows)
        new = data.latest_version(root)
        out = (r.stdout + r.stderr).replace(str(root), "data")
        for line in said:  # the page's output, with this run's version name for the page's
            expected = re.sub(r"2026-12-0\d(\.\d+)?(?= |:|/|$)", "V", line.split("...")[0])
            got = re.sub(re.escape(new) + r"|" + re.escape(base), "V", out)
            if argv[0:2] == ["data", "diff"]:
                continue  # the page sums the diff up in words
            assert expected.replace(base, "V") in got, (argv, line, out)
        ran.append(argv[:2])
    assert ["data", "add"] in ran and ["data", "validate"] in ran and ["data", "diff"] in ran
    # The release then holds the new row and the source behind the released fact.
    new = data.latest_version(root)
    tp = data.load("token_prices", new, root)
    assert tp.height == data.load("token_prices", base, root).height + 1
    assert tp.tail(1)["model_id"][0] == "claude-fable-5.1"
