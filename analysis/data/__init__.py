"""The data layer: released versions and their loading, schemas, validation, the build from raw
public files, the curated identity tables (models, providers, GPUs) and the importers.

The loading API of `release` is re-exported, so callers write `from analysis import data` and
`data.load("token_prices")`.
"""

from analysis.data.release import (
    VERSION_ENV,
    Release,
    citation,
    current_version,
    data_dir,
    datapackage,
    fields,
    latest_version,
    load,
    read_table_csv,
    release_date,
    releases,
    select_rows,
    sha256,
    sources_of,
    tables,
    version_dir,
)

__all__ = [
    "VERSION_ENV",
    "Release",
    "citation",
    "current_version",
    "data_dir",
    "datapackage",
    "fields",
    "latest_version",
    "load",
    "read_table_csv",
    "release_date",
    "releases",
    "select_rows",
    "sha256",
    "sources_of",
    "tables",
    "version_dir",
]
