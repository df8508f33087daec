"""The README's commands work and show real output."""

from __future__ import annotations

import re

from conftest import REPO
from typer.testing import CliRunner

from dedup.cli import app


def quickstart_commands() -> list[str]:
    readme = (REPO / "README.md").read_text()
    section = readme.split("## Quickstart")[1].split("\n## ")[0]
    return re.findall(r"```bash\n(.+?)\n```", section)


def test_quickstart_has_two_commands_and_ci_runs_the_test_command():
    install_and_run, install_and_test = quickstart_commands()
    assert "pip install ." in install_and_run and "dedup run data/clough" in install_and_run
    assert install_and_test.endswith("pytest")
    assert install_and_test in (REPO / ".ci" / "run").read_text().splitlines()


def test_quickstart_output_is_what_the_readme_shows(monkeypatch):
    monkeypatch.chdir(REPO)
    command = quickstart_commands()[0].split("&& ")[-1].split()
    result = CliRunner().invoke(app, command[1:])
    assert result.exit_code == 0
    readme = (REPO / "README.md").read_text()
    shown = readme.split("## Quickstart")[1].split("\n```\nid_a")[1].split("```")[0]
    shown = "id_a" + shown
    assert result.stdout == shown
