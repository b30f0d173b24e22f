"""Errors that point at the bad value: file, row, column, value and the rule it breaks."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    file: str
    row: int | None  # 1-based data row (header not counted); None for file-level problems
    column: str | None
    value: str | None
    rule: str

    def __str__(self) -> str:
        where = self.file
        if self.row is not None:
            where += f", row {self.row}"
        if self.column is not None:
            where += f", column {self.column!r}"
        value = "" if self.value is None else f": value {self.value!r}"
        return f"{where}{value}: {self.rule}"


class DataError(ValueError):
    """Bad input data. Carries every problem found, not only the first."""

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        lines = [str(p) for p in self.problems[:50]]
        if len(self.problems) > 50:
            lines.append(f"... and {len(self.problems) - 50} more problems")
        super().__init__("\n".join(lines))


def fail(file: str, row: int | None, column: str | None, value: object, rule: str) -> DataError:
    """Build a one-problem DataError: `raise fail(...)`."""
    return DataError(Problem(str(file), row, column, None if value is None else str(value), rule))
