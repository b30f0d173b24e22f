"""First-party list prices on hand-made rows whose answers are worked out by hand."""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from analysis.data.schema import TABLES
from analysis.methods import list_prices as lp

D1, D2, D3 = date(2025, 1, 10), date(2025, 2, 10), date(2025, 5, 20)


def token_prices(rows: list[dict]) -> pl.DataFrame:
    """token_prices-shaped rows: each dict gives the columns that matter, the rest are defaults."""
    defaults = {
        "provider": "openai",
        "first_party": True,
        "date": D1,
        "currency": "USD",
        "price_kind": "list",
        "source_id": "src-a",
        "source_locator": "test",
    }
    schema = TABLES["token_prices"].polars_schema
    full = [{c: {**defaults, **r}.get(c) for c in schema} for r in rows]
    return pl.DataFrame(full, schema=schema)


def price(model: str, inp: float | None, out: float | None, **kw) -> dict:
    return {"model_id": model, "input_usd_per_mtok": inp, "output_usd_per_mtok": out, **kw}


MODELS = pl.DataFrame(
    {
        "model_id": ["gpt-a", "claude-b", "gem-c", "other-d"],
        "name": ["GPT A", "Claude B", "Gem C", "Other D"],
        "organization": ["OpenAI", "Anthropic", "Google DeepMind", None],
    }
)


def test_organizations_fold_to_one_label_per_developer():
    orgs = ["Google DeepMind", "Google", "Meta AI", "Mistral", "openai", "Anthropic PBC"]
    orgs += ["DeepSeek-AI", "Alibaba", None]
    out = pl.DataFrame({"organization": orgs}).select(lp.organization_label())["developer"]
    assert out.to_list() == [
        "Google",
        "Google",
        "Meta",
        "Mistral AI",
        "OpenAI",
        "Anthropic",
        "DeepSeek",
        "Other",
        "Other",
    ]
    assert lp.DEVELOPERS[-1] == lp.OTHER


def test_first_party_list_prices_keep_usd_list_prices_with_both_sides_one_row_per_day():
    rows = token_prices(
        [
            price("gpt-a", 1.0, 4.0, source_id="src-a"),
            price("gpt-a", 3.0, 8.0, source_id="src-b"),  # same day, another source: median
            price("gpt-a", 1.0, 4.0, date=D2),
            price("claude-b", 3.0, 15.0, provider="anthropic"),
            price("gem-c", 0.1, 0.4, first_party=False, provider="vertex-reseller"),
            price("gem-c", 0.1, 0.4, price_kind="promotional"),
            price("gem-c", 0.1, 0.4, currency="CNY"),
            price("other-d", 0.5, None),
        ]
    )
    h = lp.first_party_list_prices(rows, MODELS)
    assert h.select("model_id", "date").rows() == [("claude-b", D1), ("gpt-a", D1), ("gpt-a", D2)]
    first = h.row(1, named=True)
    assert (first["input_usd_per_mtok"], first["output_usd_per_mtok"]) == (2.0, 6.0)
    # The median of the two blends (3 x 1 + 4) / 4 = 1.75 and (3 x 3 + 8) / 4 = 4.25.
    assert first[lp.BLENDED] == pytest.approx(3.0)
    assert first["sources"] == "src-a;src-b"
    assert (first["name"], first["developer"]) == ("GPT A", "OpenAI")
    assert h.row(0, named=True)[lp.BLENDED] == pytest.approx((3 * 3 + 15) / 4)


def history(rows: list[tuple]) -> pl.DataFrame:
    cols = ["model_id", "name", "developer", "date", "input_usd_per_mtok", "output_usd_per_mtok"]
    df = pl.DataFrame(rows, schema=cols, orient="row")
    return df.with_columns(
        ((3 * pl.col("input_usd_per_mtok") + pl.col("output_usd_per_mtok")) / 4).alias(lp.BLENDED),
        pl.lit("openai").alias("provider"),
    )


def test_latest_prices_are_each_models_newest_price_within_the_window():
    h = history(
        [
            ("a", "A", "OpenAI", date(2025, 1, 1), 4.0, 4.0),
            ("a", "A", "OpenAI", date(2025, 6, 1), 2.0, 2.0),  # a's newest price
            ("b", "B", "OpenAI", date(2025, 2, 1), 1.0, 1.0),  # 120 days before the newest
            ("c", "C", "OpenAI", date(2025, 1, 31), 0.5, 0.5),  # 121 days: retired
            ("d", "D", "OpenAI", date(2025, 5, 1), 1.0, 1.0),  # ties with b: by id
        ]
    )
    latest = lp.latest_prices(h)
    assert latest.select("model_id", lp.BLENDED).rows() == [("b", 1.0), ("d", 1.0), ("a", 2.0)]
    assert lp.latest_prices(h, window_days=0)["model_id"].to_list() == ["a"]


def test_picks_are_the_cheapest_and_dearest_of_each_main_developer():
    day = date(2025, 6, 1)
    latest = history(
        [
            ("o1", "O one", "OpenAI", day, 1.0, 1.0),
            ("o2", "O two", "OpenAI", day, 2.0, 2.0),
            ("o3", "O three", "OpenAI", day, 3.0, 3.0),
            ("o4b", "O four b", "OpenAI", day, 9.0, 9.0),
            ("o4a", "O four a", "OpenAI", day, 9.0, 9.0),  # ties with o4b: the first id wins
            ("m1", "M one", "Meta", day, 5.0, 5.0),  # cheapest and dearest: counted once
            ("x1", "X one", "Other", day, 0.1, 0.1),  # not a main developer
        ]
    )
    picks = lp.main_developer_picks(latest, per_developer=1)
    assert picks.select("developer", "name").rows() == [
        ("Meta", "M one"),
        ("OpenAI", "O one"),
        ("OpenAI", "O four a"),
    ]
    assert picks.columns[0] == "developer" and lp.BLENDED in picks.columns
    two = lp.main_developer_picks(latest)
    assert two.filter(pl.col("developer") == "OpenAI")["name"].to_list() == [
        "O one",
        "O two",
        "O four a",
        "O four b",
    ]


def test_ratio_by_quarter_gives_median_and_quartiles_of_output_over_input():
    h = history(
        [
            ("a", "A", "OpenAI", date(2025, 1, 5), 1.0, 2.0),
            ("b", "B", "OpenAI", date(2025, 2, 5), 1.0, 4.0),
            ("c", "C", "OpenAI", date(2025, 3, 5), 1.0, 6.0),
            ("e", "E", "OpenAI", date(2025, 3, 7), 1.0, 8.0),
            ("z", "Z", "OpenAI", date(2025, 3, 6), 0.0, 6.0),  # free input: no ratio
            ("d", "D", "OpenAI", date(2025, 4, 1), 2.0, 10.0),
        ]
    )
    r = lp.ratio_by_quarter(h)
    assert r["quarter"].to_list() == [date(2025, 1, 1), date(2025, 4, 1)]
    assert r.row(0, named=True) == {
        "quarter": date(2025, 1, 1),
        "median": 5.0,  # of 2, 4, 6, 8
        "q25": 4.0,  # polars' default quantile rule picks the nearest observation
        "q75": 6.0,
        "n": 4,
    }
    assert r["median"][1] == 5.0


def test_discounts_are_shares_of_the_standard_input_price_for_providers_with_enough_models():
    rows = []
    for i, m in enumerate(["m1", "m2", "m3"]):
        rows.append(price(m, 1.0, 2.0, provider="big", cached_input_usd_per_mtok=0.1 * (i + 1)))
        rows.append(price(m, 2.0, 4.0, provider="big", batch_input_usd_per_mtok=1.0))
    for m in ["m1", "m2", "m3"]:
        rows.append(price(m, 1.0, 2.0, provider="also", cached_input_usd_per_mtok=0.5))
    rows.append(price("m1", 1.0, 2.0, provider="small", cached_input_usd_per_mtok=0.5))
    rows.append(price("m4", 1.0, 2.0, provider="big", currency="CNY", cached_input_usd_per_mtok=0))
    rows.append(price("m5", 0.0, 2.0, provider="big", cached_input_usd_per_mtok=0.0))
    d = lp.discounts(token_prices(rows))
    assert d.select("discount", "provider", "models").rows() == [
        ("batch input", "big", 3),
        ("cached input", "also", 3),  # ties on models: alphabetical
        ("cached input", "big", 3),
    ]
    shares = dict(zip(d["discount"] + " " + d["provider"], d["median_share"], strict=True))
    assert shares["cached input big"] == pytest.approx(0.2)  # median of 0.1, 0.2, 0.3
    assert shares["batch input big"] == pytest.approx(0.5)
    assert lp.discounts(token_prices(rows), min_models=1).height == 4  # "small" comes in
    top = lp.top_discounts(d, per_kind=1)
    assert top.select("discount", "provider").rows() == [
        ("batch input", "big"),
        ("cached input", "also"),
    ]
    summary = lp.discount_summary(d)
    assert summary["batch input"] == {"median_share": pytest.approx(0.5), "n_providers": 1}
    assert summary["cached input"]["median_share"] == pytest.approx((0.5 + 0.2) / 2)
    assert summary["cached input"]["n_providers"] == 2


def test_non_usd_prices_are_converted_at_the_month_rate_or_a_stated_earlier_one():
    rows = token_prices(
        [
            price("gem-c", None, None, currency="CNY", blended_original_per_mtok=7.0, date=D1),
            price("gem-c", None, None, currency="CNY", input_original_per_mtok=14.0, date=D3),
            price("gpt-a", 1.0, 2.0),
        ]
    )
    fx = pl.DataFrame(
        {"currency": ["CNY", "CNY"], "month": [date(2025, 1, 1), date(2025, 2, 1)]}
    ).with_columns(pl.Series("per_usd", [7.0, 7.0]))
    out = lp.non_usd_prices(rows, fx, MODELS)
    assert out["name"].to_list() == ["Gem C", "Gem C"]
    assert out["blended_original_per_mtok_usd"][0] == pytest.approx(1.0)
    assert out["input_original_per_mtok_usd"][1] == pytest.approx(2.0)
    assert out["fx_month"].to_list() == [date(2025, 1, 1), date(2025, 2, 1)]  # May uses February
    with pytest.raises(ValueError, match="no exchange rate for CNY in 2025-05"):
        lp.non_usd_prices(rows, fx, MODELS, max_carry_months=2)
    assert lp.last_rate_month(fx, "CNY") == date(2025, 2, 1)
    with pytest.raises(LookupError, match="EUR"):
        lp.last_rate_month(fx, "EUR")


def test_constant_dollars_restate_at_the_latest_cpi_month():
    cpi = pl.DataFrame(
        {"month": [date(2024, 1, 1), date(2024, 2, 1), date(2025, 1, 1)]}
    ).with_columns(pl.Series("cpi_u", [100.0, 105.0, 110.0]))
    series = pl.DataFrame({"month": [date(2024, 1, 1), date(2024, 2, 1)], "price": [10.0, 21.0]})
    long, base = lp.nominal_and_real(series, cpi)
    assert base == date(2025, 1, 1)
    real = long.filter(pl.col("dollars") == "constant January 2025 dollars")["price"]
    assert real.to_list() == pytest.approx([11.0, 22.0])  # x 110/100 and x 110/105
    assert long.filter(pl.col("dollars") == "nominal")["price"].to_list() == [10.0, 21.0]
    assert lp.cpi_change(cpi, date(2024, 1, 1), base) == pytest.approx(0.10)
    with pytest.raises(LookupError, match="2023-12"):
        lp.cpi_change(cpi, date(2023, 12, 1), base)


def test_model_name_from_the_models_table_or_its_id():
    models = pl.DataFrame({"model_id": ["a", "b", "b2", "b2"], "name": ["A one", None, "x", "y"]})
    assert lp.model_name(models, "a") == "A one"
    assert lp.model_name(models, "b") == "b"
    with pytest.raises(LookupError, match="models has 2 rows for 'b2'"):
        lp.model_name(models, "b2")
    with pytest.raises(LookupError, match="models has 0 rows for 'c'"):
        lp.model_name(models, "c")
