"""Names of files and arguments as a file system gives them: names that are not UTF-8 (Latin-1 names
on an old disk reach Python as surrogate escapes) are read and written or refused in one line, and
names too long for the file system are refused before the run."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
from typer.testing import CliRunner

from dedup.cli import app

runner = CliRunner()

CLOUGH = Path(__file__).resolve().parent.parent / "data" / "clough"


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def not_utf8(name: bytes) -> str:
    return os.fsdecode(name)


def test_paths_that_are_not_utf8_are_read_and_written_or_refused_in_one_line(tmp_path: Path) -> None:
    """A file name that is not UTF-8 (Latin-1 names on an old disk) reaches Python as surrogate
    escapes. Before: a Parquet or CSV input so named stopped in a traceback (UnicodeEncodeError in
    Arrow), every run under such a folder failed with DuckDB's `Python Conversion Failure` (the
    recorded inputs), a Parquet output so named was a traceback, and `--db` one (`std::bad_cast`).
    Now the inputs and outputs are opened by their bytes; what DuckDB itself must open (the
    database, its spill folder) and a dataset's parts, which Arrow opens by text, are refused."""
    folder = tmp_path / not_utf8(b"caf\xe9")
    folder.mkdir()
    texts = ["the quick brown fox jumps over the lazy dog", "the quick brown fox jumps over the lazy dog", "other"]
    table = pa.table({"id": ["a", "b", "c"], "text": texts})
    with open(folder / not_utf8(b"t\xff.parquet"), "wb") as stream:  # Arrow takes a path as UTF-8
        pq.write_table(table, stream)
    with open(folder / not_utf8(b"t\xff.csv"), "wb") as stream:
        pcsv.write_csv(table, stream)
    with gzip.open(folder / not_utf8(b"t\xff.csv.gz"), "wb") as stream:
        stream.write((folder / not_utf8(b"t\xff.csv")).read_bytes())
    (folder / not_utf8(b"t\xff.jsonl")).write_text("".join(json.dumps(row) + "\n" for row in table.to_pylist()))
    (folder / not_utf8(b"l\xff.txt")).write_text("".join(text + "\n" for text in texts))
    for name, options in [
        (b"t\xff.parquet", []),
        (b"t\xff.csv", []),
        (b"t\xff.csv.gz", []),
        (b"t\xff.jsonl", []),
        (b"l\xff.txt", ["--lines"]),
    ]:
        out = tmp_path / f"{len(options)}{name[-4:].decode()}.csv"
        db = tmp_path / f"{name[-4:].decode()}.duckdb"
        done = invoke("run", folder / not_utf8(name), *options, "-k", "5", "--db", db, "-o", out, "-q")
        assert done.exit_code == 0, (name, done.stderr)
        assert len(out.read_text().splitlines()) == 2, name  # the header and the one pair
        if not options and not name.endswith(b".gz"):  # an export over the input, recorded by its bytes
            over = invoke("export", db, "--what", "pairs", "-o", folder / not_utf8(name))
            assert over.exit_code == 2 and "would overwrite the input" in over.stderr, name
    copy = tmp_path / not_utf8(b"clean\xff.parquet")
    assert invoke("run", folder / not_utf8(b"t\xff.parquet"), "-q", "--write-deduplicated", copy).exit_code == 0
    with open(copy, "rb") as stream:
        assert pq.read_table(stream).column("id").to_pylist() == ["a", "c"]
    refused = invoke("run", CLOUGH, "-q", "--db", tmp_path / not_utf8(b"r\xff.duckdb"))
    assert refused.exit_code == 2
    assert refused.stderr == "Error: the database path is not UTF-8, and DuckDB opens UTF-8 paths only: " + (
        f"{tmp_path}/r\\xff.duckdb; give another name\n"
    )
    dataset = tmp_path / "dataset"
    dataset.mkdir()
    with open(dataset / not_utf8(b"part\xff.parquet"), "wb") as stream:
        pq.write_table(table, stream)
    pq.write_table(table, dataset / "part.parquet")
    listed = invoke("run", dataset, "-k", "5", "--show-skipped")
    assert listed.exit_code == 0 and "documents: 4 read = 3 processed + 0 empty + 1 skipped" in listed.stderr
    assert "part\\xff.parquet: not read: a Parquet dataset part whose path is not UTF-8" in listed.stderr


def test_arguments_that_are_not_utf8_name_documents_or_are_refused(tmp_path: Path) -> None:
    """An id argument with bytes that are not UTF-8 (a file's name, pasted) stopped explain, query
    and remove in a traceback; it now names the document whose id was made from that name (\\xNN).
    SQL or query text that is not UTF-8 is a usage error (it was a traceback)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / not_utf8(b"a\xff.txt")).write_text("the quick brown fox jumps over the lazy dog")
    (folder / "b.txt").write_text("the quick brown fox jumps over the lazy dog")
    db = tmp_path / "r.duckdb"
    assert invoke("run", folder, "--db", db, "-q").exit_code == 0
    explained = invoke("explain", db, not_utf8(b"a\xff.txt"), "b.txt")
    assert explained.exit_code == 0 and "a: a\\xff.txt" in explained.stdout
    found = invoke("query", db, "--id", not_utf8(b"a\xff.txt"))
    assert found.exit_code == 0 and "b.txt" in found.stdout
    for args in (["sql", db, not_utf8(b"select '\xff'")], ["query", db, "--text", not_utf8(b"caf\xe9")]):
        refused = invoke(*args)
        assert refused.exit_code == 2 and "not UTF-8 text" in refused.stderr and refused.stderr.count("\n") == 1
    from_stdin = runner.invoke(app, ["sql", str(db)], input=b"select '\xff';")
    assert from_stdin.exit_code == 2 and from_stdin.stderr == "Error: the SQL is not UTF-8 text\n"
    removed = invoke("remove", db, not_utf8(b"a\xff.txt"))
    assert removed.exit_code == 0 and "removed 1 document\n" in removed.output


def test_long_file_names_are_written_or_refused_before_the_run(tmp_path: Path) -> None:
    """A name near the file system's 255 bytes: `-o` of 250 bytes ran the whole run, then stopped in
    a traceback (its temporary name, `.dedup-part-PID.` + the name, did not fit); `--db` of 252 bytes
    and `--temp-dir`, `--write-deduplicated` or an input too long for any file system were tracebacks
    (ENAMETOOLONG from the first check). Now a long name that fits is written; one that does not,
    or a database leaving no room for DuckDB's `.wal`, is refused in one line before any work."""
    out = tmp_path / ("a" * 246 + ".csv")
    done = invoke("run", CLOUGH, "-q", "-t", "0.5", "-o", out)
    assert done.exit_code == 0, done.stderr
    assert out.read_text().startswith("id_a,id_b,jaccard") and os.listdir(tmp_path) == [out.name]
    long = "b" * 260
    for args, message in [
        (["--db", tmp_path / ("c" * 250 + ".db")], "a file name holds at most 251"),
        (["-o", tmp_path / f"{long}.csv"], "a file name holds at most 255"),
        (["--temp-dir", tmp_path / long], "a file name holds at most 255"),
        (["--write-deduplicated", tmp_path / long], "a file name holds at most 255"),
    ]:
        refused = invoke("run", CLOUGH, "-q", *args)
        assert refused.exit_code == 2 and message in refused.stderr and refused.stderr.count("\n") == 1, args
    process = subprocess.run(
        [sys.executable, "-m", "dedup", "run", str(tmp_path / long)], capture_output=True, text=True, cwd=tmp_path
    )
    assert process.returncode == 2
    assert process.stderr.startswith("Error: file name too long") and process.stderr.count("\n") == 1
    assert os.listdir(tmp_path) == [out.name]
