"""The data chain at scale, polars against plain pandas: prints figures, asserts nothing.

    make bench                                   # 1M token-price rows (and bench_data.py)
    .venv/bin/python benchmarks/bench_scale.py --rows 1000000 10000000

A synthetic but realistic panel (`benchmarks/synthetic.py`: thousands of models, ~100 providers,
daily observations over four years, 2% of rows broken the ways hand edits break them) goes through
the chain: validate, load, curate, blend, the cheapest-price staircase, the trend fits and the
provider spread. Each engine runs the whole chain in a fresh process, so its memory is its own;
each step prints its time and the process's peak resident memory during it (Linux VmHWM, reset
before each step through /proc/self/clear_refs). The pandas chain does the same steps with the
same rules, vectorised as a careful pandas user would write them, and the table compares results
(problem counts, staircase points, spreads) as well as times.

The polars chain uses the project's own code: `analysis.data.rules` for validate and load (the
functions `data validate` and `data.load` run), `analysis.methods.prices` for the blend and the
one-price-per-model-date selection, `analysis.methods.fixed_capability` for thresholds and
observations, `analysis.methods.trends.fit_log_trend` for the fits and
`analysis.methods.dispersion` for the spread. One step is not the library's: the staircase walk
(`fixed_capability.staircase` loops over rows in Python, about a second per threshold per
million observations); the benchmark uses the equivalent vectorised walk (a row joins when its
price is below the running minimum of the rows before it, `cum_min`) and checks it gives the same
points as the library's on the first benchmark.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

BENCHMARKS = ["mmlu", "gpqa-diamond", "arena-elo"]


def imported_columns() -> list[str]:
    """The token_prices columns an importer gives: the curation derives the others (model id,
    first party, offer, region, spells, row ids, flags) and drops whatever is there."""
    from analysis.data.schema import CURATION_COLUMNS, PRICE_CURATION_COLUMNS, TABLES

    derived = {c.name for c in CURATION_COLUMNS + PRICE_CURATION_COLUMNS}
    derived |= {"model_id", "first_party"}
    return [c for c in TABLES["token_prices"].column_names if c not in derived]


# --- measuring ---------------------------------------------------------------------------------


def _status_mb(field: str) -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


class AnonPeak:
    """Peak anonymous memory (RssAnon: the process's own memory, not the pages of files it has
    mapped, such as a CSV polars reads through mmap), sampled every 10 ms on a thread."""

    def __init__(self) -> None:
        import threading

        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, _status_mb("RssAnon"))
            self._stop.wait(0.01)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, _status_mb("RssAnon"))


def _reset_hwm() -> None:
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
    except OSError:
        pass


class Steps:
    def __init__(self) -> None:
        self.rows: list[dict] = []

    def run(self, name: str, fn, *args):
        _reset_hwm()
        t = time.perf_counter()
        c = time.process_time()
        with AnonPeak() as anon:
            out = fn(*args)
        self.rows.append(
            {
                "step": name,
                "seconds": time.perf_counter() - t,
                "cpu_seconds": time.process_time() - c,
                "peak_mb": _status_mb("VmHWM"),
                "anon_mb": anon.peak,
            }
        )
        return out


# --- the polars chain --------------------------------------------------------------------------


def model_info(models):
    """The synthetic models table as a source describing its models (what `identity` resolves
    names against), in the importers' `model_info` shape."""
    import polars as pl

    from analysis.data.importers.common import MODEL_INFO_SCHEMA

    return models.select(
        pl.lit("scrape-a").alias("source_id"),
        pl.col("model_id").alias("source_model_name"),
        pl.lit(None, pl.String).alias("model_hint"),
        "name",
        "organization",
        "release_date",
        "open_weights",
        "parameters_b",
        "active_parameters_b",
        "reasoning",
        pl.format("models.csv#{}", "model_id").alias("source_locator"),
    ).cast(MODEL_INFO_SCHEMA)


def polars_chain(folder: Path) -> dict:
    import polars as pl

    from analysis.data import build, rules
    from analysis.methods import dispersion, fixed_capability, prices
    from analysis.methods.trends import fit_log_trend

    steps = Steps()
    tp_path = folder / "token_prices.csv"
    refs = {t: rules.key_values(folder / f"{t}.csv", t) for t in ("models", "sources")}

    checked = steps.run("validate", lambda: rules.check_csv(tp_path, "token_prices", refs=refs))
    result = {"problems": len(checked.problems)}
    del checked

    def load():
        tp = rules.check_csv(
            tp_path, "token_prices", refs=refs, frame=True, keep=imported_columns()
        ).frame
        models = rules.check_csv(folder / "models.csv", "models", frame=True).frame
        scores = rules.check_csv(
            folder / "benchmark_scores.csv", "benchmark_scores", refs=refs, frame=True
        ).frame
        return tp, models, scores

    tp, models, scores = steps.run("load", load)
    result["rows_loaded"] = tp.height

    def curate():
        # The release build's curation (analysis/data/build.py::curate): identity, spells, flags.
        hint = pl.lit(None, pl.String).alias("model_hint")
        merged = {
            "token_prices": tp.with_columns(hint),
            "benchmark_scores": scores.with_columns(hint),
            "model_info": model_info(models),
        }
        return build.curate(merged)

    tables, counts = steps.run("curate (identity, spells, flags)", curate)
    del tp
    result |= curated_result(tables, counts)
    clean_tp, _ = prices.clean(tables["token_prices"])
    models, scores = tables["models"], tables["benchmark_scores"]

    def blend():
        priced = (
            clean_tp.lazy()
            .filter((pl.col("currency") == "USD") & (pl.col("price_kind") == "list"))
            .with_columns(prices.blended_price().alias("price"))
            .filter(pl.col("price") > 0)
            .select("model_id", "date", "first_party", "provider", "price")
            .collect()
        )
        return prices.one_price_per_model_date(priced, "price")

    per_date = steps.run("blend + one price per model-date", blend)
    reasoning = models.filter(pl.col("reasoning").fill_null(False))["model_id"].implode()

    def staircases():
        out = {}
        for b in BENCHMARKS:
            obs = (
                per_date.join(fixed_capability.model_scores(scores, b), on="model_id")
                .filter(~pl.col("model_id").is_in(reasoning))
                .select(pl.col("model_id").alias("model"), "date", "price", "score")
            )
            for t in fixed_capability.thresholds(obs, b).iter_rows(named=True):
                out[(b, t["model"], t["score"])] = fixed_capability.staircase(obs, t["score"])
        return out

    stairs = steps.run("cheapest-price staircases", staircases)
    result["staircase_points"] = sum(s.height for s in stairs.values())

    def fits():
        return [
            fit_log_trend(s["date"].to_list(), s["price"].to_list(), min_points=4).factor_per_year
            for s in stairs.values()
            if s.height >= fixed_capability.MIN_POINTS
        ]

    factors = steps.run("trend fits", fits)
    result["fits"] = len(factors)
    result["median_factor"] = sorted(factors)[len(factors) // 2] if factors else None

    def spread():
        return dispersion.spreads(dispersion.provider_prices(clean_tp, models))

    sp = steps.run("provider spread", spread)
    result["spread_model_months"] = sp.height
    result["spread_ratio_sum"] = float(sp["blended_ratio"].sum())
    return {"steps": steps.rows, "result": result}


def curated_result(tables: dict, counts: list[dict]) -> dict:
    """What the curation made, for comparing the engines: rows per kind, observations, flags."""
    tp = tables["token_prices"]
    kinds = tp["row_kind"].value_counts().rows() if hasattr(tp, "height") else []
    return {
        "curated_rows": dict(sorted(kinds)),
        "observations": tables["observations"].shape[0],
        "models": tables["models"].shape[0],
        "flagged": {c["rule"]: c["flagged"] for c in counts if c["flagged"]},
    }


# --- the pandas chain --------------------------------------------------------------------------


def pandas_chain(folder: Path) -> dict:
    import numpy as np
    import pandas as pd

    from analysis.data import providers
    from analysis.data.rules import DATE_RE, EXCEL_ERRORS
    from analysis.data.schema import FUTURE_DAYS, TABLES
    from analysis.methods import dispersion, fixed_capability
    from analysis.methods.trends import fit_log_trend

    number = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
    steps = Steps()
    today = pd.Timestamp(date.today())

    def read(table: str) -> pd.DataFrame:
        return pd.read_csv(
            folder / f"{table}.csv", dtype=str, keep_default_na=False, na_filter=False
        )

    def judge(table: str, df: pd.DataFrame, refs: dict) -> tuple[pd.Series, int, dict]:
        """Per row: broke a rule?; the count of problems; typed columns. Same rules as polars."""
        spec = TABLES[table]
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
                ok = s.str.fullmatch(number)
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
        first_row = (
            pd.Series(np.arange(len(df))).groupby(first.to_numpy()).transform("min").to_numpy()
        )
        dup = first_row != np.arange(len(df))
        reported = dup & ~key_bad & ~key_bad[first_row]
        return row_bad | dup, int(bad_cells.to_numpy().sum()) + int(reported.sum()), typed

    refs = {
        "models": read("models")["model_id"].unique(),
        "sources": read("sources")["source_id"].unique(),
    }

    def validate():
        df = read("token_prices")
        return judge("token_prices", df, refs)[1]

    result = {"problems": steps.run("validate", validate)}

    def load():
        df = read("token_prices")
        bad, _, typed = judge("token_prices", df, refs)
        tp = pd.DataFrame({c: typed[c] for c in CHAIN_COLUMNS})[~bad.to_numpy()]
        mdf = read("models")
        _, _, mt = judge("models", mdf, {})
        models = pd.DataFrame(mt)
        sdf = read("benchmark_scores")
        _, _, st = judge("benchmark_scores", sdf, refs)
        return tp.reset_index(drop=True), models, pd.DataFrame(st)

    tp, models, scores = steps.run("load", load)
    result["rows_loaded"] = len(tp)
    tp = steps.run("curate (slot for issue 9)", lambda: tp)

    def blend():
        listed = tp[(tp["currency"] == "USD") & (tp["price_kind"] == "list")]
        both = listed["input_usd_per_mtok"].notna() & listed["output_usd_per_mtok"].notna()
        given = listed["blended_usd_per_mtok"].where(listed["blend"] == "3:1")
        price = ((3 * listed["input_usd_per_mtok"] + listed["output_usd_per_mtok"]) / 4).where(
            both, given
        )
        v = listed.assign(price=price)
        v = v[v["price"] > 0]
        # As prices.one_price_per_model_date: first party where there is one, else the median.
        fp = v[v["first_party"].astype(bool)]
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
        o = obs.sort_values(["date", "price", "model"], kind="stable")
        best = o.groupby("date")["score"].max().sort_index().cummax().rename("best_so_far")
        top = o.join(best, on="date")
        top = top[top["score"] >= top["best_so_far"]]
        floor = fixed_capability.MIN_THRESHOLD.get(b)
        if floor is not None:
            top = top[top["score"] >= floor]
        return top.sort_values("date", kind="stable").drop_duplicates(["model", "score"])

    def staircases():
        out = {}
        for b in BENCHMARKS:
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
            fit_log_trend(
                [d.date() for d in s["date"]], s["price"].to_list(), min_points=4
            ).factor_per_year
            for s in stairs.values()
            if len(s) >= fixed_capability.MIN_POINTS
        ]

    factors = steps.run("trend fits", fits)
    result["fits"] = len(factors)
    result["median_factor"] = sorted(factors)[len(factors) // 2] if factors else None

    def spread():
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
        r["blended_3to1_usd_per_mtok"] = (
            3 * r["input_usd_per_mtok"] + r["output_usd_per_mtok"]
        ) / 4
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
        for name, col in [
            ("output", "output_usd_per_mtok"),
            ("blended", "blended_3to1_usd_per_mtok"),
        ]:
            x = g[col]
            out[f"{name}_min"], out[f"{name}_max"] = x.min(), x.max()
            out[f"{name}_q25"], out[f"{name}_median"] = x.quantile(0.25), x.median()
            out[f"{name}_q75"] = x.quantile(0.75)
            out[f"{name}_ratio"] = out[f"{name}_max"] / out[f"{name}_min"]
            out[f"{name}_cheapest"] = x.idxmin().map(pp["provider"])
            out[f"{name}_priciest"] = x.idxmax().map(pp["provider"])
        return out.reset_index()

    sp = steps.run("provider spread", spread)
    result["spread_model_months"] = len(sp)
    result["spread_ratio_sum"] = float(sp["blended_ratio"].sum())
    return {"steps": steps.rows, "result": result}


# --- running and printing ----------------------------------------------------------------------


def panel(rows: int, work: Path):
    import synthetic

    folder = work / f"panel-{rows}"
    meta = folder / "panel.json"
    if meta.exists():
        m = json.loads(meta.read_text())
        if m.get("rows") == rows:
            return folder, m
    t = time.perf_counter()
    p = synthetic.write_panel(folder, rows)
    print(
        f"  wrote a {rows:,}-row panel ({p.bytes / 1e9:.2f} GB) in {time.perf_counter() - t:.0f} s",
        flush=True,
    )
    return folder, json.loads(meta.read_text())


def cpu_check() -> str:
    """How much of the two cores this process gets now (the machine is shared): the same busy
    loop once alone and twice side by side."""
    import multiprocessing as mp

    def busy():
        sum(range(20_000_000))

    t = time.perf_counter()
    busy()
    one = time.perf_counter() - t
    t = time.perf_counter()
    ps = [mp.Process(target=busy) for _ in range(2)]
    for p in ps:
        p.start()
    for p in ps:
        p.join()
    two = time.perf_counter() - t
    return f"two loops side by side ran {2 * one / two:.2f}x as fast as one after the other (2.00 = two free cores)"


def machine() -> str:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(
                line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")
            )
    except (OSError, StopIteration):
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    import pandas
    import polars

    return (
        f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GB RAM, Python {platform.python_version()}, "
        f"polars {polars.__version__}, pandas {pandas.__version__}"
    )


def child(engine: str, folder: str) -> None:
    fn = polars_chain if engine == "polars" else pandas_chain
    print(json.dumps(fn(Path(folder)), default=str))


def run_child(engine: str, folder: Path) -> dict:
    load_before = os.getloadavg()
    check = cpu_check()
    out = subprocess.run(
        [sys.executable, __file__, "--child", engine, str(folder)], capture_output=True, text=True
    )
    if out.returncode != 0:
        return {
            "error": out.stderr.strip().splitlines()[-1] if out.stderr else "failed",
            "load": load_before,
        }
    res = json.loads(out.stdout.strip().splitlines()[-1])
    res["load"] = (load_before, os.getloadavg())
    res["cpu_check"] = check
    return res


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--rows", type=int, nargs="+", default=[1_000_000], help="panel sizes (default: 1000000)"
    )
    parser.add_argument(
        "--engines", nargs="+", default=["polars", "pandas"], choices=["polars", "pandas"]
    )
    parser.add_argument(
        "--work",
        default=None,
        help="folder for the panels (default: a temporary folder, kept between runs)",
    )
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    work = Path(args.work) if args.work else Path(tempfile.gettempdir()) / "bench-scale"
    work.mkdir(parents=True, exist_ok=True)
    print(f"machine: {machine()}")
    for rows in args.rows:
        folder, meta = panel(rows, work)
        print(
            f"\n{rows:,} token-price rows ({meta['bad_cells']:,} broken cells, "
            f"{meta['duplicate_rows']:,} duplicated rows): {folder}"
        )
        runs = {e: run_child(e, folder) for e in args.engines}
        for e, r in runs.items():
            if "error" in r:
                print(f"  {e}: FAILED: {r['error']}")
            else:
                (b1, _, _), (a1, _, _) = r["load"]
                print(f"  {e}: load average {b1:.2f} before, {a1:.2f} after; {r['cpu_check']}")
        ok = {e: r for e, r in runs.items() if "error" not in r}
        head = f"  {'step':34}" + "".join(f"{e + ' s':>10}{'RSS MB':>8}{'anon MB':>8}" for e in ok)
        head += f"{'pandas/polars':>15}" if len(ok) == 2 else ""
        print(head)
        names = [s["step"] for s in next(iter(ok.values()))["steps"]] if ok else []
        totals = dict.fromkeys(ok, 0.0)
        for i, name in enumerate(names):
            line = f"  {name:34}"
            for e, r in ok.items():
                s = r["steps"][i]
                totals[e] += s["seconds"]
                line += f"{s['seconds']:10.2f}{s['peak_mb']:8.0f}{s['anon_mb']:8.0f}"
            if len(ok) == 2:
                a, b = (r["steps"][i]["seconds"] for r in (ok["pandas"], ok["polars"]))
                line += f"{a / b:14.1f}x" if b > 0.005 else f"{'-':>15}"
            print(line)
        line = f"  {'whole chain':34}"
        for e, r in ok.items():
            peak = max(s["peak_mb"] for s in r["steps"])
            anon = max(s["anon_mb"] for s in r["steps"])
            line += f"{totals[e]:10.2f}{peak:8.0f}{anon:8.0f}"
        if len(ok) == 2:
            line += f"{totals['pandas'] / totals['polars']:14.1f}x"
        print(line)
        print("  results:")
        for e, r in ok.items():
            print(f"    {e}: {json.dumps(r['result'])}")
        print(
            f"    expected problems: {meta['bad_cells'] + meta['duplicate_rows']} (broken cells + duplicated rows)"
        )


if __name__ == "__main__":
    main()
