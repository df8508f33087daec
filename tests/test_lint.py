"""The code stays as STYLE.md asks: ruff (lint and format) and mypy pass on the whole tree, and
the imports keep the contracts of pyproject.toml (import-linter: the layers of ARCHITECTURE.md,
pyspark only inside dedup.engines, the corpus only through its __init__)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

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


def contract(name: str) -> dict:
    """An import-linter contract of pyproject.toml, by its name."""
    contracts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    return next(item for item in contracts["contracts"] if item["name"] == name)


def modules(package: Path) -> set[str]:
    """The modules and packages directly inside a package folder, by their dotted names."""
    dotted = ".".join(package.relative_to(REPO).parts)
    found = {path.stem for path in package.glob("*.py") if path.stem != "__init__"}
    found |= {path.name for path in package.iterdir() if (path / "__init__.py").is_file()}
    return {f"{dotted}.{name}" for name in found}


def test_the_contracts_name_every_module_of_the_folders_they_guard():
    """A forbidden-imports contract lists every module of the folders it guards, so that a module
    added to a folder is guarded from its first commit."""
    corpus = contract("The corpus only through its __init__")
    assert set(corpus["forbidden_modules"]) == modules(REPO / "dedup" / "corpus")
    assert set(corpus["source_modules"]) == modules(REPO / "dedup") - {"dedup.corpus"}
    spark = contract("pyspark's engine only from inside dedup.engines")
    assert set(spark["source_modules"]) == modules(REPO / "dedup") - {"dedup.engines"}
