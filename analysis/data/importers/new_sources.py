"""The importers of the ten source folders added on 2026-12-01, and the helpers they share.

`NEW_IMPORTERS` names one module per folder (sources README, Part II); `analysis.data.build`
runs them after the importers of the first release. Each follows the contract in
`analysis/data/importers/__init__.py`.

- `fit_token_price_key()`: rows unique under token_prices' primary key (which holds the
  long-context tier and the currency, so a base price and its `>200k` tier, or DeepSeek's USD and
  CNY tables, are separate rows); under an older key without them (a test passes one) a group
  keeps its base-tier USD row.
- `spells()`: dated copies of one source giving the same price are one spell (first date seen,
  last date seen), as the table's description says for sampled sources.
- `file_date()`: the date a file name starts with (`2026-09-23_aimeter__...`): the commit date, or
  for index copies the content date (sources README, Part II, "Naming").
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from pathlib import Path

from analysis.data.errors import DataError, Problem, fail
from analysis.data.schema import TABLES

NEW_IMPORTERS = [
    "analysis.data.importers.mlperf_v6",
    "analysis.data.importers.mlperf_training",
    "analysis.data.importers.aa_leaderboards",
    "analysis.data.importers.epoch_hub_2026",
    "analysis.data.importers.inferencemax",
    "analysis.data.importers.inferencex_tco",
    "analysis.data.importers.gpu_index_daily",
    "analysis.data.importers.deepseek_tou",
    "analysis.data.importers.frontier_prices",
    "analysis.data.importers.token_tariff",
]

PRICE_VALUES = (
    "input_usd_per_mtok",
    "output_usd_per_mtok",
    "cached_input_usd_per_mtok",
    "cache_write_usd_per_mtok",
    "batch_input_usd_per_mtok",
    "batch_output_usd_per_mtok",
    "blended_usd_per_mtok",
    "input_original_per_mtok",
    "output_original_per_mtok",
    "blended_original_per_mtok",
    "cached_input_original_per_mtok",
)


def token_price_key() -> list[str]:
    """token_prices' primary key as the schema declares it today."""
    return list(TABLES["token_prices"].primary_key)


def fit_token_price_key(rows: list[dict], key: list[str] | None = None) -> tuple[list[dict], int]:
    """Rows that are unique under `key` (default: today's), and how many were set aside.

    Rows that share a key differ only in columns the key lacks: a base row and its long-context
    tiers (`context_tier`), or a USD and a CNY table (`currency`). Of such a group the base-tier
    USD row is kept. Rows that share the key and agree on tier and currency are a real duplicate:
    an error naming both locators. `model_id` is not assigned yet; `source_model_name` (with
    `source_id`) stands for it, as the model id is a function of the two.
    """
    key = token_price_key() if key is None else key
    cols = [c for c in key if c not in ("model_id", "first_party")]
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault(tuple(_key_value(r, c) for c in cols), []).append(r)
    kept: list[dict] = []
    for group in groups.values():
        group = sorted(group, key=_preference)
        if len(group) > 1 and _preference(group[0]) == _preference(group[1]):
            a, b = group[0], group[1]
            raise DataError(
                Problem(
                    str(a.get("source_locator")),
                    None,
                    ", ".join(cols),
                    ", ".join(str(_key_value(a, c)) for c in cols),
                    f"token_prices key repeated (also {b.get('source_locator')})",
                )
            )
        kept.append(group[0])
    order = {id(r): i for i, r in enumerate(rows)}
    kept.sort(key=lambda r: order[id(r)])
    return kept, len(rows) - len(kept)


def _key_value(row: dict, column: str) -> object:
    value = row.get(column)
    return "" if column == "context_tier" and value is None else value


def _preference(row: dict) -> tuple[bool, bool]:
    return (bool(row.get("context_tier")), row.get("currency") != "USD")


def spells(rows: Iterable[dict], group: tuple[str, ...], values: tuple[str, ...]) -> list[dict]:
    """Consecutive observations of the same values in a group -> one row per spell.

    Each row has `date` (first day observed or in force) and `last_seen` (None = same as date).
    Rows are taken in date order within their group; a row whose values equal the running spell's
    extends it (`last_seen` = the later of the two); the spell keeps its first row's locator.
    Groups come out in the order they first appear.
    """
    by_group: dict[tuple, list[dict]] = {}
    for r in rows:
        by_group.setdefault(tuple(r.get(c) for c in group), []).append(r)
    out: list[dict] = []
    for members in by_group.values():
        current: dict | None = None
        for r in sorted(members, key=lambda r: r["date"]):
            last = r.get("last_seen") or r["date"]
            same = current is not None and all(current.get(v) == r.get(v) for v in values)
            if same:
                current["last_seen"] = max(current["last_seen"] or current["date"], last)
            else:
                current = {**r, "last_seen": r.get("last_seen")}
                out.append(current)
    return out


_DATE_PREFIX = re.compile(r"^(\d{4}-\d{2}-\d{2})_")


def file_date(path: Path) -> dt.date:
    """The date a source file's name starts with; an error naming the file if it has none."""
    m = _DATE_PREFIX.match(path.name) or _DATE_PREFIX.match(path.parent.name + "_")
    if m is None:
        raise fail(path, None, None, path.name, "file name must start with a date YYYY-MM-DD_")
    try:
        return dt.date.fromisoformat(m.group(1))
    except ValueError:
        raise fail(path, None, None, path.name, "file name must start with a real date") from None


def number(path: Path, row: object, column: str, value: object, *, allow_none: bool = True):
    """A finite number >= 0 from a JSON/YAML/CSV value (None or "" -> None when allowed)."""
    if value is None or (isinstance(value, str) and value.strip() == ""):
        if allow_none:
            return None
        raise fail(path, _row(row), column, value, "a value is required")
    if isinstance(value, bool):
        raise fail(path, _row(row), column, value, "must be a number, not true/false")
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise fail(path, _row(row), column, value, "must be a number") from None
    if out != out or out in (float("inf"), float("-inf")) or out < 0:
        raise fail(path, _row(row), column, value, "must be a finite number >= 0")
    return out


def _row(row: object) -> int | None:
    return row if isinstance(row, int) else None


def observed_date(sources_dir: Path, path: Path) -> dt.date:
    """When the copy was made: the provenance commit date, or for an index copy (whose commit
    date is unknown) the content date its file name carries."""
    from analysis.data.importers.common import provenance

    text = provenance(sources_dir, path).commit_date
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return file_date(path)
