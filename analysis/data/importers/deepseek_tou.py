"""DeepSeek's time-of-use rate cards (peak / off-peak, CNY and USD) and the flat card they replaced.

Where and when (sources README, Part II §1.1), folder `deepseek-tou-ratecards/`. DeepSeek's own
docs are in no stored repository: both files are **third-party transcriptions** of
api-docs.deepseek.com/quick_start/pricing (USD) and /zh-cn/quick_start/pricing (CNY), and every
sources row and locator says so.

- `dshworks/dsh-meter` `docs/pricing.json` (MIT): `2026-08-20_...pricing.json` (git, 9bf35b2,
  schema `dsh-meter/pricing@1`) and `2026-08-22_...pricing.v2.json` (an **index copy** of
  0b5cb9f, `@2`). Rates per 1M tokens in `usd` (international table) and `cny` (mainland table),
  "separate published prices, not an exchange-rate conversion of each other"; buckets `hit`
  (cache-hit input), `miss` (cache-miss input), `out`. `timeOfUse`: peak windows in UTC (01-04
  and 06-10), in force `since` 2026-08-16T16:00Z; `@2` adds a weekend rule: Saturday and Sunday
  (Beijing) off-peak all day `since` 2026-08-22T16:00Z. `retired.flat` is the single all-day card
  billed `until` 2026-08-16T16:00Z.
- `dyingc/PDFMathTranslate` `webapp/pricing.json` (repo AGPL-3.0): `2026-08-13_...` (git,
  c9bfad2d; CNY for every model) and `2026-08-24_...` (an **index copy** of a860bfd3, `checked_at`
  2026-08-24; currency by vendor, as its comment says: DeepSeek in CNY from the Chinese page,
  OpenAI in USD, and it adds `gpt-5.6-luna`). `regimes` in order of `effective_from`: a flat
  regime from 1970-01-01 (the file's "since the beginning": no start date is known) and the
  time-of-use regime from 2026-08-16T16:00Z, `peak_hours_utc` [[1,4],[6,10]]. An empty
  `peak_hours_utc` bills `off_peak` all day (the file's comment); a model with no `peak` rate in a
  time-of-use regime (OpenAI's) has one all-day price.

token_prices rows (provider `deepseek`, or `openai` for gpt-*): one per model x tariff x
currency x spell. `price_kind` is `off-peak` for the off-peak rate, `peak` for the peak rate
and `list` for an all-day (flat) rate (release 2026-12-01.2 called the peak rate `list`). Miss -> input, out -> output, hit -> cached input; USD rows fill the
`*_usd_per_mtok` columns, CNY rows the original-currency ones (`cached_input_original_per_mtok`,
in the schema). Dates, in UTC:

- `date`: the first UTC day the rate was billed: the regime's start for off-peak and all-day rates
  (2026-08-16, from 16:00), the day of the first peak hour for the peak rate (2026-08-17 01:00);
  where the start is unknown (the retired flat card), the copy's date if the card was still in
  force then, else the last day it was in force (2026-08-16, until 16:00).
- `last_seen`: the last day the rate is known in force: the earlier of the copy's date and the
  regime's last day; empty for a rate announced for later than the copy (the 2026-08-13 copy's
  time-of-use card).

Copies of one source giving the same rate are one spell (first date, last date seen), located in
the earliest copy. The cache-write price (`cache_write`, OpenAI's gpt-5.6-luna only, USD) is
`cache_write_usd_per_mtok`; the file's rule that a model without one bills writes at the miss rate
is the app's own, not DeepSeek's, so DeepSeek rows have none.

tou_windows rows (analysis.data.schema): the peak windows of each copy with the days
they apply on (UTC calendar; every window lies within one Beijing day, checked, so the Beijing
weekday is the UTC weekday) and the period the rule held. The machine-readable schedules
(`scheduleUtc` 24 entries, `scheduleBeijing` 7 x 24) must agree with the windows and weekend rule;
a disagreement is an error. The PDFMathTranslate copies know no weekend rule (their newest,
2026-08-24, postdates it): their windows are kept as they state them, all days.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import polars as pl

from analysis.data.errors import fail
from analysis.data.importers.common import frame, locator
from analysis.data.importers.new_sources import (
    PRICE_VALUES,
    file_date,
    fit_token_price_key,
    number,
    spells,
)

FOLDER = "deepseek-tou-ratecards"
DSH_ID = "deepseek-tou-dsh-meter"
PDF_ID = "deepseek-tou-pdfmathtranslate"
UTC = dt.UTC
EPOCH = dt.datetime(1970, 1, 1, tzinfo=UTC)
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]  # Python weekday() order
JS_DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]  # JavaScript getUTCDay() order
# model id prefix -> (provider, currency of the PDFMathTranslate table when the file names none)
VENDORS = {"deepseek-": ("deepseek", "CNY"), "gpt-": ("openai", "USD")}

SOURCES = [
    {
        "source_id": DSH_ID,
        "title": "dsh-meter DeepSeek rate card (docs/pricing.json): USD and CNY, peak/off-peak",
        "publisher": "dshworks/dsh-meter (transcribing api-docs.deepseek.com)",
        "url": "https://github.com/dshworks/dsh-meter",
        "licence": "MIT",
        "retrieved": "2026-08-22",
        "notes": "Third-party transcription of DeepSeek's pricing pages (USD international and CNY "
        "mainland tables, published separately). 2026-08-20 git copy (schema @1) and 2026-08-22 "
        "index copy (@2, adds the weekend rule). Lacks the 2026-09-10 deepseek-flash card.",
    },
    {
        "source_id": PDF_ID,
        "title": "PDFMathTranslate webapp rate card (webapp/pricing.json): DeepSeek regimes",
        "publisher": "dyingc/PDFMathTranslate (transcribing api-docs.deepseek.com/zh-cn)",
        "url": "https://github.com/dyingc/PDFMathTranslate",
        "licence": "AGPL-3.0",
        "retrieved": "2026-08-24",
        "notes": "Third-party transcription of DeepSeek's Chinese pricing page (CNY) and, from "
        "2026-08-24, OpenAI's (USD, gpt-5.6-luna). 2026-08-13 git copy and 2026-08-24 index "
        "copy. No weekend rule.",
    },
]


# --- time --------------------------------------------------------------------------------------


def _instant(path: Path, where: str, text: object) -> dt.datetime:
    try:
        value = dt.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        raise fail(
            path, None, where, text, "must be an ISO instant like 2026-08-16T16:00:00Z"
        ) from None
    if value.tzinfo is None:
        raise fail(path, None, where, text, "must carry a time zone (Z)")
    return value.astimezone(UTC)


def _iso(t: dt.datetime | None) -> str | None:
    return None if t is None else t.strftime("%Y-%m-%dT%H:%M:%SZ")


def _last_day(end: dt.datetime) -> dt.date:
    """Last UTC day a rate ending at `end` (exclusive) was billed."""
    return (end - dt.timedelta(microseconds=1)).date()


def first_peak_day(start: dt.datetime, rules: list[dict]) -> dt.date | None:
    """UTC day of the first peak hour at or after `start`, under the window rules in force."""
    t = start.replace(minute=0, second=0, microsecond=0)
    if t < start:
        t += dt.timedelta(hours=1)
    for _ in range(24 * 14):
        for rule in rules:
            live = rule["from"] <= t and (rule["until"] is None or t < rule["until"])
            if live and DAYS[t.weekday()] in rule["days"] and rule["start"] <= t.hour < rule["end"]:
                return t.date()
        t += dt.timedelta(hours=1)
    return None


# --- rate cards -> regimes ---------------------------------------------------------------------
# A regime: {start, end, rates: {model: {kind: {currency: {hit, miss, out}, "where": ...}}}}
# with kind one of "all-day", "peak", "off-peak".


def _bucket_rates(path: Path, where: str, rates: object, names: dict[str, str]) -> dict:
    if not isinstance(rates, dict):
        raise fail(path, None, where, rates, "expected a mapping of rates")
    out = {}
    for bucket, name in names.items():
        out[bucket] = number(path, None, f"{where}.{name}", rates.get(name), allow_none=False)
    return out


DSH_BUCKETS = {"hit": "hit", "miss": "miss", "out": "out"}
PDF_BUCKETS = {"hit": "cache_hit", "miss": "cache_miss", "out": "output"}


def _load(path: Path) -> dict:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise fail(path, None, None, None, f"not valid JSON: {e}") from None
    if not isinstance(doc, dict):
        raise fail(path, None, None, None, "expected a JSON object")
    return doc


def read_dsh_meter(path: Path) -> tuple[list[dict], list[dict]]:
    """(regimes, window rules) of a dsh-meter pricing.json (schema @1 or @2)."""
    doc = _load(path)
    if doc.get("schema") not in ("dsh-meter/pricing@1", "dsh-meter/pricing@2"):
        raise fail(path, None, "schema", doc.get("schema"), "expected dsh-meter/pricing@1 or @2")
    tou = doc.get("timeOfUse") or {}
    since = _instant(path, "timeOfUse.since", tou.get("since"))
    rules = _dsh_rules(path, tou, since)
    flat_end, flat, tou_rates = None, {}, {}
    for model, spec in (doc.get("models") or {}).items():
        where = f"models.{model}"
        rates = spec.get("rates") or {}
        kinds = {}
        for key, kind in (("offpeak", "off-peak"), ("peak", "peak")):
            if key in rates:
                kinds[kind] = _currencies(path, f"{where}.rates.{key}", rates[key], DSH_BUCKETS)
        if set(kinds) != {"off-peak", "peak"}:
            raise fail(path, None, f"{where}.rates", sorted(rates), "needs offpeak and peak rates")
        tou_rates[model] = kinds
        retired = (spec.get("retired") or {}).get("flat")
        if retired:
            until = _instant(path, f"{where}.retired.flat.until", retired.get("until"))
            if flat_end not in (None, until):
                raise fail(
                    path, None, f"{where}.retired.flat.until", _iso(until), "models disagree"
                )
            flat_end = until
            flat[model] = {
                "all-day": _currencies(path, f"{where}.retired.flat", retired, DSH_BUCKETS)
            }
    if flat_end is not None and flat_end != since:
        raise fail(path, None, "timeOfUse.since", _iso(since), "must be when the flat card ended")
    regimes = [{"start": None, "end": flat_end, "rates": flat}] if flat else []
    regimes.append({"start": since, "end": None, "rates": tou_rates})
    return regimes, rules


def _currencies(path: Path, where: str, block: object, names: dict) -> dict:
    if not isinstance(block, dict):
        raise fail(path, None, where, block, "expected a mapping")
    out = {}
    for cur in ("usd", "cny"):
        if cur in block:
            out[cur.upper()] = _bucket_rates(path, f"{where}.{cur}", block[cur], names) | {
                "where": f"{where}.{cur}"
            }
    if not out:
        raise fail(path, None, where, sorted(block), "no usd or cny rates")
    return out


def _windows(path: Path, where: str, windows: object, offset: int) -> list[tuple[int, int]]:
    if not isinstance(windows, list) or not windows:
        raise fail(path, None, where, windows, "expected a list of peak windows")
    out = []
    for i, w in enumerate(windows):
        pair = (w.get("startHourUtc"), w.get("endHourUtc")) if isinstance(w, dict) else tuple(w)
        ok = len(pair) == 2 and all(isinstance(h, int) and 0 <= h <= 24 for h in pair)
        if not ok or pair[0] >= pair[1]:
            raise fail(path, None, f"{where}[{i}]", w, "a window is two hours 0-24, start < end")
        if not (pair[0] + offset >= 0 and pair[1] + offset <= 24):
            raise fail(path, None, f"{where}[{i}]", w, "window crosses a day on the local clock")
        out.append(pair)
    return out


def _rule(
    start: int, end: int, days: list[str], since, until, where: str, clock=("Asia/Shanghai", 8)
) -> dict:
    """Peak hours [start, end) UTC on `days`, in force [since, until); `clock`: local tz, offset."""
    return {"start": start, "end": end, "days": days, "from": since, "until": until,
            "where": where, "tz": clock[0], "offset": clock[1]}  # fmt: skip


def _dsh_rules(path: Path, tou: dict, since: dt.datetime) -> list[dict]:
    anchor = tou.get("anchor") or {}
    offset = anchor.get("utcOffsetHours")
    if not isinstance(offset, int) or anchor.get("observesDaylightSaving") is not False:
        raise fail(path, None, "timeOfUse.anchor", offset, "needs a fixed utcOffsetHours")
    windows = _windows(path, "timeOfUse.peakWindowsUtc", tou.get("peakWindowsUtc"), offset)
    clock = (anchor.get("timezone") or "", offset)
    if not clock[0]:
        raise fail(path, None, "timeOfUse.anchor.timezone", None, "the local clock must be named")
    weekend = tou.get("weekend")
    off_days: list[str] = []
    change = None
    if weekend:
        off_days = [JS_DAYS[d] for d in weekend.get("daysBeijing", [])]
        change = _instant(path, "timeOfUse.weekend.since", weekend.get("since"))
        if weekend.get("offPeakAllDay") is not True or not off_days:
            raise fail(path, None, "timeOfUse.weekend", weekend, "expected offPeakAllDay days")
    _check_schedule(path, tou, windows, offset, off_days)
    rules = []
    for start, end in windows:
        where = f"timeOfUse.peakWindowsUtc {start:02d}-{end:02d}"
        rules.append(_rule(start, end, DAYS, since, change, where, clock))
        if change is not None:
            weekdays = [d for d in DAYS if d not in off_days]
            rules.append(_rule(start, end, weekdays, change, None, where + " + weekend", clock))
    return rules


def _check_schedule(path: Path, tou: dict, windows: list, offset: int, off_days: list) -> None:
    """The machine-readable schedule must say what the windows (and weekend rule) say."""
    peak_utc = {h for s, e in windows for h in range(s, e)}
    if "scheduleUtc" in tou:
        want = ["peak" if h in peak_utc else "offpeak" for h in range(24)]
        if tou["scheduleUtc"] != want:
            raise fail(path, None, "timeOfUse.scheduleUtc", None, "disagrees with peakWindowsUtc")
    if "scheduleBeijing" in tou:
        want = [
            ["offpeak" if day in off_days or (h - offset) % 24 not in peak_utc else "peak"
             for h in range(24)]
            for day in JS_DAYS
        ]  # fmt: skip
        if tou["scheduleBeijing"] != want:
            raise fail(
                path, None, "timeOfUse.scheduleBeijing", None, "disagrees with the windows/weekend"
            )


def read_pdfmathtranslate(path: Path) -> tuple[list[dict], list[dict]]:
    """(regimes, window rules) of a PDFMathTranslate webapp/pricing.json."""
    doc = _load(path)
    regimes_in = doc.get("regimes")
    if not isinstance(regimes_in, list) or not regimes_in:
        raise fail(path, None, "regimes", None, "expected a list of regimes")
    comment = " ".join(doc.get("_comment") or [])
    if "北京时间" not in comment:
        raise fail(path, None, "_comment", None, "expected the Beijing-time note on peak hours")
    starts = [_instant(path, f"regimes[{i}].effective_from", r.get("effective_from"))
              for i, r in enumerate(regimes_in)]  # fmt: skip
    if starts != sorted(starts) or len(set(starts)) != len(starts):
        raise fail(path, None, "regimes", None, "effective_from must increase")
    regimes, rules = [], []
    for i, (reg, start) in enumerate(zip(regimes_in, starts, strict=True)):
        end = starts[i + 1] if i + 1 < len(starts) else None
        where = f"regimes[{i}]"
        windows = reg.get("peak_hours_utc")
        if windows:
            for s, e in _windows(path, f"{where}.peak_hours_utc", windows, 8):
                rules.append(
                    _rule(s, e, DAYS, start, end, f"{where}.peak_hours_utc {s:02d}-{e:02d}")
                )
        rates = {}
        for model, spec in (reg.get("rates") or {}).items():
            currency = _pdf_currency(path, doc, model)
            kinds = {}
            for key, kind in (("off_peak", "off-peak"), ("peak", "peak")):
                if key in spec:
                    block = f"{where}.rates.{model}.{key}"
                    write = number(path, None, f"{block}.cache_write", spec[key].get("cache_write"))
                    kinds[kind] = {
                        currency: _bucket_rates(path, block, spec[key], PDF_BUCKETS)
                        | {"write": write, "where": block}
                    }
            if "off-peak" not in kinds:
                raise fail(path, None, f"{where}.rates.{model}", sorted(spec), "needs off_peak")
            if not windows or "peak" not in kinds:  # one all-day rate (the file's comment)
                kinds = {"all-day": kinds.pop("off-peak")}
            rates[model] = kinds
        regimes.append({"start": None if start == EPOCH else start, "end": end, "rates": rates})
    return regimes, rules


def _pdf_currency(path: Path, doc: dict, model: str) -> str:
    vendor = next((v for prefix, v in VENDORS.items() if model.startswith(prefix)), None)
    if vendor is None:
        raise fail(path, None, f"rates.{model}", model, f"model of no known vendor {list(VENDORS)}")
    stated = doc.get("currency")
    if stated is not None and stated != vendor[1]:
        raise fail(path, None, "currency", stated, f"{model} is priced in {vendor[1]} here")
    return vendor[1]


# --- regimes -> rows ---------------------------------------------------------------------------


def _spans(
    regimes: list[dict],
) -> list[tuple[str, str, dict, dt.datetime | None, dt.datetime | None]]:
    """(model, kind, rates, start, end): consecutive regimes with the same rate are one span."""
    out: dict[tuple[str, str], list] = {}
    for reg in regimes:
        for model, kinds in reg["rates"].items():
            for kind, by_currency in kinds.items():
                values = {
                    c: {k: v for k, v in r.items() if k != "where"} for c, r in by_currency.items()
                }
                spans = out.setdefault((model, kind), [])
                carries_on = reg["start"] is not None and spans and spans[-1][3] == reg["start"]
                if carries_on and spans[-1][1] == values:
                    spans[-1][3] = reg["end"]  # the same rate carries on into the next regime
                else:
                    spans.append([by_currency, values, reg["start"], reg["end"]])
    return [(m, k, s[0], s[2], s[3]) for (m, k), spans in out.items() for s in spans]


def price_rows(path: Path, regimes: list[dict], rules: list[dict], observed: dt.date) -> list[dict]:
    """token_prices rows of one copy (with `where` instead of a locator)."""
    rows = []
    for model, kind, by_currency, start, end in _spans(regimes):
        if start is None:
            day = observed if end is None else min(observed, _last_day(end))
        elif kind == "peak":
            day = first_peak_day(start, rules)
            if day is None:
                raise fail(path, None, model, kind, "no peak hour follows the regime's start")
        else:
            day = start.date()
        last = observed if end is None else min(observed, _last_day(end))
        provider = next(v[0] for p, v in VENDORS.items() if model.startswith(p))
        for currency, r in by_currency.items():
            usd = currency == "USD"
            if not usd and r.get("write") is not None:
                raise fail(path, None, f"{r['where']}.cache_write", r["write"],
                           "a cache write in CNY has no column (cache_write_usd_per_mtok is USD)")  # fmt: skip
            rows.append(
                {
                    "provider": provider,
                    "date": day,
                    "last_seen": last if last >= day else None,
                    "input_usd_per_mtok": r["miss"] if usd else None,
                    "output_usd_per_mtok": r["out"] if usd else None,
                    "cached_input_usd_per_mtok": r["hit"] if usd else None,
                    "cache_write_usd_per_mtok": r.get("write") if usd else None,
                    "currency": currency,
                    "input_original_per_mtok": None if usd else r["miss"],
                    "output_original_per_mtok": None if usd else r["out"],
                    "price_kind": {"off-peak": "off-peak", "peak": "peak"}.get(kind, "list"),
                    "context_tier": "",
                    "source_model_name": model,
                    "model_hint": model,
                    "cached_input_original_per_mtok": None if usd else r["hit"],
                    "where": r["where"],
                }
            )
    return rows


def window_rows(rules: list[dict], models: list[str], observed: dt.date) -> list[dict]:
    return [
        {
            "provider": "deepseek",
            "tariff": "peak",
            "start_hour_utc": r["start"],
            "end_hour_utc": r["end"],
            "weekdays": ";".join(r["days"]),
            "local_timezone": r["tz"],
            "start_hour_local": r["start"] + r["offset"],
            "end_hour_local": r["end"] + r["offset"],
            "date": r["from"].date(),
            "effective_from_utc": _iso(r["from"]),
            "effective_until_utc": _iso(r["until"]),
            "models": ";".join(models),
            "observed": observed,
            "where": r["where"],
        }
        for r in rules
    ]


def _tou_models(regimes: list[dict]) -> list[str]:
    return sorted(m for reg in regimes for m, kinds in reg["rates"].items() if "peak" in kinds)


def build(sources_dir: Path, key: list[str] | None = None) -> dict[str, pl.DataFrame]:
    sources_dir = Path(sources_dir)
    folder = sources_dir / FOLDER
    readers = [
        ("*_dsh-meter__docs__pricing*.json", DSH_ID, read_dsh_meter),
        ("*_PDFMathTranslate__webapp__pricing.json", PDF_ID, read_pdfmathtranslate),
    ]
    prices, windows = [], []
    for pattern, source_id, read in readers:
        for path in sorted(folder.glob(pattern)):
            observed = file_date(path)
            regimes, rules = read(path)
            for r in price_rows(path, regimes, rules, observed):
                where = r.pop("where")
                prices.append(
                    r | {"source_id": source_id, "source_locator": _loc(sources_dir, path, where)}
                )
            for w in window_rows(rules, _tou_models(regimes), observed):
                where = w.pop("where")
                windows.append(
                    w | {"source_id": source_id, "source_locator": _loc(sources_dir, path, where)}
                )
    if not prices:
        raise fail(folder, None, None, None, "no DeepSeek rate card found")
    group = ("source_id", "source_model_name", "provider", "price_kind", "currency", "context_tier")
    merged, _ = fit_token_price_key(spells(prices, group, PRICE_VALUES), key)
    tp = frame("token_prices", merged, drop=("model_id", "first_party"))
    tou = frame("tou_windows", close_superseded(windows)).sort(
        "source_id", "effective_from_utc", "start_hour_utc"
    )
    return {
        "token_prices": tp.sort("source_id", "source_model_name", "date", "price_kind"),
        "tou_windows": tou,
    }


def close_superseded(windows: list[dict]) -> list[dict]:
    """Every copy transcribes one page (api-docs.deepseek.com): a window a copy states as open is
    closed at the start of any later rule of the same provider that any copy states (the
    2026-08-22 weekend rule closes the everyday windows, also in copies that never saw it)."""
    starts: dict[str, list[str]] = {}
    for w in windows:
        starts.setdefault(w["provider"], []).append(w["effective_from_utc"])
    out = []
    for w in windows:
        later = [s for s in starts[w["provider"]] if s > w["effective_from_utc"]]
        if w["effective_until_utc"] is None and later:
            w = {**w, "effective_until_utc": min(later)}
        out.append(w)
    return out


def _loc(sources_dir: Path, path: Path, where: str) -> str:
    return locator(sources_dir, path, f"{where} (third-party copy of api-docs.deepseek.com)")
