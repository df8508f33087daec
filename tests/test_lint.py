"""The code stays as STYLE.md asks: ruff (lint and format) and mypy pass on the whole tree, and
the imports keep the contracts of pyproject.toml (import-linter: the layers of ARCHITECTURE.md,
pyspark only inside dedup.engines, the corpus only through its __init__)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import REPO

CHECKS = {
    "ruff check": ["ruff", "check", "dedup", "benchmarks", "tests"],
    "ruff format": ["ruff", "format", "--check", "dedup", "benchmarks", "tests"],
    "mypy": ["mypy", "dedup"],
    "import contracts": ["importlinter.cli"],
}


@pytest.mark.parametrize("name", list(CHECKS))
def test_tree_passes(name):
    command = CHECKS[name]
    if command == ["importlinter.cli"]:  # its console script, lint-imports, run by this Python
        command = ["-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"]
    else:
        command = ["-m", *command]
    done = subprocess.run([sys.executable, *command], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
