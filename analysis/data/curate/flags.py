"""Anomaly rules: each a named function that says which rows break it and which it can judge.

A rule takes the curated table (and the context it needs) and returns two boolean columns:
`flagged` (the row breaks the rule) and `evaluable` (the rule could judge the row). A row the
rule cannot judge (a model with no release date, a price with nothing to compare to) is never
flagged: it is counted as not evaluable, so `data diff` and `data info` can say how many rows
each rule could not check. Flagged rows stay in the data with their provenance; the rule ids go
into the `flags` column, `;`-separated, in `RULES` order. `analysis.methods.prices.clean` drops
them by default and says how many each rule removed.

The rule ids are the contract: chapters quote them, tests name them. Thresholds are constants
here, each with the reason it has that value.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import polars as pl


@dataclass(frozen=True)
class Result:
    flagged: pl.Series
    evaluable: pl.Series


@dataclass(frozen=True)
class Rule:
    id: str
    table: str
    check: Callable[..., Result]

    @property
    def why(self) -> str:
        return (self.check.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")


def _all(df: pl.DataFrame, value: bool) -> pl.Series:
    return pl.Series([value] * df.height, dtype=pl.Boolean)


# --------------------------------------------------------------------------------------------
# token prices
# --------------------------------------------------------------------------------------------

# One seller's identical price for models whose sizes span more than this factor. Real price
# lists scale with size (Fireworks' buckets: <4B, 4-16B, >16B, each within ~25x); 3B and 405B at
# one price is a placeholder.
PLACEHOLDER_SPAN = 30.0
PLACEHOLDER_MIN_MODELS = 3
# A price this many times above or below the same model's median price at the other sellers on
# overlapping dates. Legitimate provider spreads reach ~10-20x (speed tiers, 405B on small
# hosts); per-token vs per-1M-token slips and per-request fees read as per-token are 100x-1e6x.
UNIT_SLIP_FACTOR = 25.0
# Announcement prices precede API availability by days (Claude 3 Haiku: priced 2024-03-04,
# available 2024-03-13): a price up to this many days before the release date is not flagged.
RELEASE_GRACE_DAYS = 14
# Sources that date prices by month (Gundlach's `M/1/YYYY` columns): compared by month.
MONTHLY_SOURCES = frozenset({"gundlach-inference"})

NON_TEXT = re.compile(
    r"(?:^|[-.])(?:tts|text-to-speech|speech|whisper|transcribe|transcription|audio|realtime|"
    r"native-audio|live|voxtral|embed|embedding|embeddings|rerank|moderation|image|imagen|"
    r"dall-e|flux|stable-diffusion|sdxl|veo|sora|lyria|music)(?:[-.]|$)"
)


def _size(model_id: str) -> float | None:
    """Total parameters in billions the id states (`-70b`, `8x7b`), or None."""
    moe = re.search(r"(?:^|-)(\d+)x(\d+(?:\.\d+)?)b(?=-|$)", model_id)
    if moe:
        return float(moe[1]) * float(moe[2])
    dense = re.search(r"(?:^|-)(\d+(?:\.\d+)?)b(?=-|$)", model_id)
    return float(dense[1]) if dense else None


def _end(df: pl.DataFrame) -> pl.Expr:
    return pl.coalesce("valid_to", "last_seen", "date")


def placeholder_price(prices: pl.DataFrame, models: pl.DataFrame) -> Result:
    """A seller's identical input and output price for models whose sizes span more than 30x.

    A source that prices every route of a host from 3B to 405B at one price (0.12/0.30) has
    copied a placeholder, not the host's price list; it alone makes a model's provider spread
    look 89x. Compared within one source and seller, among prices in force on overlapping
    dates. Not evaluable where the row's model states no size, or the seller is unspecified.
    """
    stated = models.select("model_id", "parameters_b")
    df = prices.with_row_index("_i").join(stated, on="model_id", how="left").sort("_i")
    from_name = pl.col("model_id").map_elements(_size, return_dtype=pl.Float64)
    df = df.with_columns(pl.coalesce("parameters_b", from_name).alias("_size")).drop("parameters_b")
    df = df.with_columns(_end(df).alias("_end"), pl.coalesce("valid_from", "date").alias("_start"))
    key = ["source_id", "provider", "input_usd_per_mtok", "output_usd_per_mtok"]
    priced = (pl.col("input_usd_per_mtok") > 0) | (pl.col("output_usd_per_mtok") > 0)
    cand = df.filter(
        pl.col("_size").is_not_null()
        & pl.col("input_usd_per_mtok").is_not_null()
        & priced  # a free tier (0/0) is an offer, not a placeholder
        & (pl.col("provider") != "unspecified")
    )
    cand = cand.select("_i", *key, "model_id", "_size", "_start", "_end")  # what pairs read
    pairs = cand.join(cand, on=key, suffix="_o").filter(
        (pl.col("_start_o") <= pl.col("_end")) & (pl.col("_end_o") >= pl.col("_start"))
    )
    span = pairs.group_by("_i").agg(
        pl.col("model_id_o").n_unique().alias("_n"),
        (pl.col("_size_o").max() / pl.col("_size_o").min()).alias("_span"),
    )
    hit = set(
        span.filter(
            (pl.col("_n") >= PLACEHOLDER_MIN_MODELS) & (pl.col("_span") > PLACEHOLDER_SPAN)
        )["_i"]
    )
    flagged = df["_i"].is_in(list(hit))
    evaluable = (
        df["_size"].is_not_null()
        & (df["provider"] != "unspecified")
        & df["input_usd_per_mtok"].is_not_null()
    )
    return Result(flagged, evaluable)


def output_below_input(prices: pl.DataFrame) -> Result:
    """Output priced below input.

    Generation costs more than reading the prompt, and every list price we know charges at least
    as much for output; where a row has output below input the source has swapped the two, or
    left one unpriced (0). Not evaluable without both prices.
    """
    i, o = prices["input_usd_per_mtok"], prices["output_usd_per_mtok"]
    evaluable = (i.is_not_null() & o.is_not_null() & (i > 0)).fill_null(False)
    return Result((evaluable & (o < i)).fill_null(False), evaluable)


def _blended(df: pl.DataFrame) -> pl.Expr:
    both = pl.col("input_usd_per_mtok").is_not_null() & pl.col("output_usd_per_mtok").is_not_null()
    three_to_one = (pl.col("input_usd_per_mtok") * 3 + pl.col("output_usd_per_mtok")) / 4
    return pl.when(both).then(three_to_one).otherwise(pl.col("blended_usd_per_mtok"))


def unit_slip(prices: pl.DataFrame) -> Result:
    """A price more than 25x above or below the same model's median at the other sellers.

    Compared on the 3:1 blend (or the source's own blend) with the other sellers' prices of the
    same model in force on overlapping dates. Spreads between hosts reach 10-20x; a factor of 25
    or more is a unit slip (per token read as per 1M, a per-request fee read as per token).
    Not evaluable where no other seller prices the model on overlapping dates.
    """
    df = prices.with_row_index("_i").with_columns(
        _blended(prices).alias("_b"),
        _end(prices).alias("_end"),
        pl.coalesce("valid_from", "date").alias("_start"),
    )
    cand = df.filter(pl.col("_b").is_not_null() & (pl.col("_b") > 0))
    cand = cand.select("_i", "model_id", "provider", "_b", "_start", "_end")  # what pairs read
    pairs = cand.join(cand, on="model_id", suffix="_o").filter(
        (pl.col("provider_o") != pl.col("provider"))
        & (pl.col("_start_o") <= pl.col("_end"))
        & (pl.col("_end_o") >= pl.col("_start"))
    )
    med = pairs.group_by("_i").agg(pl.col("_b").first(), pl.col("_b_o").median().alias("_m"))
    ratio = pl.max_horizontal(pl.col("_b") / pl.col("_m"), pl.col("_m") / pl.col("_b"))
    hit = set(med.filter(ratio > UNIT_SLIP_FACTOR)["_i"])
    evaluable = df["_i"].is_in(list(med["_i"]))
    return Result(df["_i"].is_in(list(hit)), evaluable)


def non_text_modality(prices: pl.DataFrame) -> Result:
    """Not a text LLM: speech, transcription, image, embedding, moderation or realtime audio.

    These are priced per token too (audio or image tokens, embedding input), but they are not
    the chat/completion text tokens the book compares; mixing them in moves averages and floors.
    Judged on the model id and the source's name (always evaluable).
    """
    name = prices["model_id"] + "|" + prices["source_model_name"].str.to_lowercase()
    flagged = name.map_elements(
        lambda s: bool(NON_TEXT.search(s.replace("|", "-").replace("/", "-"))),
        return_dtype=pl.Boolean,
    )
    return Result(flagged, _all(prices, True))


# Size classes (total parameters, billions) whose prices a unit slip is judged against: the
# slips `unit_slip` cannot see, of models no other seller prices (issue 19, class 9).
SIZE_CLASS_EDGES = [10.0, 40.0, 100.0]
# A unit slip is a factor of 1000 (a per-1K price read per 1M) or a per-request fee read as a
# per-token price. 500x the class median: the dearest genuine prices of a sized model in the
# panel (Aleph Alpha's Luminous, 2022-23) sit below 300x theirs; the slips of 2026-12-01.3
# (granite-3-8b at watsonx $200/M, pplx-7b/70b-online's $5 per 1000 requests read as $500/M
# output) at 625x to 3300x.
SIZE_CLASS_SLIP_RATIO = 500.0
STANDARD_KINDS = ("list", "reported")


def size_class_slip(prices: pl.DataFrame, models: pl.DataFrame) -> Result:
    """A standard price more than 500x the median price of models of its size class.

    Judged per side (input, output) against the positive standard prices of every model whose
    size is stated (models' `parameters_b`, else the id's `-8b`), in classes of up to 10B,
    40B, 100B and above. Catches a per-1K price read per 1M and a per-request fee read as a
    per-token price. Not evaluable where the model states no size or the row is not a
    standard price.
    """
    stated = models.select("model_id", "parameters_b")
    df = prices.with_row_index("_i").join(stated, on="model_id", how="left").sort("_i")
    from_name = pl.col("model_id").map_elements(_size, return_dtype=pl.Float64)
    size = pl.coalesce("parameters_b", from_name)
    edges = SIZE_CLASS_EDGES
    df = df.with_columns(
        pl.when(size.is_null()).then(None)
        .when(size <= edges[0]).then(0).when(size <= edges[1]).then(1)
        .when(size <= edges[2]).then(2).otherwise(3).alias("_class")
    )  # fmt: skip
    evaluable = pl.col("_class").is_not_null() & pl.col("price_kind").is_in(STANDARD_KINDS)
    sides = ["input_usd_per_mtok", "output_usd_per_mtok"]
    df = df.with_columns(
        pl.col(c).filter(evaluable & (pl.col(c) > 0)).median().over("_class").alias(f"_med_{c}")
        for c in sides
    )
    slip = pl.any_horizontal(pl.col(c) > SIZE_CLASS_SLIP_RATIO * pl.col(f"_med_{c}") for c in sides)
    out = df.select(
        evaluable.fill_null(False).alias("e"), (evaluable & slip).fill_null(False).alias("f")
    )
    return Result(out["f"], out["e"])


# A standard price 10^2.5 (316x) or more from most of the same model's other standard prices: a
# per-1K price typed per 1M is 1/1000 of them, a per-token price 1/1e6. 316x is halfway (in
# log) between the tenfold a model's price cuts and host spreads reach and the slip's 1000x;
# prices within 10^1.5 (31.6x) of a row agree with it (issue 21).
THOUSANDFOLD_FAR = 10**2.5
THOUSANDFOLD_NEAR = 10**1.5


def thousandfold_slip(prices: pl.DataFrame) -> Result:
    """A standard price about 1000x (or 1/1000x) off the same model's other standard prices.

    A per-1K price typed as per 1M (Claude Sonnet 5 at 0.002/0.010 beside its 2/10) is no
    seller's price, yet no other rule sees it where no other seller prices the model on those
    dates. Judged per side (input, output) against every other standard (list or reported)
    price of the model, any seller and date: a row is flagged where the sources of prices 316x
    or more from it (that state no price within 31.6x of it) outnumber the sources of prices
    within 31.6x of it (its own included), so a slipped row is flagged and the fact many
    sources state beside it is not; where the evidence is even, neither is. Not evaluable
    where the model has no other positive standard price on a side the row states.
    """
    df = prices.with_row_index("_i")
    own = pl.col("source_id").cast(pl.String)
    if "source_ids" in df.columns:
        own = pl.coalesce(pl.col("source_ids"), own)
    near, far = pl.lit(THOUSANDFOLD_NEAR).log10(), pl.lit(THOUSANDFOLD_FAR).log10()
    hit: set[int] = set()
    judged: set[int] = set()
    for c in ("input_usd_per_mtok", "output_usd_per_mtok"):
        cand = df.filter(pl.col("price_kind").is_in(STANDARD_KINDS) & (pl.col(c) > 0)).select(
            "_i", "model_id", pl.col(c).log10().alias("_l"), own.str.split(";").alias("_s")
        )
        pairs = (
            cand.join(cand, on="model_id", suffix="_o")
            .with_columns((pl.col("_l_o") - pl.col("_l")).abs().alias("_d"))
            .explode("_s_o")
        )
        votes = pairs.group_by("_i").agg(
            pl.col("_s_o").filter(pl.col("_d") <= near).unique().alias("_near"),
            pl.col("_s_o").filter(pl.col("_d") >= far).unique().alias("_far"),
            (pl.col("_i_o") != pl.col("_i")).any().alias("_other"),
        )
        # A source stating both prices (on other dates) backs neither side.
        only_far = pl.col("_far").list.set_difference("_near").list.len()
        judged |= set(votes.filter("_other")["_i"])
        hit |= set(votes.filter(only_far > pl.col("_near").list.len())["_i"])
    evaluable = df["_i"].is_in(list(judged))
    return Result(df["_i"].is_in(list(hit & judged)), evaluable)


def before_release(prices: pl.DataFrame, models: pl.DataFrame) -> Result:
    """A price dated more than 14 days before the model's release date.

    No API sells a model before it exists; such a date is the source's error (or the release
    date's: the models table notes where sources disagree). Sources that date prices by month
    are compared by month. Not evaluable where the model is unresolved or has no release date,
    or only a listing date (OpenRouter's, or a first listing: an upper bound, not a release),
    and for rows still on a moving alias (`alias_of` the row's own id) or on a catalog entry that is one (its name
    says "moving alias": `deepseek-chat`, `deepseek-reasoner`, `gpt-4`): the alias's release
    date is one snapshot's (deepseek-chat's 2025-12-01 is V3.2's), not that of the model the
    alias pointed at on the row's date (issue 19, class 7).
    """
    from analysis.data.curate.models_table import LISTING_DATE_SOURCES, is_listing_date

    rel = models.select(
        "model_id",
        "release_date",
        "release_date_source_id",
        (is_listing_date() if "release_date_note" in models.columns else pl.lit(False)).alias(
            "_listing"
        ),
        "resolved",
        (
            pl.col("name").str.to_lowercase().str.contains("moving alias")
            if "name" in models.columns
            else pl.lit(False)
        ).alias("_moving"),
    )
    df = prices.with_row_index("_i").join(rel, on="model_id", how="left").sort("_i")
    evaluable = (
        df["release_date"].is_not_null()
        & df["resolved"].fill_null(False)
        & ~df["release_date_source_id"].is_in(list(LISTING_DATE_SOURCES)).fill_null(False)
        & ~df["_moving"].fill_null(False)
        & ~df["_listing"].fill_null(False)  # a first listing bounds the release from above
    )
    if "alias_of" in df.columns:
        evaluable = evaluable & ~(df["alias_of"] == df["model_id"]).fill_null(False)
    start = df.select(pl.coalesce("valid_from", "date"))[:, 0]
    monthly = df["source_id"].is_in(list(MONTHLY_SOURCES))
    released = df.select(
        pl.when(monthly).then(pl.col("release_date").dt.truncate("1mo")).otherwise("release_date")
    )[:, 0]
    gap = (released - start).dt.total_days()
    grace = pl.Series([0 if m else RELEASE_GRACE_DAYS for m in monthly.to_list()])
    flagged = (evaluable & (gap > grace)).fill_null(False)
    return Result(flagged, evaluable.fill_null(False))


def superseded_stale(prices: pl.DataFrame) -> Result:
    """A copy of a price after the seller had changed it (curate/spells.py's stale rows).

    Community lists keep o3 at 10/40 long after the 2/8 in force from 2025-06-10; counting both
    as list prices on one date double-counts and mixes old and new. Always evaluable.
    """
    return Result(prices["row_kind"] == "stale", _all(prices, True))


def secondary_copy_conflict(prices: pl.DataFrame) -> Result:
    """A secondary copy's price of an offer whose direct source shows other prices
    (curate/spells.py `COPIES`, row_kind "copy"): genai-prices' copy of OpenRouter's list, dated
    at the library's HEAD, beside the daily scrape of OpenRouter. The copy ranks below the direct
    scrape and does not cut its spells; its price is kept and flagged. Always evaluable."""
    return Result(prices["row_kind"] == "copy", _all(prices, True))


def cancelled_schedule(prices: pl.DataFrame) -> Result:
    """A scheduled price the later evidence contradicts (curate/spells.py `mark_cancelled`,
    row_kind "cancelled"): announced for a date after its source's newest snapshot, while a
    source read after that date still shows another price. Kept, never in force. Always
    evaluable."""
    return Result(prices["row_kind"] == "cancelled", _all(prices, True))


def regional_surcharge(prices: pl.DataFrame) -> Result:
    """A regional route priced above the seller's cheapest route for the model on those dates.

    Bedrock's eu-west-3 or Azure's EU endpoint cost ~10-30% more than the default region; the
    seller's price is its cheapest route (as the OpenRouter importer and providers.py decide for
    routes), so a dearer regional copy would count one seller twice. Always evaluable.
    """
    return Result(prices["region"].is_not_null(), _all(prices, True))


# --------------------------------------------------------------------------------------------
# GPU-hour prices
# --------------------------------------------------------------------------------------------

# Marketplace statistics more than this many times the same GPU's median across the other
# sources in the same month: listings nobody rents (vast.ai's do-not-rent prices).
MARKET_OUTLIER_FACTOR = 5.0
# A median or percentile resting on fewer offers than this is one offer's price.
THIN_OFFERS = 3
MARKET_STATISTICS = {"median", "p25", "p75", "min", "mean", "median-raw", "median-restated"}


def zero_not_offered(gpu: pl.DataFrame) -> Result:
    """A price of exactly $0.00 per GPU-hour.

    Rate cards and marketplace dumps write 0 where a GPU is not offered (RunPod's daily file for
    sold-out community GPUs); no cloud rents a GPU for free. Always evaluable.
    """
    return Result(gpu["usd_per_gpu_hour"] == 0, _all(gpu, True))


def marketplace_outlier(gpu: pl.DataFrame) -> Result:
    """A marketplace price more than 5x the same GPU's median across other sources that month.

    Marketplaces list offers at any price, including ones set so high nobody rents them; a
    marketplace statistic far above every other source's price for the GPU that month is such a
    listing, not the market. Not evaluable for non-marketplace rows or where no other source
    prices the GPU in that month.
    """
    df = gpu.with_row_index("_i").with_columns(pl.col("date").dt.truncate("1mo").alias("_m"))
    market = pl.col("pricing").is_in(["marketplace", "spot"]) | pl.col("source_id").str.contains(
        "vast|tugot17"
    )
    others = (
        df.filter(pl.col("usd_per_gpu_hour") > 0)
        .group_by("gpu", "_m", "source_id")
        .agg(pl.col("usd_per_gpu_hour").median().alias("_v"))
    )
    mine = df.filter(market & (pl.col("usd_per_gpu_hour") > 0))
    cmp = mine.join(others, on=["gpu", "_m"], suffix="_o").filter(
        pl.col("source_id_o") != pl.col("source_id")
    )
    med = cmp.group_by("_i").agg(
        pl.col("usd_per_gpu_hour").first(), pl.col("_v").median().alias("_ref")
    )
    hit = set(med.filter(pl.col("usd_per_gpu_hour") > MARKET_OUTLIER_FACTOR * pl.col("_ref"))["_i"])
    return Result(df["_i"].is_in(list(hit)), df["_i"].is_in(list(med["_i"])))


def thin_median(gpu: pl.DataFrame) -> Result:
    """A median or percentile resting on fewer than 3 offers (offer_count kept in the row).

    A monthly "median" of one offer is that offer's price; it moves with one listing and says
    nothing about the market. Not evaluable where the source does not count the offers.
    """
    stat = gpu["statistic"].is_in(list(MARKET_STATISTICS))
    evaluable = stat & gpu["offer_count"].is_not_null()
    return Result((evaluable & (gpu["offer_count"] < THIN_OFFERS)).fill_null(False), evaluable)


# --------------------------------------------------------------------------------------------
# benchmark scores
# --------------------------------------------------------------------------------------------


def conflicting_scores(scores: pl.DataFrame) -> Result:
    """A second, different score of one model version on one benchmark, date and source.

    Reasoning-effort variants (`o3 (high)`, `o3 (low)`) and merged snapshots give one model
    several scores on one day; as the importers do for repeated runs, the best score stands for
    the model (leaderboards report a model's best result) and the others are flagged. Always
    evaluable.
    """
    df = scores.with_row_index("_i")
    ranked = df.with_columns(
        pl.col("score")
        .rank("ordinal", descending=True)
        .over("model_id", "benchmark", "date", "source_id")
        .alias("_r"),
        pl.col("score").n_unique().over("model_id", "benchmark", "date", "source_id").alias("_n"),
    )
    return Result(((ranked["_n"] > 1) & (ranked["_r"] > 1)), _all(scores, True))


RULES: list[Rule] = [
    Rule("placeholder_price", "token_prices", placeholder_price),
    Rule("output_below_input", "token_prices", output_below_input),
    Rule("unit_slip", "token_prices", unit_slip),
    Rule("non_text_modality", "token_prices", non_text_modality),
    Rule("before_release", "token_prices", before_release),
    Rule("size_class_slip", "token_prices", size_class_slip),
    Rule("thousandfold_slip", "token_prices", thousandfold_slip),
    Rule("superseded_stale", "token_prices", superseded_stale),
    Rule("secondary_copy_conflict", "token_prices", secondary_copy_conflict),
    Rule("cancelled_schedule", "token_prices", cancelled_schedule),
    Rule("regional_surcharge", "token_prices", regional_surcharge),
    Rule("zero_not_offered", "gpu_hour_prices", zero_not_offered),
    Rule("marketplace_outlier", "gpu_hour_prices", marketplace_outlier),
    Rule("thin_median", "gpu_hour_prices", thin_median),
    Rule("conflicting_scores", "benchmark_scores", conflicting_scores),
]
NEEDS_MODELS = {"placeholder_price", "before_release", "size_class_slip"}


def apply(
    tables: dict[str, pl.DataFrame], counted: dict[str, pl.Series] | None = None
) -> tuple[dict[str, pl.DataFrame], list[dict]]:
    """Add `flags` to each flagged table; return the tables and a count per rule:
    `{rule, table, flagged, not_evaluable, rows}`. `counted` (a mask per table) counts only
    those rows: the rows a new version adds, judged beside the release's."""
    out = dict(tables)
    counts = []
    for name in ("token_prices", "gpu_hour_prices", "benchmark_scores"):
        if name not in out:
            continue
        df = out[name]
        ids: list[pl.Series] = []
        for rule in (r for r in RULES if r.table == name):
            args = (df, out["models"]) if rule.id in NEEDS_MODELS else (df,)
            res = rule.check(*args)
            if res.flagged.len() != df.height or res.evaluable.len() != df.height:
                raise ValueError(
                    f"rule {rule.id} returned {res.flagged.len()} values for {df.height} rows"
                )
            flagged = res.flagged.fill_null(False) & res.evaluable.fill_null(False)
            mask = (
                counted[name]
                if counted and name in counted
                else pl.repeat(True, df.height, eager=True)
            )
            ids.append(
                pl.Series(
                    rule.id, [rule.id if f else None for f in flagged.to_list()], dtype=pl.String
                )
            )
            counts.append(
                {
                    "rule": rule.id,
                    "table": name,
                    "flagged": int((flagged & mask).sum()),
                    "not_evaluable": int((~res.evaluable.fill_null(False) & mask).sum()),
                    "rows": int(mask.sum()),
                }
            )
        flags = pl.DataFrame(ids).select(
            pl.concat_str(pl.all(), separator=";", ignore_nulls=True).alias("flags")
        )
        out[name] = df.with_columns(
            pl.when(flags["flags"] == "").then(None).otherwise(flags["flags"]).alias("flags")
        )
    return out, counts
