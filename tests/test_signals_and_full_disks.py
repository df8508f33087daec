"""dedup as a process among others, each case with a real process: Ctrl-C and SIGTERM during a run,
an add, a remove and an audit (the exit code, the index unchanged or complete, no temporary file
left), a full disk (one line, no truncated file, the right folder named), a small memory limit
(spilled, never failed), and an input changed while it is read (never copied deduplicated)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

CLOUGH = Path(__file__).resolve().parent.parent / "data" / "clough"


def dedup(*args: object, **popen) -> subprocess.Popen:
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE} | popen
    return subprocess.Popen([sys.executable, "-m", "dedup", *map(str, args)], text=True, **streams)


def finish(process: subprocess.Popen, timeout: float = 600) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=timeout)
    return process.returncode, out, err


def one_line_error(err: str) -> None:
    assert "Traceback" not in err, err
    assert err.strip().splitlines()[-1].startswith("Error: "), err


def short_lines(path: Path, count: int, seed: int = 1) -> Path:
    """`count` lines of 15 random words, every fifth one twice: a run of a few seconds."""
    rng = random.Random(seed)
    words = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(2, 7))) for _ in range(5000)]
    lines = []
    for number in range(count):
        text = " ".join(rng.choice(words) for _ in range(15))
        lines.append(text)
        if number % 5 == 0:
            lines.append(text)
    path.write_text("\n".join(lines) + "\n")
    return path


def wait_for(process: subprocess.Popen, log: Path, text: str) -> None:
    deadline = time.monotonic() + 300
    while text not in log.read_text():
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_input_changed_during_the_run_is_never_written_deduplicated(tmp_path: Path) -> None:
    """Item 1: a line inserted into a --lines file while the run went on shifted every line number:
    1,630 unique lines lost and 289 duplicates kept, exit 0. Now: refused, exit 1, nothing written."""
    source = short_lines(tmp_path / "r.txt", 60_000)
    out, pairs, log = tmp_path / "o.txt", tmp_path / "p.csv", tmp_path / "err"
    with log.open("w") as err:
        process = dedup("run", source, "--lines", "-k", "5", "--write-deduplicated", out, "-o", pairs, stderr=err)
        wait_for(process, log, "finished documents")
        source.write_text("x\n" + source.read_text())
        code, _, _ = finish(process)
    assert code == 1
    assert "changed while the run was going" in log.read_text()
    one_line_error(log.read_text())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["err", "r.txt"]  # no copy, no pairs, no part


def test_unchanged_input_is_written_deduplicated(tmp_path: Path) -> None:
    source = short_lines(tmp_path / "r.txt", 2_000)
    out = tmp_path / "o.txt"
    code, _, err = finish(dedup("run", source, "--lines", "-k", "5", "--write-deduplicated", out, "-q"))
    assert code == 0, err
    lines = source.read_text().splitlines()
    assert out.read_text().splitlines() == list(dict.fromkeys(lines))


@pytest.fixture
def full_disk(tmp_path: Path):
    """A 1 MB tmpfs, filled but for ~8 KB."""
    mount = tmp_path / "full"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True)
    assert done.returncode == 0, f"a full-disk test needs to mount a tmpfs (root): {done.stderr!r}"
    try:
        with (mount / "filler").open("wb") as filler:
            filler.write(b"x" * (1024 * 1024 - 8 * 1024 - 4096))
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


@pytest.fixture(scope="module")
def copies(tmp_path_factory) -> Path:
    """200 copies of one text and some others: ~20,000 pairs, ~700 KB of CSV."""
    path = tmp_path_factory.mktemp("copies") / "copies.txt"
    texts = ["the same text again and again, copied everywhere"] * 200 + [f"other text {i} here" for i in range(50)]
    path.write_text("\n".join(texts) + "\n")
    return path


@pytest.mark.parametrize("what", ["output", "export", "export-command", "deduplicated"])
def test_a_full_disk_is_one_line_and_leaves_no_truncated_file(copies: Path, full_disk: Path, tmp_path: Path, what):
    """Item 4: OSError 28 was a traceback and left a truncated file behind."""
    db = tmp_path / "db.duckdb"
    if what == "output":
        args = ["run", copies, "--lines", "-o", full_disk / "p.csv"]
    elif what == "export":
        args = ["run", copies, "--lines", "--export", f"pairs={full_disk / 'p.jsonl'}"]
    elif what == "deduplicated":
        big = tmp_path / "big.txt"
        big.write_text("".join(f"line {i} of a file bigger than the room left\n" for i in range(2000)))
        args = ["run", big, "--lines", "--write-deduplicated", full_disk / "o.txt"]
    else:
        code, _, err = finish(dedup("run", copies, "--lines", "--db", db, "-q"))
        assert code == 0, err
        args = ["export", db, "--what", "pairs", "--output", full_disk / "p.csv"]
    code, _, err = finish(dedup(*args))
    assert code == 1, err
    one_line_error(err)
    assert "No space left on device" in err
    assert sorted(p.name for p in full_disk.iterdir()) == ["filler"]


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1])
def test_a_stopping_signal_removes_the_temporary_database(tmp_path: Path, stop: signal.Signals) -> None:
    """SIGTERM on a run without --db left its temporary database (786 MB in /tmp/dedup-*); so did
    SIGHUP (a closed terminal, a dropped SSH session) and SIGUSR1 after SIGTERM was handled."""
    source = short_lines(tmp_path / "big.txt", 240_000)  # > 16 MB of text: a database file, not memory
    temp = tmp_path / "tmp"
    temp.mkdir()
    log = tmp_path / "err"
    with log.open("w") as err:
        process = dedup(
            "run",
            source,
            "--lines",
            "-k",
            "5",
            "-o",
            tmp_path / "p.csv",
            stderr=err,
            env=os.environ | {"TMPDIR": str(temp)},
        )
        wait_for(process, log, "finished documents")
        assert list(temp.glob("dedup-*/run.duckdb")), "the run works in a temporary database file"
        process.send_signal(stop)
        code, _, _ = finish(process)
    assert code == 128 + stop, log.read_text()
    one_line_error(log.read_text())
    assert "terminated" in log.read_text()
    assert "a run without --db keeps nothing" in log.read_text()  # it said "finished stages are kept"
    assert list(temp.iterdir()) == []


@pytest.fixture(scope="module")
def index_to_change(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("index")
    source = short_lines(folder / "docs.txt", 30_000)
    more = short_lines(folder / "more.txt", 30_000, seed=2)
    db = folder / "index.duckdb"
    code, _, err = finish(dedup("run", source, "--lines", "-k", "5", "--db", db, "-q"))
    assert code == 0, err
    return db, more


def documents_in(db: Path) -> tuple[int, str]:
    """(documents, the text of the document with id 1): an add with --replace changes it."""
    import duckdb

    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("select count(*), max(text) filter (where id = 1) from documents").fetchone()


@pytest.mark.parametrize("delay", [0.3, 0.8, 1.5, 2.5, 4.0])
def test_ctrl_c_during_add_is_130_and_the_index_unchanged_or_complete(index_to_change, tmp_path, delay) -> None:
    """Item 8: Ctrl-C during `dedup add` ended with exit 1 `TransactionContext Error ... (please
    ROLLBACK)` in 8 of 10 tries. Now: exit 130 and the index as before, or (the signal after the
    commit) exit 0 and the documents added; never 130 after a commit."""
    db, more = index_to_change
    copy = tmp_path / "index.duckdb"
    copy.write_bytes(db.read_bytes())
    before = documents_in(copy)
    # add reads as the index's run did (--lines is recorded in the index)
    process = dedup("add", copy, more, "--replace")
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    code, _, err = finish(process)
    after = documents_in(copy)
    if code == 130:
        one_line_error(err)  # "interrupted" (while loading) or "interrupted; the index is unchanged"
        assert after == before
    else:
        assert code == 0, err
        assert after[1] != before[1]
    more_code, _, err = finish(dedup("list", copy, "--format", "csv"))
    assert more_code == 0, err


@pytest.mark.parametrize("delay", [0.3, 0.8, 1.5, 2.5])
def test_ctrl_c_during_remove_says_interrupted_only_when_nothing_was_removed(index_to_change, tmp_path, delay) -> None:
    db, _ = index_to_change
    copy = tmp_path / "index.duckdb"
    copy.write_bytes(db.read_bytes())
    before = documents_in(copy)
    process = dedup("remove", copy, *[str(n) for n in range(1, 2001)])
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    code, _, err = finish(process)
    after = documents_in(copy)
    if code == 130:
        one_line_error(err)
        assert after == before
    else:
        assert code == 0, err
        assert after[0] == before[0] - 2000


def test_a_run_under_a_small_memory_limit_spills_and_never_fails(tmp_path: Path) -> None:
    """Item 10: --memory-limit 200MB on 63k short texts ran out of memory in `shingles` (280 MB was
    the least that worked; without --db the in-memory database counted against the limit)."""
    source = short_lines(tmp_path / "tweets.txt", 60_000)
    limited, free = tmp_path / "limited.csv", tmp_path / "free.csv"
    limit = ("--memory-limit", "224MB", "--threads", "2")  # the smallest limit 2 threads take
    code, _, err = finish(dedup("run", source, "--lines", "-k", "5", *limit, "-o", limited, "-q"))
    assert code == 0, err
    code, _, err = finish(dedup("run", source, "--lines", "-k", "5", "-o", free, "-q"))
    assert code == 0, err
    assert limited.read_bytes() == free.read_bytes()
    assert limited.read_text().count("\n") == 12_001


def test_a_full_database_disk_says_so_and_does_not_blame_the_temp_dir(full_disk: Path, tmp_path: Path) -> None:
    """The message blamed --temp-dir when the --db disk was full."""
    source = short_lines(tmp_path / "docs.txt", 20_000)
    code, _, err = finish(dedup("run", source, "--lines", "--db", full_disk / "db.duckdb", "--temp-dir", tmp_path))
    assert code == 1, err
    one_line_error(err)
    assert "the disk is full" in err and "--temp-dir" not in err


@pytest.mark.parametrize("delay", [0.5, 1.5])
def test_sigterm_during_audit_is_143_as_for_run_and_add(index_to_change, delay) -> None:
    """SIGTERM during `dedup audit` exited 130 (the engine's interruption, read as a Ctrl-C)."""
    db, _ = index_to_change
    process = dedup("audit", db, "--sample", "30000")
    time.sleep(delay)
    process.send_signal(signal.SIGTERM)
    code, _, err = finish(process)
    assert code == 143, err
    one_line_error(err)
    assert "terminated" in err
