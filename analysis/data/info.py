"""What a data version holds (`data info`) and what changed between two (`data diff`).

Curated releases (from 2026-12-01) also carry, in their `datapackage.json`, the anomaly rules
with how many rows each flagged and could not evaluate (`flag_rules`), and an `observations`
link table from each curated row to the source rows behind it; `diff` uses both to explain a
change in row counts: source rows added or gone, rows merged into one fact, rows split into a
spell and a stale copy, and rows flagged by each rule (flagged rows stay in the data).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis.data import release as data
from analysis.data.schema import TABLE_ORDER, TABLES

DATE_COLUMNS = {
    "fx_rates": "month",
    "cpi": "month",
    "claims": "claim_date",
    "sources": "retrieved",
    "models": "release_date",
    "gpu_specs": "release_date",
}
CURATED = ["token_prices", "gpu_hour_prices", "benchmark_scores"]
UNRESOLVED_REASON = "no curated entry or source metadata names it"  # releases before 2026-12-01


def _date_column(table: str) -> str | None:
    if table in DATE_COLUMNS:
        return DATE_COLUMNS[table]
    return "date" if "date" in TABLES[table].column_names else None


def tables_in(version: str, root: Path | None = None) -> list[str]:
    """The tables a version holds (its descriptor's resources, in schema order)."""
    names = {r["name"] for r in data.datapackage(version, root)["resources"]}
    return [t for t in TABLE_ORDER if t in names]


def table_info(table: str, df: pl.DataFrame) -> dict:
    out: dict = {"table": table, "rows": df.height}
    col = _date_column(table)
    dates = df[col].drop_nulls() if col else pl.Series([], dtype=pl.Date)
    out["first_date"] = str(dates.min()) if dates.len() else None
    out["last_date"] = str(dates.max()) if dates.len() else None
    for key in ("model_id", "gpu", "accelerator", "benchmark", "provider"):
        if key in df.columns:
            out[f"distinct_{key}"] = df[key].n_unique()
    if "flags" in df.columns:
        out["flagged"] = df["flags"].is_not_null().sum()
    out["sources"] = sorted(df["source_id"].unique().to_list()) if "source_id" in df.columns else []
    return out


def unresolved_names(version: str, root: Path | None = None) -> list[dict]:
    """Every source name whose rows have no canonical model, with row counts and the reason."""
    models = data.load("models", version, root)
    bad = models.filter(~pl.col("resolved"))
    reason = (
        pl.col("unresolved_reason").fill_null(UNRESOLVED_REASON)
        if "unresolved_reason" in bad.columns
        else pl.lit(UNRESOLVED_REASON)
    )
    bad = bad.select("model_id", reason.alias("reason"))
    parts = []
    for t in ("token_prices", "benchmark_scores"):
        rows = data.load(t, version, root).join(bad, on="model_id", how="inner")
        parts.append(
            rows.group_by("source_model_name", "model_id", "reason").agg(
                pl.len().alias(f"{t}_rows")
            )
        )
    out = parts[0].join(
        parts[1], on=["source_model_name", "model_id", "reason"], how="full", coalesce=True
    )
    out = out.with_columns(pl.col("token_prices_rows", "benchmark_scores_rows").fill_null(0)).sort(
        "token_prices_rows",
        "benchmark_scores_rows",
        "source_model_name",
        descending=[True, True, False],
    )
    return out.select(
        pl.col("source_model_name").alias("name"),
        "model_id",
        "token_prices_rows",
        "benchmark_scores_rows",
        "reason",
    ).to_dicts()


def info(version: str | None = None, root: Path | None = None) -> dict:
    v = data.current_version(version, root)
    tables = [table_info(t, data.load(t, v, root)) for t in tables_in(v, root)]
    return {
        "version": v,
        "latest": data.latest_version(root),
        "tables": tables,
        "flag_rules": data.datapackage(v, root).get("flag_rules", []),
        "unresolved_names": unresolved_names(v, root),
    }


def _counts(v1: str, v2: str, root: Path | None) -> list[dict]:
    out = []
    t1, t2 = set(tables_in(v1, root)), set(tables_in(v2, root))
    for t in TABLE_ORDER:
        if t not in t1 | t2:
            continue
        a = data.load(t, v1, root) if t in t1 else None
        b = data.load(t, v2, root) if t in t2 else None
        if a is None or b is None:
            present = a if a is not None else b
            out.append(
                {
                    "table": t,
                    "added": 0 if a is not None else present.height,
                    "removed": present.height if a is not None else 0,
                    "changed": 0,
                    "rows_before": 0 if a is None else a.height,
                    "rows_after": 0 if b is None else b.height,
                }
            )
            continue
        pk = TABLES[t].primary_key
        others = [c for c in TABLES[t].column_names if c not in pk]
        added = b.join(a.select(pk), on=pk, how="anti", nulls_equal=True)
        removed = a.join(b.select(pk), on=pk, how="anti", nulls_equal=True)
        both = a.join(b, on=pk, how="inner", suffix="__new", nulls_equal=True)
        changed = (
            both.filter(
                pl.any_horizontal([~pl.col(c).eq_missing(pl.col(f"{c}__new")) for c in others])
            ).height
            if others
            else 0
        )
        out.append(
            {
                "table": t,
                "added": added.height,
                "removed": removed.height,
                "changed": changed,
                "rows_before": a.height,
                "rows_after": b.height,
            }
        )
    return out


def diff(v1: str, v2: str, root: Path | None = None) -> list[dict]:
    """Rows added, removed and changed per table, matching rows by primary key."""
    return _counts(v1, v2, root)


def _split_links(links: pl.DataFrame, prices: pl.DataFrame) -> int:
    """Links of stale rows (no spell) whose source row also backs a spell row: one source row
    cut in two, not two source rows."""
    stale = prices.filter(pl.col("valid_from").is_null()).select("row_id")
    spell = prices.filter(pl.col("valid_from").is_not_null()).select("row_id")
    key = ["source_id", "source_locator", "source_name"]
    in_stale = links.join(stale, on="row_id", how="semi")
    in_spell = links.join(spell, on="row_id", how="semi").select(key).unique()
    return in_stale.join(in_spell, on=key, how="semi").height


def explain(v1: str, v2: str, root: Path | None = None) -> list[dict]:
    """The change in row counts of the curated tables, step by step and rule by rule.

    For each of token_prices, gpu_hour_prices and benchmark_scores: rows in `v1`; source rows
    behind `v2`'s rows (the observations), so the importers' own change; rows merged into a fact
    another row already holds; rows split into a spell and a stale copy; rows in `v2`; then each
    rule's flagged and not-evaluable rows (they stay in the data; analyses drop flagged rows).
    """
    rules = data.datapackage(v2, root).get("flag_rules", [])
    has_obs = "observations" in tables_in(v2, root)
    obs = data.load("observations", v2, root) if has_obs else None
    out = []
    for t in CURATED:
        before = data.load(t, v1, root).height
        after = data.load(t, v2, root).height
        steps = [{"table": t, "step": f"rows in {v1}", "rows": before}]
        if obs is not None:
            links = obs.filter(pl.col("table") == t)
            split = _split_links(links, data.load(t, v2, root)) if t == "token_prices" else 0
            source_rows = links.height - split
            merged = links.height - after
            steps += [
                {
                    "table": t,
                    "step": "source rows behind the new rows (importers' change)",
                    "rows": source_rows - before,
                    "change": True,
                },
                {
                    "table": t,
                    "step": "merged: the same fact from another source or key",
                    "rows": -merged,
                    "change": True,
                },
                {
                    "table": t,
                    "step": "split: a superseded price's stale copy kept apart",
                    "rows": split,
                    "change": True,
                },
            ]
        steps.append({"table": t, "step": f"rows in {v2}", "rows": after})
        for r in rules:
            if r["table"] == t:
                steps.append(
                    {
                        "table": t,
                        "step": f"flagged {r['rule']} (stay in the data; {r['not_evaluable']} rows not evaluable)",
                        "rows": r["flagged"],
                        "rule": r["rule"],
                        "not_evaluable": r["not_evaluable"],
                        "why": r["why"],
                    }
                )
        out += steps
    return out
