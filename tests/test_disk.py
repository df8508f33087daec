"""The disk a run takes: where its own files go (--temp-dir, never the system's temporary folder then)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO

CLOUGH = REPO / "data" / "clough"


def seen_while_running(command: list[str], watched: Path, env: dict[str, str]) -> set[str]:
    """Every name that appeared below `watched` while the command ran (listed every millisecond)."""
    seen: set[str] = set()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    while process.poll() is None:
        for root, folders, files in os.walk(watched):
            seen.update(os.path.relpath(os.path.join(root, name), watched) for name in folders + files)
        time.sleep(0.001)
    assert process.returncode == 0, process.stderr.read() if process.stderr else ""
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("output", [["-o", "pairs.csv"], ["--write-deduplicated", "copy"]])
def test_a_run_given_temp_dir_writes_nothing_to_the_system_temporary_folder(tmp_path, output):
    # a --memory-limit keeps the tables in a temporary database file (never in memory): it, its
    # write-ahead log and DuckDB's spill go under --temp-dir; the system's folder (TMPDIR) stays empty
    system, temp = tmp_path / "system", tmp_path / "temp"
    system.mkdir()
    env = {**os.environ, "TMPDIR": str(system)}

    def command(run: str) -> list[str]:
        return [sys.executable, "-m", "dedup", "run", str(CLOUGH), "--threshold", "0.5", "--memory-limit", "1GB",
                "--temp-dir", str(temp), "-q", output[0], str(tmp_path / f"{run}-{output[1]}")]  # fmt: skip

    in_system = seen_while_running(command("first"), system, env)
    in_temp = seen_while_running(command("second"), temp, env)
    assert in_system == set()
    assert any(name.endswith("run.duckdb") for name in in_temp)  # the temporary database was there
    assert list(temp.iterdir()) == []  # and is gone with the run


def test_the_summary_says_the_disk_a_run_took_and_what_its_database_keeps(tmp_path):
    from typer.testing import CliRunner

    from dedup.cli import app

    db = tmp_path / "run.duckdb"
    kept = CliRunner().invoke(app, ["run", str(CLOUGH), "--db", str(db), "--pairs", "none"])
    assert kept.exit_code == 0, kept.stderr
    megabytes = db.stat().st_size / 1e6
    assert f"the database keeps {megabytes:,.1f} MB" in kept.stderr
    assert "bytes per byte of text" in kept.stderr
    temp = tmp_path / "temp"
    spilled = CliRunner().invoke(
        app, ["run", str(CLOUGH), "--memory-limit", "1GB", "--temp-dir", str(temp), "-o", str(tmp_path / "p.csv")]
    )
    line = next(line for line in spilled.stderr.splitlines() if line.startswith("disk: "))
    assert f"in {temp} " in line and "the database keeps" not in line
    assert float(line.split("peak ")[1].split(" MB")[0]) > 0  # its temporary database was there
    small = CliRunner().invoke(app, ["run", str(CLOUGH), "-o", str(tmp_path / "q.csv")])
    assert "disk: nothing written (the run's tables stayed in memory)" in small.stderr
