"""`dedup report`: one self-contained HTML page about a run's database, for a reviewer.

Aggregates and samples come from SQL (sql/queries/report_*.sql), the page from a Jinja2
template with autoescape (documents are untrusted), the charts are inline SVG, and the page
loads nothing from anywhere (its Content-Security-Policy forbids scripts and remote resources).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import DedupError
from ..index import open_index
from .data import gather
from .page import write

REPORT_TABLES = ("clusters", "skipped", "stages")


@dataclass(frozen=True)
class Built:
    output: Path
    size: int  # bytes
    seconds: float


def build_report(db: Path, output: Path, top: int = 10, sample_pairs: int = 20) -> Built:
    """Read the run's database (read-only) and write the report to `output`."""
    clock = time.perf_counter()
    with open_index(db, read_only=True) as engine:
        missing = [table for table in REPORT_TABLES if not engine.has_table(table)]
        if missing:
            raise DedupError(
                f"{db} has no {', '.join(missing)} table: make it with `dedup run ... --db` (or `dedup clusters`)"
            )
        data = gather(engine, db, top=top, sample_pairs=sample_pairs)
    size = write(data, output)
    return Built(output, size, time.perf_counter() - clock)
