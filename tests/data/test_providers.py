"""One name per provider: the mapping's rules, and that it covers the released data."""

from __future__ import annotations

import re
from datetime import date

import polars as pl
import pytest

from analysis.data import build, providers
from analysis.data import release as data
from analysis.data.curate import first_party
from analysis.data.importers.common import MODEL_INFO_SCHEMA
from analysis.data.schema import SLUG, TABLES


@pytest.mark.parametrize(
    ("slug", "canonical"),
    [
        # Spellings of one seller across sources.
        ("moonshot-ai", "moonshot"),
        ("moonshotai", "moonshot"),
        ("meta-ai", "meta"),
        ("zai", "zhipu"),
        ("z-ai", "zhipu"),
        ("dashscope", "alibaba"),
        ("azure-ai", "azure"),
        ("vertex-ai", "google"),
        # OpenRouter's routes of one offer: duplicates and regions.
        ("google-ai-studio", "google"),
        ("google-vertex-europe", "google"),
        ("bedrock-global", "bedrock"),
        ("anthropic-2", "anthropic"),
        ("xai-zdr", "xai"),
        # A separate offer keeps an id of its own.
        ("huggingface-novita", "huggingface-novita"),
        ("huggingface-fireworks-ai", "huggingface-fireworks"),
        ("zhipuai", "zhipu-bigmodel"),
        ("deepinfra-turbo", "deepinfra-turbo"),
        ("moonshotai-highspeed", "moonshot-highspeed"),
        ("sambanova-minimax-m2.7-dedicated", "sambanova-dedicated"),
    ],
)
def test_slugs_map_to_their_canonical_id(slug, canonical):
    assert providers.canonical_provider(slug) == canonical


def test_separate_offers_name_their_seller_and_sellers_are_their_own():
    assert providers.seller("deepinfra-turbo") == "deepinfra"
    assert providers.seller("moonshotai-highspeed") == "moonshot"  # raw slug: mapped first
    assert providers.seller("openai-default") == "openai"
    assert providers.seller("google-vertex-europe") == "google"
    assert providers.seller("together") == "together"
    assert providers.seller("huggingface-fireworks-ai") == "fireworks"
    # Every offer's id names its seller, and the seller is a canonical id, not an offer.
    for offer, seller in providers.SELLERS.items():
        assert offer.startswith(seller + "-") or offer == f"huggingface-{seller}"
        assert seller in providers.CANONICAL.values() and seller not in providers.SELLERS


def test_unknown_slugs_pass_through():
    assert providers.canonical_provider("no-such-host") == "no-such-host"
    assert providers.seller("no-such-host") == "no-such-host"
    df = pl.DataFrame({"provider": ["no-such-host", "moonshotai", None]})
    assert df.select(providers.canonical_provider_expr())["provider"].to_list() == [
        "no-such-host",
        "moonshot",
        None,
    ]


def test_the_mapping_is_idempotent_and_the_expression_agrees_with_the_function():
    ids = sorted(set(providers.CANONICAL) | set(providers.CANONICAL.values()))
    for s in ids:
        once = providers.canonical_provider(s)
        assert providers.canonical_provider(once) == once
        assert providers.seller(providers.seller(s)) == providers.seller(s)
    df = pl.DataFrame({"provider": ids})
    out = df.select(
        providers.canonical_provider_expr().alias("canonical"),
        providers.seller_expr().alias("seller"),
    )
    assert out["canonical"].to_list() == [providers.canonical_provider(s) for s in ids]
    assert out["seller"].to_list() == [providers.seller(s) for s in ids]


def test_the_table_is_one_entry_per_slug_and_every_id_is_a_slug():
    slugs = [e.slug for e in providers.TABLE]
    assert len(slugs) == len(set(slugs)) and slugs == sorted(slugs)
    for e in providers.TABLE:
        assert re.match(SLUG, e.provider), e
        # A slug folded into another id says why.
        if e.provider != e.slug:
            assert e.why, e.slug
    frame = providers.table()
    assert frame.columns == ["slug", "provider", "seller", "why"]
    assert frame.height == len(providers.TABLE)


def test_every_provider_of_the_released_data_is_canonical_or_mapped():
    released = set(data.load("token_prices")["provider"].unique())
    canonical = set(providers.CANONICAL.values())
    unknown = sorted(released - canonical - set(providers.CANONICAL))
    assert unknown == []


def test_first_party_holds_for_the_canonical_ids_of_developers():
    assert first_party.is_first_party_by_organization(
        providers.seller("moonshotai-highspeed"), "Moonshot AI"
    )
    assert first_party.is_first_party_by_organization(
        providers.canonical_provider("anthropic-2"), "Anthropic"
    )
    assert first_party.is_first_party_by_organization(
        providers.canonical_provider("zai"), "Zhipu AI"
    )
    assert first_party.is_first_party_by_organization(
        providers.canonical_provider("google-ai-studio"), "Google"
    )
    assert first_party.is_first_party_by_organization(providers.seller("zhipuai"), "Zhipu AI")
    assert not first_party.is_first_party_by_organization(
        providers.seller("huggingface-novita"), "Meta"
    )


def _rows(rows: list[dict]) -> pl.DataFrame:
    base = {
        "source_id": "src",
        "source_model_name": "m",
        "model_hint": "m",
        "date": date(2026, 8, 8),
        "price_kind": "list",
        "output_usd_per_mtok": 1.0,
        "batch_input_usd_per_mtok": None,
        "source_locator": "here",
    }
    return pl.DataFrame([{**base, **r} for r in rows])


def test_routes_folded_into_one_id_keep_the_cheapest_row():
    df = _rows(
        [
            {"provider": "google-vertex", "input_usd_per_mtok": 2.0, "source_locator": "row 1"},
            {"provider": "google-vertex-europe", "input_usd_per_mtok": 2.2},
            {"provider": "google-ai-studio", "input_usd_per_mtok": 2.0},
            {"provider": "deepinfra-turbo", "input_usd_per_mtok": 0.1},
            {"provider": "deepinfra", "input_usd_per_mtok": 0.2},
            {"provider": "huggingface-novita", "input_usd_per_mtok": 0.3},
            {"provider": "novita", "input_usd_per_mtok": 0.3},
        ]
    )
    # At the same price, the route that also states a batch price is kept.
    df = df.with_columns(
        pl.when(pl.col("source_locator") == "row 1")
        .then(1.0)
        .otherwise(None)
        .alias("batch_input_usd_per_mtok")
    )
    out = providers.canonical_rows(df)
    assert out.select("provider", "input_usd_per_mtok", "source_locator").rows() == [
        ("google", 2.0, "row 1"),
        ("deepinfra-turbo", 0.1, "here"),
        ("deepinfra", 0.2, "here"),
        ("huggingface-novita", 0.3, "here"),
        ("novita", 0.3, "here"),
    ]
    assert out.columns == df.columns


def test_an_importers_own_duplicate_is_left_for_the_build_to_report():
    df = _rows(
        [
            {"provider": "together", "input_usd_per_mtok": 0.2},
            {"provider": "together", "input_usd_per_mtok": 0.3},
        ]
    )
    assert providers.canonical_rows(df).height == 2


def test_the_build_writes_canonical_ids_and_first_party_by_seller(monkeypatch):
    spec = TABLES["token_prices"]
    row = {c: None for c in spec.column_names if c not in ("model_id", "first_party")}
    row |= {
        "date": date(2026, 8, 8),
        "currency": "USD",
        "price_kind": "list",
        "source_id": "src",
        "source_model_name": "kimi-k2",
        "model_hint": "kimi-k2",
        "source_locator": "here",
        "input_usd_per_mtok": 1.0,
        "output_usd_per_mtok": 2.0,
    }
    schema = {**spec.polars_schema, "model_hint": pl.String}
    prices = pl.DataFrame(
        [row | {"provider": "moonshotai-highspeed"}, row | {"provider": "moonshot-ai"}],
        schema={c: schema[c] for c in row},
    )
    info = pl.DataFrame(
        [
            {
                "source_id": "src",
                "source_model_name": "kimi-k2",
                "model_hint": "kimi-k2",
                "name": "Kimi K2",
                "organization": "Moonshot AI",
                "source_locator": "here",
            }
        ],
        schema=MODEL_INFO_SCHEMA,
    )
    monkeypatch.setattr(build, "_finish", lambda table, df: df)  # only token_prices is given
    tables = build.assemble({"token_prices": [prices], "model_info": [info]}, [])
    tp = tables["token_prices"]
    assert sorted(tp.select("provider", "first_party").rows()) == [
        ("moonshot", True),
        ("moonshot-highspeed", True),
    ]


TOKEN_PRICE_IMPORTERS = [
    m
    for m in build.IMPORTERS
    if m.rsplit(".", 1)[-1]
    in {
        "epoch_prices",
        "litellm",
        "simonw",
        "genai_prices",
        "openrouter",
        "lmarena",
        "gundlach",
        "digests",
    }
]


@pytest.mark.sources
def test_no_source_dates_routes_folded_into_one_id_apart(sources_dir):
    """Routes folded into one id must be priced on the same dates in a source; otherwise one
    route's row would read as a price change of the other (then they are separate offers)."""
    frames, _ = build.run_importers(sources_dir, TOKEN_PRICE_IMPORTERS)
    tp = pl.concat(frames["token_prices"], how="diagonal_relaxed")
    key = ["source_id", "provider", "source_model_name", "price_kind"]
    dates = (
        tp.with_columns(pl.col("provider").alias("slug"), providers.canonical_provider_expr())
        .group_by([*key, "slug"])
        .agg(pl.col("date").unique().sort().cast(pl.String).str.join(",").alias("dates"))
        .group_by(key)
        .agg(pl.col("slug").n_unique().alias("n_slugs"), pl.col("dates").n_unique().alias("n"))
    )
    apart = dates.filter((pl.col("n_slugs") > 1) & (pl.col("n") > 1))
    assert apart.height == 0, apart.head(5)
    # ...and the build's rows are unique on the table's key once routes are folded.
    out = providers.canonical_rows(tp)
    assert not out.select(providers.ROW_KEY).is_duplicated().any()
    assert out["provider"].n_unique() < tp["provider"].n_unique()
