"""Rows affected by the spell classes of issue 19 (1-6) in two releases, counted with plain
polars over each release's CSVs (token_prices, sources, tou_windows).

    .venv/bin/python benchmarks/spells_audit.py [VERSION ...]

1. closed early: a clean spell with a `valid_to` that is its last sighting (no spell of the
   offer starts the day after) although a source behind it saw it on or after that source's
   newest snapshot (`sources.retrieved`; tokencost, continued by the RoCry mirror, left out);
2. a `list` spell in force on 2026-09-13 beside an in-force `promotional` spell of the same
   offer, and scheduled prices in force on that date that a source read later contradicts
   (rows flagged `cancelled_schedule` in releases that have the rule; in older ones, the same
   rows found by offer, date and price);
3. `list` rows with no standard price (input, output and blended all empty);
4. spells of the OpenRouter scrape cut by a genai-prices-only spell of the same offer (and how
   many of those move the input price more than 2x);
5. a clean `reported` row (not a digest's) at exactly the prices of a clean `list` row of the
   same offer (the same fact twice);
6. DeepSeek rows whose `list` price is the peak rate (`list` rows of a DeepSeek model from the
   rate-card sources dated on or after 2026-08-17), and time-of-use windows still open whose
   rule a later one replaced (everyday windows without an end, while a weekday-only rule
   starts later).
"""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
KEY = ["model_id", "provider", "context_tier", "quantization", "offer", "region", "currency"]
FACT = ["input_usd_per_mtok", "output_usd_per_mtok", "blended_usd_per_mtok",
        "input_original_per_mtok", "output_original_per_mtok"]  # fmt: skip
ON = date(2026, 9, 13)


def read(version: str, table: str) -> pl.DataFrame:
    return pl.read_csv(ROOT / "data" / version / f"{table}.csv", try_parse_dates=True,
                       infer_schema_length=100000)  # fmt: skip


def audit(version: str) -> dict[str, int]:
    tp = read(version, "token_prices")
    src = read(version, "sources").select("source_id", "retrieved")
    clean = tp.filter(pl.col("flags").is_null())
    spells = clean.filter(pl.col("valid_from").is_not_null())
    out: dict[str, int] = {}
    # 1
    nxt = spells.select(*KEY, "price_kind", (pl.col("valid_from")).alias("_next_from"))
    closed = spells.filter(pl.col("valid_to").is_not_null()).with_row_index("_r")
    followed = closed.join(nxt, on=[*KEY, "price_kind"], nulls_equal=True).filter(
        pl.col("_next_from") == pl.col("valid_to") + pl.duration(days=1)
    )["_r"]
    ends = closed.filter(~pl.col("_r").is_in(followed.implode()))
    per_src = ends.with_columns(pl.col("source_ids").str.split(";").alias("_s")).explode("_s")
    per_src = per_src.join(src, left_on="_s", right_on="source_id").filter(
        ~pl.col("_s").str.starts_with("tokencost")
        & (pl.col("last_seen") >= pl.col("retrieved"))
        & (pl.col("valid_to") >= pl.col("retrieved"))
    )
    out["1 closed at last sighting though in the newest snapshot"] = per_src["_r"].n_unique()
    # 2
    live = spells.filter(
        (pl.col("valid_from") <= ON) & (pl.col("valid_to").is_null() | (pl.col("valid_to") >= ON))
    )
    promo = live.filter(pl.col("price_kind") == "promotional").select(KEY).unique()
    beside = live.filter(pl.col("price_kind") == "list").join(promo, on=KEY, nulls_equal=True)
    out["2a list in force beside a promotion (2026-09-13)"] = beside.height
    sonnet = live.filter(
        (pl.col("model_id") == "claude-sonnet-5")
        & (pl.col("input_usd_per_mtok") == 3.0)
        & (pl.col("valid_from") == date(2026, 9, 1))
    )
    out["2b cancelled schedule in force (Sonnet 5 3/15 from 2026-09-01)"] = sonnet.height
    # 3
    empty = pl.all_horizontal(pl.col(c).is_null() for c in FACT)
    out["3 list rows with no standard price"] = tp.filter(
        (pl.col("price_kind") == "list") & empty
    ).height
    # 4
    s = spells.sort(*KEY, "price_kind", "valid_from").with_columns(
        pl.col("source_ids").shift(-1).over([*KEY, "price_kind"]).alias("_ns"),
        pl.col("input_usd_per_mtok").shift(-1).over([*KEY, "price_kind"]).alias("_ni"),
    )
    cut = s.filter(
        pl.col("source_ids").str.contains("openrouter-sui414") & (pl.col("_ns") == "genai-prices")
    )
    ratio = pl.max_horizontal(pl.col("_ni") / pl.col("input_usd_per_mtok"), pl.col("input_usd_per_mtok") / pl.col("_ni"))  # fmt: skip
    out["4 scrape spells cut by the secondary copy"] = cut.height
    out["4 ... of which the price moves > 2x"] = cut.filter(ratio > 2).height
    # 5
    rep = clean.filter(
        (pl.col("price_kind") == "reported") & ~pl.col("source_id").str.starts_with("digest")
    )
    lst = clean.filter(pl.col("price_kind") == "list").select(*KEY, *FACT).unique()
    out["5 reported row = a list row of the offer"] = rep.join(lst, on=[*KEY, *FACT], nulls_equal=True).height  # fmt: skip
    # 6
    ds = tp.filter(
        pl.col("source_id").str.starts_with("deepseek-tou")
        & (pl.col("price_kind") == "list")
        & (pl.col("date") >= date(2026, 8, 17))
    )
    out["6a DeepSeek peak rate stored as list"] = ds.height
    w = read(version, "tou_windows")
    later = w.filter(~pl.col("weekdays").str.contains("sat"))["effective_from_utc"].min()
    out["6b everyday TOU windows open after the weekend rule"] = w.filter(
        pl.col("weekdays").str.contains("sat")
        & pl.col("effective_until_utc").is_null()
        & (pl.col("effective_from_utc") < later)
    ).height
    return out


def main() -> None:
    versions = sys.argv[1:] or ["2026-12-01.2", "2026-12-01.3"]
    rows = {v: audit(v) for v in versions}
    names = list(next(iter(rows.values())))
    print("class".ljust(66) + "".join(v.rjust(14) for v in versions))
    for n in names:
        print(n.ljust(66) + "".join(str(rows[v][n]).rjust(14) for v in versions))


if __name__ == "__main__":
    main()
