"""The commands of a run: `dedup run`, `dedup sql` (read-only SQL on its database), `dedup show-sql`."""

import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..choices import KEEP_ORDERS, EngineName, Keep, Method, PairsListed, Resolve, ShingleType, TableFormat, described
from ..errors import DedupError, Interrupted, UsageError
from ..hashing import DEFAULT_SEED
from ..names import is_utf8
from ..wording import counted
from .common import (
    Bands,
    Db,
    Delimiter,
    IdColumn,
    Inputs,
    Lines,
    MemoryLimit,
    NumPerm,
    OutputFormat,
    Rows,
    Seed,
    ShingleSize,
    ShingleTypeOption,
    TextColumn,
    Threads,
    Threshold,
    command_group,
    fail,
    print_table,
    stderr,
    utf8_text,
    writing_stdout,
)

if TYPE_CHECKING:
    import pyarrow as pa

    from ..engines import Engine

app = command_group()


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
    max_shingle_df: Annotated[
        Optional[str],
        typer.Option(
            metavar="N|F",
            help="Leave out of every document's set each shingle that more than N distinct texts hold (20), or "
            "more than the fraction F of them (0.01): boilerplate, before the MinHash and the exact Jaccard. "
            "Identical texts count once and stay a pair; the left-out shingles are the boilerplate table.",
        ),
    ] = None,
    lines: Lines = False,
    ids_file: Annotated[
        Optional[Path],
        typer.Option(
            "--ids", help="With --lines: a file naming the documents, one id per line [default: line numbers]."
        ),
    ] = None,
    id_column: IdColumn = None,
    text_column: TextColumn = None,
    delimiter: Delimiter = None,
    include_hidden: Annotated[bool, typer.Option("--include-hidden", help="Read hidden files and folders.")] = False,
    follow_links: Annotated[
        bool,
        typer.Option(
            "--follow-links", help="Read symlinks below an input folder that lead outside it (skipped without)."
        ),
    ] = False,
    strip_html: Annotated[
        bool, typer.Option("--strip-html", help="Shingle the text of HTML: tags become spaces, entities characters.")
    ] = False,
    db: Annotated[
        Optional[Path],
        typer.Option(
            help="Keep the run in this DuckDB file: documents, band hashes, pairs, clusters (the shingles and "
            "MinHash values are recomputed where a command needs them; --keep-all-tables keeps them)."
        ),
    ] = None,
    keep_all_tables: Annotated[
        bool,
        typer.Option(
            "--keep-all-tables",
            help="Keep every stage's table in --db, the shingles and MinHash signatures too (several times "
            "the text's bytes), for exploring them in SQL or auditing often.",
        ),
    ] = False,
    replace_documents: Annotated[
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
    pairs: Annotated[
        PairsListed,
        typer.Option(
            "--pairs",
            help="Pairs listed (--output, stdout): all; between-groups (not those of exact copies of one "
            "text); none (clusters and survivors come from --db or --export).",
        ),
    ] = PairsListed.all,
    threads: Threads = None,
    memory_limit: Annotated[
        Optional[str],
        typer.Option(
            help="Memory budget, e.g. 2GB (at least 128MB and 48MB a thread); larger stages spill to --temp-dir "
            "[default: half this machine's memory]."
        ),
    ] = None,
    temp_dir: Annotated[
        Optional[Path],
        typer.Option(
            help="Folder for every file the run writes for itself: DuckDB's spill, the temporary database of a run "
            "without --db, the spool of a large input [default: <db>.tmp next to the database, else the "
            "system's temporary folder]."
        ),
    ] = None,
    show_skipped: Annotated[
        bool, typer.Option("--show-skipped", help="List every skipped input with its reason on stderr.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress or summary on stderr.")] = False,
    keep: Annotated[
        Optional[Keep],
        typer.Option(help=f"Which documents are preferred as survivors: {described(KEEP_ORDERS)} [default: first]."),
    ] = None,
    resolve: Annotated[
        Optional[Resolve],
        typer.Option(
            help="verified: a document is dropped only for a kept document it is a pair of (walking the --keep "
            "order); components: one document kept per connected component [default: verified]."
        ),
    ] = None,
    keep_by: Annotated[
        Optional[list[str]],
        typer.Option(
            metavar="COLUMN[=A,B,...|:desc]",
            help="Prefer as survivors by a column of a table input, before --keep: split=test,train keeps test "
            "rows first, then train, then any other value; priority keeps the smallest number first; "
            "quality:desc the largest.",
        ),
    ] = None,
    audit: Annotated[
        Optional[int],
        typer.Option(
            metavar="N",
            help="Measure recall at the end: search the result exactly for every pair >= the threshold of N "
            "sampled documents (seeded by --seed), as `dedup audit` does.",
            min=1,
        ),
    ] = None,
    write_deduplicated: Annotated[
        Optional[Path], typer.Option(help="Write the input minus the dropped duplicates here, in the input's form.")
    ] = None,
    exports: Annotated[
        Optional[list[str]],
        typer.Option(
            "--export",
            help="Also write WHAT=FILE (repeatable), as `dedup export` does: clusters, duplicates, survivors "
            "(by --keep), adjacency or pairs, to .csv, .parquet, .jsonl or .json.",
        ),
    ] = None,
    engine: Annotated[
        EngineName, typer.Option(help="duckdb (one machine) or spark (local or a cluster, see --master).")
    ] = EngineName.duckdb,
    master: Annotated[
        Optional[str],
        typer.Option(help="Spark master: local[*], spark://HOST:7077, yarn, k8s://... [spark]", callback=utf8_text),
    ] = None,
    spark_conf: Annotated[
        Optional[list[str]],
        typer.Option("--spark-conf", help="A Spark setting KEY=VALUE (repeatable) [spark].", callback=utf8_text),
    ] = None,
    work_dir: Annotated[
        Optional[str],
        typer.Option(
            help="Folder (any path Spark writes) for the stage tables as Parquet; a rerun resumes there "
            "[spark; default: a temporary folder, local masters only]."
        ),
    ] = None,
) -> None:
    """Find every pair of documents whose exact Jaccard similarity is at least the threshold.

    Example: dedup run data/clough --threshold 0.7 --shingle-type word -k 5
    """
    given = dict(locals())  # the options by their Settings field names, but for those of the printing:
    del given["show_skipped"], given["quiet"]
    if keep_by is not None and len(keep_by) > 1:  # one column orders the survivors: a second replaced the first
        shown = " ".join(f"--keep-by {spec}" for spec in keep_by)
        fail(UsageError(f"{shown}: give --keep-by once (one column orders the survivors before --keep)"))
    given["keep_by"] = keep_by[0] if keep_by else None
    given["output_format"] = None if output_format == TableFormat.table else output_format.value
    try:  # a Ctrl-C that lands while the modules load is an interruption like any other
        from ..interrupts import interrupt_on_sigint
        from ..options import run_options
        from ..output import write_table
        from ..pipeline import clusters_rule, execute
        from .summary import print_skipped, print_summary, stage_progress

        settings = run_options(**given)
        output = settings.outputs.output
        if output is not None:
            pairs_to = partial(
                write_table, path=output, kind=settings.outputs.output_kind
            )  # by its suffix, else --format
        else:
            pairs_to = partial(print_table, output_format=output_format, more_follows=True)
        with interrupt_on_sigint() as attach, stage_progress(stderr, quiet) as progress:
            result = execute(settings, progress, on_open=attach, pairs_to=pairs_to)
    except DedupError as error:
        fail(error)
    except KeyboardInterrupt:
        fail(Interrupted("interrupted"))
    if not quiet:
        print_summary(stderr, result, settings.sketch, settings.engine_options.db, output, show_skipped)
        if result.dropped is not None:
            rule = clusters_rule(settings)  # the rule the clusters were built by
            assert rule is not None, "a run reports dropped documents only when it built clusters"
            dropped = counted(result.dropped, "document")
            stderr.print(f"clusters: {dropped} to drop ({rule.options()})", markup=False)
        if settings.outputs.write_deduplicated is not None:
            stderr.print(f"wrote the deduplicated input to {settings.outputs.write_deduplicated}", markup=False)
        for what, path in settings.outputs.exports:
            stderr.print(f"wrote {what.value} to {path}", markup=False)
    elif show_skipped:
        print_skipped(stderr, result.skipped)


@app.command()
def sql(
    db: Db,
    query: Annotated[
        Optional[str],
        typer.Argument(help="SQL to run, read-only; several statements separated by ; [default: read from stdin]."),
    ] = None,
    output_format: OutputFormat = TableFormat.table,
    output: Annotated[
        Optional[Path],
        typer.Option(
            "--output",
            "-o",
            help="Write the (last) statement's result to a .parquet, .csv or .jsonl file instead of printing it.",
        ),
    ] = None,
    memory_limit: MemoryLimit = None,
) -> None:
    """Run read-only SQL on a run's database and print every statement's result, streamed.

    Without a query, statements are read from stdin; on a terminal, one at a time at a prompt.
    Tables wider than the terminal are printed one record at a time. The database is opened
    read-only and the SQL reads no other file (no COPY): --output writes a result to a file.

    Example: dedup sql run.duckdb "select * from pairs where jaccard < 0.9" -o near.parquet
    """
    from ..index.explore import open_readonly
    from ..output import check_targets, format_for
    from ..settings import EngineOptions

    try:
        if output is not None:
            format_for(output)
            check_targets([("--output", output)], db)
            if query is None and sys.stdin.isatty():
                raise UsageError("--output writes the result of SQL given as an argument or on stdin, not at a prompt")
        with open_readonly(db, EngineOptions(memory_limit=memory_limit)) as engine, writing_stdout():
            if output is not None:
                rows = write_result(engine, read_stdin() if query is None else query, output)
            elif query is None and sys.stdin.isatty():
                interactive(engine, output_format, input)
            else:
                print_results(engine, read_stdin() if query is None else query, output_format)
    except DedupError as error:
        fail(error)
    if output is not None:
        stderr.print(f"wrote {counted(rows, 'row')} to {output}", markup=False)


NOT_UTF8_SQL = "the SQL is not UTF-8 text"


def read_stdin() -> str:
    """Standard input as text (bytes that are not UTF-8 raise in a UTF-8 locale, reach the text as
    surrogate escapes in the C one: print_results refuses those)."""
    try:
        return sys.stdin.read()
    except UnicodeDecodeError:
        raise UsageError(NOT_UTF8_SQL) from None


def print_results(engine: "Engine", query: str, output_format: TableFormat) -> None:
    """Every statement's result in table format (a blank line between); in csv/jsonl the last one's."""
    import shutil

    from ..index.explore import results, statements

    if not is_utf8(query):  # bytes of the argument, standard input or a prompt line that are not UTF-8
        raise UsageError(NOT_UTF8_SQL)
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
        print_table(reader, output_format, max_width=width)


def write_result(engine: "Engine", query: str, output: Path) -> int:
    """The last statement's result written to `output` in the format its suffix names, streamed
    (the statements before it run first); its rows. A last statement without rows is refused."""
    from ..index.explore import results, statements

    if not is_utf8(query):
        raise UsageError(NOT_UTF8_SQL)
    texts = statements(engine, query)
    for reader in results(engine, ";\n".join(texts[:-1])):
        reader.read_all()
    for reader in results(engine, "".join(texts[-1:])):
        return write_counted(reader, output)
    raise UsageError("the last statement gives no result to write (give a select)")


def write_counted(reader: "pa.RecordBatchReader", output: Path) -> int:
    """The reader's rows written to `output` (by its suffix, replaced once complete); how many."""
    from ..output import Counted, write_table

    written = Counted(reader)
    write_table(written.reader, output)
    return written.rows


def interactive(engine: "Engine", output_format: TableFormat, read_line: Callable[[str], str]) -> None:
    """A prompt: statements end with ';'; an error is one line and the prompt goes on; Ctrl-D ends."""
    pending: list[str] = []
    while True:
        try:
            line = read_line("dedup> " if not pending else "   ... ")
        except EOFError:
            return
        except UnicodeDecodeError:
            stderr.print(f"Error: {NOT_UTF8_SQL}", markup=False)
            pending = []
            continue
        pending.append(line)
        if line.rstrip().endswith(";"):
            text, pending = "\n".join(pending), []
            try:
                print_results(engine, text, output_format)
            except DedupError as error:
                stderr.print(f"Error: {error}", markup=False)
            sys.stdout.flush()


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
    from ..engines import engine_for
    from ..settings import Sketch
    from ..stages import compile_stage, pipeline_stages

    try:
        sketch = Sketch(threshold=threshold, shingle_type=shingle_type, num_perm=num_perm, bands=bands, rows=rows)
    except DedupError as error:
        fail(error)
    stages = [s for s in pipeline_stages(sketch) if stage is None or s.name == stage]
    if not stages:
        names = ", ".join(s.name for s in pipeline_stages(sketch))
        fail(DedupError(f"no stage named {stage!r}; stages are {names}"))
    engine = engine_for("duckdb")
    with writing_stdout():
        for item in stages:
            statement = compile_stage(item, sketch, engine.dialect)
            typer.echo(engine.create_table_sql(item.name, statement).rstrip() + ";\n")
