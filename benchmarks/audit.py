"""The cost of `dedup audit` (issue #52's targets): an exact search of a sample against an index.

    python benchmarks/audit.py                     # every target below
    python benchmarks/audit.py --only short        # one of them

For each target: the index is built once (`dedup run ... --db`, kept in benchmarks/work/), then
`dedup audit DB --sample N --seed 1` is timed as a user runs it (median of --repeat; wall and CPU
seconds, peak RSS of the process). Printed: the sample, the true and found pairs, the recall and
its interval, and the costs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import workloads  # noqa: E402
from process import run_measured  # noqa: E402

WORK = Path(__file__).resolve().parent / "work"

# name -> (workload, sample, run options, audit options)
TARGETS = {
    "short": ("short", 5_000, ["-k", "5"], []),
    "reviews-100k": ("reviews-100k", 10_000, ["--shingle-type", "word", "-k", "5", "--memory-limit", "4GB"], []),
    "copies-1m": ("copies-1m", 1_000, ["-k", "5", "--memory-limit", "2GB"], ["--memory-limit", "2GB"]),
}


def index(name: str, workload: str, options: list[str]) -> Path:
    db = WORK / f"audit-{name}.duckdb"
    if not db.exists():
        source = workloads.write(workloads.WORKLOADS[workload], WORK)
        subprocess.run(["dedup", "run", str(source), *options, "--db", str(db), "--pairs", "none", "-q"], check=True)
    return db


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", action="append", default=[], help="Targets whose name starts with this.")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"dedup audit DB --sample N --seed 1; median of {args.repeat}")
    print("| index | documents | sample | true pairs | found | recall (95 % Wilson) | wall s | CPU s | peak MiB |")
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|")
    for name, (workload, sample, options, audit_options) in TARGETS.items():
        if args.only and not any(name.startswith(o) for o in args.only):
            continue
        db = index(name, workload, options)
        command = ["dedup", "audit", str(db), "--sample", str(sample), "--seed", "1", "--format", "json"]
        command += audit_options
        measured = [run_measured(command) for _ in range(args.repeat)]
        result = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
        low, high = result["recall_low"], result["recall_high"]
        print(
            f"| {name} | {result['documents']:,} | {len(result['sample']):,} | {result['true_pairs']:,} | "
            f"{result['found_pairs']:,} | {result['recall']:.4f} ({low:.4f}-{high:.4f}) | "
            f"{statistics.median(m.seconds for m in measured):.2f} | "
            f"{statistics.median(m.cpu_seconds for m in measured):.2f} | "
            f"{max(m.peak_mib for m in measured):,.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
