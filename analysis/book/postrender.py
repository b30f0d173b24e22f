"""Quarto `post-render` step: publish the figure kit in the rendered site's `figures/`.

While Quarto renders, `analysis.book.show.show` writes every chart's kit entry into `_figures/`
(`make book` sets `BOOK_FIGURE_KIT` to it). This step copies that folder into the output folder
(`QUARTO_PROJECT_OUTPUT_DIR`, which Quarto sets for project scripts; `_book` when unset) as
`figures/`, and writes `figures/index.html`, one row per figure, so the "Download" links under
each chart and the index resolve.

It also removes the scripts Quarto's Jupyter engine adds from a public CDN to every page whose
notebook has an HTML output (require.js, jQuery and a `define('jquery', ...)` shim, meant for
JavaScript widgets such as plotly; quarto-cli src/core/jupyter/widgets.ts): the book has no such
widget, and offline they are two failed loads and a "define is not defined" error on every page.
Nothing on the book's pages uses them (the vega bundle loads on its own).

Quarto runs this file as a script with the book's Python (QUARTO_PYTHON) from the project root;
a script's own folder is first on sys.path, so the project root is added for `import analysis`.
"""

from __future__ import annotations

import os
import re
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


# The three tags of Quarto's widget head, in any attribute order: the two CDN scripts and the shim.
_WIDGET_SCRIPTS = re.compile(
    r"<script\b[^>]*\bsrc=[\"']https://cdnjs\.cloudflare\.com/ajax/libs/(?:require\.js|jquery)/"
    r"[^>]*>\s*</script>\s*"
    r"|<script\b[^>]*>\s*define\(\s*['\"]jquery['\"][^<]*</script>\s*",
    re.I,
)


def drop_cdn_scripts(html: str) -> str:
    """`html` without Quarto's widget scripts (require.js and jQuery from a CDN, the shim)."""
    return _WIDGET_SCRIPTS.sub("", html)


def drop_cdn_scripts_in_site(output_dir: Path) -> int:
    """Rewrite every HTML page of the site without Quarto's widget scripts; how many changed."""
    changed = 0
    for page in sorted(Path(output_dir).rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        cleaned = drop_cdn_scripts(html)
        if cleaned != html:
            # Write beside the page, then swap it in: no half-written page.
            temporary = page.with_name(page.name + ".tmp")
            temporary.write_text(cleaned, encoding="utf-8")
            temporary.replace(page)
            changed += 1
    return changed


def _hidden_and_temporary(folder: str, names: list[str]) -> set[str]:
    return {name for name in names if name.startswith(".") or name.endswith(".tmp")}


def main() -> int:
    output_dir = ROOT / (os.environ.get(OUTPUT_DIR_ENV) or DEFAULT_OUTPUT_DIR)
    if output_dir.is_dir():
        changed = drop_cdn_scripts_in_site(output_dir)
        print(f"post-render: CDN widget scripts removed from {changed} pages", file=sys.stderr)
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
