"""The commands of the README and docs/reference.md work and show real output."""

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
    assert install_and_test.endswith('pytest -m "not slow" && pytest -m slow')
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


def test_quickstart_summary_figures_are_what_a_run_prints(monkeypatch):
    """Every figure of the README's summary block but the seconds, which vary by machine."""
    monkeypatch.chdir(REPO)
    command = quickstart_commands()[0].split("&& ")[-1].split()
    result = CliRunner().invoke(app, command[1:])
    readme = (REPO / "README.md").read_text()
    shown = readme.split("## Quickstart")[1].split("and a summary on stderr:\n\n```\n")[1].split("```")[0]

    def figures(text: str) -> list[str]:
        lines = []
        for line in text.splitlines():
            words = line.split()
            if (
                words
                and words[0]
                in ("read", "documents", "shingles", "signatures", "band_hashes", "copies")
                + (
                    "candidates",
                    "verified",
                    "pairs",
                    "total",
                )
                and len(words) <= 3
                and not line.startswith(("documents:", "shingles:"))
            ):
                words = words[:-1]  # the seconds
            if line.startswith("memory: "):  # the process's peak and DuckDB's default limit: this machine's
                words = words[:1]
            lines.append(" ".join(words))
        return lines

    logged = "".join(line for line in result.stderr.splitlines(keepends=True) if not line.startswith("finished "))
    assert figures(logged) == figures(shown)


def index_section_commands() -> list[tuple[str, str]]:
    """($ command, shown output) from the console blocks of the reference's index section."""
    readme = (REPO / "docs" / "reference.md").read_text()
    section = readme.split("## Index, clusters and exports")[1].split("\n## ")[0]
    steps = []
    for block in re.findall(r"```console\n(.+?)```", section, flags=re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, shown = chunk.partition("\n")
            steps.append((command, shown))
    return steps


def test_index_section_shows_real_output(tmp_path, monkeypatch):
    import shlex

    (tmp_path / "data").symlink_to(REPO / "data")
    monkeypatch.chdir(tmp_path)
    steps = index_section_commands()
    assert len(steps) >= 12
    for command, shown in steps:
        words = shlex.split(command)
        pipe = None
        if "|" in words:  # only `... | head -N` or `... | tail -N`
            words, pipe = words[: words.index("|")], words[words.index("|") + 1 :]
            assert pipe[0] in ("head", "tail"), command
        if words[0] == "cat":
            output = (tmp_path / words[1]).read_text()
        elif words[0] == "head":
            output = "".join((tmp_path / words[2]).read_text().splitlines(keepends=True)[: int(words[1][1:])])
        else:
            assert words[0] == "dedup", command
            result = CliRunner().invoke(app, words[1:])
            assert result.exit_code == 0, (command, result.stderr)
            output = result.stdout
        if pipe is not None:
            lines, n = output.splitlines(keepends=True), int(pipe[1][1:])
            output = "".join(lines[:n] if pipe[0] == "head" else lines[-n:])
        assert output == shown, command
