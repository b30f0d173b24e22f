"""Curation of the raw observations into the panel a release publishes.

The importers copy the sources faithfully; this package decides what the rows mean:

- `identity`: one canonical model per price and score row (routes, regions, speed tiers and
  dated copies are attributes of the offer; moving aliases resolve by date), its developer, and
  whether the seller is that developer (`first_party`).
- `spells`: one row per distinct price fact, prices as spells (`valid_from`, `valid_to`), every
  source that reported it kept in the `observations` link table.
- `flags`: named anomaly rules; a flagged row stays in the data with the rule ids in `flags`.

`analysis/data/build.py` runs them in that order when it builds a curated release.
"""
