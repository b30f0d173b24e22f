"""Run and check the book's chapters without Quarto.

Quarto cannot be installed on the machines that build and test this project, so chapters are
tested the way Quarto's Jupyter engine runs them: the `.qmd` text is parsed with jupytext's
R Markdown reader (jupytext's "qmd" format would call the Quarto binary), `#| eval: false` chunks
are dropped, and the notebook runs in a fresh `python3` kernel from the project root
(`execute-dir: project`).

Inline expressions (`` `{python} expr` ``) are evaluated once, after every code cell has run.
Quarto evaluates each one where its paragraph sits; the two differ only if a later cell rebinds a
name the prose already used, which the book avoids (prose reports final results). One evaluation
pass keeps it to a single kernel round-trip and one error message listing every bad expression.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import jupytext
import nbformat
import yaml
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

from analysis.data.paths import ROOT
from analysis.data.reads import READS_FILE_ENV

SETUP_TAG = "book-setup"
KERNEL_NAME = "python3"
INLINE_EXPRESSION = re.compile(r"(?<!`)`\{python\}\s+([^`\n]+?)\s*`(?!`)")
CROSSREF_PREFIXES = [
    "fig",
    "tbl",
    "sec",
    "eq",
    "lst",
    "thm",
    "lem",
    "cor",
    "prp",
    "cnj",
    "def",
    "exm",
    "exr",
    "sol",
    "rem",
    "alg",
]  # Quarto's kinds
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class ChapterError(RuntimeError):
    """A chapter failed to run: the message names the chapter file, the cell and the exception."""


@dataclass(frozen=True)
class BookEntry:
    path: Path  # absolute
    kind: str  # "index", "part", "chapter" or "appendix"


@dataclass
class ExecutedChapter:
    path: Path
    notebook: nbformat.NotebookNode
    inline: dict[str, str] = field(default_factory=dict)  # expression -> text shown in prose
    reads: dict[str, dict] = field(default_factory=dict)  # what it read (analysis.data.reads)


# ---------------------------------------------------------------------------------------------
# Book structure


def project_root(path: Path | str) -> Path:
    """The nearest folder at or above `path` that holds `_quarto.yml`."""
    start = Path(path).resolve()
    for folder in [start, *start.parents]:
        if (folder / "_quarto.yml").is_file():
            return folder
    raise FileNotFoundError(f"no _quarto.yml found at or above {start}")


def book_entries(root: Path | str = ROOT) -> list[BookEntry]:
    """Every .qmd the book renders, in book order, with its role; index.qmd first."""
    root = Path(root).resolve()
    config = yaml.safe_load((root / "_quarto.yml").read_text(encoding="utf-8")) or {}
    book = config.get("book") or {}
    entries = [
        *_walk_chapters(root, book.get("chapters") or [], "chapter"),
        *_walk_chapters(root, book.get("appendices") or [], "appendix"),
    ]
    index = root / "index.qmd"
    if index.exists() and all(entry.path != index for entry in entries):
        entries.insert(0, BookEntry(index, "chapter"))
    entries.sort(key=lambda entry: entry.path != index)  # stable: only moves index to the front
    seen: set[Path] = set()
    unique = []
    for entry in entries:
        if entry.path not in seen:
            seen.add(entry.path)
            kind = "index" if entry.path == index else entry.kind
            unique.append(BookEntry(entry.path, kind))
    return unique


def book_files(root: Path | str = ROOT) -> list[Path]:
    """Every .qmd the book renders, in book order (from `_quarto.yml`), index.qmd first."""
    return [entry.path for entry in book_entries(root)]


def _walk_chapters(root: Path, items: list, kind: str) -> Iterator[BookEntry]:
    for item in items:
        if isinstance(item, str):
            yield from _qmd_entry(root, item, kind)
        elif isinstance(item, dict):
            part = item.get("part")
            if isinstance(part, str):
                yield from _qmd_entry(
                    root, part, "part"
                )  # a part title that is not a file is skipped
            if isinstance(item.get("href"), str):
                yield from _qmd_entry(root, item["href"], kind)
            yield from _walk_chapters(root, item.get("chapters") or [], kind)


def _qmd_entry(root: Path, name: str, kind: str) -> Iterator[BookEntry]:
    if name.endswith(".qmd"):
        yield BookEntry((root / name).resolve(), kind)


def chapter_slug(path: Path | str) -> str:
    """`chapters/01-token-prices.qmd` -> `token-prices`: the prefix every label must carry."""
    return re.sub(r"^\d+[-_]", "", Path(path).stem)


# ---------------------------------------------------------------------------------------------
# Cell options (`#| key: value` lines at the top of a chunk)


def option_lines(source: str) -> list[str]:
    lines = []
    for line in source.splitlines():
        if not line.startswith("#|"):
            break
        lines.append(line)
    return lines


def parse_options(lines: list[str]) -> dict:
    """The YAML in a cell's `#|` lines; raises ValueError when it is not a YAML mapping."""
    if not lines:
        return {}
    text = "\n".join(re.sub(r"^#\| ?", "", line) for line in lines)
    try:
        options = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ValueError(f"cell options are not valid YAML: {_one_line(error)}") from None
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"cell options must be `key: value` lines, got {text!r}")
    return options


# ---------------------------------------------------------------------------------------------
# Notebook


def to_notebook(
    qmd_path: Path | str,
    fmt: str = "html",
    root: Path | str | None = None,
    reads_file: Path | str | None = None,
) -> nbformat.NotebookNode:
    """The chapter as a notebook Quarto would run, with a hidden setup cell first.

    Each code cell keeps its `#|` lines and gets `metadata.label` and `metadata.quarto_options`.
    `reads_file`: where the kernel records what the chapter reads (analysis.data.reads).
    """
    qmd_path = Path(qmd_path).resolve()
    root = Path(root).resolve() if root else project_root(qmd_path)
    notebook = jupytext.reads(qmd_path.read_text(encoding="utf-8"), fmt="Rmd")
    cells = [setup_cell(root, fmt, chapter_slug(qmd_path), reads_file)]
    for cell in notebook.cells:
        if cell.cell_type == "code":
            try:
                options = parse_options(option_lines(cell.source))
            except ValueError as error:
                chapter = _relative(qmd_path, root)
                first = cell.source.splitlines()[0]
                raise ChapterError(f"{chapter}: cell starting `{first}`: {error}") from None
            if options.get("eval") is False:
                continue
            cell.metadata["quarto_options"] = options
            if "label" in options:
                cell.metadata["label"] = str(options["label"])
        cells.append(cell)
    notebook.cells = cells
    notebook.metadata["kernelspec"] = {
        "name": KERNEL_NAME,
        "display_name": "Python 3",
        "language": "python",
    }
    notebook.metadata["book_chapter"] = str(qmd_path.relative_to(root))
    return notebook


def write_notebook(
    qmd_path: Path | str, dest_dir: Path | str, fmt: str = "html", root: Path | str | None = None
) -> Path:
    """Write the chapter's notebook (setup cell included) for tools that need .ipynb, e.g. nbval.

    `chapters/01-x.qmd` becomes `dest_dir/chapters/01-x.qmd.ipynb`, so reports name the chapter.
    """
    qmd_path = Path(qmd_path).resolve()
    root = Path(root).resolve() if root else project_root(qmd_path)
    target = Path(dest_dir) / f"{qmd_path.relative_to(root).as_posix()}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(to_notebook(qmd_path, fmt, root), target)
    return target


def setup_cell(
    root: Path, fmt: str, chapter: str | None = None, reads_file: Path | str | None = None
) -> nbformat.NotebookNode:
    """What Quarto does for us when it renders: run from the project root, know the format
    and the document (`chapter`: its slug, which names its folder in the figure kit); and
    where to record the data the chapter reads (`reads_file`)."""
    source = (
        "# Added by analysis.book.notebook (Quarto does this itself when it renders):\n"
        "# execute-dir: project, and tell analysis.book.show which format and chapter are rendered.\n"
        "import os\n"
        f"os.chdir({str(root)!r})\n"
        f"os.environ['BOOK_OUTPUT_FORMAT'] = {fmt!r}\n"
    )
    if chapter:
        source += f"os.environ['BOOK_CHAPTER'] = {chapter!r}\n"
    if reads_file:
        source += f"os.environ[{READS_FILE_ENV!r}] = {str(reads_file)!r}\n"
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["tags"] = [SETUP_TAG, "remove-cell"]
    return cell


def is_setup_cell(cell: nbformat.NotebookNode) -> bool:
    return SETUP_TAG in cell.metadata.get("tags", [])


def cell_description(notebook: nbformat.NotebookNode, index: int) -> str:
    """`cell 'fig-x'` when labelled, else `code cell 3 (first line: ...)`, counted in the chapter."""
    cell = notebook.cells[index]
    if cell.metadata.get("label"):
        return f"cell '{cell.metadata['label']}'"
    code_cells = [
        c for c in notebook.cells[: index + 1] if c.cell_type == "code" and not is_setup_cell(c)
    ]
    body = [line for line in cell.source.splitlines() if line.strip() and not line.startswith("#|")]
    first = body[0].strip() if body else ""
    return f"code cell {len(code_cells)} (first line: `{first}`)"


# ---------------------------------------------------------------------------------------------
# Execution


def execute(
    qmd_path: Path | str,
    fmt: str = "html",
    timeout: int = 600,
    root: Path | str | None = None,
) -> ExecutedChapter:
    """Run a chapter in a fresh kernel from the project root, then evaluate its inline code.

    The result carries what the chapter read from the data (`reads`), which the kernel records
    as it runs (analysis.data.reads). Raises ChapterError naming the chapter file and the
    failing cell or inline expression. A page with no code cell and no inline expression (a
    part's opening page, the references) starts no kernel, as under Quarto, whose markdown
    engine renders such a file without executing anything.
    """
    qmd_path = Path(qmd_path).resolve()
    root = Path(root).resolve() if root else project_root(qmd_path)
    chapter = qmd_path.relative_to(root).as_posix()
    with tempfile.TemporaryDirectory(prefix="book-reads-") as tmp:
        reads_file = Path(tmp) / "reads.json"
        notebook = to_notebook(qmd_path, fmt, root, reads_file)
        if not any(
            (c.cell_type == "code" and not is_setup_cell(c))
            or (c.cell_type == "markdown" and inline_expressions(c.source))
            for c in notebook.cells
        ):
            return ExecutedChapter(qmd_path, notebook)
        client = NotebookClient(
            notebook,
            timeout=timeout,
            kernel_name=KERNEL_NAME,
            resources={"metadata": {"path": str(root)}},
            # Stop the kernel at once when the page is done: a graceful shutdown waited 0.41-0.52 s
            # a page for the interpreter's teardown, the immediate one 0.11-0.12 s (docs/
            # benchmarks.md, third sitting of 2026-12-04). Nothing is lost: every output has
            # arrived with its cell's reply, and the kernel writes its files (figure kit, result
            # cache, reads) whole before that reply.
            shutdown_kernel="immediate",
        )
        client.reset_execution_trackers()
        try:
            # The kernel process's own stderr holds only launcher chatter (a warning about TCP
            # transport); the chapter's output and errors arrive through the messaging channels.
            with client.setup_kernel(stderr=subprocess.DEVNULL):
                for index, cell in enumerate(notebook.cells):
                    if cell.cell_type == "code":
                        _run_cell(client, notebook, index, chapter)
                inline = _evaluate_inline(client, notebook, chapter)
        except DeadKernelError as error:
            raise ChapterError(f"{chapter}: the kernel died: {error}") from None
        recorded = json.loads(reads_file.read_text(encoding="utf-8")) if reads_file.exists() else {}
    return ExecutedChapter(qmd_path, notebook, inline, recorded.get("reads", {}))


def _run_cell(client: NotebookClient, notebook, index: int, chapter: str) -> None:
    where = cell_description(notebook, index)
    try:
        client.execute_cell(notebook.cells[index], index)
    except CellExecutionError as error:
        trace = _ANSI.sub("", error.traceback or "")
        raise ChapterError(
            f"{chapter}: {where} failed: {error.ename}: {error.evalue}\n\n{trace}"
        ) from None
    except CellTimeoutError:
        raise ChapterError(f"{chapter}: {where} timed out after {client.timeout} s") from None


def inline_expressions(markdown: str) -> list[str]:
    return [match.group(1) for match in INLINE_EXPRESSION.finditer(markdown)]


def _evaluate_inline(client: NotebookClient, notebook, chapter: str) -> dict[str, str]:
    expressions = list(
        dict.fromkeys(
            expr
            for cell in notebook.cells
            if cell.cell_type == "markdown"
            for expr in inline_expressions(cell.source)
        )
    )
    if not expressions:
        return {}
    probe = nbformat.v4.new_code_cell(_INLINE_EVALUATOR.replace("EXPRESSIONS", repr(expressions)))
    notebook.cells.append(probe)  # nbclient stores the executed cell back at its index
    try:
        client.execute_cell(probe, len(notebook.cells) - 1)
    except CellExecutionError as error:
        raise ChapterError(f"{chapter}: evaluating inline expressions failed: {error}") from None
    finally:
        notebook.cells.pop()
    stdout = "".join(out.get("text", "") for out in probe.outputs if out.get("name") == "stdout")
    results = json.loads(stdout.strip().splitlines()[-1])
    failures = [f"`{{python}} {r['expr']}`: {r['error']}" for r in results if "error" in r]
    if failures:
        raise ChapterError(f"{chapter}: inline expression failed: " + "; ".join(failures))
    return {r["expr"]: r["value"] for r in results}


# Runs in the kernel. Strings show without quotes; other values as IPython shows them
# (Markdown if they offer it, else plain text), which is what Quarto puts in the prose.
_INLINE_EVALUATOR = """\
def _book_inline(expressions):
    import json
    from IPython import get_ipython
    shell = get_ipython()
    results = []
    for expr in expressions:
        try:
            value = eval(expr, shell.user_ns)
        except Exception as error:
            results.append({"expr": expr, "error": f"{type(error).__name__}: {error}"})
            continue
        if isinstance(value, str):
            text = value
        else:
            data = shell.display_formatter.format(value)[0]
            text = data.get("text/markdown", data.get("text/plain", str(value)))
        results.append({"expr": expr, "value": text})
    print(json.dumps(results))
_book_inline(EXPRESSIONS)
del _book_inline
"""


def _relative(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())
