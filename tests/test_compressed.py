"""Compressed files (gzip, zstd) wherever text is read or written, and dataset folders as they are
downloaded (a README beside table shards): each read gives the documents and pairs of its plain
form, each output name's compression is what the file holds."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from dedup.cli import app
from dedup.formats import compression_of, open_binary

COMPRESSED = [".gz", ".zst"]


def compress(path: Path, data: bytes) -> Path:
    """`data` written to `path`, compressed as its name says (gzip through Python's own gzip, zstd
    through Arrow's codec: what reads them is dedup's)."""
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(data))
    elif path.suffix != ".zst":
        path.write_bytes(data)
    else:
        with pa.output_stream(str(path), compression="zstd") as stream:
            stream.write(data)
    return path


def run(*args: object, code: int = 0) -> str:
    """What the command wrote to stdout, or to stderr when it fails."""
    result = CliRunner().invoke(app, [str(arg) for arg in args])
    assert result.exit_code == code, result.output
    return result.stdout if code == 0 else result.stderr


def summary(*args: object) -> str:
    result = CliRunner().invoke(app, [str(arg) for arg in args])
    assert result.exit_code == 0, result.output
    return result.stderr


def pairs(*args: object) -> str:
    return run("run", *args, "-q", "--format", "csv", "-o", "-")


@pytest.fixture
def legal(shared_corpora: Path) -> Path:
    return shared_corpora / "textreuse" / "legal"


@pytest.mark.parametrize("end", COMPRESSED)
def test_a_folder_of_compressed_texts_gives_the_plain_folders_pairs(tmp_path, legal, end):
    """A folder of *.txt.gz was skipped whole as binary files, exit 0. Each file is read
    decompressed, its id its name as it is."""
    folder = tmp_path / "legal"
    folder.mkdir()
    for text in sorted(legal.iterdir()):
        compress(folder / (text.name + end), text.read_bytes())
    plain = pairs(legal, "-k", "5", "-t", "0.3")
    found = pairs(folder, "-k", "5", "-t", "0.3")
    assert found.count("\n") > 1 and found == plain.replace(".txt,", f".txt{end},").replace(".txt\n", f".txt{end}\n")


@pytest.mark.parametrize("end", COMPRESSED)
def test_a_damaged_compressed_file_in_a_folder_is_skipped_and_counted(tmp_path, end):
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "a.txt").write_text("the quick brown fox jumps over the lazy dog")
    whole = compress(tmp_path / ("x" + end), b"the quick brown fox jumps over the lazy dog and more " * 400)
    (folder / ("cut.txt" + end)).write_bytes(whole.read_bytes()[:-40])
    (folder / ("plain.txt" + end)).write_text("not compressed at all")
    out = summary("run", folder)
    assert "documents: 3 read = 1 processed + 0 empty + 2 skipped" in out
    codec = compression_of("x" + end).codec
    assert f"cut.txt{end}: unreadable: damaged, or not {codec}-compressed" in out
    assert f"plain.txt{end}: unreadable: damaged, or not {codec}-compressed" in out


@pytest.mark.parametrize("end", COMPRESSED)
def test_compressed_lines_give_the_plain_files_pairs_and_copy(tmp_path, legal, end):
    """--lines x.gz was refused as a binary file; its copy is compressed as its name says."""
    data = b"".join(text.read_bytes().replace(b"\n", b" ").strip() + b"\n" for text in sorted(legal.iterdir()))
    data += data.splitlines(keepends=True)[2]  # a copy of line 3
    (tmp_path / "lines.txt").write_bytes(data)
    packed = compress(tmp_path / ("lines.txt" + end), data)
    assert pairs(packed, "--lines", "-t", "0.5") == pairs(tmp_path / "lines.txt", "--lines", "-t", "0.5")
    run("run", packed, "--lines", "-q", "--write-deduplicated", copy := tmp_path / ("kept.txt" + end))
    run("run", tmp_path / "lines.txt", "--lines", "-q", "--write-deduplicated", plain := tmp_path / "kept.txt")
    assert copy.read_bytes().startswith(compression_of(copy).magic)
    assert open_binary(copy).read() == plain.read_bytes() and plain.read_bytes().count(b"\n") == data.count(b"\n") - 1


def test_compressed_lines_misnamed_or_damaged_are_one_line(tmp_path):
    whole = gzip.compress(b"a line\n" * 1000)
    (tmp_path / "docs.txt").write_bytes(whole)
    error = run("run", tmp_path / "docs.txt", "--lines", code=1)
    assert error.startswith("Error: ") and error.count("\n") == 1
    assert "is gzip-compressed: name it docs.txt.gz to read it decompressed, or give <(zcat " in error
    (tmp_path / "cut.txt.gz").write_bytes(whole[: len(whole) // 2])
    error = run("run", tmp_path / "cut.txt.gz", "--lines", code=1)
    cut = tmp_path / "cut.txt.gz"
    assert error == f"Error: cannot read {cut}: damaged, or not gzip-compressed (Truncated compressed stream)\n"


@pytest.mark.parametrize("end", COMPRESSED)
def test_compressed_tables_give_the_plain_tables_pairs(tmp_path, shared_corpora, end):
    table = pq.read_table(shared_corpora / "clough-stevenson-plagiarism" / "documents.parquet")
    rows = table.select(["id", "text"]).to_pylist()
    csv = tmp_path / "docs.csv"
    import csv as csv_module

    with csv.open("w", newline="", encoding="utf-8") as stream:
        writer = csv_module.writer(stream)
        writer.writerow(["id", "text"])
        writer.writerows([row["id"], row["text"]] for row in rows)
    jsonl = tmp_path / "docs.jsonl"
    jsonl.write_text("".join(json.dumps(row) + "\n" for row in rows))
    expected = pairs(csv, "--shingle-type", "word", "-k", "3", "-t", "0.3")
    assert expected.count("\n") > 10
    for plain in (csv, jsonl):
        packed = compress(tmp_path / (plain.name + end), plain.read_bytes())
        assert pairs(packed, "--shingle-type", "word", "-k", "3", "-t", "0.3") == expected


@pytest.mark.parametrize("end", COMPRESSED)
def test_outputs_are_compressed_as_their_names_say(tmp_path, legal, end):
    """-o, --export, --write-deduplicated and dedup sql --output write what their names say."""
    plain, packed = tmp_path / "plain", tmp_path / "packed"
    plain.mkdir(), packed.mkdir()
    for folder, suffix in ((plain, ""), (packed, end)):
        run(
            "run", legal, "-t", "0.3", "-k", "5", "-q", "--db", folder / "i.duckdb",
            "-o", folder / f"pairs.csv{suffix}",
            "--export", f"survivors={folder / f'kept.txt{suffix}'}",
            "--export", f"clusters={folder / f'clusters.json{suffix}'}",
            "--write-deduplicated", folder / f"kept.jsonl{suffix}",
        )  # fmt: skip
        run("sql", folder / "i.duckdb", "select * from pairs order by all", "--output", folder / f"p.jsonl{suffix}")
    for name in ("pairs.csv", "kept.txt", "clusters.json", "kept.jsonl", "p.jsonl"):
        written = packed / (name + end)
        assert written.read_bytes().startswith(compression_of(written).magic), name
        assert open_binary(written).read() == (plain / name).read_bytes(), name
    assert (plain / "pairs.csv").read_text().count("\n") > 1


def test_parquet_is_never_written_compressed_by_name(tmp_path, legal):
    for option in ("-o", "--write-deduplicated"):
        error = run("run", legal, option, tmp_path / "out.parquet.gz", code=2)
        assert "parquet is not written gzip-compressed (it compresses its own columns): name it out.parquet" in error
    assert not list(tmp_path.iterdir())


def test_a_folder_copy_keeps_compressed_files_as_they_are(tmp_path, legal):
    folder = tmp_path / "in"
    folder.mkdir()
    for text in sorted(legal.iterdir())[:4]:
        compress(folder / (text.name + ".gz"), text.read_bytes())
    shutil.copy(folder / (sorted(legal.iterdir())[0].name + ".gz"), folder / "again.txt.gz")
    run("run", folder, "-q", "--write-deduplicated", out := tmp_path / "out")
    kept = sorted(path.name for path in out.iterdir())
    assert "again.txt.gz" in kept and len(kept) < 5
    assert all((out / name).read_bytes() == (folder / name).read_bytes() for name in kept)


def dataset(root: Path, rows: list[dict], shards: int, end: str) -> Path:
    """A dataset folder as downloaded from a hub: a card, a hidden cache, JSON lines shards."""
    (root / "data").mkdir(parents=True)
    (root / ".cache" / "hub").mkdir(parents=True)
    (root / ".cache" / "hub" / "x.lock").write_text("")
    (root / ".gitattributes").write_text("*.jsonl.gz filter=lfs\n")
    (root / "README.md").write_text("---\nlicense: mit\n---\n# A dataset\n")
    (root / "dataset_info.json").write_text('{"splits": ["train"]}')
    for shard in range(shards):
        data = "".join(json.dumps(row) + "\n" for row in rows[shard::shards]).encode()
        compress(root / "data" / f"train-{shard:05d}-of-{shards:05d}.jsonl{end}", data)
    return root


@pytest.mark.parametrize("end", COMPRESSED)
def test_a_downloaded_dataset_folder_is_read_as_one_table(tmp_path, shared_corpora, end):
    """A README beside the shards was read as the only document, the shards skipped as binary, exit 0."""
    table = pq.read_table(shared_corpora / "clough-stevenson-plagiarism" / "documents.parquet")
    rows = table.select(["id", "text"]).to_pylist()
    root = dataset(tmp_path / "hub", rows, 3, end)
    whole = tmp_path / "whole.jsonl"  # the shards' rows in their order: the same survivors
    whole.write_text("".join(json.dumps(row) + "\n" for shard in range(3) for row in rows[shard::3]))
    options = ("--shingle-type", "word", "-k", "5", "-t", "0.5")
    assert pairs(root, *options) == pairs(whole, *options)
    out = summary("run", root, *options, "--format", "csv", "-o", tmp_path / "p.csv")
    assert f"documents: {len(rows) + 2} read = {len(rows)} processed + 0 empty + 2 skipped" in out
    assert "README.md: not a table shard" in out and "dataset_info.json: not a table shard" in out
    run("run", root, *options, "-q", "--write-deduplicated", copy := tmp_path / "kept.parquet")
    run("run", whole, *options, "-q", "--write-deduplicated", expected := tmp_path / "expected.parquet")
    assert pq.read_table(copy) == pq.read_table(expected) and pq.read_table(copy).num_rows < len(rows)


def test_a_dataset_folder_of_rows_without_ids_numbers_them_across_shards(tmp_path):
    rows = [{"text": f"document number {i} " + "filler words here " * 5} for i in range(10)]
    root = dataset(tmp_path / "hub", rows + rows[:1], 2, "")
    out = pairs(root)
    # shard 0 holds rows 0, 2, ..., 10 (the copy of row 0) as 1..6; shard 1 rows 1, 3, ... as 7..11
    assert out == "id_a,id_b,jaccard,estimate\n1,6,1.0,1.0\n"


def test_a_folder_of_documents_beside_one_table_is_a_folder_of_documents(tmp_path):
    """Markdown or JSON documents beside a CSV are documents, never a dataset's description left out
    for a table of one file."""
    for end in (".md", ".json"):
        folder = tmp_path / f"docs{end}"
        folder.mkdir()
        for i in range(3):
            (folder / f"guide{i}{end}").write_text(f"the guide number {i} about things " * 5)
        (folder / "data.csv").write_text("id,text\n1,a row of a table\n")
        out = summary("run", folder)
        assert "documents: 4 read = 4 processed" in out, out


def test_a_folder_of_two_table_formats_is_refused(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.jsonl").write_text('{"text": "x"}\n')
    pq.write_table(pa.table({"text": ["y"]}), tmp_path / "d" / "b.parquet")
    error = run("run", tmp_path / "d", code=2)
    assert "holds tables of two formats (jsonl, parquet)" in error or "(parquet, jsonl)" in error
    (tmp_path / "d" / "notes.txt").write_text("and a note")  # then a folder of documents, as before
    assert "documents: 3 read = 2 processed + 0 empty + 1 skipped" in summary("run", tmp_path / "d")


def test_a_parquet_dataset_with_a_card_is_read_as_before(tmp_path, shared_corpora):
    source = shared_corpora / "clough-stevenson-plagiarism" / "documents.parquet"
    (tmp_path / "hub" / "data").mkdir(parents=True)
    shutil.copy(source, tmp_path / "hub" / "data" / "train-00000.parquet")
    (tmp_path / "hub" / "README.md").write_text("# card\n")
    options = ("--shingle-type", "word", "-k", "5", "-t", "0.5")
    assert pairs(tmp_path / "hub", *options) == pairs(source, *options)


@pytest.mark.parametrize("name", ["copy.parquet", "copy.jsonl", "copy.csv", "copy.jsonl.gz", "copy.csv.zst"])
def test_a_folder_converted_to_a_table_reads_back_with_the_same_pairs(tmp_path, legal, name):
    """A pipeline's conversion: a folder copied to a table (nothing dropped at 0.95), which dedup
    reads back with the folder's pairs at a lower threshold, the ids the files' names."""
    run("run", legal, "-t", "0.95", "-q", "--write-deduplicated", copy := tmp_path / name)
    options = ("--shingle-type", "word", "-k", "3", "-t", "0.2")
    found = pairs(legal, *options)
    assert found.count("\n") > 1 and pairs(copy, *options) == found
