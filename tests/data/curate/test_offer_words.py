"""One offer split by offer words (issue 19, class 5), on a small hand-made history: a seller's
own name for its one route to a model (Vertex's `-maas`) joins the seller's wordless offer where
both show the same prices on overlapping dates; words that name an offer of their own (a
reasoning mode) stay apart at the same price."""

from __future__ import annotations

from datetime import date

import polars as pl
import price_runs

from analysis.data.curate import spells
from analysis.methods import prices


def d(s: str) -> date:
    return date.fromisoformat(s)


# "lib" (a price library, newest snapshot 2026-07-24) lists Vertex's `m-maas` key; "scrape" (an
# endpoint scrape, one snapshot 2026-08-08) lists Google's wordless endpoint of m.
NEWEST = {"lib": d("2026-07-24"), "scrape": d("2026-08-08")}


def history(word: str, lib_price: float = 0.6) -> pl.DataFrame:
    return price_runs.runs(
        [
            {"source_id": "lib", "offer": word, "date": d("2026-06-06"), "last_seen": d("2026-07-24"), "input_usd_per_mtok": lib_price, "output_usd_per_mtok": 2.2},
            {"source_id": "scrape", "date": d("2026-08-08"), "last_seen": d("2026-08-08"), "input_usd_per_mtok": 0.6, "output_usd_per_mtok": 2.2},
        ],
        model="m",
        provider="google",
    )  # fmt: skip


def in_force(table: pl.DataFrame, on: str) -> list[tuple]:
    rows = prices.price_in_force(table, d(on))
    return sorted(rows.select("offer", "input_usd_per_mtok").rows(), key=str)


def test_the_sellers_name_for_its_one_route_is_the_same_offer():
    table, _ = spells.curate_prices(history("maas"), newest=NEWEST)
    # one offer, one spell since the library's first sighting, both sources behind it
    assert table.select("offer", "valid_from", "valid_to", "source_ids").rows() == [
        (None, d("2026-06-06"), None, "lib;scrape")
    ]
    assert in_force(table, "2026-08-08") == [(None, 0.6)]


def test_a_route_word_at_another_price_stays_its_own_offer():
    table, _ = spells.curate_prices(history("maas", lib_price=0.5), newest=NEWEST)
    assert in_force(table, "2026-08-08") == [("maas", 0.5), (None, 0.6)]


def test_a_word_that_names_an_offer_of_its_own_stays_apart_at_the_same_price():
    table, _ = spells.curate_prices(history("reasoning"), newest=NEWEST)
    assert in_force(table, "2026-08-08") == [("reasoning", 0.6), (None, 0.6)]


def test_a_route_word_stays_where_the_wordless_offer_shows_another_price_on_its_dates():
    # "studio" lists the seller's other route (AI Studio) at 0.06 on the word's dates: the
    # wordless offer is two routes, and the word tells Vertex's apart (no price walk between
    # the two routes' prices).
    studio = price_runs.runs(
        [{"source_id": "studio", "date": d("2026-06-09"), "last_seen": d("2026-08-21"), "input_usd_per_mtok": 0.06, "output_usd_per_mtok": 0.33}],
        model="m",
        provider="google",
    )  # fmt: skip
    both = pl.concat([history("maas"), studio])
    table, _ = spells.curate_prices(both, newest=NEWEST | {"studio": d("2026-08-21")})
    assert in_force(table, "2026-07-01") == [("maas", 0.6), (None, 0.06)]
