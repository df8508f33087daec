"""Survivors under both rules on every corpus at hand: what each keeps and drops, and what it costs.

    python benchmarks/survivors.py                      # the corpora below, this checkout's dedup
    python benchmarks/survivors.py --only chain-10k     # one of them

For each corpus: `dedup run ... --db` (the pairs), then `dedup clusters DB --resolve R --format csv`
under each rule, each timed as a user runs it (median of --repeat). Printed per corpus and rule:
documents dropped, dropped documents with no kept document >= the threshold among their verified
pairs (the verified rule's guarantee: must be 0 there), kept pairs (no two kept documents may be
a pair under the verified rule), the largest component, and the command's wall seconds. Only the
documented tables are read: `pairs` and `clusters`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parent))
import workloads  # noqa: E402
from process import run_measured  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORK = Path(__file__).resolve().parent / "work"
CORPORA_DIR = REPO / "tests" / "corpora"


def chain(folder: Path, n: int = 10_000) -> Path:
    """n lines, line i a pair of lines i - 1 and i + 1 only (20 words shifted by one: word
    5-shingles share 15 of 17 with the next line, 14 of 18 with the one after)."""
    path = folder / f"chain-{n}.txt"
    if not path.exists():
        rng = random.Random(7)
        words = [f"w{rng.randrange(10**9):09d}" for _ in range(n + 20)]
        path.write_text("".join(" ".join(words[i : i + 20]) + "\n" for i in range(n)))
    return path


def corpora(folder: Path) -> dict[str, tuple[Path, list[str]]]:
    """name -> (input, options of dedup run)."""
    word5 = ["--shingle-type", "word", "-k", "5"]
    return {
        "clough t0.5": (REPO / "data" / "clough", ["-t", "0.5"]),
        "clough word5 t0.5": (REPO / "data" / "clough", [*word5, "-t", "0.5"]),
        "textreuse legal word3 t0.2": (
            CORPORA_DIR / "textreuse" / "legal",
            ["--shingle-type", "word", "-k", "3", "-t", "0.2"],
        ),
        "textreuse ats word5 t0.1": (CORPORA_DIR / "textreuse" / "ats", [*word5, "-t", "0.1"]),
        "stdlib word5 t0.8": (workloads.python_stdlib(folder), word5),
        "stdlib word5 t0.5": (workloads.python_stdlib(folder), [*word5, "-t", "0.5"]),
        "short char5 t0.8": (workloads.write(workloads.WORKLOADS["short"], folder), ["-k", "5"]),
        "medium char5 t0.8": (workloads.write(workloads.WORKLOADS["medium"], folder), ["-k", "5"]),
        "long word5 t0.8": (workloads.write(workloads.WORKLOADS["long"], folder), word5),
        "chain-10k word5 t0.8": (chain(folder), ["--lines", *word5]),
        "copies-1m char5 t0.8": (
            workloads.write(workloads.WORKLOADS["copies-1m"], folder),
            ["-k", "5", "--memory-limit", "2GB"],
        ),
    }


FIGURES = """
with dropped as (select doc_id from clusters where not is_survivor),
kept as (select doc_id from clusters where is_survivor),
kept_near as (  -- documents with a kept document among their verified pairs
    select p.doc_id_a as doc_id from pairs as p semi join kept as k on k.doc_id = p.doc_id_b
    union
    select p.doc_id_b as doc_id from pairs as p semi join kept as k on k.doc_id = p.doc_id_a
)
select
    (select count(*) from clusters) as documents,
    (select count(*) from dropped) as dropped,
    (select count(*) from dropped as d anti join kept_near as n on n.doc_id = d.doc_id) as unjustified,
    (select count(*) from pairs as p
        semi join kept as a on a.doc_id = p.doc_id_a semi join kept as b on b.doc_id = p.doc_id_b) as kept_pairs,
    (select max(cluster_size) from clusters) as largest
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", action="append", default=[], help="Corpora whose name starts with this.")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", default="first")
    args = parser.parse_args()
    chosen = {
        name: corpus
        for name, corpus in corpora(WORK).items()
        if not args.only or any(name.startswith(o) for o in args.only)
    }
    print(f"--keep {args.keep}; clusters wall s: median of {args.repeat}")
    print(
        "| corpus | rule | documents | dropped | dropped, no kept pair | kept pairs | largest component | clusters s |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="survivors-") as folder:
        for name, (source, options) in chosen.items():
            db = Path(folder) / "run.duckdb"
            db.unlink(missing_ok=True)
            built = ["dedup", "run", str(source), *options, "--db", str(db), "--pairs", "none", "-q"]
            subprocess.run(built, check=True)
            for rule in ("components", "verified"):
                command = ["dedup", "clusters", str(db), "--keep", args.keep, "--resolve", rule, "--format", "csv"]
                seconds = []
                for _ in range(args.repeat):  # the other rule first each time: every timing rebuilds
                    other = "verified" if rule == "components" else "components"
                    subprocess.run(
                        [*command[:-4], "--resolve", other, "--format", "csv"], check=True, capture_output=True
                    )
                    seconds.append(run_measured(command).seconds)
                with duckdb.connect(str(db), read_only=True) as con:
                    documents, dropped, unjustified, kept_pairs, largest = con.execute(FIGURES).fetchone()
                print(
                    f"| {name} | {rule} | {documents:,} | {dropped:,} | {unjustified:,} | {kept_pairs:,} | "
                    f"{largest:,} | {statistics.median(seconds):.2f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
