"""`dedup report`: one self-contained HTML page about a run's database, for a reviewer.

Aggregates and samples come from SQL (sql/queries/report/report_*.sql), the page from a Jinja2
template with autoescape (documents are untrusted), the charts are inline SVG, and the page
loads nothing from anywhere (its Content-Security-Policy forbids scripts and remote resources).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ..engines import Engine, open_engine
from ..errors import DedupError, UsageError
from ..formats import PAGE_FORMATS
from ..records import check_finished, check_not_run_input
from ..settings import STDOUT, EngineOptions
from ..sqlfiles import query_paths
from .data import gather
from .page import write

# The buckets section's query, whose tables (band_hashes) only `--method lsh` leaves; every method
# leaves those of the others (their `reads:` headers) but the boilerplate table, which only a run
# with --max-shingle-df leaves (dedup.html_report.data reads it where it is).
BUCKETS = "report_largest_buckets"
OPTIONAL = (BUCKETS, "report_boilerplate")


def check_report_name(output: Path) -> None:
    """The report is an HTML page: a file named otherwise (pairs.parquet, an export) is refused, so
    that no other file is replaced by the page; a pipe or device (/dev/stdout) is written as it is."""
    if output.suffix.lower() in PAGE_FORMATS or (output.exists() and not output.is_file()):
        return
    raise UsageError(f"the report is an HTML page: name it .html, not {output.name} (- writes it to standard output)")


def report_tables(engine: Engine) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The tables the report needs, and those its buckets section needs."""
    queries = [name for name in query_paths() if name.startswith("report_") and name not in OPTIONAL]
    return engine.sql.tables_needed(*queries), engine.sql.tables_needed(BUCKETS)


@dataclass(frozen=True)
class Built:
    output: Path
    size: int  # bytes
    seconds: float


def build_report(
    db: Path, output: Path, top: int = 10, sample_pairs: int = 20, limits: EngineOptions | None = None
) -> Built:
    """Read the run's database (read-only) and write the report to `output`."""
    clock = time.perf_counter()
    if not db.exists():
        raise UsageError(f"no database at {db} (create one with `dedup run ... --db {db}`)")
    engine = open_engine(db, limits, read_only=True)
    try:
        needed, buckets = report_tables(engine)
        missing = [table for table in needed if not engine.has_table(table)]
        if missing:
            hint = "`dedup clusters DB` makes it" if missing == ["clusters"] else "make it with `dedup run ... --db`"
            raise DedupError(f"{db} has no {', '.join(missing)} table: {hint}")
        check_finished(engine, db)
        if output != STDOUT:
            check_not_run_input(engine, output, "--output")
        data = gather(engine, db, top=top, sample_pairs=sample_pairs, buckets=all(map(engine.has_table, buckets)))
    finally:
        engine.close()
    size = write(data, output)
    return Built(output, size, time.perf_counter() - clock)
