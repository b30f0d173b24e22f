"""The one quote layer: every number the prose prints, in one house format per kind of quantity.

A chapter module returns its quotes as a `Quotes` namespace; the prose reads `` `{python} q.name` ``.
Each `Quote` holds the raw value and its kind, and the kind alone decides how it is shown:

| kind       | shown as          | rule                                                        |
|------------|-------------------|-------------------------------------------------------------|
| `factor`   | `42.0x`, `4.40x`, `11,146x` | three significant figures; whole numbers from 1,000 |
| `stated_factor` | `40x`, `9x to 900x` | a factor as a source states it (published or claimed), digits as given |
| `usd`      | `$2.85`, `$155`, `$0.060` | cents from $1 to $100; whole dollars from $100; two significant figures below $1 |
| `share`    | `21%`, `0.4%`     | a fraction as a whole percent; one decimal below 1%         |
| `percent`  | `6%`              | a percentage change, whole percent                          |
| `count`    | `8,063`           | thousands separators                                        |
| `number`   | `7.3`, `0.99`     | a ratio, statistic or index: three significant figures      |
| `score`    | `56`, `35.7`      | a benchmark score as the data give it                       |
| `p_value`  | `0.003`           | two significant figures, never scientific                   |
| `month`    | `March 2023`      |                                                             |
| `day`      | `March 14, 2023`  |                                                             |
| `quarter`  | `2023 Q1`         |                                                             |
| `model`, `gpu`, `provider` | `Claude Opus 5.5`, `OpenAI` | an id, shown as its display name (analysis.report.names), capitals as written |
| `text`     | as given          | phrases and names already written for readers               |

An interval or range is a `Quote` too (`kind` of its ends, value a pair): `4.40x to 401x`.
`Estimate` is a quote with its interval, sample size, window and method: what a memo cites.
An estimate the data are too thin for (`Estimate.not_available`, from `InsufficientData`) is
quoted on any page as `not available on data version V (REASON)`, its interval, window and
sample size as `not available`, and `.statement` is that as one sentence: no page fails on it.

What the prose receives is Markdown (`_repr_markdown_`, which Quarto's inline expressions use):
text from the data is escaped, so a model name holding `<script>` or `*` prints as those
characters in every output format instead of becoming markup.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any


def _sig(x: float, digits: int = 3) -> str:
    """`x` to `digits` significant figures, fixed notation, trailing zeros kept (4.40, 42.0)."""
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    return f"{x:,.{decimals}f}"


def fmt_factor(x: float) -> str:
    return f"{x:,.0f}x" if abs(x) >= 1000 else f"{_sig(x)}x"


def fmt_stated_factor(x: float) -> str:
    """A source's own figure: three significant figures would misquote "about 40x" as 40.0x."""
    return f"{x:,g}x"


def fmt_usd(x: float) -> str:
    if abs(x) >= 100:
        return f"${x:,.0f}"
    if abs(x) >= 1:
        return f"${x:,.2f}"
    return f"${_sig(x, 2)}" if x else "$0"


def fmt_share(x: float) -> str:
    return f"{x:.1%}" if 0 < abs(x) < 0.01 else f"{x:.0%}"


def fmt_percent(x: float) -> str:
    """A change given as a fraction (0.06 for six percent)."""
    return f"{x:.0%}"


def fmt_count(n: int) -> str:
    return f"{int(n):,}"


def fmt_number(x: float) -> str:
    return _sig(x) if abs(x) < 1000 else f"{x:,.0f}"


def fmt_score(x: float) -> str:
    return f"{x:g}"


def fmt_p_value(p: float) -> str:
    if p <= 0:
        return "0"
    return f"{p:.{max(2, 1 - math.floor(math.log10(p)))}f}".rstrip("0").rstrip(".")


def fmt_month(d: date) -> str:
    return f"{d:%B %Y}"


def fmt_day(d: date) -> str:
    return f"{d:%B} {d.day}, {d.year}"


def fmt_quarter(d: date) -> str:
    return f"{d.year} Q{(d.month - 1) // 3 + 1}"


FORMATS: dict[str, Callable[[Any], str]] = {
    "factor": fmt_factor,
    "stated_factor": fmt_stated_factor,
    "usd": fmt_usd,
    "share": fmt_share,
    "percent": fmt_percent,
    "count": fmt_count,
    "number": fmt_number,
    "score": fmt_score,
    "p_value": fmt_p_value,
    "month": fmt_month,
    "day": fmt_day,
    "quarter": fmt_quarter,
    "model": lambda key: _display_name("model", key),
    "gpu": lambda key: _display_name("gpu", key),
    "provider": lambda key: _display_name("provider", key),
    "text": str,
}


def _display_name(kind: str, key: str) -> str:
    from analysis.report.names import display_name

    return display_name(kind, key)


# Characters that Markdown (pandoc's) would read as markup or raw HTML, or as the start of maths,
# a citation or a cross-reference.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|$@~^&])")


def escape_markdown(text: str) -> str:
    """Backslash-escape every Markdown metacharacter: the text prints literally in HTML and PDF."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


# Quarto leaves an inline expression whose value is an empty string on the page as raw code
# (`{python} q.x`), so an empty quote is shown as this stated text instead.
NOT_AVAILABLE = "not available"


def _shown(value: Any, kind: str) -> str:
    if kind not in FORMATS:
        raise ValueError(f"unknown quote kind {kind!r}; known: {', '.join(FORMATS)}")
    if value is None:  # an estimate the data are too thin for (analysis.report.estimates)
        return NOT_AVAILABLE
    if isinstance(value, tuple):
        low, high = value
        return f"{FORMATS[kind](low)} to {FORMATS[kind](high)}"
    return FORMATS[kind](value) or NOT_AVAILABLE


@dataclass(frozen=True)
class Quote:
    """A value the prose quotes, shown in the house format of its `kind`.

    A pair `(low, high)` is an interval or a range and shows as `low to high`.
    """

    value: Any
    kind: str = "text"

    def __post_init__(self) -> None:
        if self.kind not in FORMATS:
            raise ValueError(f"unknown quote kind {self.kind!r}; known: {', '.join(FORMATS)}")

    @property
    def text(self) -> str:
        """The plain text the prose shows (unescaped)."""
        return _shown(self.value, self.kind)

    def __str__(self) -> str:
        return self.text

    def _repr_markdown_(self) -> str:
        return escape_markdown(self.text)


def quote(value: Any, kind: str = "text") -> Quote:
    return Quote(value, kind)


@dataclass(frozen=True)
class Estimate(Quote):
    """A headline estimate: the value with its 90% interval, sample size, window and method.

    Shown as its value; `ci`, `n_text` and `window` are quotes of the rest.
    """

    estimate_id: str = ""
    description: str = ""
    unit: str = ""
    low: float | None = None
    high: float | None = None
    n: int | None = None
    window_start: date | None = None
    window_end: date | None = None
    method: str = ""
    chapter: str = ""
    data_version: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    reason: str = ""  # why the value is None (the data are too thin for the method)

    @classmethod
    def not_available(cls, estimate_id: str, reason: str, data_version: str) -> Estimate:
        """An estimate the data are too thin for (`InsufficientData`): no value, and the reason.
        Every quote of it states that, and its `.ci`, `.window`, `.n_text` read as not
        available instead of failing the page (issue 21)."""
        return cls(
            None,
            "number",
            estimate_id=estimate_id,
            description=f"{NOT_AVAILABLE}: {reason}",
            data_version=data_version,
            reason=reason,
        )

    @property
    def available(self) -> bool:
        return self.value is not None

    @property
    def text(self) -> str:
        """The value; for an estimate that is not available, that and why, in one clause:
        `not available on data version V (REASON)`."""
        if self.available:
            return super().text
        why = f" ({self.reason})" if self.reason else ""
        on = f" on data version {self.data_version}" if self.data_version else ""
        return f"{NOT_AVAILABLE}{on}{why}"

    @property
    def statement(self) -> Quote:
        """One sentence for the prose: what is not available, on which data version, and why
        (empty text, shown as `not available`, never for an available estimate)."""
        if self.available:
            return Quote(None)
        return Quote(f"The estimate {self.estimate_id} is {self.text}.")

    def _part(self, value: Any, kind: str) -> Quote:
        return Quote(None if not self.available else value, kind)

    @property
    def interval(self) -> tuple[float, float | None, float | None]:
        """(value, low, high): the trend a method compares with."""
        return (self.value, self.low, self.high)

    @property
    def ci(self) -> Quote:
        if self.available and (self.low is None or self.high is None):
            raise ValueError(f"estimate {self.estimate_id!r} has no interval")
        return self._part((self.low, self.high), self.kind)

    @property
    def n_text(self) -> Quote:
        return self._part(self.n, "count")

    @property
    def window(self) -> Quote:
        return self._part((self.window_start, self.window_end), "month")

    @property
    def start(self) -> Quote:
        return self._part(self.window_start, "month")

    @property
    def end(self) -> Quote:
        return self._part(self.window_end, "month")

    def as_row(self) -> dict[str, Any]:
        """One row of the estimates table (`python -m analysis estimates`)."""
        return {
            "estimate_id": self.estimate_id,
            "description": self.description,
            "value": None if self.value is None else float(self.value),
            "unit": self.unit,
            "ci90_low": None if self.low is None else float(self.low),
            "ci90_high": None if self.high is None else float(self.high),
            "n": self.n,
            "window_start": self.window_start,
            "window_end": self.window_end,
            "method": self.method,
            "chapter": self.chapter,
            "data_version": self.data_version,
        }


class QuoteNotFound(AttributeError):
    """The prose asked for a quote the chapter does not compute."""


# What a quote of a part the data version cannot show reads as (see analysis.report.left_out);
# the Quarto filter and the offline preview stop if it reaches a page.
PLACEHOLDER = "⟦not in this data version⟧"


@dataclass(frozen=True)
class LeftOut(Quote):
    """A quote of a left-out part: the placeholder, and so is every attribute (`.ci`, `.window`)."""

    value: Any = PLACEHOLDER

    def __getattr__(self, name: str) -> LeftOut:
        if name.startswith("_"):
            raise AttributeError(name)
        return self


class Quotes(Mapping[str, Quote]):
    """A chapter's quotes by name: `q.gpqa_factor` or `q["gpqa_factor"]`.

    A missing name raises `QuoteNotFound` naming the chapter, the name and the closest names
    (after `leave_out()`, it reads as the placeholder instead).
    """

    def __init__(self, chapter: str, quotes: Mapping[str, Quote] | None = None) -> None:
        self._chapter = chapter
        self._quotes: dict[str, Quote] = {}
        self._leaves_out = False
        for name, value in (quotes or {}).items():
            self[name] = value

    def __setitem__(self, name: str, value: Quote) -> None:
        if not isinstance(value, Quote):
            raise TypeError(
                f"{self._chapter}: quote {name!r} must be a Quote (got {type(value).__name__}): "
                "format it with a kind in analysis.report.quote"
            )
        if name in self._quotes:
            raise ValueError(f"{self._chapter}: quote {name!r} is defined twice")
        self._quotes[name] = value

    def update(self, other: Mapping[str, Quote]) -> None:
        for name, value in other.items():
            self[name] = value

    def __getitem__(self, name: str) -> Quote:
        try:
            return self._quotes[name]
        except KeyError:
            if self._leaves_out:
                return LeftOut()
            raise self._missing(name) from None

    def leave_out(self) -> None:
        """Answer names this chapter did not compute with the placeholder, not an error: for a
        data version whose page leaves parts out (their prose still runs, but is not shown)."""
        self._leaves_out = True

    def __getattr__(self, name: str) -> Quote:
        if name.startswith("_"):
            raise AttributeError(name)
        return self[name]

    def _missing(self, name: str) -> QuoteNotFound:
        close = difflib.get_close_matches(name, self._quotes, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        return QuoteNotFound(f"chapter {self._chapter!r} has no quote {name!r}{hint}")

    def __iter__(self) -> Iterator[str]:
        return iter(self._quotes)

    def __len__(self) -> int:
        return len(self._quotes)

    def texts(self) -> dict[str, str]:
        """Every quote as the prose shows it (plain text)."""
        return {name: q.text for name, q in self._quotes.items()}
