"""The disk a run takes: where its own files go (--temp-dir, never the system's temporary folder then)."""

from __future__ import annotations

import hashlib
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


def test_a_file_under_two_watched_paths_is_counted_once(tmp_path):
    # the temporary database of a run given --temp-dir is below it and one of the engine's own files:
    # summed per path, the disk line said 630 MB for a peak of 386 MB (100k reviews)
    from dedup.disk import Watch

    folder = tmp_path / "temp"
    folder.mkdir()
    database = folder / "run.duckdb"
    watch = Watch([folder, database, tmp_path / "not-yet"])
    database.write_bytes(b"x" * 1_000_000)
    (folder / "spill").write_bytes(b"y" * 200_000)
    watch.sample()
    on_disk = sum(path.stat().st_blocks * 512 for path in (database, folder / "spill"))
    assert watch.peak == on_disk


def test_a_file_a_watched_folder_held_before_is_not_counted_unless_watched_by_name(tmp_path):
    # a resumed run's database in --temp-dir was there before, and is the run's own file
    from dedup.disk import Watch

    folder = tmp_path / "temp"
    folder.mkdir()
    (folder / "earlier").write_bytes(b"x" * 500_000)
    database = folder / "run.duckdb"
    database.write_bytes(b"y" * 300_000)
    watch = Watch([folder])
    watch.watch(database)
    (folder / "spill").write_bytes(b"z" * 100_000)
    watch.sample()
    assert watch.peak == sum(path.stat().st_blocks * 512 for path in (database, folder / "spill"))


def test_the_disk_line_leaves_out_what_the_temporary_folder_held_before_the_run(tmp_path):
    # an earlier run's database left in --temp-dir is not this run's: the line said 1,343 MB in a
    # folder that held a 518 MB database, for a run whose own files took 740 MB
    from typer.testing import CliRunner

    from dedup.cli import app

    temp = tmp_path / "temp"
    temp.mkdir()
    (temp / "earlier.duckdb").write_bytes(b"x" * 20_000_000)
    result = CliRunner().invoke(
        app, ["run", str(CLOUGH), "--memory-limit", "1GB", "--temp-dir", str(temp), "-o", str(tmp_path / "p.csv")]
    )
    assert result.exit_code == 0, result.stderr
    line = next(line for line in result.stderr.splitlines() if line.startswith("disk: "))
    assert 0 < float(line.split("peak ")[1].split(" MB")[0]) < 20


def test_the_disk_line_counts_the_spool_in_the_system_temporary_folder(tmp_path, monkeypatch):
    # without --temp-dir and --db a large input's spool goes to the system's temporary folder, where
    # the disk line did not look: it said "nothing written"
    import tempfile

    from typer.testing import CliRunner

    from dedup.cli import app
    from dedup.corpus import collected as collected_module

    system = tmp_path / "system"
    system.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(system))
    monkeypatch.setattr(collected_module, "SPOOL_BYTES", 2_000)
    result = CliRunner().invoke(app, ["run", str(CLOUGH), "--threshold", "0.5", "-o", str(tmp_path / "p.csv")])
    assert result.exit_code == 0, result.stderr
    line = next(line for line in result.stderr.splitlines() if line.startswith("disk: "))
    assert f"in the system's temporary folder {system} " in line
    assert float(line.split("peak ")[1].split(" MB")[0]) > 0.1  # Clough's 100 answers, uncompressed
    assert list(system.iterdir()) == []


def test_a_runs_temporary_database_writes_its_rows_past_the_log(tmp_path):
    # a transaction logs the rows of a row group that is not full, uncompressed, until it commits: the
    # documents stage of 100k reviews logged text and norm whole (304 MB) beside the database. A
    # temporary database (scratch) has row groups small enough that such a table goes to the file.
    from dedup.engines import open_engine
    from dedup.statement import Statement

    rows = (
        "select i as doc_id, repeat('word ' || (i * 7919 % 100003)::varchar || ' ', 20) as text from range(100000) t(i)"
    )
    logged = {}
    for scratch in (False, True):
        path = tmp_path / f"{scratch}.duckdb"
        engine = open_engine(path, scratch=scratch)
        try:
            engine.execute(Statement("keep the log", "duckdb", "set checkpoint_threshold = '10GB'"))
            with engine.atomic("interrupted"):
                engine.create_table("documents", Statement("t", "duckdb", rows))
            logged[scratch] = path.with_name(path.name + ".wal").stat().st_size
            assert engine.fetch_rows(Statement("c", "duckdb", "select count(*) from documents")) == [(100_000,)]
        finally:
            engine.close()
    assert logged[False] > 15_000_000  # 100,000 rows of ~200 characters, logged whole (DuckDB's default)
    assert logged[True] < 2_000_000  # three full row groups written to the file, 1,696 rows logged


def test_the_least_room_is_a_lower_bound_of_a_kept_database_of_short_texts(tmp_path):
    """A run is refused when the disk has less free than dedup.disk.least_room: its band hashes (6
    bytes a bucket: hash scheme v5's 48 bits) and half a byte per byte of text. On short texts, where
    the band hashes are most of a kept database, the bound stays below the file and near it."""
    from typer.testing import CliRunner

    from dedup.cli import app
    from dedup.disk import BUCKET_BYTES, least_room
    from dedup.hashing import BUCKET_BITS

    assert BUCKET_BYTES * 8 == BUCKET_BITS
    lines = [hashlib.sha256(str(i).encode()).hexdigest()[:40] for i in range(60_000)]  # no two alike
    corpus = tmp_path / "summaries.txt"
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "index.duckdb"
    done = CliRunner().invoke(app, ["run", str(corpus), "--lines", "--db", str(db), "--pairs", "none", "-q"])
    assert done.exit_code == 0, done.stderr
    text = sum(len(line.encode()) for line in lines)
    bound = least_room(text, len(lines), bands=21)
    assert 0.5 * db.stat().st_size < bound < db.stat().st_size
