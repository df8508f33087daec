"""Ctrl-C during a run: the engine is interrupted, Python code stops, and a late duplicate of the
same Ctrl-C cannot turn the one-line error into a traceback."""

import os
import signal
import threading
import time

import pytest

from dedup.engines import open_engine
from dedup.errors import stopping_signals_held
from dedup.interrupts import interrupt_on_sigint
from dedup.statement import Statement


@pytest.fixture
def own_sigint():
    before = signal.getsignal(signal.SIGINT)
    yield
    signal.signal(signal.SIGINT, before)


def test_without_ctrl_c_the_previous_handler_comes_back(own_sigint):
    before = signal.getsignal(signal.SIGINT)
    with interrupt_on_sigint():
        pass
    assert signal.getsignal(signal.SIGINT) is before


def test_ctrl_c_in_python_code_raises_once_and_later_ones_are_ignored(own_sigint):
    with pytest.raises(KeyboardInterrupt), interrupt_on_sigint():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)  # interrupted long before
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    os.kill(os.getpid(), signal.SIGINT)  # a late duplicate: nothing happens
    time.sleep(0.05)


def test_ctrl_c_while_signals_are_held_stops_the_command_after_the_block(own_sigint):
    """A native module's import (duckdb's) runs with stopping signals held: Ctrl-C raised inside its
    initialization aborted the process (exit -6, not 130). The block's code runs on; then it stops."""
    finished = []
    with pytest.raises(KeyboardInterrupt), interrupt_on_sigint():
        with stopping_signals_held():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # Python code: the handler runs here, and must not raise
            finished.append(True)
        finished.append(False)  # never reached
    assert finished == [True]
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def test_ctrl_c_interrupts_a_running_engine_statement_and_surfaces_once(own_sigint, tmp_path):
    engine = open_engine(tmp_path / "x.duckdb")
    slow = Statement("slow", "duckdb", "select count(*) from range(100000000000) a, range(10) b", {})
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt), interrupt_on_sigint() as attach:
            attach(engine)
            timer.start()
            engine.fetch_rows(slow)
        assert time.monotonic() - started < 30  # minutes without the interrupt
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        time.sleep(0.05)  # a pending duplicate of the Python handler would raise here
    finally:
        timer.cancel()
        engine.close()


@pytest.mark.parametrize("options", [[], ["--write-deduplicated", "copy"], ["--db", "run.duckdb"]])
def test_an_interrupted_stage_says_what_is_kept(tmp_path, monkeypatch, options):
    """A Ctrl-C inside a stage's atomic step said "every stage that had finished is kept (run again
    to resume)" also without --db, where nothing is kept (the database is in memory or temporary)."""
    from typer.testing import CliRunner

    from dedup import runner
    from dedup.cli import app

    folder = tmp_path / "corpus"
    folder.mkdir()
    for name in ("a.txt", "b.txt"):
        (folder / name).write_text("the quick brown fox jumps over the lazy dog")
    real = runner.run_steps

    def interrupted(engine, steps, *args, **kwargs):
        if any(stage.name == "signatures" for stage, _ in steps):
            raise KeyboardInterrupt
        return real(engine, steps, *args, **kwargs)

    monkeypatch.setattr(runner, "run_steps", interrupted)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["run", str(folder), "-q", *options])
    assert result.exit_code == 130
    kept = "every stage that had finished is kept" if "--db" in options else "a run without --db keeps nothing"
    assert kept in result.stderr
