"""Display names: what a reader sees in place of a model, GPU or provider id.

One lookup for prose (the quote kinds `model`, `gpu` and `provider` of analysis.report.quote),
tables, chart labels and the figure kit; ids stay in the data and its exports.

- a model: its `name` in the release's models table (models.csv), as written there, so a
  sentence that starts with one keeps its own capitals ("gpt-4o" reads "GPT-4o"); where that
  name is only the id, the name a source gives it in the curated model names table
  (analysis/data/tables/model_names.csv, with where the source writes it: "kimi-k3" reads
  "Kimi K3", as genai-prices names it);
- a GPU: its `name` in the release's gpu_specs table ("h100-sxm" reads "NVIDIA H100 SXM5 80GB"),
  else the name a source gives it in the curated GPU names table
  (analysis/data/tables/gpu_names.csv: "gb200" reads "NVIDIA GB200", as MLPerf writes it);
- a provider: the name of the organisation in the curated developers table
  (analysis/data/tables/developers.csv), else its name in the curated provider names table
  (analysis/data/tables/provider_names.csv: how the provider writes itself in the source that
  lists it, "deepinfra-turbo" reads "DeepInfra Turbo"); a separate offer the tables do not name
  (providers.csv's `seller`) reads as its seller's name. A row is labelled by its `provider`,
  the seller of the offer, so a marketplace-sold row reads as the marketplace or the seller it
  routes to (OpenRouter, "HuggingFace (cerebras)"), never as the model's developer.

An id the tables do not name is shown as it is: never a guessed name.
"""

from __future__ import annotations

import re

from analysis.data import lookup
from analysis.data import providers as provider_table
from analysis.data import release as data
from analysis.data.cache import cached
from analysis.data.reads import memo

KINDS = ("model", "gpu", "provider")

# An id in running text: a run of lower-case letters, digits and `._+-` not inside a path or a
# word, that holds a hyphen, a dot or a digit; a bare word ("together", "modal", "seed" are
# providers' ids) is left as written, since it may be an ordinary word.
ID_IN_TEXT = re.compile(r"(?<![\w/])[a-z0-9][a-z0-9._+-]*+(?![\w/])")
SLUG_LIKE = re.compile(r"[-.\d]")


def display_name(kind: str, key: str, version: str | None = None) -> str:
    """The name a reader sees for id `key` of `kind` (model, gpu or provider)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of name {kind!r}; known: {', '.join(KINDS)}")
    if kind == "provider":
        return _provider_names().get(key) or _provider_names().get(
            provider_table.SELLERS.get(key, ""), key
        )
    found = _release_names(kind, data.current_version(version)).get(key, key)
    if found == key:  # the release names it only by its id, or not at all
        return _curated_names(kind).get(key, key)
    return found


def gpu_name(gpu: str, version: str | None = None) -> str:
    """A GPU's display name in prose; an id no source names in capitals, as GPU names are written
    (`mi350x` -> `MI350X`), the way the charts label it (analysis.figures.hardware.gpu_name).
    Chapters quote this one: the charts' lookup is the one the page's kernel installs, so a
    quote made through it read `GB200` or `NVIDIA GB200` depending on what the process had
    imported, and the result cache kept whichever came first."""
    name = display_name("gpu", gpu, version)
    return gpu.upper() if name == gpu else name


def names(kind: str, keys, version: str | None = None) -> dict[str, str]:
    """`{id: display name}` for every id in `keys` (for a chart's or table's label column)."""
    return {key: display_name(kind, key, version) for key in dict.fromkeys(keys)}


@memo
def _release_names(kind: str, version: str) -> dict[str, str]:
    table, key = {"model": ("models", "model_id"), "gpu": ("gpu_specs", "gpu")}[kind]
    rows = data.load(table, version).select(key, "name").drop_nulls()
    return dict(zip(rows[key].to_list(), rows["name"].to_list(), strict=True))


# The curated names of ids the release names only by the id (or not at all), each with where a
# source writes it: analysis/data/tables/model_names.csv and gpu_names.csv.
CURATED = {"model": ("model_names", "model_id"), "gpu": ("gpu_names", "gpu")}


@memo
def _curated_names(kind: str) -> dict[str, str]:
    table, key = CURATED[kind]
    return {row[key]: row["name"] for row in lookup.read(table)}


@memo
def _provider_names() -> dict[str, str]:
    named = {row["provider"]: row["name"] for row in lookup.read("provider_names")}
    developers = {row["developer"]: row["name"] for row in lookup.read("developers")}
    return {**named, **developers}


def known_ids(kind: str, version: str | None = None) -> set[str]:
    """Every id of `kind` that has a display name other than itself (for the tests that look for
    raw ids on the page)."""
    if kind == "provider":
        return {k for k, v in _provider_names().items() if v != k}
    found = _release_names(kind, data.current_version(version))
    found = {**_curated_names(kind), **{k: v for k, v in found.items() if v != k}}
    return {k for k, v in found.items() if v != k}


def in_text(text: str, version: str | None = None) -> str:
    """`text` with each model, GPU and provider id in it (`ID_IN_TEXT`) replaced by its display
    name: for text written once and kept as written, such as a release's description or a
    claim's evidence, so that the reader sees names while the stored text keeps its ids."""
    named = _named_ids(data.current_version(version))

    def name(match: re.Match) -> str:
        word = match.group(0).rstrip("._+-")  # a sentence's full stop is not part of the id
        shown = named.get(word, word) if SLUG_LIKE.search(word) else word
        return shown + match.group(0)[len(word) :]

    return ID_IN_TEXT.sub(name, text)


@memo
@cached  # on disk too: the second output format (a fresh kernel) reuses the first's names
def _named_ids(version: str) -> dict[str, str]:
    """`{id: display name}` of every id `in_text` replaces, worked out once per version: the
    claims-ledger page runs `in_text` on 35 texts, and a `display_name` per id and text read
    versions.json twice (108,000 reads, 12 s of the page's 15 s of CPU)."""
    named = {}
    for kind in reversed(KINDS):  # a model's name wins over a provider's of the same id
        named.update({key: display_name(kind, key, version) for key in known_ids(kind, version)})
    return named


NOUNS = {"model": "model", "gpu": "accelerator", "provider": "provider"}


def unnamed(kind: str, keys, version: str | None = None) -> list[str]:
    """The ids in `keys` that no source names (their display name is the id itself), sorted:
    the book shows each as its id, as written in the data, never a guessed name."""
    return sorted(k for k in set(keys) if k is not None and display_name(kind, k, version) == k)


def unnamed_note(kind: str, keys, version: str | None = None, *, capitals: bool = False) -> str:
    """One sentence for a page whose figure or table labels the ids `keys` of `kind`: which of
    them no source names and so are shown by their ids, or that every one has a name. With
    `capitals`, the page writes those ids in capitals (the hardware figures' GPU labels)."""
    ids = unnamed(kind, keys, version)
    noun = NOUNS[kind]
    if not ids:
        return f"Every {noun} there is shown by the name a source gives it."
    listed = _listed(ids)
    one = len(ids) == 1
    what = f"the {noun} {listed}" if one else f"the {noun}s {listed}"
    how = "it is shown by its id" if one else "they are shown by their ids"
    if capitals:
        how += f", in capitals ({_listed([i.upper() for i in ids])})"
    return f"No source the book reads names {what}, so {how}."


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
