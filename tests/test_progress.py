"""Progress that tells the truth: DuckDB's progress of the running stage on a terminal, one line per
finished stage elsewhere, nothing with --quiet."""

from __future__ import annotations

import io

from conftest import REPO
from rich.console import Console
from typer.testing import CliRunner

from dedup.cli import app
from dedup.cli.summary import StageProgress
from dedup.engines import Statement, open_engine
from dedup.reports import StageReport

STAGES = ["read", "documents", "shingles", "signatures", "band_hashes", "copies", "candidates", "verified", "pairs"]


def test_without_a_terminal_each_finished_stage_is_one_line():
    result = CliRunner().invoke(app, ["run", str(REPO / "data" / "clough")])
    assert result.exit_code == 0
    finished = [line for line in result.stderr.splitlines() if line.startswith("finished ")]
    assert [line.split()[1].rstrip(":") for line in finished] == STAGES
    assert "finished shingles: 116,295 rows, " in result.stderr and finished[0].endswith(" s")
    assert CliRunner().invoke(app, ["run", str(REPO / "data" / "clough"), "-q"]).stderr == ""


def test_on_a_terminal_a_stage_shows_duckdb_progress_then_rows_and_seconds(tmp_path):
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=100)
    engine = open_engine(tmp_path / "p.duckdb")
    slow = Statement(
        "slow",
        "duckdb",
        "select i % 1000 as g, count(distinct md5(i::varchar)) as n from range(3000000) as r(i) group by all",
    )
    try:
        with StageProgress(console) as progress:
            progress.attach(engine)
            progress.start("shingles")
            engine.create_table("t", slow)
            progress.finish(StageReport("shingles", 1000, 1.5))
            assert progress.bars is not None and progress.bars.tasks[0].completed == 100
        assert progress.polled and 0 < max(progress.polled) <= 100  # DuckDB's own figures were shown
    finally:
        engine.close()
    shown = screen.getvalue()
    assert "shingles" in shown and "%" in shown and "1,000 rows, 1.500 s" in shown


def test_progress_lines_while_a_stage_runs_when_stderr_is_not_a_terminal(tmp_path, monkeypatch) -> None:
    lines = tmp_path / "docs.txt"
    lines.write_text("the cat sat on the mat today\nthe cat sat on the mat today!\nsomething else\n")
    monkeypatch.setattr(StageProgress, "HEARTBEAT_SECONDS", 0.001)
    result = CliRunner().invoke(app, ["run", str(lines), "--lines", "-k", "3"])
    assert result.exit_code == 0, result.output
    assert "running " in result.stderr
