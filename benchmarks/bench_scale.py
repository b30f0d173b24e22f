"""The data chain at scale, polars against plain pandas: prints figures, asserts nothing.

    make bench                                   # 1M token-price rows (and bench_data.py)
    .venv/bin/python benchmarks/bench_scale.py --rows 1000000 10000000

A synthetic but realistic panel (`benchmarks/synthetic.py`: thousands of models, ~100 providers,
daily observations over four years, 2% of rows broken the ways hand edits break them) goes through
the chain: validate, load, curate (identity, spells, flags), blend, the cheapest-price staircase,
the trend fits and the provider spread. Each engine runs the whole chain in a fresh process, so
its memory is its own; each step prints its time, the process's peak resident memory (Linux
VmHWM, reset before each step through /proc/self/clear_refs) and its peak anonymous memory
(RssAnon, sampled every 10 ms). The table compares results (problems, curated rows,
observations, flags, staircase points, fits, spreads) as well as times.

The polars chain is the project's code:
- validate: `analysis.data.rules.check_csv`, the one pass `data validate` and `data.load` make,
  writing the typed valid rows to Parquet as it goes (`parquet=`) instead of holding them;
- load: the two small tables; the prices are a lazy scan of those files;
- curate: `analysis/data/curate/panel.py::curate` (what `build.curate` runs) step for step
  (`curate_lazily`): `identity.identify`
  on the lazy prices, the identified runs written once to Parquet, `spells.curate_prices_lazily`
  (observations, one per run, streamed to Parquet), `facts.curate_scores`, `flags.apply`; on
  panels up to 1M rows it is checked to give build.curate's tables and observations;
- then `prices.clean` (flagged rows out), `prices.blended_price` and
  `one_price_per_model_date`, `fixed_capability.thresholds` and `staircase`,
  `trends.fit_log_trend`, `dispersion.provider_prices` and `spreads`, on the curated table.

The pandas chain (`pandas_chain.py`) does the same steps with the same rules, vectorised as a
careful pandas user would, and the same Parquet file between validate and load.
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


def curate_lazily(merged: dict, observations: Path) -> tuple[dict, list[dict]]:
    """`analysis/data/curate/panel.py::curate` (the build's curation, no release to extend),
    step for step, with the prices read lazily (from the validated Parquet files; the
    identified runs written once to another) and the price observations, one per run, streamed
    to a Parquet file instead of held: identity, the original-currency rule, spells, scores,
    flags. `same_as_build` checks it gives build.curate's tables and observations."""
    from concurrent.futures import ThreadPoolExecutor

    import polars as pl

    from analysis.data.curate import facts, flags, identity, panel, spells

    merged = dict(merged)
    for t in ("token_prices", "benchmark_scores"):
        cols = panel.DERIVED_PRICES if t == "token_prices" else panel.DERIVED
        have = merged[t].collect_schema().names()
        merged[t] = merged[t].drop([c for c in have if c in cols])
    out = identity.identify(merged)
    usd = pl.col("currency") == "USD"
    tp = out["token_prices"].with_columns(
        [pl.when(usd).then(None).otherwise(pl.col(c)).alias(c) for c in panel.ORIGINAL_CURRENCY]
    )
    # The identified runs, once, to a file the spell passes read column by column (read whole,
    # never filtered by value: no statistics to write).
    identified = observations.with_name("identified.parquet")
    tp.sink_parquet(identified, compression="lz4", statistics=False)
    tables = {"models": out["models"]}
    tables["token_prices"], price_obs = spells.curate_prices_lazily(pl.scan_parquet(identified))
    # The observations are written while the scores are curated and the flags judged (neither
    # reads them).
    with ThreadPoolExecutor(max_workers=1) as pool:
        sunk = pool.submit(
            price_obs.sink_parquet, observations, compression="lz4", statistics=False
        )
        tables["benchmark_scores"], score_obs = facts.curate_scores(out["benchmark_scores"])
        tables, counts = flags.apply(tables)
        sunk.result()
    tables["observations"] = pl.concat([pl.scan_parquet(observations), score_obs.lazy()])
    # Counted from the file's metadata and the scores' rows (a count over the concatenation
    # would read every row back).
    tables["n_observations"] = (
        pl.scan_parquet(observations).select(pl.len()).collect().item() + score_obs.height
    )
    return tables, counts


def same_as_build(merged: dict, tables: dict) -> bool:
    """The lazy curation's tables and observations are build.curate's (observations compared
    as sets of rows: the lazy ones come in file order)."""
    import polars as pl

    from analysis.data import build

    eager = {t: f.collect() if isinstance(f, pl.LazyFrame) else f for t, f in merged.items()}
    want, _ = build.curate(eager)
    for t in ("models", "token_prices", "benchmark_scores"):
        if not tables[t].equals(want[t]):
            return False
    got_obs = tables["observations"].collect()
    return got_obs.sort(got_obs.columns).equals(want["observations"].sort(got_obs.columns))


def polars_chain(folder: Path, check: bool) -> dict:
    import polars as pl

    from analysis.data import rules
    from analysis.methods import dispersion, fixed_capability, prices
    from analysis.methods.trends import fit_log_trend

    steps = Steps()
    tp_path = folder / "token_prices.csv"
    work = folder / "_polars"
    refs = {t: rules.key_values(folder / f"{t}.csv", t) for t in ("models", "sources")}

    def validate():
        # The loader's one pass: every rule, and the typed valid rows written to Parquet.
        return rules.check_csv(
            tp_path, "token_prices", refs=refs, keep=imported_columns(), parquet=work / "tp"
        )

    checked = steps.run("validate (typed rows to Parquet)", validate)
    result = {"problems": len(checked.problems)}

    def load():
        models = rules.check_csv(folder / "models.csv", "models", frame=True).frame
        scores = rules.check_csv(
            folder / "benchmark_scores.csv", "benchmark_scores", refs=refs, frame=True
        ).frame
        return checked.lazy, models, scores

    tp, models, scores = steps.run("load (prices: a lazy scan)", load)
    result["rows_loaded"] = tp.select(pl.len()).collect().item()
    hint = pl.lit(None, pl.String).alias("model_hint")
    merged = {
        "token_prices": tp.with_columns(hint),
        "benchmark_scores": scores.with_columns(hint),
        "model_info": model_info(models),
    }
    tables, counts = steps.run(
        "curate (identity, spells, flags)",
        lambda: curate_lazily(merged, work / "observations.parquet"),
    )
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
    if check:  # untimed, after every step: the benchmark's curation is the build's
        result["curation_same_as_build"] = same_as_build(merged, tables)
    return {"steps": steps.rows, "result": result}


def curated_result(tables: dict, counts: list[dict]) -> dict:
    """What the curation made, for comparing the engines: rows per kind, observations, flags."""
    tp = tables["token_prices"]
    kinds = (
        tp["row_kind"].value_counts().rows()
        if hasattr(tp, "height")
        else tp["row_kind"].value_counts().items()
    )
    return {
        "curated_rows": dict(sorted(kinds)),
        "observations": tables["n_observations"],
        "models": tables["models"].shape[0],
        "flagged": {c["rule"]: c["flagged"] for c in counts if c["flagged"]},
    }


# --- the pandas chain --------------------------------------------------------------------------


def pandas_chain(folder: Path, check: bool) -> dict:
    import pandas_chain as chain

    from analysis.methods.trends import fit_log_trend

    steps = Steps()
    result = chain.chain(folder, steps, imported_columns(), BENCHMARKS, fit_log_trend)
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


def child(engine: str, folder: str, check: str) -> None:
    fn = polars_chain if engine == "polars" else pandas_chain
    print(json.dumps(fn(Path(folder), check == "check"), default=str))


def run_child(engine: str, folder: Path, check_build: bool) -> dict:
    load_before = os.getloadavg()
    check = cpu_check()
    flag = "check" if check_build else "no-check"
    out = subprocess.run(
        [sys.executable, __file__, "--child", engine, str(folder), flag],
        capture_output=True,
        text=True,
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
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
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
        # The lazy curation is checked against build.curate (in memory) on panels up to 1M rows.
        runs = {e: run_child(e, folder, rows <= 1_000_000) for e in args.engines}
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
