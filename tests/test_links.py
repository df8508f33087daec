"""Symlinks below an input folder (issue 22): a link to a file outside the input is skipped and
listed, unless --follow-links; --write-deduplicated keeps it a link and never copies its target.
Both engines read a folder alike."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dedup.cli import app

runner = CliRunner()
TEXT = "the quick brown fox jumps over the lazy dog by the river bank"


@pytest.fixture
def linked(tmp_path: Path) -> Path:
    outside = tmp_path / "secret.txt"
    outside.write_text(TEXT + " secret")
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.txt").write_text(TEXT)
    (folder / "b.txt").write_text(TEXT + " secret")
    (folder / "inside.txt").symlink_to(folder / "a.txt")  # inside the input: read
    (folder / "out.txt").symlink_to(outside)  # outside: skipped
    return folder


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def test_a_link_out_of_the_input_is_skipped_and_listed(linked: Path) -> None:
    result = run("run", linked, "-k", "3", "-t", "0.5", "--format", "csv", "--show-skipped")
    assert result.exit_code == 0, result.output
    assert "4 read = 3 processed + 0 empty + 1 skipped" in result.stderr
    assert "out.txt: symlink to a file outside the input (not followed; --follow-links reads it)" in result.stderr
    assert "out.txt" not in result.stdout
    assert "inside.txt" in result.stdout


def test_follow_links_reads_it(linked: Path) -> None:
    result = run("run", linked, "-k", "3", "-t", "0.5", "--format", "csv", "--follow-links")
    assert result.exit_code == 0, result.output
    assert "b.txt,out.txt,1.0" in result.stdout


def test_the_deduplicated_copy_keeps_a_skipped_link_a_link(linked: Path, tmp_path: Path) -> None:
    out = tmp_path / "deduplicated"
    result = run("run", linked, "-k", "3", "--write-deduplicated", out, "-q")
    assert result.exit_code == 0, result.output
    assert (out / "out.txt").is_symlink()
    assert sorted(p.name for p in out.iterdir()) == ["a.txt", "out.txt"]  # inside.txt and b.txt: near a.txt


@pytest.mark.slow
def test_spark_skips_the_same_links(linked: Path, tmp_path: Path, spark) -> None:
    duck, sparked = tmp_path / "duck.csv", tmp_path / "spark.csv"
    for engine, out in (("duckdb", duck), ("spark", sparked)):
        extra = ["--engine", "spark", "--work-dir", str(tmp_path / "work")] if engine == "spark" else []
        result = run("run", linked, "-k", "3", "-t", "0.5", "-o", out, *extra)
        assert result.exit_code == 0, result.output
        assert "1 skipped" in result.stderr
    assert duck.read_bytes() == sparked.read_bytes()


@pytest.fixture
def looped_dataset(tmp_path: Path) -> Path:
    """A Parquet dataset folder with a symlink loop, a link to a folder outside it and a part file
    under a folder that starts with _ (left out by both engines' dataset readers); no id column."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    outside = tmp_path / "outside"
    outside.mkdir()
    pq.write_table(pa.table({"text": [TEXT + " far"]}), outside / "far.parquet")
    parts = tmp_path / "parts"
    (parts / "sub").mkdir(parents=True)
    (parts / "_temporary").mkdir()
    pq.write_table(pa.table({"text": [TEXT, "something else entirely"]}), parts / "p0.parquet")
    pq.write_table(pa.table({"text": [TEXT + "!"]}), parts / "sub" / "p1.parquet")
    pq.write_table(pa.table({"text": [TEXT + "?"]}), parts / "_temporary" / "p2.parquet")
    (parts / "sub" / "loop").symlink_to(parts, target_is_directory=True)
    (parts / "elsewhere").symlink_to(outside, target_is_directory=True)
    return parts


def test_a_dataset_folder_is_read_without_following_folder_links(looped_dataset: Path) -> None:
    """pyarrow's dataset discovery followed a `loop -> ..` link: every document read 40 times over,
    as 40 copies paired with each other at 1.0 (123 documents, 4,141 pairs for 3 documents)."""
    result = run("run", looped_dataset, "-t", "0.5", "--format", "csv", "--show-skipped")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["id_a,id_b,jaccard,estimate", result.stdout.splitlines()[1]]
    assert result.stdout.splitlines()[1].startswith("1,3,")  # rows numbered in path order
    assert "documents: 6 read = 3 processed + 0 empty + 3 skipped" in result.stderr
    for name in (
        "elsewhere/: symlink to a folder",
        "sub/loop/: symlink to a folder",
        "_temporary/p2.parquet: not read",
    ):
        assert name in result.stderr, result.stderr


@pytest.fixture
def odd_dataset(tmp_path: Path) -> Path:
    """A Parquet dataset folder holding a broken symlink and a fifo beside its part file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    parts = tmp_path / "odd"
    parts.mkdir()
    pq.write_table(pa.table({"text": [TEXT, TEXT + "!"]}), parts / "p0.parquet")
    (parts / "gone.parquet").symlink_to(tmp_path / "nowhere.parquet")
    os.mkfifo(parts / "pipe")
    return parts


def test_a_dataset_folder_lists_broken_links_and_special_files_as_skipped(odd_dataset: Path, tmp_path: Path) -> None:
    """pyarrow stopped the run on them ("cannot read table odd: odd/gone.parquet"); a folder of text
    files lists them as skipped, and so does a dataset now. A dataset of no part file (every name
    left out) has no text column, said as on Spark."""
    result = run("run", odd_dataset, "-t", "0.5", "--format", "csv", "--show-skipped")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].startswith("1,2,")
    assert "documents: 4 read = 2 processed + 0 empty + 2 skipped" in result.stderr
    assert "odd/gone.parquet: broken symlink" in result.stderr and "odd/pipe: not a regular file" in result.stderr
    empty = tmp_path / "empty.parquet"
    empty.mkdir()
    (empty / "_SUCCESS").touch()
    result = run("run", empty)
    assert result.exit_code == 1
    assert result.stderr.strip() == f"Error: {empty}: no text column 'text'; columns are none"


@pytest.mark.slow
def test_spark_reads_the_same_dataset(looped_dataset: Path, odd_dataset: Path, tmp_path: Path, spark) -> None:
    """Spark's discovery followed the folder links; given the folder as a file:// URI it was not
    listed by dedup at all, and Spark read 2 documents of 3 (the part in sub/ left out, unsaid)."""
    cases = [
        (looped_dataset, "documents: 6 read = 3 processed + 0 empty + 3 skipped"),
        (f"file://{looped_dataset}", "documents: 6 read = 3 processed + 0 empty + 3 skipped"),
        (odd_dataset, "documents: 4 read = 2 processed + 0 empty + 2 skipped"),
    ]
    for i, (source, summary) in enumerate(cases):
        outputs = []
        for engine in ("duckdb", "spark"):
            out = tmp_path / f"{engine}{i}.csv"
            extra = ["--engine", "spark", "--work-dir", tmp_path / f"work{i}"] if engine == "spark" else []
            given = source if engine == "spark" else str(source).removeprefix("file://")  # DuckDB: local paths
            result = run("run", given, "-t", "0.5", "-o", out, "--show-skipped", *extra)
            assert result.exit_code == 0, result.output
            assert summary in result.stderr, result.stderr
            outputs.append(out.read_bytes())
        assert outputs[0] == outputs[1] and outputs[0].count(b"\n") == 2
    empty = tmp_path / "empty.parquet"
    empty.mkdir()
    (empty / "loop").symlink_to(tmp_path, target_is_directory=True)
    result = run("run", empty, "--engine", "spark", "--work-dir", tmp_path / "work")
    assert result.exit_code == 1
    assert result.stderr.strip() == f"Error: {empty}: no text column 'text'; columns are none"
