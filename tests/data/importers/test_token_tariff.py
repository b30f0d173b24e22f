"""token-tariff timeline: launch prices at release, current prices as reported, AA index dated."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import token_tariff

FOLDER = "token-tariff-timeline"
HEADER = (
    "model,vendor,tier,release_date,launch_price_in,launch_price_out,current_price_in,"
    "current_price_out,metr_horizon_min_p50,metr_horizon_min_p80,metr_key,metr_source,aa_intel,"
    "aa_version,aa_source,notes,source_url"
)
ROWS = [
    "gpt-5.6-luna,OpenAI,bottom,2026-07-09,1,6,0.2,1.2,,,,,51.2,2026-08-01,https://aa,"
    "Cut 80% on 2026-07-30.,https://developers.openai.com/api/docs/pricing",
    "gpt-5.4,OpenAI,frontier,2026-03-05,,,2.5,15,,,,,51.4,≤2026-07-05,https://aa,"
    "Release date from METR; current price is the OpenRouter route. Launch price not verified.,"
    "https://metr.org/assets/benchmark_results_1_1.yaml",
    "kimi-k3,Moonshot AI,open,2026-07-26,,,,,,,,,57.1,2026-08-01,https://aa,"
    "open weights have no canonical price.,https://huggingface.co/moonshotai/Kimi-K3",
]


def _write(tree, day: str, rows: list[str]):
    tree.add(f"{FOLDER}/{day}_timeline.csv", "\n".join([HEADER, *rows]) + "\n", commit_date=day)


def test_launch_prices_are_list_prices_at_release_and_current_ones_reported(tree):
    _write(tree, "2026-08-01", ROWS)
    tp = token_tariff.build(tree.root)["token_prices"]
    luna = tp.filter(pl.col("source_model_name") == "gpt-5.6-luna").sort("date")
    assert luna.select(
        "provider", "price_kind", "date", "input_usd_per_mtok", "output_usd_per_mtok"
    ).rows() == [
        ("openai", "list", dt.date(2026, 7, 9), 1.0, 6.0),
        ("openai", "reported", dt.date(2026, 8, 1), 0.2, 1.2),
    ]
    assert luna["source_locator"][0] == (
        f"{FOLDER}/2026-08-01_timeline.csv@c0ffee000000#row 1 (gpt-5.6-luna); "
        "cites https://developers.openai.com/api/docs/pricing, launch price"
    )


def test_a_current_price_the_note_calls_the_openrouter_route_is_openrouters(tree):
    _write(tree, "2026-08-01", ROWS)
    tp = token_tariff.build(tree.root)["token_prices"]
    gpt54 = tp.filter(pl.col("source_model_name") == "gpt-5.4")
    assert gpt54.select("provider", "price_kind").rows() == [("openrouter", "reported")]
    assert "kimi-k3" not in set(tp["source_model_name"])  # no price stated


def test_two_versions_make_one_spell_and_scores_keep_their_vintage(tree):
    _write(tree, "2026-08-01", ROWS[:2])
    _write(tree, "2026-08-03", ROWS)
    t = token_tariff.build(tree.root)
    current = t["token_prices"].filter(
        (pl.col("source_model_name") == "gpt-5.6-luna") & (pl.col("price_kind") == "reported")
    )
    assert current.select("date", "last_seen").rows() == [
        (dt.date(2026, 8, 1), dt.date(2026, 8, 3))
    ]
    scores = dict(t["benchmark_scores"].select("source_model_name", "date").iter_rows())
    # "≤2026-07-05": the AA payload was last written that day, an upper bound on its vintage.
    assert scores == {
        "gpt-5.4": dt.date(2026, 7, 5),
        "gpt-5.6-luna": dt.date(2026, 8, 1),
        "kimi-k3": dt.date(2026, 8, 1),
    }
    info = t["model_info"].filter(pl.col("source_model_name") == "kimi-k3").row(0, named=True)
    assert (info["open_weights"], info["organization"]) == (True, "Moonshot AI")


def test_a_price_with_one_side_only_names_row_and_column(tree):
    _write(tree, "2026-08-01", [ROWS[0].replace(",1,6,", ",1,,")])
    with pytest.raises(DataError) as err:
        token_tariff.build(tree.root)
    assert (err.value.problems[0].row, err.value.problems[0].column) == (1, "launch_price_in")


def test_an_unmapped_vendor_is_an_error(tree):
    _write(tree, "2026-08-01", [ROWS[0].replace("OpenAI,bottom", "Acme,bottom")])
    with pytest.raises(DataError, match="Acme"):
        token_tariff.build(tree.root)


def test_a_bad_release_date_is_an_error(tree):
    _write(tree, "2026-08-01", [ROWS[0].replace("2026-07-09", "9 July 2026")])
    with pytest.raises(DataError) as err:
        token_tariff.build(tree.root)
    assert (err.value.problems[0].row, err.value.problems[0].column) == (1, "release_date")


def test_real_timeline(sources_dir):
    t = token_tariff.build(sources_dir)
    tp = t["token_prices"]
    # README II.1.3: 42 rows in the 2026-08-03 version, release dates 2023-03-14 .. 2026-07-26.
    assert t["model_info"].height == 42
    assert t["model_info"]["release_date"].min() == dt.date(2023, 3, 14)
    launch = tp.filter(pl.col("price_kind") == "list")
    gpt4 = launch.filter(pl.col("source_model_name") == "gpt-4").row(0, named=True)
    assert (gpt4["date"], gpt4["input_usd_per_mtok"], gpt4["output_usd_per_mtok"]) == (
        dt.date(2023, 3, 14),
        30,
        60,
    )
    assert "web.archive.org" in gpt4["source_locator"]
