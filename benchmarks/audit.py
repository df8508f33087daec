"""The cost of `dedup audit` (issue #52's targets): an exact search of a sample against an index.

    python benchmarks/audit.py                     # every target below
    python benchmarks/audit.py --only short        # one of them
    python benchmarks/audit.py --check             # exactness against --method exact instead

For each target: the index is built once (`dedup run ... --db`, kept in benchmarks/work/), then
`dedup audit DB --sample N --seed 1` is timed as a user runs it (median of --repeat; wall and CPU
seconds, peak RSS of the process). Printed: the sample, the true and found pairs, the recall and
its interval, and the costs.

--check compares the audit with the exact truth on the corpora at hand (the bundled sample, the
shared corpora, Python's standard library, the short and medium workloads): a run by --method
exact gives every pair; the audit's true pairs must be those touching the sample, its found pairs
those of them the index holds, its missed pairs the rest, with the same Jaccard.
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


REPO = Path(__file__).resolve().parent.parent
BANDS = ["--bands", "8", "--rows", "16"]
CHECKED = {  # name -> (input, run options, the index's banding, sample)
    "clough t0.5": (REPO / "data" / "clough", ["-t", "0.5"], [], 100),
    "clough t0.5, 8x16 bands": (REPO / "data" / "clough", ["-t", "0.5"], BANDS, 100),
    "textreuse legal word3 t0.2": (
        REPO / "tests" / "corpora" / "textreuse" / "legal",
        ["--shingle-type", "word", "-k", "3", "-t", "0.2"],
        [],
        1_000,
    ),
    "stdlib word5 t0.5": (None, ["--shingle-type", "word", "-k", "5", "-t", "0.5"], [], 500),
    "short char5 t0.8": ("short", ["-k", "5"], [], 2_000),
    "short char5 t0.8, 8x16 bands": ("short", ["-k", "5"], BANDS, 2_000),
    "medium char5 t0.8": ("medium", ["-k", "5"], [], 2_000),
}


def pairs_of(path: Path) -> dict[tuple[str, str], float]:
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    return {
        tuple(sorted((str(a), str(b)))): j  # type: ignore[misc]
        for a, b, j in zip(*(table.column(c).to_pylist() for c in ("id_a", "id_b", "jaccard")), strict=True)
    }


def check() -> None:
    import tempfile

    print("| corpus | documents | sample | true pairs | found | missed | agrees with --method exact |")
    print("|---|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory(prefix="audit-check-") as folder:
        for name, (source, options, banding, sample) in CHECKED.items():
            if source is None:
                source = workloads.python_stdlib(WORK)
            elif isinstance(source, str):
                source = workloads.write(workloads.WORKLOADS[source], WORK)
            truth_file, found_file, db = (Path(folder) / n for n in ("truth.parquet", "found.parquet", "i.duckdb"))
            db.unlink(missing_ok=True)
            run = ["dedup", "run", str(source), *options, "-q"]
            subprocess.run([*run, "--method", "exact", "-o", str(truth_file)], check=True)
            subprocess.run([*run, *banding, "--db", str(db), "-o", str(found_file)], check=True)
            audit = ["dedup", "audit", str(db), "--sample", str(sample), "--seed", "1", "--format", "json"]
            result = json.loads(subprocess.run(audit, check=True, capture_output=True, text=True).stdout)
            truth, found = pairs_of(truth_file), set(pairs_of(found_file))
            sampled = {str(i) for i in result["sample"]}
            touching = {pair: j for pair, j in truth.items() if sampled & set(pair)}
            missed = {tuple(sorted((str(m["id_a"]), str(m["id_b"])))): m["jaccard"] for m in result["missed"]}
            agrees = (
                result["true_pairs"] == len(touching)
                and result["found_pairs"] == len(set(touching) & found)
                and missed == {pair: touching[pair] for pair in set(touching) - found}
                and result["extra"] == 0
            )
            print(
                f"| {name} | {result['documents']:,} | {len(sampled):,} | {result['true_pairs']:,} | "
                f"{result['found_pairs']:,} | {len(missed):,} | {'yes' if agrees else 'NO'} |",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", action="append", default=[], help="Targets whose name starts with this.")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="Exactness against --method exact, not costs.")
    args = parser.parse_args()
    if args.check:
        check()
        return
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
