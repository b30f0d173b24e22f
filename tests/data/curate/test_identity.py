"""Model identity: offers, repository ids, families, snapshots, moving aliases, developers."""

from __future__ import annotations

from datetime import date

import polars as pl
import pytest

from analysis.data import models
from analysis.data.curate import first_party, identity, models_table
from analysis.data.importers.common import MODEL_INFO_SCHEMA


def info(rows: list[dict]) -> pl.DataFrame:
    base = {c: None for c in MODEL_INFO_SCHEMA} | {"source_id": "meta", "source_locator": "m#1"}
    return pl.DataFrame([base | r for r in rows], schema=MODEL_INFO_SCHEMA)


KNOWN = identity.known_from(
    info(
        [
            {"source_model_name": "Qwen3 235B A22B 2507", "open_weights": True},
            {"source_model_name": "DeepSeek R1 0528", "open_weights": True},
            {"source_model_name": "Llama 3.1 8B", "open_weights": True},
            {"source_model_name": "GLM-5.1"},
            {"source_model_name": "Grok 3"},
            {"source_model_name": "GPT-5.5 Pro", "release_date": date(2026, 4, 23)},
        ]
    )
)


@pytest.mark.parametrize(
    ("source", "name", "model_id", "how", "offer"),
    [
        # offer words: the base is the model, the words the offer
        ("litellm-rocry", "together_ai/Qwen/Qwen3-235B-A22B-Instruct-2507-tput", "qwen-3-235b-a22b-2507", "catalog", "tput"),
        ("litellm-rocry", "vertex_ai/deepseek-ai/deepseek-r1-0528-maas", "deepseek-r1-0528", "catalog", "maas"),
        ("litellm-rocry", "groq/llama-3.1-8b-instant", "llama-3.1-8b", "catalog", "instant"),
        ("litellm-rocry", "fireworks_ai/glm-5p1-fast", "glm-5.1", "source metadata", "fast"),
        ("litellm-rocry", "xai/grok-3-fast", "grok-3", "catalog", "fast"),
        ("litellm-rocry", "databricks/databricks-meta-llama-3-1-8b-instruct", "llama-3.1-8b", "catalog", "databricks"),
        # a dated copy of one release is the release
        ("litellm-rocry", "azure/gpt-5.5-pro-2026-04-23", "gpt-5.5-pro", "source metadata", None),
        # `-turbo` names another model at OpenAI: not an offer word there
        ("litellm-rocry", "gpt-4-turbo", "gpt-4-turbo", "catalog", None),
        # an org/model repository id names the weights and the developer
        ("litellm-rocry", "deepinfra/Sao10K/L3-70B-Euryale-v2.1", "l3-70b-euryale-v2.1", "repository id", None),
        # a developer's own family name
        ("litellm-rocry", "chat-bison@002", "chat-bison", "developer family", None),
        ("litellm-rocry", "cohere.command-light-text-v14", "command-light-text-v14", "developer family", None),
        # nothing names it
        ("litellm-rocry", "chatdolphin", "chatdolphin", None, None),
    ],
)  # fmt: skip
def test_names_resolve_to_a_model_and_an_offer(source, name, model_id, how, offer):
    from analysis.data.importers.litellm import model_hint

    out = identity.resolve_name(source, name, model_hint(name), KNOWN)
    assert (out["model_id"], out["identified_by"], out["offer"]) == (model_id, how, offer)


def test_namespaces_are_authors_not_routes_or_regions():
    assert identity.namespace("litellm-rocry", "deepinfra/Sao10K/L3-70B") == "sao10k"
    assert identity.namespace("litellm-rocry", "azure/eu/gpt-5.6") is None  # a region
    assert identity.namespace("litellm-rocry", "fireworks_ai/accounts/fireworks/models/x") is None
    assert identity.namespace("litellm-rocry", "deepinfra/deepinfra/airoboros-70b") is None
    assert identity.namespace("litellm-rocry", "azure/gpt-4o") is None  # route/model
    assert identity.namespace("openrouter-sui414", "nousresearch/hermes-3") == "nousresearch"


def test_regions_of_routes():
    assert identity.region_of("bedrock/eu-west-3/mistral.mistral-large-2402-v1:0") == "eu-west-3"
    assert identity.region_of("apac.amazon.nova-pro-v1:0") == "apac"
    assert identity.region_of("azure/eu/gpt-4o") == "eu"
    assert identity.region_of("mistral.mistral-large-2402-v1:0") is None


def test_developers_and_first_party():
    assert first_party.developer_of("Google DeepMind, Google Research") == "google"
    assert first_party.developer_of("Z AI") == first_party.developer_of("Zhipu AI") == "zhipu"
    assert first_party.developer_of("SpaceXAI") == "xai"  # Artificial Analysis' name for xAI
    assert first_party.developer_of("Sao10K") == "sao10k"  # unknown organisations keep their slug
    assert first_party.developer_of(None) is None
    assert first_party.is_first_party("google-vertex-europe", "google") is True
    assert first_party.is_first_party("bedrock", "amazon") is True
    assert first_party.is_first_party("bedrock", "anthropic") is False
    assert (
        first_party.is_first_party("moonshotai-highspeed", "moonshot") is True
    )  # a tier of its own
    assert first_party.is_first_party("together", None) is None  # unknown developer: unknown
    assert first_party.is_first_party("unspecified", "openai") is None  # unknown seller


def test_a_year_typo_loses_to_the_sources_that_agree():
    stated = [
        ("epoch-ai-models", date(2024, 3, 4)),  # first in precedence, but alone
        ("artificial-analysis", date(2025, 3, 4)),
        ("token-tariff", date(2025, 3, 6)),
        ("openrouter-sui414", date(2023, 1, 1)),  # a listing date never votes
    ]
    when, source, note = models_table.choose_release_date(stated)
    assert (when, source) == (date(2025, 3, 4), "artificial-analysis")
    assert note == "2024-03-04 (epoch-ai-models)"
    # a tie goes to precedence; a listing date counts only where nothing else dates it
    assert (
        models_table.choose_release_date(
            [("x", date(2024, 1, 1)), ("epoch-ai-models", date(2024, 6, 1))]
        )[1]
        == "epoch-ai-models"
    )
    assert models_table.choose_release_date([("openrouter-sui414", date(2026, 7, 1))])[:2] == (
        date(2026, 7, 1),
        "openrouter-sui414",
    )


def _prices(rows: list[dict]) -> pl.DataFrame:
    base = {"provider": "openai", "date": date(2025, 1, 1), "last_seen": None, "moving_alias": False,
            "input_usd_per_mtok": None, "output_usd_per_mtok": None}  # fmt: skip
    schema = {"model_id": pl.String, "provider": pl.String, "date": pl.Date, "last_seen": pl.Date,
              "moving_alias": pl.Boolean, "input_usd_per_mtok": pl.Float64, "output_usd_per_mtok": pl.Float64}  # fmt: skip
    return pl.DataFrame([base | r for r in rows], schema=schema)


def test_a_moving_alias_resolves_by_date_and_price_or_says_why_not():
    snaps = ["gpt-4o-2024-05-13", "gpt-4o-2024-08-06", "gpt-4o-2024-11-20"]
    release = dict(
        zip(snaps, [date(2024, 5, 13), date(2024, 8, 6), date(2024, 11, 20)], strict=True)
    )
    df = _prices(
        [
            {"model_id": "gpt-4o-2024-05-13", "date": date(2024, 5, 13), "last_seen": date(2025, 1, 1), "input_usd_per_mtok": 5.0, "output_usd_per_mtok": 15.0},
            {"model_id": "gpt-4o-2024-08-06", "date": date(2024, 8, 6), "last_seen": date(2025, 1, 1), "input_usd_per_mtok": 2.5, "output_usd_per_mtok": 10.0},
            # only one snapshot released by then
            {"model_id": "gpt-4o", "moving_alias": True, "date": date(2024, 6, 1), "input_usd_per_mtok": 5.0, "output_usd_per_mtok": 15.0},
            # two released; the seller prices the May snapshot the same
            {"model_id": "gpt-4o", "moving_alias": True, "date": date(2024, 9, 1), "input_usd_per_mtok": 5.0, "output_usd_per_mtok": 15.0},
            # a price no snapshot has at that seller
            {"model_id": "gpt-4o", "moving_alias": True, "date": date(2024, 9, 1), "input_usd_per_mtok": 7.0, "output_usd_per_mtok": 21.0},
            # azure prices only the May snapshot, at 5/15: a 2.5/10 alias is the other one
            {"model_id": "gpt-4o-2024-05-13", "provider": "azure", "date": date(2024, 5, 13), "last_seen": date(2025, 1, 1), "input_usd_per_mtok": 5.0, "output_usd_per_mtok": 15.0},
            {"model_id": "gpt-4o", "provider": "azure", "moving_alias": True, "date": date(2024, 9, 1), "input_usd_per_mtok": 2.5, "output_usd_per_mtok": 10.0},
            # before any snapshot
            {"model_id": "gpt-4o", "moving_alias": True, "date": date(2024, 1, 1)},
            # no snapshots known at all, but the family itself is one model
            {"model_id": "claude-3-opus-latest", "moving_alias": True},
            {"model_id": "deepseek-chat", "moving_alias": True},
        ]
    )  # fmt: skip
    identified = {*snaps, "claude-3-opus"}
    out = identity.resolve_aliases(df, release, identified)
    assert out.select("model_id", "alias_of", "unresolved_reason").rows()[2:] == [
        ("gpt-4o-2024-05-13", "gpt-4o", None),
        ("gpt-4o-2024-05-13", "gpt-4o", None),
        ("gpt-4o", "gpt-4o", identity.REASONS["moving-price"]),
        ("gpt-4o-2024-05-13", None, None),
        ("gpt-4o-2024-08-06", "gpt-4o", None),
        ("gpt-4o", "gpt-4o", identity.REASONS["moving-early"]),
        ("claude-3-opus", "claude-3-opus-latest", None),
        ("deepseek-chat", "deepseek-chat", identity.REASONS["moving"]),
    ]


def test_several_dated_snapshots_stay_apart_and_their_family_name_moves():
    names = pl.DataFrame(
        {
            "source_id": ["s"] * 3,
            "source_model_name": [
                "gpt-realtime-x",
                "gpt-realtime-x-2024-10-01",
                "gpt-realtime-x-2024-12-17",
            ],
            "model_hint": [None] * 3,
        },
        schema={"source_id": pl.String, "source_model_name": pl.String, "model_hint": pl.String},
    )
    known = identity.known_from(info([{"source_model_name": "gpt-realtime-x"}]))
    out = identity.split_snapshots(
        pl.DataFrame(
            [
                {"source_id": "s", "source_model_name": n, "model_hint": None, "offer": None, "namespace": None,
                 "model_id": "gpt-realtime-x", "identified_by": "source metadata", "moving_alias": False}
                for n in names["source_model_name"]
            ]
        ),
        known,
    )  # fmt: skip
    assert out.select("model_id", "moving_alias").rows() == [
        ("gpt-realtime-x", True),
        ("gpt-realtime-x-2024-10-01", False),
        ("gpt-realtime-x-2024-12-17", False),
    ]


def test_references_read_from_distinct_names_are_those_of_every_row(tmp_path, monkeypatch):
    """Where no name moves, `identify` reads the models table's references and the sellers
    from the distinct names (`BY_NAME`): the same tables as reading them from every row."""
    import importlib.util
    import sys

    from analysis.data import rules
    from analysis.data.importers.common import MODEL_INFO_SCHEMA
    from analysis.data.paths import ROOT
    from analysis.data.schema import CURATION_COLUMNS, PRICE_CURATION_COLUMNS, TABLES

    spec = importlib.util.spec_from_file_location("synthetic", ROOT / "benchmarks/synthetic.py")
    synthetic = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("synthetic", synthetic)
    spec.loader.exec_module(synthetic)
    folder = synthetic.write_panel(tmp_path / "panel", 20_000, seed=5).folder
    derived = {c.name for c in CURATION_COLUMNS + PRICE_CURATION_COLUMNS} | {"model_id"}
    keep = [c for c in TABLES["token_prices"].column_names if c not in derived | {"first_party"}]
    refs = {t: rules.key_values(folder / f"{t}.csv", t) for t in ("models", "sources")}
    tp = rules.check_csv(
        folder / "token_prices.csv", "token_prices", refs=refs, keep=keep, frame=True
    ).frame
    models = rules.check_csv(folder / "models.csv", "models", frame=True).frame
    info = models.select(
        pl.lit("scrape-a").alias("source_id"),
        pl.col("model_id").alias("source_model_name"),
        pl.lit(None, pl.String).alias("model_hint"),
        "name", "organization", "release_date", "open_weights", "parameters_b",
        "active_parameters_b", "reasoning",
        pl.format("models.csv#{}", "model_id").alias("source_locator"),
    ).cast(MODEL_INFO_SCHEMA)  # fmt: skip
    tables = {
        "token_prices": tp.with_columns(pl.lit(None, pl.String).alias("model_hint")),
        "model_info": info,
    }
    calls = []
    attach = identity.attach
    monkeypatch.setattr(identity, "attach", lambda *a: calls.append(a) or attach(*a))
    fast = identity.identify(tables)
    # the rows, their distinct names (references, then sellers), the first-party verdicts
    assert len(calls) == 4
    monkeypatch.setattr(identity, "BY_NAME", False)
    rows = identity.identify(tables)
    assert fast.keys() == rows.keys()
    for name in fast:
        assert fast[name].equals(rows[name]), name
    # (and the lazy rows give the same tables)
    monkeypatch.setattr(identity, "BY_NAME", True)
    lazy = identity.identify({**tables, "token_prices": tables["token_prices"].lazy()})
    assert lazy["token_prices"].collect().equals(rows["token_prices"])
    assert lazy["models"].equals(rows["models"])


def test_gpt_5_6_is_gpt_5_6_sol_under_a_second_id():
    # genai-prices (2026-08-21 HEAD, prices/new_data/v2/data.json) matches `gpt-5.6` and
    # `gpt-5-6` to its gpt-5.6-sol entry, and LiteLLM prices `gpt-5.6` like gpt-5.6-sol (5/30):
    # one model under two ids (issue 19, class 5), so one set of spells.
    assert models.match_catalog("gpt-5.6", None) == "gpt-5.6-sol"
    assert models.match_catalog("gpt-5.6-terra", None) != "gpt-5.6-sol"


def test_leaderboard_variant_labels_leave_the_display_name_of_the_base_model():
    # Artificial Analysis names (aa-leaderboards-oolong): "GPT-5.6 Luna (low)" on gpt-5.6-luna,
    # "DeepSeek V4 Pro (Reasoning, High Effort)" on deepseek-v4-pro (issue 19, class 8).
    name = models_table.display_name
    assert name("GPT-5.6 Luna (low)", "gpt-5.6-luna") == "GPT-5.6 Luna"
    assert name("DeepSeek V4 Pro (Reasoning, High Effort)", "deepseek-v4-pro") == "DeepSeek V4 Pro"
    assert name("Claude Sonnet 5 (Adaptive Reasoning)", "claude-sonnet-5") == "Claude Sonnet 5"
    # aa-leaderboards-oolong 2026-07-10: the name the models table kept on claude-sonnet-5
    assert name("Claude Sonnet 5 (Adaptive Reasoning, Xhigh Effort)", "claude-sonnet-5") == (
        "Claude Sonnet 5"
    )
    # An id that carries the label is that variant: the label stays.
    assert name("GPT-5.1 (high)", "gpt-5.1-high") == "GPT-5.1 (high)"
    assert name("Claude 3.7 Sonnet (Extended Thinking)", "claude-3.7-sonnet") == (
        "Claude 3.7 Sonnet (Extended Thinking)"
    )


def test_undated_models_are_dated_by_the_date_in_their_id_or_their_first_snapshot():
    refs = pl.DataFrame(
        {
            "model_id": ["claude-3.7-sonnet-2025-02-19", "gemini-2.0-flash-001", "m-20251399"],
            "source_id": ["litellm-rocry", "litellm-rocry", "genai-prices"],
            "source_model_name": ["a", "b", "c"],
        }
    )
    table = pl.DataFrame(
        {
            "model_id": ["claude-3.7-sonnet-2025-02-19", "gemini-2.0-flash", "gemini-2.0-flash-001", "m-20251399", "x"],
            "release_date": [None, date(2025, 2, 5), None, None, date(2026, 1, 2)],
            "release_date_source_id": [None, "epoch-ai-models", None, None, "openrouter-sui414"],
            "release_date_note": [None, None, None, None, None],
        },
        schema_overrides={"release_date": pl.Date, "release_date_note": pl.String},
    )  # fmt: skip
    out = models_table.label_listing_dates(models_table.date_mechanically(table, refs))
    rows = {r["model_id"]: r for r in out.iter_rows(named=True)}
    # A date in the id outranks a listing date (OpenRouter listed qwen-plus-2025-07-28 on
    # 2025-09-08: openrouter-sui414 models/date=2026-08-08.csv, created_at).
    listed = pl.DataFrame(
        {
            "model_id": ["qwen-plus-2025-07-28"],
            "release_date": [date(2025, 9, 8)],
            "release_date_source_id": ["openrouter-sui414"],
            "release_date_note": [None],
        },
        schema_overrides={"release_date_note": pl.String},
    )
    refs_q = pl.DataFrame(
        {"model_id": ["qwen-plus-2025-07-28"], "source_id": ["openrouter-sui414"],
         "source_model_name": ["qwen/qwen-plus-2025-07-28"]}
    )  # fmt: skip
    q = models_table.label_listing_dates(models_table.date_mechanically(listed, refs_q)).row(
        0, named=True
    )
    assert (q["release_date"], q["release_date_note"]) == (
        date(2025, 7, 28),
        "date in the model id",
    )
    assert (rows["claude-3.7-sonnet-2025-02-19"]["release_date"], rows["claude-3.7-sonnet-2025-02-19"]["release_date_source_id"]) == (date(2025, 2, 19), "litellm-rocry")  # fmt: skip
    assert rows["claude-3.7-sonnet-2025-02-19"]["release_date_note"] == "date in the model id"
    assert rows["gemini-2.0-flash-001"]["release_date"] == date(2025, 2, 5)
    assert rows["gemini-2.0-flash-001"]["release_date_note"] == (
        "first snapshot (-001) of gemini-2.0-flash"
    )
    assert rows["m-20251399"]["release_date"] is None  # month 13: not a date
    # OpenRouter's created date is a listing date, and says so.
    assert rows["x"]["release_date_note"].startswith("listing date (openrouter-sui414)")


def test_a_snapshot_named_by_a_metadata_row_is_dated_by_it():
    # epoch-benchmark-stitching/2025-12-03_HEAD/data/model_versions.csv line 374:
    # "ministral-3b-2410,Ministral 3B,2024-10-16". `models.resolve` folds the name into its
    # family `ministral-3b`; the prices keep the snapshot `ministral-3b-2410` apart, and that
    # snapshot is dated by the row of its own name (issue 19, class 8).
    info = pl.DataFrame(
        {
            "source_id": ["epoch-benchmark-stitching"],
            "source_model_name": ["ministral-3b-2410"],
            "model_hint": ["ministral-3b-2410"],
            "release_date": [date(2024, 10, 16)],
            "model_id": ["ministral-3b"],
        }
    )
    out = identity.info_under_own_id(info, {"ministral-3b", "ministral-3b-2410"})
    assert sorted(out["model_id"]) == ["ministral-3b", "ministral-3b-2410"]
    assert set(out["release_date"]) == {date(2024, 10, 16)}
    # A name no row uses as an id adds nothing.
    assert identity.info_under_own_id(info, {"ministral-3b"}).height == 1


def test_the_reasoning_flag_is_one_per_family_where_its_sources_agree():
    table = pl.DataFrame(
        {
            "model_id": [
                "magistral-medium-2506", "magistral-medium-2509", "gemini-3-pro",
                "gemini-3-pro-preview", "qwen-3-4b", "qwen-3-4b-2507", "gemini-2.5-pro",
                "gemini-2.5-pro-preview-tts",
            ],
            "reasoning": [True, None, None, True, False, True, True, None],
        },
        schema_overrides={"reasoning": pl.Boolean},
    )  # fmt: skip
    got = dict(models_table.reasoning_by_family(table).select("model_id", "reasoning").iter_rows())
    assert got["magistral-medium-2509"] is True  # a later snapshot of a reasoning model
    assert got["gemini-3-pro"] is True  # the family id takes its preview's flag
    # Disagreeing sources (different weights under one family) are left as stated.
    assert (got["qwen-3-4b"], got["qwen-3-4b-2507"]) == (False, True)
    assert got["gemini-2.5-pro-preview-tts"] is None  # a speech model, not a snapshot
