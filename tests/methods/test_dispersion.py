"""Provider dispersion on hand-made price rows whose spread is known, and invariants on the release."""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import date

import polars as pl
import pytest

from analysis.data import release as data
from analysis.data.schema import TABLES
from analysis.methods import dispersion

JAN, FEB, MAR = date(2025, 1, 1), date(2025, 2, 1), date(2025, 3, 1)


def prices(rows: list[dict]) -> pl.DataFrame:
    """token_prices-shaped rows; each dict gives model, provider, input, output and overrides."""
    defaults = {
        "date": date(2025, 1, 10),
        "first_party": False,
        "currency": "USD",
        "price_kind": "list",
        "context_tier": None,
        "source_id": "src-a",
        "source_locator": "test",
    }
    full = []
    for r in rows:
        row = {**defaults, **r}
        row.setdefault("last_seen", row["date"])
        row.setdefault("source_model_name", row["model_id"])
        full.append(row)
    schema = TABLES["token_prices"].polars_schema
    return pl.DataFrame(full, schema_overrides=schema).select(
        [
            pl.col(c).cast(t) if c in full[0] else pl.lit(None, t).alias(c)
            for c in schema
            for t in [schema[c]]
        ]
    )


def quote(model, provider, inp, out, **kw) -> dict:
    return {
        "model_id": model,
        "provider": provider,
        "input_usd_per_mtok": inp,
        "output_usd_per_mtok": out,
        **kw,
    }


MODELS = pl.DataFrame(
    {"model_id": ["open-a", "open-b", "closed-c"], "open_weights": [True, True, False]}
)


def blended(inp: float, out: float) -> float:
    return (3 * inp + out) / 4


def test_spread_of_three_providers_is_exact():
    rows = prices(
        [
            quote("open-a", "together", 0.2, 0.6),
            quote("open-a", "deepinfra", 0.1, 0.3),
            quote("open-a", "sambanova", 1.0, 2.7),
        ]
    )
    s = dispersion.spreads(dispersion.provider_prices(rows, MODELS)).row(0, named=True)
    assert (s["model_id"], s["month"], s["n_providers"]) == ("open-a", JAN, 3)
    assert (s["output_min"], s["output_median"], s["output_max"]) == (0.3, 0.6, 2.7)
    assert s["output_ratio"] == pytest.approx(9.0)
    assert s["output_q25"] == pytest.approx(0.45)  # linear interpolation between 0.3 and 0.6
    assert s["output_q75"] == pytest.approx(1.65)
    assert s["blended_ratio"] == pytest.approx(blended(1.0, 2.7) / blended(0.1, 0.3))
    assert (s["blended_cheapest"], s["blended_priciest"]) == ("deepinfra", "sambanova")


def test_rows_are_in_force_from_date_to_last_seen_and_the_latest_row_of_a_month_wins():
    rows = prices(
        [
            quote(
                "open-a", "together", 0.2, 0.8, date=date(2025, 1, 5), last_seen=date(2025, 2, 3)
            ),
            quote("open-a", "together", 0.2, 0.4, date=date(2025, 2, 20), last_seen=MAR),
            quote("open-a", "groq", 0.1, 0.2, date=date(2025, 1, 5), last_seen=MAR),
        ]
    )
    pp = dispersion.provider_prices(rows, MODELS).filter(pl.col("provider") == "together")
    assert pp["month"].to_list() == [JAN, FEB, MAR]
    # February has both Together prices in force: the one that started later is the month's.
    assert pp["output_usd_per_mtok"].to_list() == [0.8, 0.4, 0.4]


def test_free_zero_unnamed_and_closed_rows_do_not_count():
    rows = prices(
        [
            quote("open-a", "together", 0.2, 0.6),
            quote("open-a", "deepinfra", 0.1, 0.3),
            quote("open-a", "chutes", 0.0, 0.0, source_model_name="open-a:free"),
            quote("open-a", "venice", 0.01, 0.02, source_model_name="open-a:free"),
            quote("open-a", "unspecified", 0.01, 0.01),
            quote("open-a", "offpeak", 0.01, 0.01, price_kind="off-peak"),
            quote("open-a", "cny-host", 0.01, 0.01, currency="CNY"),
            quote("open-a", "long", 0.01, 0.01, context_tier=">128k"),
            quote("closed-c", "openai", 1.0, 4.0),
            quote("closed-c", "azure", 2.0, 8.0),
        ]
    )
    pp = dispersion.provider_prices(rows, MODELS)
    assert sorted(pp["provider"].to_list()) == ["deepinfra", "together"]


def test_openrouter_listing_is_dropped_only_where_upstream_providers_are_priced():
    rows = prices(
        [
            quote("open-a", "openrouter", 0.05, 0.1),
            quote("open-a", "vercel", 0.05, 0.1),
            quote("open-a", "novita", 0.1, 0.3),
            quote("open-b", "openrouter", 0.05, 0.1),
            quote("open-b", "vercel", 0.1, 0.2),
        ]
    )
    pp = dispersion.provider_prices(rows, MODELS)
    assert pp.select("model_id", "provider").rows() == [
        ("open-a", "novita"),
        ("open-b", "openrouter"),
        ("open-b", "vercel"),
    ]
    kept = dispersion.Selection(aggregators=True)
    assert dispersion.provider_prices(rows, MODELS, kept).height == 5


def test_a_sellers_tiers_fold_into_the_seller_at_its_cheapest_endpoint():
    # Canonical ids as the build writes them: a seller's separate tiers keep their own ids.
    rows = prices(
        [
            quote("open-a", "fireworks-fast", 0.9, 2.7),
            quote("open-a", "fireworks", 0.3, 0.9),
            quote("open-a", "deepinfra-turbo", 0.1, 0.4),
            quote("open-a", "deepinfra", 0.2, 0.6),
            quote("open-a", "moonshot", 0.6, 2.5, source_id="src-a"),
            quote("open-a", "moonshot", 0.6, 2.5, source_id="src-b"),
        ]
    )
    pp = dispersion.provider_prices(rows, MODELS)
    assert pp.select("provider", "output_usd_per_mtok").sort("provider").rows() == [
        ("deepinfra", 0.4),
        ("fireworks", 0.9),
        ("moonshot", 2.5),
    ]
    assert pp.filter(pl.col("provider") == "deepinfra")["endpoint"][0] == "deepinfra-turbo open-a"
    assert pp.filter(pl.col("provider") == "moonshot")["n_sources"][0] == 2


def test_raw_slugs_of_data_built_before_the_mapping_fold_the_same_way():
    rows = prices(
        [
            quote("open-a", "google-vertex", 0.5, 1.5),
            quote("open-a", "google-vertex-europe", 0.55, 1.65),
            quote("open-a", "moonshotai", 0.6, 2.5, source_id="src-a"),
            quote("open-a", "moonshot-ai", 0.6, 2.5, source_id="src-b"),
            quote("open-a", "huggingface-novita", 0.2, 0.8, source_id="src-c"),
            quote("open-a", "novita", 0.2, 0.8, source_id="src-a"),
        ]
    )
    pp = dispersion.provider_prices(rows, MODELS)
    assert pp.select("provider", "output_usd_per_mtok").sort("provider").rows() == [
        ("google", 1.5),
        ("moonshot", 2.5),
        ("novita", 0.8),
    ]
    assert pp.filter(pl.col("provider") == "novita")["sources"][0] == "src-a;src-c"


def test_sources_disagreeing_on_one_provider_give_their_median():
    rows = prices(
        [
            quote("open-a", "together", 0.2, 0.6, source_id="src-a"),
            quote("open-a", "together", 0.2, 0.8, source_id="src-b"),
            quote("open-a", "together", 0.2, 1.6, source_id="src-c"),
        ]
    )
    pp = dispersion.provider_prices(rows, MODELS).row(0, named=True)
    assert (pp["output_usd_per_mtok"], pp["n_sources"], pp["sources"]) == (
        0.8,
        3,
        "src-a;src-b;src-c",
    )


def test_promotional_and_quantised_endpoints_count_only_in_their_variants():
    rows = prices(
        [
            quote("open-a", "together", 0.2, 0.6, source_model_name="Open-A-Instruct-Turbo"),
            quote("open-a", "lambda", 0.1, 0.3, source_model_name="open-a-fp8"),
            quote("open-a", "deepinfra", 0.3, 0.9),
            quote("open-a", "baidu", 0.01, 0.05, price_kind="promotional"),
        ]
    )

    def providers(selection: dispersion.Selection) -> list[str]:
        return sorted(dispersion.provider_prices(rows, MODELS, selection)["provider"])

    assert providers(dispersion.BASELINE) == ["deepinfra", "lambda", "together"]
    assert providers(dispersion.WITH_PROMOTIONAL) == ["baidu", "deepinfra", "lambda", "together"]
    assert providers(dispersion.WITHOUT_QUANTISED) == ["deepinfra"]
    assert dispersion.provider_prices(rows, MODELS)["quantised"].to_list() == [False, True, True]


def test_a_stated_precision_decides_before_the_name():
    rows = prices(
        [
            # Stated below 16 bits: quantised, whatever the name says.
            quote("open-a", "parasail", 0.1, 0.3, quantization="fp8"),
            quote("open-a", "chutes", 0.1, 0.3, quantization="mxfp4"),
            # Stated at 16 bits: not quantised, even on a tier or with a quantised-looking name.
            quote("open-a", "deepinfra-turbo", 0.2, 0.6, quantization="bf16"),
            quote(
                "open-a",
                "together",
                0.2,
                0.6,
                source_model_name="x-Instruct-Turbo",
                quantization="fp16",
            ),
            # Not stated: the name decides.
            quote("open-a", "lambda", 0.1, 0.3, source_model_name="open-a-int4"),
            quote("open-a", "groq", 0.3, 0.9),
        ]
    )
    pp = dispersion.provider_prices(rows, MODELS)
    assert dict(pp.select("provider", "quantised").rows()) == {
        "chutes": True,
        "deepinfra": False,
        "groq": False,
        "lambda": True,
        "parasail": True,
        "together": False,
    }
    kept = dispersion.provider_prices(rows, MODELS, dispersion.WITHOUT_QUANTISED)
    assert sorted(kept["provider"]) == ["deepinfra", "groq", "together"]


def test_claim_value_comes_from_the_claims_table():
    claims = pl.DataFrame(
        {"claim_id": ["open-model-provider-spread", "other"], "value": [7.5, 1.0]}
    )
    assert dispersion.claim_value(claims) == 7.5
    with pytest.raises(KeyError, match="no-such-claim"):
        dispersion.claim_value(claims, "no-such-claim")


def test_claim_check_counts_model_months_at_or_above_the_ratio():
    rows = prices(
        [
            quote("open-a", "p1", 0.1, 0.1, last_seen=FEB),
            quote("open-a", "p2", 0.9, 0.9, last_seen=date(2025, 1, 31)),
            quote("open-a", "p3", 0.3, 0.3, date=FEB, last_seen=FEB),
            quote("open-b", "p1", 1.0, 1.0),
            quote("open-b", "p2", 2.0, 2.0),
        ]
    )
    s = dispersion.spreads(dispersion.provider_prices(rows, MODELS))
    check = dispersion.claim_check(s, 9.0, "output")
    assert (check["n_model_months"], check["n_model_months_reaching"]) == (3, 1)
    assert check["models_reaching"] == ["open-a"]
    assert (check["ratio_max"], check["ratio_max_month"]) == (pytest.approx(9.0), JAN)
    bands = dispersion.ratio_distribution(s, 9.0, "output")
    assert bands.filter(pl.col("band") == ">= 9")["n"][0] == 1
    assert bands["n"].sum() == 3


def test_one_model_defaults_to_the_most_served_model_in_the_newest_month():
    rows = prices(
        [
            quote("open-a", "p1", 0.1, 0.2, date=FEB, last_seen=FEB),
            quote("open-a", "p2", 0.4, 0.8, date=FEB, last_seen=FEB),
            quote("open-b", "p1", 0.1, 0.2, date=JAN, last_seen=FEB),
            quote("open-b", "p2", 0.2, 0.2, date=JAN, last_seen=FEB),
            quote("open-b", "p3", 0.3, 0.3, date=JAN, last_seen=FEB),
        ]
    )
    one = dispersion.one_model(dispersion.provider_prices(rows, MODELS))
    assert (one["model_id"][0], one["month"][0], one.height) == ("open-b", FEB, 3)
    assert one["x_cheapest"].to_list() == pytest.approx(
        [1.0, blended(0.2, 0.2) / blended(0.1, 0.2), 2.4]
    )
    kinds = dispersion.with_provider_kind(one)["kind"].to_list()
    assert kinds == ["third-party provider"] * 3


def test_provider_kind_puts_the_developers_own_api_before_a_quantised_build():
    one = pl.DataFrame(
        {
            "provider": ["dev", "dev-fp8", "q", "third"],
            "first_party": [True, True, False, False],
            "quantised": [False, True, True, False],
        }
    )
    assert dispersion.with_provider_kind(one)["kind"].to_list() == [
        "developer's own API",
        "developer's own API",
        "quantised build",
        "third-party provider",
    ]


def test_sensitivity_rows_of_one_price_and_one_selection():
    rows = prices(
        [
            quote("open-a", "p1", 0.1, 0.1, source_id="openrouter-sui414"),
            quote("open-a", "p2", 1.0, 1.0, source_id="openrouter-sui414"),
            quote("open-a", "p3", 0.5, 0.5),
        ]
    )
    claims = pl.DataFrame({"claim_id": [dispersion.CLAIM_ID], "value": [9.0]})
    sens = dispersion.sensitivity(rows, MODELS, claims)
    assert sens.height == 2 * len(dispersion.VARIANTS)  # output and blended per selection
    table = dispersion.by_selection(sens)
    assert table.columns == dispersion.SENSITIVITY_COLUMNS
    assert table["selection"].to_list() == [v.label for v in dispersion.VARIANTS]
    only = dispersion.selection_row(sens, dispersion.OPENROUTER_ONLY)
    # Only the two OpenRouter-sourced providers count: 1.0 / 0.1 = 10 >= 9.
    assert (only["n_model_months"], only["n_model_months_reaching"]) == (1, 1)
    assert only["ratio_median"] == pytest.approx(10.0)
    assert dispersion.selection_row(sens, dispersion.BASELINE)["ratio_median"] == pytest.approx(10)
    with pytest.raises(LookupError, match="no such selection"):
        dispersion.selection_row(sens, replace(dispersion.BASELINE, label="no such selection"))


@pytest.fixture(scope="module")
def released():
    return data.load("token_prices"), data.load("models"), data.load("claims")


def test_release_spreads_are_ordered_and_the_summary_reads_the_claim(released):
    token_prices, models, claims = released
    pp = dispersion.provider_prices(token_prices, models)
    assert pp.select("model_id", "month", "provider").is_duplicated().sum() == 0
    s = dispersion.spreads(pp)
    for p in ("output", "blended"):
        cols = [f"{p}_{q}" for q in ("min", "q25", "median", "q75", "max")]
        ok = s.drop_nulls(cols).select(
            pl.all_horizontal(pl.col(a) <= pl.col(b) for a, b in itertools.pairwise(cols))
        )
        assert ok.to_series().all()
    # The aggregator listing never sits beside an upstream provider of the same model-month.
    mixed = pp.group_by("model_id", "month").agg(
        pl.col("aggregator").any(), (~pl.col("aggregator")).any().alias("up")
    )
    assert mixed.filter(pl.col("aggregator") & pl.col("up")).height == 0
    out = dispersion.summary(token_prices, models, claims, data_version="v")
    assert (
        out["claim_value"] == claims.filter(pl.col("claim_id") == dispersion.CLAIM_ID)["value"][0]
    )
    b = out["blended"]
    assert 0 < b["n_model_months_reaching"] <= b["n_model_months"]
    assert b["n_models_reaching"] == len(b["models_reaching"]) <= b["n_models"]
