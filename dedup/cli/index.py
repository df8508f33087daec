"""Commands on the database a run leaves with --db: clusters, exports, explain, buckets, the living index."""

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..choices import KEEP_ORDERS, ExportKind, InfoFormat, Keep, Resolve, ShingleType, TableFormat, described
from ..errors import DedupError, UsageError
from ..settings import EngineOptions
from ..wording import counted
from .common import (
    Db,
    MemoryLimit,
    OutputFormat,
    command_group,
    document_id,
    fail,
    print_table,
    stderr,
    stoppable,
    utf8_text,
    writing_stdout,
)

ResolveOption = Annotated[
    Optional[Resolve],
    typer.Option(
        help="verified: drop a document only for a kept document it is a pair of; components: keep one "
        "document per connected component [default: as built, else verified]."
    ),
]

app = command_group()


# The rows `dedup clusters` prints as a table unless --limit says otherwise: 842k package summaries
# have 145,747 rows of clusters.
SHOWN_CLUSTER_ROWS = 100


@app.command()
def clusters(
    db: Db,
    keep: Annotated[
        Optional[Keep],
        typer.Option(
            help=f"Which documents are preferred as survivors: {described(KEEP_ORDERS)} "
            "[default: as built, else first]."
        ),
    ] = None,
    resolve: ResolveOption = None,
    output_format: OutputFormat = TableFormat.table,
    limit: Annotated[
        Optional[int],
        typer.Option(
            help="Print at most this many rows, 0 for all [default: 100 as a table, all in csv or jsonl].", min=0
        ),
    ] = None,
    memory_limit: MemoryLimit = None,
) -> None:
    """Print the clusters of 2 or more (connected components of the pairs) with each document's survivor,
    rebuilt first by the rule given when it differs from the table's.

    Example: dedup clusters run.duckdb --keep longest
    """
    from ..index.documents import open_index
    from ..index.export import export_table

    if limit is None:
        limit = SHOWN_CLUSTER_ROWS if output_format == TableFormat.table else 0
    try:
        with stoppable() as attach, open_index(db, limits=EngineOptions(memory_limit=memory_limit)) as con:
            attach(con)
            table = export_table(con, ExportKind.clusters, keep, resolve)
    except DedupError as error:
        fail(error)
    shown = table if not limit else table.slice(0, limit)
    print_table(shown, output_format, more_follows=shown.num_rows < table.num_rows)
    if shown.num_rows < table.num_rows:
        stderr.print(
            f"showing {shown.num_rows:,} of {counted(table.num_rows, 'row')} (--limit 0 prints them all; "
            f"dedup export {db} --what clusters -o F.parquet writes them)",
            markup=False,
        )


@app.command()
def export(
    db: Db,
    what: Annotated[
        ExportKind, typer.Option("--what", help="pairs, clusters, duplicates (to drop), survivors (kept), adjacency.")
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="A .csv, .parquet, .jsonl or .json file.")],
    keep: Annotated[
        Optional[Keep], typer.Option(help="Rebuild clusters with this survivor order [default: as built, else first].")
    ] = None,
    resolve: ResolveOption = None,
    memory_limit: MemoryLimit = None,
) -> None:
    """Export pairs, clusters, the duplicates to drop, the survivors, or an adjacency list.

    Example: dedup export run.duckdb --what adjacency --output similar.json
    """
    from ..index.documents import open_index
    from ..index.export import export_format, export_rows, write_export
    from ..output import check_targets
    from ..records import check_not_run_input

    try:
        export_format(output, what)
        check_targets([("--output", output)], db)
        with stoppable() as attach, open_index(db, limits=EngineOptions(memory_limit=memory_limit)) as con:
            attach(con)
            check_not_run_input(con, output, "--output")
            written = write_export(export_rows(con, what, keep, resolve), output, what)
    except DedupError as error:
        fail(error)
    stderr.print(f"wrote {counted(written, 'row')} ({what.value}) to {output}", markup=False)


@app.command()
def explain(
    db: Db,
    id_a: Annotated[str, typer.Argument(help="Id of the first document.", callback=document_id)],
    id_b: Annotated[
        Optional[str],
        typer.Argument(help="Id of the second [default: the one kept in the first's place].", callback=document_id),
    ] = None,
    examples: Annotated[int, typer.Option(help="Example shingles of each kind.", min=0)] = 3,
    memory_limit: MemoryLimit = None,
) -> None:
    """Why two documents were (or were not) paired: shingles, Jaccard, bands that collided, stage.
    With one id: whether it is kept, and if not, which kept document replaced it and why.

    Example: dedup explain run.duckdb g0pE_taska.txt orig_taska.txt
    """
    from ..index.documents import open_index
    from ..index.explain import explain_pair, explain_survivor, format_explanation

    fate = None
    try:
        with open_index(db, read_only=True, limits=EngineOptions(memory_limit=memory_limit)) as con:
            if id_b is None:
                fate, id_b = explain_survivor(con, id_a)
            explanation = explain_pair(con, id_a, id_b, examples) if id_b is not None else None
    except DedupError as error:
        fail(error)
    with writing_stdout():
        if fate is not None:
            typer.echo(fate)
        if explanation is not None:
            typer.echo(format_explanation(explanation))


@app.command()
def buckets(
    db: Db,
    top: Annotated[int, typer.Option(help="How many of the largest buckets to list.", min=0)] = 10,
    samples: Annotated[int, typer.Option(help="Sample document ids per bucket.", min=0)] = 3,
    memory_limit: MemoryLimit = None,
) -> None:
    """Bucket sizes per band and the largest buckets with sample documents (boilerplate shows here).

    Example: dedup buckets run.duckdb --top 5
    """
    from ..index.buckets import bucket_sizes, largest_buckets
    from ..index.documents import open_index
    from .table import write_text_table

    try:
        with open_index(db, read_only=True, limits=EngineOptions(memory_limit=memory_limit)) as con:
            per_band = bucket_sizes(con)
            largest = largest_buckets(con, top, samples)
    except DedupError as error:
        fail(error)

    with writing_stdout():
        write_text_table(per_band, sys.stdout, digits=3)
        typer.echo("")
        write_text_table(largest, sys.stdout)


@app.command()
def query(
    db: Db,
    text: Annotated[Optional[str], typer.Option(help="The text of the query document.", callback=utf8_text)] = None,
    file: Annotated[Optional[Path], typer.Option(help="A file holding the query document.", exists=True)] = None,
    doc_id: Annotated[
        Optional[str], typer.Option("--id", help="The id of a document of the index.", callback=document_id)
    ] = None,
    min_jaccard: Annotated[
        Optional[float], typer.Option(help="Smallest exact Jaccard to report [default: the index threshold].")
    ] = None,
    min_bands: Annotated[int, typer.Option(help="Candidates must share at least this many band buckets.")] = 1,
    exact: Annotated[
        bool,
        typer.Option("--exact", help="Compare every document sharing a shingle, not only those sharing a band bucket."),
    ] = False,
    output_format: OutputFormat = TableFormat.table,
    memory_limit: MemoryLimit = None,
) -> None:
    """The documents of the index similar to one document, with exact Jaccard, without a new run.

    Example: dedup query run.duckdb --id g0pE_taska.txt --min-jaccard 0.5 --exact
    """
    from ..index.documents import index_sketch, open_index
    from ..index.similar import query_index, query_note

    given = [value for value in (text, file, doc_id) if value is not None]
    if len(given) != 1:
        fail(UsageError("give exactly one of --text, --file or --id"))
    try:
        if file is not None:
            from ..corpus import decode

            try:
                text = decode(file.read_bytes())[0]
            except OSError as error:  # a folder, or a file that cannot be read: not a traceback
                raise UsageError(f"cannot read --file {file}: {error.strerror}") from None
        with open_index(db, read_only=True, limits=EngineOptions(memory_limit=memory_limit)) as con:
            table = query_index(
                con, text=text, doc_id=doc_id, min_jaccard=min_jaccard, min_bands=min_bands, exact=exact
            )
            note = None if exact else query_note(index_sketch(con), min_jaccard, min_bands)
    except DedupError as error:
        fail(error)
    if note is not None:
        stderr.print(note, markup=False)
    print_table(table, output_format)


@app.command()
def add(
    db: Db,
    inputs: Annotated[
        list[Path],
        typer.Argument(metavar="INPUT...", help="Folders, text files, or tables, read as `dedup run` reads them."),
    ],
    replace: Annotated[bool, typer.Option("--replace", help="Replace documents whose id is already indexed.")] = False,
    keep: Annotated[
        Optional[Keep], typer.Option(help="Survivor order of the clusters (default: the one they were built by).")
    ] = None,
    resolve: ResolveOption = None,
    shingle_type: Annotated[Optional[ShingleType], typer.Option(help="Must match the index if given.")] = None,
    shingle_size: Annotated[Optional[int], typer.Option("--shingle-size", "-k", help="Must match the index.")] = None,
    num_perm: Annotated[Optional[int], typer.Option(help="Must match the index if given.")] = None,
    seed: Annotated[Optional[int], typer.Option(help="Must match the index if given.")] = None,
    bands: Annotated[Optional[int], typer.Option(help="Must match the index if given.")] = None,
    threshold: Annotated[Optional[float], typer.Option("--threshold", "-t", help="Must match the index.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary on stderr.")] = False,
    memory_limit: MemoryLimit = None,
) -> None:
    """Add documents to an index: only new ones are shingled and hashed; pairs as a run on the union.

    Example: dedup add run.duckdb more_documents/
    """
    from ..index.documents import add_documents, open_index

    requested = {
        "shingle_type": shingle_type.value if shingle_type is not None else None,
        "shingle_size": shingle_size,
        "num_perm": num_perm,
        "seed": seed,
        "bands": bands,
        "threshold": threshold,
    }
    try:
        with stoppable() as attach, open_index(db, limits=EngineOptions(memory_limit=memory_limit)) as con:
            attach(con)
            report = add_documents(con, tuple(inputs), replace=replace, keep=keep, resolve=resolve, requested=requested)
    except DedupError as error:
        fail(error)
    if not quiet:
        stderr.print(report, markup=False)


@app.command()
def remove(
    db: Db,
    ids: Annotated[
        Optional[list[str]], typer.Argument(help="Ids of the documents to remove.", callback=document_id)
    ] = None,
    ids_from: Annotated[
        Optional[Path],
        typer.Option(
            "--ids-from",
            help="Also remove the ids in this file, one per line (- for standard input): for ids too long "
            "or too many for a command line.",
        ),
    ] = None,
    keep: Annotated[
        Optional[Keep], typer.Option(help="Survivor order of the clusters (default: the one they were built by).")
    ] = None,
    resolve: ResolveOption = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary on stderr.")] = False,
    memory_limit: MemoryLimit = None,
) -> None:
    """Remove documents (and their pairs) from an index.

    Example: dedup remove run.duckdb g0pA_taska.txt g0pB_taska.txt
    """
    from ..index.documents import open_index, remove_documents

    ids = list(ids or [])
    if ids_from is not None:
        from ..corpus import read_names

        try:
            ids += [name for name in read_names(ids_from, "--ids-from") if name]  # an empty line names no id
        except DedupError as error:
            fail(error)
    if not ids:
        fail(UsageError("give the ids to remove, as arguments or with --ids-from FILE"))

    try:
        with stoppable() as attach, open_index(db, limits=EngineOptions(memory_limit=memory_limit)) as con:
            attach(con)
            removed = remove_documents(con, ids, keep=keep, resolve=resolve)
    except DedupError as error:
        fail(error)
    if not quiet:
        stderr.print(f"removed {counted(removed, 'document')}", markup=False)


@app.command("list")
def list_documents(
    db: Db,
    output_format: OutputFormat = TableFormat.table,
    memory_limit: MemoryLimit = None,
) -> None:
    """List the documents of an index with their shingle, pair and cluster counts.

    Example: dedup list run.duckdb --format csv
    """
    from ..index.documents import document_list, open_index

    try:
        with open_index(db, read_only=True, limits=EngineOptions(memory_limit=memory_limit)) as con:
            table = document_list(con)
    except DedupError as error:
        fail(error)
    print_table(table, output_format)


@app.command()
def info(
    db: Db,
    output_format: Annotated[
        InfoFormat, typer.Option("--format", help="table: lines and tables to read; json: one object.")
    ] = InfoFormat.table,
) -> None:
    """What a database holds and what takes its space: each table's rows and blocks, the file's
    used and free blocks, its storage format and layout (lean or every table), its runs.

    Example: dedup info run.duckdb
    """
    import json

    from ..index.documents import open_index
    from ..index.info import database_info

    try:
        with open_index(db, read_only=True) as con:
            found = database_info(con, db)
    except DedupError as error:
        fail(error)
    if output_format == InfoFormat.json:
        with writing_stdout():
            typer.echo(json.dumps(found.as_dict(), ensure_ascii=False, default=str))
        return
    mib = found.file_bytes / 2**20
    ratio = "" if found.per_text_byte is None else f", {found.per_text_byte:.2f} bytes per byte of text"
    layout = (
        "lean (no shingles nor MinHash values: commands that read them make them again)"
        if found.lean
        else "every stage's table (--keep-all-tables)"
    )
    if "view" in found.tables.column("kind").to_pylist():
        layout += "; the pairs within groups of exact copies stored as the groups (copies), listed by the views"
    with writing_stdout():
        typer.echo(f"database: {db} ({mib:,.1f} MiB{ratio}; storage format {found.storage_version})")
        typer.echo(f"documents: {found.documents:,} ({found.text_bytes / 2**20:,.1f} MiB of text)")
        typer.echo(f"layout: {layout}")
        free = found.free_blocks / max(found.used_blocks + found.free_blocks, 1)
        typer.echo(
            f"blocks: {found.used_blocks:,} used, {found.free_blocks:,} free ({free:.0%}) of "
            f"{found.block_size // 1024} KiB"
        )
    print_table(found.tables, TableFormat.table)
    print_table(found.runs, TableFormat.table)
