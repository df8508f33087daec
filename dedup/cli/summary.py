"""Progress and the end-of-run summary, on stderr."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
from rich.console import Console
from rich.table import Table

from ..disk import DiskUse
from ..engines import Engine
from ..reports import MemoryUse, Progress, RunResult, StageReport
from ..settings import Sketch
from ..wording import counted, sized

if TYPE_CHECKING:
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID


class StageProgress(Progress):
    """Progress on stderr. On a terminal: per stage, a bar with DuckDB's progress of the running
    query (its share of the work done), the elapsed time, and the stage's final rows and seconds
    once it finishes. Elsewhere (logs, CI): one plain line per finished stage, and one every
    HEARTBEAT_SECONDS while a stage runs (4 minutes passed silent in verification on 842k
    documents). Quiet: nothing."""

    POLL_SECONDS = 0.1
    HEARTBEAT_SECONDS = 10.0

    def __init__(self, console: Console, quiet: bool = False) -> None:
        self.console = console
        self.quiet = quiet
        self.live = console.is_terminal and not quiet
        self.engine: Engine | None = None
        self.bars: RichProgress | None = None
        self.task: TaskID | None = None
        self.stop = threading.Event()
        self.poller: threading.Thread | None = None
        self.polled: list[float] = []  # DuckDB's progress figures as they were shown

    def __enter__(self) -> StageProgress:
        if self.live:
            # rich.progress only on a terminal: a run in a script or a pipe does not import it
            from rich.progress import BarColumn, TaskProgressColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as RichProgress

            self.bars = RichProgress(
                TextColumn("{task.description:<12}"),
                BarColumn(bar_width=30),
                TaskProgressColumn(),
                TimeElapsedColumn(),
                TextColumn("{task.fields[rows]}"),
                console=self.console,
                transient=True,  # the summary's stage table then says the same, once
            )
            self.bars.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop_polling()
        if self.bars is not None:
            self.bars.stop()

    def attach(self, engine: Engine) -> None:
        if self.quiet:
            return
        self.engine = engine
        engine.track_progress()

    def start(self, stage: str) -> None:
        if self.quiet:
            return
        if self.bars is None:
            self._stop_polling()  # a batched stage starts once per batch: one heartbeat at a time
            self.stop = threading.Event()
            self.poller = threading.Thread(target=self._beat, args=(stage, self.stop), daemon=True)
            self.poller.start()
            return
        self.task = self.bars.add_task(stage, total=100, rows="")
        if self.engine is not None and stage != "read":
            self.stop = threading.Event()
            self.poller = threading.Thread(target=self._poll, args=(self.engine, self.task, self.stop), daemon=True)
            self.poller.start()

    def finish(self, report: StageReport) -> None:
        if self.quiet:
            return
        self._stop_polling()
        done = "reused" if report.reused else f"{report.seconds:.3f} s"
        if self.bars is None:
            self.console.print(f"finished {report.name}: {report.rows:,} rows, {done}", markup=False)
            return
        if self.task is None or report.reused:
            self.task = self.bars.add_task(report.name, total=100, rows="")
        self.bars.update(self.task, completed=100, rows=f"{report.rows:,} rows, {done}")
        self.bars.stop_task(self.task)
        self.task = None

    def _poll(self, engine: Engine, task: TaskID, stop: threading.Event) -> None:
        while not stop.wait(self.POLL_SECONDS):
            done = engine.query_progress()
            if done >= 0 and self.bars is not None:
                self.polled.append(done)
                self.bars.update(task, completed=min(done, 99.9))

    def _beat(self, stage: str, stop: threading.Event) -> None:
        """A line every HEARTBEAT_SECONDS while `stage` runs, with the engine's share done if known."""
        import time

        started = time.monotonic()
        while not stop.wait(self.HEARTBEAT_SECONDS):
            done = self.engine.query_progress() if self.engine is not None and stage != "read" else -1.0
            share = f", {done:.0f} % of its current query" if done >= 0 else ""
            self.console.print(f"running {stage}: {time.monotonic() - started:.0f} s{share}", markup=False)

    def _stop_polling(self) -> None:
        self.stop.set()
        if self.poller is not None:
            self.poller.join()
            self.poller = None


@contextmanager
def stage_progress(console: Console, quiet: bool) -> Iterator[StageProgress]:
    with StageProgress(console, quiet) as progress:
        yield progress


SHOWN_SKIPPED = 10


def print_skipped(console: Console, skipped: pa.Table, limit: int | None = None) -> None:
    """One line per skipped input: its name (control characters escaped) and the reason."""
    rows = list(zip(skipped["source"].to_pylist(), skipped["reason"].to_pylist(), strict=True))
    for source, reason in rows[:limit]:
        name = source.encode("unicode_escape").decode("ascii") if not source.isprintable() else source
        console.print(f"  {name}: {reason}", markup=False, soft_wrap=True)


def incomplete_warning(sketch: Sketch, probability: float) -> str:
    """Why the pair count may be short, with the figure, and the method that would not be."""
    other = "--method exact finds every pair"
    if sketch.method == "lsh":
        other += "; --method signature compares every pair's signatures (quadratic)"
    if sketch.threshold <= 0.0:
        other = "at threshold 0 every pair qualifies, even with no shingle in common: --method signature lists them all"
    return (
        f"warning: pairs may be missing: a pair at Jaccard {sketch.threshold} is found with probability "
        f"{probability:.4f} by --method {sketch.method} with these options (under 0.99); {other}"
    )


def expected_missed_line(missed: float, found: int) -> str:
    """The estimate of the pairs LSH missed: each pair found at Jaccard J stands for 1 / P(J) pairs of
    its similarity (sql/queries/report/report_missed_pairs.sql); `dedup audit` measures it."""
    about = f"{missed:,.0f}" if missed >= 10 else f"{missed:.1f}"
    return (
        f"expected missed: ~{about} of ~{found + missed:,.0f} pairs (estimated from the Jaccards of those found; "
        "`dedup audit` or --audit N measures it)"
    )


def memory_line(memory: MemoryUse) -> str:
    """The memory the run took, and the limit it ran under: DuckDB's share of the default budget
    (half the machine's memory) is said as such, so that a run on a shared machine knows to give
    --memory-limit."""
    line = f"memory: peak {sized(memory.peak)} (this process)"
    if memory.limit is None:
        return line
    if memory.given is not None:
        return f"{line}; limit {memory.limit} (DuckDB's share of --memory-limit {memory.given}, the rest Python's)"
    return (
        f"{line}; limit {memory.limit} (DuckDB's share of the default budget, half this machine's memory: "
        "--memory-limit sets it)"
    )


def disk_line(disk: DiskUse) -> str:
    """The disk the run took: its own files at their peak, and what its database keeps."""
    if disk.peak == 0 and disk.kept is None:
        return "disk: nothing written (the run's tables stayed in memory)"
    line = f"disk: peak {disk.peak / 1e6:,.1f} MB in {disk.where} (the run's database, log, spill and spool)"
    if disk.kept is not None:
        ratio = f", {disk.kept / disk.text:.2f} bytes per byte of text" if disk.text else ""
        line += f"; the database keeps {disk.kept / 1e6:,.1f} MB{ratio}"
    return line


def print_summary(
    console: Console,
    result: RunResult,
    sketch: Sketch,
    db: Path | None,
    output: Path | None,
    show_skipped: bool = False,
) -> None:
    s = result.summary
    banding = sketch.banding
    console.print(
        f"documents: {s.read:,} read = {s.processed:,} processed + {s.empty:,} empty + {s.skipped:,} skipped"
        + (f" ({s.latin1:,} decoded as Latin-1)" if s.latin1 else "")
    )
    found = "" if s.complete else ", not all of them: see the warning below"
    console.print(
        f"shingles: {s.shingles:,} ({sketch.shingle_type} {sketch.shingle_size}-grams)  "
        f"candidates: {s.candidates:,}  pairs: {s.pairs:,} (Jaccard >= {sketch.threshold}{found})"
    )
    if sketch.max_df is not None:
        rows = {stage.name: stage.rows for stage in s.stages}
        console.print(
            f"boilerplate: {counted(rows.get('boilerplate', 0), 'shingle')} left out of every document's set, "
            f"each held by {sketch.max_df.describe()} (--max-shingle-df {sketch.max_shingle_df}); "
            f"{counted(rows.get('mostly_boilerplate', 0), 'document')} lost more than half of theirs "
            "(the boilerplate and mostly_boilerplate tables list them)",
            markup=False,
        )
    probability = f"P(candidate | J = {sketch.threshold}) = {s.detection_probability:.4f}"
    if sketch.method == "lsh":
        console.print(
            f"LSH: {banding.bands} bands x {banding.rows} rows of {sketch.num_perm} permutations; {probability}"
        )
        if s.expected_missed is not None:
            console.print(expected_missed_line(s.expected_missed, s.pairs), markup=False)
    elif sketch.method == "signature":
        console.print(f"signature: all pairs with MinHash estimate >= {sketch.threshold}; {probability}")
    else:
        console.print(f"exact: prefix filtering finds every pair with Jaccard >= {sketch.threshold}")
    if s.copy_groups:
        console.print(
            f"exact copies: {s.copies:,} documents in {counted(s.copy_groups, 'group')} of the same normalized text; "
            f"{s.distinct_texts:,} distinct texts compared"
        )
    if result.audit is not None:
        console.print(result.audit.summary(), markup=False)
    if s.disk is not None:
        console.print(disk_line(s.disk), markup=False)
    if s.memory is not None:
        console.print(memory_line(s.memory), markup=False)
    table = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    table.add_column("stage")
    table.add_column("rows", justify="right")
    table.add_column("seconds", justify="right")
    for stage in s.stages:
        table.add_row(stage.name, f"{stage.rows:,}", "reused" if stage.reused else f"{stage.seconds:.3f}")
    table.add_row("total", "", f"{s.seconds:.3f}")
    console.print(table)
    if not s.complete:
        console.print(incomplete_warning(sketch, s.detection_probability), markup=False)
    for note in s.notes:
        console.print(f"note: {note}", markup=False)
    if s.read == 0:
        console.print("warning: no documents were found in the inputs")
    elif s.processed == 0:
        console.print(
            f"warning: no document to compare: of {s.read:,} inputs, {s.skipped:,} were skipped "
            f"and {s.empty:,} are empty"
        )
    if s.skipped:
        limit = None if show_skipped else SHOWN_SKIPPED
        where = [] if show_skipped or s.skipped <= SHOWN_SKIPPED else ["--show-skipped lists them all"]
        if db is not None:
            where.append("so does the skipped table of --db")
        console.print(
            f"skipped {counted(s.skipped, 'input')}" + (f" ({'; '.join(where)})" if where else "") + ":", markup=False
        )
        print_skipped(console, result.skipped, limit=limit)
    if output is not None:
        written = s.pairs if result.listed is None else result.listed
        console.print(f"wrote {counted(written, 'pair')} to {output}", markup=False)
