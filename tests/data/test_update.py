"""`data update` end to end against a local HTTP server that plays GitHub, serving recorded copies
of the real files (from the project's raw sources folder; skipped where it is absent).

The base release is built with `data build`'s own code from older snapshots of the same sources
(a day-one state); the server then offers the newer snapshots, as the live repositories would:
LiteLLM's price list of 2026-07-24 after that of 2026-06-06, simonw/llm-prices of 2026-08-05
after 2026-07-09, OpenRouter's model list of 2026-08-08 (and its first endpoint listing) after
2026-07-17, one more Epoch benchmark file. One source answers HTTP 404 (cpi-us), one sends a body
shorter than its Content-Length (genai-prices), one a cut-off CSV without a Content-Length
(Epoch's price trends), and LiteLLM's file fails once with 503 before it is served.
The expected rows are read off the raw files here, independently of the importers.
"""

from __future__ import annotations

import csv
import hashlib
import json
import shutil
import threading
from collections import Counter
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlparse

import polars as pl
import pytest
from rich.console import Console

from analysis.data import build, cut, raw_store, update
from analysis.data import release as data
from analysis.data.importers import digests
from analysis.data.paths import DATA_DIR

# (folder, file under the folder) of the base release's raw files, and of what the server offers.
BASE = {
    "litellm-prices-rocry-mirror": ["2026-06-06_model_prices_and_context_window.json"],
    "litellm-prices-tokencost-mirror": [  # the build's LiteLLM importer reads this mirror too
        "2024-01-30_tokencost__model_prices.json",
        "2024-01-01_model_prices.yaml",
    ],
    "llm-prices-simonw": ["2026-07-09_data/openai.json", "2026-07-09_data/anthropic.json"],
    "genai-prices-pydantic": [
        "2026-08-21_HEAD/prices/providers/anthropic.yml",
        "2026-08-21_HEAD/prices/providers/openai.yml",
    ],
    "openrouter-sui414": ["2026-08-08_HEAD/data/csv/models/date=2026-07-17.csv"],
    "epoch-llm-price-trends": [
        "2025-03-13_HEAD/data/aa_data_with_math5.csv",
        "2025-03-13_HEAD/data/epoch_ai_price_data_not_in_aa_with_benchmarks.csv",
    ],
    "epoch-benchmark-stitching": [
        "2025-12-03_HEAD/data/model_versions.csv",
        "2025-12-03_HEAD/data/external_benchmark_mmlu.csv",
    ],
    "epoch-hardware-prices": [
        "2026-04-01_HEAD/data/Hardware prices.csv",
        "2026-04-01_HEAD/data/Chip dataset-Grid view.csv",
        "2026-04-01_HEAD/data/All ML Systems - full view.csv",
    ],
    "fx-usd-exchange-rates": ["2026-07-21_HEAD/data/monthly.csv"],
    "cpi-us": ["2026-07-01_HEAD/data/cpiai.csv"],
    # Feed tables no update step touches, so the base release has none empty (the validator
    # refuses a header-only table): MLPerf's two official summaries (mlperf_results) and the
    # digests (claims, read from the seeds folder beside the sources).
    "mlperf-inference": [
        "v4.1_2024-11-05_summary_results.json",
        "v5.1_2025-09-09_summary_results.json",
    ],
    # One file (or one system and its log) per feed table of the folders added on 2026-12-01.
    "mlperf-training-v5.0-v5.1": [
        "v5.0_2025-06-17/Nebius/systems/nebius_soperator_8xH200_n64_ngc25.01_nemo.json",
        "v5.0_2025-06-17/Nebius/results/nebius_soperator_8xH200_n64_ngc25.01_nemo/llama31_405b/result_1.txt",
    ],
    "inferencemax-raw-mantile": [
        "2026-01-28_HEAD/reconcile/by_model/openai_GPT-OSS-120B/inferencemax.csv",
        "2026-01-28_HEAD/reconcile/sources/inferencemax/raw/run_20218553330/agg_bmk.json",
    ],
    "inferencex-tco-assumptions": ["2026-04-02_packages__app__src__lib__constants.ts"],
    "aa-leaderboards-oolong": ["2026-04-10_llms.json"],
    "deepseek-tou-ratecards": ["2026-08-20_dsh-meter__docs__pricing.json"],
}
FEEDS = {  # base only, never served: no update step reads them
    "mlperf-training-v5.0-v5.1": "mlperf_training",
    "inferencemax-raw-mantile": "inferencemax",
    "inferencex-tco-assumptions": "inferencex_tco",
    "aa-leaderboards-oolong": "aa_leaderboards",
    "deepseek-tou-ratecards": "deepseek_tou",
}
NOT_UPDATED = {"litellm-prices-tokencost-mirror", "mlperf-inference", *FEEDS}
SERVED = {
    **{k: v for k, v in BASE.items() if k not in NOT_UPDATED},
    "litellm-prices-rocry-mirror": ["2026-07-24_model_prices_and_context_window.json"],
    "llm-prices-simonw": ["2026-08-05_data/openai.json", "2026-08-05_data/anthropic.json"],
    "openrouter-sui414": [
        "2026-08-08_HEAD/data/csv/models/date=2026-08-08.csv",
        "2026-08-08_HEAD/data/csv/endpoints/date=2026-08-08.csv",
    ],
    "epoch-benchmark-stitching": [
        *BASE["epoch-benchmark-stitching"],
        "2025-12-03_HEAD/data/external_benchmark_gsm8k.csv",
    ],
}
BASE_IMPORTERS = [
    *(f"analysis.data.importers.{s.name}" for s in update.STEPS),
    "analysis.data.importers.mlperf",
    "analysis.data.importers.digests",
    *(f"analysis.data.importers.{m}" for m in FEEDS.values()),
]
# How the server misbehaves, by path in the repository.
NOT_FOUND = "data/cpiai.csv"
SHORT = "prices/providers/openai.yml"  # Content-Length says more than is sent
CUT_OFF = "data/aa_data_with_math5.csv"  # no Content-Length, body cut mid-line
FLAKY = "model_prices_and_context_window.json"  # 503 once, then served


def provenance(sources: Path, folder: str) -> dict[str, dict]:
    with (sources / folder / "_PROVENANCE.tsv").open(newline="") as fh:
        return {r["file"]: r for r in csv.DictReader(fh, delimiter="\t")}


def copy_sources(sources: Path, dest: Path, files: dict[str, list[str]]) -> dict[str, list[dict]]:
    """Copy the named raw files and their provenance rows; returns the rows by folder."""
    out = {}
    for folder, names in files.items():
        prov = provenance(sources, folder)
        rows = [prov[f"{folder}/{n}"] for n in names]
        for r in rows:
            (dest / r["file"]).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(sources / r["file"], dest / r["file"])
        with (dest / folder / "_PROVENANCE.tsv").open("w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]), delimiter="\t", lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
        out[folder] = rows
    return out


class GitHub(BaseHTTPRequestHandler):
    """GitHub's commits and contents APIs and raw file host, for the recorded files."""

    repos: dict[str, dict]  # repo -> {"commit", "date", "files": {path: Path}}
    hits: Counter

    def log_message(self, *args):  # keep pytest's output clean
        pass

    def _send(self, status: int, body: bytes, length: int | None = None) -> None:
        self.send_response(status)
        if length is not None:
            self.send_header("Content-Length", str(length))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urlparse(self.path)
        parts = unquote(url.path).strip("/").split("/")
        self.hits[url.path] += 1
        if parts[0] == "api":
            repo, kind, rest = "/".join(parts[2:4]), parts[4], "/".join(parts[5:])
            info = self.repos.get(repo)
            if info is None:
                return self._send(404, b"{}")
            if kind == "commits":
                body = {"sha": info["commit"], "commit": {"committer": {"date": info["date"]}}}
            else:  # contents/<dir>?ref=<sha>
                body = [
                    {"name": p.rsplit("/", 1)[-1], "path": p, "type": "file"}
                    for p in info["files"]
                    if p.rsplit("/", 1)[0] == rest
                ]
            data = json.dumps(body).encode()
            return self._send(200, data, len(data))
        repo, commit, path = "/".join(parts[1:3]), parts[3], "/".join(parts[4:])
        info = self.repos.get(repo)
        if info is None or commit != info["commit"] or path not in info["files"]:
            return self._send(404, b"not found", 9)
        body = info["files"][path].read_bytes()
        if path == NOT_FOUND:
            return self._send(404, b"not found", 9)
        if path == SHORT:
            return self._send(200, body[: len(body) // 2], len(body))
        if path == CUT_OFF:
            line = body.index(b"\n", len(body) // 2) + 1
            cut_at = body.index(b",", line) + 1  # after the first field of a line
            return self._send(200, body[:cut_at])
        if path == FLAKY and self.hits[url.path] == 1:
            return self._send(503, b"busy", 4)
        return self._send(200, body, len(body))


@pytest.fixture(scope="module")
def world(sources_dir, tmp_path_factory):
    """The base release, the served files and a server on 127.0.0.1."""
    tmp = tmp_path_factory.mktemp("update")
    base_sources = tmp / "base-sources"
    copy_sources(sources_dir, base_sources, BASE)
    (tmp / "seeds").mkdir()  # the digests importer reads the seeds beside the sources folder
    for name in digests.DIGESTS:
        shutil.copyfile(sources_dir.parent / "seeds" / name, tmp / "seeds" / name)
    root = tmp / "data"
    frames, sources = build.run_importers(base_sources, BASE_IMPORTERS)
    tables = build.assemble(update.complete(frames), sources)
    empty = [t for t, df in tables.items() if df.height == 0]
    assert not empty, f"base release would have header-only tables: {empty}"
    build.write_version(tables, root, "2026-11-01", "day one")
    served = tmp / "served"
    rows = copy_sources(sources_dir, served, SERVED)
    repos: dict[str, dict] = {}
    for folder, rs in rows.items():
        for r in rs:
            info = repos.setdefault(
                r["repo"], {"commit": r["commit"], "date": f"{r['commit_date']}T12:00:00Z"}
            )
            assert info["commit"] == r["commit"], f"{folder}: one commit per repository"
            info.setdefault("files", {})[r["path_in_repo"]] = served / r["file"]
    handler = type("Handler", (GitHub,), {"repos": repos, "hits": Counter()})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield {"root": root, "served": served, "rows": rows, "port": server.server_port, "tmp": tmp}
    server.shutdown()


@pytest.fixture(scope="module")
def run(world):
    """One `data update` against the server."""
    base = world["root"] / "2026-11-01"
    before = {p.name: p.read_bytes() for p in base.iterdir()}
    expected_version = cut.next_version(world["root"])
    url = f"http://127.0.0.1:{world['port']}"
    report = update.update(
        root=world["root"],
        store=world["tmp"] / "raw",
        api=f"{url}/api",
        raw=f"{url}/raw",
        backoff=0.0,
        timeout=10.0,
        console=Console(file=open(world["tmp"] / "progress.txt", "w")),  # noqa: SIM115
    )
    with (world["tmp"] / "report.txt").open("w") as fh:
        update.print_report(report, Console(file=fh, width=250))
    return {**world, "report": report, "before": before, "expected_version": expected_version}


def added(run, table: str) -> pl.DataFrame:
    return run["report"].added[table]


def seen_as(rows: pl.DataFrame, links: pl.DataFrame, source: str, name: str) -> pl.DataFrame:
    """The curated rows an observation of `name` in `source` stands behind (one curated row
    holds every source and key that gave its price: `observations` lists them)."""
    mine = links.filter((pl.col("source_id") == source) & (pl.col("source_name") == name))
    return rows.join(mine.select("row_id", "source_locator"), on="row_id", suffix="_seen")


def test_each_failing_source_gets_one_line_and_the_others_count(run):
    r = run["report"]
    failed = {f.upstream.folder: f.error for f in r.fetched if f.error}
    assert set(failed) == {"cpi-us", "genai-prices-pydantic", "epoch-llm-price-trends"}
    assert "HTTP 404" in failed["cpi-us"] and "data/cpiai.csv" in failed["cpi-us"]
    assert (
        "body truncated" in failed["genai-prices-pydantic"]
        and SHORT in failed["genai-prices-pydantic"]
    )
    assert "does not parse (truncated?)" in failed["epoch-llm-price-trends"]
    assert all("\n" not in e for e in r.errors)
    assert r.skipped == {
        "genai_prices": "not run: genai-prices-pydantic not fetched",
        "epoch_prices": "not run: epoch-llm-price-trends not fetched",
        "fred": "not run: cpi-us not fetched",
    }
    ok = {f.upstream.folder for f in r.fetched if not f.error}
    assert ok == set(SERVED) - set(failed)
    assert set(r.imported) == {s.name for s in update.STEPS} - set(r.skipped)


def test_the_report_says_what_was_fetched_added_and_cut(run):
    text = (run["tmp"] / "report.txt").read_text()
    assert f"cut data version {run['report'].version} (from 2026-11-01)" in text
    assert "FAILED cpi-us: HTTP 404 Not Found from http://127.0.0.1:" in text
    assert "SKIPPED importer fred: not run: cpi-us not fetched" in text
    n = added(run, "token_prices").height
    assert f"added {n:,} rows to token_prices (" in text


def test_the_report_says_what_became_of_the_new_rows(run):
    """As `data add` does per row: per table, the rows added, flagged by a rule (each flagged
    row named, with its rule: kept, excluded from estimates by default), merged into a released
    fact, refused; and which chapters read the table."""
    text = (run["tmp"] / "report.txt").read_text()
    r = run["report"]
    tp = added(run, "token_prices")
    flagged = tp.filter(pl.col("flags").is_not_null())
    assert flagged.height, "the served files give flagged rows (a test of the listing)"
    assert (
        f"token_prices: {tp.height - flagged.height:,} added, {flagged.height:,} flagged (kept, "
        f"excluded from estimates by default), {len(r.held['token_prices']):,} merged into "
        "released facts (nothing added), " in text
    )
    first = flagged.row(0, named=True)
    rule = first["flags"].split(";")[0]
    assert (
        f"  {first['row_id']} ({first['source_id']}, {first['source_model_name']}): flagged by "
        f"rule {rule} (excluded from estimates by default)" in text
    )
    assert "  chapters that read token_prices" in text
    # LiteLLM prices gpt-4o as on day one (read off both files in the test below): the new
    # snapshot states the released facts again, and they are merged, not added.
    prev = data.load("token_prices", "2026-11-01", run["root"])
    prev_links = data.load("observations", "2026-11-01", run["root"])
    gpt4o = set(seen_as(prev, prev_links, "litellm-rocry", "gpt-4o")["row_id"])
    assert gpt4o and gpt4o <= r.held["token_prices"]
    assert not gpt4o & set(tp["row_id"])


def test_the_raw_store_holds_whole_files_with_their_provenance(run):
    store = run["tmp"] / "raw"
    for folder, rows in run["rows"].items():
        stored = {r.path_in_repo: r for r in raw_store.read(store, folder)}
        if folder in {"cpi-us", "genai-prices-pydantic", "epoch-llm-price-trends"}:
            assert not (store / folder).exists() or not stored, f"{folder} failed: nothing stored"
            continue
        assert set(stored) == {r["path_in_repo"] for r in rows}
        for r in rows:
            s = stored[r["path_in_repo"]]
            body = (run["served"] / r["file"]).read_bytes()
            assert s.sha256 == hashlib.sha256(body).hexdigest() == r["sha256"]
            assert s.bytes == len(body) == (store / s.file).stat().st_size
            assert s.commit == r["commit"] and s.commit_date == r["commit_date"]
            assert s.url.startswith(
                f"http://127.0.0.1:{run['port']}/raw/{r['repo']}/{r['commit']}/"
            )
            assert s.retrieved_at.endswith("Z")
    # The flaky file was retried: two requests, one stored copy.
    assert (
        store / "litellm-prices-rocry-mirror/2026-07-24_model_prices_and_context_window.json"
    ).exists()


def test_a_version_is_cut_with_the_old_rows_unchanged(run):
    r = run["report"]
    assert r.base == "2026-11-01" and r.version == run["expected_version"]
    assert [x.version for x in data.releases(run["root"])] == ["2026-11-01", r.version]
    new = run["root"] / r.version
    for name, old in run["before"].items():
        if name.endswith(".csv"):
            assert new.joinpath(name).read_bytes()[: len(old)] == old, name
    for table, df in r.added.items():
        assert data.load(table, r.version, run["root"]).height == (
            data.load(table, "2026-11-01", run["root"]).height + df.height
        )
    pkg = json.loads((new / "datapackage.json").read_text())
    assert pkg["previous_version"] == "2026-11-01"
    assert {i["path"] for i in pkg["raw_inputs"]} >= {
        "openrouter-sui414/2026-08-08_HEAD/data/csv/models/date=2026-08-08.csv"
    }
    assert not any(p.name.startswith(".") for p in run["root"].iterdir())


def test_a_changed_litellm_price_is_a_new_row_and_an_unchanged_one_is_not(run):
    served = run["served"] / "litellm-prices-rocry-mirror"
    old = json.loads((run["tmp"] / "base-sources/litellm-prices-rocry-mirror"
                      / BASE["litellm-prices-rocry-mirror"][0]).read_text())  # fmt: skip
    new = json.loads((served / SERVED["litellm-prices-rocry-mirror"][0]).read_text())
    key = "mistral/mistral-medium-latest"
    assert (old[key]["input_cost_per_token"], new[key]["input_cost_per_token"]) == (4e-07, 1.5e-06)

    def costs(entry: dict) -> dict:
        return {k: v for k, v in entry.items() if "cost" in k}

    # The moving alias now costs what the new snapshot's own key costs: one fact, two keys.
    assert costs(new[key]) == costs(new["mistral/mistral-medium-2604"])
    assert costs(old["gpt-4o"]) == costs(new["gpt-4o"])  # every price of gpt-4o as it was
    links = data.load("observations", run["report"].version, run["root"])
    row = seen_as(added(run, "token_prices"), links, "litellm-rocry", key)
    assert row.height == 1 and row["input_usd_per_mtok"][0] == pytest.approx(1.5)
    assert row["date"][0] == row["valid_from"][0] == date(2026, 7, 24)
    assert row["valid_to"][0] is None  # the newest snapshot still shows it
    assert row["source_locator_seen"][0].startswith(
        "litellm-prices-rocry-mirror/2026-07-24_model_prices_and_context_window.json@"
    )
    both = seen_as(
        added(run, "token_prices"), links, "litellm-rocry", "mistral/mistral-medium-2604"
    )
    assert both["row_id"].to_list() == row["row_id"].to_list()
    assert seen_as(added(run, "token_prices"), links, "litellm-rocry", "gpt-4o").height == 0
    prev = data.load("token_prices", "2026-11-01", run["root"])
    prev_links = data.load("observations", "2026-11-01", run["root"])
    kept = seen_as(prev, prev_links, "litellm-rocry", key)
    assert kept["input_usd_per_mtok"].to_list() == [pytest.approx(0.4)]  # the old row stays


def test_openrouter_rows_for_changed_prices_and_new_endpoints(run):
    models_csv = run["served"] / "openrouter-sui414" / SERVED["openrouter-sui414"][0]
    listed = {r["id"]: r for r in csv.DictReader(models_csv.open())}
    assert listed["tencent/hy3"]["prompt_price"] == "0.000000132"  # 0.0000002 on 2026-07-17
    tp = added(run, "token_prices").filter(pl.col("source_id") == "openrouter-sui414")
    own = tp.filter(pl.col("provider") == "openrouter")
    hy3 = own.filter(pl.col("source_model_name") == "tencent/hy3")
    assert hy3["input_usd_per_mtok"].to_list() == [pytest.approx(0.132)]
    assert hy3["date"].to_list() == [date(2026, 8, 8)]
    # Same price on both days: the day-one row stands for it.
    assert own.filter(pl.col("source_model_name") == "kwaipilot/kat-coder-air-v2.5").height == 0
    # The endpoint listing is new: its per-provider prices are new rows (tencent/hy3 at baidu).
    baidu = tp.filter(
        (pl.col("source_model_name") == "tencent/hy3") & (pl.col("provider") == "baidu")
    )
    assert baidu["input_usd_per_mtok"].to_list() == [pytest.approx(0.132)]


def test_simonw_rows_only_where_the_price_history_changed(run):
    tp = added(run, "token_prices").filter(pl.col("source_id") == "simonw-llm-prices")
    served = run["served"] / "llm-prices-simonw"
    anthropic = json.loads((served / "2026-08-05_data/anthropic.json").read_text())
    base = run["tmp"] / "base-sources/llm-prices-simonw/2026-07-09_data/anthropic.json"
    assert json.loads(base.read_text()) == anthropic  # unchanged between the snapshots
    assert not set(tp["source_model_name"]) & {m["id"] for m in anthropic["models"]}
    openai = {
        m["id"]: m["price_history"]
        for m in json.loads((served / "2026-08-05_data/openai.json").read_text())["models"]
    }
    before = json.loads((base.parent / "openai.json").read_text())["models"]
    new_ids = set(openai) - {m["id"] for m in before}
    # Every simonw row added is a name the 2026-07-09 file did not list, one per price in its
    # history (`price_history`); prices of names it listed are known.
    assert set(tp["source_model_name"]) == new_ids
    assert tp.height == sum(len(openai[i]) for i in new_ids)
    luna = tp.filter(pl.col("source_model_name") == "gpt-5.6-luna-272k").sort("valid_from")
    hist = openai["gpt-5.6-luna-272k"]
    assert luna["input_usd_per_mtok"].to_list() == [h["input"] for h in hist]  # 2.0, then 0.4
    assert luna["output_usd_per_mtok"].to_list() == [h["output"] for h in hist]
    assert luna["valid_from"][1] == date.fromisoformat(hist[1]["from_date"])
    # GPT-5.6 Luna's cut to 0.20 / 1.20 on 2026-07-30 is in openai.json's history, but the
    # release has that price already (genai-prices' openai.yml): one spell, not a second row.
    assert [h["input"] for h in openai["gpt-5.6-luna"]] == [1.0, 0.2]
    assert "gpt-5.6-luna" not in set(tp["source_model_name"])
    tier = pl.col("context_tier").is_null() & (pl.col("provider") == "openai")
    spells = data.load("token_prices", run["report"].version, run["root"]).filter(
        (pl.col("model_id") == "gpt-5.6-luna") & tier & (pl.col("input_usd_per_mtok") == 0.2)
    )
    assert spells["valid_from"].to_list() == [date(2026, 7, 30)]


def test_the_new_benchmark_file_gives_new_scores(run):
    scores = added(run, "benchmark_scores")
    assert set(scores["source_id"]) == {"epoch-benchmark-stitching"}
    assert set(scores["benchmark"]) == {"gsm8k"}
    gsm8k = (
        run["served"]
        / "epoch-benchmark-stitching/2025-12-03_HEAD/data/external_benchmark_gsm8k.csv"
    )
    rows = list(csv.DictReader(gsm8k.open(encoding="utf-8-sig")))
    assert 0 < scores.height <= len(rows)
    # The locator names the stored file (the view's renamed snapshot folder is undone).
    assert (
        scores["source_locator"]
        .str.starts_with(
            "epoch-benchmark-stitching/2025-12-03_HEAD/data/external_benchmark_gsm8k.csv@f87d3cc8e8a8"
        )
        .all()
    )
    # Every added score and price names a model the new version has.
    models = set(data.load("models", run["report"].version, run["root"])["model_id"])
    assert set(scores["model_id"]) <= models
    assert set(added(run, "token_prices")["model_id"]) <= models


def test_a_second_update_from_the_raw_store_finds_nothing_new(run):
    report = update.update(
        root=run["root"], from_dir=run["tmp"] / "raw", console=Console(quiet=True)
    )
    assert report.version is None
    assert all(df.height == 0 for df in report.added.values())
    assert data.latest_version(run["root"]) == run["report"].version


def test_update_from_the_sources_the_release_was_built_from_adds_nothing(sources_dir, tmp_path):
    """The committed release, updated from the raw sources it was built from: nothing new."""
    root = tmp_path / "data"
    root.mkdir()
    latest = data.latest_version()
    shutil.copytree(DATA_DIR / latest, root / latest)
    shutil.copyfile(DATA_DIR / "versions.json", root / "versions.json")
    report = update.update(root=root, from_dir=sources_dir, console=Console(quiet=True))
    assert report.errors == []
    assert {t: df.height for t, df in report.added.items() if df.height} == {}
    assert report.version is None


def test_merge_observations_keeps_old_rows_and_adds_only_changes():
    """A synthetic series: 1.0 on day 1 (released), then 1.0, 2.0, 2.0, 1.0 observed."""
    from analysis.data.schema import TABLES

    cols = TABLES["fx_rates"].column_names
    prev = pl.DataFrame(
        [("CNY", date(2026, 1, 1), 1.0, "fred-fx-datasets", "a#1")], schema=cols, orient="row"
    )
    new = pl.DataFrame(
        [
            ("CNY", date(2026, 1, 1), 9.0, "fred-fx-datasets", "b#1"),  # a revision: ignored
            ("CNY", date(2026, 2, 1), 1.0, "fred-fx-datasets", "b#2"),
            ("CNY", date(2026, 3, 1), 2.0, "fred-fx-datasets", "b#3"),
            ("CNY", date(2026, 4, 1), 2.0, "fred-fx-datasets", "b#4"),
            ("CNY", date(2026, 5, 1), 1.0, "fred-fx-datasets", "b#5"),
        ],
        schema=cols,
        orient="row",
    )
    prev = prev.cast(TABLES["fx_rates"].polars_schema)
    new = new.cast(TABLES["fx_rates"].polars_schema)
    out = update.merge_observations({"fx_rates": prev}, {"fx_rates": new})["fx_rates"]
    assert out.head(1).equals(prev)
    assert out["month"].to_list()[1:] == [date(2026, 3, 1), date(2026, 5, 1)]
    assert update.revised("fx_rates", prev, new) == 1


def test_check_whole_names_the_file():
    update.check_whole("a.json", b'{"a": 1}')
    for name, body in [("a.json", b'{"a": '), ("b.csv", b"x,y\n1,2\n3"), ("c.yml", b"a: [1,")]:
        with pytest.raises(update.SourceError, match=f"{name} does not parse"):
            update.check_whole(name, body)


def test_an_importer_that_fails_is_one_line_and_the_rest_still_count(sources_dir, tmp_path):
    """OpenRouter's endpoints need the model list of the same day: offer a mismatched pair."""
    store = tmp_path / "raw"
    files = {
        "openrouter-sui414": [
            "2026-08-08_HEAD/data/csv/models/date=2026-07-17.csv",
            "2026-08-08_HEAD/data/csv/endpoints/date=2026-08-08.csv",
        ],
        "fx-usd-exchange-rates": ["2026-07-21_HEAD/data/monthly.csv"],
        "cpi-us": ["2026-07-01_HEAD/data/cpiai.csv"],
    }
    copy_sources(sources_dir, store, files)
    root = tmp_path / "data"
    root.mkdir()
    latest = data.latest_version()
    shutil.copytree(DATA_DIR / latest, root / latest)
    shutil.copyfile(DATA_DIR / "versions.json", root / "versions.json")
    ups = [update.BY_FOLDER[f] for f in files]
    report = update.update(root=root, from_dir=store, upstreams=ups, console=Console(quiet=True))
    assert list(report.skipped) == ["openrouter"]
    assert report.skipped["openrouter"].startswith("failed: ")
    assert "endpoints need the model list of the same date" in report.skipped["openrouter"]
    assert report.imported == {"fred": 2572}  # 1212 exchange rates and 1360 CPI months
    assert report.version is None  # the release already has every FX and CPI month
