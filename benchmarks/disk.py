"""The disk a run takes: the database it keeps (--db) and the peak of what it writes for itself.

For each corpus: `dedup run` with --db (the kept file's bytes, per byte of text and per document,
and each table's share, as the file it makes alone), then the same run without --db, with --temp-dir T
and TMPDIR set to another folder X: the peak bytes in T and in X, sampled every 50 ms while it
runs (dedup.disk.Watch, the sampler of the summary's disk line). Wall and CPU seconds and the
peak RSS of each process beside them.

    python benchmarks/disk.py /work/corpora/pydoc --shingle-type word -k 5
    python benchmarks/disk.py /work/corpora/debian-descriptions.txt --lines --shingle-type char -k 9
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import duckdb

from dedup.disk import Watch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from process import run_measured  # noqa: E402


def text_bytes(path: Path, lines: bool) -> tuple[int, int]:
    """The input's bytes of text and its documents (a folder's files, a file's lines, a table's rows)."""
    if path.is_dir():
        files = [p for p in path.rglob("*") if p.is_file() and not p.name.startswith(".")]
        return sum(p.stat().st_size for p in files), len(files)
    if lines:
        data = path.read_bytes()
        return len(data) - data.count(b"\n"), data.count(b"\n")
    [(size, rows)] = duckdb.sql(f"select sum(strlen(text)), count(*) from '{path}'").fetchall()
    return int(size), int(rows)


def table_bytes(db: Path, storage: str = "v1.2.0") -> dict[str, int]:
    """Each table's bytes, as the file it makes alone: copied into a fresh database file (in the
    storage format dedup writes), checkpointed, measured and removed."""
    con = duckdb.connect()
    try:
        con.execute(f"attach '{db}' as kept (read_only)")
        listed = "select table_name from duckdb_tables() where database_name = 'kept' and schema_name = 'main'"
        sizes = {}
        for (table,) in con.execute(listed).fetchall():
            alone = db.parent / f"alone-{table}.duckdb"
            con.execute(f"attach '{alone}' as alone (storage_version '{storage}')")
            con.execute(f'create table alone."{table}" as select * from kept.main."{table}"')
            con.execute("detach alone")
            sizes[table] = alone.stat().st_size
            alone.unlink()
        return sizes
    finally:
        con.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", type=Path)
    parser.add_argument("--dedup", default=str(Path(sys.executable).parent / "dedup"))
    parser.add_argument("--work", type=Path, default=None, help="folder for the databases (default: a temporary one)")
    parser.add_argument("--skip-temp", action="store_true", help="measure the kept database only")
    args, options = parser.parse_known_args()
    lines = "--lines" in options
    text, documents = text_bytes(args.input, lines)
    work = Path(tempfile.mkdtemp(prefix="disk-", dir=args.work))
    try:
        db = work / "run.duckdb"
        kept = run_measured([args.dedup, "run", str(args.input), *options, "--db", str(db), "-q", "--pairs", "none"])
        size = db.stat().st_size
        result: dict[str, object] = {
            "input": str(args.input),
            "options": " ".join(options),
            "text_bytes": text,
            "documents": documents,
            "kept_bytes": size,
            "kept_per_text_byte": round(size / text, 2),
            "kept_per_document": round(size / documents),
            "kept_seconds": round(kept.seconds, 2),
            "kept_cpu_seconds": round(kept.cpu_seconds, 2),
            "kept_peak_mib": round(kept.peak_mib),
            "tables": table_bytes(db),
        }
        if not args.skip_temp:
            temp, tmpdir = work / "temp", work / "tmpdir"
            temp.mkdir()
            tmpdir.mkdir()
            env = {**os.environ, "TMPDIR": str(tmpdir)}
            pairs = work / "pairs.parquet"
            command = [args.dedup, "run", str(args.input), *options, "--temp-dir", str(temp), "-q", "-o", str(pairs)]
            in_temp, in_tmpdir = Watch([temp]).start(), Watch([tmpdir]).start()  # dedup's own sampler
            try:
                ran = run_measured(command, env=env)
            finally:
                in_temp.stop()
                in_tmpdir.stop()
            result.update(
                temp_peak_bytes=in_temp.peak,
                temp_peak_per_text_byte=round(in_temp.peak / text, 2),
                tmpdir_peak_bytes=in_tmpdir.peak,
                temp_seconds=round(ran.seconds, 2),
                temp_cpu_seconds=round(ran.cpu_seconds, 2),
                temp_peak_mib=round(ran.peak_mib),
            )
        print(json.dumps(result, indent=1))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
