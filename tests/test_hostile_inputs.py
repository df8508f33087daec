"""The hostile battery's questionable points (issue 22), decided: each is a one-line error or a
counted note, never a hang, a traceback or a silent surprise."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from dedup.cli import app

runner = CliRunner()
CLOUGH = Path(__file__).resolve().parent.parent / "data" / "clough"


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def test_a_fifo_as_database_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "db"
    os.mkfifo(fifo)
    result = invoke("run", CLOUGH, "--db", fifo)
    assert result.exit_code == 2
    assert result.stderr == f"Error: the database path is not a regular file: {fifo}\n"


@pytest.mark.parametrize("name", ["docs.csv", "docs.jsonl", "docs.parquet"])
def test_a_named_pipe_given_as_a_table_is_refused_before_it_is_read(tmp_path: Path, name: str) -> None:
    """A table is read more than once (a CSV is checked, then loaded): a `docs.csv` pipe hung in
    DuckDB's second open, which no Ctrl-C or kill stops; the others failed with `lseek failed`."""
    fifo = tmp_path / name
    os.mkfifo(fifo)
    command = [sys.executable, "-m", "dedup", "run", str(fifo), "-q"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (
        f"Error: input {fifo} is a named pipe, and a table is read more than once: write it to a file\n"
    )


def test_another_applications_database_is_refused_before_any_change(tmp_path: Path) -> None:
    db = tmp_path / "theirs.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("create table documents as select 1 as a")
    before = db.read_bytes()
    result = invoke("run", CLOUGH, "--db", db)
    assert result.exit_code == 2
    assert "is a DuckDB database that dedup did not make" in result.stderr
    assert db.read_bytes() == before


def test_a_file_where_duckdb_would_spill_is_refused_before_any_change(tmp_path: Path) -> None:
    """A file named <db>.tmp (where DuckDB spills) let a run go on until it spilled, then stop
    with DuckDB's 'Failed to create directory' and the advice to run again, which failed again."""
    db = tmp_path / "run.duckdb"
    assert invoke("run", CLOUGH, "--db", db, "-q").exit_code == 0
    spill = tmp_path / "run.duckdb.tmp"
    spill.write_text("mine")
    before = db.read_bytes()
    for args in (["run", CLOUGH, "--db", db, "--replace"], ["add", db, CLOUGH], ["clusters", db]):
        result = invoke(*args)
        assert result.exit_code == 2, result.output
        assert result.stderr == f"Error: DuckDB spills to the folder {spill}, which is a file: move or rename it\n"
    assert db.read_bytes() == before and spill.read_text() == "mine"
    result = invoke("run", CLOUGH, "--db", tmp_path / "new.duckdb", "--temp-dir", spill)
    assert result.exit_code == 2 and result.stderr == f"Error: --temp-dir is not a folder: {spill}\n"
    assert not (tmp_path / "new.duckdb").exists()
    assert invoke("sql", db, "select count(*) from pairs").exit_code == 0  # read only: spills nowhere


def test_a_file_that_is_utf8_but_for_one_byte_is_named_in_a_note(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    text = "Le café était très bon et la crème brûlée aussi, à Paris en été."
    (folder / "clean.txt").write_text(text, encoding="utf-8")
    (folder / "stray.txt").write_bytes(text.encode("utf-8").replace("café".encode(), b"caf\xe9"))
    result = invoke("run", folder, "-k", "3")
    assert result.exit_code == 0, result.output
    assert "(1 decoded as Latin-1)" in result.stderr
    assert "note: stray.txt: UTF-8 but for 1 byte, so read whole as Latin-1" in result.stderr


def test_a_damaged_database_is_one_line_that_says_so(tmp_path: Path) -> None:
    db = tmp_path / "run.duckdb"
    assert invoke("run", CLOUGH, "--db", db, "-q").exit_code == 0
    size = db.stat().st_size
    with db.open("r+b") as stream:  # garble every block after the header blocks
        # the start of every block after the first (past the 12 KiB of file headers): its checksum no
        # longer matches, wherever in the block a table's rows are
        for offset in range(12288 + 262144, size, 262144):
            stream.seek(offset + 8)
            stream.write(b"\xff" * 64)
    for args in (
        ["sql", db, "select sum(length(text)) from documents"],
        ["export", db, "--what", "pairs", "-o", tmp_path / "p.csv"],
    ):
        result = invoke(*args)
        assert result.exit_code == 1, result.output
        assert result.stderr.count("\n") == 1 and "the database file is damaged" in result.stderr


def test_report_sample_pairs_beyond_its_bound_is_a_usage_error(tmp_path: Path) -> None:
    db = tmp_path / "run.duckdb"
    assert invoke("run", CLOUGH, "--db", db, "-q").exit_code == 0
    result = invoke("report", db, "--sample-pairs", "100000000", "-o", tmp_path / "r.html")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "100000000" in result.stderr and "10000" in result.stderr


def test_table_columns_are_padded_to_at_most_40_characters() -> None:
    import io

    import pyarrow as pa

    from dedup.cli.table import write_text_table

    stream = io.StringIO()
    write_text_table(pa.table({"id": ["a", "b" * 200], "jaccard": [0.9, 0.8]}), stream)
    first_row = stream.getvalue().splitlines()[2]
    assert len(first_row) <= 40 + 2 + len("0.900000")


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
