"""Every command on a database takes --memory-limit (the run's option), checked as the run checks it."""

from __future__ import annotations

import pytest
from corpora import planted_corpus
from indexing import make_index, write_jsonl
from typer.testing import CliRunner

from dedup.cli import app


def commands(db, tmp_path):
    more = write_jsonl(tmp_path / "more.jsonl", {"zz-new": "a new text of a few words that pairs with nothing"})
    return {
        "clusters": ["clusters", db],
        "export": ["export", db, "--what", "survivors", "--output", tmp_path / "kept.csv"],
        "explain": ["explain", db, "d0000", "d0000v0"],
        "buckets": ["buckets", db],
        "query": ["query", db, "--id", "d0000"],
        "list": ["list", db],
        "sql": ["sql", db, "select count(*) from pairs"],
        "report": ["report", db, "--output", tmp_path / "report.html"],
        "add": ["add", db, more, "-q"],
        "remove": ["remove", db, "d0007v1"],  # last: the others read the index it changes
    }


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("limits")
    return make_index(tmp_path, planted_corpus(8, 2, seed=4)), tmp_path


@pytest.mark.parametrize(
    "name", ["clusters", "export", "explain", "buckets", "query", "list", "sql", "report", "add", "remove"]
)
def test_a_command_runs_under_a_memory_limit_and_refuses_a_bad_one(index, name):
    db, tmp_path = index
    args = [str(a) for a in commands(db, tmp_path)[name]]
    result = CliRunner().invoke(app, [*args, "--memory-limit", "lots"])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == "Error: --memory-limit must be a size such as 500MB or 2GB, got 'lots'"
    result = CliRunner().invoke(app, [*args, "--memory-limit", "200MB"])
    assert result.exit_code == 0, result.output
