"""The titles of the book's pages, as their `.qmd` files give them, for the tables that name the
chapter a number or a claim comes from (the summary's Table 1, the claims ledger's sections) and
for the offline preview's pages.

`chapter_titles()` records each title it reads (analysis.data.reads, `title:<path>`, checked again
by `release.read_now`), so a page that shows a chapter's title runs again when the title changes.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from analysis.data import paths, reads

CHAPTERS = "chapters"  # the chapters' folder in the project
HEADING = re.compile(r"^#\s+(.*?)\s*(\{[^}]*\})?\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def front_matter(path: Path) -> dict:
    """The YAML between the `---` lines that open `path`; {} when there is none or it is not a
    mapping."""
    text = Path(path).read_text(encoding="utf-8")
    found = re.match(r"^---\s*\n(.*?)\n---\s*\n", text, flags=re.S)
    if not found:
        return {}
    try:
        data = yaml.safe_load(found.group(1))
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def page_title(path: Path) -> str:
    """A page's title: its front matter `title`, else its first level-1 heading outside code,
    else the file's name without `.qmd`."""
    title = front_matter(path).get("title")
    if title:
        return str(title)
    in_code = False
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_code = not in_code
        elif not in_code and (heading := HEADING.match(line)):
            return heading.group(1)
    return Path(path).stem


def chapter_titles(root: Path | None = None) -> dict[str, str]:
    """`{slug: title}` of every page in the chapters' folder (`chapters/price-war.qmd` is
    `price-war`), each read recorded."""
    folder = Path(root or paths.ROOT) / CHAPTERS
    found = {}
    for path in sorted(folder.glob("*.qmd")):
        found[path.stem] = page_title(path)
        reads.record(f"title:{path.resolve()}", value=found[path.stem])
    return found
