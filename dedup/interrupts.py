"""Ctrl-C that stops a running engine statement at once.

Python runs a SIGINT handler only between bytecodes, and DuckDB polls for pending signals only
between tasks, which can be seconds apart in a big aggregate. A wakeup file descriptor is
written by the C-level handler the moment the signal arrives; a watcher thread reading it calls
`interrupt()` on the engine, which DuckDB honours within milliseconds. The Python handler
still raises KeyboardInterrupt, so pure-Python phases (reading files) stop too.

One Ctrl-C can thus surface twice: as the engine's interruption, and as the Python handler's
KeyboardInterrupt, which runs whenever the main thread next executes Python, possibly after the
first one was handled (while the error is printed). So once a SIGINT has arrived, the block
leaves SIGINT ignored: the command is ending with exit 130 anyway, and a late duplicate must not
turn its one-line error into a traceback.

SIGTERM (a `kill`, a job scheduler stopping the command), SIGHUP (a closed terminal, a dropped SSH
session) and SIGUSR1/SIGUSR2 are handled as Ctrl-C is (dedup.errors.STOPPING), so that a run's
temporary database is removed and an open transaction rolled back; the command then exits 128 +
the signal's number (143 for SIGTERM, 129 for SIGHUP).

A command that changes an index calls `committing()` once the change is complete, just before its
commit: from then on Ctrl-C and SIGTERM are ignored, so a change that was saved is never reported
as interrupted (exit 130) and one that was reported so was rolled back.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .engines import Engine
from .errors import STOPPING, signal_held

Attach = Callable[[Engine], None]
STOP = b"\xff"
received_signals: list[int] = []  # the stopping signals this process received, in order
_committing = threading.Event()
_watching: list[bool] = []  # one entry per open interrupt_on_sigint block


def exit_code(default: int = 130) -> int:
    """A stopped command's exit code, as a shell reports a signal: 128 + its number."""
    return 128 + received_signals[0] if received_signals else default


def committing() -> None:
    """From here on the command completes: Ctrl-C and SIGTERM are ignored (in the main thread of a
    command inside interrupt_on_sigint; a library caller's own handlers are left alone)."""
    if not _watching or threading.current_thread() is not threading.main_thread():
        return
    _committing.set()
    for number in STOPPING:
        signal.signal(number, signal.SIG_IGN)


@contextmanager
def interrupt_on_sigint() -> Iterator[Attach]:
    """Yield `attach(engine)`: while the block runs, SIGINT interrupts the attached engines."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda engine: None
        return
    engines: list[Engine] = []
    received = threading.Event()
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)

    def watch() -> None:
        while True:
            data = os.read(read_end, 1)
            if not data or data == STOP:
                return
            received.set()
            for engine in engines:
                engine.interrupt()  # never fails, even when closed already

    def on_sigint(signum: int, frame: object) -> None:
        received.set()
        received_signals.append(signum)
        if not signal_held(signum):
            raise KeyboardInterrupt

    watcher = threading.Thread(target=watch, name="dedup-sigint", daemon=True)
    previous_fd = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    previous_handlers = {number: signal.signal(number, on_sigint) for number in STOPPING}
    watcher.start()
    _watching.append(True)
    try:
        yield engines.append
    finally:
        _watching.pop()
        ignore = received.is_set() or _committing.is_set()
        _committing.clear()
        for number, handler in previous_handlers.items():
            signal.signal(number, signal.SIG_IGN if ignore else handler)
        signal.set_wakeup_fd(previous_fd)
        os.write(write_end, STOP)
        watcher.join()
        engines.clear()
        os.close(read_end)
        os.close(write_end)
