"""Importers: one module per public source format, each turning raw files into table rows.

Contract every importer module follows (the build in `analysis/data/build.py` relies on it):

- Parser functions read the *public format* from a path (so a user with internet can point them
  at the live file) and are tested on small fixtures written in `tests/`.
- `SOURCES: list[dict]` gives the module's rows of the `sources` table (columns as in
  `analysis.data.schema.TABLES["sources"]`).
- `build(sources_dir: Path) -> dict[str, pl.DataFrame]` reads the module's folder(s) under
  `sources_dir` and returns frames keyed by table name. Each frame has the table's columns as in
  `analysis.data.schema`, except:
    * `model_id` is absent: rows carry `source_model_name` (exact name in the source) and
      `model_hint` (the importer's cleaned base name, e.g. `claude-3-sonnet-20240229` from
      `bedrock/anthropic.claude-3-sonnet-20240229-v1:0`); `analysis.data.models` resolves them.
    * `first_party` is absent from token_prices: the build derives it from the resolved model's
      organisation and the provider.
  An importer may also return `"model_info"`: what a source says about models, columns
  `source_id, source_model_name, model_hint, name, organization, release_date, open_weights,
  parameters_b, active_parameters_b, reasoning, source_locator` (nulls where the source is silent).
- Output is deterministic: same input files, same rows in the same order.
- Never invent a value: a value not in the source is null.
- Bad input raises `analysis.data.errors.DataError` naming file, row, column, value and rule.
"""
