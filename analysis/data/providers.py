"""One name per provider: every provider slug an importer writes, mapped to one canonical id.

Sources name the same seller differently (`moonshot-ai` in simonw's files, `moonshotai` in
genai-prices and OpenRouter, `moonshot` in LiteLLM), and OpenRouter splits a seller's endpoints
into routes (`google-vertex/europe`, `amazon-bedrock/global`, `anthropic/2`, written
`google-vertex-europe` etc. by its importer). `analysis/data/tables/providers.csv` is the one
place that says which slug is which seller (one row per slug, with why where it is not
obvious); `analysis/data/build.py` applies it to every token_prices row once, after the
importers and before the first-party flags, so the released data carries canonical ids only.
The source's own spelling stays visible through `source_locator` (the row, key or file it names).

The book compares sellers, so the canonical id is the seller. Each OpenRouter route was judged
on the 2026-08-08 endpoints file (prices of the same model on the route and on the seller's plain
route):

- Another spelling, or the same offer through another door: the seller's id. This covers
  duplicate accounts (`anthropic/2`), zero-data-retention twins at the same price (`xai/zdr`)
  and regional endpoints (`google-vertex/europe`, `azure/eu`, `amazon-bedrock/global`). A
  regional endpoint can cost ~10% more than the global one; the OpenRouter importer already keeps
  the cheapest region where regions share one route (Bedrock eu-west-1 vs us-east-1), and
  `canonical_rows` does the same where they come as separate routes, so regions are treated
  alike however the source spells them.
- A separate offer, with its own price list for the same model: a speed or precision tier
  (DeepInfra Turbo, the `fast` and `highspeed` tiers), dedicated capacity, or OpenAI's default
  tier beside a half-price route. These keep an id of their own, `<seller>-<tier>`, so both
  prices stay in the data; `seller()` gives the seller, for analyses that compare sellers (one
  price per seller) and for the first-party flag. They are the exception to "the id is the
  seller", and each one says why in the table.
- Hugging Face's router (`huggingface-novita` in genai-prices) forwards a request to the named
  provider, but genai-prices keeps a price list for it that can differ from the provider's own
  file and is dated differently: a separate offer whose seller is the provider served.

Folding two routes into one id is safe only where a source prices them on the same dates: a
route dated apart from its twin would read as a price change of the seller. Where a source
lists two routes of one seller for the same model on different dates with their own prices
(genai-prices' `zai` and `zhipuai`, the Hugging Face routes), they are separate offers; a test
on the raw sources checks that no folded route does so.

Unknown slugs map to themselves, so a new source works before the table knows it; the tests list
the slugs of the released data that the table does not cover (none may be missing).
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analysis.data import lookup


@dataclass(frozen=True)
class Entry:
    slug: str  # as an importer writes it
    provider: str  # canonical id
    why: str = ""  # where it is not obvious
    seller: str | None = None  # only for a separate offer: the seller whose offer it is


def _load() -> list[Entry]:
    """The table in `analysis/data/tables/providers.csv`, checked (lookup.SPECS["providers"])."""
    return [
        Entry(r["slug"], r["provider"], r["why"], r["seller"] or None)
        for r in lookup.read("providers")
    ]


TABLE: list[Entry] = _load()

CANONICAL: dict[str, str] = {e.slug: e.provider for e in TABLE}
SELLERS: dict[str, str] = {e.provider: e.seller for e in TABLE if e.seller}


def canonical_provider(slug: str) -> str:
    """The canonical id of a provider slug; a slug the table does not know is its own id."""
    return CANONICAL.get(slug, slug)


def seller(provider: str) -> str:
    """The seller behind a provider slug or id: a separate offer's seller, else the canonical id."""
    p = canonical_provider(provider)
    return SELLERS.get(p, p)


def canonical_provider_expr(column: str | pl.Expr = "provider") -> pl.Expr:
    """`canonical_provider` as a polars expression (keeps the column's name)."""
    col = pl.col(column) if isinstance(column, str) else column
    return col.replace(CANONICAL)


def seller_expr(column: str | pl.Expr = "provider") -> pl.Expr:
    """`seller` as a polars expression (keeps the column's name)."""
    return canonical_provider_expr(column).replace(SELLERS)


def table() -> pl.DataFrame:
    """The table as a frame: slug, provider, seller, why."""
    return pl.DataFrame(
        {
            "slug": [e.slug for e in TABLE],
            "provider": [e.provider for e in TABLE],
            "seller": [e.seller or e.provider for e in TABLE],
            "why": [e.why or None for e in TABLE],
        }
    )


# Rows are one price of one model in one source; several routes of one seller can price it.
ROW_KEY = ["source_id", "source_model_name", "model_hint", "provider", "date", "price_kind"]
PRICE_ORDER = [
    "input_usd_per_mtok",
    "output_usd_per_mtok",
    "blended_usd_per_mtok",
    "input_original_per_mtok",
    "output_original_per_mtok",
    "blended_original_per_mtok",
]
# Between routes at the same price, the one that also states these prices is kept.
OTHER_PRICES = [
    "cached_input_usd_per_mtok",
    "cache_write_usd_per_mtok",
    "batch_input_usd_per_mtok",
    "batch_output_usd_per_mtok",
]


def canonical_rows(token_prices: pl.DataFrame) -> pl.DataFrame:
    """token_prices rows (as the importers give them) with canonical provider ids.

    Where routes that the table folds into one id price the same model in the same source on
    the same date (OpenRouter's `google-vertex` and `google-vertex-europe`), the cheapest row is
    kept (input, then output price), as the OpenRouter importer does for regions within a route;
    between equal prices, the row that also gives cached and batch prices, then the first slug.
    Two rows of one source slug sharing a key are left alone: that is an importer's duplicate,
    which the build reports.
    """
    if token_prices.height == 0 or "provider" not in token_prices.columns:
        return token_prices
    key = [c for c in ROW_KEY if c in token_prices.columns]
    order = [c for c in PRICE_ORDER if c in token_prices.columns]
    other = [c for c in OTHER_PRICES if c in token_prices.columns]
    df = token_prices.with_row_index("_row").with_columns(
        pl.col("provider").alias("_slug"), canonical_provider_expr("provider")
    )
    silent = pl.sum_horizontal([pl.col(c).is_null() for c in other]) if other else pl.lit(0)
    cheapest = (
        df.with_columns(silent.alias("_silent"))
        .sort([*order, "_silent", "_slug", "_row"], nulls_last=True)
        .group_by(key, maintain_order=True)
        .agg(pl.col("_slug").first())
    )
    kept = df.join(cheapest, on=[*key, "_slug"], how="semi", nulls_equal=True)
    return kept.sort("_row").drop("_row", "_slug")
