"""Running one command as a user would and measuring it: wall and CPU seconds and that process's peak RSS."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Measured:
    seconds: float
    peak_mib: float  # ru_maxrss of this one process (wait4), not a running maximum over children
    stderr: str = ""  # what it printed there (dedup's summary: candidates, stage seconds)
    cpu_seconds: float = 0.0  # user + system CPU of this one process (wait4): what a shared machine inflates least


def run_measured(command: list[str], env: Mapping[str, str] | None = None) -> Measured:
    """Run `command` to the end; exit with its stderr if it fails."""
    clock = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - clock
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{command[0]} failed ({process.returncode}): {errors.decode(errors='replace')}")
    cpu = usage.ru_utime + usage.ru_stime
    return Measured(seconds, usage.ru_maxrss / 1024, errors.decode(errors="replace"), cpu)
