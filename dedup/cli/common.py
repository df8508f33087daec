"""What the commands share: the console, one-line failures, printing a table, and the options
that several commands declare alike (declared once, so their flags, defaults and help agree)."""

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional

import typer
from rich.console import Console

from ..choices import SHINGLINGS, ShingleType, TableFormat, described
from ..errors import DedupError, Interrupted
from ..formats import table_suffixes
from ..names import escaped, is_utf8

if TYPE_CHECKING:
    import pyarrow as pa

    from ..engines import Engine

# emoji=False: a name such as ":smile:.txt" is printed as it is (and rich._emoji_codes is not imported)
stderr = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


def command_group() -> typer.Typer:
    """A group of commands, added to the app without a name: its commands stay top-level."""
    return typer.Typer(add_completion=False, pretty_exceptions_enable=False)


Inputs = Annotated[
    list[Path],
    typer.Argument(
        metavar="INPUT...",
        show_default=False,
        help=f"Folders, text files (also .gz, .zst), tables ({table_suffixes()}; a folder of table shards), "
        "or - for one document per line on standard input.",
    ),
]
Threshold = Annotated[float, typer.Option("--threshold", "-t", help="Keep pairs with Jaccard >= this.")]
ShingleTypeOption = Annotated[
    ShingleType,
    typer.Option(help=f"What a shingle's k tokens are: {described({t: s.help for t, s in SHINGLINGS.items()})}."),
]
ShingleSize = Annotated[int, typer.Option("--shingle-size", "-k", help="Shingle length (characters or words).")]
NumPerm = Annotated[int, typer.Option(help="MinHash permutations.")]
Seed = Annotated[int, typer.Option(help="Seed of the permutations.")]
Bands = Annotated[Optional[int], typer.Option(help="LSH bands (default: chosen from the threshold).")]
Rows = Annotated[Optional[int], typer.Option(help="Rows per band (default: chosen from the threshold).")]
Lines = Annotated[bool, typer.Option("--lines", help="Each line of a text file is a document.")]
IdColumn = Annotated[
    Optional[str], typer.Option(help="Id column of a table [default: id, or the row number if absent].")
]
TextColumn = Annotated[Optional[str], typer.Option(help="Text column of a table [default: text].")]
Delimiter = Annotated[
    Optional[str], typer.Option(help="Field separator of .csv/.tsv tables, one character or \\t [default: , or tab].")
]


Threads = Annotated[Optional[int], typer.Option(help="DuckDB threads [default: all cores].")]
MemoryLimit = Annotated[
    Optional[str],
    typer.Option(
        help="Memory budget, e.g. 2GB (at least 128MB and 48MB a thread); larger work spills to <db>.tmp "
        "next to the database, or --temp-dir [default: half this machine's memory]."
    ),
]

Db = Annotated[Path, typer.Argument(metavar="DB", help="A database left by `dedup run --db`.")]
OutputFormat = Annotated[TableFormat, typer.Option("--format", help="Output format.")]


def document_id(value: Any) -> Any:
    """An id argument as the index holds ids: the bytes of a file name that are not UTF-8 (which
    reach Python as surrogate escapes, and stopped Arrow with UnicodeEncodeError) as \\xNN, as ids
    made from such names are written; a list of ids alike."""
    if isinstance(value, list):
        return [document_id(item) for item in value]
    return escaped(value) if isinstance(value, str) else value


def utf8_text(value: Any) -> Any:
    """Refuse an argument whose bytes are not UTF-8: a usage error of one line."""
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, str) and not is_utf8(item):
            raise typer.BadParameter(f"not UTF-8 text: {escaped(item)}")
    return value


def fail(error: DedupError) -> NoReturn:
    code = error.exit_code
    if isinstance(error, Interrupted):  # 130 after Ctrl-C, 128 + n after signal n (as a shell reports them)
        from ..interrupts import exit_code

        code = exit_code(code)
        if code != 130:  # SIGTERM, SIGHUP, ...
            error = Interrupted(str(error).replace("interrupted", "terminated", 1))
    stderr.print(f"Error: {error}", markup=False, soft_wrap=True)
    raise typer.Exit(code)


@contextmanager
def stoppable(said: str | None = None) -> Iterator[Callable[["Engine"], None]]:
    """Ctrl-C (or SIGTERM) interrupts the command's engine (attach it) and ends it with exit 130
    (128 + the signal's number: 143 for SIGTERM) and one line: `said`, by default (a command that
    changes a database) that the database is unchanged."""
    from ..index.documents import UNCHANGED
    from ..interrupts import interrupt_on_sigint

    try:
        with interrupt_on_sigint() as attach:
            yield attach
    except KeyboardInterrupt:
        fail(Interrupted(said or UNCHANGED))


@contextmanager
def writing_stdout(more_follows: bool = False) -> Iterator[None]:
    """Around whatever a command prints on stdout. `dedup sql ... | head -3`: when the reader goes
    away, stop printing quietly: with exit 0, or, when `more_follows` (what the command was asked
    beside the listing: `dedup run --export`'s files, its summary), leave the block and let the
    command go on; a closed stdout ends the listing, never the rest. A stdout that cannot be
    written (closed, `> /dev/full`, a full disk): one line and exit 1."""
    if sys.stdout is None:  # `dedup ... >&-`: nothing could be printed, and nothing is dropped silently
        fail(DedupError("standard output is closed: nothing can be printed (give --output FILE where there is one)"))
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        _stdout_to_devnull()
        if not more_follows:
            raise typer.Exit(0) from None
    except OSError as error:
        _stdout_to_devnull()
        fail(DedupError(f"cannot write to standard output: {error.strerror or error}"))


def _stdout_to_devnull() -> None:
    """Python's own flush of stdout at exit must not fail again (and print a traceback)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def print_table(
    rows: "pa.Table | pa.RecordBatchReader",
    output_format: TableFormat,
    max_width: int | None = None,
    more_follows: bool = False,
) -> None:
    """Rows (a table, or a reader streamed batch by batch) on stdout in the format asked for; a
    table wider than max_width characters one record at a time. `more_follows`: as writing_stdout."""
    from ..output import batches, write_text_rows
    from .table import TextTable

    with writing_stdout(more_follows):
        if output_format != TableFormat.table:
            write_text_rows(rows, sys.stdout, output_format.value)
            return
        table = TextTable(sys.stdout, rows.schema, max_width=max_width)
        empty = True
        for batch in batches(rows):
            table.write(batch)
            empty = False
        if empty:  # no rows: the header alone
            table.write(rows.schema.empty_table())
