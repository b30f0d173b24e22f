"""Display names: the expected names are read by hand from the release's models.csv and
gpu_specs.csv and from analysis/data/tables/developers.csv and providers.csv."""

from __future__ import annotations

import re

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


def test_a_page_says_which_ids_no_source_names():
    """`unnamed_note`: nscale and hyperbolic have no row in provider_names.csv or developers.csv
    (only the HuggingFace routes to them, `huggingface-nscale`, are named there; checked by
    grep), so a page whose chart labels them says so once; OpenAI is named (developers.csv)."""
    assert names.unnamed("provider", ["openai", "nscale", "hyperbolic", None]) == [
        "hyperbolic",
        "nscale",
    ]
    assert names.unnamed_note("provider", ["nscale", "openai"]) == (
        "No source the book reads names the provider nscale, so it is shown by its id."
    )
    assert names.unnamed_note("provider", ["openai", "nscale", "hyperbolic", "no-such"]) == (
        "No source the book reads names the providers hyperbolic, no-such and nscale, so they "
        "are shown by their ids."
    )
    assert names.unnamed_note("gpu", ["h100-sxm"]) == (
        "Every accelerator there is shown by the name a source gives it."
    )


def test_a_model_the_models_table_names_only_by_its_id_reads_as_a_source_names_it():
    """models.csv (2026-12-04.2): `gemini-3.7-flash,gemini-3.7-flash,...` and `kimi-k3,kimi-k3,...`
    (name = id); genai-prices' google.yml line 927 `name: Gemini 3.7 Flash` and moonshotai.yml
    line 159 `name: Kimi K3`, read by hand, are in model_names.csv with where they are written.
    A model the models table names keeps that name."""
    assert names.display_name("model", "gemini-3.7-flash", "2026-12-04.2") == "Gemini 3.7 Flash"
    assert names.display_name("model", "kimi-k3", "2026-12-04.2") == "Kimi K3"
    assert {"gemini-3.7-flash", "kimi-k3"} <= names.known_ids("model", "2026-12-04.2")
    assert names.display_name("model", "claude-opus-5.5") == "Claude Opus 5.5"
    rows = names.lookup.read("model_names")
    assert all(row["where"].startswith("genai-prices-pydantic ") for row in rows)


def test_an_accelerator_gpu_specs_does_not_name_reads_as_mlperf_names_it():
    """gpu_specs.csv (2026-12-04.2) has no gb200 or rtx-pro-6000-server row; MLPerf Inference
    v6.0's summary results (../shared/sources, read by hand) give the Accelerator field "NVIDIA
    GB200" and "NVIDIA RTX PRO 6000 Blackwell Server Edition", the names the project's GPU rules
    turn into those ids. An id no table names is shown in capitals."""
    from analysis.data.gpus import canonical_gpu

    for name, gpu in [
        ("NVIDIA GB200", "gb200"),
        ("NVIDIA RTX PRO 6000 Blackwell Server Edition", "rtx-pro-6000-server"),
    ]:
        assert canonical_gpu(name) == gpu
        assert names.display_name("gpu", gpu, "2026-12-04.2") == name
    assert names.display_name("gpu", "no-such-gpu", "2026-12-04.2") == "no-such-gpu"
    assert names.unnamed_note("gpu", ["no-such-gpu", "gb200"], "2026-12-04.2", capitals=True) == (
        "No source the book reads names the accelerator no-such-gpu, so it is shown by its id, in "
        "capitals (NO-SUCH-GPU)."
    )


def test_a_rented_accelerator_reads_as_the_price_file_writes_it():
    """Accelerators the GPU-price files alone name, read by hand in ../shared/sources/
    openrouter-sui414/2026-08-08_HEAD: runpod_daily.csv line 20 `2026-07-28,NVIDIA GeForce RTX
    5090,RTX 5090,...`, line 25 `...,NVIDIA H200 NVL,H200 NVL,...`, line 46 `...,NVIDIA RTX PRO
    6000 Blackwell Workstation Edition,RTX PRO 6000 WK,...` (gpu_id, display_name);
    vast_market/date=2026-07-20.csv.gz line 52 `...,on-demand,RTX 5060 Ti,...` (gpu_name),
    date=2026-07-26.csv.gz line 3377 `...,on-demand,GB10,...` and date=2026-07-21.csv.gz line 2445
    `...,on-demand,RTX PRO 2000,...` (two accelerators only flagged rows price);
    ornn_gpu_index.csv line 2 `A100 SXM4,...` (gpu_type); data-static/
    runpod_depth_history_afhubbard.csv line 9 `2026-01-12,H100,1,...` (gpu_type). The importer's
    own rules (runpod_gpu for RunPod, canonical_gpu for the others) make those strings the ids."""
    from analysis.data.gpus import canonical_gpu
    from analysis.data.importers.gpu_markets import runpod_gpu

    runpod = [
        ("NVIDIA GeForce RTX 5090", "RTX 5090", "rtx-5090"),
        ("NVIDIA H200 NVL", "H200 NVL", "h200-nvl"),
        ("NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "RTX PRO 6000 WK", "rtx-pro-6000"),
    ]
    for gpu_id, shown, gpu in runpod:
        assert runpod_gpu(gpu_id, shown) == gpu
        assert names.display_name("gpu", gpu, "2026-12-04.2") == gpu_id
    for name, gpu in [
        ("RTX 5060 Ti", "rtx-5060-ti"),
        ("GB10", "gb10"),
        ("RTX PRO 2000", "rtx-pro-2000"),
        ("A100 SXM4", "a100-sxm"),
        ("H100", "h100"),
    ]:
        assert canonical_gpu(name) == gpu
        assert names.display_name("gpu", gpu, "2026-12-04.2") == name
    # the server card keeps MLPerf's name: two SKUs, two ids, two names
    assert names.display_name("gpu", "rtx-pro-6000-server", "2026-12-04.2") == (
        "NVIDIA RTX PRO 6000 Blackwell Server Edition"
    )


WHERE_IN_A_FILE = re.compile(
    r'^(?P<folder>\S+) (?P<path>\S+): (?P<field>\w+) "(?P<name>[^"]+)" \(row (?P<row>\d+)\)$'
)


def test_every_gpu_name_is_in_the_source_file_at_the_row_its_where_gives(sources_dir):
    """Each gpu_names.csv `where` names a source folder (one with a _PROVENANCE.tsv); where it
    gives a file, a field and a row (row 1 is the first line below the header, as the importers
    count), that row's field holds the name, and the GPU rules turn it into the row's id."""
    import polars as pl

    from analysis.data.gpus import canonical_gpu

    rows = names.lookup.read("gpu_names")
    assert len({row["gpu"] for row in rows}) == len(rows)
    for row in rows:
        folder = sources_dir / row["where"].split(" ", 1)[0]
        assert (folder / "_PROVENANCE.tsv").exists(), row
        found = WHERE_IN_A_FILE.match(row["where"])
        if found is None:  # MLPerf's rows: a name and a count of results
            assert f'"{row["name"]}"' in row["where"], row
            continue
        assert found["name"] == row["name"], row
        table = pl.read_csv(folder / found["path"], infer_schema=False)
        assert table[found["field"]][int(found["row"]) - 1] == row["name"], row
        assert canonical_gpu(row["name"]) == row["gpu"], row
