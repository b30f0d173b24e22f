"""The token_prices change between two releases, explained by the spell rules of issue 19.

    .venv/bin/python benchmarks/spells_diff.py [OLD] [NEW] [--data DIR]

`data diff OLD NEW` counts rows added, changed and removed per source; this script says which
rule moved each one (a row can move under several; each is counted under the first that
applies, in the order printed):

- `peak kind`: the row is DeepSeek's (or genai-prices' time-of-day) peak rate, `list` before;
- `batch-only kind`: an endpoint with only a batch price, `list` before;
- `reported folded`: a `reported` row whose prices a `list` row of the offer states (gone);
- `secondary copy`: a secondary copy's price, now its own row without a spell (`copy`);
- `cancelled schedule`: a scheduled price later evidence contradicts (`cancelled`);
- `promotion ends at its successor`, `time-of-use card ends the all-day price`: valid_to set;
- `still listed in the newest snapshot`: valid_to emptied (open) or moved later;
- from 2026-12-01.4: `promotion replaces the list price` (a list spell ends the day before a
  promotion of its offer starts), `one model under two ids` (rows of an id the new release
  folds into another, and the rows of the id it folds into), `size_class_slip flagged`,
  `before_release not judged on a moving alias`;
- `provenance only`: only `source_ids` or `last_seen` changed (another source's copy of the
  same fact merged into it, e.g. a reported copy folded into the list row);
- `stale copy kept apart`: a new row flagged `superseded_stale`;
- other: anything else (`--other` prints them, to read).

Plain polars over the two releases' token_prices.csv (and the new models.csv, whose aliases name
the ids folded into each model); nothing of `analysis` is used.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
KEY = ["model_id", "provider", "context_tier", "quantization", "offer", "region", "currency"]


def read(data: Path, version: str) -> pl.DataFrame:
    df = pl.read_csv(data / version / "token_prices.csv", infer_schema_length=0)
    return df.with_columns(pl.col("valid_from", "valid_to", "date").str.to_date())


def explain(
    old: pl.DataFrame, new: pl.DataFrame, models: pl.DataFrame | None = None
) -> pl.DataFrame:
    both = old.join(new, on="row_id", how="full", suffix="_new", coalesce=True)
    gone, added = pl.col("model_id_new").is_null(), pl.col("model_id").is_null()
    vt, vt_new = pl.col("valid_to"), pl.col("valid_to_new")
    flags_new = pl.col("flags_new").fill_null("")
    flags_old = pl.col("flags").fill_null("")
    rule = (
        pl.when(pl.col("_replaced"))
        .then(pl.lit("promotion replaces the list price: list spell ends the day before"))
        .when(pl.col("_folded") | pl.col("_fold_target"))
        .then(pl.lit("one model under two ids: folded into one model's rows"))
        .when(
            flags_new.str.contains("size_class_slip") & ~flags_old.str.contains("size_class_slip")
        )
        .then(pl.lit("size_class_slip flagged"))
        .when(flags_old.str.contains("before_release") & ~flags_new.str.contains("before_release"))
        .then(pl.lit("before_release not judged on a moving alias"))
        .when(pl.col("price_kind_new") == "peak")
        .then(pl.lit("peak kind (list before)"))
        .when((pl.col("price_kind") == "list") & gone & pl.col("_peak_offer"))
        .then(pl.lit("peak kind (the list row it was)"))
        .when(pl.col("price_kind_new") == "batch-only")
        .then(pl.lit("batch-only kind (list before)"))
        .when(gone & pl.col("_batch_offer"))
        .then(pl.lit("batch-only kind (the list row it was)"))
        .when((pl.col("price_kind") == "reported") & gone)
        .then(pl.lit("reported folded into the list row"))
        .when(flags_new.str.contains("secondary_copy_conflict"))
        .then(pl.lit("secondary copy: own row, no spell"))
        .when(flags_new.str.contains("cancelled_schedule"))
        .then(pl.lit("cancelled schedule: own row, no spell"))
        .when(
            gone
            & (pl.col("provider") == "openrouter")
            & pl.col("source_ids").str.contains("genai-prices")
        )
        .then(pl.lit("secondary copy: the spell or stale row it made (removed)"))
        .when(gone & (pl.col("row_kind_old") == "stale"))
        .then(pl.lit("stale row no longer stale (its cut moved)"))
        .when(gone & pl.col("_cancelled_key"))
        .then(pl.lit("cancelled schedule: the spell row it was (removed)"))
        .when(gone)
        .then(pl.lit("removed: other"))
        .when(added & flags_new.str.contains("superseded_stale"))
        .then(pl.lit("stale copy kept apart (the spell it copies was cut elsewhere)"))
        .when(added)
        .then(pl.lit("added: other"))
        .when(pl.col("_provenance_only"))
        .then(pl.lit("provenance only: source_ids or last_seen (more sources merged)"))
        .when(
            (pl.col("price_kind_new") == "promotional")
            & vt_new.is_not_null()
            & vt.ne_missing(vt_new)
        )
        .then(pl.lit("promotion ends the day before its stated successor"))
        .when(vt.is_not_null() & vt_new.is_null())
        .then(pl.lit("still listed in the newest snapshot: spell open"))
        .when(vt.is_not_null() & vt_new.is_not_null() & (vt_new > vt))
        .then(pl.lit("spell ends later (its successor or last sighting moved)"))
        .when(vt_new.is_not_null() & (vt.is_null() | (vt_new < vt)))
        .then(pl.lit("spell ends earlier (time-of-use card, successor no longer cut)"))
        .otherwise(pl.lit("changed: other"))
    )
    peak_offers = new.filter(pl.col("price_kind") == "peak").select(KEY).unique()
    batch_offers = new.filter(pl.col("price_kind") == "batch-only").select(KEY).unique()
    mark = lambda f, name: f.with_columns(pl.lit(True).alias(name))  # noqa: E731
    cancelled = new.filter(pl.col("flags").fill_null("").str.contains("cancelled_schedule"))
    cancelled = cancelled.select("model_id", "provider", "date").unique()
    both = (
        both.join(
            mark(cancelled, "_cancelled_key"), on=["model_id", "provider", "date"], how="left"
        )
        .join(mark(peak_offers, "_peak_offer"), on=KEY, how="left", nulls_equal=True)
        .join(mark(batch_offers, "_batch_offer"), on=KEY, how="left", nulls_equal=True)
        .with_columns(pl.col("_peak_offer", "_batch_offer", "_cancelled_key").fill_null(False))
    )
    # ids the new release folds into another model (gone from it, named in a model's aliases)
    folded = set(old["model_id"]) - set(new["model_id"])
    targets = set()
    if models is not None:
        named = models.select("model_id", pl.col("aliases").fill_null("").str.split(";"))
        for mid, aliases in named.iter_rows():
            if folded & set(aliases):
                targets.add(mid)
    promo_starts = new.filter(pl.col("price_kind") == "promotional").select(
        *KEY, (pl.col("valid_from") - pl.duration(days=1)).alias("_promo_eve")
    )
    # a list spell that now ends the day before a promotion of its offer starts
    eves = set(promo_starts.unique().iter_rows())
    key_now = [pl.coalesce(f"{c}_new", c) if f"{c}_new" in both.columns else pl.col(c) for c in KEY]
    rows = both.select(
        pl.coalesce("price_kind_new", "price_kind"), "valid_to_new", "valid_to", *key_now
    )
    replaced = [
        pk == "list" and vt is not None and (*k, vt) in eves and (was is None or vt < was)
        for pk, vt, was, *k in rows.iter_rows()
    ]
    both = both.with_columns(
        pl.col("model_id").is_in(list(folded)).fill_null(False).alias("_folded"),
        pl.coalesce("model_id_new", "model_id").is_in(list(targets)).alias("_fold_target"),
        pl.Series("_replaced", replaced, dtype=pl.Boolean),
    )
    both = both.with_columns(
        pl.when(pl.col("valid_from").is_null() & pl.col("model_id").is_not_null())
        .then(pl.lit("stale"))
        .otherwise(pl.lit("spell"))
        .alias("row_kind_old")
    )
    same = [c for c in new.columns if c != "row_id" and c in old.columns]
    unchanged = pl.all_horizontal([pl.col(c).eq_missing(pl.col(f"{c}_new")) for c in same])
    facts = [c for c in same if c not in ("source_ids", "last_seen")]
    both = both.with_columns(
        pl.all_horizontal([pl.col(c).eq_missing(pl.col(f"{c}_new")) for c in facts])
        .fill_null(False)
        .alias("_provenance_only")
    )
    moved = both.filter(~unchanged.fill_null(False) | gone | added)
    status = (
        pl.when(added)
        .then(pl.lit("added"))
        .when(gone)
        .then(pl.lit("removed"))
        .otherwise(pl.lit("changed"))
    )
    return moved.with_columns(rule.alias("rule"), status.alias("status"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old", nargs="?", default="2026-12-01.2")
    ap.add_argument("new", nargs="?", default="2026-12-01.3")
    ap.add_argument("--data", default=str(ROOT / "data"))
    ap.add_argument("--other", action="store_true", help="print the rows no rule explains")
    args = ap.parse_args()
    data = Path(args.data)
    models_csv = data / args.new / "models.csv"
    models = pl.read_csv(models_csv, infer_schema_length=0) if models_csv.exists() else None
    out = explain(read(data, args.old), read(data, args.new), models)
    table = out.group_by("rule", "status").len().sort("rule", "status")
    with pl.Config(tbl_rows=100, tbl_width_chars=200, fmt_str_lengths=80):
        print(f"token_prices {args.old} -> {args.new}: {out.height} rows moved")
        print(table)
        if args.other:
            cols = ["rule", "model_id", "model_id_new", "provider", "provider_new", "price_kind",
                    "price_kind_new", "valid_from_new", "valid_to", "valid_to_new", "flags_new",
                    "input_usd_per_mtok_new", "source_ids_new"]  # fmt: skip
            print(out.filter(pl.col("rule").str.ends_with(": other")).select(cols))


if __name__ == "__main__":
    main()
