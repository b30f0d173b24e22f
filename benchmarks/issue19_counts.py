"""Rows per audit class of issue 19 that the identity and duplicate rules touch, per release,
side by side (plain polars over each release's token_prices.csv and models.csv).

    .venv/bin/python benchmarks/issue19_counts.py [VERSION ...]

- class 5: pairs of clean rows of one model, seller, currency, price kind and context tier,
  in force on overlapping dates at the same input and output price, that differ only by the
  quantization tag, or only by offer words (`maas`, `beta`, `instant`, context words, ...);
- class 7: rows flagged `before_release`, and of those the rows on a catalog moving alias (its
  catalog name says "moving alias": deepseek-chat, deepseek-reasoner, gpt-4, ...);
- class 8: model names that end in a leaderboard variant label the id does not carry; families
  (an id and its dated/preview snapshots) where a source states the reasoning flag but a member
  has none, and where the stated flags disagree; the reasoning flags (true / false / null);
- class 9: rows flagged `size_class_slip` and `unit_slip`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT_OF = re.compile(
    r"^(?P<family>.+?)-(?:20\d\d-?\d\d-?\d\d|\d{4}|preview(?:-20\d\d-?\d\d(?:-?\d\d)?|-\d\d-\d\d)?|exp)$"
)
LABEL = re.compile(
    r"\((?:[^()]*(?:reasoning|effort)[^()]*|minimal|low|medium|high|xhigh|max)\)\s*$", re.I
)


def read(version: str, table: str) -> pl.DataFrame:
    # a release, or the folder of a trial build given as a path (/tmp/NAME-data/V)
    path = (Path(version) if "/" in version else ROOT / "data" / version) / f"{table}.csv"
    return pl.read_csv(path, try_parse_dates=True, infer_schema_length=100000)


def flagged(tp: pl.DataFrame, rule: str) -> pl.Expr:
    return pl.col("flags").fill_null("").str.contains(rule)


def counts(version: str) -> dict[str, object]:
    tp, models = read(version, "token_prices"), read(version, "models")
    clean = tp.filter(pl.col("flags").is_null()).with_columns(
        pl.coalesce("valid_from", "date").alias("_s"),
        pl.col("valid_to").fill_null(pl.date(2100, 1, 1)).alias("_e"),
        pl.col("quantization", "offer").fill_null(""),
    )
    key = ["model_id", "provider", "currency", "price_kind", "context_tier"]
    pairs = clean.join(clean, on=key, suffix="_b", nulls_equal=True).filter(
        (pl.col("row_id") < pl.col("row_id_b"))
        & (pl.col("_s") <= pl.col("_e_b"))
        & (pl.col("_s_b") <= pl.col("_e"))
        & (pl.col("input_usd_per_mtok") == pl.col("input_usd_per_mtok_b"))
        & (pl.col("output_usd_per_mtok") == pl.col("output_usd_per_mtok_b"))
    )
    by_quant = pairs.filter(pl.col("quantization") != pl.col("quantization_b")).height
    by_words = pairs.filter(
        (pl.col("offer") != pl.col("offer_b"))
        & (pl.col("quantization") == pl.col("quantization_b"))
    ).height
    moving = models.filter(pl.col("name").str.to_lowercase().str.contains("moving alias"))
    on_moving = flagged(tp, "before_release") & pl.col("model_id").is_in(
        moving["model_id"].implode()
    )

    def label_on_base(name: str | None, model_id: str) -> bool:
        m = LABEL.search(name or "")
        if m is None:
            return False
        words = [w for w in re.findall(r"[a-z]+", m.group(0).lower()) if w != "effort"]
        return not any(w in model_id.split("-") for w in words)

    labels = sum(label_on_base(n, i) for n, i in models.select("name", "model_id").iter_rows())
    fam = models.with_columns(
        pl.col("model_id")
        .map_elements(
            lambda i: m["family"] if (m := SNAPSHOT_OF.match(i)) else i, return_dtype=pl.String
        )
        .alias("_f")
    )
    g = fam.group_by("_f").agg(
        pl.col("reasoning").drop_nulls().n_unique().alias("k"),
        pl.col("reasoning").is_null().sum().alias("nulls"),
        pl.len().alias("n"),
    )
    vc = dict(models["reasoning"].value_counts().rows())
    return {
        "clean token_prices rows": tp.filter(pl.col("flags").is_null()).height,
        "class 5: same-price pairs split by quantization": by_quant,
        "class 5: same-price pairs split by offer words": by_words,
        "class 7: before_release flagged": tp.filter(flagged(tp, "before_release")).height,
        "class 7: ... on a catalog moving alias": tp.filter(on_moving).height,
        "class 8: variant label on a base id's name": labels,
        "class 8: families, flag stated, a member null": g.filter(
            (pl.col("n") > 1) & (pl.col("k") == 1) & (pl.col("nulls") > 0)
        ).height,
        "class 8: families whose stated flags disagree": g.filter(pl.col("k") > 1).height,
        "class 8: reasoning true/false/null": f"{vc.get(True, 0)}/{vc.get(False, 0)}/{vc.get(None, 0)}",
        "class 9: size_class_slip flagged": tp.filter(flagged(tp, "size_class_slip")).height,
        "class 9: unit_slip flagged": tp.filter(flagged(tp, "unit_slip")).height,
    }


def main(args: list[str]) -> None:
    versions = args or ["2026-12-01.2", "2026-12-01.4", "2026-12-03"]
    cols = {v: counts(v) for v in versions}
    names = list(next(iter(cols.values())))
    width = max(map(len, names)) + 2
    print("".ljust(width) + "".join(v.rjust(16) for v in versions))
    for name in names:
        print(name.ljust(width) + "".join(str(c[name]).rjust(16) for c in cols.values()))


if __name__ == "__main__":
    main(sys.argv[1:])
