"""One canonical model per row: offers, repository ids, moving aliases, developers, first party.

`analysis.data.models` turns a source's name into a base slug (`normalize`) and matches the
curated catalog. This module decides what the slug *is*:

1. **Catalog** (`identified_by = "catalog"`): a curated entry names it.
2. **Source metadata** (`"source metadata"`): a source that describes models (Epoch's databases,
   Artificial Analysis, OpenRouter's model list, LMArena, ...) names the same slug.
3. **Offer words** (`OFFER_WORDS`): a route, speed tier or deployment label (`-maas`, `-tput`,
   `-fast`, `-turbo`, Groq's `-instant` and context sizes, a `databricks-` prefix, ...) on a name
   whose base is identified by 1 or 2. The model is the base; the words become the row's `offer`,
   so a speed tier keeps its own price series beside the standard one. Each rule says when it
   applies (`OfferWord.only_open_weights`: "preview" and "turbo" name other models at OpenAI and
   Google, but only a serving build of public weights).
4. **Dated copies**: `<base>-<date>` whose base is identified and whose date is the base's own
   release date (a provider's dated id of the same weights, `gpt-5.5-pro-2026-04-23`).
5. **Repository id** (`"repository id"`): the source writes the name as `<org>/<model>` (a
   Hugging Face repository or an OpenRouter `author/slug`): the pair identifies the weights and
   the org is the developer the source states. No release date unless another source gives one.
6. **Moving aliases** (`moving_alias`): `-latest` names, OpenRouter's `~` routers and catalog
   entries marked "(moving alias)" point at different snapshots over time. `resolve_aliases`
   resolves each row by its date: to the only snapshot of the family released by then, else to
   the one snapshot the same seller prices identically on overlapping dates; otherwise the row
   stays unresolved with that reason.

Everything else stays unresolved, with its reason (`data info` lists them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

import polars as pl

from analysis.data import lookup, models
from analysis.data.curate import models_table
from analysis.data.curate.first_party import is_first_party
from analysis.data.reads import memo


def per_distinct(fn, dtype: pl.DataType):
    """`fn` over a column (a struct column: over its fields) as `map_elements` would apply it,
    called once per distinct value: a price table repeats a few thousand names and sellers
    over millions of rows. Nulls stay null without a call, as `map_elements` leaves them."""

    def apply(s: pl.Series) -> pl.Series:
        df = s.struct.unnest() if s.dtype == pl.Struct else s.to_frame("\x00v")
        keys = df.unique(maintain_order=True)
        args = keys.iter_rows()
        if s.dtype != pl.Struct:
            args = ((v,) for (v,) in args)
        values = [None if s.dtype != pl.Struct and a[0] is None else fn(*a) for a in args]
        keys = keys.with_columns(pl.Series("\x00out", values, dtype=dtype))
        out = df.join(keys, on=df.columns, how="left", nulls_equal=True, maintain_order="left")
        return out["\x00out"]

    return apply


def attach(rows: pl.LazyFrame, table: pl.DataFrame, on: list[str]) -> pl.LazyFrame:
    """`rows` left-joined to `table` on `on` (nulls equal; each key once in `table`, and every
    key of `rows` in it), the rows in their order. A few thousand keys over millions of rows:
    they are joined on a hash of the key, not on its strings (the plain join where two keys
    of `table` hash alike or a name is taken)."""
    key = pl.struct([pl.col(c).cast(pl.String) for c in on]).hash(14)
    cols = [c for c in table.columns if c not in on]
    hashes = table.select(key.alias("\x00k"))["\x00k"]
    taken = set(cols) & set(rows.collect_schema().names())
    if taken or hashes.n_unique() < table.height:
        return rows.join(table.lazy(), on=on, how="left", nulls_equal=True, maintain_order="left")
    right = table.select(cols).with_columns(hashes).lazy()
    return (
        rows.with_columns(key.alias("\x00k"))
        .join(right, on="\x00k", how="left", maintain_order="left")
        .drop("\x00k")
    )


def first_party_expr(provider: str = "provider", developer: str = "developer") -> pl.Expr:
    """`is_first_party` over two columns (null where it is unknown)."""
    return (
        pl.struct(provider, developer)
        .map_batches(per_distinct(is_first_party, pl.Boolean()), return_dtype=pl.Boolean)
        .alias("first_party")
    )


# --------------------------------------------------------------------------------------------
# offer words, repository ids, regions
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OfferWord:
    word: str  # a dash-separated token of the normalized slug (regex, full token)
    where: str  # "suffix" or "prefix"
    why: str
    only_open_weights: bool = False  # apply only when the base's weights are public
    # The seller's own name for its one route to the model, not a second offer: runs under the
    # word at the prices a wordless run of the same seller shows on overlapping dates are that
    # offer (`spells.fold_offer_words`, issue 19 class 5).
    one_route: bool = False


OFFER_WORDS: list[OfferWord] = [
    OfferWord(
        "maas",
        "suffix",
        "Vertex AI's 'model as a service' route to a partner model (its serverless API, the "
        "route OpenRouter's google-vertex endpoint sells)",
        one_route=True,
    ),
    OfferWord("tput", "suffix", "Together's throughput-optimised deployment"),
    OfferWord("basic", "suffix", "Fireworks' basic (slower, cheaper) deployment tier"),
    OfferWord("fast", "suffix", "a speed tier of the same model at its own price (xAI, Fireworks)"),
    OfferWord("highspeed", "suffix", "a speed tier of the same model at its own price"),
    OfferWord("specdec", "suffix", "Groq's speculative-decoding deployment"),
    OfferWord(
        "instant",
        "suffix",
        "Groq's id for its one deployment of the model (llama-3.1-8b-instant)",
        only_open_weights=True,
        one_route=True,
    ),
    OfferWord(
        "versatile",
        "suffix",
        "Groq's id for its one deployment of the model (llama-3.3-70b-versatile)",
        only_open_weights=True,
        one_route=True,
    ),
    OfferWord(
        "turbo", "suffix", "a faster serving build (DeepInfra, Novita)", only_open_weights=True
    ),
    OfferWord(
        "preview", "suffix", "a preview listing of public weights (Groq)", only_open_weights=True
    ),
    OfferWord(
        r"4096|8192|16384|32768|65536|131072",
        "suffix",
        "the context window in tokens (Groq's 8192, 32768)",
        only_open_weights=True,
    ),
    OfferWord(r"\d+k", "suffix", "a context-size variant of the same model (xAI's -200k)"),
    OfferWord("non-reasoning", "suffix", "a run setting (reasoning off), not another model"),
    OfferWord("reasoning", "suffix", "a run setting (reasoning on), not another model"),
    OfferWord("databricks", "prefix", "Databricks' name for a model it serves", one_route=True),
    OfferWord("anthropic", "prefix", "DigitalOcean Gradient's vendor prefix"),
    OfferWord("openai", "prefix", "DigitalOcean Gradient's vendor prefix"),
    OfferWord("gemini", "prefix", "Google AI Studio's prefix on the Gemma models it serves"),
    OfferWord("qwen", "prefix", "Groq's vendor prefix (qwen-qwq-32b)"),
    OfferWord("nvidia", "prefix", "NVIDIA's own prefix on its Nemotron ids"),
]
_COMPILED_WORDS = [(re.compile(rf"^{w.word}$"), w) for w in OFFER_WORDS]
ONE_ROUTE_WORDS = frozenset(w.word for w in OFFER_WORDS if w.one_route)

# Path segments that are routes, not an author: LiteLLM's providers and regions, Fireworks'
# account paths, Cloudflare's catalogues, quantisers who re-upload others' weights.
ROUTE_SEGMENTS = re.compile(
    r"^(?:accounts|models|routers|deployments|publishers|endpoints|@cf|@hf|thebloke|unsloth"
    r"|(?:us|eu|apac|ap|jp|au|ca|sa|me|af|global)(?:-[a-z]+)*(?:-\d+)?)$"
)
# Sources whose two-part names are `<author>/<model>` (elsewhere the first part is the route).
AUTHOR_NAMES = {"openrouter-sui414", "genai-prices", "lmarena-catalog", "gundlach-inference"}

# The region a source names in a route (LiteLLM keys `bedrock/us-west-2/...`, `azure/eu/...`;
# Bedrock cross-region profiles `us.`, `eu.`, `apac.`, `global.`).
_REGION = re.compile(
    r"(?:^|/)(?P<r1>(?:us|eu|ap|apac|sa|ca|me|af|jp|au)(?:-gov)?(?:-[a-z]+-\d+)?|global)/"
    r"|(?:^|/)(?P<r2>us|eu|apac|global|jp|au|ca|us-gov)\.[a-z]"
)


def region_of(source_model_name: str) -> str | None:
    """The region a source names in a route, or None for the default route."""
    m = _REGION.search(source_model_name.lower())
    return (m.group("r1") or m.group("r2")) if m else None


def namespace(source_id: str, source_model_name: str) -> str | None:
    """The author the source names in `<org>/<model>`, or None (routes and regions are not)."""
    parts = [p for p in source_model_name.strip().lstrip("~").split("/") if p]
    if len(parts) < 2 or (len(parts) == 2 and source_id not in AUTHOR_NAMES):
        return None
    ns = parts[-2].strip().lower()
    if ROUTE_SEGMENTS.match(ns) or (len(parts) >= 3 and ns == parts[0].lower()):
        return None
    return ns


# --------------------------------------------------------------------------------------------
# resolving names
# --------------------------------------------------------------------------------------------


@memo
def _families() -> tuple[tuple[re.Pattern, str], ...]:
    return tuple((re.compile(r["pattern"]), r["developer"]) for r in lookup.read("model_families"))


def family_developer(slug: str) -> str | None:
    """The developer whose own family name `slug` carries (tables/model_families.csv), or None."""
    return next((dev for pattern, dev in _families() if pattern.search(slug)), None)


MOVING = re.compile(r"(?:^|-)latest(?:-|$)")
_SNAPSHOT = re.compile(
    r"^(?P<base>.+)-(?P<tag>\d{4}-\d{2}-\d{2}|\d{4}-\d{2}|\d{8}|\d{6}|\d{4}|\d{3})$"
)

REASONS = {
    "unknown": "no catalog entry or source metadata names it",
    "moving": "moving alias: no snapshot of its family is known",
    "moving-many": "moving alias: several snapshots fit the row's date and price",
    "moving-early": "moving alias: no snapshot of its family released by the row's date",
    "moving-price": "moving alias: the seller prices no snapshot released by then the same",
}


@dataclass(frozen=True)
class Known:
    """What can identify a slug: catalog ids and aliases, and the slugs of source metadata."""

    info_slugs: frozenset[str]
    open_weights: frozenset[str]  # slugs whose weights some source says are public
    release: dict  # slug -> earliest stated release date

    def merged(self, other: Known) -> Known:
        """What either knows (the earlier release date where both state one)."""
        release = dict(other.release)
        for k, d in self.release.items():
            release[k] = min(d, release[k]) if release.get(k) else d
        return Known(
            self.info_slugs | other.info_slugs, self.open_weights | other.open_weights, release
        )

    def find(self, slug: str) -> tuple[str, str] | None:
        found = models.match_catalog(slug, None)
        if found:
            return found, "catalog"
        if slug in self.info_slugs:
            return slug, "source metadata"
        return None


def known_from(info: pl.DataFrame | None) -> Known:
    if info is None or info.is_empty():
        return Known(frozenset(), frozenset(), {})
    df = info.with_columns(
        pl.struct("source_model_name", "model_hint")
        .map_elements(
            lambda s: models.normalize(s["model_hint"] or s["source_model_name"]),
            return_dtype=pl.String,
        )
        .alias("_slug")
    )
    cat = models.catalog()
    df = df.with_columns(
        pl.col("_slug").map_elements(lambda s: cat.by_slug.get(s, s), return_dtype=pl.String)
    )
    ow = set(df.filter(pl.col("open_weights").fill_null(False))["_slug"])
    rel = (
        df.filter(pl.col("release_date").is_not_null())
        .group_by("_slug")
        .agg(pl.col("release_date").min())
    )
    return Known(
        frozenset(df["_slug"]),
        frozenset(ow),
        dict(zip(rel["_slug"], rel["release_date"], strict=True)),
    )


def _strip_offer(slug: str, known: Known) -> tuple[str, str, list[str]] | None:
    """(base id, how, offer words) when dropping offer words leaves an identified model.

    Suffix words may stack (`...-2507-fp8-tput`): up to three are dropped, outermost first."""
    tokens = slug.split("-")
    words: list[str] = []
    for _ in range(3):
        stripped = False
        for pattern, w in _COMPILED_WORDS:
            span = 2 if w.word == "non-reasoning" else 1
            if len(tokens) <= span:
                continue
            part = "-".join(tokens[-span:] if w.where == "suffix" else tokens[:span])
            if not pattern.match(part):
                continue
            rest = tokens[:-span] if w.where == "suffix" else tokens[span:]
            found = known.find("-".join(rest))
            if found and (not w.only_open_weights or _open(found[0], "-".join(rest), known)):
                return found[0], found[1], [part, *words]
            if w.where == "suffix" and not w.only_open_weights and not stripped:
                next_tokens, next_word = rest, part
                stripped = True
        if not stripped:
            return None
        tokens, words = next_tokens, [next_word, *words]
    return None


def _open(model_id: str, base: str, known: Known) -> bool:
    return model_id in known.open_weights or base in known.open_weights


def _dated_copy(slug: str, known: Known) -> tuple[str, str] | None:
    """`<base>-YYYY-MM-DD` of an identified base released that very day: the same weights."""
    m = re.match(r"^(?P<base>.+)-(?P<d>\d{4}-\d{2}-\d{2})$", slug)
    if not m:
        return None
    found = known.find(m["base"])
    if not found:
        return None
    released = known.release.get(found[0]) or known.release.get(m["base"])
    if released and released.isoformat() == m["d"]:
        return found
    return None


def resolve_name(source_id: str, name: str, hint: str | None, known: Known) -> dict:
    """How one source name is identified: model_id, identified_by, offer, namespace, moving."""
    ns = namespace(source_id, name)
    found = models.match_catalog(name or "", hint)
    slug = models.normalize(hint or name or "")
    out = {"offer": None, "namespace": ns}
    if found:
        out |= {"model_id": found, "identified_by": "catalog"}
    elif slug in known.info_slugs:
        out |= {"model_id": slug, "identified_by": "source metadata"}
    elif stripped := _strip_offer(slug, known):
        out |= {
            "model_id": stripped[0],
            "identified_by": stripped[1],
            "offer": "-".join(stripped[2]),
        }
    elif dated := _dated_copy(slug, known):
        out |= {"model_id": dated[0], "identified_by": dated[1]}
    elif ns and slug:
        out |= {"model_id": slug, "identified_by": "repository id"}
    elif slug and (dev := family_developer(slug)):
        out |= {"model_id": slug, "identified_by": "developer family", "namespace": dev}
    else:
        out |= {"model_id": slug, "identified_by": None}
    # OpenRouter's variants (`:extended` context, `:nitro` speed, `:thinking`) are offers.
    variant = re.search(
        r":(extended|nitro|floor|online|exacto|thinking|beta)$", (name or "").strip()
    )
    if variant:
        out["offer"] = "-".join(filter(None, [out["offer"], variant[1]]))
    mid = out["model_id"]
    cat_name = _catalog_names().get(mid, "")
    # A name that states its snapshot date (`chatgpt-4o-latest-20240808`) is that snapshot.
    dated = _SNAPSHOT.match(slug) is not None and _SNAPSHOT.match(slug)["tag"].count("-") == 2
    out["moving_alias"] = not dated and bool(
        MOVING.search(mid) or (name or "").strip().startswith("~") or "(moving alias)" in cat_name
    )
    return out


@memo
def _catalog_names() -> dict[str, str]:
    e = models.catalog().entries
    return dict(zip(e["model_id"], e["name"], strict=True))


def resolve_names(
    names: pl.DataFrame, info: pl.DataFrame | None, extra: Known | None = None
) -> pl.DataFrame:
    """Distinct (source_id, source_model_name, model_hint) -> model_id and how it is known.
    `extra`: what a release already knows (`Prior.known`), beside this build's `info`."""
    known = known_from(info)
    if extra is not None:
        known = known.merged(extra)
    keys = names.select("source_id", "source_model_name", "model_hint").unique(maintain_order=True)
    rows = [
        {"source_id": s, "source_model_name": n, "model_hint": h, **resolve_name(s, n, h, known)}
        for s, n, h in keys.iter_rows()
    ]
    schema = {
        "source_id": pl.String,
        "source_model_name": pl.String,
        "model_hint": pl.String,
        "offer": pl.String,
        "namespace": pl.String,
        "model_id": pl.String,
        "identified_by": pl.String,
        "moving_alias": pl.Boolean,
    }
    return split_snapshots(pl.DataFrame(rows, schema=schema), known)


def split_snapshots(resolved: pl.DataFrame, known: Known) -> pl.DataFrame:
    """Snapshots stay distinct from the names that move between them.

    The catalog maps a dated name to its family where it lists no snapshot of it
    (`o3-2025-04-16` -> `o3`): right while the family has one snapshot. Where the names in the
    data carry two or more dated snapshots of one family, each snapshot keeps its own id (with
    the family's organisation), and the undated family name becomes a moving alias, resolved by
    date like `-latest` names.
    """
    slug = pl.struct("model_hint", "source_model_name").map_elements(
        lambda s: models.normalize(s["model_hint"] or s["source_model_name"]),
        return_dtype=pl.String,
    )
    df = resolved.with_columns(slug.alias("_slug"))
    snap = pl.col("_slug").str.extract(_SNAPSHOT.pattern, 1)
    df = df.with_columns(
        pl.when(pl.col("identified_by").is_not_null() & (snap.is_not_null()))
        .then(pl.col("_slug").str.extract(_SNAPSHOT.pattern, 1))
        .alias("_family")
    )
    ids = set(df.filter(pl.col("identified_by").is_not_null())["model_id"]) | known.info_slugs
    dated = {}
    for mid in ids:
        m = _SNAPSHOT.match(mid)
        if m:
            dated.setdefault(m["base"], set()).add(mid)
    for fam, slugs in (
        df.filter(pl.col("_family").is_not_null() & (pl.col("model_id") == pl.col("_family")))
        .group_by("_family")
        .agg(pl.col("_slug").unique())
        .iter_rows()
    ):
        dated.setdefault(fam, set()).update(slugs)
    # Open weights are released under their own names: `deepseek-r1` is the January weights,
    # `deepseek-r1-0528` a later release, not snapshots behind one moving name.
    several = {fam for fam, v in dated.items() if len(v) >= 2 and fam not in known.open_weights}
    orgs = dict(
        zip(
            models.catalog().entries["model_id"],
            models.catalog().entries["organization"],
            strict=True,
        )
    )
    folded = pl.col("_family").is_in(list(several)) & (pl.col("model_id") == pl.col("_family"))
    return (
        df.with_columns(
            pl.when(folded).then(pl.col("_slug")).otherwise(pl.col("model_id")).alias("model_id"),
            pl.when(folded)
            .then(pl.col("_family").replace_strict(orgs, default=None, return_dtype=pl.String))
            .otherwise(pl.col("namespace"))
            .alias("namespace"),
        )
        .with_columns(
            (
                pl.col("moving_alias")
                | (pl.col("model_id").is_in(list(several)) & pl.col("identified_by").is_not_null())
            ).alias("moving_alias")
        )
        .drop("_slug", "_family")
    )


# --------------------------------------------------------------------------------------------
# moving aliases, by date
# --------------------------------------------------------------------------------------------


def alias_family(alias_id: str) -> str:
    """`mistral-large-latest` -> `mistral-large`; `kimi-latest-8k` -> `kimi`; `gpt-4o` -> itself."""
    return re.sub(r"-latest(?:-\d+k)?$", "", alias_id)


def snapshot_date(snapshot_id: str, family: str) -> date | None:
    """The date a snapshot id states after its family (`-2024-08-06`, `-20240806`, YYMM `-2407`)."""
    tag = snapshot_id.removeprefix(family + "-")
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", tag):
            return date.fromisoformat(tag)
        if re.fullmatch(r"\d{8}", tag):
            return date(int(tag[:4]), int(tag[4:6]), int(tag[6:]))
        if re.fullmatch(r"\d{4}", tag) and 23 <= int(tag[:2]) <= 29 and 1 <= int(tag[2:]) <= 12:
            return date(2000 + int(tag[:2]), int(tag[2:]), 1)  # Mistral's YYMM
    except ValueError:
        return None
    return None


def snapshots(family: str, candidates: dict[str, date | None]) -> dict[str, date | None]:
    """Ids of the family's dated snapshots among identified models, with their release date
    (a source's, else the date in the id)."""
    out = {}
    for mid, released in candidates.items():
        m = _SNAPSHOT.match(mid)
        # `gpt-4o-2025-03` is a display name's month (Artificial Analysis), not an API snapshot
        if m and m["base"] == family and not re.fullmatch(r"\d{4}-\d{2}", m["tag"]):
            out[mid] = released or snapshot_date(mid, family)
    return out


PRICE_COLS = ["input_usd_per_mtok", "output_usd_per_mtok"]
# What a moving alias is matched on: the seller's prices of each snapshot, and their dates.
ALIAS_EVIDENCE = ["model_id", "provider", "date", "last_seen", *PRICE_COLS]


def resolve_aliases(
    prices: pl.DataFrame | pl.LazyFrame,
    release: dict[str, date | None],
    identified: set[str],
    priced_elsewhere: pl.DataFrame | None = None,
) -> pl.DataFrame | pl.LazyFrame:
    """Re-point rows whose model is a moving alias (`moving_alias` true) to a snapshot, by date.

    `release` gives identified models' release dates. Adds `alias_of` (the alias id the row was
    written as) and `unresolved_reason` for rows that stay on the alias.
    """
    snaps_by_family: dict[str, dict] = {}
    cand = {m: release.get(m) for m in identified}
    rows = prices.lazy().with_row_index("_r")
    moving = rows.filter(pl.col("moving_alias")).collect()
    for family in {alias_family(m) for m in moving["model_id"].unique().to_list()}:
        snaps_by_family[family] = snapshots(family, cand)
    decided: dict[int, tuple[str | None, str | None]] = {}
    # Only rows of a snapshot some alias may point at can decide it (a few of many rows).
    pool = sorted({m for snaps in snaps_by_family.values() for m in snaps})
    others = rows.filter(~pl.col("moving_alias")).select(ALIAS_EVIDENCE)
    if priced_elsewhere is not None:  # a release's price rows: the seller's prices it knows
        others = pl.concat(
            [others, priced_elsewhere.lazy().select(ALIAS_EVIDENCE)], how="vertical_relaxed"
        )
    others = others.filter(pl.col("model_id").is_in(pool)).collect()
    for r in moving.iter_rows(named=True):
        snaps = snaps_by_family[alias_family(r["model_id"])]
        family = alias_family(r["model_id"])
        if not snaps:
            # A family without dated snapshots has one: `claude-3-opus-latest` is claude-3-opus.
            ok = family in identified and family != r["model_id"]
            decided[r["_r"]] = (family, None) if ok else (None, REASONS["moving"])
            continue
        when = r["date"]
        live = sorted(
            (m for m, d in snaps.items() if d is None or d <= when),
            key=lambda m: (snaps[m] or date.min, m),
        )
        if not live:
            decided[r["_r"]] = (None, REASONS["moving-early"])
            continue
        end = r.get("last_seen") or when
        priced = others.filter(
            pl.col("model_id").is_in(live)
            & pl.col("provider").eq_missing(r["provider"])
            & (pl.col("date") <= end)
            & (pl.coalesce("last_seen", "date") >= when)
        )
        if priced.height and r["input_usd_per_mtok"] is not None:
            same = set(
                priced.filter(
                    pl.col("input_usd_per_mtok").eq_missing(r["input_usd_per_mtok"])
                    & pl.col("output_usd_per_mtok").eq_missing(r["output_usd_per_mtok"])
                )["model_id"]
            )
            # Snapshots the seller prices alike fit; failing those, snapshots it does not price
            # then (the alias cannot be a snapshot the same seller prices differently).
            unpriced = [m for m in live if m not in set(priced["model_id"])]
            fits = [m for m in live if m in same] or unpriced
            if not fits:
                decided[r["_r"]] = (None, REASONS["moving-price"])
                continue
        else:
            fits = live
        # The alias points at the newest snapshot released by then that fits its price.
        decided[r["_r"]] = (fits[-1], None)
    if not decided:  # no moving alias: nothing to re-point
        out = rows.with_columns(
            pl.when(pl.col("moving_alias")).then(pl.col("model_id")).alias("alias_of"),
            pl.lit(None, pl.String).alias("unresolved_reason"),
        ).drop("_r")
        return out if isinstance(prices, pl.LazyFrame) else out.collect()
    idx = list(decided)
    target = pl.DataFrame(
        {
            "_r": pl.Series(idx, dtype=pl.UInt32),
            "_target": [decided[i][0] for i in idx],
            "_reason": [decided[i][1] for i in idx],
        },
        schema={"_r": pl.UInt32, "_target": pl.String, "_reason": pl.String},
    )
    out = (
        rows.join(target.lazy(), on="_r", how="left", maintain_order="left")
        .with_columns(
            pl.when(pl.col("moving_alias")).then(pl.col("model_id")).alias("alias_of"),
            pl.coalesce("_target", "model_id").alias("model_id"),
            pl.col("_reason").alias("unresolved_reason"),
        )
        .drop("_r", "_target", "_reason")
    )
    return out if isinstance(prices, pl.LazyFrame) else out.collect()


# --------------------------------------------------------------------------------------------
# the whole pass
# --------------------------------------------------------------------------------------------

NAME_KEYS = ["source_id", "source_model_name", "model_hint"]
# References and sellers read from the distinct names where they follow from them (see
# `identify`; off only to test it against reading them from every row).
BY_NAME = True
SEEN = ["table", "source_id", "source_model_name", "date", "last_seen", "model_id", "offer"]


@dataclass(frozen=True)
class Prior:
    """How a release identified what it holds, for new observations added to it
    (`analysis.data.curate.panel`): the same name means the same model in both.

    - `models`: the release's models table (its ids, release dates, open weights);
    - `seen`: every source name of its price and score rows (from `observations`), with the
      model and offer it was identified as and the dates the source showed it (`SEEN`);
    - `priced`: its price rows, the sellers' prices a moving alias is matched against.
    """

    models: pl.DataFrame
    seen: pl.DataFrame
    priced: pl.DataFrame

    def known(self) -> Known:
        m = self.models
        named = m.filter(pl.col("identified_by").is_in(["catalog", "source metadata"]))
        dated = m.filter(pl.col("release_date").is_not_null())
        return Known(
            frozenset(named["model_id"]),
            frozenset(m.filter(pl.col("open_weights").fill_null(False))["model_id"]),
            dict(zip(dated["model_id"], dated["release_date"], strict=True)),
        )

    def pins(self, table: str, rows: pl.DataFrame) -> pl.DataFrame:
        """`_pin_model` and `_pin_offer` for each row (null where the release cannot say):
        the release's identification of the same source name on a date it saw it, else, for a
        name that does not move, the one model the release identified it as."""
        seen = self.seen.filter(pl.col("table") == table).drop("table")
        on = ["source_id", "source_model_name"]
        idx = rows.select(pl.int_range(pl.len(), dtype=pl.UInt32).alias("_r"), *on, "date")
        covered = (
            idx.join(seen.rename({"date": "_from"}), on=on, how="inner")
            .filter(
                (pl.col("_from") <= pl.col("date"))
                & (pl.coalesce("last_seen", "_from") >= pl.col("date"))
            )
            .sort("_r", "_from")
            .unique("_r", keep="first")
            .select("_r", pl.col("model_id").alias("_at"), pl.col("offer").alias("_at_offer"))
        )
        single = (
            seen.group_by(on)
            .agg(pl.struct("model_id", "offer").unique().alias("_ids"))
            .filter(pl.col("_ids").list.len() == 1)
            .select(
                *on,
                pl.col("_ids").list.first().struct.field("model_id").alias("_one"),
                pl.col("_ids").list.first().struct.field("offer").alias("_one_offer"),
            )
        )
        pins = (
            idx.join(covered, on="_r", how="left")
            .join(single, on=on, how="left", nulls_equal=True)
            .sort("_r")
        )
        use_at = pl.col("_at").is_not_null()
        use_one = ~use_at & pl.col("_one").is_not_null() & ~pl.col("_moving")
        pins = pins.with_columns(pl.Series("_moving", rows["moving_alias"].fill_null(False)))
        return rows.with_columns(
            pins.select(
                pl.when(use_at)
                .then(pl.col("_at"))
                .when(use_one)
                .then(pl.col("_one"))
                .alias("_pin_model"),
                pl.when(use_at)
                .then(pl.col("_at_offer"))
                .when(use_one)
                .then(pl.col("_one_offer"))
                .alias("_pin_offer"),
            )
        )


def _pinned(df: pl.DataFrame) -> pl.DataFrame:
    """Rows the release identified take its model and offer, and are no longer resolved by date
    (`_alias` keeps the moving alias they were written as)."""
    pinned = pl.col("_pin_model").is_not_null()
    return df.with_columns(
        pl.when(pinned & pl.col("moving_alias")).then(pl.col("model_id")).alias("_alias"),
        pl.when(pinned).then(pl.col("_pin_model")).otherwise(pl.col("model_id")).alias("model_id"),
        pl.when(pinned).then(pl.col("_pin_offer")).otherwise(pl.col("offer")).alias("offer"),
        (pl.col("moving_alias") & ~pinned).alias("moving_alias"),
    ).drop("_pin_model", "_pin_offer")


def prior_of(
    models_table: pl.DataFrame,
    prices: pl.DataFrame,
    scores: pl.DataFrame,
    observations: pl.DataFrame,
) -> Prior:
    """The `Prior` of a release from its models, token_prices, benchmark_scores, observations."""
    seen = []
    for table, df, offer in (
        ("token_prices", prices, pl.col("offer")),
        ("benchmark_scores", scores, pl.lit(None, dtype=pl.String)),
    ):
        links = observations.filter(pl.col("table") == table)
        rows = df.select("row_id", "model_id", offer.alias("offer")).unique("row_id")
        seen.append(
            links.join(rows, on="row_id", how="inner").select(
                "table",
                "source_id",
                pl.col("source_name").alias("source_model_name"),
                pl.coalesce("date", "last_seen").alias("date"),
                "last_seen",
                "model_id",
                "offer",
            )
        )
    priced = prices.filter(pl.col("valid_from").is_not_null() & pl.col("alias_of").is_null())
    return Prior(models_table, pl.concat(seen), priced.select(ALIAS_EVIDENCE))


def info_under_own_id(info_ids: pl.DataFrame | None, ids: set[str]) -> pl.DataFrame | None:
    """Model metadata under the id `models.resolve` gives it and, where a metadata row's own
    name is a model id the rows use, under that id too (issue 19, class 8).

    `models.resolve` folds a snapshot into its family (`ministral-3b-2410` -> `ministral-3b`)
    while the price rows keep a snapshot apart where the data has several: Epoch's
    model_versions row `ministral-3b-2410` (2024-10-16) then dated only the family, and the
    snapshot the prices name stayed undated."""
    if info_ids is None or info_ids.is_empty():
        return info_ids
    slug = pl.struct("model_hint", "source_model_name").map_elements(
        lambda s: models.normalize(s["model_hint"] or s["source_model_name"] or ""),
        return_dtype=pl.String,
    )
    own = (
        info_ids.with_columns(slug.alias("_own"))
        .filter(pl.col("_own").is_in(list(ids)) & (pl.col("_own") != pl.col("model_id")))
        .with_columns(pl.col("_own").alias("model_id"))
        .drop("_own")
    )
    return pl.concat([info_ids, own.select(info_ids.columns)])


def identify(
    tables: dict[str, pl.DataFrame], prior: Prior | None = None
) -> dict[str, pl.DataFrame]:
    """token_prices and benchmark_scores with model_id (and offer, region, alias_of on prices),
    and the models table. `tables` holds the importers' frames (names, no model_id); a
    LazyFrame of prices (too many rows to hold) comes back as a LazyFrame.

    Everything is decided per distinct name (and per seller and model for first party), then
    joined onto the rows, which keep their order.

    With `prior` (a release the rows are added to), a name the release identified keeps its
    model and offer (`Prior.pins`), and the release's models and prices count as known when
    names are resolved and moving aliases matched by date."""
    info = tables.get("model_info")
    named = [t for t in ("token_prices", "benchmark_scores") if t in tables]
    if not named:
        return {}
    # Leaderboard snapshots name models as their source's prices and scores do; they only
    # take a model_id (by name, no alias-by-date step: AA names dated entries itself).
    snapshots = tables.get("aa_snapshots")
    # Each table's distinct names (and sellers): one pass over its rows.
    sold = {t: NAME_KEYS + (["provider"] if t == "token_prices" else []) for t in named}
    distinct = pl.collect_all([tables[t].lazy().select(sold[t]).unique() for t in named])
    keys = dict(zip(named, distinct, strict=True))
    listed = [keys[t] for t in named] + ([snapshots] if snapshots is not None else [])
    names = pl.concat([df.select(NAME_KEYS) for df in listed]).unique()
    resolved = resolve_names(names, info, prior.known() if prior is not None else None)
    info_ids = models.resolve(info, info) if info is not None and not info.is_empty() else None
    # Ids a metadata row may date under its own name: not the names that move between snapshots.
    # (Only in the models table: a moving name still resolves by the dates the family had, so a
    # month-dated row, Gundlach's 2024-10-01 "Ministral 3B", keeps its snapshot.)
    moving = set(resolved.filter(pl.col("moving_alias"))["model_id"].drop_nulls())
    # Release dates of identified models, for moving aliases (a preliminary models table).
    prelim = models_table.build_models_curated(
        resolved.filter(~pl.col("moving_alias")).with_columns(
            pl.lit(None, dtype=pl.String).alias("unresolved_reason")
        ),
        info_ids,
    )
    identified = set(prelim.filter(pl.col("resolved"))["model_id"])
    release = dict(zip(prelim["model_id"], prelim["release_date"], strict=True))
    if prior is not None:  # the release's models and their dates, as its build chose them
        identified |= set(prior.models.filter(pl.col("resolved"))["model_id"])
        release |= prior.known().release
    regions = resolved.with_columns(
        pl.col("source_model_name").map_elements(region_of, return_dtype=pl.String).alias("region")
    )
    # Where no name moves and no release pins one, a row's model and how it is known follow
    # from its name alone: the references and sellers come from the distinct names.
    by_name = BY_NAME and prior is None and not resolved["moving_alias"].any()
    out: dict[str, pl.DataFrame] = {}
    refs = []
    for t in named:
        lazy = tables[t].lazy()
        if t == "token_prices":
            df = attach(lazy, regions, NAME_KEYS)
        else:
            df = attach(lazy, resolved, NAME_KEYS).with_columns(
                pl.lit(None, dtype=pl.String).alias("provider"),
                pl.lit(None, dtype=pl.Float64).alias("input_usd_per_mtok"),
                pl.lit(None, dtype=pl.Float64).alias("output_usd_per_mtok"),
                pl.lit(None, dtype=pl.Date).alias("last_seen"),
            )
        if not isinstance(tables[t], pl.LazyFrame) or prior is not None:
            df = df.collect()  # rows in memory: joined once, then read a few times
        if prior is not None:  # a release's name keeps its model (a few rows: `data add`, update)
            df = _pinned(prior.pins(t, df))
        priced = prior.priced if prior is not None and t == "token_prices" else None
        if resolved["moving_alias"].any():
            df = resolve_aliases(df, release, identified, priced).lazy()
        else:  # no name moves: nothing to re-point (and no pass over the rows to find out)
            df = df.lazy().with_columns(
                pl.lit(None, pl.String).alias("alias_of"),
                pl.lit(None, pl.String).alias("unresolved_reason"),
            )
        if prior is not None:  # a pinned alias keeps the name it was written as
            df = df.with_columns(pl.coalesce("alias_of", "_alias").alias("alias_of")).drop("_alias")
        referenced = df
        if by_name:
            referenced = attach(keys[t].lazy(), resolved, NAME_KEYS).with_columns(
                pl.lit(None, pl.String).alias("alias_of"),
                pl.lit(None, pl.String).alias("unresolved_reason"),
            )
        refs.append(
            referenced.select(
                "model_id",
                "source_id",
                "source_model_name",
                "identified_by",
                "namespace",
                pl.when(pl.col("unresolved_reason").is_null() & pl.col("identified_by").is_null())
                .then(pl.lit(REASONS["unknown"]))
                .otherwise(pl.col("unresolved_reason"))
                .alias("unresolved_reason"),
                pl.col("alias_of"),
            ).unique()  # the models table reads each distinct reference once
        )
        if t == "benchmark_scores":
            df = df.drop("provider", "input_usd_per_mtok", "output_usd_per_mtok", "last_seen")
        out[t] = df.drop("model_hint", "namespace", "moving_alias", "unresolved_reason")
    if snapshots is not None:
        snap = snapshots.join(resolved, on=NAME_KEYS, how="left", nulls_equal=True)
        refs.append(
            snap.lazy().select(
                "model_id",
                "source_id",
                "source_model_name",
                "identified_by",
                "namespace",
                pl.when(pl.col("identified_by").is_null())
                .then(pl.lit(REASONS["unknown"]))
                .otherwise(pl.lit(None, dtype=pl.String))
                .alias("unresolved_reason"),
                pl.lit(None, dtype=pl.String).alias("alias_of"),
            )
        )
        out["aa_snapshots"] = snap.select(["model_id", *snapshots.columns]).drop("model_hint")
    # One pass over lazy rows gives the references and the sellers of every model.
    if "token_prices" in out:
        pairs = (
            (
                attach(keys["token_prices"].lazy(), resolved, NAME_KEYS)
                if by_name
                else out["token_prices"]
            )
            .select("model_id", "provider")
            .unique()
        )
        ref, pairs = pl.collect_all([pl.concat(refs), pairs])
    else:
        ref, pairs = pl.concat(refs).collect(), None
    ref = ref.with_columns(
        # a row resolved by date to a snapshot is identified like the snapshot
        pl.when(pl.col("alias_of").is_not_null() & pl.col("unresolved_reason").is_null())
        .then(pl.lit("catalog"))
        .otherwise(pl.col("identified_by"))
        .alias("identified_by")
    )
    out["models"] = models_table.build_models_curated(
        ref.drop("alias_of"),
        info_under_own_id(info_ids, set(ref["model_id"].drop_nulls()) - moving),
    )
    if "token_prices" in out:  # the labelled last resort: a first listing bounds the release
        out["models"] = models_table.date_by_first_listing(out["models"], out["token_prices"])
    # First party: one verdict per seller and model (the model's developer from the table).
    dev = out["models"].select("model_id", "developer")
    if prior is not None:  # a release's model keeps the developer the release gave it
        dev = pl.concat([prior.models.select(dev.columns), dev]).unique(
            "model_id", keep="first", maintain_order=True
        )
    if pairs is not None:
        sellers = (
            pairs.join(dev, on="model_id", how="left")
            .with_columns(first_party_expr("provider", "developer"))
            .drop("developer")
        )
        out["token_prices"] = attach(out["token_prices"], sellers, ["model_id", "provider"])
    for t in named:
        if not isinstance(tables[t], pl.LazyFrame):
            out[t] = out[t].collect()
    return out
