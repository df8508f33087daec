"""`dedup params`: banding, S-curve table, error areas, plot."""

from __future__ import annotations

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
