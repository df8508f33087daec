"""JSON lines of any result: a run's own tables hold timestamps, which JSON has no type for."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from dedup.cli import app


def test_sql_prints_the_runs_table_as_json_lines(tiny_corpus: Path, tmp_path: Path) -> None:
    db = tmp_path / "run.duckdb"
    runner = CliRunner()
    assert runner.invoke(app, ["run", str(tiny_corpus), "--db", str(db), "-q"]).exit_code == 0
    result = runner.invoke(app, ["sql", str(db), "select run_id, started_at from runs", "--format", "jsonl"])
    assert result.exit_code == 0, result.output
    row = json.loads(result.stdout.splitlines()[0])
    assert row["run_id"] == 1
    assert row["started_at"][:4].isdigit() and "T" in row["started_at"]  # ISO 8601 text
