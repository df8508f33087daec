"""Files that are not what dedup expects where it reads or writes: a named pipe given as the database
or as a table, another application's database, a file where DuckDB would spill, a damaged
database. Each is a one-line error before any change, never a hang or a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
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
