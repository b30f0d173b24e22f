"""Tests of analysis.chapters.claims_ledger: this page's evidence on hand-made frames and on the
release (each verdict follows from evidence worked out here from the release rows), the collector,
the bounds table against the claims' words, what the page prints, the figure kit's CSV and
`python -m analysis claims`."""

from __future__ import annotations

import csv
import io
import json
from datetime import date

import polars as pl
import pytest

from analysis import evidence
from analysis.__main__ import main
from analysis.book import notebook
from analysis.chapters import claims_ledger as cl
from analysis.data import release as data
from analysis.data.paths import ROOT
from analysis.methods import claims as rule
from analysis.methods.claims import Evidence, verdict
from analysis.report import results, verdicts

OWN = {
    "anthropic-openai-cuts-hours-apart",
    "opus-5-vs-grok-4.6-cost",
    "deepseek-2t-model",
    "deepseek-raise",
    "deepseek-revenue-before",
    "deepseek-revenue-after",
    "deepseek-revenue-10x",
}


@pytest.fixture(scope="module")
def claims() -> pl.DataFrame:
    return data.load("claims")


@pytest.fixture(scope="module")
def own() -> dict[str, Evidence]:
    return cl.claim_evidence()


@pytest.fixture(scope="module")
def page() -> cl.ClaimsLedger:
    return cl.compute(evidence.collect())


def _row(claims: pl.DataFrame, cid: str) -> dict:
    return claims.filter(pl.col("claim_id") == cid).row(0, named=True)


# ------------------------------------------------------------------ this page's claims


def test_claim_evidence_gives_exactly_this_pages_claims(own, claims):
    assert set(own) == OWN & set(claims["claim_id"])  # those of them the release holds
    assert all(e.claim_id == cid for cid, e in own.items())
    qmd = (ROOT / cl.PAGE).read_text(encoding="utf-8")
    for e in own.values():
        page, anchor = e.section.split("#")
        assert page == cl.PAGE and f"{{#{anchor}}}" in qmd, e.section


def test_the_opus_grok_claim_is_untestable_because_no_snapshot_holds_both(own, claims):
    aa = data.load("aa_snapshots")
    by_day = aa.filter(pl.col("model_id").is_in(["claude-opus-5", "grok-4.6"])).group_by(
        "snapshot_date"
    )
    both = [day for day, rows in by_day if rows["model_id"].n_unique() == 2]
    e = own["opus-5-vs-grok-4.6-cost"]
    assert both == [] and not e.testable and e.value is None
    assert e.n == 0 and e.window == f"{aa['snapshot_date'].min()} to {aa['snapshot_date'].max()}"
    assert "grok-4.6 is in no table" in e.text
    assert verdict(_row(claims, e.claim_id)["value"], None, e) == rule.UNTESTABLE


def _aa(rows) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=["snapshot_date", "model_id", "index_cost_usd"], orient="row")


def test_index_cost_ratio_is_per_snapshot_over_each_models_median_entry():
    d1, d2 = date(2026, 5, 1), date(2026, 6, 1)
    aa = _aa(
        [
            (d1, "claude-opus-5", 3000.0),  # two entries (reasoning variants): median 2000
            (d1, "claude-opus-5", 1000.0),
            (d1, "grok-4.6", 1000.0),
            (d2, "claude-opus-5", 3500.0),
            (d2, "grok-4.6", 1000.0),
            (d2, "other", 1.0),
            (date(2026, 7, 1), "claude-opus-5", 10.0),  # no Grok this day
        ]
    )
    out = cl.index_cost_ratio(aa, "claude-opus-5", "grok-4.6")
    assert out["snapshot_date"].to_list() == [d1, d2]
    assert out["ratio"].to_list() == [2.0, 3.5]


def test_with_both_models_the_claim_is_tested_on_the_latest_snapshot():
    d1, d2 = date(2026, 5, 1), date(2026, 6, 1)
    aa = _aa(
        [
            (d1, "claude-opus-5", 2000.0),
            (d1, "grok-4.6", 1000.0),
            (d2, "claude-opus-5", 3500.0),
            (d2, "grok-4.6", 1000.0),
        ]
    )
    models = pl.DataFrame({"model_id": ["claude-opus-5", "grok-4.6"]})
    e = cl.opus_grok_evidence(aa, models)
    assert (e.value, e.low, e.high, e.n) == (3.5, 2.0, 3.5, 2)
    assert e.window == "2026-05-01 to 2026-06-01" and "different workload" in e.text
    # 3.6 claimed (a ratio: 10%): the latest 3.5 is within 3.24..3.96.
    assert verdict(3.6, None, e) == rule.SUPPORTED
    low = cl.opus_grok_evidence(aa.filter(pl.col("snapshot_date") == d1), models)
    assert (low.value, low.low, low.n) == (2.0, None, 1)
    assert verdict(3.6, None, low) == rule.CONTRADICTED  # 2.0 < 2.88 = 3.6 * 0.8


def test_the_revenue_headline_against_the_digests_own_figures(own, claims):
    before = _row(claims, "deepseek-revenue-before")
    after = _row(claims, "deepseek-revenue-after")
    assert before["unit"].startswith("million USD") and after["unit"].startswith("billion USD")
    before_usd, after_usd = before["value"] * 10**6, after["value"] * 10**9
    headline = _row(claims, "deepseek-revenue-10x")["value"]
    rise = cl.revenue_rise(claims)
    assert rise["implied_factor"] == pytest.approx(after_usd / before_usd)
    assert rise["before_for_headline_usd"] == pytest.approx(after_usd / headline)
    text = own["deepseek-revenue-10x"].text
    assert f"more than {after_usd / before_usd:g}x, not {headline:g}x" in text
    assert f"${after_usd / headline / 10**6:g}M before" in text
    for cid in ("deepseek-revenue-before", "deepseek-revenue-after", "deepseek-revenue-10x"):
        assert verdict(_row(claims, cid)["value"], None, own[cid]) == rule.UNTESTABLE


def test_the_largest_deepseek_model_named_is_the_release_largest(own):
    models = data.load("models").filter(pl.col("developer") == "deepseek")
    largest = models.sort("parameters_b", descending=True, nulls_last=True).row(0, named=True)
    text = own["deepseek-2t-model"].text
    assert f"{largest['model_id']}, has {largest['parameters_b'] / 1000:g} trillion" in text


def test_every_own_claim_the_data_cannot_test_says_what_would_settle_it(own, claims):
    # The company news has no table in any release; the agent workload and the two cuts are
    # tested where the release holds the leaderboard's bill split and the claim.
    news = {cid for cid in own if cid.startswith("deepseek-") or cid == "opus-5-vs-grok-4.6-cost"}
    for cid, e in own.items():
        r = _row(claims, cid)
        if cid in news:
            assert verdict(r["value"], r["value_high"], e) == rule.UNTESTABLE, cid
        if not e.testable:
            assert "would" in e.text and "settle" in e.text, cid


def test_usd_reads_the_units_power_of_ten():
    assert cl.usd(7.5, "billion USD") == 7.5 * 10**9
    with pytest.raises(ValueError, match="'percent' is not a power of ten of USD"):
        cl.usd(60, "percent")


# ------------------------------------------------------------------ bounds, collector, ledger


def test_the_claim_types_are_the_claims_whose_words_say_so(claims):
    held = set(claims["claim_id"])
    for cid, (kind, words) in rule.CLAIM_TYPES.items():
        assert kind in rule.TYPE_RULES
        if cid in held:
            assert words.lower() in _row(claims, cid)["claim"].lower(), cid
    # "can" and "up to" claims are upper bounds: the most the data show is judged.
    can = claims.filter(pl.col("claim").str.contains(r"\bcan\b|up to"))["claim_id"]
    uppers = {cid for cid, (kind, _) in rule.CLAIM_TYPES.items() if kind == "upper bound"}
    assert set(can) == uppers & held
    # A claim with two numbers is a band unless its words make it a span.
    two = claims.filter(pl.col("value_high").is_not_null())
    types = cl.types(claims)
    assert {types[c] for c in two["claim_id"]} <= {"band", "span"}


def test_every_claim_has_exactly_one_evidence(claims):
    assert set(evidence.collect()) == set(claims["claim_id"])


def test_every_evidence_links_a_section_of_a_page_the_book_renders():
    pages = {p.relative_to(ROOT).as_posix(): p for p in notebook.book_files(ROOT)}
    for cid, e in evidence.collect().items():
        page, _, anchor = e.section.partition("#")
        assert page in pages, f"{cid}: {page} is not a page of the book"
        assert anchor and f"{{#{anchor}" in pages[page].read_text(encoding="utf-8"), (cid, anchor)


def test_the_collector_names_both_pages_of_a_claim_given_twice():
    twice = {"one": cl.claim_evidence, "other": cl.claim_evidence}
    with pytest.raises(ValueError, match="has evidence from both one and other"):
        evidence.collect(providers=twice)


def test_the_collector_names_the_page_that_files_evidence_under_another_id():
    own = cl.claim_evidence()
    cid, first = next(iter(own.items()))
    other = next(c for c in own if c != cid)
    with pytest.raises(
        ValueError, match=f"misfiled: evidence filed under '{other}' is for '{cid}'"
    ):
        evidence.collect(providers={"misfiled": lambda version: {other: first}})


def test_the_ledger_is_one_row_per_claim_with_the_rules_verdict(claims):
    out = evidence.ledger()
    assert out["claim_id"].to_list() == claims["claim_id"].to_list()
    found = evidence.collect()
    types = cl.types(claims)
    for r in out.iter_rows(named=True):
        e = found.get(r["claim_id"])
        tol = rule.tolerance_for(r["unit"])[0]
        expected = verdict(r["claimed"], r["claimed_high"], e, types[r["claim_id"]], tol)
        assert r["verdict"] == expected
        assert r["claim_type"] == types[r["claim_id"]] and r["tolerance"] == tol
    sources = data.load("sources")
    digests = dict(zip(sources["source_id"], sources["retrieved"], strict=True))
    assert out["digest_date"].to_list() == [digests[s] for s in claims["source_id"]]


# ------------------------------------------------------------------ what the page prints


def test_the_counts_the_page_prints(page, claims):
    t = page.q.texts()
    verdicts = page.ledger["verdict"].to_list()
    assert t["n_claims"] == f"{claims.height}"
    assert t["n_digests"] == f"{claims['digest_file'].n_unique()}"
    counts = [verdicts.count(v) for v in rule.VERDICTS]
    assert [t[k] for k in ("n_supported", "n_partly", "n_contradicted", "n_untestable")] == [
        f"{n}" for n in counts
    ]
    assert sum(counts) == claims.height
    no_evidence = claims.height - len(evidence.collect())
    if not no_evidence:  # never empty: Quarto would print an empty inline value as code
        assert t["missing"] == "Every claim has its evidence from a chapter in this rendering."
    if no_evidence:
        assert t["missing"].startswith(f"In this rendering {no_evidence} claims")
    assert t["tolerance"] == "10%" and t["partly_band"] == "2"  # TOLERANCE, PARTLY_BAND
    assert t["rule_supported"] == rule.rule()[rule.SUPPORTED]
    assert "\u201cbelow 1 cent\u201d (ceiling)" in t["typed_words"]
    assert "\u201craised 2.3\u20134.5x\u201d (span)" in t["typed_words"]
    assert "\u201ccan reportedly halve bills\u201d (upper bound)" in t["typed_words"]


def test_the_table_and_the_memo_rows(page, claims):
    assert page.table.height == claims.height
    first = page.table.row(0, named=True)
    assert first["claim"] == f"\u201c{claims['claim'][0]}\u201d"
    # The first claim, the agent bill share, is judged on the measured leaderboard run in the
    # ledger's own agent section (the workload page's preset is quoted there, not judged), named
    # by the title chapters/claims-ledger.qmd's front matter gives it.
    title = "The digests' claims, checked"
    assert first["section"] == f"[{title}](claims-ledger.html#sec-claims-ledger-agent)"
    memo_claims = [f"\u201c{_row(claims, cid)['claim']}\u201d" for cid in cl.MEMO_CLAIMS]
    assert page.memo["claim"].to_list() == memo_claims


def test_display_texts():
    assert cl.claimed_text(2.85, 3.5, "USD per GPU-hour", "band") == "2.85 to 3.5 USD per GPU-hour"
    assert cl.claimed_text(0.01, None, "USD", "ceiling") == "< 0.01 USD"
    assert cl.claimed_text(50, None, "percent", "upper bound") == "up to 50 percent"
    row = {
        "evidence_value": 2.4123,
        "evidence_low": 1.9,
        "evidence_high": 3.1,
        "evidence_n": 1200,
        "evidence_window": "2026-09-01 to 2026-10-31",
        "evidence": "Median of rows.",
        "claim_type": "point",
        "tolerance": 0.1,
        "like_for_like": "",
        "estimate_id": "",
    }
    assert (
        cl.evidence_text(row)
        == "2.41 (1.90 to 3.10); n = 1,200; 2026-09-01 to 2026-10-31. Median of rows. "
        "Judged as a point, tolerance 10%."
    )
    same = {**row, "evidence_low": 2.0, "evidence_high": 2.0, "evidence_value": 2.0}
    assert cl.evidence_text(same).startswith("2.00; n = 1,200;")  # a point interval: no range
    assert cl.section_link("chapters/price-war.qmd#sec-x") == "[price-war](price-war.html#sec-x)"
    titled = cl.section_link("chapters/price-war.qmd#sec-x", {"price-war": "The price war"})
    assert titled == "[The price war](price-war.html#sec-x)"
    assert cl.section_link("") == ""


def test_the_figure_kit_csv_is_the_ledger(page, tmp_path, monkeypatch):
    from analysis.book.show import show
    from analysis.figures import claims as fig

    monkeypatch.setenv("BOOK_FIGURE_KIT", str(tmp_path))
    monkeypatch.setenv("BOOK_CHAPTER", cl.SLUG)
    show(fig.ratio_chart(page.chart, page.bands, page.verdicts), "claims-ledger-ratios")
    folder = tmp_path / cl.SLUG
    rows = list(csv.DictReader(io.StringIO((folder / "claims-ledger-ratios.csv").read_text())))
    assert [r["claim_id"] for r in rows] == page.ledger["claim_id"].to_list()
    assert [r["verdict"] for r in rows] == page.ledger["verdict"].to_list()
    assert list(rows[0]) == list(rule.LEDGER_SCHEMA)
    record = json.loads((folder / "claims-ledger-ratios.json").read_text())
    assert record["data_version"] == page.version


def test_the_command_line_prints_one_csv_row_per_claim(claims, capsys):
    assert main(["claims"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["claim_id"] for r in rows] == claims["claim_id"].to_list()
    assert list(rows[0]) == list(rule.LEDGER_SCHEMA)
    assert {r["verdict"] for r in rows} <= set(rule.VERDICTS)


# ------------------------------------------------------------------ the agent bill share


def test_bill_share_is_output_over_input_plus_output_per_entry():
    d1, d2 = date(2026, 6, 1), date(2026, 7, 10)
    aa = pl.DataFrame(
        {
            "snapshot_date": [d1, d2, d2, d2],
            "model_id": ["a", "a", "b", "c"],
            "index_cost_input_usd": [50.0, 40.0, 1.0, None],
            "index_cost_output_usd": [50.0, 60.0, 3.0, 9.0],  # c has no split: left out
        }
    )
    e = cl.bill_share_evidence(aa)
    # The newest snapshot: 60% and 75%, median 67.5; the earlier one's median 50.
    assert e.value == pytest.approx(67.5) and e.n == 2 and e.window == "2026-07-10"
    assert "run 50% to 68%" in e.text and e.testable
    claim = {"claim_id": "agent-bill-output-share", "value": 60.0, "value_high": None}
    # 67.5 > 66 = 60 * 1.1 but within 72 = 60 * 1.2: partly supported.
    assert rule.claim_verdict({**claim, "unit": "percent"}, e) == rule.PARTLY


def test_without_the_split_the_bill_share_says_which_fields_would_test_it():
    aa = pl.DataFrame({"snapshot_date": [date(2026, 7, 10)], "model_id": ["a"]})
    e = cl.bill_share_evidence(aa)
    assert not e.testable and "intelligence_index_cost_input" in e.text


def test_bill_share_from_the_leaderboard_files_by_hand(sources_dir):
    """The importer keeps AA's split: the newest snapshot's median share, read from the raw
    file by hand, is the evidence's value."""
    import statistics
    from pathlib import Path

    from analysis.data.importers import aa_leaderboards

    raw = json.loads(
        (Path(sources_dir) / "aa-leaderboards-oolong" / "2026-07-10_llms.json").read_text()
    )
    by_hand = []
    for m in raw["models"]:
        p = m["pricing"]
        i, o = p.get("intelligence_index_cost_input"), p.get("intelligence_index_cost_output")
        if i is not None and o is not None and i + o > 0:
            by_hand.append(100 * o / (i + o))
    built = aa_leaderboards.build(Path(sources_dir))["aa_snapshots"]
    e = cl.bill_share_evidence(built)
    assert e.window == "2026-07-10" and e.n == len(by_hand)
    assert e.value == pytest.approx(statistics.median(by_hand))


# ------------------------------------------------------------------ the missing claim


def test_the_cuts_claim_is_imported_verbatim_with_its_digest_line():
    from analysis.data.importers import digests
    from analysis.data.paths import SHARED_SEEDS

    if not SHARED_SEEDS.exists():
        pytest.skip(f"seeds not found at {SHARED_SEEDS}")
    rows = {r["claim_id"]: r for r in digests.claim_rows(SHARED_SEEDS)}
    r = rows[cl.CUTS_CLAIM]
    text = (SHARED_SEEDS / r["digest_file"]).read_text(encoding="utf-8").splitlines()
    line = int(r["source_locator"].rsplit(" ", 1)[1])
    assert r["claim"] in text[line - 1] and line == 9  # the headline of its story
    assert (r["value"], r["value_high"]) == (1, None) and rule.tolerance_for(r["unit"])[0] == 0
    assert rule.claim_type(cl.CUTS_CLAIM, None) == "ceiling"


def test_the_two_cuts_are_dated_by_their_first_first_party_list_price():
    tp = data.load("token_prices")
    firsts = []
    for provider, model in cl.CUT_MODELS.items():
        rows = tp.filter(
            pl.col("model_id") == model,
            pl.col("provider") == provider,
            pl.col("price_kind") == "list",
            ~pl.col("source_id").str.starts_with("digest-"),
        )
        firsts.append(rows["date"].min())
    e = cl.cuts_apart_evidence(tp)
    # Both first appear on the aimeter page dated 2026-09-23: zero days apart.
    assert firsts == [date(2026, 9, 23), date(2026, 9, 23)]
    assert e.value == abs((firsts[0] - firsts[1]).days) == 0 and e.n == 2
    claim = {"claim_id": cl.CUTS_CLAIM, "value": 1, "value_high": None, "unit": "days apart"}
    assert rule.claim_verdict(claim, e) == rule.SUPPORTED  # 0 days < 1: within the day
    late = tp.with_columns(
        pl.when(pl.col("model_id") == "gpt-6-sol")
        .then(pl.col("date") + pl.duration(days=2))
        .otherwise(pl.col("date"))
        .alias("date")
    )
    assert rule.claim_verdict(claim, cl.cuts_apart_evidence(late)) == rule.CONTRADICTED


def test_the_agent_bill_share_is_judged_on_measured_runs_not_on_the_preset(claims):
    """The verdict rests on the leaderboard run's measured token counts; the bill calculator's
    preset (whose token counts are the book's illustration) is quoted beside it, never judged:
    a preset share of 90% moves neither the value nor the verdict."""
    measured = cl.bill_share_evidence(results.table("aa_snapshots"))
    values = {"agent_output_and_reasoning_share": 0.9}
    (e,) = cl.workload_evidence(values, (0.85, 0.95), None).values()
    assert (e.claim_id, e.value, e.low, e.high) == (
        cl.BILL_SHARE,
        measured.value,
        measured.low,
        measured.high,
    )
    assert "90% of its bill" in e.text and "85% to 95%" in e.text and cl.PRESET_NOTE in e.text
    claim = _row(claims, cl.BILL_SHARE)
    assert cl.cl.claim_verdict(claim, e) == cl.cl.claim_verdict(claim, measured)
    (no_preset,) = cl.workload_evidence(None, None, "no autumn prices").values()
    assert no_preset.value == measured.value and "coding agent" not in no_preset.text


def test_the_cisco_evidence_names_the_heterogeneous_systems_it_holds():
    """The importers keep a heterogeneous system with its mix ("mi300x+mi325x"); the Cisco
    claim's evidence counts them, whose they are and whether they mix vendors."""
    from analysis.chapters import tokens_per_dollar as tpd

    rows = pl.DataFrame(
        {
            "round": ["v6.0", "v6.0", "v6.1", "v6.1"],
            "submitter": ["Dell_MangoBoost", "Dell_MangoBoost", "Cisco", "Cisco"],
            "system": ["mix", "mix", "hetero", "hetero"],
            "accelerator": ["mi300x+mi325x", "mi300x+mi325x", "mi355x+b200", "mi355x+b200"],
            "source_accelerator_name": ["A (x8), B (x8)"] * 2 + ["C (x8) and D (x8)"] * 2,
        }
    )
    text = tpd.mixed_systems_text(rows)
    assert text.startswith("The release holds 2 heterogeneous systems: Dell_MangoBoost's in v6.0")
    assert "(C (x8) and D (x8); AMD and NVIDIA)" in text
    assert text.endswith("1 of them Cisco's, 1 mixing vendors")
    assert tpd.mixed_systems_text(rows.head(0)).startswith("This release holds no heterogeneous")


def test_a_pages_verdict_quote_is_the_whole_ledgers_row():
    """A page quoting one claim's verdict runs only the pages it needs (evidence._claim), and
    says exactly what the whole ledger says of that claim: verdict and evidence."""
    whole = evidence.ledger()
    quoted = {cid for page in verdicts.PAGE_VERDICTS.values() for cid, _ in page.values()}
    assert len(quoted) >= 10
    for cid in sorted(quoted):
        row = whole.filter(pl.col("claim_id") == cid).row(0, named=True)
        one = evidence._claim(cid, None)
        assert (one["verdict"], one["evidence"]) == (row["verdict"], row["evidence"]), cid


def test_claims_built_in_the_report_layer_are_one_computation_with_the_chapters():
    """The spread and routing claims' evidence is built once (analysis.report.verdicts); the
    price-war chapter gives that same evidence to the ledger, and a page quoting the verdict
    through the report layer alone (the summary, token-prices) gets the whole ledger's row."""
    from analysis.chapters import price_war

    whole = evidence.ledger()
    chapter = price_war.claim_evidence()
    assert set(verdicts.EVIDENCE) == {"open-model-provider-spread", "deepseek-batch-routing-saving"}
    for cid, build in verdicts.EVIDENCE.items():
        assert chapter[cid] == build(results.version())
        row = whole.filter(pl.col("claim_id") == cid).row(0, named=True)
        one = verdicts.row(cid)
        assert (one["verdict"], one["evidence"], one["evidence_value"]) == (
            row["verdict"],
            row["evidence"],
            row["evidence_value"],
        ), cid
    with pytest.raises(LookupError, match="'deepseek-api-price-rise': its evidence is a chapter's"):
        verdicts.row("deepseek-api-price-rise")


def test_a_release_without_the_autumn_sources_keeps_the_report_layers_evidence():
    """On a release the price-war page leaves out (no time-of-use cards), the chapter gives the
    report layer's evidence for the claims built there that the release holds, so the ledger and
    the summary agree: the spread is judged on the release's newest month; the routing claim,
    which that release's claims table lacks, is left out by both."""
    from analysis.chapters import price_war

    old = "2026-12-01"
    if old not in [r.version for r in data.releases()]:
        pytest.skip(f"needs release {old}")
    page = price_war.compute(old)
    assert not page.shown
    spread = page.evidence["open-model-provider-spread"]
    assert spread == verdicts.EVIDENCE["open-model-provider-spread"](old)
    assert spread.testable and spread.value is not None
    assert "deepseek-batch-routing-saving" not in page.evidence
    assert verdicts.batch_routing(old) is None
    assert verdicts.row("deepseek-batch-routing-saving", old) is None
