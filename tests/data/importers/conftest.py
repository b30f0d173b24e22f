"""A small sources tree for importer tests: files written with a real `_PROVENANCE.tsv` row each."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

HEADER = "file\trepo\tcommit\tcommit_date\tpath_in_repo\tbytes\tsha256\n"


class SourceTree:
    """`tree.add("folder/2026-01-01_x.json", text)` writes the file and lists it in its folder's
    `_PROVENANCE.tsv` (commit `c0ffee...`, the given commit date), so locators resolve."""

    def __init__(self, root: Path):
        self.root = root
        self.rows: dict[str, list[str]] = {}

    def add(
        self,
        rel: str,
        content: str | bytes,
        commit: str = "c0ffee" + "0" * 34,
        commit_date: str = "2026-01-01",
        repo: str = "owner/repo",
    ) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode("utf-8") if isinstance(content, str) else content
        path.write_bytes(data)
        folder = rel.split("/", 1)[0]
        sha = hashlib.sha256(data).hexdigest()
        fields = [rel, repo, commit, commit_date, rel.split("/", 1)[1], str(len(data)), sha]
        row = "\t".join(fields)
        rows = [r for r in self.rows.get(folder, []) if not r.startswith(rel + "\t")]
        self.rows[folder] = [*rows, row]
        (self.root / folder / "_PROVENANCE.tsv").write_text(
            HEADER + "".join(r + "\n" for r in self.rows[folder]), encoding="utf-8"
        )
        return path


@pytest.fixture
def tree(tmp_path: Path) -> SourceTree:
    return SourceTree(tmp_path / "sources")
