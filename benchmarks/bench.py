"""dedup against rensa, FastSketchLSH and datasketch, side by side, in one run: wall time, peak memory, recall.

Every system runs in its own child process on the same parquet corpus with the same shingling,
num_perm, banding and threshold, and verifies its candidates exactly. The exact answer (every
pair with Jaccard >= threshold) comes from `dedup run --method exact` (prefix filtering, no
hashing), so recall = |pairs found| / |exact pairs| and precision = |found & exact| / |found|.

    pip install -e '.[bench]'
    python benchmarks/bench.py short medium --out benchmarks/results/results.md
    python benchmarks/bench.py scale-25k scale-50k scale-100k scale-200k --systems dedup
    python benchmarks/bench.py scale-1m --systems dedup --truth none --memory-limit 4GB
    python benchmarks/bench.py --input corpus.parquet --shingle-type word -k 5

Wall seconds include starting Python, reading the file and writing the pairs, for every system;
CPU seconds are user + system of the same process (dedup uses --threads, default 2; the peers one
core). With --repeat, the systems run alternately (A B A B ...) and medians are shown.
Peak RSS is the maximum resident set of the system's process (for dedup, the `dedup` process, run
as a user runs it: `dedup run ... -o pairs`, no --db; candidates and stage seconds are read from
the summary it prints).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from peers import peer_banding  # noqa: E402
from process import run_measured  # noqa: E402
from workloads import REAL_CORPORA, WORKLOADS, write  # noqa: E402

SYSTEMS = ("dedup", "rensa", "fastsketch", "datasketch")
PEERS = ("rensa", "fastsketch", "datasketch")
# dedup's own runs: this checkout, its exact method, a dense banding, and --baseline (another checkout)
DEDUPS = ("dedup", "exact", "dense", "baseline")


@dataclass
class Result:
    workload: str
    system: str
    seconds: float
    peak_mib: float
    cpu_seconds: float
    candidates: int
    pairs: int
    recall: float
    precision: float
    spill_mib: float = 0.0
    stages: dict[str, float] = field(default_factory=dict)  # dedup's stage seconds (its last run)


def child(args: argparse.Namespace) -> None:
    """Run one peer pipeline in this process (a child of the benchmark)."""
    import peers

    source, out = Path(args.input), Path(args.pairs)
    options = (source, out, args.shingle_type, args.k, args.num_perm, args.threshold, args.bands, args.rows)
    if args.system == "fastsketch":
        peers.run_fastsketch(*options, threads=args.threads)
    else:
        (peers.run_rensa if args.system == "rensa" else peers.run_datasketch)(*options)


def command_for(system: str, source: Path, out: Path, args: argparse.Namespace) -> list[str]:
    """dedup runs as its own CLI process (what a user runs); a peer as a child of this script."""
    if system in DEDUPS:
        method = "exact" if system == "exact" else "lsh"
        banding = ["--bands", "32", "--rows", "4"] if system == "dense" else []
        return [
            str(Path(sys.executable).with_name("dedup")), "run", str(source), *banding,
            "--threshold", str(args.threshold),
            "--shingle-type", args.shingle_type, "-k", str(args.k), "--num-perm", str(args.num_perm),
            "--method", method, "--threads", str(args.threads), "-o", str(out),
            *(["--memory-limit", args.memory_limit, "--temp-dir", str(spill_folder(out))] if args.memory_limit else []),
        ]  # fmt: skip
    return [
        sys.executable, __file__, "--child", system, "--input", str(source), "--pairs", str(out),
        "--threshold", str(args.threshold), "--shingle-type", args.shingle_type, "-k", str(args.k),
        "--num-perm", str(args.num_perm), "--bands", str(args.bands), "--rows", str(args.rows),
        "--threads", str(args.threads),
    ]  # fmt: skip


def spill_folder(out: Path) -> Path:
    return out.with_name(out.stem + "-spill")


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if folder.exists() else 0


SPILLS: dict[Path, float] = {}  # peak spill (MiB) of the last run writing each output
CPU: dict[Path, list[float]] = {}  # CPU seconds (user + system) of every run writing each output
SUMMARIES: dict[Path, str] = {}  # what the last run writing each output printed on stderr


def run_system(system: str, source: Path, work: Path, args: argparse.Namespace) -> tuple[float, float, Path]:
    """Wall seconds and peak RSS (MiB, from wait4 of that one process) of one system's run; with
    --memory-limit, the peak size of dedup's spill folder too (polled every 0.25 s, in SPILLS)."""
    out = work / f"{source.stem}-{system}.parquet"
    out.unlink(missing_ok=True)
    env = dict(os.environ, RAYON_NUM_THREADS=str(args.threads), OMP_NUM_THREADS=str(args.threads))
    if system == "baseline":  # the same dedup command, its package imported from another checkout
        env["PYTHONPATH"] = args.baseline
    peak_spill = 0
    done = threading.Event()

    def poll() -> None:
        nonlocal peak_spill
        while not done.wait(0.25):
            try:
                peak_spill = max(peak_spill, folder_bytes(spill_folder(out)))
            except OSError:
                pass

    watcher = threading.Thread(target=poll)
    watcher.start()
    try:
        measured = run_measured(command_for(system, source, out, args), env)
    finally:
        done.set()
        watcher.join()
    SPILLS[out] = peak_spill / 2**20
    CPU.setdefault(out, []).append(measured.cpu_seconds)
    SUMMARIES[out] = measured.stderr
    return measured.seconds, measured.peak_mib, out


def stage_seconds(path: Path) -> dict[str, float]:
    """The stage seconds of dedup's summary (a run without --db, as a user runs it)."""
    found = re.findall(r"^(\w+) +[\d,]+ +([\d.]+)$", SUMMARIES[path], flags=re.MULTILINE)
    return {name: float(seconds) for name, seconds in found}


def pair_set(path: Path) -> set[tuple[str, str]]:
    table = pq.read_table(path, columns=["id_a", "id_b"])
    return {
        (min(a, b), max(a, b))
        for a, b in zip(table.column("id_a").to_pylist(), table.column("id_b").to_pylist(), strict=True)
    }


def candidates_of(system: str, path: Path) -> int:
    if system in DEDUPS:
        found = re.search(r"candidates: ([\d,]+)  pairs:", SUMMARIES[path])  # the summary line, not the progress line
        assert found is not None, SUMMARIES[path]
        return int(found.group(1).replace(",", ""))
    metadata = pq.read_schema(path).metadata or {}
    return int(metadata.get(b"candidates", b"0"))


def versions() -> str:
    from importlib.metadata import version

    names = ["dedup", "duckdb", "datasketch", "rensa", "FastSketchLSH", "numpy", "pyarrow"]
    parts = []
    for name in names:
        try:
            parts.append(f"{name} {version(name)}")
        except Exception:
            parts.append(f"{name} -")
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE).stdout
    return (
        f"{platform.system()} {platform.machine()}, {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        + ", ".join(parts)
        + f"; dedup commit {commit.strip() or '?'}"
    )


def bench(name: str, source: Path, args: argparse.Namespace, work: Path) -> list[Result]:
    results: list[Result] = []
    truth: set[tuple[str, str]] | None = None
    if args.truth != "none":
        exact_seconds, exact_peak, exact_path = run_system(args.truth, source, work, args)
        truth = pair_set(exact_path)
        label = "dedup --method exact" if args.truth == "exact" else "reference: lsh 32x4"
        results.append(
            Result(
                name,
                label,
                exact_seconds,
                exact_peak,
                CPU[exact_path][-1],
                candidates_of(args.truth, exact_path),
                len(truth),
                1.0,
                1.0,
            )
        )
    # Alternating runs (A B A B ...), so that a change of the shared machine's load hits every system alike.
    every_run: dict[str, list[tuple[float, float, Path]]] = {system: [] for system in args.systems}
    for _ in range(args.repeat):
        for system in args.systems:
            every_run[system].append(run_system(system, source, work, args))
    for system in args.systems:
        runs = every_run[system]
        seconds = statistics.median(r[0] for r in runs)
        peak = max(r[1] for r in runs)
        found = pair_set(runs[-1][2])
        hit = len(found & truth) if truth is not None else 0
        recall = float("nan") if truth is None else hit / len(truth) if truth else 1.0
        precision = float("nan") if truth is None else hit / len(found) if found else 1.0
        results.append(
            Result(
                name,
                system,
                seconds,
                peak,
                statistics.median(CPU[runs[-1][2]][-len(runs) :]),
                candidates_of(system, runs[-1][2]),
                len(found),
                recall,
                precision,
            )
        )
        if system in DEDUPS:
            results[-1].stages = stage_seconds(runs[-1][2])
            results[-1].spill_mib = max(SPILLS.get(r[2], 0.0) for r in runs)
        print(
            f"  {name} {system}: {seconds:.2f} s, {results[-1].cpu_seconds:.2f} CPU-s, {peak:.0f} MiB, "
            f"recall {results[-1].recall:.4f}",
            file=sys.stderr,
        )
    return results


def as_table(path: Path, work: Path) -> Path:
    """A folder of .txt files becomes a parquet table (id = file name, text); tables pass through."""
    if not path.is_dir():
        return path
    import pyarrow as pa

    files = sorted(p for p in path.rglob("*.txt") if p.is_file())
    texts = [p.read_bytes().decode("utf-8", errors="replace") for p in files]
    target = work / f"{path.name}.parquet"
    pq.write_table(pa.table({"id": [str(p.relative_to(path)) for p in files], "text": texts}), target)
    return target


def markdown(results: list[Result]) -> str:
    lines = [
        "| workload | system | wall s | CPU s | peak RSS MiB | candidates | pairs | recall | precision "
        "| dedup/peer time | dedup/peer CPU | dedup/peer RSS |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        own = next((x for x in results if x.workload == r.workload and x.system == "dedup"), None)
        ratio_t = ratio_c = ratio_m = ""
        if own is not None and r.system in (*PEERS, "baseline"):
            ratio_t = f"{own.seconds / r.seconds:.2f}"
            ratio_c = f"{own.cpu_seconds / r.cpu_seconds:.2f}"
            ratio_m = f"{own.peak_mib / r.peak_mib:.2f}"
        lines.append(
            f"| {r.workload} | {r.system} | {r.seconds:.2f} | {r.cpu_seconds:.2f} | {r.peak_mib:.0f} | "
            f"{r.candidates} | {r.pairs} | {r.recall:.4f} | {r.precision:.4f} | {ratio_t} | {ratio_c} | {ratio_m} |"
        )
    fastest = []
    for workload in dict.fromkeys(r.workload for r in results):
        own = next((x for x in results if x.workload == workload and x.system == "dedup"), None)
        peers = [x for x in results if x.workload == workload and x.system in PEERS]
        if own is not None and peers:
            best = min(peers, key=lambda x: x.seconds)
            fastest.append(f"| {workload} | {best.system} | {own.seconds / best.seconds:.2f} |")
    if fastest:
        lines += ["", "| workload | fastest peer | dedup / fastest peer (wall) |", "|---|---|---:|", *fastest]
    staged = [r for r in results if r.stages]
    if staged:
        names = list(dict.fromkeys(n for r in staged for n in r.stages))
        lines += ["", "Stage seconds of dedup's last run (from its summary), peak spill of its runs:", ""]
        lines.append("| workload | system | " + " | ".join(names) + " | peak spill MiB |")
        lines.append("|---|---|" + "---:|" * (len(names) + 1))
        for r in staged:
            cells = " | ".join(f"{r.stages[n]:.2f}" if n in r.stages else "" for n in names)
            lines.append(f"| {r.workload} | {r.system} | {cells} | {r.spill_mib:.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "workloads",
        nargs="*",
        help=f"generated workloads ({', '.join(WORKLOADS)}) or real corpora ({', '.join(REAL_CORPORA)})",
    )
    parser.add_argument("--input", action="append", default=[], help="a parquet/csv/jsonl table (id, text)")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated: " + ",".join(SYSTEMS))
    parser.add_argument("--threshold", type=float, default=0.8)
    parser.add_argument("--shingle-type", default=None, help="char or word (default: the workload's)")
    parser.add_argument("-k", type=int, default=None, help="shingle size (default: the workload's)")
    parser.add_argument("--num-perm", type=int, default=128)
    parser.add_argument(
        "--bands",
        type=int,
        help="bands of datasketch's LSH (default: dedup's choice, 21 at 0.8; rensa and "
        "FastSketchLSH take peers.peer_banding, 32 x 4 at 0.8)",
    )
    parser.add_argument("--rows", type=int, help="rows per band of datasketch's LSH (default: dedup's choice)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--truth",
        choices=["exact", "dense", "none"],
        default="exact",
        help="reference answer: exact (--method exact) or dense (LSH 32 bands x 4 rows: a pair >= 0.8 is missed "
        "with probability < 5e-8; for inputs where exact is too slow), or none (the scaling series: no recall)",
    )
    parser.add_argument(
        "--baseline",
        help="a checkout of another dedup commit (e.g. a git worktree): adds the system 'baseline', "
        "dedup run with that checkout's package, alternating with the others",
    )
    parser.add_argument("--memory-limit", help="dedup's --memory-limit (e.g. 4GB); adds peak spill and stage times")
    parser.add_argument("--repeat", type=int, default=1, help="runs per system; the median time is shown")
    parser.add_argument("--work", default="/tmp/dedup-bench", help="folder for corpora and outputs")
    parser.add_argument("--out", help="append the markdown table here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--pairs", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        args.system = args.child
        args.input = args.input[0]
        child(args)
        return
    args.systems = [s for s in args.systems.split(",") if s]
    if args.baseline and "baseline" not in args.systems:
        args.systems.insert(1, "baseline")
    unknown = [name for name in args.workloads if name not in WORKLOADS and name not in REAL_CORPORA]
    if unknown:  # not argparse's choices: with nargs="*" it refuses an empty list (Python 3.11)
        parser.error(f"unknown workload {unknown[0]!r}; choose from {', '.join([*WORKLOADS, *REAL_CORPORA])}")
    if args.bands is None or args.rows is None:
        from dedup.banding import choose_banding

        chosen = choose_banding(args.threshold, args.num_perm)
        args.bands, args.rows = chosen.bands, chosen.rows
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    results: list[Result] = []
    jobs: list[tuple[str, Path, str, int]] = []  # (name, parquet table, shingle type, k)
    for name in args.workloads:
        if name in REAL_CORPORA:
            build, shingle_type, size = REAL_CORPORA[name]
            jobs.append((name, build(work), shingle_type, size))
        else:
            workload = WORKLOADS[name]
            jobs.append((name, write(workload, work), workload.shingle_type, workload.shingle_size))
    jobs += [(Path(given).stem, as_table(Path(given), work), "char", 5) for given in args.input]
    for name, source, shingle_type, size in jobs:
        per_run = argparse.Namespace(**vars(args))
        per_run.shingle_type = args.shingle_type or shingle_type
        per_run.k = args.k or size
        print(f"{name}: {source}", file=sys.stderr)
        results += bench(name, source, per_run, work)
    table = markdown(results)
    header = (
        f"threshold {args.threshold}, {args.num_perm} permutations, dedup and datasketch {args.bands} bands x "
        f"{args.rows} rows, rensa and FastSketchLSH {'x'.join(map(str, peer_banding(args.threshold, args.num_perm)))}, "
        f"{args.threads} threads{', --memory-limit ' + args.memory_limit if args.memory_limit else ''}; {versions()}"
    )
    print(header)
    print(table)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as f:
            f.write(f"\n{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {header}\n\n{table}\n")


if __name__ == "__main__":
    main()
