"""What a data version holds (`data info`) and what changed between two (`data diff`)."""

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


def _date_column(table: str) -> str | None:
    if table in DATE_COLUMNS:
        return DATE_COLUMNS[table]
    return "date" if "date" in TABLES[table].column_names else None


def table_info(table: str, df: pl.DataFrame) -> dict:
    out: dict = {"table": table, "rows": df.height}
    col = _date_column(table)
    dates = df[col].drop_nulls() if col else pl.Series([], dtype=pl.Date)
    out["first_date"] = str(dates.min()) if dates.len() else None
    out["last_date"] = str(dates.max()) if dates.len() else None
    for key in ("model_id", "gpu", "accelerator", "benchmark", "provider"):
        if key in df.columns:
            out[f"distinct_{key}"] = df[key].n_unique()
    out["sources"] = sorted(df["source_id"].unique().to_list()) if "source_id" in df.columns else []
    return out


def info(version: str | None = None, root: Path | None = None) -> dict:
    v = data.current_version(version, root)
    tables = [table_info(t, data.load(t, v, root)) for t in TABLE_ORDER]
    models = data.load("models", v, root)
    unresolved = models.filter(~pl.col("resolved")).select("model_id", "aliases").sort("model_id")
    return {
        "version": v,
        "latest": data.latest_version(root),
        "tables": tables,
        "unresolved_models": unresolved.to_dicts(),
    }


def diff(v1: str, v2: str, root: Path | None = None) -> list[dict]:
    """Rows added, removed and changed per table, matching rows by primary key."""
    out = []
    for t in TABLE_ORDER:
        a, b = data.load(t, v1, root), data.load(t, v2, root)
        pk = TABLES[t].primary_key
        others = [c for c in TABLES[t].column_names if c not in pk]
        added = b.join(a.select(pk), on=pk, how="anti", nulls_equal=True)
        removed = a.join(b.select(pk), on=pk, how="anti", nulls_equal=True)
        both = a.join(b, on=pk, how="inner", suffix="__new", nulls_equal=True)
        if others:
            changed_mask = pl.any_horizontal(
                [~pl.col(c).eq_missing(pl.col(f"{c}__new")) for c in others]
            )
            changed = both.filter(changed_mask).height
        else:
            changed = 0
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
