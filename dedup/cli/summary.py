"""Progress and the end-of-run summary, on stderr."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
from rich.console import Console
from rich.table import Table

from ..pipeline import RunResult
from ..settings import Settings


@contextmanager
def stage_progress(console: Console, quiet: bool) -> Iterator[Callable[[str], None]]:
    if quiet:
        yield lambda _: None
        return
    with console.status("starting") as status:
        yield lambda stage: status.update(f"{stage} ...")


SHOWN_SKIPPED = 10


def print_skipped(console: Console, skipped: pa.Table, limit: int | None = None) -> None:
    """One line per skipped input: its name (control characters escaped) and the reason."""
    rows = list(zip(skipped["source"].to_pylist(), skipped["reason"].to_pylist(), strict=True))
    for source, reason in rows[:limit]:
        name = source.encode("unicode_escape").decode("ascii") if not source.isprintable() else source
        console.print(f"  {name}: {reason}", markup=False, soft_wrap=True)


def print_summary(console: Console, result: RunResult, settings: Settings, output: Path | None) -> None:
    s = result.summary
    banding = settings.banding
    console.print(
        f"documents: {s.read} read = {s.processed} processed + {s.empty} empty + {s.skipped} skipped"
        + (f" ({s.latin1} decoded as Latin-1)" if s.latin1 else "")
    )
    console.print(
        f"shingles: {s.shingles} ({settings.shingle_type} {settings.shingle_size}-grams)  "
        f"candidates: {s.candidates}  pairs: {s.pairs} (Jaccard >= {settings.threshold})"
    )
    console.print(
        f"LSH: {banding.bands} bands x {banding.rows} rows of {settings.num_perm} permutations; "
        f"P(candidate | J = {settings.threshold}) = {s.detection_probability:.4f}"
    )
    table = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    table.add_column("stage")
    table.add_column("rows", justify="right")
    table.add_column("seconds", justify="right")
    for stage in s.stages:
        table.add_row(stage.name, str(stage.rows), "reused" if stage.reused else f"{stage.seconds:.3f}")
    table.add_row("total", "", f"{s.seconds:.3f}")
    console.print(table)
    if s.read == 0:
        console.print("warning: no documents were found in the inputs")
    if s.skipped:
        more = " (--show-skipped lists them all)" if s.skipped > SHOWN_SKIPPED else ""
        console.print(f"skipped {s.skipped} inputs (the skipped table of --db has them all){more}:")
        print_skipped(console, result.skipped, limit=SHOWN_SKIPPED)
    if output is not None:
        console.print(f"wrote {s.pairs} pairs to {output}", markup=False)
