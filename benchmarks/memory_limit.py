"""A memory-limited run next to an unconstrained one: limit, peak RSS, peak spill, time, same pairs?

    python benchmarks/memory_limit.py --documents 20000 --limit 500MB

The corpus is tests/corpora.planted_corpus (n bases x 3 copies, 150 words each), written as one
parquet file in a scratch folder. Each run is a real `dedup run` subprocess; peak RSS comes
from wait4 of that process (benchmarks/process.py), the spill size from polling the temp folder every 0.25 s.
"""

from __future__ import annotations

import argparse
import filecmp
import sys
import tempfile
import threading
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpora import planted_corpus  # noqa: E402
from process import run_measured  # noqa: E402


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if folder.exists() else 0


def measure(args: list[str], spill: Path) -> dict[str, float]:
    peak_spill = 0
    done = threading.Event()

    def poll() -> None:
        nonlocal peak_spill
        while not done.is_set():
            try:
                peak_spill = max(peak_spill, folder_bytes(spill))
            except OSError:
                pass
            time.sleep(0.25)

    watcher = threading.Thread(target=poll)
    watcher.start()
    try:
        measured = run_measured([sys.executable, "-m", "dedup", "run", *args])
    finally:
        done.set()
        watcher.join()
    return {"seconds": measured.seconds, "peak_rss_mib": measured.peak_mib, "spill_mib": peak_spill / 2**20}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--documents", type=int, default=20000, help="base documents (x3 with copies)")
    parser.add_argument("--limit", default="500MB")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dedup-memory-") as scratch:
        work = Path(scratch)
        docs = planted_corpus(options.documents, 2, seed=2, words=150)
        data = work / "docs.parquet"
        pq.write_table(pa.table({"id": list(docs), "text": list(docs.values())}), data)
        limited = measure(
            [
                str(data),
                "--db",
                str(work / "limited.duckdb"),
                "--memory-limit",
                options.limit,
                "--temp-dir",
                str(work / "spill"),
                "-q",
                "-o",
                str(work / "limited.csv"),
            ],
            work / "spill",
        )
        free = measure(
            [str(data), "--db", str(work / "free.duckdb"), "-q", "-o", str(work / "free.csv")],
            work / "free.duckdb.tmp",
        )
        same = filecmp.cmp(work / "limited.csv", work / "free.csv", shallow=False)
        print(f"documents: {len(docs)}  text: {sum(map(len, docs.values())) / 2**20:.1f} MiB")
        print(f"{'run':<12}{'seconds':>10}{'peak RSS MiB':>14}{'spill MiB':>11}")
        for name, row in (("limit " + options.limit, limited), ("no limit", free)):
            print(f"{name:<12}{row['seconds']:>10.1f}{row['peak_rss_mib']:>14.0f}{row['spill_mib']:>11.0f}")
        print(f"identical pairs: {same}")


if __name__ == "__main__":
    main()
