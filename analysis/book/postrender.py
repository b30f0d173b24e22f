"""Quarto `post-render` step: publish the figure kit in the rendered site's `figures/`.

While Quarto renders, `analysis.book.show.show` writes every chart's kit entry into `_figures/`
(`make book` sets `BOOK_FIGURE_KIT` to it). This step copies that folder into the output folder
(`QUARTO_PROJECT_OUTPUT_DIR`, which Quarto sets for project scripts; `_book` when unset) as
`figures/`, and writes `figures/index.html`, one row per figure, so the "Download" links under
each chart and the index resolve.

Quarto runs this file as a script with the book's Python (QUARTO_PYTHON) from the project root;
a script's own folder is first on sys.path, so the project root is added for `import analysis`.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTPUT_DIR_ENV = "QUARTO_PROJECT_OUTPUT_DIR"
DEFAULT_OUTPUT_DIR = "_book"


def publish_kit(
    root: Path | str = ROOT, output_dir: Path | str | None = None, kit: Path | str | None = None
) -> Path | None:
    """Copy the kit into `<output_dir>/figures/` and write its index; the index path, or None
    when there is no kit to publish (nothing is touched then)."""
    from analysis.book import build as book
    from analysis.book import figure_kit
    from analysis.book import notebook as chapters

    root = Path(root).resolve()
    output_dir = root / (output_dir or os.environ.get(OUTPUT_DIR_ENV) or DEFAULT_OUTPUT_DIR)
    kit = Path(kit) if kit else (figure_kit.kit_dir() or root / book.KIT_DIR)
    if not kit.is_dir() or not figure_kit.record_files(kit):
        return None
    target = output_dir / figure_kit.SITE_DIR
    output_dir.mkdir(parents=True, exist_ok=True)
    # Copy beside the target, then swap it in: the site never shows half a kit.
    staging = Path(tempfile.mkdtemp(prefix=".figures-", dir=output_dir))
    try:
        shutil.copytree(kit, staging, dirs_exist_ok=True, ignore=_hidden_and_temporary)
        order, title = [], ""
        if (root / "_quarto.yml").is_file():  # book order and title, when there is a book
            order = [chapters.chapter_slug(path) for path in chapters.book_files(root)]
            title = book._book_title(root)
        figure_kit.write_index(staging, order, title)
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target / figure_kit.INDEX_FILE


def _hidden_and_temporary(folder: str, names: list[str]) -> set[str]:
    return {name for name in names if name.startswith(".") or name.endswith(".tmp")}


def main() -> int:
    index = publish_kit()
    if index is None:
        print(
            "post-render: no figure kit in _figures/ (render with `make book`, which sets "
            "BOOK_FIGURE_KIT); the site has no figures/ folder",
            file=sys.stderr,
        )
    else:
        from analysis.book import figure_kit

        count = len(figure_kit.record_files(index.parent))
        print(f"post-render: figure kit ({count} figures) published to {index}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
