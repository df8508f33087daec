"""`python -m dedup` and the `dedup` command: the command line (also the entry point
`spark-submit .../dedup/__main__.py run ...`).

Ctrl-C at any moment ends the command with "Error: interrupted" and exit 130, or, once the
command has finished, changes nothing. A running `dedup run` handles it itself (it interrupts
the engine, see `dedup.interrupts`); everywhere else, from loading the modules to the last line
of the summary, `interrupted` below does. After the command, SIGINT is ignored: Python puts back
the default action while it shuts down, and a Ctrl-C then would kill a finished run (exit -2).
"""

import errno
import os
import signal


def main() -> None:
    from dedup.errors import STOPPING  # a small module: signals are handled before the rest loads

    for number in STOPPING:  # SIGTERM, SIGHUP, ... unwind too: temporary databases are removed
        signal.signal(number, interrupted)
    from dedup import pandas_free

    pandas_free.refuse()  # before anything builds an Arrow value: dedup never uses pandas
    try:
        from dedup.cli import app  # absolute, so that `spark-submit .../dedup/__main__.py run ...` works too

        app(prog_name="dedup")
    except MemoryError:  # e.g. an endless stream given as input: one line, never a traceback
        os.write(2, b"Error: out of memory (an input larger than memory, or an endless stream such as a pipe?)\n")
        raise SystemExit(1) from None
    except OSError as error:
        if error.errno != errno.ENAMETOOLONG:
            raise
        # a path checked before any work (`Path.exists` raises on a name the file system cannot hold)
        from dedup.names import NAME_MAX

        name = os.fsencode(str(error.filename))
        os.write(2, f"Error: file name too long (a name holds at most {NAME_MAX} bytes): ".encode() + name + b"\n")
        raise SystemExit(2) from None
    finally:
        for number in STOPPING:
            signal.signal(number, signal.SIG_IGN)


def interrupted(signum: int, frame: object) -> None:
    """Outside a run's engine: one line and exit 130 (Ctrl-C) or 128 + n (signal n); the first signal only."""
    from dedup.errors import STOPPING

    for number in STOPPING:
        signal.signal(number, signal.SIG_IGN)
    word = b"interrupted" if signum == signal.SIGINT else b"terminated"
    try:
        os.write(2, b"Error: " + word + b"\n")  # not sys.stderr: the signal may land inside one of its writes
    except OSError:  # a hung-up terminal
        pass
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    main()
