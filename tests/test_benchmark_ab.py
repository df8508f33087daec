"""benchmarks/ab.py, the repository's own side-by-side timing of two commands (results.md cites it)."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO


def test_two_commands_timed_side_by_side_give_their_medians_and_ratios():
    done = subprocess.run(
        [sys.executable, REPO / "benchmarks" / "ab.py", "-n", "2", "--warmup", "0", "--a", "sleep 0.4", "--b", "true"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert "load average" in lines[0] and "n 2" in lines[1]
    wall = lines[2].split()
    assert wall[:2] == ["wall", "s"] and float(wall[2]) >= 0.4 > float(wall[3]) and float(wall[4]) > 2
    assert [line.split()[0] for line in lines[3:]] == ["CPU", "peak"]
