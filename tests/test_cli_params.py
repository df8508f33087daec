"""`dedup params`: banding, S-curve table, error areas, plot."""

from __future__ import annotations

import duckdb
import pytest
from typer.testing import CliRunner

from dedup.banding import detection_probability, error_areas
from dedup.cli import app


def test_error_areas_of_the_identity_curve():
    # one band of one row: P(s) = s, so the areas are t^2/2 and (1-t)^2/2
    false_positive, false_negative = error_areas(0.6, 1, 1)
    assert false_positive == pytest.approx(0.18, abs=1e-6)
    assert false_negative == pytest.approx(0.08, abs=1e-6)


def test_params_prints_the_default_banding_and_curve():
    result = CliRunner().invoke(app, ["params", "--threshold", "0.8", "--num-perm", "128"])
    assert result.exit_code == 0, result.output
    assert "21 bands x 6 rows (126 used)" in result.stdout
    assert f"{detection_probability(0.8, 21, 6):.6f}" in result.stdout
    assert f"{0.5:10.3f}  {detection_probability(0.5, 21, 6):12.6f}" in result.stdout
    assert result.stdout.count("<- threshold") == 1


def test_params_with_given_banding_and_bad_values():
    result = CliRunner().invoke(app, ["params", "-t", "0.5", "--bands", "32", "--rows", "4"])
    assert result.exit_code == 0 and "32 bands x 4 rows" in result.stdout
    bad = CliRunner().invoke(app, ["params", "--bands", "5", "--rows", "5"])
    assert bad.exit_code == 2 and "Error: --bands 5 x --rows 5" in bad.output
    assert CliRunner().invoke(app, ["params", "--step", "0"]).exit_code == 2


def test_params_plot(tmp_path):
    target = tmp_path / "curve.png"
    result = CliRunner().invoke(app, ["params", "--plot", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "cannot tell the plot format of .: use one of .pdf, .png, .svg"),  # drew ./.png, said "drawn to ."
        ("notes.csv", "cannot tell the plot format of {tmp}/notes.csv: use one of .pdf, .png, .svg"),  # a traceback
        ("missing/curve.png", "folder of the output file does not exist: {tmp}/missing"),
        ("index.png", "--plot {tmp}/index.png is a DuckDB database; an output never replaces one: give another file"),
    ],
)
def test_a_plot_that_cannot_be_written_is_refused_and_nothing_is_drawn(tmp_path, monkeypatch, name, message):
    """`--plot` by extension only: a name without one drew a hidden `.png` and said it drew `.`;
    `--plot notes.csv` stopped in a matplotlib traceback; a database named .png was replaced."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.csv").write_text("a,b\n")
    duckdb.connect(str(tmp_path / "index.png")).close()
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    target = name if name == "" else str(tmp_path / name)
    result = CliRunner().invoke(app, ["params", "--plot", target])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"Error: {message.replace('{tmp}', str(tmp_path))}\n"
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_params_plot_as_svg_replaces_an_old_drawing(tmp_path):
    target = tmp_path / "curve.svg"
    target.write_text("old")
    result = CliRunner().invoke(app, ["params", "--plot", str(target)])
    assert result.exit_code == 0, result.output
    assert b"<svg" in target.read_bytes() and [p.name for p in tmp_path.iterdir()] == ["curve.svg"]
