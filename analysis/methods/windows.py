"""Which months an analysis may use: the window and base-period rules, in one place.

A reader's new row can land anywhere: in the newest month, a month after it, an old month, or
on a new GPU or model. An analysis whose window follows the newest data must not then collapse
to one thin month, nor move its base. The rules (issue 21):

1. A month with fewer observations than the method's minimum is not a window end: the window
   ends at the latest month that has at least the minimum.
2. The window is the unbroken run of such months ending there (a monthly time-dummy index needs
   an observation every month; across a gap it would jump between regimes of sources).
3. A base period is fixed by the method (a named constant beside the method), not by the data's
   edge. A window that does not hold its base has no index: the estimate is not available
   (`InsufficientData`, which the quote layer renders as "not available").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from analysis.methods.trends import InsufficientData


@dataclass(frozen=True)
class Window:
    start: date  # first month of the run
    end: date  # last month with at least `minimum` observations
    minimum: int


def _months_apart(a: date, b: date) -> int:
    return (b.year - a.year) * 12 + b.month - a.month


def unbroken_window(months: Iterable[date], minimum: int = 1, method: str = "window") -> Window:
    """The window of rules 1 and 2 over `months` (one entry per observation, each a month's first
    day): it ends at the latest month with at least `minimum` observations and starts at the
    first month of the unbroken run of such months ending there. Raises InsufficientData when no
    month has the minimum."""
    counts = Counter(months)
    thick = sorted((m for m, n in counts.items() if n >= minimum), reverse=True)
    if not thick:
        most = max(counts.values(), default=0)
        raise InsufficientData(
            f"{method} needs a month with at least {minimum} observations; the most is {most}"
        )
    start = thick[0]
    for month in thick[1:]:
        if _months_apart(month, start) != 1:
            break
        start = month
    return Window(start, thick[0], minimum)


def fixed_base(window: Window, base: date, method: str = "index") -> date:
    """Rule 3: the method's base month, if the window holds it."""
    if not window.start <= base <= window.end:
        raise InsufficientData(
            f"{method}: its base month {base:%Y-%m} is outside the window "
            f"{window.start:%Y-%m} to {window.end:%Y-%m}"
        )
    return base
