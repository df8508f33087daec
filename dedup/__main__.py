"""`python -m dedup`: the command line."""

import sys

try:
    from .cli import app

    app(prog_name="dedup")
except KeyboardInterrupt:  # Ctrl-C while the command line loads, before a command handles it
    print("Error: interrupted", file=sys.stderr)
    sys.exit(130)
