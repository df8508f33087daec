"""`dedup sql`: every statement's result, streamed; a closed pipe is a normal exit; wide tables readable."""

from __future__ import annotations

import os
import subprocess
import sys

import duckdb
import pytest
from conftest import REPO
from indexing import invoke
from typer.testing import CliRunner

from dedup.choices import TableFormat
from dedup.cli import app
from dedup.cli.run import interactive
from dedup.index.explore import open_readonly


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("sql") / "clough.duckdb"
    invoke("run", REPO / "data" / "clough", "--db", path, "-q", "--keep-all-tables")  # every table to explore
    return path


def sql(*args: object, stdin: str | None = None):
    result = CliRunner().invoke(app, ["sql", *(str(a) for a in args)], input=stdin, env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.stderr
    return result


def test_every_statement_result_is_printed(db):
    out = sql(db, "select 1 as one; select count(*) as n from documents").stdout
    assert out == "one\n---\n  1\n\n  n\n---\n100\n"
    result = sql(db, "select 1 as one; select count(*) as n from documents", "--format", "csv")
    assert result.stdout == "n\n100\n" and "prints the last one's result only" in result.stderr
    assert sql(db, stdin="select count(*) as n from pairs;").stdout == "n\n-\n4\n"


@pytest.mark.parametrize("format", ["table", "csv", "jsonl"])
def test_values_python_cannot_hold_are_written_or_refused_in_one_line(db, format):
    """A TIMESTAMP_NS or TIME_NS cell, a date past year 9999 or infinite: Python has no value for
    them and every format stopped in a traceback (ValueError, OverflowError). The nanoseconds are
    now written as Arrow's text, every digit kept; a cell with no text is a one-line error."""
    result = sql(db, "select '2020-01-01 00:00:00.000000001'::timestamp_ns as t, '00:00:00.000000002'::time_ns as u",
                 "--format", format)  # fmt: skip
    assert "2020-01-01 00:00:00.000000001" in result.stdout and "00:00:00.000000002" in result.stdout
    for value in ("'294000-01-01'::timestamp", "'-infinity'::date", "['2020-01-01 00:00:00.000000001'::timestamp_ns]"):
        refused = CliRunner().invoke(app, ["sql", str(db), f"select {value} as c", "--format", format])
        assert refused.exit_code == 1
        assert refused.stderr.startswith("Error: cannot write column 'c'") and refused.stderr.count("\n") == 1


INTERVALS = [
    "interval 3 day",
    "interval '1 year 2 months 3 days 04:05:06.5'",
    "interval '-1 day 01:00:00'",
    "interval '-3 hours'",
    "interval '0 seconds'",
    "interval '1 day -00:00:00.000001'",
    "interval '-25 months -3 days -00:00:01.25'",
    "interval '100 hours 3 minutes'",
]


@pytest.mark.parametrize("format", ["table", "csv", "jsonl"])
def test_intervals_are_written_as_duckdb_writes_them_as_text(db, format):
    """Every format wrote an interval as Python's repr, `MonthDayNano(months=0, days=3, ...)`."""
    columns = ", ".join(f"{interval} as i{n}" for n, interval in enumerate(INTERVALS))
    expected = duckdb.sql(f"select {', '.join(f'({i})::varchar' for i in INTERVALS)}").fetchall()[0]
    out = sql(db, f"select {columns}", "--format", format).stdout
    assert "MonthDayNano" not in out
    for text in expected:
        assert (f'"{text}"' if format == "jsonl" else text) in out


def test_the_table_shows_blobs_and_huge_floats_as_duckdb_does(db):
    """A BLOB was Python's `b'ab'` and 1e300 a number of 301 digits."""
    out = sql(db, "select unhex('61005CE97E') as b, 1e300 as big, -2.5e17 as neg, 0.5::double as half").stdout
    assert out.splitlines()[-1].split() == ["a\\x00\\x5C\\xE9~", "1e+300", "-2.5e+17", "0.500000"]


def test_wide_tables_are_printed_one_record_at_a_time(db):
    out = sql(db, "select * from signatures order by doc_id limit 2").stdout
    assert out.startswith("-[ record 1 ]") and "-[ record 2 ]" in out
    assert max(len(line) for line in out.splitlines()) <= 100
    assert "mh_127" in out


def test_a_closed_pipe_is_a_normal_exit_and_results_stream(db):
    # 50 million rows: only streaming prints the first ones at once and in bounded memory
    query = "select range as i, md5(range::varchar) as s from range(50000000)"
    process = subprocess.Popen(
        [sys.executable, "-m", "dedup", "sql", str(db), query],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "COLUMNS": "100"},
    )  # fmt: skip
    assert process.stdout is not None and process.stderr is not None
    head = [process.stdout.readline() for _ in range(3)]
    process.stdout.close()  # as `| head -3` does
    assert process.wait(timeout=120) == 0
    assert head[0].split() == [b"i", b"s"] and head[2].split()[0] == b"0"
    assert process.stderr.read() == b""


def test_interactive_prompt_runs_statements_and_survives_errors(db, capsys):
    lines = iter(["select 41 + 1", "as answer;", "select * from nowhere;", "select 'after' as x;"])

    def read_line(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    with open_readonly(db) as con:
        interactive(con, TableFormat.table, read_line)
    captured = capsys.readouterr()
    assert "answer\n------\n    42\n" in captured.out and "after" in captured.out
    assert "Error: Catalog Error" in captured.err


COMMANDS_THAT_PRINT = [
    ["sql", "{db}", "select 1 as one"],
    ["list", "{db}"],
    ["explain", "{db}", "g0pA_taska.txt", "orig_taska.txt"],
    ["buckets", "{db}"],
    ["params"],
    ["show-sql", "signatures"],
    ["--version"],
    ["run", "{corpus}", "-q"],
]


@pytest.mark.parametrize("args", COMMANDS_THAT_PRINT, ids=lambda args: args[0])
@pytest.mark.parametrize(
    ("stdout", "message"),
    [
        ("/dev/full", b"Error: cannot write to standard output: No space left on device\n"),
        (None, b"Error: standard output is closed: nothing can be printed (give --output FILE where there is one)\n"),
    ],
    ids=["full", "closed"],
)
def test_a_stdout_that_cannot_be_written_is_one_line_and_exit_1(db, args, stdout, message):
    """`dedup ... > /dev/full` (a full disk) and `dedup ... >&-` ended in a traceback (OSError, or
    AttributeError on a None sys.stdout), or printed nothing and exited 0."""
    args = [a.replace("{db}", str(db)).replace("{corpus}", str(REPO / "data" / "clough")) for a in args]
    target = open(stdout, "wb") if stdout is not None else None  # noqa: SIM115 - closed below
    try:
        done = subprocess.run(
            [sys.executable, "-m", "dedup", *args],
            stdout=target, stderr=subprocess.PIPE, timeout=120,
            preexec_fn=(lambda: os.close(1)) if target is None else None,  # noqa: PLW1509 - the child's stdout only
        )  # fmt: skip
    finally:
        if target is not None:
            target.close()
    assert done.returncode == 1, done.stderr
    assert done.stderr == message


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_a_result_is_written_to_the_file_output_names(db, tmp_path, suffix):
    # the sealed database refused COPY ("file system operations are disabled"): no way to Parquet
    import pyarrow.csv
    import pyarrow.json
    import pyarrow.parquet as pq

    query = "select 1 as ignored; select doc_id_a, doc_id_b, jaccard from pairs order by all"
    out = tmp_path / f"pairs{suffix}"
    result = sql(db, query, "--output", out)
    assert result.stdout == "" and f"wrote 4 rows to {out}" in result.stderr
    read = {".parquet": pq.read_table, ".csv": pyarrow.csv.read_csv, ".jsonl": pyarrow.json.read_json}[suffix](out)
    expected = duckdb.connect(str(db), read_only=True).sql(query.split(";")[1]).to_arrow_table()
    assert read.column_names == ["doc_id_a", "doc_id_b", "jaccard"]
    assert read.to_pylist() == expected.to_pylist()
    piped = sql(db, "-o", tmp_path / "n.parquet", stdin="select count(*) as n from documents;")
    assert pq.read_table(tmp_path / "n.parquet").to_pylist() == [{"n": 100}] and "wrote 1 row" in piped.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["select 1", "-o", "{tmp}/x.txt"], "cannot tell the output format of"),
        (["set threads = 1", "-o", "{tmp}/x.csv"], "the configuration has been locked"),
        (["select 1", "-o", "{db}"], "cannot tell the output format of"),  # the database is never written
        (["copy (select * from pairs) to '{tmp}/x.parquet'"], "write a result to a file with --output F.parquet"),
    ],
)
def test_what_cannot_be_written_is_one_line(db, tmp_path, args, message):
    given = [a.format(tmp=tmp_path, db=db) for a in args]
    result = CliRunner().invoke(app, ["sql", str(db), *given])
    assert result.exit_code in (1, 2) and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.csv").exists() and not (tmp_path / "x.parquet").exists()
    assert db.stat().st_size > 0  # the database, not overwritten
