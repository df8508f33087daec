"""`dedup report`: the HTML report of a run's database."""

from contextlib import nullcontext
from pathlib import Path
from typing import Annotated

import typer

from ..errors import DedupError
from .common import Db, command_group, fail, stderr, writing_stdout

app = command_group()
# Measured on a 1M-document index (20M pairs): 2.4 s and 0.73 GiB at 500MB; DuckDB's default
# (80 % of RAM) let its aggregates take 1.9 GiB, and was slower (3.7 s).
REPORT_MEMORY = "500MB"


@app.command()
def report(
    db: Db,
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The HTML file to write (- for standard output).")
    ] = Path("report.html"),
    top: Annotated[int, typer.Option(help="Largest clusters and buckets shown.", min=0, max=1000)] = 10,
    sample_pairs: Annotated[
        int, typer.Option(help="Pairs sampled across the similarity range.", min=0, max=10_000)
    ] = 20,
    memory_limit: Annotated[
        str,
        typer.Option(help="DuckDB memory limit: the report reads aggregates, which fit; more spills to <db>.tmp."),
    ] = REPORT_MEMORY,
) -> None:
    """Write one self-contained HTML page about a run: threshold, duplicates side by side, boilerplate, clusters.

    Example: dedup report run.duckdb --output report.html
    """
    from ..html_report import build_report, check_report_name
    from ..output import check_file_target, check_targets
    from ..settings import STDOUT, EngineOptions

    to_stdout = output == STDOUT
    try:
        if not to_stdout:
            check_file_target(output, "report")
            check_targets([("--output", output)], db)
            check_report_name(output)
        with writing_stdout() if to_stdout else nullcontext():
            limits = EngineOptions(memory_limit=memory_limit)
            built = build_report(db, output, top=top, sample_pairs=sample_pairs, limits=limits)
    except DedupError as error:
        fail(error)
    except OSError as error:
        fail(DedupError(f"cannot write {output}: {error.strerror}"))
    written = "the report to standard output" if to_stdout else str(output)
    stderr.print(f"wrote {written} ({built.size / 1e6:.2f} MB) in {built.seconds:.1f} s", markup=False)
