"""Index upkeep on a web-shaped index: add, remove, report, clusters and export on `copies-1m`.

    python benchmarks/index_upkeep.py                       # this checkout's dedup
    python benchmarks/index_upkeep.py --vs "env PYTHONPATH=/path/to/old/checkout dedup"

Builds the index once (`dedup run copies-1m-seed7.parquet -k 5 -t 0.8 --memory-limit 2GB
--pairs none -q --db ...`, under benchmarks/work/, ignored by git), then times each command as a user runs it, each on a
fresh copy of the index, for every dedup given, alternating, and prints the median wall seconds
and peak RSS of each. The 3 added documents are a copy of the largest group's text (4,919
copies), a near copy of another document and a new text; the 3 removed ids are two copies of the
largest group and one added document.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parent))
import workloads  # noqa: E402
from process import run_measured  # noqa: E402

WORK = Path(__file__).resolve().parent / "work"


def measured(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (GiB) of one process (benchmarks/process.py: its own peak, not
    this script's)."""
    run = run_measured(command)
    return run.seconds, run.peak_mib / 2**10


def added_documents(db: Path, path: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    largest = con.execute("select text from documents group by text order by count(*) desc, text limit 1").fetchone()
    other = con.execute("select text from documents where doc_id = 500000").fetchone()
    con.close()
    assert largest is not None and other is not None
    rows = [
        {"id": "new-1", "text": largest[0]},
        {"id": "new-2", "text": other[0] + " extra"},
        {"id": "new-3", "text": "a completely fresh document about nothing in particular at all"},
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--vs", action="append", default=[], help="Another dedup command to time beside this one.")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    WORK.mkdir(exist_ok=True)
    data = workloads.write(workloads.WORKLOADS["copies-1m"], WORK)
    base = WORK / "copies-1m-index.duckdb"
    if not base.exists():
        built = WORK / "copies-1m-building.duckdb"
        built.unlink(missing_ok=True)
        options = ["-k", "5", "-t", "0.8", "--memory-limit", "2GB", "--pairs", "none", "-q"]
        run = ["dedup", "run", str(data), *options, "--db", str(built)]
        print(f"building the index: {shlex.join(run)}", file=sys.stderr)
        subprocess.run(run, check=True)
        built.rename(base)
    added = WORK / "added.jsonl"
    added_documents(base, added)
    db = WORK / "copies-1m-work.duckdb"
    commands = {
        "add 3 documents": ["add", str(db), str(added), "-q"],
        "remove 3 ids": ["remove", str(db), "copies-1m-0000000", "copies-1m-0000001", "new-3"],
        "report": ["report", str(db), "-o", str(WORK / "report.html")],
        "clusters --keep longest": ["clusters", str(db), "--keep", "longest", "--format", "csv"],
        "export adjacency .json": ["export", str(db), "--what", "adjacency", "--output", str(WORK / "similar.json")],
    }
    systems = {"this": ["dedup"], **{f"vs{i + 1}": shlex.split(vs) for i, vs in enumerate(args.vs)}}
    figures: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for _ in range(args.repeat):
        for system, dedup in systems.items():  # alternating, so the machine's load falls on both alike
            shutil.copyfile(base, db)
            for name, command in commands.items():  # remove follows add: it removes an added id too
                figures.setdefault((name, system), []).append(measured([*dedup, *command]))
    db.unlink(missing_ok=True)
    print(f"median of {args.repeat}; " + "; ".join(f"{s} = {shlex.join(c)}" for s, c in systems.items()))
    print("| command | " + " | ".join(f"{s} wall s | {s} peak GiB" for s in systems) + " |")
    print("|---|" + "---:|---:|" * len(systems))
    for name in commands:
        cells = []
        for system in systems:
            runs = figures[(name, system)]
            cells += [f"{statistics.median(r[0] for r in runs):.2f}", f"{statistics.median(r[1] for r in runs):.2f}"]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
