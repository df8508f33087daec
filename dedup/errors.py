"""Errors that reach users as one line, never as a traceback."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

# The signals that stop a command as Ctrl-C does (rolled back, temporary files removed, one line,
# exit 128 + the signal's number): SIGINT, SIGTERM (kill, a scheduler), SIGHUP (a closed terminal
# or a dropped SSH session) and SIGUSR1/SIGUSR2, whose default action also ends the process.
STOPPING = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2") if hasattr(signal, name)
)

_held: list[list[int]] = []  # one list per open stopping_signals_held block: the signals it held


@contextmanager
def stopping_signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block ends, then stop the command (KeyboardInterrupt).
    For a native module's import: dedup's handler (dedup.interrupts) raised KeyboardInterrupt
    inside duckdb's module initialization, which calls back into Python, and nanobind aborted the
    process ("Critical nanobind error", exit -6 instead of 130). The handler asks signal_held."""
    held: list[int] = []
    _held.append(held)
    try:
        yield
    finally:
        _held.pop()
    if held:
        raise KeyboardInterrupt


def signal_held(signum: int) -> bool:
    """Whether a stopping signal that just arrived waits for a stopping_signals_held block to end."""
    if not _held:
        return False
    _held[-1].append(signum)
    return True


def first_line(error: BaseException) -> str:
    """The first line of an error's message (its type's name when it has none): what a user sees."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


class DedupError(Exception):
    """A failure the user can act on; the CLI prints `Error: <message>` and exits 1."""

    exit_code = 1


class UsageError(DedupError):
    """Wrong options or arguments; the CLI exits 2 like any other usage error."""

    exit_code = 2


class InputError(DedupError):
    """Input that cannot be read as documents (missing column, duplicate ids, ...)."""


class Interrupted(DedupError):
    """Ctrl-C (SIGINT): the stage in progress was rolled back; the CLI exits 130 like a shell."""

    exit_code = 130


class EngineError(DedupError):
    """A statement the engine could not run (out of memory or disk, a bad query): its first line."""

    def __init__(self, message: str, *, out_of_space: bool = False) -> None:
        super().__init__(message)
        self.out_of_space = out_of_space
