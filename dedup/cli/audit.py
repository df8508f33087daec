"""`dedup audit`: the recall of an index measured on a random sample (dedup.index.audit)."""

import json
from typing import Annotated

import typer

from ..choices import AuditFormat
from ..errors import DedupError
from ..settings import EngineOptions
from .common import Db, MemoryLimit, command_group, fail, stoppable, writing_stdout

app = command_group()


@app.command()
def audit(
    db: Db,
    sample: Annotated[int, typer.Option(help="How many documents to sample.", min=1)] = 1000,
    seed: Annotated[int, typer.Option(help="The sample's seed: the same seed and index give the same sample.")] = 0,
    output_format: Annotated[
        AuditFormat, typer.Option("--format", help="table: lines and the missed pairs; json: one object.")
    ] = AuditFormat.table,
    memory_limit: MemoryLimit = None,
) -> None:
    """Measure recall: search the index exactly for every document with Jaccard >= its threshold to
    each of a random sample of documents, and count how many of those pairs the index found.

    Example: dedup audit run.duckdb --sample 1000 --seed 7
    """
    from ..index.audit import audit as measure
    from ..index.documents import index_sketch, open_index

    try:  # a SIGTERM ends it as it ends run and add: exit 143 (it was 130, the engine's interruption)
        with (
            stoppable("interrupted") as attach,
            open_index(db, read_only=True, limits=EngineOptions(memory_limit=memory_limit)) as con,
        ):
            attach(con)
            measured = measure(con, index_sketch(con), sample, seed)
    except DedupError as error:
        fail(error)
    with writing_stdout():
        if output_format == AuditFormat.json:
            typer.echo(json.dumps(measured.as_dict(), ensure_ascii=False))
            return
        low, high = measured.interval
        recall = "-" if measured.recall is None else f"{measured.recall:.4f}"
        typer.echo(f"sample: {len(measured.sample):,} of {measured.documents:,} documents (seed {seed})")
        typer.echo(f"true pairs: {measured.true_pairs:,} with Jaccard >= {measured.threshold:g} (exact search)")
        typer.echo(f"found pairs: {measured.found_pairs:,} in the index")
        typer.echo(f"recall: {recall} (95 % Wilson interval {low:.4f}-{high:.4f})")
        distinct = measured.distinct_line()
        if distinct is not None:
            typer.echo(distinct)
        if measured.extra:
            typer.echo(f"pairs of the index the exact search did not find: {measured.extra:,} (the index is wrong)")
        typer.echo(f"missed: {len(measured.missed):,}")
        for pair in measured.missed:
            typer.echo(f"  {pair.id_a}\t{pair.id_b}\t{pair.jaccard:.6f}")
