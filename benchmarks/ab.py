"""Two commands timed side by side, in alternating order: the medians of each one's wall seconds,
CPU seconds and peak RSS, and the medians of the pairwise ratios A/B (each round runs A then B, or
B then A, so that a slow moment of the machine falls on both). A command is one shell line
(`sh -c`), so it may remove the database of the last round first. The machine should be quiet
(`uptime` is printed first): a job started from another shell shares the cores even under nice.

    python benchmarks/ab.py -n 5 \\
        --a 'rm -f /tmp/a.duckdb; dedup run corpus.parquet --db /tmp/a.duckdb -q --pairs none' \\
        --b 'rm -f /tmp/b.duckdb; cd /tmp/base && python -m dedup run corpus.parquet --db /tmp/b.duckdb -q --pairs none'

(`git worktree add /tmp/base <rev>` gives the revision to compare with; run from /tmp/base, its
`python -m dedup` imports that revision's package.)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from process import Measured, run_measured  # noqa: E402


def rounds(a: str, b: str, n: int, warmup: int) -> list[tuple[Measured, Measured]]:
    """n measured rounds of both commands (after `warmup` unmeasured ones), the order alternating."""
    for _ in range(warmup):
        run_measured(["sh", "-c", a])
        run_measured(["sh", "-c", b])
    measured = []
    for number in range(n):
        if number % 2 == 0:
            first = run_measured(["sh", "-c", a])
            second = run_measured(["sh", "-c", b])
            measured.append((first, second))
        else:
            second = run_measured(["sh", "-c", b])
            first = run_measured(["sh", "-c", a])
            measured.append((first, second))
    return measured


def summary(measured: list[tuple[Measured, Measured]]) -> list[str]:
    lines = [
        f"{'':10} {'A median':>10} {'B median':>10} {'A/B':>7}  (n {len(measured)}; A/B: median of the pairs' ratios)"
    ]
    for label, value in (
        ("wall s", lambda m: m.seconds),
        ("CPU s", lambda m: m.cpu_seconds),
        ("peak MiB", lambda m: m.peak_mib),
    ):
        a = statistics.median(value(pair[0]) for pair in measured)
        b = statistics.median(value(pair[1]) for pair in measured)
        ratio = statistics.median(value(pair[0]) / value(pair[1]) for pair in measured if value(pair[1]) > 0)
        lines.append(f"{label:10} {a:10.3f} {b:10.3f} {ratio:7.3f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, help="command A, one shell line")
    parser.add_argument("--b", required=True, help="command B, one shell line")
    parser.add_argument("-n", type=int, default=5, help="measured rounds (default 5)")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured rounds first (default 1)")
    args = parser.parse_args()
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    for line in summary(rounds(args.a, args.b, args.n, args.warmup)):
        print(line)


if __name__ == "__main__":
    main()
