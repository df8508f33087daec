"""`python -m dedup` and the `dedup` command: the command line (also the entry point
`spark-submit .../dedup/__main__.py run ...`).

Ctrl-C at any moment ends the command with "Error: interrupted" and exit 130, or, once the
command has finished, changes nothing. A running `dedup run` handles it itself (it interrupts
the engine, see `dedup.interrupts`); everywhere else, from loading the modules to the last line
of the summary, `interrupted` below does. After the command, SIGINT is ignored: Python puts back
the default action while it shuts down, and a Ctrl-C then would kill a finished run (exit -2).
"""

import os
import signal


def main() -> None:
    signal.signal(signal.SIGINT, interrupted)
    try:
        from dedup.cli import app  # absolute, so that `spark-submit .../dedup/__main__.py run ...` works too

        app(prog_name="dedup")
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def interrupted(signum: int, frame: object) -> None:
    """Outside a run's engine: one line and exit 130; the first Ctrl-C only."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.write(2, b"Error: interrupted\n")  # not sys.stderr: the signal may land inside one of its writes
    raise SystemExit(130)


if __name__ == "__main__":
    main()
