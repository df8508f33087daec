"""The dedup command line: one Typer app joined from one module per group of commands.

common.py holds what the commands share (options, failures, printing); run.py the commands of
a run (run, sql, show-sql), evaluate.py `eval`, params.py `params`, index.py the commands on a
run's database (clusters, export, explain, buckets, query, add, remove, list), report.py
`report`. Each group is added without a name, so every command stays top-level (`dedup add`,
not `dedup index add`). The groups import common, never this module: no import circle.
"""

from typing import Annotated, Optional

import typer

from .. import __version__
from . import evaluate, index, params, report, run

app = typer.Typer(
    help="Find near-duplicate documents: shingles -> MinHash -> LSH -> exact Jaccard, in SQL (DuckDB).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def version_callback(value: bool) -> None:
    if value:
        typer.echo(f"dedup {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        Optional[bool], typer.Option("--version", callback=version_callback, is_eager=True, help="Show the version.")
    ] = None,
) -> None:
    """Find near-duplicate documents with MinHash LSH, verified by exact Jaccard, all in DuckDB SQL."""


for group in (run.app, evaluate.app, index.app, params.app, report.app):
    app.add_typer(group)
