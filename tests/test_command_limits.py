"""Every command on a database takes --memory-limit (the run's option), checked as the run checks it."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO
from corpora import planted_corpus
from indexing import make_index, write_jsonl
from typer.testing import CliRunner

from dedup.cli import app
from dedup.settings import memory_floor


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
    result = CliRunner().invoke(app, [*args, "--memory-limit", "10MB"])  # below what DuckDB's threads pin
    assert result.exit_code == 2 and "is below the" in result.stderr and result.stderr.count("\n") == 1, result.output
    result = CliRunner().invoke(app, [*args, "--memory-limit", f"{memory_floor(None) // 10**6}MB"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("threads", "floor"), [(1, 176), (2, 224), (4, 320), (8, 512)])
def test_a_memory_limit_below_what_the_threads_pin_is_refused_at_the_start(tmp_path, threads, floor):
    """--memory-limit 100MB failed minutes into a run ("failed to pin block") on 100k short lines and
    100k tiny files: DuckDB pins buffers for each thread that cannot spill. A limit below the floor
    for the threads is refused before any work, naming the smallest that works."""
    lines = tmp_path / "lines.txt"
    lines.write_text("one line\nanother line\n")
    below = ["run", str(lines), "--lines", "--threads", str(threads), "--memory-limit", f"{floor - 1}MB"]
    result = CliRunner().invoke(app, below)
    assert result.exit_code == 2, result.output
    assert f"is below the {floor}MB a run with {threads} thread" in result.stderr
    assert f"give --memory-limit {floor}MB or more" in result.stderr and result.stderr.count("\n") == 1
    at = ["run", str(lines), "--lines", "--threads", str(threads), "--memory-limit", f"{floor}MB", "-q"]
    assert CliRunner().invoke(app, at).exit_code == 0


def test_the_summary_says_the_memory_a_run_took_and_its_limit(tmp_path):
    """Without --memory-limit DuckDB took 80 % of the machine, which neither --help nor the summary
    said; a run's budget is now half the machine's memory, said, DuckDB's share of it its limit."""
    import os

    import duckdb

    from dedup.settings import DUCKDB_SHARE

    default = CliRunner().invoke(app, ["run", str(REPO / "data" / "clough"), "-o", str(tmp_path / "p.csv")])
    line = next(line for line in default.stderr.splitlines() if line.startswith("memory: "))
    machine = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    try:  # a container's limit, when lower
        machine = min(machine, int(Path("/sys/fs/cgroup/memory.max").read_text()))
    except (OSError, ValueError):
        pass
    share = int(machine * 0.5 * DUCKDB_SHARE)
    limit = duckdb.connect(config={"memory_limit": f"{share}B"}).sql("select current_setting('memory_limit')")
    said = "(DuckDB's share of the default budget, half this machine's memory: --memory-limit sets it)"
    assert line.endswith(f"; limit {limit.fetchall()[0][0]} {said}")
    duckdb_default = duckdb.connect().sql("select current_setting('memory_limit')").fetchall()[0][0]
    assert duckdb_default not in line  # 80 % of the machine: no longer the limit
    peak = line.split("peak ")[1].split(" (this process)")[0]
    assert peak.endswith(" MB") and 50 < float(peak.removesuffix(" MB")) < 5_000
    given = CliRunner().invoke(
        app, ["run", str(REPO / "data" / "clough"), "--memory-limit", "1GB", "-o", str(tmp_path / "q.csv")]
    )
    assert "; limit 619.8 MiB (DuckDB's share of --memory-limit 1GB, the rest Python's)" in given.stderr
