"""LMArena importers: Elo history (fboulnois CSVs, arena-catalog JSON and tables) and prices."""

from __future__ import annotations

import csv
import json
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from analysis.data.errors import DataError
from analysis.data.importers import lmarena
from analysis.data.schema import TABLES

FB = "lmarena-csv-fboulnois"
CAT = "lmarena-arena-catalog"
SNAP = "2024-12-25_snapshot_data"

FB_2024_06 = """rank,model,arena_elo,95_pct_ci,votes,organization,license,knowledge_cutoff,url
1,GPT-4o-2024-05-13,1287,+3/-3,42046,OpenAI,Proprietary,2023/10,https://openai.com/index/hello-gpt-4o/
2,Claude 3.5 Sonnet,1271,+5/-5,8000,Anthropic,Proprietary,2024/4,https://www.anthropic.com/news/claude-3-5-sonnet
3,Llama-3-70b-Instruct,1207,+2/-2,150000,Meta,Llama 3 Community,2023/12,https://llama.meta.com/llama3/
"""
FB_2025_08 = """rank,rank_stylectrl,model,arena_score,95_pct_ci,votes,organization,license,knowledge_cutoff,url
1,1,Gemini-2.5-Pro,1470,+5/-5,26019,Google,Proprietary,,http://aistudio.google.com/
2,3,Claude 3.5 Sonnet,1268,+3/-3,90000,Anthropic,Proprietary,,https://www.anthropic.com/
200,188,Yi-34B-Chat,1134,+6/-6,15917,01 AI,Yi License,2023/6,https://huggingface.co/01-ai/Yi-34B-Chat
201,188,Yi-34B-Chat,1134,+6/-6,15917,01 AI,Yi License,2023/6,https://huggingface.co/01-ai/Yi-34B-Chat
"""
TABLE_2023 = """Model,MT-bench (score),Arena Elo rating,MMLU,License,Link
GPT-4,8.99,1227,0.864,Proprietary,https://openai.com/research/gpt-4
Vicuna-13B,6.57,1061,0.558,Llama 2 Community,https://huggingface.co/lmsys/vicuna-13b-v1.5
WizardLM-30B,7.01,-,0.587,Non-commercial,https://huggingface.co/WizardLM/WizardLM-30B-V1.0
"""
TABLE_2024 = """key,Model,MT-bench (score),MMLU,Knowledge cutoff date,License,Organization,Link
gpt-4-0314,GPT-4,8.96,0.864,2021/9,Proprietary,OpenAI,https://openai.com/research/gpt-4
vicuna-13b,Vicuna-13B,6.57,0.558,2023/7,Llama 2 Community,LMSYS,https://huggingface.co/lmsys/vicuna-13b-v1.5
claude-3-5-sonnet-20240620,Claude 3.5 Sonnet,-,0.887,2024/4,Proprietary,Anthropic,https://www.anthropic.com/
yi-34b-chat,Yi-34B-Chat,-,0.735,2023/6,Yi License,01 AI,https://huggingface.co/01-ai/Yi-34B-Chat
yi-34b-chat,Yi-34B-Chat,-,0.735,2023/6,Yi License,01 AI,https://huggingface.co/01-ai/Yi-34B-Chat
"""
PRICING_TABLE = """model_key,source,input_token_price,output_token_price
gpt-4o-2024-08-06,https://openai.com/api/pricing/,2.5,10
llama-3-70b-instruct,https://llmpricecheck.com/aws/llama-2-chat-13b/,0.59,0.79
gemini-advanced-0514,null,null,null
"""


def _ratings(pairs: dict[str, float]) -> dict:
    full = {k: {"rating": v, "rating_q975": v + 4, "rating_q025": v - 4} for k, v in pairs.items()}
    return {"coding": {"gpt-4o-2024-08-06": {"rating": 1300.0}}, "full": full}


def _entry(key: str, inp, out, src: str, lic: str = "Proprietary", org: str = "OpenAI") -> dict:
    return {
        "name": key,
        "model_api_name": key,
        "input_token_price": inp,
        "output_token_price": out,
        "organization": org,
        "license": lic,
        "price_source": src,
        "model_source": "https://example.org/model",
    }


SCATTER_1 = [
    _entry("gpt-4o-2024-08-06", "2.5", "10", "https://openai.com/api/pricing/"),
    _entry(
        "deepseek-r1",
        "0.55",
        "2.19",
        "https://api-docs.deepseek.com/quick_start/pricing",
        "MIT",
        "DeepSeek",
    ),
    _entry("o1-2024-12-17", "15", "60", "https://openai.com/api/pricing/"),
]
SCATTER_2 = [
    _entry("gpt-4o-2024-08-06", "2.5", "10", "https://platform.openai.com/docs/pricing"),
    _entry(
        "deepseek-r1",
        "0.55",
        "2.19",
        "https://api-docs.deepseek.com/quick_start/pricing",
        "MIT",
        "DeepSeek",
    ),
    _entry("imagen-3.0-generate-002", "0.04", "0.04", "https://cloud.google.com/vertex-ai/pricing"),
    _entry("mai-1-preview", "", "", "", org="Microsoft AI"),
]
SCATTER_3 = [
    _entry("gpt-4o-2024-08-06", 2.5, 10, "https://openai.com/api/pricing/"),
    _entry(
        "deepseek-r1",
        "0.28",
        "0.42",
        "https://api-docs.deepseek.com/quick_start/pricing",
        "MIT",
        "DeepSeek",
    ),
    _entry("o1-2024-12-17", "15", "60", "https://openai.com/api/pricing/"),
    _entry("gemini-3-flash", 0.5, 3, "n/a", org="Google"),
]

# file (relative to the folder), commit date, content
FILES = {
    FB: [
        ("2024-06-19_lmsys.csv", "2024-06-19", FB_2024_06),
        ("2025-08-06_lmarena_text.csv", "2025-08-06", FB_2025_08),
    ],
    CAT: [
        (f"{SNAP}/leaderboard_table_20231220.csv", "2024-12-25", TABLE_2023),
        (f"{SNAP}/leaderboard_table_20240515.csv", "2024-12-25", TABLE_2024),
        (f"{SNAP}/pricing_table.csv", "2024-12-25", PRICING_TABLE),
        (
            "2025-03-04_leaderboard-data.json",
            "2025-03-04",
            json.dumps(_ratings({"gpt-4o-2024-08-06": 1265.4, "RWKV-4-Raven-14B": 921.6})),
        ),
        (
            "2025-03-07_leaderboard-text.json",
            "2025-03-07",
            json.dumps(_ratings({"gpt-4o-2024-08-06": 1265.4, "RWKV-4-Raven-14B": 921.6})),
        ),
        (
            "2025-04-04_leaderboard-text.json",
            "2025-04-04",
            json.dumps(_ratings({"gpt-4o-2024-08-06": 1266.1})),
        ),
        (
            "2025-12-17_HEAD/leaderboard-text-style-control.json",
            "2025-12-17",
            json.dumps(_ratings({"gemini-3-pro": 1492.05})),
        ),
        (
            "2025-12-17_HEAD/leaderboard-vision.json",
            "2025-12-17",
            json.dumps(_ratings({"gpt-4o-2024-08-06": 1200.0})),
        ),
        ("2025-01-28_scatterplot-data.json", "2025-01-28", json.dumps(SCATTER_1)),
        ("2025-02-04_scatterplot-data.json", "2025-02-04", json.dumps(SCATTER_2)),
        ("2025-03-04_scatterplot-data.json", "2025-03-04", json.dumps(SCATTER_3)),
    ],
}


def _write_sources(root: Path) -> Path:
    for folder, files in FILES.items():
        lines = ["file\trepo\tcommit\tcommit_date\tpath_in_repo\tbytes\tsha256"]
        for i, (name, commit_date, text) in enumerate(files):
            path = root / folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            commit = f"{i:02d}" + "ab" * 19
            lines.append(
                f"{folder}/{name}\tsome/repo\t{commit}\t{commit_date}\tdata/{Path(name).name}\t{len(text)}\t0"
            )
        (root / folder / "_PROVENANCE.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


@pytest.fixture
def built(tmp_path: Path) -> dict[str, pl.DataFrame]:
    return lmarena.build(_write_sources(tmp_path / "sources"))


def _scores(built, **where) -> pl.DataFrame:
    df = built["benchmark_scores"]
    for k, v in where.items():
        df = df.filter(pl.col(k) == v)
    return df


# ---------------------------------------------------------------- benchmark_scores


def test_columns_follow_the_importer_contract(built):
    scores = [c for c in TABLES["benchmark_scores"].column_names if c != "model_id"]
    assert built["benchmark_scores"].columns == [*scores, "model_hint"]
    prices = [
        c for c in TABLES["token_prices"].column_names if c not in ("model_id", "first_party")
    ]
    assert built["token_prices"].columns == [*prices, "model_hint"]
    assert "model_info" in built


def test_fboulnois_rows_are_dated_by_the_snapshot_and_hinted_with_the_arena_key(built):
    fb = _scores(built, source_id="lmarena-fboulnois")
    assert fb.height == 3 + 3  # the repeated Yi-34B-Chat row counts once
    claude = fb.filter(pl.col("source_model_name") == "Claude 3.5 Sonnet").sort("date")
    assert claude["date"].to_list() == [date(2024, 6, 19), date(2025, 8, 6)]
    assert claude["score"].to_list() == [1271.0, 1268.0]
    # the keyed 2024 table pairs this display name with one key
    assert set(claude["model_hint"]) == {"claude-3-5-sonnet-20240620"}
    gemini = fb.filter(pl.col("source_model_name") == "Gemini-2.5-Pro")
    assert gemini["model_hint"].to_list() == ["gemini-2.5-pro"]  # unknown name: slugged
    assert gemini["source_locator"][0].startswith(f"{FB}/2025-08-06_lmarena_text.csv@01abababab")
    assert gemini["source_locator"][0].endswith("#row 1")
    assert set(fb["benchmark"]) == {"arena-elo"}
    assert set(fb["unit"]) == {"elo"}


def test_catalog_json_takes_the_full_category_and_skips_recommitted_snapshots(built):
    elo = _scores(
        built,
        source_id="lmarena-catalog",
        benchmark="arena-elo",
        source_model_name="gpt-4o-2024-08-06",
    )
    # 2025-03-07 repeats 2025-03-04 exactly (the file was renamed): no rows of its own
    assert elo.select("date", "score").rows() == [
        (date(2025, 3, 4), 1265.4),
        (date(2025, 4, 4), 1266.1),
    ]
    rwkv = _scores(built, source_model_name="RWKV-4-Raven-14B")
    assert rwkv["model_hint"].to_list() == ["rwkv-4-raven-14b"]
    assert rwkv["source_locator"][0].endswith("#full/RWKV-4-Raven-14B")
    style = _scores(built, benchmark="arena-elo-style-control")
    assert style.select("source_model_name", "score", "date").rows() == [
        ("gemini-3-pro", 1492.05, date(2025, 12, 17))
    ]
    # vision leaderboards are left out
    assert 1200.0 not in built["benchmark_scores"]["score"].to_list()


def test_tables_give_2023_elo_and_one_row_per_model_per_distinct_mmlu(built):
    elo = _scores(built, source_id="lmarena-catalog", benchmark="arena-elo").filter(
        pl.col("date") == date(2023, 12, 20)
    )
    assert dict(elo.select("source_model_name", "score").rows()) == {
        "GPT-4": 1227.0,
        "Vicuna-13B": 1061.0,
    }
    mmlu = _scores(built, benchmark="mmlu").sort("source_model_name")
    assert mmlu["unit"].unique().to_list() == ["percent"]
    # Vicuna-13B (2023, no key) and vicuna-13b (2024) are one model with one value: one row, first date
    vicuna = mmlu.filter(pl.col("model_hint") == "vicuna-13b")
    assert vicuna.select("source_model_name", "score", "date").rows() == [
        ("Vicuna-13B", 55.8, date(2023, 12, 20))
    ]
    claude = mmlu.filter(pl.col("model_hint") == "claude-3-5-sonnet-20240620")
    assert claude.select("score", "date").rows() == [(88.7, date(2024, 5, 15))]
    # the 2024 table pairs the display name GPT-4 with key gpt-4-0314: the 2023 row is that model
    assert mmlu.filter(pl.col("score") == 86.4).height == 1
    mt = _scores(built, benchmark="mt-bench")
    assert set(mt["unit"]) == {"index"}
    gpt4 = mt.filter(pl.col("model_hint") == "gpt-4-0314").sort("date")
    assert gpt4.select("score", "date").rows() == [
        (8.99, date(2023, 12, 20)),
        (8.96, date(2024, 5, 15)),
    ]


# ---------------------------------------------------------------- token_prices


def _prices(built, model: str) -> list[tuple]:
    df = built["token_prices"].filter(pl.col("source_model_name") == model).sort("date")
    return df.select(
        "provider", "date", "last_seen", "input_usd_per_mtok", "output_usd_per_mtok", "price_kind"
    ).rows()


def test_same_price_in_consecutive_snapshots_is_one_run(built):
    # pricing table (2024-12-25) then three scatterplots; the price page URL changed, the price did not
    assert _prices(built, "gpt-4o-2024-08-06") == [
        ("openai", date(2024, 12, 25), date(2025, 3, 4), 2.5, 10.0, "list"),
    ]
    # a price cut starts a new run
    assert _prices(built, "deepseek-r1") == [
        ("deepseek", date(2025, 1, 28), date(2025, 2, 4), 0.55, 2.19, "list"),
        ("deepseek", date(2025, 3, 4), date(2025, 3, 4), 0.28, 0.42, "list"),
    ]
    # absent from one snapshot: the run ends, the next sighting starts another
    assert [r[1:3] for r in _prices(built, "o1-2024-12-17")] == [
        (date(2025, 1, 28), date(2025, 1, 28)),
        (date(2025, 3, 4), date(2025, 3, 4)),
    ]


def test_third_party_or_missing_price_pages_are_unspecified_and_reported(built):
    assert _prices(built, "llama-3-70b-instruct") == [
        ("unspecified", date(2024, 12, 25), date(2024, 12, 25), 0.59, 0.79, "reported"),
    ]
    assert _prices(built, "gemini-3-flash")[0][0] == "unspecified"


def test_unpriced_and_image_generation_entries_are_left_out(built):
    names = set(built["token_prices"]["source_model_name"])
    assert not names & {"imagen-3.0-generate-002", "mai-1-preview", "gemini-advanced-0514"}


def test_price_rows_are_usd_and_point_at_the_price_page(built):
    tp = built["token_prices"]
    assert set(tp["currency"]) == {"USD"}
    assert tp["input_original_per_mtok"].to_list() == tp["input_usd_per_mtok"].to_list()
    loc = (
        tp.filter(pl.col("source_model_name") == "deepseek-r1")
        .sort("date")["source_locator"]
        .to_list()
    )
    assert loc[0].startswith(f"{CAT}/2025-01-28_scatterplot-data.json@")
    assert loc[0].endswith(
        "#model deepseek-r1; price_source https://api-docs.deepseek.com/quick_start/pricing"
    )
    table_loc = tp.filter(pl.col("source_model_name") == "llama-3-70b-instruct")["source_locator"][
        0
    ]
    assert table_loc.endswith(
        "pricing_table.csv@02ababababab#row 2; model llama-3-70b-instruct; "
        "price_source https://llmpricecheck.com/aws/llama-2-chat-13b/"
    )


# ---------------------------------------------------------------- model_info and determinism


def test_model_info_reads_open_weights_from_the_licence(built):
    info = built["model_info"]
    rows = {(r["source_id"], r["source_model_name"]): r for r in info.iter_rows(named=True)}
    assert rows[("lmarena-fboulnois", "Llama-3-70b-Instruct")]["open_weights"] is True
    assert rows[("lmarena-fboulnois", "Yi-34B-Chat")]["open_weights"] is True
    assert rows[("lmarena-fboulnois", "Gemini-2.5-Pro")]["open_weights"] is False
    assert rows[("lmarena-catalog", "deepseek-r1")]["organization"] == "DeepSeek"
    assert rows[("lmarena-catalog", "deepseek-r1")]["open_weights"] is True
    assert rows[("lmarena-catalog", "vicuna-13b")]["organization"] == "LMSYS"
    assert info.select(pl.col("release_date").is_null().all()).item()


def test_build_is_deterministic(tmp_path):
    a = lmarena.build(_write_sources(tmp_path / "a"))
    b = lmarena.build(_write_sources(tmp_path / "b"))
    for table in a:  # locators are relative to the sources dir, so they match too
        assert a[table].equals(b[table]), table


@pytest.mark.parametrize(
    ("licence", "expected"),
    [
        ("Proprietary", False),
        ("Propretary", False),
        ("Llama 3.1 Community", True),
        ("Apache 2.0", True),
        ("CC-BY-NC-4.0", True),
        ("Non-commercial", True),
        ("Qianwen LICENSE", True),
        ("Other", None),
        ("", None),
        (None, None),
    ],
)
def test_open_weights_rule(licence, expected):
    assert lmarena.open_weights_from_licence(licence) is expected


@pytest.mark.parametrize(
    ("url", "provider"),
    [
        ("https://openai.com/api/pricing/", "openai"),
        ("https://platform.openai.com/docs/pricing", "openai"),
        ("https://docs.claude.com/en/docs/about-claude/pricing", "anthropic"),
        ("https://www.together.ai/pricing", "together"),
        ("https://cloud.google.com/vertex-ai/generative-ai/pricing", "google"),
        ("https://aws.amazon.com/bedrock/pricing/", "bedrock"),
        ("https://openrouter.ai/openai/gpt-5-chat", "openrouter"),
        ("https://artificialanalysis.ai/models/gemma-3-27b/providers#pricing", "unspecified"),
        ("https://huggingface.co/Nexusflow/Athene-70B", "unspecified"),
        ("n/a", "unspecified"),
        (None, "unspecified"),
    ],
)
def test_provider_from_price_page(url, provider):
    assert lmarena.provider_from_url(url) == provider


# ---------------------------------------------------------------- errors name the bad value


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_conflicting_duplicate_leaderboard_row_is_an_error(tmp_path):
    bad = FB_2025_08.replace("201,188,Yi-34B-Chat,1134", "201,188,Yi-34B-Chat,1140")
    with pytest.raises(
        DataError, match=r"row 4, column 'model': value 'Yi-34B-Chat': listed twice"
    ):
        lmarena.parse_fboulnois(_write(tmp_path / "x_lmsys.csv", bad))


def test_non_numeric_score_is_located(tmp_path):
    bad = FB_2024_06.replace("1207", "n.a.")
    with pytest.raises(
        DataError, match=r"row 3, column 'arena_elo': value 'n.a.': must be a number"
    ):
        lmarena.parse_fboulnois(_write(tmp_path / "x_lmsys.csv", bad))


def test_mmlu_given_as_percent_breaks_the_fraction_rule(tmp_path):
    bad = TABLE_2024.replace("0.558", "55.8")
    path = _write(tmp_path / "leaderboard_table_20240515.csv", bad)
    with pytest.raises(
        DataError, match=r"leaderboard_table_20240515.csv, row 2, column 'MMLU': value '55.8'"
    ):
        lmarena.parse_leaderboard_table(path)


def test_negative_price_and_missing_category_are_errors(tmp_path):
    entries = [_entry("gpt-4o", "-2.5", "10", "https://openai.com/api/pricing/")]
    path = _write(tmp_path / "scatterplot-data.json", json.dumps(entries))
    with pytest.raises(DataError, match=r"row 1, column 'input_token_price': value '-2.5'"):
        lmarena.parse_scatterplot(path)
    path = _write(tmp_path / "leaderboard-text.json", json.dumps({"coding": {}}))
    with pytest.raises(DataError, match="category 'full'"):
        lmarena.parse_category_ratings(path)


# ---------------------------------------------------------------- the real sources


@pytest.fixture(scope="module")
def real(request) -> dict[str, pl.DataFrame]:
    return lmarena.build(request.getfixturevalue("sources_dir"))


def test_real_elo_history_covers_2023_to_2025(real):
    elo = real["benchmark_scores"].filter(pl.col("benchmark") == "arena-elo")
    by_source = {
        s: (d.height, d["date"].min(), d["date"].max(), d["date"].n_unique())
        for (s,), d in elo.group_by("source_id")
    }
    n, first, last, dates = by_source["lmarena-fboulnois"]
    assert (first, last, dates) == (date(2024, 6, 19), date(2025, 8, 6), 15)
    assert n > 2500
    n, first, last, dates = by_source["lmarena-catalog"]
    # 10 tables of 2023 with Elo, 7 distinct JSON leaderboards of 2025
    assert (first, last, dates) == (date(2023, 6, 19), date(2025, 12, 11), 17)
    assert elo["score"].is_between(700, 1600).all()


def test_real_sources_agree_where_they_overlap(real):
    """fboulnois's 2025-05-06 scrape and the catalog's `full` ratings are the same leaderboard."""
    elo = real["benchmark_scores"].filter(
        pl.col("benchmark") == "arena-elo", pl.col("date") == date(2025, 5, 6)
    )
    fb = elo.filter(pl.col("source_id") == "lmarena-fboulnois").select("model_hint", "score")
    cat = elo.filter(pl.col("source_id") == "lmarena-catalog").select("model_hint", "score")
    both = fb.join(cat, on="model_hint")
    assert both.height > 150
    assert (both["score"] - both["score_right"]).abs().max() <= 0.5  # fboulnois rounds


def test_real_mmlu_is_percent_and_once_per_value(real):
    mmlu = real["benchmark_scores"].filter(pl.col("benchmark") == "mmlu")
    assert mmlu["score"].is_between(20, 90).all()
    assert mmlu.select("model_hint", "score").is_duplicated().sum() == 0
    gpt4o = mmlu.filter(pl.col("model_hint") == "gpt-4o-2024-05-13")
    assert gpt4o["score"].to_list() == [88.7]


def test_real_prices_are_token_prices_of_arena_models(real, sources_dir):
    tp = real["token_prices"]
    assert tp["date"].min() == date(2024, 12, 25)
    assert tp["last_seen"].max() == date(2025, 12, 17)
    assert tp["input_usd_per_mtok"].drop_nulls().is_between(0, 200).all()
    cheap_cut = tp.filter(pl.col("source_model_name") == "chatgpt-4o-latest-20241120").sort("date")
    assert cheap_cut["input_usd_per_mtok"].to_list() == [5.0, 2.5]
    # every priced key is an LLM ranked somewhere by LMArena: no per-image prices slipped in
    ranked = set(real["benchmark_scores"]["model_hint"])
    vision = json.loads(
        (sources_dir / CAT / "2025-12-17_HEAD/leaderboard-vision.json").read_text()
    )["full"]
    ranked |= {k.lower() for k in vision}
    assert set(tp["model_hint"]) - ranked == {"grok-4-fast"}
    assert (tp["provider"] == "unspecified").sum() < 0.2 * tp.height


def test_real_leaderboard_with_pricing_adds_nothing(sources_dir):
    """Why it is not imported: it is the 2024-10-07 table joined to pricing_table.csv."""
    folder = sources_dir / CAT / SNAP
    joined = {r["key"]: r for r in csv.DictReader((folder / "leaderboard_with_pricing.csv").open())}
    table = {
        r["key"]: r for r in csv.DictReader((folder / "leaderboard_table_20241007.csv").open())
    }
    prices = {r["model_key"]: r for r in csv.DictReader((folder / "pricing_table.csv").open())}
    assert joined.keys() == table.keys()
    for key, r in joined.items():
        p = prices.get(key)
        if r["input_token_price"] not in ("-", "null"):
            assert p is not None
            assert float(p["input_token_price"]) == float(r["input_token_price"]), key


def test_sources_retrieved_is_the_newest_commit_read(sources_dir):
    for src, folder in (("lmarena-fboulnois", FB), ("lmarena-catalog", CAT)):
        with (sources_dir / folder / "_PROVENANCE.tsv").open() as fh:
            newest = max(r["commit_date"] for r in csv.DictReader(fh, delimiter="\t"))
        row = next(s for s in lmarena.SOURCES if s["source_id"] == src)
        assert row["retrieved"] == newest


def test_model_priced_twice_in_one_snapshot_is_an_error(tmp_path):
    entries = [
        _entry("gpt-4o", "2.5", "10", "https://openai.com/api/pricing/"),
        _entry("gpt-4o", "5", "15", "https://openai.com/api/pricing/"),
    ]
    path = _write(tmp_path / "scatterplot-data.json", json.dumps(entries))
    with pytest.raises(DataError, match=r"row 2, column 'model_api_name': value 'gpt-4o'"):
        lmarena.parse_scatterplot(path)
