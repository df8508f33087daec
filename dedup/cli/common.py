"""What the commands share: the console, one-line failures, printing a table, and the options
that several commands declare alike (declared once, so their flags, defaults and help agree)."""

import sys
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer
from rich.console import Console

from ..choices import ShingleType, TableFormat
from ..errors import DedupError

stderr = Console(stderr=True, highlight=False, soft_wrap=True)


def command_group() -> typer.Typer:
    """A group of commands, added to the app without a name: its commands stay top-level."""
    return typer.Typer(add_completion=False, pretty_exceptions_enable=False)


Inputs = Annotated[list[Path], typer.Argument(help="Folders, text files, or .parquet/.csv/.jsonl tables.")]
Threshold = Annotated[float, typer.Option("--threshold", "-t", help="Keep pairs with Jaccard >= this.")]
ShingleTypeOption = Annotated[ShingleType, typer.Option(help="Character or word shingles.")]
ShingleSize = Annotated[int, typer.Option("--shingle-size", "-k", help="Shingle length (characters or words).")]
NumPerm = Annotated[int, typer.Option(help="MinHash permutations.")]
Seed = Annotated[int, typer.Option(help="Seed of the permutations.")]
Bands = Annotated[Optional[int], typer.Option(help="LSH bands (default: chosen from the threshold).")]
Rows = Annotated[Optional[int], typer.Option(help="Rows per band (default: chosen from the threshold).")]
Lines = Annotated[bool, typer.Option("--lines", help="Each line of a text file is a document.")]
IdColumn = Annotated[
    Optional[str], typer.Option(help="Id column of a table [default: id, or the row number if absent].")
]
TextColumn = Annotated[str, typer.Option(help="Text column of a table.")]
Threads = Annotated[Optional[int], typer.Option(help="DuckDB threads [default: all cores].")]
Db = Annotated[Path, typer.Argument(help="A database left by `dedup run --db`.")]
OutputFormat = Annotated[TableFormat, typer.Option("--format", help="Output format.")]


def fail(error: DedupError) -> NoReturn:
    stderr.print(f"Error: {error}", markup=False, soft_wrap=True)
    raise typer.Exit(error.exit_code)


def print_table(table: object, output_format: TableFormat) -> None:
    from ..output import write_csv, write_jsonl, write_text_table

    writers = {TableFormat.table: write_text_table, TableFormat.csv: write_csv, TableFormat.jsonl: write_jsonl}
    writers[output_format](table, sys.stdout)  # type: ignore[arg-type]
