"""Display names: what a reader sees in place of a model, GPU or provider id.

One lookup for prose (the quote kinds `model`, `gpu` and `provider` of analysis.report.quote),
tables, chart labels and the figure kit; ids stay in the data and its exports.

- a model: its `name` in the release's models table (models.csv), as written there, so a
  sentence that starts with one keeps its own capitals ("gpt-4o" reads "GPT-4o");
- a GPU: its `name` in the release's gpu_specs table ("h100" reads "NVIDIA H100 SXM5 80GB");
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

from analysis.data import lookup
from analysis.data import providers as provider_table
from analysis.data import release as data
from analysis.data.reads import memo

KINDS = ("model", "gpu", "provider")


def display_name(kind: str, key: str, version: str | None = None) -> str:
    """The name a reader sees for id `key` of `kind` (model, gpu or provider)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of name {kind!r}; known: {', '.join(KINDS)}")
    if kind == "provider":
        return _provider_names().get(key) or _provider_names().get(
            provider_table.SELLERS.get(key, ""), key
        )
    return _release_names(kind, data.current_version(version)).get(key, key)


def names(kind: str, keys, version: str | None = None) -> dict[str, str]:
    """`{id: display name}` for every id in `keys` (for a chart's or table's label column)."""
    return {key: display_name(kind, key, version) for key in dict.fromkeys(keys)}


@memo
def _release_names(kind: str, version: str) -> dict[str, str]:
    table, key = {"model": ("models", "model_id"), "gpu": ("gpu_specs", "gpu")}[kind]
    rows = data.load(table, version).select(key, "name").drop_nulls()
    return dict(zip(rows[key].to_list(), rows["name"].to_list(), strict=True))


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
    return {k for k, v in found.items() if v != k}
