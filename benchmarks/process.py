"""Running one command as a user would and measuring it: wall and CPU seconds and that process's peak RSS."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Measured:
    seconds: float
    peak_mib: float  # ru_maxrss of the command's process (wait4 in the launcher below)
    stderr: str = ""  # what it printed there (dedup's summary: candidates, stage seconds)
    cpu_seconds: float = 0.0  # user + system CPU of the command's process (wait4): what a shared machine inflates least


# The command runs as the child of a small launcher that reports the child's own rusage. Linux
# carries a process's peak RSS across exec (the peak of the memory it replaced): a command
# started straight from this process (vfork, then exec) would report as its peak this process's
# own, e.g. the 7.0 GiB of bench.py generating the 10M corpus before it ran a dedup that peaked
# at 3.5 GiB. The launcher's child starts from the launcher's few MiB; its wall time is timed
# there too, so the launcher's own start-up is not counted.
LAUNCHER = """
import json, os, subprocess, sys, time
clock = time.perf_counter()
child = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
seconds = time.perf_counter() - clock
with open(sys.argv[1], "w") as out:
    json.dump([seconds, usage.ru_maxrss, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)], out)
"""


def run_measured(command: list[str], env: Mapping[str, str] | None = None) -> Measured:
    """Run `command` to the end; exit with its stderr if it fails."""
    with tempfile.TemporaryDirectory(prefix="measured-") as folder:
        report = Path(folder) / "usage.json"
        launcher = [sys.executable, "-c", LAUNCHER, str(report), *command]
        process = subprocess.Popen(launcher, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert process.stderr is not None
        errors = process.stderr.read()
        process.wait()
        if process.returncode != 0 or not report.exists():
            raise SystemExit(f"{command[0]} could not be run: {errors.decode(errors='replace')}")
        seconds, maxrss_kib, cpu, returncode = json.loads(report.read_text())
    if returncode != 0:
        raise SystemExit(f"{command[0]} failed ({returncode}): {errors.decode(errors='replace')}")
    return Measured(seconds, maxrss_kib / 1024, errors.decode(errors="replace"), cpu)
