"""The hostile battery's questionable points (issue 22), decided: each is a one-line error or a
counted note, never a hang, a traceback or a silent surprise."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb
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
        for offset in range(3 * 262144, size, 262144):
            stream.seek(offset + 5000)
            stream.write(b"\xff" * 64)
    for args in (
        ["sql", db, "select count(*) from shingles"],
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

    from dedup.output import write_text_table

    stream = io.StringIO()
    write_text_table(pa.table({"id": ["a", "b" * 200], "jaccard": [0.9, 0.8]}), stream)
    first_row = stream.getvalue().splitlines()[2]
    assert len(first_row) <= 40 + 2 + len("0.900000")
