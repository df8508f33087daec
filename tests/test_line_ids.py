"""A --lines input's ids: its line numbers, which `dedup.run` returns as integers and the index takes
back, or the names an --ids file gives its lines, one per line, checked in one line each."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import dedup
from dedup.cli import app

runner = CliRunner()
TEXTS = ["the cat sat on the mat today", "the cat sat on the mat today!", "something else entirely"]


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def lines(tmp_path: Path) -> Path:
    path = tmp_path / "docs.txt"
    path.write_text("\n".join(TEXTS) + "\n")
    return path


def test_index_query_and_explain_take_the_integer_ids_run_returned(lines: Path, tmp_path: Path) -> None:
    db = tmp_path / "index.duckdb"
    pairs = dedup.run(lines, lines=True, threshold=0.5, shingle_size=3, db=db)
    id_a, id_b = pairs.to_pylist()[0]["id_a"], pairs.to_pylist()[0]["id_b"]
    assert (id_a, id_b) == (1, 2)
    index = dedup.Index(db)
    assert index.query(id=id_a).column("id").to_pylist() == [2]
    assert index.explain(id_a, id_b).jaccard == pytest.approx(pairs.to_pylist()[0]["jaccard"])


def test_ids_name_the_lines(lines: Path, tmp_path: Path) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("a\r\nb\r\nc\r\n")
    result = invoke("run", lines, "--lines", "--ids", ids, "-k", "3", "-t", "0.5", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].startswith("a,b,")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("a\nb\n", "has 2 lines, the input 3: one id per line"),
        ("a\na\nc\n", "duplicate document id 'a'"),
        ("a\n\nc\n", "line 2 is empty"),
    ],
)
def test_bad_ids_are_one_line_errors(lines: Path, tmp_path: Path, content: str, message: str) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text(content)
    result = invoke("run", lines, "--lines", "--ids", ids)
    assert result.exit_code == 1
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_ids_need_one_lines_input(lines: Path, tmp_path: Path) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("a\nb\nc\n")
    assert invoke("run", lines, "--ids", ids).exit_code == 2
    assert invoke("run", lines, lines.parent, "--lines", "--ids", ids).exit_code == 2
