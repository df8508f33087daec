"""The dedup command line: parse options, call the library, print. Nothing else."""

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, Optional

import typer
from rich.console import Console

from . import __version__
from .choices import Keep
from .errors import DedupError, Interrupted, UsageError
from .hashing import DEFAULT_SEED

try:  # typer >= 0.20 vendors click
    from typer._click.exceptions import UsageError as ClickUsageError
except ImportError:  # pragma: no cover - older typer depends on click
    from click.exceptions import UsageError as ClickUsageError  # type: ignore[no-redef]
from typer.core import TyperGroup


class OneLineUsageError(ClickUsageError):
    """A mistyped option or command: one `Error: ...` line on stderr (exit 2), as every other error."""

    def show(self, file: object = None) -> None:
        command = self.ctx.command_path if self.ctx is not None else "dedup"
        typer.echo(f"Error: {self.format_message()} (see `{command} --help`)", err=True)


class OneLineErrors(TyperGroup):
    def make_context(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        try:
            return super().make_context(*args, **kwargs)
        except ClickUsageError as error:
            raise _one_line(error) from None

    def invoke(self, ctx):  # type: ignore[no-untyped-def]
        try:
            return super().invoke(ctx)
        except ClickUsageError as error:
            raise _one_line(error) from None


def _one_line(error: ClickUsageError) -> ClickUsageError:
    if isinstance(error, OneLineUsageError) or type(error).__name__ == "NoArgsIsHelpError":
        return error  # `dedup` alone prints the help
    return OneLineUsageError(error.format_message(), error.ctx)


if TYPE_CHECKING:
    import pyarrow as pa

    from .engine import Engine

app = typer.Typer(
    cls=OneLineErrors,
    help="Find near-duplicate documents: shingles -> MinHash -> LSH -> exact Jaccard, in SQL (DuckDB).",
    rich_markup_mode=None,  # plain help: flags without <bool>, every default shown, choices unbroken
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
stderr = Console(stderr=True, highlight=False, soft_wrap=True)


class ShingleType(StrEnum):
    char = "char"
    word = "word"


class Method(StrEnum):
    lsh = "lsh"
    signature = "signature"
    exact = "exact"


class EngineName(StrEnum):
    duckdb = "duckdb"
    spark = "spark"


class TableFormat(StrEnum):
    table = "table"
    csv = "csv"
    jsonl = "jsonl"


# Options that `run` and `eval` share: declared once, so their flags, defaults and help agree.
Inputs = Annotated[
    list[Path],
    typer.Argument(
        help="Folders, text files, tables (.parquet, .csv, .tsv, .jsonl, .csv.gz, .tsv.gz, .jsonl.gz, a folder of "
        ".parquet files), or - for one document per line on standard input."
    ),
]
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
TextColumn = Annotated[Optional[str], typer.Option(help="Text column of a table [default: text].")]
Delimiter = Annotated[
    Optional[str], typer.Option(help="Field separator of .csv/.tsv tables, one character or \\t [default: , or tab].")
]


def delimiter_value(delimiter: str | None) -> str | None:
    return "\t" if delimiter in ("\\t", "tab") else delimiter


Threads = Annotated[Optional[int], typer.Option(help="DuckDB threads [default: all cores].")]


STDOUT = Path("-")


def fail(error: DedupError) -> NoReturn:
    stderr.print(f"Error: {error}", markup=False, soft_wrap=True)
    raise typer.Exit(error.exit_code)


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


@app.command()
def run(
    inputs: Inputs,
    threshold: Threshold = 0.8,
    shingle_type: ShingleTypeOption = ShingleType.char,
    shingle_size: ShingleSize = 9,
    num_perm: NumPerm = 128,
    seed: Seed = DEFAULT_SEED,
    bands: Bands = None,
    rows: Rows = None,
    method: Annotated[
        Method,
        typer.Option(
            help="Candidates: lsh (MinHash bands), signature (all signature pairs), exact (all pairs, prefix filter)."
        ),
    ] = Method.lsh,
    lines: Lines = False,
    id_column: IdColumn = None,
    text_column: TextColumn = None,
    delimiter: Delimiter = None,
    include_hidden: Annotated[bool, typer.Option("--include-hidden", help="Read hidden files and folders.")] = False,
    strip_html: Annotated[
        bool, typer.Option("--strip-html", help="Shingle the text of HTML: tags become spaces, entities characters.")
    ] = False,
    db: Annotated[Optional[Path], typer.Option(help="Keep every stage's table in this DuckDB file.")] = None,
    replace: Annotated[
        bool,
        typer.Option(
            "--replace",
            help="Rebuild an existing --db from these inputs alone, dropping its documents that they lack "
            "(without it such a run is refused).",
        ),
    ] = False,
    output: Annotated[
        Optional[Path],
        typer.Option("--output", "-o", help="Write pairs to .csv, .parquet or .jsonl (- for stdout, in --format)."),
    ] = None,
    output_format: Annotated[
        TableFormat, typer.Option("--format", help="Format of pairs printed to stdout.")
    ] = TableFormat.table,
    threads: Threads = None,
    memory_limit: Annotated[
        Optional[str], typer.Option(help="DuckDB memory limit, e.g. 2GB; larger stages spill to --temp-dir.")
    ] = None,
    temp_dir: Annotated[
        Optional[Path], typer.Option(help="Folder for DuckDB's spill files [default: <db>.tmp next to the database].")
    ] = None,
    show_skipped: Annotated[
        bool, typer.Option("--show-skipped", help="List every skipped input with its reason on stderr.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress or summary on stderr.")] = False,
    keep: Annotated[Keep, typer.Option(help="Survivor of a cluster: first, min-id, longest, shortest.")] = Keep.first,
    write_deduplicated: Annotated[
        Optional[Path], typer.Option(help="Write the input minus the dropped duplicates here, in the input's form.")
    ] = None,
    engine: Annotated[
        EngineName, typer.Option(help="duckdb (one machine) or spark (local or a cluster, see --master).")
    ] = EngineName.duckdb,
    master: Annotated[
        Optional[str], typer.Option(help="Spark master: local[*], spark://HOST:7077, yarn, k8s://... [spark]")
    ] = None,
    spark_conf: Annotated[
        Optional[list[str]], typer.Option("--spark-conf", help="A Spark setting KEY=VALUE (repeatable) [spark].")
    ] = None,
    work_dir: Annotated[
        Optional[str], typer.Option(help="Folder (any path Spark writes) for the stage tables as Parquet [spark].")
    ] = None,
) -> None:
    """Find every pair of documents whose exact Jaccard similarity is at least the threshold.

    Example: dedup run data/clough --threshold 0.7 --shingle-type word -k 5
    """
    if engine is EngineName.spark:
        spark_run_command(**locals())
        return
    from .corpus import check_column_options
    from .deduplicated import finish_run, index_database
    from .interrupts import interrupt_on_sigint
    from .output import check_writable, write_table
    from .pipeline import execute
    from .report import print_skipped, print_summary, stage_progress
    from .settings import Settings

    try:
        settings = Settings(
            inputs=tuple(inputs),
            threshold=threshold,
            shingle_type=shingle_type.value,
            shingle_size=shingle_size,
            num_perm=num_perm,
            seed=seed,
            bands=bands,
            rows=rows,
            lines=lines,
            id_column=id_column,
            text_column=text_column or "text",
            include_hidden=include_hidden,
            strip_html=strip_html,
            delimiter=delimiter_value(delimiter),
            db=db,
            threads=threads,
            memory_limit=memory_limit,
            temp_dir=temp_dir,
            method=method.value,
            replace_documents=replace,
        )
        check_column_options(settings.inputs, lines, id_column, text_column, settings.delimiter)
        if output == STDOUT:
            output = None  # `--output -`: stdout, in --format
        if output is not None:
            check_writable(output)
        with (
            interrupt_on_sigint() as attach,
            stage_progress(stderr, quiet) as progress,
            index_database(settings, write_deduplicated) as settings,
        ):
            result = execute(settings, progress, on_open=attach)
            dropped = finish_run(settings, keep, write_deduplicated)
        if output is not None:
            write_table(result.pairs, output)
        else:
            print_table(result.pairs, output_format)
    except DedupError as error:
        fail(error)
    except KeyboardInterrupt:
        fail(Interrupted("interrupted"))
    if not quiet:
        print_summary(stderr, result, settings, output, show_skipped)
        if dropped is not None:
            stderr.print(f"clusters: {dropped} documents to drop (--keep {keep.value})", markup=False)
        if write_deduplicated is not None:
            stderr.print(f"wrote the deduplicated input to {write_deduplicated}", markup=False)
    elif show_skipped:
        print_skipped(stderr, result.skipped)


def spark_run_command(**given: object) -> None:
    """`dedup run --engine spark`: the same options, the stages on Spark, tables under --work-dir."""
    from .output import check_writable, write_table
    from .report import print_skipped, print_summary, stage_progress
    from .settings import Settings
    from .spark_run import SparkOptions, execute_spark

    quiet = bool(given["quiet"])
    output = given["output"]
    try:
        for name, flag in (("db", "--db"), ("write_deduplicated", "--write-deduplicated"), ("temp_dir", "--temp-dir")):
            if given[name] is not None:
                raise UsageError(f"{flag} is for the DuckDB engine; with --engine spark use --work-dir")
        if given["work_dir"] is None:
            raise UsageError("--engine spark needs --work-dir DIR (where the stage tables are written as Parquet)")
        conf = {}
        for item in given["spark_conf"] or []:  # type: ignore[attr-defined]
            key, equals, value = str(item).partition("=")
            if not equals or not key:
                raise UsageError(f"--spark-conf takes KEY=VALUE, got {item!r}")
            conf[key] = value
        settings = Settings(
            inputs=tuple(given["inputs"]),  # type: ignore[arg-type]
            threshold=given["threshold"],  # type: ignore[arg-type]
            shingle_type=given["shingle_type"].value,  # type: ignore[attr-defined]
            shingle_size=given["shingle_size"],  # type: ignore[arg-type]
            num_perm=given["num_perm"],  # type: ignore[arg-type]
            seed=given["seed"],  # type: ignore[arg-type]
            bands=given["bands"],  # type: ignore[arg-type]
            rows=given["rows"],  # type: ignore[arg-type]
            lines=given["lines"],  # type: ignore[arg-type]
            id_column=given["id_column"],  # type: ignore[arg-type]
            text_column=given["text_column"] or "text",  # type: ignore[arg-type]
            include_hidden=given["include_hidden"],  # type: ignore[arg-type]
            strip_html=given["strip_html"],  # type: ignore[arg-type]
            delimiter=delimiter_value(given["delimiter"]),  # type: ignore[arg-type]
            method=given["method"].value,  # type: ignore[attr-defined]
        )
        if output is not None:
            check_writable(output)  # type: ignore[arg-type]
        options = SparkOptions(work_dir=str(given["work_dir"]), master=given["master"], conf=conf)  # type: ignore[arg-type]
        with stage_progress(stderr, quiet) as progress:
            result = execute_spark(settings, options, progress=progress)
        if output is not None:
            write_table(result.pairs, output)  # type: ignore[arg-type]
        else:
            print_table(result.pairs, given["output_format"])  # type: ignore[arg-type]
    except DedupError as error:
        fail(error)
    except KeyboardInterrupt:
        fail(Interrupted("interrupted"))
    if not quiet:
        print_summary(stderr, result, settings, output)  # type: ignore[arg-type]
    if given["show_skipped"]:
        print_skipped(stderr, result.skipped)


@app.command()
def sql(
    db: Annotated[Path, typer.Argument(help="A database left by `dedup run --db`.")],
    query: Annotated[
        Optional[str],
        typer.Argument(help="SQL to run, read-only; several statements separated by ; [default: read from stdin]."),
    ] = None,
    output_format: Annotated[TableFormat, typer.Option("--format", help="Output format.")] = TableFormat.table,
) -> None:
    """Run read-only SQL on a run's database and print every statement's result, streamed.

    Without a query, statements are read from stdin; on a terminal, one at a time at a prompt.
    Tables wider than the terminal are printed one record at a time.

    Example: dedup sql run.duckdb "select * from pairs order by jaccard desc limit 10"
    """
    from .explore import open_readonly

    try:
        with open_readonly(db) as engine, closed_pipe_is_normal():
            if query is None and sys.stdin.isatty():
                interactive(engine, output_format, input)
            else:
                print_results(engine, sys.stdin.read() if query is None else query, output_format)
    except DedupError as error:
        fail(error)


def print_results(engine: "Engine", query: str, output_format: TableFormat) -> None:
    """Every statement's result in table format (a blank line between); in csv/jsonl the last one's."""
    import shutil

    from .explore import results, statements
    from .output import TextTable, write_csv, write_jsonl

    texts = statements(engine, query)
    if output_format != TableFormat.table and len(texts) > 1:
        stderr.print(
            f"note: {len(texts)} statements; --format {output_format.value} prints the last one's result only",
            markup=False,
        )
        for reader in results(engine, ";\n".join(texts[:-1])):
            reader.read_all()
        texts = texts[-1:]
    width = shutil.get_terminal_size((120, 24)).columns
    for number, reader in enumerate(results(engine, ";\n".join(texts))):
        if number:
            sys.stdout.write("\n")
        table = TextTable(sys.stdout, reader.schema, max_width=width) if output_format == TableFormat.table else None
        header = True
        for batch in reader:
            if table is not None:
                table.write(batch)
            elif output_format == TableFormat.csv:
                write_csv(batch, sys.stdout, header=header)
            else:
                write_jsonl(batch, sys.stdout)
            header = False
        if table is not None and table.widths is None:  # no rows: the header still shows the columns
            table.write(reader.schema.empty_table())
        if output_format == TableFormat.csv and header:
            write_csv(reader.schema.empty_table(), sys.stdout)


def interactive(engine: "Engine", output_format: TableFormat, read_line: Callable[[str], str]) -> None:
    """A prompt: statements end with ';'; an error is one line and the prompt goes on; Ctrl-D ends."""
    pending: list[str] = []
    while True:
        try:
            line = read_line("dedup> " if not pending else "   ... ")
        except EOFError:
            return
        pending.append(line)
        if line.rstrip().endswith(";"):
            text, pending = "\n".join(pending), []
            try:
                print_results(engine, text, output_format)
            except DedupError as error:
                stderr.print(f"Error: {error}", markup=False)
            sys.stdout.flush()


@contextmanager
def closed_pipe_is_normal() -> Iterator[None]:
    """`dedup sql ... | head -3`: when the reader goes away, stop quietly with exit 0."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's own flush at exit must not fail again
        raise typer.Exit(0) from None


@app.command("show-sql")
def show_sql(
    stage: Annotated[Optional[str], typer.Argument(help="A stage name; all stages if omitted.")] = None,
    shingle_type: ShingleTypeOption = ShingleType.char,
    threshold: Threshold = 0.8,
    num_perm: NumPerm = 128,
    bands: Bands = None,
    rows: Rows = None,
) -> None:
    """Print the exact SQL each stage runs for these options (like dbt compile).

    Example: dedup show-sql signatures --num-perm 4
    """
    from .engine import engine_for
    from .settings import Settings
    from .stages import compile_stage, pipeline_stages

    try:
        settings = Settings(
            inputs=(Path("."),),
            threshold=threshold,
            shingle_type=shingle_type.value,
            num_perm=num_perm,
            bands=bands,
            rows=rows,
        )
    except DedupError as error:
        fail(error)
    stages = [s for s in pipeline_stages(settings) if stage is None or s.name == stage]
    if not stages:
        names = ", ".join(s.name for s in pipeline_stages(settings))
        fail(DedupError(f"no stage named {stage!r}; stages are {names}"))
    engine = engine_for("duckdb")
    for item in stages:
        statement = compile_stage(item, settings, engine.dialect)
        typer.echo(engine.create_table_sql(item.name, statement).rstrip() + ";\n")


def print_table(table: "pa.Table", output_format: TableFormat) -> None:
    from .output import write_csv, write_jsonl, write_text_table

    with closed_pipe_is_normal():
        if output_format == TableFormat.table:
            write_text_table(table, sys.stdout)
        elif output_format == TableFormat.csv:
            write_csv(table, sys.stdout)
        else:
            write_jsonl(table, sys.stdout)


# The other commands register themselves on `app` when imported; they import `app` from here.
from . import cli_eval, cli_index, cli_params, cli_report  # noqa: E402,F401,I001
