"""The code stays as STYLE.md asks: ruff (lint and format) and mypy pass on the whole tree."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import REPO

CHECKS = {
    "ruff check": ["ruff", "check", "dedup", "benchmarks", "tests"],
    "ruff format": ["ruff", "format", "--check", "dedup", "benchmarks", "tests"],
    "mypy": ["mypy", "dedup"],
}


@pytest.mark.parametrize("name", list(CHECKS))
def test_tree_passes(name):
    done = subprocess.run([sys.executable, "-m", *CHECKS[name]], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
