"""What a data version's `datapackage.json` must say for its tables to be read by it.

Checked by the validator and by the loader alike (the loader takes a release's columns from its
descriptor): resources of known tables, columns the schema knows with the schema's types, and
an RFC 3339 `created`.
"""

from __future__ import annotations

import re
from pathlib import Path

from analysis.data.errors import Problem
from analysis.data.schema import TABLES

# The Data Package standard wants `created` as an RFC 3339 date-time. Releases up to this one
# wrote a bare date; they are immutable, so for them it is a note.
RFC3339 = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"
CREATED_DATE_ONLY_UNTIL = "2026-11-30"


def descriptor_problems(path: Path, desc: object, notes: list[str]) -> list[Problem]:
    """A descriptor the checks can rely on: resources of known tables, fields the schema knows
    with the schema's types, and (from the first version after 2026-11-30) an RFC 3339 `created`."""
    p = str(path)
    if not isinstance(desc, dict) or not isinstance(desc.get("resources"), list):
        return [
            Problem(
                p, None, "resources", None, "descriptor: must be an object with a list 'resources'"
            )
        ]
    problems = []
    version = desc.get("version")
    created = desc.get("created")
    if created is not None and not re.fullmatch(RFC3339, str(created)):
        rule = "descriptor: 'created' must be an RFC 3339 date-time such as 2026-12-01T00:00:00Z"
        if isinstance(version, str) and version <= CREATED_DATE_ONLY_UNTIL:
            notes.append(f"{p}: {rule} (value {created!r}; this release is immutable)")
        else:
            problems.append(Problem(p, None, "created", str(created), rule))
    for i, res in enumerate(desc["resources"]):
        name = res.get("name") if isinstance(res, dict) else None
        where = f"resources[{i}]"
        if name not in TABLES:
            problems.append(
                Problem(
                    p, None, f"{where}.name", str(name), "descriptor: not a table of the schema"
                )
            )
            continue
        fields = (
            res.get("schema", {}).get("fields") if isinstance(res.get("schema"), dict) else None
        )
        if not isinstance(fields, list) or "path" not in res:
            problems.append(
                Problem(
                    p, None, where, name, "descriptor: a resource needs 'path' and 'schema.fields'"
                )
            )
            continue
        spec = TABLES[name]
        for f in fields:
            fname, ftype = f.get("name"), f.get("type")
            if fname not in spec.column_names:
                problems.append(
                    Problem(
                        p,
                        None,
                        f"{name}.{fname}",
                        str(fname),
                        "descriptor: a column the schema does not know",
                    )
                )
            elif ftype != spec.column(fname).type:
                problems.append(
                    Problem(
                        p,
                        None,
                        f"{name}.{fname}",
                        str(ftype),
                        f"descriptor: type must be {spec.column(fname).type!r}, as in the schema",
                    )
                )
    return problems
