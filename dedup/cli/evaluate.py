"""`dedup eval`: how many true pairs LSH finds, measured against --method exact on the same input."""

from typing import Annotated, Optional

import typer

from ..choices import Method, ShingleType
from ..errors import DedupError
from ..hashing import DEFAULT_SEED
from .common import (
    Bands,
    IdColumn,
    Inputs,
    Lines,
    NumPerm,
    Rows,
    Seed,
    ShingleSize,
    ShingleTypeOption,
    TextColumn,
    Threads,
    Threshold,
    command_group,
    fail,
    writing_stdout,
)

app = command_group()


@app.command("eval")
def evaluate_command(
    inputs: Inputs,
    threshold: Threshold = 0.8,
    shingle_type: ShingleTypeOption = ShingleType.char,
    shingle_size: ShingleSize = 9,
    num_perm: NumPerm = 128,
    seed: Seed = DEFAULT_SEED,
    bands: Bands = None,
    rows: Rows = None,
    lines: Lines = False,
    id_column: IdColumn = None,
    text_column: TextColumn = None,
    threads: Threads = None,
    sample: Annotated[
        Optional[int], typer.Option(min=2, help="Evaluate on this many documents drawn at random (--sample-seed).")
    ] = None,
    sample_seed: Annotated[int, typer.Option(help="Seed of the --sample draw.")] = 0,
) -> None:
    """Run lsh and exact on the same input; print recall, precision and recall per similarity bucket.

    Example: dedup eval data/clough --threshold 0.5 --shingle-type word -k 3
    """
    given = dict(locals())  # the options, named as Settings' fields but for the sample's
    del given["sample"], given["sample_seed"]
    from ..evaluation import evaluate
    from ..options import run_options

    try:
        settings = run_options(**given, method=Method.exact)
        result = evaluate(settings, sample, sample_seed)
    except DedupError as error:
        fail(error)
    banding = settings.sketch.banding
    with writing_stdout():
        typer.echo(f"documents: {result.documents}" + (f" (a random sample, seed {sample_seed})" if sample else ""))
        typer.echo(
            f"lsh: {banding.bands} bands x {banding.rows} rows, {result.lsh_seconds:.2f} s; "
            f"exact: {result.exact_seconds:.2f} s"
        )
        typer.echo(
            f"exact pairs: {result.exact_pairs}  lsh pairs: {result.found_pairs}  candidates: {result.candidates}"
        )
        if result.exact_pairs:
            typer.echo(f"recall: {result.recall:.6f}  precision: {result.precision:.6f}")
        else:  # 0 of 0 is no evidence: recall 1.0 claimed a measurement that was never made
            missing = f"no pair at Jaccard >= {settings.sketch.threshold} to find"
            typer.echo(f"recall: - ({missing})  precision: {result.precision:.6f}")
        typer.echo(f"candidates per true pair: {result.candidates_per_true_pair:.3f}")
        typer.echo("similarity      exact  found   recall  S-curve")
        for b in result.buckets:
            figures = f"{b.recall:8.4f} {b.predicted:8.4f}" if b.exact else f"{'-':>8} {'-':>8}"
            typer.echo(f"{b.low:.2f}-{b.high:.2f}  {b.exact:9d} {b.found:6d} {figures}")
