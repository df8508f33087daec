"""A Spark work folder keeps what a lean DuckDB database keeps (dedup.stages.Layout): the stages run
on whole tables, and a finished run cuts them to the lean layout (dedup.runner.keep_lean)."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from conftest import REPO
from crossengine import sorted_rows
from typer.testing import CliRunner

from dedup.cli import app

runner = CliRunner()
KEPT = ("documents", "signatures", "band_hashes", "copies", "candidates_between", "verified_between", "pairs_between")
CUT = ("shingles", "candidates", "verified", "pairs")


def corpus_with_copies(tmp_path: Path) -> Path:
    """The Clough-Stevenson answers and groups of exact copies of three of them (4 and 3 members)."""
    folder = tmp_path / "corpus"
    shutil.copytree(REPO / "data" / "clough", folder)
    for name, copies in (("g0pA_taska.txt", 3), ("g0pB_taskb.txt", 2)):
        for number in range(copies):
            shutil.copy(folder / name, folder / f"copy{number}_{name}")
    return folder


def spark_run(folder: Path, work: Path, output: Path, *options: str) -> str:
    args = ["run", str(folder), "--threshold", "0.5", "--engine", "spark", "--work-dir", str(work), "-o", str(output)]
    done = runner.invoke(app, [*args, *options])
    assert done.exit_code == 0, done.output
    return done.output


@pytest.mark.slow
def test_a_work_folder_keeps_the_tables_of_a_lean_duckdb_database_row_for_row(spark, tmp_path):
    folder = corpus_with_copies(tmp_path)
    db, duck_pairs = tmp_path / "lean.duckdb", tmp_path / "duckdb.csv"
    done = runner.invoke(app, ["run", str(folder), "--threshold", "0.5", "--db", str(db), "-q", "-o", str(duck_pairs)])
    assert done.exit_code == 0, done.output
    work, spark_pairs = tmp_path / "work", tmp_path / "spark.csv"
    spark_run(folder, work, spark_pairs)
    assert spark_pairs.read_bytes() == duck_pairs.read_bytes()
    con = duckdb.connect(str(db), read_only=True)
    try:
        for table in KEPT:
            expected = con.sql(f"select * from {table}").to_arrow_table()
            kept = pq.read_table(work / table)
            assert kept.column_names == expected.column_names, table
            assert sorted_rows(kept) == sorted_rows(expected), table
        assert con.execute("select count(*) from copies").fetchone() == (7,)  # the groups are there to store
    finally:
        con.close()
    for table in CUT:
        assert not (work / table).exists(), table


@pytest.mark.slow
def test_a_rerun_of_a_lean_folder_makes_the_cut_stages_again_and_keep_all_tables_keeps_them(spark, tmp_path):
    folder = corpus_with_copies(tmp_path)
    work, first, again = tmp_path / "work", tmp_path / "first.csv", tmp_path / "again.csv"
    spark_run(folder, work, first)
    summary = spark_run(folder, work, again)
    assert again.read_bytes() == first.read_bytes()
    assert summary.count(", reused") == 1  # the documents; the rest is made again from them
    assert not (work / "shingles").exists()
    whole, whole_again = tmp_path / "whole", tmp_path / "whole-again.csv"
    spark_run(folder, whole, tmp_path / "whole.csv", "--keep-all-tables")
    summary = spark_run(folder, whole, whole_again, "--keep-all-tables")
    assert whole_again.read_bytes() == first.read_bytes()
    assert summary.count(", reused") == 8  # documents .. pairs
    for table in CUT:
        assert (whole / table / "_SUCCESS").exists(), table
