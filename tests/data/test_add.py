"""`data add`: hand-entered rows with provenance become a new version, or nothing is written.

Each test works on a copy of release 2026-12-01 in a temporary data folder (a base from before
a token_prices column was added, so the cut rewrites that table with the column empty). The
prices entered are real: the aimeter project's pricing page (wangyufeng0615/aimeter,
docs/pricing.md at commit 005ad256, "Updated on 2026-09-23"): Claude Sonnet 5 $2/$10 and "Claude
Fable / Mythos 5.1" $10/$50 per million input/output tokens. No release names a Claude Mythos
5.1 (2026-12-01.2 holds the page's table, as Claude Fable 5.1): that is the model the data does
not know.
"""

from __future__ import annotations

import csv
import json
import shutil
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from analysis.data import add, cut
from analysis.data import release as data
from analysis.data.errors import DataError
from analysis.data.paths import DATA_DIR
from analysis.data.validate import validate_folder

LATEST = "2026-12-01"  # the base release of every test (see the module docstring)
PAGE = (
    "https://github.com/wangyufeng0615/aimeter/blob/005ad256d0533e8b2b52305f525289b5db8ba0ec/"
    "docs/pricing.md"
)
PROVENANCE = {
    "source_title": "aimeter: Pricing and usage verification",
    "source_url": PAGE,
    "accessed": "2026-12-01",
    "entered_by": "test-suite",
}


@pytest.fixture
def root(tmp_path) -> Path:
    """A data folder holding only a copy of the latest release."""
    out = tmp_path / "data"
    out.mkdir()
    shutil.copytree(DATA_DIR / LATEST, out / LATEST)
    rel = next(r for r in data.releases() if r.version == LATEST)
    (out / "versions.json").write_text(json.dumps({"releases": [rel.__dict__]}, indent=2) + "\n")
    return out


def write(path: Path, rows: list[dict]) -> Path:
    header = list(dict.fromkeys(k for r in rows for k in r))
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=header)
        w.writeheader()
        w.writerows(rows)
    return path


def sonnet(**over) -> dict:
    row = {
        "model": "Claude Sonnet 5",
        "provider": "anthropic",
        "date": "2026-09-23",
        "input_usd_per_mtok": "2",
        "output_usd_per_mtok": "10",
        "source_locator": "table row Claude Sonnet 5",
        **PROVENANCE,
    }
    return row | over


def mythos(**over) -> dict:
    row = sonnet(
        model="Claude Mythos 5.1",
        input_usd_per_mtok="10",
        output_usd_per_mtok="50",
        cached_input_usd_per_mtok="0.25",
        source_locator="table row Claude Fable / Mythos 5.1",
        model_name="Claude Mythos 5.1",
        organization="Anthropic",
    )
    return row | over


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under the data folder, hidden ones included, with its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_template_header_is_what_add_reads():
    for table, t in add.TEMPLATES.items():
        header = add.template(table).strip().split(",")
        assert header == t.columns
        assert add.infer_table(header) == table
        assert {"source_title", "source_url", "accessed", "entered_by"} <= set(header)
    assert add.template("token_prices").startswith("model,provider,date,input_usd_per_mtok,")


def test_two_prices_become_a_new_version(root, tmp_path):
    alias = sonnet(model="anthropic/claude-sonnet-5", provider="Anthropic", date="2026-09-24")
    file = write(tmp_path / "prices.csv", [sonnet(), alias])
    before = {p.name: p.read_bytes() for p in (root / LATEST).iterdir()}
    # No --version: the next free name after the latest release (today, or today.N).
    expected = cut.next_version(root)
    out = add.add(file, root=root)

    assert out.version == expected and out.rows == 2 and out.new_models == []
    assert cut.version_key(out.version) > cut.version_key(LATEST)
    assert [r.version for r in data.releases(root)] == [LATEST, expected]
    new = root / expected
    assert validate_folder(new) == []
    # Released rows are never rewritten: the base's rows come first, every value unchanged (the
    # base predates a token_prices column, so that table is rewritten with the column empty).
    for name in before:
        if name.endswith(".csv"):
            table = name.removesuffix(".csv")
            old_rows = data.load(table, LATEST, root)
            new_rows = data.load(table, expected, root).head(old_rows.height)
            assert new_rows.select(old_rows.columns).equals(old_rows), name
    tp = data.load("token_prices", expected, root)
    added = tp.tail(2)
    assert added["model_id"].to_list() == ["claude-sonnet-5", "claude-sonnet-5"]
    assert added["provider"].to_list() == ["anthropic", "anthropic"]
    assert added["input_usd_per_mtok"].to_list() == [2.0, 2.0]
    assert added["output_usd_per_mtok"].to_list() == [10.0, 10.0]
    assert added["source_model_name"].to_list() == ["Claude Sonnet 5", "anthropic/claude-sonnet-5"]
    assert added["currency"].to_list() == ["USD", "USD"]
    assert added["price_kind"].to_list() == ["list", "list"]
    assert tp.height == data.load("token_prices", LATEST, root).height + 2
    # Every row names its source: one sources row, id derived from the URL.
    (sid,) = set(added["source_id"])
    assert sid == add.derive_source_id(PROVENANCE["source_title"], PAGE) == out.new_sources[0]
    assert sid.startswith("hand-github.com-wangyufeng0615-aimeter")
    src = data.load("sources", expected, root).filter(pl.col("source_id") == sid)
    assert src.height == 1 and src["url"][0] == PAGE and src["publisher"][0] == "github.com"
    assert "test-suite" in src["notes"][0]
    assert added["source_locator"][0] == (
        f"{PAGE}; table row Claude Sonnet 5; accessed 2026-12-01; entered by test-suite"
    )
    pkg = json.loads((new / "datapackage.json").read_text())
    assert pkg["version"] == expected and pkg["previous_version"] == LATEST
    # The rule counts of the tables no row was added to are the base's, unchanged.
    base_rules = json.loads((root / LATEST / "datapackage.json").read_text())["flag_rules"]
    untouched = [r for r in base_rules if r["table"] != "token_prices"]
    assert untouched and [r for r in pkg["flag_rules"] if r["table"] != "token_prices"] == untouched


def test_a_row_without_provenance_is_refused_and_nothing_is_written(root, tmp_path):
    rows = [sonnet(), sonnet(entered_by="", date="2026-09-24"), sonnet(accessed="01/12/2026")]
    file = write(tmp_path / "prices.csv", rows)
    before = snapshot(root)
    with pytest.raises(DataError) as err:
        add.add(file, root=root)
    found = {(p.row, p.column) for p in err.value.problems}
    assert found == {(2, "entered_by"), (3, "accessed")}
    assert all(p.file == str(file) for p in err.value.problems)
    assert snapshot(root) == before


def test_a_missing_provenance_column_is_refused(root, tmp_path):
    row = sonnet()
    del row["source_url"]
    with pytest.raises(DataError) as err:
        add.add(write(tmp_path / "prices.csv", [row]), root=root, table="token_prices")
    (p,) = err.value.problems
    assert (p.row, p.column, p.rule) == (None, "source_url", "required column is missing")


def test_an_unknown_model_is_refused_with_the_closest_ids(root, tmp_path):
    file = write(tmp_path / "prices.csv", [sonnet(), mythos()])
    with pytest.raises(DataError) as err:
        add.add(file, root=root)
    (p,) = err.value.problems
    assert (p.row, p.column, p.value) == (2, "model", "Claude Mythos 5.1")
    assert "unknown model" in p.rule and "--new-model" in p.rule
    # claude-mythos-5 is the released id nearest to "claude-mythos-5.1" (one version apart).
    assert "claude-mythos-5" in p.rule


def test_new_model_adds_the_model_with_its_facts(root, tmp_path):
    # The same model under a second name (a dashed id, as an API writes it) is one new model.
    dashed = mythos(model="claude-mythos-5-1", date="2026-09-24")
    file = write(tmp_path / "prices.csv", [mythos(), dashed])
    out = add.add(file, root=root, new_model=True)
    assert out.new_models == ["claude-mythos-5.1"]
    m = data.load("models", out.version, root).tail(1).row(0, named=True)
    assert (m["model_id"], m["name"], m["organization"]) == (
        "claude-mythos-5.1",
        "Claude Mythos 5.1",
        "Anthropic",
    )
    assert m["aliases"] == "Claude Mythos 5.1;claude-mythos-5-1"
    assert m["resolved"] and m["info_source_id"] == out.new_sources[0]
    # The curated columns a build gives a model: its developer, from the organisation.
    assert (m["developer"], m["identified_by"]) == ("anthropic", "source metadata")
    tp = data.load("token_prices", out.version, root).tail(2)
    assert tp["model_id"].to_list() == ["claude-mythos-5.1"] * 2
    assert tp["first_party"].to_list() == [True, True]  # Anthropic's model at Anthropic
    assert tp["cached_input_usd_per_mtok"].to_list() == [0.25, 0.25]


def test_a_new_model_needs_its_name(root, tmp_path):
    file = write(tmp_path / "prices.csv", [mythos(model_name="")])
    with pytest.raises(DataError) as err:
        add.add(file, root=root, new_model=True)
    (p,) = err.value.problems
    assert (p.row, p.column) == (1, "model_name")


def test_bad_values_are_located_in_the_file(root, tmp_path):
    rows = [
        sonnet(),
        sonnet(input_usd_per_mtok="-2", date="2026-09-24"),
        sonnet(date="2026-13-01"),
        sonnet(price_kind="sale", date="2026-09-25"),
    ]
    with pytest.raises(DataError) as err:
        add.add(write(tmp_path / "prices.csv", rows), root=root)
    got = {(p.row, p.column, p.value): p.rule for p in err.value.problems}
    assert set(got) == {
        (2, "input_usd_per_mtok", "-2"),
        (3, "date", "2026-13-01"),
        (4, "price_kind", "sale"),
    }
    assert got[(2, "input_usd_per_mtok", "-2")] == "constraint-error: minimum: must be >= 0"
    assert got[(3, "date", "2026-13-01")].startswith("type-error: must be an ISO date")
    assert got[(4, "price_kind", "sale")].startswith("constraint-error: enum")
    text = str(err.value)
    assert f"{tmp_path / 'prices.csv'}, row 2, column 'input_usd_per_mtok': value '-2'" in text


def test_a_row_the_release_already_has_adds_nothing(root, tmp_path):
    """The same file twice: the second time every row is a fact the release holds, from the
    same source and place, so nothing is added and no version is cut."""
    file = write(tmp_path / "prices.csv", [sonnet()])
    first = add.add(file, root=root)
    before = snapshot(root)
    again = add.add(file, root=root)
    assert again.version == "" and again.rows == 0 and again.merged == 1
    ((row, status, detail),) = [(o.row, o.status, o.detail) for o in again.outcomes]
    assert (row, status) == (1, "merged") and "from this source: nothing added" in detail
    assert snapshot(root) == before and data.latest_version(root) == first.version


def test_a_failure_while_recording_the_release_leaves_nothing(root, tmp_path):
    # versions.json is replaced through versions.json.tmp: a folder there makes that write fail.
    (root / "versions.json.tmp").mkdir()
    before = snapshot(root)
    with pytest.raises(DataError, match="could not record"):
        add.add(write(tmp_path / "prices.csv", [sonnet()]), root=root)
    assert snapshot(root) == before
    assert sorted(p.name for p in root.iterdir()) == [LATEST, "versions.json", "versions.json.tmp"]


def test_gpu_hour_prices_resolve_the_gpu(root, tmp_path):
    row = {
        "gpu": "NVIDIA H100 SXM",
        "provider": "Example Cloud",
        "date": "2026-11-02",
        "pricing": "on-demand",
        "usd_per_gpu_hour": "2.5",
        **PROVENANCE,
    }
    out = add.add(write(tmp_path / "gpu.csv", [row]), root=root, new_provider=True)
    added = data.load("gpu_hour_prices", out.version, root).tail(1).row(0, named=True)
    assert (added["gpu"], added["source_gpu_name"], added["provider"]) == (
        "h100-sxm",
        "NVIDIA H100 SXM",
        "example-cloud",
    )
    assert added["statistic"] == "quote"
    with pytest.raises(DataError) as err:
        add.add(
            write(tmp_path / "gpu2.csv", [row | {"gpu": "Hopper-ish"}]),
            root=root,
            new_provider=True,
        )
    (p,) = err.value.problems
    assert (p.column, p.value) == ("gpu", "Hopper-ish") and "unknown GPU" in p.rule


def test_benchmark_scores_need_a_known_benchmark_or_the_flag(root, tmp_path):
    row = {
        "model": "claude-sonnet-5",
        "benchmark": "GPQA Diamnd",
        "score": "80",
        "unit": "percent",
        "date": "2026-09-23",
        **PROVENANCE,
    }
    with pytest.raises(DataError) as err:
        add.add(write(tmp_path / "b.csv", [row]), root=root)
    (p,) = err.value.problems
    assert p.column == "benchmark" and "gpqa-diamond" in p.rule
    row["benchmark"] = "gpqa-diamond"
    out = add.add(write(tmp_path / "b.csv", [row]), root=root)
    assert data.load("benchmark_scores", out.version, root).tail(1)["model_id"][0] == (
        "claude-sonnet-5"
    )


def test_versions_are_named_by_day_then_n(root):
    from datetime import date, timedelta

    today, n = cut.version_key(LATEST)  # the latest release is the day's n-th
    day = date.fromisoformat(today)
    assert cut.next_version(root, day) == f"{today}.{n + 1}"
    (root / f"{today}.{n + 1}").mkdir()  # a folder without a release still takes the name
    assert cut.next_version(root, day) == f"{today}.{n + 2}"
    assert cut.next_version(root, day + timedelta(days=1)) == (day + timedelta(days=1)).isoformat()
    assert sorted(["2026-12-01.10", "2026-12-01.2", "2026-12-01"], key=cut.version_key) == [
        "2026-12-01",
        "2026-12-01.2",
        "2026-12-01.10",
    ]


def test_cli_prints_the_template_and_refuses_with_located_errors(root, tmp_path, cli):
    t = cli("data", "add", "--template", "gpu_hour_prices")
    assert t.returncode == 0 and t.stdout == add.template("gpu_hour_prices")
    assert "accessed: required" in t.stderr
    file = write(tmp_path / "p.csv", [mythos()])
    r = cli("data", "add", file, "--data-dir", root)
    assert r.returncode == 1
    assert f"{file}, row 1, column 'model': value 'Claude Mythos 5.1': unknown model" in r.stderr
    ok = cli("data", "add", file, "--data-dir", root, "--new-model")
    assert ok.returncode == 0, ok.stderr
    assert "1 token_prices rows added, 0 merged (1 new models, 1 new sources)" in ok.stdout
    assert "row 1: added: added as tp-" in ok.stdout


def test_hand_entered_rows_get_the_curated_columns(root, tmp_path):
    """Row ids, spells, sources, first party and an `observations` row, by the build's curation:
    each hand-entered row stays its own row, in force from its date until the day before the
    offer's next row from the same page (the last: until the page's newest reading)."""
    alias = sonnet(model="anthropic/claude-sonnet-5", date="2026-09-24")
    out = add.add(write(tmp_path / "prices.csv", [sonnet(), alias]), root=root)
    tp = data.load("token_prices", out.version, root).tail(2)
    assert tp["row_id"].str.contains(r"^tp-[0-9a-f]{12}$").all() and tp["row_id"].n_unique() == 2
    assert tp["source_ids"].to_list() == out.new_sources * 2
    assert tp["valid_from"].to_list() == [date(2026, 9, 23), date(2026, 9, 24)]
    assert tp["valid_to"].to_list() == [date(2026, 9, 23), date(2026, 9, 24)]
    assert tp["first_party"].to_list() == [True, True]  # Anthropic's model at Anthropic
    assert tp["flags"].to_list() == [None, None]
    links = data.load("observations", out.version, root)
    mine = links.filter(pl.col("row_id").is_in(tp["row_id"].implode()))
    assert mine["source_name"].to_list() == ["Claude Sonnet 5", "anthropic/claude-sonnet-5"]
    assert mine["source_locator"].to_list() == tp["source_locator"].to_list()
    assert links.height == data.load("observations", LATEST, root).height + 2


def test_hand_entered_rows_are_flagged_by_the_same_rules(root, tmp_path):
    """The anomaly rules judge a hand-entered row beside every released row: input and output
    swapped, and a per-1K price typed as per-1M (1000x every other seller of the model)."""
    swapped = sonnet(input_usd_per_mtok="10", output_usd_per_mtok="2")
    # On 2026-08-05 Azure, Bedrock, Google and OpenRouter price the model too (the release).
    per_1k = sonnet(input_usd_per_mtok="2000", output_usd_per_mtok="10000", date="2026-08-05")
    file = write(tmp_path / "prices.csv", [swapped, per_1k])
    with pytest.raises(DataError) as err:  # 1000x the model's other prices: refused at first
        add.add(file, root=root)
    assert {(p.row, p.column) for p in err.value.problems} == {
        (2, "input_usd_per_mtok"),
        (2, "output_usd_per_mtok"),
    }
    assert "implausible: 1,000x the median 2 of" in err.value.problems[0].rule
    out = add.add(file, root=root, accept_outlier="kept to test the unit_slip rule")
    tp = data.load("token_prices", out.version, root).tail(2)
    # 1000x the model's other prices is also a thousandfold slip (issue 21's rule).
    assert tp["flags"].to_list() == ["output_below_input", "unit_slip;thousandfold_slip"]
    assert tp["source_locator"][1].endswith("; accepted outlier: kept to test the unit_slip rule")
    said = {o.row: (o.status, o.detail) for o in out.outcomes}
    assert said[1][0] == "flagged" and "rule output_below_input (excluded from" in said[1][1]
    assert said[2][0] == "flagged" and "rule unit_slip" in said[2][1]
    pkg = json.loads((root / out.version / "datapackage.json").read_text())
    before = json.loads((root / LATEST / "datapackage.json").read_text())
    count = {(r["rule"], r["table"]): r["flagged"] for r in pkg["flag_rules"]}
    old = {(r["rule"], r["table"]): r["flagged"] for r in before["flag_rules"]}
    assert (
        count[("output_below_input", "token_prices")]
        == old[("output_below_input", "token_prices")] + 1
    )
    assert count[("unit_slip", "token_prices")] == old[("unit_slip", "token_prices")] + 1


def test_a_hand_entered_gpu_quote_gets_its_id_and_flags(root, tmp_path):
    """A marketplace median of one offer rests on that offer alone (thin_median): kept, flagged."""
    row = {
        "gpu": "NVIDIA H100 SXM",
        "provider": "Example Market",
        "date": "2026-11-02",
        "pricing": "marketplace",
        "statistic": "median",
        "offer_count": "1",
        "usd_per_gpu_hour": "2.5",
        **PROVENANCE,
    }
    out = add.add(write(tmp_path / "gpu.csv", [row]), root=root, new_provider=True)
    gp = data.load("gpu_hour_prices", out.version, root).tail(1).row(0, named=True)
    assert gp["row_id"].startswith("gp-") and gp["flags"] == "thin_median"
    assert gp["source_ids"] == out.new_sources[0]
    links = data.load("observations", out.version, root).tail(1).row(0, named=True)
    assert (links["table"], links["row_id"]) == ("gpu_hour_prices", gp["row_id"])


def test_a_hand_entered_gpu_price_has_an_evidence_class(root, tmp_path):
    """Every GPU-hour row needs an evidence class to be read (analysis.data.gpu_evidence): a
    hand-entered quote is its seller's listing, a hand-entered median a marketplace's; a
    statistic that names no class is refused when entered, not when a chapter reads it."""

    quote = {
        "gpu": "NVIDIA H100 SXM",
        "provider": "Example Cloud",
        "date": "2026-11-02",
        "pricing": "on-demand",
        "usd_per_gpu_hour": "2.5",
        **PROVENANCE,
    }
    median = quote | {"pricing": "marketplace", "statistic": "median", "date": "2026-11-03"}
    out = add.add(write(tmp_path / "gpu.csv", [quote, median]), root=root, new_provider=True)
    from analysis.data import gpu_evidence

    rows = gpu_evidence.with_evidence_class(data.load("gpu_hour_prices", out.version, root))
    assert rows.tail(2)["evidence_class"].to_list() == ["observed-listing", "marketplace-median"]
    with pytest.raises(DataError) as err:
        add.add(
            write(tmp_path / "g2.csv", [quote | {"statistic": "p90"}]), root=root, new_provider=True
        )
    (p,) = err.value.problems
    assert (p.row, p.column, p.value) == (1, "statistic", "p90")


# ---- plausibility, duplicates and what the command says (issue 21, items 2-4). The release
# (2026-12-01) holds simonw-llm-prices' Claude Sonnet 5 at Anthropic, $2/$10 from 2026-07-09
# (row read by hand: tp-494d326b8989 in token_prices.csv); another page stating it is a
# duplicate of that fact, not a new row.
OTHER_PAGE = {"source_title": "Another page", "source_url": "https://example.org/sonnet"}


def test_a_released_fact_from_another_page_adds_its_source_not_a_row(root, tmp_path):
    row = sonnet(date="2026-07-09", **OTHER_PAGE)
    out = add.add(write(tmp_path / "p.csv", [row]), root=root)
    assert out.rows == 0 and out.merged == 1
    (o,) = out.outcomes
    assert o.status == "merged" and "tp-494d326b8989" in o.detail
    tp = data.load("token_prices", out.version, root)
    assert tp.height == data.load("token_prices", LATEST, root).height
    links = data.load("observations", out.version, root).tail(1).row(0, named=True)
    assert (links["row_id"], links["source_id"]) == ("tp-494d326b8989", out.new_sources[0])


def test_a_different_value_on_a_released_date_is_a_conflict(root, tmp_path):
    file = write(tmp_path / "p.csv", [sonnet(date="2026-07-09", input_usd_per_mtok="2.5")])
    with pytest.raises(DataError) as err:
        add.add(file, root=root)
    (p,) = err.value.problems
    assert p.rule.startswith("conflict: the release states input_usd_per_mtok 2, ")
    assert "tp-494d326b8989" in p.rule and "--confirm-conflict" in p.rule
    out = add.add(file, root=root, confirm_conflict=True)
    assert out.rows == 1 and out.outcomes[0].status in {"added", "flagged"}


def test_a_misspelt_provider_is_refused_with_the_closest(root, tmp_path):
    with pytest.raises(DataError) as err:
        add.add(write(tmp_path / "p.csv", [sonnet(provider="antropic")]), root=root)
    (p,) = err.value.problems
    assert (p.column, p.value) == ("provider", "antropic")
    assert "closest known: anthropic" in p.rule and "--new-provider" in p.rule


def test_new_model_refuses_a_known_model_written_otherwise(root, tmp_path):
    # The release's token_prices name a row "claude-3-5-haiku-latest" and give it model
    # claude-3.5-haiku (read by hand); without the check --new-model would make
    # claude-3.5-haiku-latest beside it.
    name = "CLAUDE_3_5_HAIKU_LATEST"
    row = sonnet(model=name, input_usd_per_mtok="0.8", output_usd_per_mtok="4", model_name=name)
    with pytest.raises(DataError) as err:
        add.add(write(tmp_path / "p.csv", [row]), root=root, new_model=True)
    (p,) = err.value.problems
    assert (p.column, p.value) == ("model", name)
    assert p.rule.startswith("is model claude-3.5-haiku after normalisation")


def test_cli_says_per_row_what_happened(root, tmp_path, cli):
    rows = [sonnet(date="2026-07-09", **OTHER_PAGE), sonnet(input_usd_per_mtok="10",
            output_usd_per_mtok="2", date="2026-09-21", **OTHER_PAGE)]  # fmt: skip
    r = cli("data", "add", write(tmp_path / "p.csv", rows), "--data-dir", root)
    assert r.returncode == 0, r.stderr
    assert "row 1: merged: the release holds this fact (tp-494d326b8989" in r.stdout
    assert "row 2: flagged: added as tp-" in r.stdout
    assert "flagged by rule output_below_input (excluded from estimates by default)" in r.stdout
    assert "1 token_prices rows added, 1 merged" in r.stdout
    assert "chapters that read token_prices" in r.stdout
    bad = cli("data", "add", write(tmp_path / "q.csv", [sonnet(input_usd_per_mtok="0.002",
              output_usd_per_mtok="0.01")]), "--data-dir", root)  # fmt: skip
    assert bad.returncode == 1 and "a per-1K price?" in bad.stderr and "Traceback" not in bad.stderr
    ok = cli("data", "add", tmp_path / "q.csv", "--data-dir", root, "--accept-outlier", "per 1K")
    assert ok.returncode == 0, ok.stderr


def test_an_accepted_per_1k_price_is_kept_but_flagged(root, tmp_path, cli):
    """Claude Sonnet 5 typed per 1K tokens ($0.002/$0.010 for the page's $2/$10): accepted with
    a reason, the row is kept with the reason and flagged thousandfold_slip (1/1000 of the
    release's $2/$10, tp-494d326b8989), so no estimate reads it, and the command says so. On
    2026-09-23 no other seller prices the model, so unit_slip cannot see it."""
    file = write(tmp_path / "p.csv", [sonnet(input_usd_per_mtok="0.002",
                                             output_usd_per_mtok="0.010")])  # fmt: skip
    r = cli("data", "add", file, "--data-dir", root, "--accept-outlier", "page quotes per 1K")
    assert r.returncode == 0, r.stderr
    assert "row 1: flagged: added as tp-" in r.stdout
    assert "flagged by rule thousandfold_slip (excluded from estimates by default)" in r.stdout
    version = data.latest_version(root)
    row = data.load("token_prices", version, root).tail(1).row(0, named=True)
    assert row["flags"] == "thousandfold_slip"
    assert row["source_locator"].endswith("; accepted outlier: page quotes per 1K")
    from analysis.methods import prices

    kept, removed = prices.clean(data.load("token_prices", version, root))
    assert row["row_id"] not in kept["row_id"].to_list() and removed["thousandfold_slip"] == 1


def test_a_gpu_the_data_does_not_know_needs_new_gpu(root, tmp_path, cli):
    """An unknown GPU is refused, naming --new-gpu; with it the GPU's id is its name as a slug.
    A name that is a known id once case, spaces and punctuation are dropped (`INTEL MAX 1550`
    for the release's intel-max-1550, which the name rules do not map) is refused as that GPU,
    as --new-model refuses a known model written otherwise."""
    row = {
        "gpu": "Issue21 Test Accelerator",  # a test input: no such GPU exists
        "provider": "runpod",
        "date": "2026-11-02",
        "pricing": "on-demand",
        "usd_per_gpu_hour": "2.5",
        **PROVENANCE,
    }
    file = write(tmp_path / "gpu.csv", [row])
    bad = cli("data", "add", file, "--data-dir", root)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert "column 'gpu': value 'Issue21 Test Accelerator': unknown GPU" in bad.stderr
    assert "(or pass --new-gpu)" in bad.stderr
    ok = cli("data", "add", file, "--data-dir", root, "--new-gpu")
    assert ok.returncode == 0, ok.stderr
    gp = data.load("gpu_hour_prices", data.latest_version(root), root).tail(1).row(0, named=True)
    assert (gp["gpu"], gp["source_gpu_name"]) == ("issue21-test-accelerator", row["gpu"])
    with pytest.raises(DataError) as err:
        add.add(write(tmp_path / "g2.csv", [row | {"gpu": "INTEL MAX 1550"}]), root=root,
                new_gpu=True)  # fmt: skip
    (p,) = err.value.problems
    assert (p.column, p.value) == ("gpu", "INTEL MAX 1550")
    assert p.rule.startswith("is GPU intel-max-1550 after normalisation")


def test_an_unknown_benchmark_names_the_closest_and_new_benchmark(root, tmp_path, cli):
    row = {"model": "claude-sonnet-5", "benchmark": "GPQA Diamnd", "score": "80",
           "unit": "percent", "date": "2026-09-23", **PROVENANCE}  # fmt: skip
    file = write(tmp_path / "b.csv", [row])
    bad = cli("data", "add", file, "--data-dir", root)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert "unknown benchmark; closest known: gpqa-diamond" in bad.stderr
    assert "(or pass --new-benchmark)" in bad.stderr
    ok = cli("data", "add", file, "--data-dir", root, "--new-benchmark")
    assert ok.returncode == 0, ok.stderr
    bs = data.load("benchmark_scores", data.latest_version(root), root).tail(1)
    assert bs["benchmark"].to_list() == ["gpqa-diamnd"]


def test_a_new_model_nothing_dates_gets_its_first_listing_labelled_so(root, tmp_path):
    # Mythos 5.1 entered on two days and no release date: as a build dates such a model, its
    # release date is the earliest day a row lists it (2026-09-23, from the file above), from
    # that row's source, with a note saying it is only a first listing (an upper bound).
    file = write(tmp_path / "prices.csv", [mythos(date="2026-09-24"), mythos(date="2026-09-23")])
    out = add.add(file, root=root, new_model=True)
    m = data.load("models", out.version, root).tail(1).row(0, named=True)
    assert m["model_id"] == "claude-mythos-5.1"
    assert (m["release_date"], m["release_date_source_id"]) == (
        date(2026, 9, 23),
        out.new_sources[0],
    )
    assert m["release_date_note"].startswith(f"first listing ({out.new_sources[0]}, 2026-09-23)")


def test_a_new_model_keeps_the_release_date_its_source_states(root, tmp_path):
    file = write(tmp_path / "prices.csv", [mythos(release_date="2026-09-01")])
    out = add.add(file, root=root, new_model=True)
    m = data.load("models", out.version, root).tail(1).row(0, named=True)
    assert (m["release_date"], m["release_date_note"]) == (date(2026, 9, 1), None)
