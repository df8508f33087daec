"""Faults, with real processes and real signals: kill -9 and resume, a second process on the same
database, Ctrl-C, changed options, a full temp folder, a memory limit that forces spilling."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from corpora import planted_corpus, write_folder

from dedup.settings import Sketch
from dedup.stages import pipeline_stages

pytestmark = pytest.mark.slow  # subprocesses and repeated runs: the second phase of the test command

STAGE_ORDER = [stage.name for stage in pipeline_stages(Sketch())]


def dedup(*args: str, **popen) -> subprocess.Popen:
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE} | popen
    return subprocess.Popen([sys.executable, "-m", "dedup", *args], text=True, **streams)


def finish(process: subprocess.Popen) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=600)
    return process.returncode, out, err


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """A corpus that takes a few seconds, so that signals land inside stages."""
    folder = tmp_path_factory.mktemp("faults") / "corpus"
    write_folder(folder, planted_corpus(1200, 2, seed=11, words=150))
    return folder


@pytest.fixture(scope="module")
def expected_csv(corpus, tmp_path_factory) -> str:
    code, out, err = finish(dedup("run", str(corpus), "--format", "csv", "-q"))
    assert code == 0, err
    assert out.count("\n") > 100
    return out


def finished_stages(db: Path) -> list[str]:
    """The stages a database says are finished, after checking each one's table has its recorded rows
    (the shingles, which a lean database does not keep: each document's count of them, in signatures)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        relations = "select table_name from duckdb_tables() union all select view_name from duckdb_views()"
        names = {t for (t,) in con.execute(relations).fetchall()}  # a lean index's pair tables are views
        if "stages" not in names:
            return []
        recorded = con.execute("select stage, rows from stages").fetchall()
        for stage, rows in recorded:
            if stage == "shingles" and stage not in names:
                assert con.execute("select sum(n_shingles) from signatures").fetchall()[0][0] == rows
                continue
            assert stage in names
            assert con.execute(f'select count(*) from "{stage}"').fetchall()[0][0] == rows, stage
    finally:
        con.close()
    done = [stage for stage, _ in recorded]
    assert done == STAGE_ORDER[: len(done)], done  # a prefix of the pipeline, never a hole
    return done


def timed_run(corpus: Path, db: Path) -> float:
    """Seconds from the database's opening to the end of a whole run on `corpus` (its pairs checked)."""
    process = dedup("run", str(corpus), "--db", str(db), "--format", "csv", "-q")
    wait_until_open(process, db)
    opened = time.monotonic()
    code, _, err = finish(process)
    assert code == 0, err
    return time.monotonic() - opened


# Where the kill -9 test kills a run: a moment after the progress line "finished <stage>" (printed
# before the stage's group commits) or at a fraction of a whole run's time. Lines make the points
# land in different stages whatever the machine's speed (CI once killed five runs by time alone, all
# in the shingles-and-signatures group); fractions land anywhere inside a stage.
KILL_AFTER_LINES = (("read", 0.0), ("documents", 0.2), ("signatures", 0.0), ("candidates", 0.0), ("verified", 0.0))
KILL_AT_FRACTIONS = (0.35, 0.6, 0.85)


def kill_after_line(process: subprocess.Popen, stage: str, delay: float) -> None:
    """SIGKILL `delay` seconds after the process printed the progress line of `stage`'s end (or at
    its end, if it never prints that line)."""
    assert process.stderr is not None
    for line in process.stderr:
        if line.startswith(f"finished {stage}:"):
            break
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)


def test_kill_9_at_any_moment_then_resume_gives_the_same_pairs(corpus, expected_csv, tmp_path):
    """Killed at points spread over a run, each on a new database, then resumed: the finished stages
    are a prefix of the pipeline with their recorded rows, and the resumed run gives the pairs."""
    whole = timed_run(corpus, tmp_path / "timed.duckdb")
    points = [("line", stage, delay) for stage, delay in KILL_AFTER_LINES]
    points += [("time", "", whole * fraction) for fraction in KILL_AT_FRACTIONS]
    progress: dict[str, list[str]] = {}
    killed = 0
    for n, (kind, stage, seconds) in enumerate(points):
        db = tmp_path / f"run{n}.duckdb"
        quiet = () if kind == "line" else ("-q",)
        process = dedup("run", str(corpus), "--db", str(db), "--format", "csv", *quiet, stdout=subprocess.DEVNULL)
        wait_until_open(process, db)
        if kind == "line":
            kill_after_line(process, stage, seconds)
        else:
            time.sleep(seconds)
            process.send_signal(signal.SIGKILL)
        code, _, _ = finish(process)
        killed += code == -signal.SIGKILL
        progress[f"{kind} {stage or seconds}"] = done = finished_stages(db)
        if kind == "line" and stage in STAGE_ORDER:  # every group before the stage's own had committed
            assert len(done) >= STAGE_ORDER.index(stage) - 1, (stage, done)
        code, out, err = finish(dedup("run", str(corpus), "--db", str(db), "--format", "csv", "-q"))
        assert code == 0, err
        assert out == expected_csv
        assert finished_stages(db) == STAGE_ORDER
    assert killed >= 4, progress  # most runs died mid-way
    assert len({len(stages) for stages in progress.values()}) >= 2, progress  # at different stages


def test_second_process_on_the_same_database_fails_fast(corpus, tmp_path):
    db = tmp_path / "run.duckdb"
    first = dedup("run", str(corpus), "--db", str(db), "-q")
    wait_until_open(first, db)  # it holds the database's lock from here to its end
    second = subprocess.run(
        [sys.executable, "-m", "dedup", "run", str(corpus), "--db", str(db), "-q"], capture_output=True, text=True
    )
    still_running = first.poll() is None
    code, _, err = finish(first)
    assert code == 0, err
    assert still_running
    assert second.returncode == 1
    assert second.stderr == f"Error: database {db} is in use by another process; wait for it or use another --db\n"


def wait_until_open(process: subprocess.Popen, path: Path, seconds: float = 120) -> None:
    """Until the process holds `path` open (its run has begun), or has ended. On a resumed run the
    file exists before the process starts, so its existence says nothing; a signal sent before
    Python has even started would kill the process outright (exit -2, nothing printed)."""
    target = str(path.resolve())
    deadline = time.monotonic() + seconds
    while process.poll() is None:
        try:
            fds = os.listdir(f"/proc/{process.pid}/fd")
            if any(os.path.realpath(f"/proc/{process.pid}/fd/{fd}") == target for fd in fds):
                return
        except OSError:
            pass  # the process is starting or ending
        assert time.monotonic() < deadline, f"{path} was never opened"
        time.sleep(0.02)


def test_ctrl_c_stops_cleanly_with_exit_130_and_resumes(corpus, expected_csv, tmp_path):
    whole = timed_run(corpus, tmp_path / "timed.duckdb")
    db = tmp_path / "run.duckdb"
    interrupted = 0
    for fraction in (0.3, 0.5):  # the second run resumes, so it ends sooner than a whole run
        process = dedup("run", str(corpus), "--db", str(db), "--format", "csv")
        wait_until_open(process, db)
        time.sleep(whole * fraction)
        process.send_signal(signal.SIGINT)
        code, out, err = finish(process)
        if code == 0:
            continue  # finished before the signal
        interrupted += 1
        assert code == 130, err
        assert err.splitlines()[-1].startswith("Error: interrupted")
        assert "Traceback" not in err
        finished_stages(db)
    assert interrupted >= 1
    code, out, _ = finish(dedup("run", str(corpus), "--db", str(db), "--format", "csv", "-q"))
    assert code == 0 and out == expected_csv


def test_ctrl_c_at_any_moment_ends_with_complete_output_or_exit_130(corpus, expected_csv, tmp_path):
    """From the open database to the process's last instruction, including the summary and
    Python's shutdown, where a Ctrl-C once killed a finished run (exit -2)."""
    whole = timed_run(corpus, tmp_path / "timed.duckdb")
    outcomes = set()
    for n, fraction in enumerate((0.3, 0.6, 0.8, 0.9, 0.95, 1.0, 1.05, 1.1, 1.2, 1.4, 2.0)):
        db = tmp_path / f"run{n}.duckdb"
        process = dedup("run", str(corpus), "--db", str(db), "--format", "csv")
        wait_until_open(process, db)
        time.sleep(whole * fraction)
        process.send_signal(signal.SIGINT)
        code, out, err = finish(process)
        assert code in (0, 130), (fraction, code, err)
        assert "Traceback" not in err and "Aborted" not in err
        if code == 0:
            assert out == expected_csv
        else:
            assert err.splitlines()[-1].startswith("Error: interrupted"), err
        outcomes.add(code)
    assert 130 in outcomes  # the sweep interrupted the run at least once (under any load)
    # and once more after the summary's last line: the process is printing its end or shutting down
    process = dedup("run", str(corpus), "--db", str(tmp_path / "late.duckdb"), "--format", "csv")
    assert process.stderr is not None
    err = ""
    for line in process.stderr:
        err += line
        if line.lstrip().startswith("total"):
            process.send_signal(signal.SIGINT)
            break
    out, rest = process.communicate(timeout=600)
    assert process.returncode in (0, 130), (process.returncode, err + rest)
    assert "Traceback" not in rest and "Aborted" not in rest
    assert out == expected_csv  # the pairs were complete before the summary was printed


def stage_seconds(stderr: str) -> dict[str, str]:
    """stage -> its seconds cell ("reused" or a number) from the summary table."""
    cells = {}
    for line in stderr.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] in STAGE_ORDER:
            cells[parts[0]] = parts[2]
    return cells


def test_changed_options_recompute_from_the_first_changed_stage(tmp_path):
    folder = tmp_path / "corpus"
    write_folder(folder, planted_corpus(40, 2, seed=3))
    db = tmp_path / "run.duckdb"

    def run(*options: str) -> tuple[str, dict[str, str]]:
        done = subprocess.run(
            [sys.executable, "-m", "dedup", "run", *options, "--format", "csv"], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout, stage_seconds(done.stderr)

    lean = tmp_path / "lean.duckdb"
    first, cells = run(str(folder), "--db", str(db), "--keep-all-tables")
    assert "reused" not in cells.values()
    again, cells = run(str(folder), "--db", str(db), "--keep-all-tables")
    assert again == first and set(cells.values()) == {"reused"}
    # a new threshold changes the banding: the band hashes are made in each batch of documents,
    # beside the signatures they read (a lean database keeps no MinHash values): shingles onwards run
    out, cells = run(str(folder), "--db", str(db), "-t", "0.5", "--keep-all-tables")
    assert [s for s in STAGE_ORDER if cells[s] == "reused"] == ["documents"]
    assert out == run(str(folder), "-t", "0.5")[0]
    assert run(str(folder), "--db", str(lean))[0] == first
    out, cells = run(str(folder), "--db", str(lean), "-t", "0.5")
    assert [s for s in STAGE_ORDER if cells[s] == "reused"] == ["documents"]
    assert out == run(str(folder), "-t", "0.5")[0]
    # a new shingle size: everything after documents
    out, cells = run(str(folder), "--db", str(db), "-t", "0.5", "-k", "5", "--keep-all-tables")
    assert [s for s in STAGE_ORDER if cells[s] == "reused"] == ["documents"]
    assert out == run(str(folder), "-t", "0.5", "-k", "5")[0]
    # changed input: everything
    (folder / "d0000v0.txt").write_text("a new text for this file", encoding="utf-8")
    out, cells = run(str(folder), "--db", str(db), "-t", "0.5", "-k", "5", "--keep-all-tables")
    assert "reused" not in cells.values()
    assert out == run(str(folder), "-t", "0.5", "-k", "5")[0]


@pytest.fixture(scope="module")
def spilling(tmp_path_factory) -> tuple[Path, str]:
    """16 MB of lines (10,000 of 250 words, 60 of them near-copies of others), which a run under
    the smallest --memory-limit it takes for 2 threads (224MB) spills to disk; and their pairs."""
    import random

    rng = random.Random(3)
    words = ["".join(rng.choice("abcdefghijklmnop") for _ in range(rng.randint(2, 9))) for _ in range(30_000)]
    lines = [" ".join(rng.choice(words) for _ in range(250)) for _ in range(9_940)]
    lines += [lines[i] + " and one more" for i in range(60)]
    path = tmp_path_factory.mktemp("spilling") / "lines.txt"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = finish(dedup("run", str(path), "--lines", "--format", "csv", "-q"))
    assert code == 0, err
    assert out.count("\n") == 61  # a header and the 60 near-copies
    return path, out


def test_memory_limit_spills_to_temp_dir_and_gives_the_same_pairs(spilling, tmp_path):
    corpus, expected_csv = spilling
    temp = tmp_path / "spill"
    code, out, err = finish(
        dedup(
            "run",
            str(corpus),
            "--lines",
            "--format",
            "csv",
            "-q",
            "--memory-limit",
            "224MB",
            "--threads",
            "2",
            "--temp-dir",
            str(temp),
            "--db",
            str(tmp_path / "run.duckdb"),
        )
    )
    assert code == 0, err
    assert out == expected_csv


@pytest.fixture
def full_disk(tmp_path):
    """A 1 MiB tmpfs (needs root and mount); unmounted afterwards."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1M", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    yield mount
    subprocess.run(["umount", str(mount)], check=False)


def test_full_temp_dir_is_a_clear_error_and_the_database_stays_usable(spilling, tmp_path, full_disk):
    corpus, expected_csv = spilling
    db = tmp_path / "run.duckdb"
    code, _, err = finish(
        dedup(
            "run",
            str(corpus),
            "--lines",
            "--db",
            str(db),
            "-q",
            "--memory-limit",
            "224MB",
            "--threads",
            "2",
            "--temp-dir",
            str(full_disk),
        )
    )
    assert code == 1, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"Error: no room to spill to {full_disk} (give --temp-dir a folder with more space): ")
    finished_stages(db)
    code, out, err = finish(dedup("run", str(corpus), "--lines", "--db", str(db), "--format", "csv", "-q"))
    assert code == 0, err
    assert out == expected_csv


def test_index_add_makes_a_later_run_recompute(tmp_path):
    folder = tmp_path / "corpus"
    write_folder(folder, planted_corpus(20, 1, seed=4))
    extra = tmp_path / "extra"
    write_folder(extra, {"zz-new": "a brand new document for the index"})
    db = tmp_path / "run.duckdb"

    def run(*args: str) -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, "-m", "dedup", *args], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done

    first = run("run", str(folder), "--db", str(db), "--format", "csv")
    run("add", str(db), str(extra), "-q")
    # the index holds a document the folder lacks: a run refuses to drop it unless told to
    refused = subprocess.run([sys.executable, "-m", "dedup", "run", str(folder), "--db", str(db)], capture_output=True)
    assert refused.returncode == 2 and b"--replace" in refused.stderr
    again = run("run", str(folder), "--db", str(db), "--format", "csv", "--replace")
    assert "reused" not in stage_seconds(again.stderr).values()
    assert again.stdout == first.stdout


def test_add_on_a_full_disk_says_so_and_the_index_is_unchanged(tmp_path, full_disk):
    """`dedup add` on a full disk said "TransactionContext Error: Current transaction is aborted
    (please ROLLBACK)": leaving its staging schema failed after the write that filled the disk, and
    hid it. It says the disk is full, and the index answers as before."""
    import json
    import random

    subprocess.run(["mount", "-o", "remount,size=4M", str(full_disk)], check=True)
    db = full_disk / "index.duckdb"
    write_folder(tmp_path / "corpus", planted_corpus(10, 1, seed=4))
    code, _, err = finish(dedup("run", str(tmp_path / "corpus"), "--db", str(db), "-q"))
    assert code == 0, err
    before = finish(dedup("export", str(db), "--what", "survivors", "-o", str(tmp_path / "before.csv")))
    assert before[0] == 0, before[2]
    rng = random.Random(1)
    many = tmp_path / "many.jsonl"
    with many.open("w") as file:
        for i in range(20_000):
            file.write(json.dumps({"id": f"x{i}", "text": " ".join(str(rng.random()) for _ in range(40))}) + "\n")
    code, _, err = finish(dedup("add", str(db), str(many)))
    assert code == 1 and len(err.splitlines()) == 1, err
    assert err.startswith("Error: the disk is full: ") and str(db) in err, err
    code, _, err = finish(dedup("export", str(db), "--what", "survivors", "-o", str(tmp_path / "after.csv")))
    assert code == 0, err
    assert (tmp_path / "after.csv").read_bytes() == (tmp_path / "before.csv").read_bytes()
