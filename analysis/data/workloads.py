"""Workload description files: what a reader's traffic looks like, read and checked.

A workload file is YAML (an example in docs/workloads.md; presets in `workloads/`). Every problem
is one located line: the file, the line, the key, the value and the rule it breaks, all problems
of a file at once. Nothing here prices anything: `analysis.methods.bill` does.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import yaml

from analysis.data.errors import DataError, Problem

WORKLOADS_DIR = Path(__file__).resolve().parents[2] / "workloads"
HOURS = 24
CURRENCIES = ("USD", "CNY")
TOKEN_KEYS = ("input", "output", "reasoning", "cache_write")
KEYS = {
    "name",
    "description",
    "requests_per_day",
    "tokens_per_request",
    "cache_hit_share",
    "batch_share",
    "dispatch_hours_utc",
    "context_tier",
    "date",
    "currency",
    "compare",
}


@dataclass(frozen=True)
class Offer:
    """A model at a seller, as a workload names it to compare (provider None: every seller)."""

    model_id: str
    provider: str | None = None
    batch_share: float | None = None  # this offer's own batch share (None: the workload's)


@dataclass(frozen=True)
class Workload:
    """Traffic per day. `input_tokens` counts every input token of a request (cached ones and
    cache writes too); `cache_hit_share` of them are read from the cache, and
    `cache_write_tokens` of the others are written to it. `dispatch_hours_utc` holds 24 weights
    (hour 0..23 UTC) that sum to 1: the share of requests sent in each hour, on every day."""

    name: str
    requests_per_day: float
    input_tokens: int
    output_tokens: int
    reasoning_tokens: int = 0
    cache_write_tokens: int = 0
    cache_hit_share: float = 0.0
    batch_share: float = 0.0
    dispatch_hours_utc: tuple[float, ...] = (1 / HOURS,) * HOURS
    context_tier: str | None = None
    date: dt.date | None = None  # the first day priced (the bill is a week's average day)
    currency: str = "USD"
    compare: tuple[Offer, ...] = ()
    description: str = ""


def _lines(text: str) -> dict[tuple, int]:
    """The 1-based line of every key path in a YAML document (for located errors)."""
    out: dict[tuple, int] = {}

    def walk(node, path):
        out[path] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                walk(v, (*path, k.value))
                out[(*path, k.value)] = k.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode):
            for i, v in enumerate(node.value):
                walk(v, (*path, i))

    root = yaml.compose(text)
    if root is not None:
        walk(root, ())
    return out


def read(path: Path | str) -> Workload:
    """The workload in `path`, or a DataError with one located line per problem."""
    path = Path(path)
    if not path.is_file():
        raise DataError(Problem(str(path), None, None, None, "no such workload file"))
    text = path.read_text(encoding="utf-8")
    try:
        raw = yaml.safe_load(text)
        lines = _lines(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        raise DataError(
            Problem(str(path), None, None, None, f"not valid YAML{where}: {err}")
        ) from None
    return parse(raw, str(path), lines)


def parse(raw: object, file: str = "<workload>", lines: dict[tuple, int] | None = None) -> Workload:
    """A Workload from a loaded YAML mapping; every problem found is raised together."""
    lines = lines or {}
    problems: list[Problem] = []

    def bad(path: tuple, value: object, rule: str) -> None:
        key = ".".join(str(p) for p in path) or None
        line = lines.get(path)
        where = file + (f":{line}" if line else "") + (f", key {key!r}" if key else "")
        problems.append(Problem(where, None, None, _text(value), rule))

    if not isinstance(raw, dict):
        bad((), raw, "a workload file is a YAML mapping of the keys in docs/workloads.md")
        raise DataError(problems)
    for key in raw:
        if key not in KEYS:
            bad((key,), raw[key], f"unknown key; known keys: {', '.join(sorted(KEYS))}")

    def number(path, value, *, lo=0.0, hi=None, integer=False, required=True):
        if value is None:
            if required:
                bad(path, value, "required")
            return 0
        if isinstance(value, bool) or not isinstance(value, int | float):
            bad(path, value, "must be a number")
            return 0
        if integer and value != int(value):
            bad(path, value, "must be a whole number of tokens")
        if value < lo or (hi is not None and value > hi):
            bad(path, value, f"must be between {lo:g} and {hi:g}" if hi else f"must be >= {lo:g}")
        return value

    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        bad(("name",), name, "required: a short name for the workload")
    per_day = number(("requests_per_day",), raw.get("requests_per_day"))
    tokens = raw.get("tokens_per_request")
    counts = {k: 0 for k in TOKEN_KEYS}
    if not isinstance(tokens, dict):
        bad(("tokens_per_request",), tokens, f"required: a mapping of {', '.join(TOKEN_KEYS)}")
    else:
        for key, value in tokens.items():
            if key not in TOKEN_KEYS:
                bad(("tokens_per_request", key), value, f"unknown bucket; {', '.join(TOKEN_KEYS)}")
        for key in TOKEN_KEYS:
            required = key in ("input", "output")
            counts[key] = int(
                number(
                    ("tokens_per_request", key), tokens.get(key), integer=True, required=required
                )
            )
    hit = number(("cache_hit_share",), raw.get("cache_hit_share", 0.0), hi=1.0)
    if 0 <= hit <= 1 and counts["cache_write"] > counts["input"] * (1 - hit) + 1e-9:
        bad(("tokens_per_request", "cache_write"), counts["cache_write"], "cache writes are input "
            "tokens not read from the cache: at most input x (1 - cache_hit_share)")  # fmt: skip
    batch = number(("batch_share",), raw.get("batch_share", 0.0), hi=1.0)
    profile = _profile(raw.get("dispatch_hours_utc"), bad)
    tier = raw.get("context_tier")
    if tier is not None and not isinstance(tier, str):
        bad(("context_tier",), tier, "a context tier as token_prices states it, e.g. '>200k'")
    on = raw.get("date")
    if on is not None and (not isinstance(on, dt.date) or isinstance(on, dt.datetime)):
        bad(("date",), on, "a date, YYYY-MM-DD")
    currency = raw.get("currency", "USD")
    if currency not in CURRENCIES:
        bad(("currency",), currency, f"one of {', '.join(CURRENCIES)}")
    offers = _offers(raw.get("compare"), bad)
    if problems:
        raise DataError(problems)
    return Workload(
        name=name.strip(),
        requests_per_day=float(per_day),
        input_tokens=counts["input"],
        output_tokens=counts["output"],
        reasoning_tokens=counts["reasoning"],
        cache_write_tokens=counts["cache_write"],
        cache_hit_share=float(hit),
        batch_share=float(batch),
        dispatch_hours_utc=profile,
        context_tier=tier,
        date=on,
        currency=currency,
        compare=offers,
        description=str(raw.get("description") or "").strip(),
    )


def _profile(value, bad) -> tuple[float, ...]:
    """24 weights, one per UTC hour, scaled to sum to 1 (absent: an even spread)."""
    path = ("dispatch_hours_utc",)
    if value is None:
        return (1 / HOURS,) * HOURS
    if not isinstance(value, list) or len(value) != HOURS:
        bad(path, value, "a list of 24 weights, one per UTC hour 0..23")
        return (1 / HOURS,) * HOURS
    ok = True
    for i, w in enumerate(value):
        if isinstance(w, bool) or not isinstance(w, int | float) or w < 0:
            bad((*path, i), w, f"hour {i}: a weight must be a number >= 0")
            ok = False
    total = sum(value) if ok else 0
    if ok and total <= 0:
        bad(path, value, "the weights must not all be zero")
    if not ok or total <= 0:
        return (1 / HOURS,) * HOURS
    return tuple(w / total for w in value)


def _offers(value, bad) -> tuple[Offer, ...]:
    path = ("compare",)
    if not isinstance(value, list) or not value:
        bad(path, value, "required: a list of {model: ..., provider: ...} to compare")
        return ()
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, dict) or not isinstance(item.get("model"), str):
            bad((*path, i), item, "each entry needs model: (a model_id) and may give provider:")
            continue
        extra = set(item) - {"model", "provider", "batch_share"}
        if extra:
            bad((*path, i), item, f"unknown keys {sorted(extra)}; model, provider, batch_share")
        share = item.get("batch_share")
        if share is not None and (
            isinstance(share, bool) or not isinstance(share, int | float) or not 0 <= share <= 1
        ):
            bad((*path, i, "batch_share"), share, "must be a number between 0 and 1")
            share = None
        provider = item.get("provider")
        if provider is not None and not isinstance(provider, str):
            bad((*path, i, "provider"), provider, "a seller's name as token_prices spells it")
            provider = None
        out.append(Offer(item["model"], provider, None if share is None else float(share)))
    return tuple(out)


def _text(value: object) -> str | None:
    if value is None:
        return None
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def presets() -> dict[str, Path]:
    """The example workloads shipped with the project, by file stem."""
    return {p.stem: p for p in sorted(WORKLOADS_DIR.glob("*.yaml"))}
