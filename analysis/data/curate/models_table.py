"""The `models` table: one row per model id, its facts taken from the sources' model metadata
by a stated precedence (release dates by `choose_release_date`), its developer from the
developer table (analysis/data/curate/first_party.py).

`build_models(resolved_names, model_info)` builds it from `models.resolve` rows (catalog and
source metadata identify a model); `build_models_curated(refs, model_info)` from the references
the curated identity step (analysis/data/curate/identity.py) gives.
"""

from __future__ import annotations

import re
from datetime import date

import polars as pl

from analysis.data.curate.first_party import developer_of
from analysis.data.models import (
    EPOCH_REASONING_MODELS,
    _aliases,
    _check_columns,
    _empty_info,
    catalog,
    resolve,
)
from analysis.data.schema import TABLES


def build_models(
    resolved_names: pl.DataFrame, model_info: pl.DataFrame | None = None
) -> pl.DataFrame:
    """The `models` table for rows of `resolve()` (model_id, resolved): catalog and source
    metadata identify a model; the facts and their precedence are `build_models_curated`'s."""
    _check_columns(
        resolved_names,
        ["source_id", "source_model_name", "model_id"],
        "build_models(resolved_names)",
    )
    _aliases(resolved_names)  # rejects the alias separator in a name
    cat_ids = set(catalog().entries["model_id"])
    resolved = (
        pl.col("resolved") if "resolved" in resolved_names.columns else pl.lit(True)
    ).fill_null(False)
    refs = resolved_names.with_columns(
        pl.when(resolved & pl.col("model_id").is_in(list(cat_ids)))
        .then(pl.lit("catalog"))
        .when(resolved)
        .then(pl.lit("source metadata"))
        .alias("identified_by"),
        pl.lit(None, dtype=pl.String).alias("namespace"),
        pl.lit(None, dtype=pl.String).alias("unresolved_reason"),
    ).select(
        "model_id", "source_id", "source_model_name", "identified_by", "namespace",
        "unresolved_reason",
    )  # fmt: skip
    return build_models_curated(refs, model_info)


# --------------------------------------------------------------------------------------------
# the curated models table (releases from 2026-12-01)
# --------------------------------------------------------------------------------------------

# Release dates: Epoch's curated databases first, then the newer Epoch hub, Artificial Analysis,
# the hand-curated timelines, the research tables. OpenRouter's `created_at` is the date it
# listed a model, not the release: used only where nothing else dates the model, and never as
# evidence against another source.
RELEASE_PRECEDENCE = [
    "epoch-ai-models",
    "epoch-benchmarking-hub-2026-04",
    "epoch-benchmarking-hub",
    "epoch-benchmark-stitching",
    "artificial-analysis",
    "token-tariff",
    "metr-release-dates",
    "gundlach-inference",
]
LISTING_DATE_SOURCES = frozenset({"openrouter-sui414"})
AGREE_DAYS = 7  # dates this close are the same release (announcement vs API availability)
NOTE_DAYS = 30  # a date further than this from the chosen one is noted


def _precedence(source_id: str) -> int:
    if source_id in LISTING_DATE_SOURCES:
        return len(RELEASE_PRECEDENCE) + 2
    if source_id in RELEASE_PRECEDENCE:
        return RELEASE_PRECEDENCE.index(source_id)
    return len(RELEASE_PRECEDENCE) + 1


def choose_release_date(
    stated: list[tuple[str, date]],
) -> tuple[date | None, str | None, str | None]:
    """(date, source, note) from every (source, date) a model's sources state.

    Dates within `AGREE_DAYS` of each other are one release. The release most sources state
    wins (a lone typo of a year loses to the others); a tie goes to source precedence, and the
    earliest date of the winning group is the release date. Listing dates count only where no
    source dates the release. Dates more than `NOTE_DAYS` from the chosen one are noted.
    """
    dated = [(s, d) for s, d in stated if d is not None]
    if not dated:
        return None, None, None
    real = [(s, d) for s, d in dated if s not in LISTING_DATE_SOURCES] or dated
    groups: list[list[tuple[str, date]]] = []
    for s, d in sorted(real, key=lambda x: x[1]):
        if groups and (d - groups[-1][0][1]).days <= AGREE_DAYS:
            groups[-1].append((s, d))
        else:
            groups.append([(s, d)])

    def score(g: list[tuple[str, date]]) -> tuple:
        return (-len({s for s, _ in g}), min(_precedence(s) for s, _ in g))

    best = min(groups, key=score)
    chosen = min(best, key=lambda x: (x[1], _precedence(x[0])))
    far = sorted({(d, s) for s, d in real if abs((d - chosen[1]).days) > NOTE_DAYS})
    note = "; ".join(f"{d.isoformat()} ({s})" for d, s in far) or None
    return chosen[1], chosen[0], note


IDENTIFIED_ORDER = ["catalog", "source metadata", "repository id", "developer family"]

# A snapshot date written in the id itself (claude-3.7-sonnet-2025-02-19, gpt-4o-20240513): the
# release of that snapshot, dated by the source that wrote the name (issue 19, class 8).
ID_DATE = re.compile(r"(?<!\d)(20[2-3]\d)-?(0[1-9]|1[0-2])-?(0[1-9]|[12]\d|3[01])(?!\d)")
# A numbered first snapshot (gemini-2.0-flash-001) is its family's release.
FIRST_SNAPSHOT = re.compile(r"^(?P<family>.+)-001$")
# A leaderboard's variant label after a model name ("GPT-5.6 Luna (low)", "(Non-reasoning)",
# "(Reasoning, High Effort)"): a setting of the model, not part of its name.
VARIANT_LABEL = re.compile(
    r"\s*\((?:(?:non-)?reasoning|minimal|low|medium|high|xhigh|max|adaptive(?: reasoning)?|thinking"
    r"|(?:(?:adaptive |non-)?reasoning, )?[\w ]*effort)\)\s*$",
    re.IGNORECASE,
)


def id_date(model_id: str) -> date | None:
    """The snapshot date written in a model id, if it is a real calendar date."""
    m = ID_DATE.search(model_id)
    if m is None:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def display_name(name: str | None, model_id: str) -> str | None:
    """`name` without trailing leaderboard variant labels whose words the id does not carry
    (the id is then the base model; `gpt-5.6-sol-high` would keep "(high)")."""
    if name is None:
        return None
    while (m := VARIANT_LABEL.search(name)) is not None:
        words = re.findall(r"[a-z]+", m.group(0).lower())
        if any(w in model_id.lower().split("-") for w in words if w not in ("effort",)):
            break
        name = name[: m.start()]
    return name or None


def date_mechanically(table: pl.DataFrame, refs: pl.DataFrame) -> pl.DataFrame:
    """Release dates for undated models by the mechanical routes: a date in the id (dated by the
    source that wrote the name), else the `-001` first snapshot of a dated family (dated as its
    family). A listing date is no release date: these routes replace it (qwen-plus-2025-07-28,
    listed by OpenRouter on 2025-09-08). The note says which route; listing dates left stay
    labelled as listing dates."""
    writer = (
        refs.sort("source_id", "source_model_name")
        .group_by("model_id")
        .agg(pl.col("source_id").first().alias("_writer"))
    )
    dated = table.filter(pl.col("release_date").is_not_null()).select(
        pl.col("model_id").alias("_family"),
        pl.col("release_date").alias("_fam_date"),
        pl.col("release_date_source_id").alias("_fam_src"),
        pl.col("release_date_note").alias("_fam_note"),
    )
    undated = pl.col("release_date").is_null() | pl.col("release_date_source_id").is_in(
        list(LISTING_DATE_SOURCES)
    )
    out = (
        table.join(writer, on="model_id", how="left")
        .with_columns(
            pl.col("model_id").map_elements(id_date, return_dtype=pl.Date).alias("_id_date"),
            pl.col("model_id").str.extract(FIRST_SNAPSHOT.pattern, 1).alias("_family"),
        )
        .join(dated, on="_family", how="left")
    )
    by_id = undated & pl.col("_id_date").is_not_null()
    by_family = undated & pl.col("_id_date").is_null() & pl.col("_fam_date").is_not_null()
    return out.with_columns(
        pl.when(by_id).then("_id_date").when(by_family).then("_fam_date")
        .otherwise("release_date").alias("release_date"),
        pl.when(by_id).then("_writer").when(by_family).then("_fam_src")
        .otherwise("release_date_source_id").alias("release_date_source_id"),
        pl.when(by_id).then(pl.lit("date in the model id"))
        .when(by_family).then(pl.format("first snapshot (-001) of {}", "_family"))
        .otherwise("release_date_note").alias("release_date_note"),
    ).drop("_writer", "_id_date", "_family", "_fam_date", "_fam_src", "_fam_note")  # fmt: skip


# A snapshot of a family: a date (2025-11-13, 0309, 2507) or a bare preview/exp tag after the
# family's id. `-preview-tts` and the like are other models, not snapshots.
SNAPSHOT_OF = re.compile(
    r"^(?P<family>.+?)-(?:20\d\d-?\d\d-?\d\d|\d{4}|preview(?:-20\d\d-?\d\d(?:-?\d\d)?|-\d\d-\d\d)?|exp)$"
)


def reasoning_by_family(table: pl.DataFrame) -> pl.DataFrame:
    """One `reasoning` flag per family (issue 19, class 8): a family id and its snapshots
    (`magistral-medium-2506`, `-2509`; `gemini-3-pro`, `-preview`) where no source states the
    flag of one of them take the flag the others' sources state, when those agree. Where they
    disagree (`qwen-3-4b` false, `qwen-3-4b-2507` true: different weights) nothing changes."""

    def family(model_id: str) -> str:
        m = SNAPSHOT_OF.match(model_id)
        return m["family"] if m else model_id

    fam = table.with_columns(
        pl.col("model_id").map_elements(family, return_dtype=pl.String).alias("_fam")
    )
    stated = fam.group_by("_fam").agg(pl.col("reasoning").drop_nulls().unique().alias("_flags"))
    agreed = stated.filter(pl.col("_flags").list.len() == 1).select(
        "_fam", pl.col("_flags").list.first().alias("_fam_flag")
    )
    return (
        fam.join(agreed, on="_fam", how="left")
        .with_columns(pl.coalesce("reasoning", "_fam_flag").alias("reasoning"))
        .drop("_fam", "_fam_flag")
    )


def label_listing_dates(table: pl.DataFrame) -> pl.DataFrame:
    """A release date that is a marketplace's listing date (nothing else dates the model) says
    so in its note (issue 19, class 7): never silently a release date."""
    # A date the listing source wrote in the model's id is the id's date, not its listing date.
    in_id = pl.col("release_date_note").fill_null("") == "date in the model id"
    listing = pl.col("release_date_source_id").is_in(list(LISTING_DATE_SOURCES)) & ~in_id
    label = pl.format("listing date ({}), no source dates the release", "release_date_source_id")
    return table.with_columns(
        pl.when(listing & pl.col("release_date_note").is_null()).then(label)
        .when(listing).then(pl.concat_str([label, pl.col("release_date_note")], separator="; "))
        .otherwise("release_date_note").alias("release_date_note")
    )  # fmt: skip


# The last resort (issue 19, class 8): where no source dates a model, the first date any source
# the build reads lists it (the earliest snapshot of a price library's history that holds it) is
# an upper bound on its release, labelled so in release_date_note. Never a release date to judge
# prices against (`before_release`), never evidence against another source's date.
FIRST_LISTING = "first listing"
# A month-day in an id without a year (gpt-4-0613): the snapshot is no older than its family's
# release and no newer than its first listing; where exactly one such month-day falls between
# the two, that is its date.
MONTH_DAY = re.compile(r"^(?P<family>.+)-(?P<m>0[1-9]|1[0-2])(?P<d>0[1-9]|[12]\d|3[01])$")
MOVING_ID = re.compile(r"-latest(?:-\d+k)?$")


def is_listing_date() -> pl.Expr:
    """A release date that is only a listing (a marketplace's listing date or a first listing):
    an upper bound on the release, not a release date."""
    note = pl.col("release_date_note").fill_null("")
    return note.str.starts_with(FIRST_LISTING) | note.str.starts_with("listing date")


def first_listings(token_prices: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """model_id, the first date a price row lists it, and the source of that row (ties: the
    first source id). A source that dates prices by month lists a model somewhere in that month:
    its listing counts from the month's last day, so the bound stays an upper bound."""
    from analysis.data.curate.flags import MONTHLY_SOURCES

    lf = token_prices.lazy() if isinstance(token_prices, pl.DataFrame) else token_prices
    names = lf.collect_schema().names()
    day = pl.min_horizontal("date", "valid_from") if "valid_from" in names else pl.col("date")
    listed = (
        pl.when(pl.col("source_id").is_in(list(MONTHLY_SOURCES)))
        .then(pl.col("date").dt.month_end())
        .otherwise(day)
    )
    return (
        lf.filter(pl.col("model_id").is_not_null())
        .select("model_id", "source_id", listed.alias("_listed"))
        .drop_nulls("_listed")
        .sort("model_id", "_listed", "source_id")
        .group_by("model_id", maintain_order=True)
        .agg(pl.col("_listed").first(), pl.col("source_id").first().alias("_listed_by"))
        .collect()
    )


def month_day_date(model_id: str, family_date: date | None, listed: date) -> date | None:
    """The date of a month-day id (`-0613`) when exactly one such month-day falls between its
    family's release (a lower bound: a snapshot is no older than its family) and its first
    listing (an upper bound); else None. Never after the first listing."""
    m = MONTH_DAY.match(model_id)
    if m is None or family_date is None:
        return None
    fits = []
    for year in range(family_date.year, listed.year + 1):
        try:
            d = date(year, int(m["m"]), int(m["d"]))
        except ValueError:
            continue
        if family_date <= d <= listed:
            fits.append(d)
    return fits[0] if len(fits) == 1 else None


def date_by_first_listing(
    table: pl.DataFrame, token_prices: pl.DataFrame | pl.LazyFrame
) -> pl.DataFrame:
    """Release dates for the models nothing dates (issue 19, class 8, the labelled last resort).

    - A month-day id (`gpt-4-0613`) whose family is dated by a release source (not a listing,
      not a moving alias) takes the one month-day between the family's release and the id's
      first listing, where there is exactly one; its source is the family's, the note says how.
    - Else the first listing (`first_listings`), with its source and a note saying it is a first
      listing, an upper bound on the release date. A marketplace listing date
      (`LISTING_DATE_SOURCES`) later than the first listing gives way to it (a tighter bound).
    Moving aliases (`-latest`, a name the models table calls a moving alias) stay undated: their
    release would be one snapshot's."""
    if table.is_empty():
        return table
    first = first_listings(token_prices)
    moving = pl.col("model_id").str.contains(MOVING_ID.pattern) | pl.col("name").fill_null(
        ""
    ).str.to_lowercase().str.contains("moving alias")
    listing = is_listing_date()
    family_ok = table.filter(pl.col("release_date").is_not_null() & ~listing & ~moving).select(
        pl.col("model_id").alias("_family"),
        pl.col("release_date").alias("_fam_date"),
        pl.col("release_date_source_id").alias("_fam_src"),
    )
    out = (
        table.join(first, on="model_id", how="left")
        .with_columns(pl.col("model_id").str.extract(MONTH_DAY.pattern, 1).alias("_family"))
        .join(family_ok, on="_family", how="left")
    )
    md = [
        month_day_date(i, f, first) if first is not None and f is not None else None
        for i, f, first in zip(out["model_id"], out["_fam_date"], out["_listed"], strict=True)
    ]
    out = out.with_columns(pl.Series("_md_date", md, dtype=pl.Date))
    open_ = (
        pl.col("release_date").is_null() | (listing & (pl.col("_listed") < pl.col("release_date")))
    ) & ~moving
    by_md = open_ & pl.col("_md_date").is_not_null()
    by_first = open_ & ~by_md & pl.col("_listed").is_not_null()
    md_note = pl.format(
        "month-day in the id, year fixed by {}'s release ({}, {}) and the first listing ({}, {})",
        "_family",
        "_fam_src",
        "_fam_date",
        "_listed_by",
        "_listed",
    )
    first_note = pl.format(
        FIRST_LISTING
        + " ({}, {}): an upper bound on the release date; no source dates the release",
        "_listed_by",
        "_listed",
    )
    return out.with_columns(
        pl.when(by_md).then("_md_date").when(by_first).then("_listed")
        .otherwise("release_date").alias("release_date"),
        pl.when(by_md).then("_fam_src").when(by_first).then("_listed_by")
        .otherwise("release_date_source_id").alias("release_date_source_id"),
        pl.when(by_md).then(md_note).when(by_first).then(first_note)
        .otherwise("release_date_note").alias("release_date_note"),
    ).select(table.columns)  # fmt: skip


def build_models_curated(refs: pl.DataFrame, model_info: pl.DataFrame | None) -> pl.DataFrame:
    """The `models` table of a curated release.

    `refs`: one row per (model_id, source_id, source_model_name) the price and score rows use,
    with `identified_by`, `namespace` and `unresolved_reason` (analysis/data/curate/identity.py).
    Facts come from `model_info` (sources only; the catalog gives names and organisations).
    """
    info = _empty_info() if model_info is None or model_info.is_empty() else model_info
    if "model_id" not in info.columns:
        info = resolve(info, info)
    info = info.with_columns(
        pl.col("source_id").map_elements(_precedence, return_dtype=pl.Int64).alias("_rank")
    ).sort("model_id", "_rank", "source_id", "source_locator", nulls_last=True)
    facts = info.group_by("model_id", maintain_order=True).agg(
        *[pl.col(f).drop_nulls().first().alias(f) for f in ("name", "organization", "open_weights",
                                                             "parameters_b", "active_parameters_b")],
        *[pl.col("source_id").filter(pl.col(f).is_not_null()).first().alias(f"_src_{f}")
          for f in ("organization", "parameters_b", "open_weights")],
        # A reasoning model always reasons: a source that says a model answers without
        # reasoning (a hybrid's non-reasoning mode) outweighs sources that saw it reason.
        pl.col("reasoning").drop_nulls().min().alias("reasoning"),
        pl.struct("source_id", "release_date").filter(pl.col("release_date").is_not_null())
        .alias("_dates"),
    )  # fmt: skip
    chosen = [
        choose_release_date([(d["source_id"], d["release_date"]) for d in ds])
        for ds in facts["_dates"].to_list()
    ]
    facts = facts.with_columns(
        pl.Series("release_date", [c[0] for c in chosen], dtype=pl.Date),
        pl.Series("release_date_source_id", [c[1] for c in chosen], dtype=pl.String),
        pl.Series("release_date_note", [c[2] for c in chosen], dtype=pl.String),
    ).drop("_dates")
    rank = {v: i for i, v in enumerate(IDENTIFIED_ORDER)}
    per_model = (
        refs.with_columns(
            pl.col("identified_by")
            .replace_strict(rank, default=None, return_dtype=pl.Int64)
            .alias("_how")
        )
        .group_by("model_id")
        .agg(
            pl.col("source_model_name").unique().sort().str.join(";").alias("aliases"),
            pl.col("source_model_name").sort().first().alias("_first_name"),
            pl.col("_how").min().alias("_how"),
            pl.col("namespace").drop_nulls().sort().first().alias("_namespace"),
            pl.col("unresolved_reason")
            .drop_nulls()
            .unique()
            .sort()
            .str.join("; ")
            .alias("_reason"),
            pl.col("unresolved_reason").is_null().any().alias("_some_resolved"),
        )
    )
    order = pl.Series(IDENTIFIED_ORDER)
    cat = catalog().entries.select(
        "model_id", pl.col("name").alias("_cat_name"), pl.col("organization").alias("_cat_org")
    )
    epoch_reasoning = pl.col("model_id").is_in(list(EPOCH_REASONING_MODELS))
    table = (
        per_model.join(facts, on="model_id", how="left")
        .join(cat, on="model_id", how="left")
        .with_columns(
            pl.when(pl.col("_some_resolved") & pl.col("_how").is_not_null())
            .then(pl.col("_how").map_elements(lambda i: order[i], return_dtype=pl.String))
            .alias("identified_by"),
            pl.coalesce("_cat_name", "name", "_first_name").alias("name"),
            pl.coalesce("organization", "_cat_org", "_namespace").alias("organization"),
        )
        .with_columns(
            pl.col("identified_by").is_not_null().alias("resolved"),
            pl.when(pl.col("identified_by").is_null())
            .then(
                pl.when(pl.col("_reason") != "")
                .then(pl.col("_reason"))
                .otherwise(pl.lit("no catalog entry or source metadata names it"))
            )
            .alias("unresolved_reason"),
            pl.col("organization")
            .map_elements(developer_of, return_dtype=pl.String)
            .alias("developer"),
            pl.when(pl.col("reasoning").is_not_null())
            .then(pl.col("reasoning"))
            .when(epoch_reasoning)
            .then(pl.lit(True))
            .alias("reasoning"),
            pl.coalesce(
                "release_date_source_id",
                "_src_organization",
                "_src_parameters_b",
                "_src_open_weights",
            ).alias("info_source_id"),
        )
        .sort("model_id")
    )
    table = reasoning_by_family(label_listing_dates(date_mechanically(table, refs))).with_columns(
        pl.struct("name", "model_id")
        .map_elements(lambda r: display_name(r["name"], r["model_id"]), return_dtype=pl.String)
        .alias("name")
    )
    spec = TABLES["models"]
    return table.select([pl.col(c).cast(t) for c, t in spec.polars_schema.items()])
