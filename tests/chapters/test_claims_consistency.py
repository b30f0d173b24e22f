"""One verdict across the book: every sentence of a chapter that discusses a digest claim and
words a verdict ("supported", "contradicted", "cannot be tested", "neither confirm nor refute")
agrees with the claims ledger.

Each page is read as it renders: its setup cell runs, and every inline `{python} ...` value is
replaced by its text, so a verdict a chapter module words in a quote is read too. A sentence (one
line of the page; the book writes one sentence per line) discusses a claim when it holds the
claim's own words, or a phrase of `MENTIONS`; a sentence that words a verdict but names no claim
("The data cannot test this.") discusses the claims of the sentence before it in its paragraph.
The section that states the verdict rule (`RULE_SECTIONS`) names claims as examples and is not
read.
"""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from analysis import evidence
from analysis.book import notebook
from analysis.data import workloads
from analysis.data.paths import ROOT
from analysis.methods import claims as rule
from analysis.report import verdicts

# Phrases a sentence words a verdict with, each read as the ledger's verdict; the first that
# matches decides (so "not supported" and "neither confirm nor refute" are read before
# "supported" and "confirm").
WORDING = [
    (
        re.compile(
            r"neither confirm nor refute|cannot be (tested|settled)|can ?not test|"
            r"cannot be checked|untestable",
            re.I,
        ),
        rule.UNTESTABLE,
    ),
    (re.compile(r"\bcontradict", re.I), rule.CONTRADICTED),
    (re.compile(r"partly supported|only partly", re.I), rule.PARTLY),
    (re.compile(r"\bsupported\b|\bconfirm(s|ed)\b", re.I), rule.SUPPORTED),
]

# Phrases that name a claim where a sentence does not quote its words.
MENTIONS = {
    "deepseek-api-price-rise": r"DeepSeek'?s? (API )?prices.*\b(rose|raised|rise)",
    "sub-cent-token-rates": r"below 1 cent|sub-cent",
    "open-model-provider-spread": r"same open model",
    "deepseek-batch-routing-saving": r"halve bills|saving of .* from routing",
    "gemini-3.8-flash-price-doubling": r"the digests' doubling",
    "deepseek-flash-idle-price-cny": r"yuan price of the Flash models",
    "glm-5.3-flash-discount": r"launch discount",
    "coreweave-mlperf-v6.0-gain": r"previous generations",
    "epoch-fixed-capability-decline": r"13x per year|fixed AI capability",
    "deepseek-flash-idle-price-usd": r"converted price|digest's conversion",
    "glm-5.3-flash-price": r"GLM-5\.3-Flash",
    "cisco-first-multivendor-mlperf": r"Cisco's \"first",
    "tpu-v7-perf-per-dollar": r"Ironwood",
    "mlperf-training-v61-rl-gpus": r"Training v6\.1's reinforcement",
    "agent-bill-output-share": r"bill share|output and reasoning tokens are",
    "opus-5-vs-grok-4.6-cost": r"cost ratio",
    "anthropic-openai-cuts-hours-apart": r"within hours of each other",
    "h100-cloud-price-settled": r"\bthe level is\b",
    "h100-cloud-price-drawdown": r"\bthe drawdown is\b",
}

# Claims whose pages state the evidence's own figures (percentages): a sentence that discusses one
# states only the claim's number and the ledger evidence's (its value, low and high, each to the
# precision the page prints it), or names the workload its own figure is for (a preset's name),
# so two pages cannot give two typical savings for one claim without saying whose each is.
FIGURES = {"deepseek-batch-routing-saving"}
PERCENT = re.compile(r"(\d+(?:\.\d+)?)%")
WORKLOAD_NAMES = [workloads.read(p).name for p in sorted(workloads.WORKLOADS_DIR.glob("*.yaml"))]

# Sections that state the verdict rule, whose examples name claims without judging them.
RULE_SECTIONS = {"sec-claims-ledger-rule"}
HEADING = re.compile(r"^#+ .*\{#(sec-[\w-]+)")

INLINE = re.compile(r"`\{python\}\s+([^`]+)`")
FENCE = re.compile(r"^```")


def rendered_lines(qmd: Path) -> list[str]:
    """The page's prose lines with every inline value replaced by its text (its setup cell run
    first; code cells left out)."""
    text = qmd.read_text(encoding="utf-8")
    cells = re.findall(r"^```\{python\}\n(.*?)^```", text, flags=re.S | re.M)
    names: dict = {}
    if cells:
        exec(compile(cells[0], str(qmd), "exec"), names)  # the page's own setup cell
    lines, in_code = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            in_code = not in_code
            lines.append("")
            continue
        if in_code:
            lines.append("")
            continue
        lines.append(INLINE.sub(lambda m: str(eval(m.group(1), names)), line))
    return lines


def wording(sentence: str) -> str | None:
    """The verdict a sentence words, if any (`WORDING`)."""
    for pattern, verdict in WORDING:
        if pattern.search(sentence):
            return verdict
    return None


def claims_named(sentence: str, claim_texts: dict[str, str]) -> set[str]:
    """The claims a sentence names: by their own words, or a phrase of `MENTIONS`. Words two
    claims share ("stabilized at $2.85-3.50/hr after a 64-75% drawdown") name both, unless a
    phrase of `MENTIONS` in the sentence says which."""
    by_words = {cid for cid, words in claim_texts.items() if words in sentence}
    by_phrase = {cid for cid, pattern in MENTIONS.items() if re.search(pattern, sentence)}
    if by_phrase:
        shared = {c for c in by_words if list(claim_texts.values()).count(claim_texts[c]) > 1}
        by_words -= shared
    return (by_words | by_phrase) & set(claim_texts)


def disagreements(lines: list[str], ledger: pl.DataFrame, page: str) -> list[str]:
    """Each sentence whose worded verdict differs from the ledger's for a claim it discusses,
    as `page:line: claim: page says X, ledger says Y`."""
    verdicts = dict(zip(ledger["claim_id"], ledger["verdict"], strict=True))
    texts = dict(zip(ledger["claim_id"], ledger["claim"], strict=True))
    out, previous, section = [], set(), ""
    for n, line in enumerate(lines, start=1):
        heading = HEADING.match(line)
        if heading:
            section = heading.group(1)
        if not line.strip() or section in RULE_SECTIONS:
            previous = set()
            continue
        named = claims_named(line, texts)
        worded = wording(line)
        if worded:
            for cid in sorted(named or previous):
                if verdicts[cid] != worded:
                    out.append(
                        f"{page}:{n}: {cid}: the page says {worded!r}, the ledger "
                        f"{verdicts[cid]!r}: {line.strip()[:160]}"
                    )
        previous = named or previous
    return out


def _printed_as(x: str, value: float | None) -> bool:
    """`x` (a percentage as printed: "17", "17.2") is `value` rounded to the digits printed."""
    if value is None:
        return False
    decimals = len(x.partition(".")[2])
    return abs(float(x) - value) <= 0.5 * 10**-decimals + 1e-9


def figure_disagreements(lines: list[str], ledger: pl.DataFrame, page: str) -> list[str]:
    """Each sentence discussing a claim of `FIGURES` (by name, or following a sentence of its
    paragraph that names it) that prints a percentage which is neither the claim's number nor
    one of the ledger evidence's, and names no workload, as `page:line: claim: ...`."""
    rows = {r["claim_id"]: r for r in ledger.iter_rows(named=True)}
    texts = {cid: r["claim"] for cid, r in rows.items()}
    out, previous = [], set()
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            previous = set()
            continue
        named = claims_named(line, texts)
        for cid in sorted((named or previous) & FIGURES):
            r = rows[cid]
            known = [r[k] for k in ("claimed", "claimed_high", "evidence_value", "evidence_low", "evidence_high")]  # fmt: skip
            stray = [x for x in PERCENT.findall(line) if not any(_printed_as(x, v) for v in known)]
            if stray and not any(name in line for name in WORKLOAD_NAMES):
                out.append(
                    f"{page}:{n}: {cid}: {', '.join(x + '%' for x in stray)} is not the ledger's "
                    f"evidence ({r['evidence_value']:.3g}%, {r['evidence_high']:.3g}%) and the "
                    f"sentence names no workload it is for: {line.strip()[:160]}"
                )
        previous = named or previous
    return out


@pytest.fixture(scope="module")
def ledger() -> pl.DataFrame:
    return evidence.ledger()


PAGES = [ROOT / "index.qmd", *sorted((ROOT / "chapters").glob("*.qmd"))]


@pytest.mark.parametrize("qmd", PAGES, ids=[p.stem for p in PAGES])
def test_every_page_words_the_ledgers_verdict(qmd, ledger):
    found = disagreements(rendered_lines(qmd), ledger, qmd.name)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("qmd", PAGES, ids=[p.stem for p in PAGES])
def test_every_page_states_the_ledgers_figures_or_names_its_workload(qmd, ledger):
    found = figure_disagreements(rendered_lines(qmd), ledger, qmd.name)
    assert not found, "\n".join(found)


QUOTE = re.compile(r"`\{python\}\s+q\.([a-z_][a-z0-9_]*)`")


# The pages that quote a verdict (`verdicts.PAGE_VERDICTS`): on any other page the test below
# has nothing to look for, and running its setup cell cost up to 25 s CPU (the data-versions
# appendix runs the estimate registry on every release).
QUOTING = [p for p in PAGES if notebook.chapter_slug(p) in verdicts.PAGE_VERDICTS]


def test_every_page_that_quotes_verdicts_is_read():
    slugs = {notebook.chapter_slug(p) for p in QUOTING}
    assert slugs == set(verdicts.PAGE_VERDICTS), set(verdicts.PAGE_VERDICTS) - slugs


@pytest.mark.parametrize("qmd", QUOTING, ids=[p.stem for p in QUOTING])
def test_every_quoted_verdict_is_read_for_its_claim(qmd, ledger):
    """A sentence quoting the ledger's verdict of a claim (`verdicts.PAGE_VERDICTS`) is one the
    test reads for that claim: it names the claim, or follows a sentence of its paragraph that
    does; else a typed verdict in its place would go unchecked."""
    quoted = verdicts.PAGE_VERDICTS[notebook.chapter_slug(qmd)]
    texts = dict(zip(ledger["claim_id"], ledger["claim"], strict=True))
    raw = qmd.read_text(encoding="utf-8").splitlines()
    unread, previous = [], set()
    for n, (source, line) in enumerate(zip(raw, rendered_lines(qmd), strict=True), start=1):
        if not line.strip():
            previous = set()
            continue
        named = claims_named(line, texts)
        claims = [quoted[name][0] for name in QUOTE.findall(source) if name in quoted]
        unread += [f"{qmd.name}:{n}: {c}" for c in claims if c not in (named or previous)]
        previous = named or previous
    assert not unread, "\n".join(unread)


def test_a_contradictory_sentence_in_a_copy_of_a_chapter_fails(ledger, tmp_path):
    """The quality-adjusted chapter's old wording ("can neither confirm nor refute" the DeepSeek
    rise), put back in a temporary copy of the page, is found."""
    page = ROOT / "chapters" / "quality-adjusted.qmd"
    claim = ledger.filter(pl.col("claim_id") == "deepseek-api-price-rise").row(0, named=True)
    assert claim["verdict"] != rule.UNTESTABLE
    copy = tmp_path / page.name
    copy.write_text(
        page.read_text(encoding="utf-8")
        + f'\nThe digest says "{claim["claim"]}", which this release can neither confirm nor '
        "refute.\n",
        encoding="utf-8",
    )
    found = disagreements(rendered_lines(copy), ledger, copy.name)
    assert len(found) == 1
    assert "deepseek-api-price-rise: the page says 'cannot be tested with this data'" in found[0]
    print("\n".join(found))  # shown with pytest -s


def test_the_wording_and_the_naming_rules():
    texts = {"c": "Cisco also published the industry's first", "d": "raised 2.3-4.5x"}
    assert wording("The data cannot test this.") == rule.UNTESTABLE
    assert wording("it can neither confirm nor refute it") == rule.UNTESTABLE
    assert wording("the claim is contradicted") == rule.CONTRADICTED
    assert wording("a claim partly supported by") == rule.PARTLY
    assert wording("the claim is supported") == rule.SUPPORTED
    assert wording("the price fell") is None
    assert claims_named("they said raised 2.3-4.5x", texts) == {"d"}
    # A verdict with no claim named reads the claims of the sentence before it.
    ledger = pl.DataFrame(
        {"claim_id": ["c", "d"], "claim": list(texts.values()), "verdict": [rule.UNTESTABLE] * 2}
    )
    lines = ['*"raised 2.3-4.5x".*', "The data confirms this."]
    assert disagreements(lines, ledger, "p") == [
        "p:2: d: the page says 'supported', the ledger 'cannot be tested with this data': "
        "The data confirms this."
    ]
    assert disagreements(["", "The data confirms this."], ledger, "p") == []


def _copy_with(page: Path, old: str, new: str, tmp_path: Path) -> Path:
    """A temporary copy of `page` with one sentence replaced."""
    text = page.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    copy = tmp_path / page.name
    copy.write_text(text.replace(old, new), encoding="utf-8")
    return copy


def test_a_contradictory_spread_verdict_in_a_copy_of_the_summary_fails(ledger, tmp_path):
    """The summary quotes the spread claim's verdict from the report layer; a typed verdict that
    disagrees, in a temporary copy of the page, is found."""
    row = ledger.filter(pl.col("claim_id") == "open-model-provider-spread").row(0, named=True)
    assert row["verdict"] == rule.SUPPORTED
    copy = _copy_with(
        ROOT / "index.qmd",
        "rates it `{python} q.spread_verdict`",
        "rates it contradicted",
        tmp_path,
    )
    assert disagreements(rendered_lines(ROOT / "index.qmd"), ledger, "index.qmd") == []
    found = disagreements(rendered_lines(copy), ledger, copy.name)
    assert len(found) == 1
    assert (
        "open-model-provider-spread: the page says 'contradicted', the ledger 'supported'"
        in (found[0])
    )
    print("\n".join(found))  # shown with pytest -s


def test_a_typical_saving_without_its_workload_in_a_copy_of_a_page_fails(ledger, tmp_path):
    """The workload page's own typical routing saving (the chat assistant's), put in the claim's
    sentence without naming its workload, is found; the ledger's figure there is not."""
    page = ROOT / "chapters" / "workload-costs.qmd"
    old = next(
        line
        for line in page.read_text(encoding="utf-8").splitlines()
        if "q.routing_verdict" in line
    )
    bad = (
        "The digests' saving of `{python} q.claim_routing` from routing is the bound; routing "
        "typically saves `{python} q.routing_typical`, and the claims ledger rates the claim "
        "`{python} q.routing_verdict`."
    )
    good = bad.replace("q.routing_typical", "q.routing_ledger_typical")
    found = figure_disagreements(
        rendered_lines(_copy_with(page, old, bad, tmp_path)), ledger, page.name
    )
    assert len(found) == 1 and "deepseek-batch-routing-saving: 14% is not the ledger's" in found[0]
    print("\n".join(found))  # shown with pytest -s
    assert (
        figure_disagreements(
            rendered_lines(_copy_with(page, old, good, tmp_path)), ledger, page.name
        )
        == []
    )
