"""Progress and the end-of-run summary, on stderr."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.table import Table

from .pipeline import RunResult
from .settings import Settings


@contextmanager
def stage_progress(console: Console, quiet: bool) -> Iterator[Callable[[str], None]]:
    if quiet:
        yield lambda _: None
        return
    with console.status("starting") as status:
        yield lambda stage: status.update(f"{stage} ...")


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
        table.add_row(stage.name, str(stage.rows), f"{stage.seconds:.3f}")
    table.add_row("total", "", f"{s.seconds:.3f}")
    console.print(table)
    if s.skipped:
        console.print(f"skipped {s.skipped} inputs (see the skipped table with --db):")
        for source, reason in list(zip(result.skipped["source"].to_pylist(), result.skipped["reason"].to_pylist()))[:10]:
            console.print(f"  {source}: {reason}", markup=False)
    if output is not None:
        console.print(f"wrote {s.pairs} pairs to {output}", markup=False)
