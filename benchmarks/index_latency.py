"""Query latency and add-vs-rerun time on a generated index (default 100k documents).

    python benchmarks/index_latency.py --documents 100000 --added 1000

Writes its data to benchmarks/work/ (ignored by git) and prints the figures quoted in the README.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from corpora import planted_corpus  # noqa: E402

from dedup.engines.duckdb import DuckDBEngine  # noqa: E402
from dedup.index.similar import query_index  # noqa: E402

WORK = Path(__file__).resolve().parent / "work"


def write(path: Path, docs: dict[str, str]) -> None:
    pq.write_table(pa.table({"id": list(docs), "text": list(docs.values())}), path)


def timed(command: list[str]) -> float:
    clock = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - clock


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--documents", type=int, default=100_000)
    parser.add_argument("--added", type=int, default=1_000)
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--queries-only", action="store_true", help="Reuse the index of an earlier call.")
    args = parser.parse_args()
    WORK.mkdir(exist_ok=True)
    docs = planted_corpus(args.documents // 5, 4, seed=42)
    ids = list(docs)
    rng = random.Random(1)
    added_ids = set(rng.sample(ids, args.added))
    base = {i: docs[i] for i in ids if i not in added_ids}
    added = {i: docs[i] for i in ids if i in added_ids}
    threads = ["--threads", str(args.threads)]
    if not args.queries_only:
        build_and_add(base, added, threads)
    measure_queries(docs, ids, rng, args.queries)


def build_and_add(base: dict[str, str], added: dict[str, str], threads: list[str]) -> None:
    write(WORK / "base.parquet", base)
    write(WORK / "added.parquet", added)
    write(WORK / "union.parquet", {**base, **added})
    for name in ("index.duckdb", "union.duckdb"):
        (WORK / name).unlink(missing_ok=True)
    print(f"documents: {len(base)} indexed + {len(added)} added = {len(base) + len(added)}", flush=True)
    build = timed(["dedup", "run", str(WORK / "base.parquet"), "--db", str(WORK / "index.duckdb"), "-q", *threads])
    print(f"run on the {len(base)} indexed documents: {build:.1f} s", flush=True)
    add = timed(["dedup", "add", str(WORK / "index.duckdb"), str(WORK / "added.parquet"), "-q"])
    rerun = timed(["dedup", "run", str(WORK / "union.parquet"), "--db", str(WORK / "union.duckdb"), "-q", *threads])
    print(
        f"add {len(added)} documents: {add:.1f} s; run again on all {len(base) + len(added)}: {rerun:.1f} s", flush=True
    )


def measure_queries(docs: dict[str, str], ids: list[str], rng: random.Random, queries: int) -> None:
    con = duckdb.connect(str(WORK / "index.duckdb"), read_only=True)
    sample = rng.sample(ids, queries)
    by_id, by_text = [], []
    for doc_id in sample:
        clock = time.perf_counter()
        query_index(DuckDBEngine(con), doc_id=doc_id)
        by_id.append(time.perf_counter() - clock)
        text = docs[doc_id] + " plus a few new words"
        clock = time.perf_counter()
        query_index(DuckDBEngine(con), text=text)
        by_text.append(time.perf_counter() - clock)
    con.close()
    print(
        f"query latency (library, open index, {queries} queries): --id median {statistics.median(by_id) * 1000:.0f} ms"
        f" (max {max(by_id) * 1000:.0f}); --text median {statistics.median(by_text) * 1000:.0f} ms"
        f" (max {max(by_text) * 1000:.0f})"
    )
    cli = [timed(["dedup", "query", str(WORK / "index.duckdb"), "--id", doc_id]) for doc_id in sample[:5]]
    print(f"query latency (CLI process, incl. Python start-up): median {statistics.median(cli):.2f} s")


if __name__ == "__main__":
    main()
