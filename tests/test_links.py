"""Symlinks below an input folder (issue 22): a link to a file outside the input is skipped and
listed, unless --follow-links; --write-deduplicated keeps it a link and never copies its target.
Both engines read a folder alike."""

from __future__ import annotations

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
