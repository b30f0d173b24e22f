"""The labelled last resort for release dates (issue 19, class 8): a first listing bounds the
release from above, says so, and is never a release date `before_release` judges against.
Every expected date below is read off the hand-made frames."""

from __future__ import annotations

from datetime import date

import polars as pl

from analysis.data.curate import flags
from analysis.data.curate.models_table import date_by_first_listing, month_day_date

NOTE = "release_date_note"


def models(rows: list[dict]) -> pl.DataFrame:
    base = {"name": None, "release_date": None, "release_date_source_id": None, NOTE: None}
    schema = {
        "model_id": pl.String, "name": pl.String, "release_date": pl.Date,
        "release_date_source_id": pl.String, NOTE: pl.String,
    }  # fmt: skip
    return pl.DataFrame([base | r for r in rows], schema=schema)


def prices(rows: list[tuple[str, str, date]]) -> pl.DataFrame:
    return pl.DataFrame(
        [{"model_id": m, "source_id": s, "date": d, "valid_from": d} for m, s, d in rows],
        schema={"model_id": pl.String, "source_id": pl.String, "date": pl.Date,
                "valid_from": pl.Date},
    )  # fmt: skip


def by_id(df: pl.DataFrame) -> dict[str, dict]:
    return {r["model_id"]: r for r in df.to_dicts()}


def test_first_listing_is_the_earliest_row_labelled_an_upper_bound():
    m = models(
        [
            {"model_id": "undated"},
            {"model_id": "dated", "release_date": date(2024, 5, 1),
             "release_date_source_id": "epoch-ai-models"},
            {"model_id": "monthly"},
            {"model_id": "or-late", "release_date": date(2025, 9, 8),
             "release_date_source_id": "openrouter-sui414",
             NOTE: "listing date (openrouter-sui414), no source dates the release"},
            {"model_id": "or-early", "release_date": date(2025, 1, 2),
             "release_date_source_id": "openrouter-sui414",
             NOTE: "listing date (openrouter-sui414), no source dates the release"},
            {"model_id": "foo-latest"},
            {"model_id": "never-priced"},
        ]
    )  # fmt: skip
    tp = prices(
        [
            ("undated", "litellm-rocry", date(2025, 3, 10)),
            ("undated", "tokencost", date(2025, 2, 1)),
            ("dated", "tokencost", date(2024, 1, 1)),
            # a month-dated source lists the model somewhere in January: from the 31st
            ("monthly", "gundlach-inference", date(2025, 1, 1)),
            ("monthly", "simonw-llm-prices", date(2025, 1, 20)),
            ("or-late", "genai-prices", date(2025, 8, 1)),
            ("or-early", "genai-prices", date(2025, 8, 1)),
            ("foo-latest", "tokencost", date(2024, 6, 1)),
        ]
    )
    out = by_id(date_by_first_listing(m, tp))
    assert out["undated"]["release_date"] == date(2025, 2, 1)
    assert out["undated"]["release_date_source_id"] == "tokencost"
    assert out["undated"][NOTE].startswith("first listing (tokencost, 2025-02-01): an upper bound")
    assert out["dated"]["release_date"] == date(2024, 5, 1)  # a dated release is kept
    assert out["dated"][NOTE] is None
    assert out["monthly"]["release_date"] == date(2025, 1, 20)
    assert out["or-late"]["release_date"] == date(2025, 8, 1)  # the tighter bound
    assert out["or-late"]["release_date_source_id"] == "genai-prices"
    assert out["or-early"]["release_date"] == date(2025, 1, 2)
    assert out["foo-latest"]["release_date"] is None  # a moving alias stays undated
    assert out["never-priced"]["release_date"] is None


def test_a_month_day_id_is_dated_only_where_one_year_fits():
    fam = date(2023, 3, 14)
    assert month_day_date("gpt-4-0613", fam, date(2023, 7, 1)) == date(2023, 6, 13)
    # listed in 2024 after June 13: 2023-06-13 and 2024-06-13 both fit, so no date
    assert month_day_date("gpt-4-0613", fam, date(2024, 7, 1)) is None
    # listed on the month-day itself: that day fits (never after the first listing)
    assert month_day_date("gpt-4-0613", fam, date(2023, 6, 13)) == date(2023, 6, 13)
    assert month_day_date("gpt-4-0613", None, date(2023, 7, 1)) is None
    assert month_day_date("gpt-4-0230", fam, date(2023, 7, 1)) is None  # no such day
    m = models(
        [
            {"model_id": "fam", "release_date": fam, "release_date_source_id": "epoch-ai-models"},
            {"model_id": "fam-0613"},
            {"model_id": "fam-0101"},
            {"model_id": "moving", "name": "Moving (moving alias)", "release_date": fam,
             "release_date_source_id": "epoch-ai-models"},
            {"model_id": "moving-0613"},
        ]
    )  # fmt: skip
    tp = prices(
        [
            ("fam-0613", "tokencost", date(2023, 7, 1)),
            ("fam-0101", "tokencost", date(2024, 7, 1)),
            ("moving-0613", "tokencost", date(2023, 7, 1)),
        ]
    )
    out = by_id(date_by_first_listing(m, tp))
    assert out["fam-0613"]["release_date"] == date(2023, 6, 13)
    assert out["fam-0613"]["release_date_source_id"] == "epoch-ai-models"
    assert out["fam-0613"][NOTE].startswith("month-day in the id, year fixed by fam's release")
    # 2024-01-01 is the only January 1st between 2023-03-14 and 2024-07-01
    assert out["fam-0101"]["release_date"] == date(2024, 1, 1)
    # a moving alias's date is one snapshot's: no lower bound, so only the first listing
    assert out["moving-0613"]["release_date"] == date(2023, 7, 1)
    assert out["moving-0613"][NOTE].startswith("first listing")


def test_before_release_is_not_judged_against_a_first_listing():
    # A row dated before the model's first listing cannot be (the listing is the earliest
    # row), but a release built earlier or a row added later can: the bound is no release.
    tp = pl.DataFrame(
        {"model_id": ["listed", "released"], "source_id": ["s", "s"],
         "date": [date(2024, 1, 1)] * 2, "valid_from": [date(2024, 1, 1)] * 2},
    )  # fmt: skip
    m = pl.DataFrame(
        {"model_id": ["listed", "released"], "name": [None, None],
         "release_date": [date(2025, 1, 1)] * 2, "release_date_source_id": ["tokencost", "x"],
         NOTE: ["first listing (tokencost, 2025-01-01): an upper bound on the release date", None],
         "resolved": [True, True]},
        schema_overrides={"name": pl.String},
    )  # fmt: skip
    res = flags.before_release(tp, m)
    assert res.evaluable.to_list() == [False, True]
    assert res.flagged.to_list() == [False, True]
