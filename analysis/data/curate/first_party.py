"""Who sells a model as its own: the developer table (analysis/data/tables/developers.csv) and
the provider table decide it once, here.

`developer_of(organization)` gives a model's canonical developer; `is_first_party(provider,
developer)` says whether the provider is that developer's own API;
`is_first_party_by_organization` and its polars form take the organisation as a source writes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import polars as pl

from analysis.data import lookup, providers
from analysis.data.importers.common import slug as make_slug
from analysis.data.reads import memo


@dataclass(frozen=True)
class Developer:
    developer: str
    name: str
    pattern: re.Pattern
    own_providers: frozenset[str]


@memo
def developers() -> tuple[Developer, ...]:
    out = []
    for r in lookup.read("developers"):
        own = {p for p in r["own_providers"].split(";") if p}
        out.append(
            Developer(
                r["developer"], r["name"], re.compile(r["organization_pattern"]), frozenset(own)
            )
        )
    return tuple(out)


@memo
def developer_of(organization: str | None) -> str | None:
    """Canonical developer id of an organisation as a source writes it: the first organisation of
    a comma-separated list (Epoch lists the lead developer first), matched against the developer
    table; an organisation the table does not know gets its own slug."""
    if not organization or not organization.strip():
        return None
    first = organization.split(",")[0].strip().lower()
    for d in developers():
        if d.pattern.search(first):
            return d.developer
    out = make_slug(first)
    return out or None


@memo
def _own(developer: str) -> frozenset[str]:
    for d in developers():
        if d.developer == developer:
            return d.own_providers | {developer}
    return frozenset({developer})


def is_first_party(provider: str | None, developer: str | None) -> bool | None:
    """True when the seller behind `provider` is the model's developer (its own API, per the
    developer table); None when the developer or the seller is unknown."""
    if not developer:
        return None
    if not provider or provider == "unspecified":
        return None
    return providers.seller(provider) in _own(developer)


def is_first_party_by_organization(provider: str, organization: str | None) -> bool | None:
    """True when `provider` is the own API of the developer of a model of `organization`;
    None when the organisation (so the developer) is unknown."""
    return is_first_party(provider, developer_of(organization))


def first_party_by_organization_expr(
    provider: str | pl.Expr = "provider", organization: str | pl.Expr = "organization"
) -> pl.Expr:
    """`is_first_party_by_organization` for polars: null where the organisation is unknown."""
    prov = pl.col(provider) if isinstance(provider, str) else provider
    org = pl.col(organization) if isinstance(organization, str) else organization
    return (
        pl.struct(prov.alias("p"), org.alias("o"))
        .map_elements(
            lambda s: is_first_party_by_organization(s["p"], s["o"]), return_dtype=pl.Boolean
        )
        .alias("first_party")
    )
