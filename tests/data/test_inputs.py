"""Pinned build inputs: every raw file checked against its provenance, recorded, rebuilt from."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from analysis.data import inputs
from analysis.data.errors import DataError
from analysis.data.importers import inferencex_tco

HEADER = "file\trepo\tcommit\tcommit_date\tpath_in_repo\tbytes\tsha256\n"
TS = "export const GPU_SPECS: Record<string, GpuSpecs> = {{\n  h100: {{ power: 1.73, costh: {h}, costn: 1.69, costr: 1.3 }},\n}};\n"


def write_folder(root: Path, folder: str, files: dict[str, bytes]) -> None:
    """Files plus a _PROVENANCE.tsv whose sizes and hashes are computed here, independently."""
    lines = []
    for name, data in files.items():
        path = root / folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        sha = hashlib.sha256(data).hexdigest()
        lines.append(
            f"{folder}/{name}\towner/repo\t{'ab' * 20}\t2026-03-18\t{name}\t{len(data)}\t{sha}\n"
        )
    (root / folder / "_PROVENANCE.tsv").write_text(HEADER + "".join(lines), encoding="utf-8")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    sources = tmp_path / "sources"
    write_folder(
        sources,
        "inferencex-tco-assumptions",
        {"2026-03-18_packages__app__src__lib__constants.ts": TS.format(h=1.3).encode()},
    )
    write_folder(
        sources, "cpi-us", {"2026-07-01_HEAD/data/cpiai.csv": b"Date,Index\n2026-05-01,335.123\n"}
    )
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "000_digest.txt").write_text("Opus 5.5 at $4/$20\n", encoding="utf-8")
    (sources / "README.md").write_text("top-level notes are not a source folder\n")
    return sources


TS_FILE = "inferencex-tco-assumptions/2026-03-18_packages__app__src__lib__constants.ts"
CPI_FILE = "cpi-us/2026-07-01_HEAD/data/cpiai.csv"


def test_every_file_is_listed_with_its_size_and_sha256(tree):
    files = inputs.list_inputs(tree)
    assert [(f.root, f.path) for f in files] == [
        ("sources", CPI_FILE),
        ("sources", TS_FILE),
        ("seeds", "000_digest.txt"),
    ]
    cpi = files[0]
    data = (tree / CPI_FILE).read_bytes()
    assert (cpi.bytes, cpi.sha256) == (len(data), hashlib.sha256(data).hexdigest())


def _problem(tree: Path) -> object:
    with pytest.raises(DataError) as err:
        inputs.list_inputs(tree)
    assert len(err.value.problems) == 1, err.value.problems
    return err.value.problems[0]


def test_a_file_edited_by_one_byte_is_named(tree):
    path = tree / TS_FILE
    data = bytearray(path.read_bytes())
    data[data.index(b"1.3")] = ord("2")  # 1.3 -> 2.3: same size, other bytes
    path.write_bytes(bytes(data))
    p = _problem(tree)
    assert p.file == str(path) and p.column == "sha256"
    assert p.rule.startswith("edited") and "_PROVENANCE.tsv, row 1" in p.rule


def test_a_truncated_file_is_named(tree):
    path = tree / CPI_FILE
    path.write_bytes(path.read_bytes()[:-5])
    p = _problem(tree)
    assert p.file == str(path) and p.column == "bytes" and p.rule.startswith("truncated")


def test_an_emptied_file_is_named(tree):
    path = tree / TS_FILE
    path.write_bytes(b"")
    p = _problem(tree)
    assert (p.file, p.value) == (str(path), "0") and p.rule.startswith("empty file")


def test_every_bad_file_is_reported_at_once(tree):
    (tree / TS_FILE).write_bytes(b"")
    (tree / CPI_FILE).write_bytes(b"Date,Index\n")
    (tree / "cpi-us" / "stray.csv").write_text("x\n")
    (tree.parent / "seeds" / "000_digest.txt").write_text("")
    with pytest.raises(DataError) as err:
        inputs.list_inputs(tree)
    named = sorted(Path(p.file).name for p in err.value.problems)
    assert named == [
        "000_digest.txt",
        "2026-03-18_packages__app__src__lib__constants.ts",
        "cpiai.csv",
        "stray.csv",
    ]


def test_a_listed_file_that_is_absent_and_a_folder_without_provenance(tree):
    (tree / CPI_FILE).unlink()
    (tree / "new-folder").mkdir()
    (tree / "new-folder" / "x.json").write_text("{}")
    with pytest.raises(DataError) as err:
        inputs.list_inputs(tree)
    rules = sorted(p.rule for p in err.value.problems)
    assert rules[0] == "every source folder needs a _PROVENANCE.tsv"
    assert "but absent" in rules[1]


def test_the_section_round_trips_through_the_descriptor(tree, tmp_path):
    files = inputs.list_inputs(tree)
    descriptor = inputs.with_build_inputs({"name": "x", "resources": []}, files, ["a.b"])
    path = tmp_path / "datapackage.json"
    path.write_text(json.dumps(descriptor, indent=2))
    pinned = inputs.read_build_inputs(path)
    assert pinned.files == files and pinned.importers == ["a.b"]


def test_a_malformed_section_is_a_located_error(tree):
    files = inputs.list_inputs(tree)
    descriptor = inputs.with_build_inputs({}, files, ["a.b"])
    descriptor["build_inputs"]["files"][1]["sha256"] = "not-a-hash"
    descriptor["build_inputs"]["files"][2]["path"] = "../../etc/passwd"
    with pytest.raises(DataError) as err:
        inputs.read_build_inputs(descriptor)
    assert [p.column for p in err.value.problems] == [
        "build_inputs.files[1]",
        "build_inputs.files[2]",
    ]
    with pytest.raises(DataError, match="records no build inputs"):
        inputs.read_build_inputs({"name": "old release"})


def _add_second_version(tree: Path) -> None:
    """A newer snapshot in the same folder, as a later release's sources would have."""
    folder = tree / "inferencex-tco-assumptions"
    (folder / "2026-04-02_packages__app__src__lib__constants.ts").write_text(TS.format(h=1.25))
    data = (folder / "2026-04-02_packages__app__src__lib__constants.ts").read_bytes()
    row = (
        "inferencex-tco-assumptions/2026-04-02_packages__app__src__lib__constants.ts\towner/repo\t"
        f"{'cd' * 20}\t2026-04-02\tconstants.ts\t{len(data)}\t{hashlib.sha256(data).hexdigest()}\n"
    )
    with (folder / "_PROVENANCE.tsv").open("a") as fh:
        fh.write(row)


def test_a_rebuild_reads_exactly_the_pinned_files_whatever_was_added_since(tree, tmp_path):
    pinned = inputs.list_inputs(tree)
    # Built from an untouched copy: provenance lookups are cached per sources folder.
    before = inferencex_tco.build(shutil.copytree(tree, tmp_path / "as-released"))[
        "tco_assumptions"
    ]
    _add_second_version(tree)
    assert not inferencex_tco.build(tree)["tco_assumptions"].equals(before)  # the new file matters
    rebuilt_tree = inputs.materialise(tree, pinned, tmp_path / "rebuild")
    assert inferencex_tco.build(rebuilt_tree)["tco_assumptions"].equals(before)
    tsv = (rebuilt_tree / "inferencex-tco-assumptions" / "_PROVENANCE.tsv").read_text()
    assert "2026-04-02" not in tsv and tsv.startswith(HEADER)
    assert (rebuilt_tree.parent / "seeds" / "000_digest.txt").exists()
    assert inputs.list_inputs(rebuilt_tree) == pinned


def test_verify_names_a_pinned_file_that_changed(tree):
    pinned = inputs.list_inputs(tree)
    (tree / CPI_FILE).write_bytes(b"Date,Index\n2026-05-01,335.124\n")
    with pytest.raises(DataError) as err:
        inputs.verify(tree, pinned)
    p = err.value.problems[0]
    assert p.file == str(tree / CPI_FILE) and p.column == "sha256"


def test_the_real_sources_match_their_provenance(sources_dir):
    files = inputs.list_inputs(sources_dir)
    # README Part II: 372 data files in the ten new folders; the seeds are the two digests.
    assert sum(f.root == "seeds" for f in files) == 2
    new = [f for f in files if f.path.split("/", 1)[0] in {
        "mlperf-inference-v6.0", "mlperf-training-v5.0-v5.1", "aa-leaderboards-oolong",
        "epoch-benchmarking-hub-2026-04", "inferencemax-raw-mantile", "inferencex-tco-assumptions",
        "gpu-price-index-henryzhang-daily", "deepseek-tou-ratecards", "frontier-price-notes-2026-09",
        "token-tariff-timeline",
    }]  # fmt: skip
    assert len(new) == 372


DAMAGE = {
    # One byte edited (1.3 -> 1.4): the importer alone would read it without complaint.
    "one byte edited": lambda b: b.replace(b"1.3,", b"1.4,"),
    "truncated": lambda b: b[: len(b) // 2],
    "emptied": lambda b: b"",
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_data_build_stops_on_a_damaged_file_and_leaves_data_as_it_was(damage, tree, tmp_path, cli):
    data_root = tmp_path / "data"
    data_root.mkdir()
    index = data_root / "versions.json"
    index.write_text('{"releases": []}\n')
    (tree / TS_FILE).write_bytes(DAMAGE[damage]((tree / TS_FILE).read_bytes()))
    result = cli("data", "build", "--sources", tree, "--version", "2026-12-01",
                 "--out", data_root, "--description", "x")  # fmt: skip
    assert result.returncode != 0
    assert str(tree / TS_FILE) in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(p.name for p in data_root.iterdir()) == ["versions.json"]
    assert index.read_text() == '{"releases": []}\n'
