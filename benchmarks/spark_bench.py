"""The Spark engine beside the DuckDB engine on the same workloads: wall time, peak RSS, start-up,
and per stage Spark's own metrics (shuffle bytes and records, task time) from its event log.

    python benchmarks/spark_bench.py short medium long --out benchmarks/results/spark.md

Both engines run as a user would (`dedup run` in a child process, 2 cores: DuckDB --threads 2,
Spark --master local[2]) and must write byte-identical pairs. Start-up is measured apart (a
session started and stopped); "text KB per core-second" divides the corpus's UTF-8 text by
(Spark wall - start-up) x 2 cores, the figure the issue compares with BigCode's Spark run.
Peak RSS is the `dedup` process's own (wait4); the Spark driver JVM's is reported separately
from the event log's executor metrics where Spark records them.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from process import run_measured  # noqa: E402
from workloads import WORKLOADS, write  # noqa: E402

CORES = 2


def startup_seconds() -> float:
    code = (
        "import time; t = time.perf_counter(); from dedup.engines.spark.engine import new_session; "
        "s = new_session('local[2]'); s.range(1).count(); print(time.perf_counter() - t); s.stop()"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def stage_metrics(event_dir: Path) -> dict[str, dict[str, float]]:
    """Per dedup table (the job description the engine sets): shuffle bytes/records, task seconds."""
    # Spark 4 writes rolling logs: eventlog_v2_<app>/events_<n>_<app>[.compressed]
    files = sorted(p for p in event_dir.rglob("*") if p.is_file() and not p.name.startswith("appstatus"))
    stage_table: dict[int, str] = {}
    totals: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for line in (line for log in files for line in _lines(log)):
        event = json.loads(line)
        kind = event.get("Event")
        if kind == "SparkListenerJobStart":
            name = (event.get("Properties") or {}).get("spark.job.description") or "other"
            for stage in event.get("Stage IDs", []):
                stage_table[stage] = name
        elif kind == "SparkListenerTaskEnd":
            metrics = event.get("Task Metrics") or {}
            table = stage_table.get(event.get("Stage ID"), "other")
            write_metrics = metrics.get("Shuffle Write Metrics") or {}
            totals[table]["shuffle_mib"] += write_metrics.get("Shuffle Bytes Written", 0) / 2**20
            totals[table]["shuffle_records"] += write_metrics.get("Shuffle Records Written", 0)
            totals[table]["task_seconds"] += metrics.get("Executor Run Time", 0) / 1000
            totals[table]["cpu_seconds"] += metrics.get("Executor CPU Time", 0) / 1e9
            totals[table]["tasks"] += 1
    return {name: dict(values) for name, values in totals.items()}


def _lines(log: Path) -> list[str]:
    """The JSON lines of an event log file, zstd-compressed (Spark 4's default) or not; a log cut
    short (a run stopped) gives the lines before the cut."""
    import pyarrow as pa

    data = b""
    try:
        with pa.input_stream(str(log), compression="zstd" if log.suffix == ".zstd" else None) as stream:
            while chunk := stream.read(1 << 20):
                data += chunk
    except (OSError, pa.ArrowInvalid):
        pass
    lines = data.decode("utf-8", errors="replace").splitlines()
    return lines if data.endswith(b"\n") else lines[:-1]


def options_for(name: str) -> list[str]:
    workload = WORKLOADS[name]
    return ["-t", "0.8", "--shingle-type", workload.shingle_type, "-k", str(workload.shingle_size)]


def bench(name: str, folder: Path, startup: float) -> str:
    corpus = folder / f"{name}.parquet"
    if not corpus.exists():
        write(WORKLOADS[name], corpus)
    text_bytes = pc.sum(pc.binary_length(pq.read_table(corpus, columns=["text"]).column("text"))).as_py()
    duck_out, spark_out = folder / f"{name}-duckdb.csv", folder / f"{name}-spark.csv"
    events = folder / f"{name}-events"
    events.mkdir(exist_ok=True)
    duck = run_measured(["dedup", "run", str(corpus), *options_for(name), "--threads", "2", "-q", "-o", str(duck_out)])
    spark = run_measured(
        [
            "dedup", "run", str(corpus), *options_for(name), "--engine", "spark", "--master", "local[2]",
            "--work-dir", str(folder / f"{name}-work"), "--spark-conf", "spark.eventLog.enabled=true",
            "--spark-conf", "spark.eventLog.compress=false",
            "--spark-conf", f"spark.eventLog.dir={events.as_uri()}", "-q", "-o", str(spark_out),
        ]
    )  # fmt: skip
    identical = filecmp.cmp(duck_out, spark_out, shallow=False)
    working = max(spark.seconds - startup, 1e-9)
    rate = text_bytes / 1024 / working / CORES
    lines = [
        f"### {name} ({text_bytes / 2**20:.1f} MiB of text, options {' '.join(options_for(name))})",
        "",
        "| engine | wall s | peak RSS MiB (dedup process) | pairs identical |",
        "|---|---:|---:|---|",
        f"| duckdb --threads 2 | {duck.seconds:.1f} | {duck.peak_mib:.0f} | |",
        f"| spark local[2] | {spark.seconds:.1f} | {spark.peak_mib:.0f} | {'yes' if identical else 'NO'} |",
        "",
        f"Spark / DuckDB wall: {spark.seconds / duck.seconds:.1f}x; start-up excluded: "
        f"{working / duck.seconds:.1f}x; text per core-second (start-up excluded): {rate:.0f} KB (target 830 KB).",
        "",
        "| table | task s | CPU s | shuffle MiB | shuffle records | tasks |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for table, values in sorted(stage_metrics(events).items(), key=lambda item: -item[1].get("task_seconds", 0)):
        lines.append(
            f"| {table} | {values.get('task_seconds', 0):.1f} | {values.get('cpu_seconds', 0):.1f} | "
            f"{values.get('shuffle_mib', 0):.1f} | "
            f"{values.get('shuffle_records', 0):.0f} | {values.get('tasks', 0):.0f} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workloads", nargs="*", default=["short", "medium", "long"], choices=sorted(WORKLOADS))
    parser.add_argument("--data", type=Path, help="folder of the workload parquet files (made if missing)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dedup-spark-bench-") as scratch:
        folder = Path(scratch)
        if args.data is not None:
            for name in args.workloads:
                if (args.data / f"{name}.parquet").exists():
                    (folder / f"{name}.parquet").symlink_to((args.data / f"{name}.parquet").resolve())
        startup = startup_seconds()
        parts = [f"Spark start-up (session up and one job, then stop): {startup:.1f} s\n"]
        for name in args.workloads:
            parts.append(bench(name, folder, startup))
            print(parts[-1], flush=True)
    text = "\n".join(parts)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
