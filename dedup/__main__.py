"""`python -m dedup`: the command line (also the entry point `spark-submit .../dedup/__main__.py run ...`)."""

import sys

try:
    from dedup.cli import app  # absolute, so that `spark-submit .../dedup/__main__.py run ...` works too

    app(prog_name="dedup")
except KeyboardInterrupt:  # Ctrl-C while the command line loads, before a command handles it
    print("Error: interrupted", file=sys.stderr)
    sys.exit(130)
