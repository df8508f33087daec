"""Usage mistakes are one `Error:` line (exit 2); help shows flags, defaults and choices plainly."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from dedup.cli import app


@pytest.mark.parametrize(
    "args,message",
    [
        (["run", "data", "--thresold", "0.5"], "No such option: --thresold"),
        (["runn"], "No such command 'runn'"),
        (["run", "data", "--threshold", "abc"], "Invalid value for '--threshold'"),
        (["query"], "Missing argument"),
        # said "--db is for the DuckDB engine" (the temporary database of the copy), unasked
        (
            ["run", "data/clough", "--engine", "spark", "--write-deduplicated", "copy"],
            "--write-deduplicated is not supported with --engine spark yet",
        ),
        # a negative count listed no sample (or every shingle, for explain), exit 0
        (["buckets", "x.duckdb", "--samples", "-1"], "Invalid value for '--samples': -1 is not in the range x>=0"),
        (["buckets", "x.duckdb", "--top", "-1"], "Invalid value for '--top': -1 is not in the range x>=0"),
        (["explain", "x.duckdb", "a", "b", "--examples", "-1"], "Invalid value for '--examples'"),
    ],
)
def test_a_usage_mistake_is_one_error_line(args, message):
    done = subprocess.run([sys.executable, "-m", "dedup", *args], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("Error: ") and message in done.stderr
    assert done.stderr.count("\n") == 1 and "╭" not in done.stderr


def test_help_shows_flags_without_values_and_every_default():
    text = " ".join(CliRunner().invoke(app, ["run", "--help"], terminal_width=80).stdout.split())
    assert "<bool>" not in text
    assert "--quiet" in text and "--lines" in text
    assert "[default: id, or the row number if absent]" in text
    assert "[default: text]" in text
    assert "<lsh|signature|exact>" in text  # choices on one line, never cut mid-word
