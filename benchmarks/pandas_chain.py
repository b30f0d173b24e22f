"""The scale benchmark's chain in plain pandas, for the ratio (see bench_scale.py).

The same steps with the same rules as the polars chain, written as a careful pandas user would:
vectorised, one `groupby`/`merge` where polars has one `group_by`/`join`, the same Parquet file
of typed rows between validate and load. Where a step is plain Python in the project (a name's
identity, a seller's first party, the spell walk over each source's first run of a price
stretch, row ids), the pandas chain calls the same Python functions on the same few rows, so
only the table work differs. Two parts of identity that this panel never exercises (dated
snapshots of one family, moving aliases) are left out; everything the panel does exercise is
checked against the polars chain's results (curated rows, observations, flags, staircases,
fits, spreads).
"""

from __future__ import annotations

import hashlib
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.data import models as model_names
from analysis.data import providers
from analysis.data.curate import first_party, flags, identity, spells
from analysis.data.curate import models_table as curated_models
from analysis.data.curate.facts import SCORE_PRECEDENCE, SCORE_TOLERANCE
from analysis.data.curate.spells import EXTRA, FACT, OFFER, Run, build_spells
from analysis.data.rules import DATE_RE, EXCEL_ERRORS
from analysis.data.schema import FUTURE_DAYS, TABLES
from analysis.methods import dispersion, fixed_capability

NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
DAY = pd.Timedelta(days=1)


# --- validate and load ---------------------------------------------------------------------------


def read(folder: Path, table: str) -> pd.DataFrame:
    return pd.read_csv(folder / f"{table}.csv", dtype=str, keep_default_na=False, na_filter=False)


def judge(table: str, df: pd.DataFrame, refs: dict) -> tuple[pd.Series, int, dict]:
    """Per row: broke a rule?; the count of problems; typed columns. Same rules as polars."""
    spec = TABLES[table]
    today = pd.Timestamp(date.today())
    bad_cells = pd.DataFrame(index=df.index)
    typed = {}
    for col in spec.columns:
        s = df[col.name]
        present = s != ""
        bad = pd.Series(False, index=df.index)
        if col.type == "string":
            bad |= s.isin(EXCEL_ERRORS) | (s.str.strip() != s)
            t = s.where(present)
        elif col.type == "number":
            ok = s.str.fullmatch(NUMBER)
            t = pd.to_numeric(s.where(ok & present), errors="coerce")
            t = t.where(np.isfinite(t))
            bad |= present & t.isna()
        elif col.type == "integer":
            ok = s.str.fullmatch(r"[+-]?\d+")
            t = pd.to_numeric(s.where(ok & present), errors="coerce").astype("Int64")
            bad |= present & t.isna()
        elif col.type == "date":
            ok = s.str.fullmatch(DATE_RE.strip("^$"))
            t = pd.to_datetime(s.where(ok & present), format="%Y-%m-%d", errors="coerce")
            bad |= present & t.isna()
            bad |= t > today + pd.Timedelta(days=FUTURE_DAYS)
            if col.minimum is not None:
                bad |= t < pd.Timestamp(col.minimum)
        else:  # boolean
            t = s.map({"true": True, "false": False})
            bad |= present & t.isna()
        if col.required:
            bad |= ~present
        if col.type == "number" and col.minimum is not None:
            bad |= t < col.minimum
        if col.enum is not None:
            bad |= present & ~s.isin(col.enum)
        if col.pattern is not None:
            bad |= present & ~s.str.fullmatch(col.pattern.strip("^$"))
        for fk_cols, target, _ in spec.foreign_keys:
            if fk_cols == [col.name] and target in refs:
                bad |= present & ~s.isin(refs[target])
        bad_cells[col.name] = bad.fillna(True).astype(bool)
        typed[col.name] = t
    row_bad = bad_cells.any(axis=1)
    key = spec.primary_key
    key_bad = bad_cells[key].any(axis=1).to_numpy()
    # A repeated key is a problem where neither it nor its first occurrence has a bad cell.
    first = df.groupby(key, sort=False).ngroup()
    first_row = pd.Series(np.arange(len(df))).groupby(first.to_numpy()).transform("min").to_numpy()
    dup = first_row != np.arange(len(df))
    reported = dup & ~key_bad & ~key_bad[first_row]
    return row_bad | dup, int(bad_cells.to_numpy().sum()) + int(reported.sum()), typed


def typed_frame(table: str, df: pd.DataFrame, refs: dict, columns=None) -> tuple[pd.DataFrame, int]:
    bad, problems, typed = judge(table, df, refs)
    columns = columns or TABLES[table].column_names
    out = pd.DataFrame({c: typed[c] for c in columns})[~bad.to_numpy()]
    return out.reset_index(drop=True), problems


# --- identity ------------------------------------------------------------------------------------


def known_from(info: pd.DataFrame) -> identity.Known:
    cat = model_names.catalog()
    names = info["model_hint"].fillna(info["source_model_name"])
    slug = names.map(lambda n: cat.by_slug.get(model_names.normalize(n), model_names.normalize(n)))
    release = info.assign(_slug=slug).dropna(subset=["release_date"])
    first = release.groupby("_slug")["release_date"].min()
    return identity.Known(
        frozenset(slug),
        frozenset(slug[info["open_weights"].fillna(False).astype(bool)]),
        {s: d.date() for s, d in first.items()},
    )


def models_table(refs: pd.DataFrame, info: pd.DataFrame) -> pd.DataFrame:
    """The models table the curation's flags and the methods read: facts from the source that
    describes each model, how it was identified, its developer."""
    rank = {v: i for i, v in enumerate(curated_models.IDENTIFIED_ORDER)}
    per_model = refs.assign(_how=refs["identified_by"].map(rank)).groupby("model_id")
    out = pd.DataFrame({"_how": per_model["_how"].min()})
    out["resolved"] = out["_how"].notna()
    facts = info.drop_duplicates("model_id").set_index("model_id")
    out = out.join(facts[["organization", "open_weights", "parameters_b", "reasoning"]])
    dated = info.dropna(subset=["release_date"])
    chosen = {
        m: curated_models.choose_release_date([(s, d.date()) for s, d in zip(g["source_id"], g["release_date"], strict=True)])
        for m, g in dated.groupby("model_id")
    }  # fmt: skip
    out["release_date"] = pd.to_datetime(pd.Series({m: c[0] for m, c in chosen.items()}))
    out["release_date_source_id"] = pd.Series({m: c[1] for m, c in chosen.items()})
    orgs = out["organization"].dropna().unique()
    developer = {o: first_party.developer_of(o) for o in orgs}
    out["developer"] = out["organization"].map(developer)
    return out.reset_index()


def identify(tp: pd.DataFrame, scores: pd.DataFrame, info: pd.DataFrame):
    """Names to models, once per distinct name (identity.resolve_name), then merged on."""
    keys = ["source_id", "source_model_name", "model_hint"]
    known = known_from(info)
    names = pd.concat([tp[keys], scores[keys]]).drop_duplicates()
    resolved = pd.DataFrame(
        [identity.resolve_name(s, n, h, known) for s, n, h in names.itertuples(index=False)],
        index=names.index,
    )
    resolved = pd.concat([names, resolved], axis=1)
    resolved["region"] = [identity.region_of(n) for n in names["source_model_name"]]
    tp = tp.merge(resolved, on=keys, how="left")
    scores = scores.merge(resolved.drop(columns="region"), on=keys, how="left")
    refs = pd.concat(
        [d[["model_id", "identified_by"]].drop_duplicates() for d in (tp, scores)]
    ).drop_duplicates()
    info_ids = info.assign(model_id=info["source_model_name"].map(model_names.normalize))
    models = models_table(refs, info_ids)
    dev = models.set_index("model_id")["developer"]
    pairs = tp[["model_id", "provider"]].drop_duplicates()
    pairs["first_party"] = [
        first_party.is_first_party(p, dev.get(m)) for m, p in pairs.itertuples(index=False)
    ]
    tp = tp.merge(pairs, on=["model_id", "provider"], how="left")
    tp["alias_of"] = None
    return tp, scores, models


# --- spells --------------------------------------------------------------------------------------


def walk(first: pd.DataFrame, sources: list[str]) -> tuple[np.ndarray, pd.DataFrame]:
    """spells.build_spells over each offer's first run per source and price stretch."""
    joined = np.full(len(first), -1, dtype=np.int64)
    starts, cuts, sup = [], [], []
    for _, g in first.groupby("_g", sort=True):
        runs = [
            Run(n, d.date(), e.date(), f, sources[s])
            for n, d, e, f, s in zip(g["_n"], g["date"], g["_end"], g["_f"], g["_src"], strict=True)
        ]  # fmt: skip
        base = len(starts)
        for k, spell in enumerate(build_spells(runs)):
            starts.append(spell.start)
            cuts.append(spell.valid_to)
            sup.append(spell.superseded)
            for r in spell.runs:
                joined[r.row] = base + k
    info = pd.DataFrame(
        {"_start": pd.to_datetime(starts), "_cut": pd.to_datetime(cuts), "_sup": sup}
    )
    return joined, info


def snapshot_near(runs: pd.DataFrame, on: pd.Series, snaps: pd.DataFrame, direction: str):
    left = pd.DataFrame({"_k": runs["_k"].to_numpy(), "_src": runs["_src"].to_numpy(), "_on": on})
    near = pd.merge_asof(
        left.sort_values("_on"), snaps, left_on="_on", right_on="_snap", by="_src",
        direction=direction,
    )  # fmt: skip
    return near.set_index("_k")["_snap"].reindex(runs["_k"]).to_numpy()


def row_ids(df: pd.DataFrame, kind: str, start: pd.Series) -> list[str]:
    parts = [df[c].fillna("").astype(str) for c in OFFER]
    keys = parts[0].str.cat(
        [*parts[1:], pd.Series(kind, index=df.index), start.dt.strftime("%Y-%m-%d")], sep="\x1f"
    )
    return [f"tp-{hashlib.sha1(k.encode()).hexdigest()[:12]}" for k in keys]


def stale_ids(tp: pd.DataFrame, runs: pd.DataFrame, rows: pd.DataFrame) -> list[str]:
    """A stale row's id also names its price and its first run's source name (by date, then
    name), as spells keys it: two superseded prices can each leave a stale copy on one day."""
    first = runs[runs["date"] == runs.groupby("_s")["date"].transform("min")]
    first = first.assign(_name=tp["source_model_name"].take(first["_i"]).to_numpy())
    name = first.sort_values(["_s", "date", "_name", "_k"]).drop_duplicates("_s")
    name = name.set_index("_s")["_name"]

    def value(v):
        return None if pd.isna(v) else v

    return [
        spells.row_id(
            "tp",
            *(value(r[c]) for c in OFFER),
            "stale",
            r["_row_start"].date(),
            *(None if pd.isna(r[c]) else round(float(r[c]), 9) for c in FACT),
            name[r["_s"]],
        )
        for _, r in rows.iterrows()
    ]


def spell_rows(tp, runs, kind, info, sources, still=None) -> pd.DataFrame:
    """One row per spell (as spells._base makes it) from its runs of one kind."""
    by = "_s"
    cand = runs[runs["date"] == runs.groupby(by)["date"].transform("min")]
    cand = cand[cand["_rank"] == cand.groupby(by)["_rank"].transform("min")]
    cand = cand.assign(_loc=tp["source_locator"].take(cand["_i"]).to_numpy())
    earliest = cand.sort_values([by, "_loc", "_k"]).drop_duplicates(by)[[by, "_i"]]
    g = runs.groupby(by)
    per = pd.DataFrame({"_row_start": g["_from"].min(), "_last": g["_in_force"].max()})
    for c in EXTRA:
        vals = tp[c].take(runs["_i"]).to_numpy()
        stated = runs[pd.notna(vals)].assign(_v=vals[pd.notna(vals)])
        per[c] = stated.sort_values([by, "_rank", "date", "_k"]).groupby(by)["_v"].first()
    srcs = runs[[by, "_rank", "_src"]].drop_duplicates([by, "_src"])
    srcs = srcs.assign(_name=np.array(sources, dtype=object)[srcs["_src"].to_numpy()])
    per["source_ids"] = srcs.sort_values([by, "_rank", "_name"]).groupby(by)["_name"].agg(";".join)
    rows = tp.take(earliest["_i"]).drop(columns=EXTRA).assign(_s=earliest[by].to_numpy())
    rows = rows.join(per, on=by).join(info, on=by)
    rows["row_id"] = row_ids(rows, kind, rows["_row_start"])
    if kind == "stale":
        rows["row_id"] = stale_ids(tp, runs, rows)
    rows["row_kind"] = kind
    rows["date"], rows["last_seen"] = rows["_row_start"], rows["_last"]
    if kind == "spell":
        rows["valid_from"] = rows["_start"]
        open_ = rows["_s"].map(still)
        closed = rows["_start"].where(rows["_start"] > rows["_cut"] - DAY, rows["_cut"] - DAY)
        rows["valid_to"] = closed.where(rows["_sup"], rows["_last"].where(~open_.astype(bool)))
    else:
        rows["valid_from"] = rows["valid_to"] = pd.NaT
    return rows.assign(_kind=0 if kind == "spell" else 1)


def curate_prices(tp: pd.DataFrame, observations: Path) -> pd.DataFrame:
    """spells.curate_prices in pandas (no Epoch rows, no regions in this panel: both checked)."""
    tp = tp.assign(context_tier=tp["context_tier"].fillna(""))
    assert not tp["source_id"].isin(spells.HISTORICAL).any() and tp["region"].isna().all()
    both = pd.concat(
        [tp[["source_id", "date"]], tp[["source_id", "last_seen"]].set_axis(["source_id", "date"], axis=1)]
    ).dropna().drop_duplicates()  # fmt: skip
    newest = both.groupby("source_id")["date"].max()
    sources = sorted(tp["source_id"].unique())
    code = {s: i for i, s in enumerate(sources)}
    snaps = pd.DataFrame({"_src": both["source_id"].map(code), "_snap": both["date"]})
    snaps = snaps.sort_values("_snap")
    r = [tp[c].map({v: round(v, 9) + 0.0 for v in tp[c].dropna().unique()}) for c in FACT]
    w = pd.DataFrame(
        {
            "_i": np.arange(len(tp)),
            "_g": tp.groupby(OFFER, dropna=False, sort=False).ngroup().to_numpy(),
            "_f": pd.concat(r, axis=1).groupby(FACT, dropna=False, sort=False).ngroup().to_numpy(),
            "date": tp["date"].to_numpy(),
            "_end": tp["last_seen"].fillna(tp["date"]).to_numpy(),
            "_rank": tp["source_id"].map(spells._rank).to_numpy(),
            "_src": tp["source_id"].map(code).to_numpy(),
        }
    )
    w = w.sort_values(["_g", "date", "_rank", "_end", "_i"], kind="stable", ignore_index=True)
    w["_k"] = np.arange(len(w))
    new = (w["_f"] != w["_f"].shift()) | (w["_g"] != w["_g"].shift())
    w["_stretch"] = new.cumsum()
    first = w[~w.duplicated(["_stretch", "_src"])].assign(_n=lambda f: np.arange(len(f)))
    joined, info = walk(first, sources)
    spell = pd.Series(np.nan, index=w.index)
    spell[first.index] = joined
    w["_s"] = spell.ffill().astype(np.int64)
    w["_cut"] = info["_cut"].to_numpy()[w["_s"]]
    w["_sup"] = info["_sup"].to_numpy()[w["_s"]]
    kept = w[~w["_sup"] | (w["date"] < w["_cut"])].copy()
    crossing = kept[kept["_sup"] & (kept["_end"] >= kept["_cut"])]
    last = snapshot_near(crossing, (crossing["_cut"] - DAY).to_numpy(), snaps, "backward")
    last = pd.Series(last, index=crossing.index)
    kept["_in_force"] = kept["_end"]
    kept.loc[crossing.index, "_in_force"] = last.where(last >= crossing["date"], crossing["date"])
    kept["_from"] = kept["date"]
    after = w[w["_sup"] & (w["_end"] >= w["_cut"])]
    start = after["date"].where(after["date"] > after["_cut"], after["_cut"])
    after = after.assign(_from=snapshot_near(after, start.to_numpy(), snaps, "forward"))
    stale = after[after["_from"] <= after["_end"]].assign(_in_force=lambda f: f["_end"])
    open_ = newest.drop([s for s in spells.CONTINUED_BY if s in newest.index])
    ends_open = (
        kept["_end"]
        >= pd.Series(np.array(sources, dtype=object)[kept["_src"]]).map(open_).to_numpy()
    )
    still = ends_open.groupby(kept["_s"]).any()
    info.index.name = "_s"
    rows = [spell_rows(tp, kept, "spell", info, sources, still)]
    if len(stale):
        rows.append(spell_rows(tp, stale, "stale", info, sources))
    table = pd.concat(rows).sort_values(["_s", "_kind"], kind="stable")
    ids = table.set_index(["_s", "_kind"])["row_id"]
    links = pd.concat(
        [
            kept[["_i", "_s", "_k", "date", "_in_force"]].assign(_kind=0),
            stale[["_i", "_s", "_k", "_from", "_end"]].set_axis(["_i", "_s", "_k", "date", "_in_force"], axis=1).assign(_kind=1),
        ]
    ).sort_values(["_s", "_kind", "_k"], kind="stable")  # fmt: skip
    obs = pd.DataFrame(
        {
            "table": "token_prices",
            "row_id": ids.reindex(pd.MultiIndex.from_frame(links[["_s", "_kind"]])).to_numpy(),
            "source_id": tp["source_id"].take(links["_i"]).to_numpy(),
            "source_name": tp["source_model_name"].take(links["_i"]).to_numpy(),
            "source_locator": tp["source_locator"].take(links["_i"]).to_numpy(),
            "date": links["date"].to_numpy(),
            "last_seen": links["_in_force"].to_numpy(),
        }
    ).drop_duplicates(["row_id", "source_id", "source_locator"])
    obs.to_parquet(observations)
    table["context_tier"] = table["context_tier"].replace("", None)
    drop = [c for c in table.columns if c.startswith("_")]
    return table.drop(columns=drop).reset_index(drop=True), len(obs)


# --- benchmark scores and flags --------------------------------------------------------------------


def curate_scores(scores: pd.DataFrame) -> pd.DataFrame:
    """facts.curate_scores: equal measurements (within the tolerance) merged, best source kept."""
    rank = {s: i for i, s in enumerate(SCORE_PRECEDENCE)}
    df = scores.assign(_rank=scores["source_id"].map(rank).fillna(99))
    df = df.sort_values(
        ["model_id", "benchmark", "date", "score", "_rank", "source_locator"], kind="stable"
    )
    key = ["model_id", "benchmark", "unit", "date"]
    gap = (df["score"] - df.groupby(key)["score"].shift()).fillna(np.inf)
    df["_m"] = (gap > SCORE_TOLERANCE).groupby([df[k] for k in key]).cumsum()
    df["_pos"] = df.groupby([*key, "_m"])["_rank"].rank(method="first")
    df["row_id"] = [
        spells.row_id("bs", m, b, u, d.date(), n)
        for m, b, u, d, n in df[[*key, "_m"]].itertuples(index=False)
    ]
    srcs = df.groupby("row_id")["source_id"].agg(
        lambda v: ";".join(sorted(set(v), key=lambda x: (rank.get(x, 99), x)))
    )
    df["source_ids"] = df["row_id"].map(srcs)
    return df[df["_pos"] == 1].drop(columns=["_rank", "_m", "_pos"])


def price_flags(prices: pd.DataFrame, models: pd.DataFrame) -> tuple[pd.DataFrame, list[dict]]:
    """The token-price rules of flags.py, each as flagged and evaluable columns."""
    p = prices.reset_index(drop=True)
    start = p["valid_from"].fillna(p["date"])
    end = p["valid_to"].fillna(p["last_seen"]).fillna(p["date"])
    size = p["model_id"].map(models.set_index("model_id")["parameters_b"])
    named = {m: flags._size(m) for m in p["model_id"].unique()}
    size = size.fillna(p["model_id"].map(named))
    i, o = p["input_usd_per_mtok"], p["output_usd_per_mtok"]
    work = p.assign(_i=p.index, _start=start, _end=end, _size=size)
    out = {}

    # placeholder_price: one seller's identical price for models spanning > 30x in size
    ev = size.notna() & (p["provider"] != "unspecified") & i.notna()
    cand = work[ev & ((i > 0) | (o > 0)) & o.notna()]
    key = ["source_id", "provider", "input_usd_per_mtok", "output_usd_per_mtok"]
    pairs = cand.merge(
        cand[[*key, "_start", "_end", "model_id", "_size"]], on=key, suffixes=("", "_o")
    )
    pairs = pairs[(pairs["_start_o"] <= pairs["_end"]) & (pairs["_end_o"] >= pairs["_start"])]
    g = pairs.groupby("_i")
    span = pd.DataFrame(
        {"n": g["model_id_o"].nunique(), "span": g["_size_o"].max() / g["_size_o"].min()}
    )
    hit = span.index[
        (span["n"] >= flags.PLACEHOLDER_MIN_MODELS) & (span["span"] > flags.PLACEHOLDER_SPAN)
    ]
    out["placeholder_price"] = (p.index.isin(hit), ev)
    # output_below_input
    ev = i.notna() & o.notna() & (i > 0)
    out["output_below_input"] = (ev & (o < i), ev)
    # unit_slip: > 25x from the model's median at the other sellers on overlapping dates
    both = i.notna() & o.notna()
    b = ((3 * i + o) / 4).where(both, p["blended_usd_per_mtok"])
    cand = work.assign(_b=b)[b.notna() & (b > 0)]
    pairs = cand.merge(
        cand[["model_id", "provider", "_start", "_end", "_b"]], on="model_id", suffixes=("", "_o")
    )
    pairs = pairs[
        (pairs["provider_o"] != pairs["provider"])
        & (pairs["_start_o"] <= pairs["_end"])
        & (pairs["_end_o"] >= pairs["_start"])
    ]
    med = pairs.groupby("_i").agg(b=("_b", "first"), m=("_b_o", "median"))
    ratio = np.maximum(med["b"] / med["m"], med["m"] / med["b"])
    out["unit_slip"] = (
        p.index.isin(med.index[ratio > flags.UNIT_SLIP_FACTOR]),
        p.index.isin(med.index),
    )
    # non_text_modality, on each distinct id and name
    text = p["model_id"] + "|" + p["source_model_name"].str.lower()
    verdict = {
        s: bool(flags.NON_TEXT.search(s.replace("|", "-").replace("/", "-"))) for s in text.unique()
    }
    out["non_text_modality"] = (text.map(verdict).to_numpy(), np.ones(len(p), bool))
    # before_release: priced more than 14 days before the model's release
    rel = p[["model_id"]].merge(
        models[["model_id", "release_date", "release_date_source_id", "resolved"]], how="left"
    )
    ev = rel["release_date"].notna() & rel["resolved"].fillna(False).astype(bool)
    ev &= ~rel["release_date_source_id"].isin(curated_models.LISTING_DATE_SOURCES)
    monthly = p["source_id"].isin(flags.MONTHLY_SOURCES)
    released = rel["release_date"].where(
        ~monthly, rel["release_date"].dt.to_period("M").dt.start_time
    )
    grace = np.where(monthly, 0, flags.RELEASE_GRACE_DAYS)
    out["before_release"] = (ev & ((released - start).dt.days > grace), ev)
    out["superseded_stale"] = (p["row_kind"] == "stale", np.ones(len(p), bool))
    out["regional_surcharge"] = (p["region"].notna(), np.ones(len(p), bool))
    return p, _flagged(p, out, "token_prices")


def _flagged(df: pd.DataFrame, results: dict, table: str) -> list[dict]:
    ids, counts = [], []
    for rule in (r for r in flags.RULES if r.table == table):
        hit, ev = results[rule.id]
        hit = np.asarray(hit, bool) & np.asarray(ev, bool)
        ids.append(np.where(hit, rule.id, ""))
        counts.append({"rule": rule.id, "flagged": int(hit.sum())})
    joined = pd.Series("", index=df.index)
    for rule_ids in ids:
        sep = joined.where(joined == "", joined + ";")
        joined = joined.where(rule_ids == "", sep + rule_ids)
    df["flags"] = joined.replace("", None)
    return counts


def score_flags(scores: pd.DataFrame) -> tuple[pd.DataFrame, list[dict]]:
    s = scores.reset_index(drop=True)
    key = ["model_id", "benchmark", "date", "source_id"]
    r = s.groupby(key)["score"].rank(method="first", ascending=False)
    n = s.groupby(key)["score"].transform("nunique")
    res = {"conflicting_scores": ((n > 1) & (r > 1), np.ones(len(s), bool))}
    return s, _flagged(s, res, "benchmark_scores")


# --- the chain -----------------------------------------------------------------------------------


def chain(folder: Path, steps, imported: list[str], benchmarks: list[str], fit) -> dict:
    work = folder / "_pandas"
    work.mkdir(exist_ok=True)
    refs = {
        "models": read(folder, "models")["model_id"].unique(),
        "sources": read(folder, "sources")["source_id"].unique(),
    }

    def validate():
        tp, problems = typed_frame("token_prices", read(folder, "token_prices"), refs, imported)
        tp.to_parquet(work / "tp.parquet")
        return problems

    result = {"problems": steps.run("validate (typed rows to Parquet)", validate)}

    def load():
        tp = pd.read_parquet(work / "tp.parquet")
        models, _ = typed_frame("models", read(folder, "models"), {})
        scores, _ = typed_frame("benchmark_scores", read(folder, "benchmark_scores"), refs)
        return tp, models, scores

    tp, models, scores = steps.run("load (prices: a lazy scan)", load)
    result["rows_loaded"] = len(tp)

    def curate():
        info = models.assign(
            source_id="scrape-a", source_model_name=models["model_id"], model_hint=None
        )
        derived = ["model_id", "row_id", "source_ids", "flags"]
        prices = tp.assign(model_hint=None)
        ids, sc, mt = identify(prices, scores.drop(columns=derived).assign(model_hint=None), info)
        usd = ids["currency"] == "USD"
        for c in [
            "input_original_per_mtok",
            "output_original_per_mtok",
            "blended_original_per_mtok",
        ]:
            ids[c] = ids[c].where(~usd)
        table, n_obs = curate_prices(ids, work / "observations.parquet")
        table, counts = price_flags(table, mt)
        sc, more = score_flags(curate_scores(sc))
        return (
            {"token_prices": table, "benchmark_scores": sc, "models": mt},
            counts + more,
            n_obs + len(sc),
        )

    tables, counts, n_obs = steps.run("curate (identity, spells, flags)", curate)
    tp_cur = tables["token_prices"]
    result["curated_rows"] = {
        k: int(v) for k, v in sorted(tp_cur["row_kind"].value_counts().items())
    }
    result["observations"] = n_obs
    result["models"] = len(tables["models"])
    result["flagged"] = {c["rule"]: c["flagged"] for c in counts if c["flagged"]}
    clean = tp_cur[tp_cur["flags"].isna()]
    models, scores = tables["models"], tables["benchmark_scores"]

    def blend():
        listed = clean[(clean["currency"] == "USD") & (clean["price_kind"] == "list")]
        both = listed["input_usd_per_mtok"].notna() & listed["output_usd_per_mtok"].notna()
        given = listed["blended_usd_per_mtok"].where(listed["blend"] == "3:1")
        price = ((3 * listed["input_usd_per_mtok"] + listed["output_usd_per_mtok"]) / 4).where(
            both, given
        )
        v = listed.assign(price=price)
        v = v[v["price"] > 0]
        # As prices.one_price_per_model_date: first party where there is one, else the median.
        fp = v[v["first_party"].fillna(False).astype(bool)]
        first = fp.groupby(["model_id", "date"], as_index=False).agg(
            price=("price", "min"), n_providers=("price", "size")
        )
        first["selection"] = "first-party"
        keys = pd.MultiIndex.from_frame(first[["model_id", "date"]])
        rest = v[~pd.MultiIndex.from_frame(v[["model_id", "date"]]).isin(keys)]
        rest = rest.groupby(["model_id", "date"], as_index=False).agg(
            price=("price", "median"), n_providers=("provider", "nunique")
        )
        rest["selection"] = "median of " + rest["n_providers"].astype(str) + " providers"
        return pd.concat([first, rest]).sort_values(["model_id", "date"], kind="stable")

    per_date = steps.run("blend + one price per model-date", blend)
    reasoning = set(models.loc[models["reasoning"].fillna(False).astype(bool), "model_id"])

    def thresholds(obs: pd.DataFrame, b: str) -> pd.DataFrame:
        best = obs.groupby("date")["score"].max().sort_index().cummax().rename("best_so_far")
        top = obs.join(best, on="date")
        top = top[top["score"] >= top["best_so_far"]]
        floor = fixed_capability.MIN_THRESHOLD.get(b)
        if floor is not None:
            top = top[top["score"] >= floor]
        return top.sort_values(["date", "model"], kind="stable").drop_duplicates("score")

    def staircases():
        out = {}
        for b in benchmarks:
            sc = scores[scores["benchmark"] == b].groupby("model_id")["score"].median()
            obs = per_date.join(sc, on="model_id", how="inner")
            obs = obs[~obs["model_id"].isin(reasoning)].rename(columns={"model_id": "model"})
            obs = obs.dropna(subset=["date", "price", "score"]).sort_values(
                ["date", "price", "model"], kind="stable"
            )
            for t in thresholds(obs, b).itertuples():
                o = obs[obs["score"] >= t.score]
                prior = o["price"].cummin().shift(1).fillna(np.inf)
                out[(b, t.model, t.score)] = o[o["price"] < prior]
        return out

    stairs = steps.run("cheapest-price staircases", staircases)
    result["staircase_points"] = sum(len(s) for s in stairs.values())

    def fits():
        return [
            fit([d.date() for d in s["date"]], s["price"].to_list(), min_points=4).factor_per_year
            for s in stairs.values()
            if len(s) >= fixed_capability.MIN_POINTS
        ]

    factors = steps.run("trend fits", fits)
    result["fits"] = len(factors)
    result["median_factor"] = sorted(factors)[len(factors) // 2] if factors else None
    sp = steps.run("provider spread", lambda: spread(clean, models))
    result["spread_model_months"] = len(sp)
    result["spread_ratio_sum"] = float(sp["blended_ratio"].sum())
    return result


def spread(tp: pd.DataFrame, models: pd.DataFrame) -> pd.DataFrame:
    """dispersion.provider_prices and spreads, in pandas."""
    open_ids = set(models.loc[models["open_weights"].fillna(False).astype(bool), "model_id"])
    r = tp[
        tp["model_id"].isin(open_ids)
        & (tp["price_kind"] == "list")
        & (tp["currency"] == "USD")
        & (tp["context_tier"].fillna("") == "")
        & (tp["provider"] != dispersion.NO_PROVIDER)
        & (tp["output_usd_per_mtok"] > 0)
        & ~tp["source_model_name"].str.endswith(":free")
    ].copy()
    canon = r["provider"].map(providers.CANONICAL).fillna(r["provider"])
    r["company"] = canon.map(providers.SELLERS).fillna(canon)
    r["aggregator"] = r["provider"].isin(dispersion.AGGREGATORS)
    named = r["source_model_name"].str.contains(dispersion.QUANTISED_NAME, regex=True)
    stated = r["quantization"]
    r["quantised"] = np.where(
        stated.notna(), ~stated.str.lower().isin(dispersion.FULL_PRECISION), named
    )
    r["blended_3to1_usd_per_mtok"] = (3 * r["input_usd_per_mtok"] + r["output_usd_per_mtok"]) / 4
    start = r["date"].dt.year * 12 + r["date"].dt.month - 1
    last = r["last_seen"].fillna(r["date"])
    n = ((last.dt.year * 12 + last.dt.month - 1) - start).clip(lower=0) + 1
    r = r.loc[r.index.repeat(n)]
    m = start.loc[r.index].to_numpy() + r.groupby(level=0).cumcount().to_numpy()
    r["month"] = pd.to_datetime({"year": m // 12, "month": m % 12 + 1, "day": 1}).to_numpy()
    endpoint = ["model_id", "month", "provider", "source_id", "source_model_name", "price_kind"]
    latest = r.sort_values("date", kind="stable").groupby(endpoint, sort=False).tail(1).copy()
    latest["endpoint"] = latest["provider"] + " " + latest["source_model_name"]
    latest["promotional"] = latest["price_kind"] == "promotional"
    latest["_b"] = latest["blended_3to1_usd_per_mtok"].fillna(np.inf)
    latest = latest.sort_values(["_b", "output_usd_per_mtok", "endpoint"], kind="stable")
    g = latest.groupby(["model_id", "month", "company", "source_id"], sort=False)
    cols = [
        "input_usd_per_mtok",
        "output_usd_per_mtok",
        "blended_3to1_usd_per_mtok",
        "endpoint",
        "quantised",
        "promotional",
    ]
    per_source = g[cols].first()
    per_source["first_party"] = g["first_party"].any()
    per_source["aggregator"] = g["aggregator"].all()
    per_source = per_source.reset_index().sort_values("source_id", kind="stable")
    g = per_source.groupby(["model_id", "month", "company"], sort=False)
    pp = g[["input_usd_per_mtok", "output_usd_per_mtok", "blended_3to1_usd_per_mtok"]].median()
    pp["aggregator"] = g["aggregator"].all()
    pp = pp.reset_index().rename(columns={"company": "provider"})
    upstream = (~pp["aggregator"]).groupby([pp["model_id"], pp["month"]]).transform("any")
    pp = pp[~pp["aggregator"] | ~upstream].sort_values("provider", kind="stable")
    g = pp.groupby(["model_id", "month"])
    out = pd.DataFrame({"n_providers": g.size()})
    for name, col in [("output", "output_usd_per_mtok"), ("blended", "blended_3to1_usd_per_mtok")]:
        x = g[col]
        out[f"{name}_min"], out[f"{name}_max"] = x.min(), x.max()
        out[f"{name}_q25"], out[f"{name}_median"] = x.quantile(0.25), x.median()
        out[f"{name}_q75"] = x.quantile(0.75)
        out[f"{name}_ratio"] = out[f"{name}_max"] / out[f"{name}_min"]
        out[f"{name}_cheapest"] = x.idxmin().map(pp["provider"])
        out[f"{name}_priciest"] = x.idxmax().map(pp["provider"])
    return out.reset_index()
