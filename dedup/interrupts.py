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
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .engine import Engine

Attach = Callable[[Engine], None]
STOP = b"\xff"


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
        raise KeyboardInterrupt

    watcher = threading.Thread(target=watch, name="dedup-sigint", daemon=True)
    previous_fd = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    previous_handler = signal.signal(signal.SIGINT, on_sigint)
    watcher.start()
    try:
        yield engines.append
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN if received.is_set() else previous_handler)
        signal.set_wakeup_fd(previous_fd)
        os.write(write_end, STOP)
        watcher.join()
        engines.clear()
        os.close(read_end)
        os.close(write_end)
