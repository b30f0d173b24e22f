"""Display names: the expected names are read by hand from the release's models.csv and
gpu_specs.csv and from analysis/data/tables/developers.csv and providers.csv."""

from __future__ import annotations

import pytest

from analysis.report import names
from analysis.report.quote import Quote


def test_a_model_reads_as_its_name_in_the_models_table():
    # models.csv: claude-opus-5.5,Claude Opus 5.5,...; gpt-4o-2024-05-13,GPT-4o (May 2024),...
    assert names.display_name("model", "claude-opus-5.5") == "Claude Opus 5.5"
    assert names.display_name("model", "gpt-4o-2024-05-13") == "GPT-4o (May 2024)"


def test_a_gpu_reads_as_its_name_in_the_specs_table():
    assert names.display_name("gpu", "h100-sxm") == "NVIDIA H100 SXM5 80GB"  # gpu_specs.csv


def test_a_provider_reads_as_its_organisation_and_a_separate_offer_as_its_seller():
    # developers.csv: openai,OpenAI; providers.csv: a separate offer names its seller.
    assert names.display_name("provider", "openai") == "OpenAI"
    seller_offers = {o: s for o, s in names.provider_table.SELLERS.items() if s == "openai"}
    for offer in seller_offers:
        assert names.display_name("provider", offer) == "OpenAI"


def test_an_unknown_id_is_shown_as_it_is_never_guessed():
    assert names.display_name("model", "no-such-model") == "no-such-model"
    assert names.display_name("provider", "no-such-provider") == "no-such-provider"
    with pytest.raises(ValueError, match="unknown kind of name 'vendor'"):
        names.display_name("vendor", "x")


def test_quotes_of_ids_print_names_capitals_as_written():
    sentence = f"{Quote('claude-opus-5.5', 'model').text} costs more"
    assert sentence == "Claude Opus 5.5 costs more"
    assert Quote("openai", "provider").text == "OpenAI"
    assert Quote("h100-sxm", "gpu")._repr_markdown_() == "NVIDIA H100 SXM5 80GB"
    assert names.names("provider", ["openai", "openai", "anthropic"]) == {
        "openai": "OpenAI",
        "anthropic": "Anthropic",
    }


def test_a_provider_the_developers_table_does_not_name_reads_as_it_writes_itself():
    # provider_names.csv, each read by hand from its source: OpenRouter's endpoints file of
    # 2026-08-08 (provider_slug deepinfra/turbo -> provider_display_name "DeepInfra Turbo";
    # amazon-bedrock -> "Amazon Bedrock") and Epoch's "Hardware prices.csv" (Vendor column).
    assert names.display_name("provider", "deepinfra-turbo") == "DeepInfra Turbo"
    assert names.display_name("provider", "bedrock") == "Amazon Bedrock"
    assert names.display_name("provider", "amazon-web-services") == "Amazon Web Services"
    # a marketplace's route to a seller reads as the source writes the route, naming the seller
    assert names.display_name("provider", "huggingface-cerebras") == "HuggingFace (cerebras)"
    assert "amazon-web-services" in names.known_ids("provider")


def test_every_provider_name_quotes_where_it_is_written():
    rows = names.lookup.read("provider_names")
    assert len(rows) > 80
    assert all(row["where"] for row in rows)
