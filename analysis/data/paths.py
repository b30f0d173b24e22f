"""Where things are. Everything is relative to the project root, so chapters run from there."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = Path(os.environ.get("BOOK_DATA_DIR", ROOT / "data"))
# Raw public sources sit beside the clone on build machines; readers' clones do not have them.
SHARED_SOURCES = ROOT.parent / "shared" / "sources"
SHARED_SEEDS = ROOT.parent / "shared" / "seeds"
QUARTO_SCHEMA = ROOT.parent / "shared" / "quarto" / "quarto-1.10.18-project.schema.json"
