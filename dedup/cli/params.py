"""`dedup params`: the LSH banding for a threshold, its S-curve and error areas, optionally plotted."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..errors import DedupError, UsageError
from ..formats import PLOT_FORMATS
from .common import Bands, NumPerm, Rows, Threshold, command_group, fail, stderr, writing_stdout

app = command_group()


@app.command()
def params(
    threshold: Threshold = 0.8,
    num_perm: NumPerm = 128,
    bands: Bands = None,
    rows: Rows = None,
    step: Annotated[float, typer.Option(help="Similarity step of the S-curve table.")] = 0.05,
    plot: Annotated[
        Optional[Path], typer.Option(help="Draw the S-curve to this .png, .svg or .pdf (needs the 'plot' extra).")
    ] = None,
) -> None:
    """Show the bands x rows that `dedup run` uses, the S-curve 1-(1-s^r)^b and its error areas.

    Example: dedup params --threshold 0.8 --num-perm 128 --plot s-curve.png
    """
    from ..banding import error_areas, s_curve
    from ..output import check_targets, check_writable
    from ..settings import Sketch

    try:
        if plot is not None:  # by its extension, in a folder that exists, never over a database
            check_writable(plot, PLOT_FORMATS, "plot")
            check_targets([("--plot", plot)])
        if not 0.0 < step <= 1.0:
            raise UsageError(f"--step must be in (0, 1], got {step}")
        banding = Sketch(threshold=threshold, num_perm=num_perm, bands=bands, rows=rows).banding
        false_positive, false_negative = error_areas(threshold, banding.bands, banding.rows)
        count = round(1.0 / step)
        curve = s_curve(
            banding.bands, banding.rows, sorted({round(i * step, 6) for i in range(count + 1)} | {threshold})
        )
        if plot is not None:
            draw(plot, threshold, banding.bands, banding.rows)
    except DedupError as error:
        fail(error)
    with writing_stdout():
        used = banding.bands * banding.rows
        typer.echo(
            f"threshold {threshold}, {num_perm} permutations: {banding.bands} bands x {banding.rows} rows ({used} used)"
        )
        typer.echo(f"P(candidate) at the threshold: {banding.probability(threshold):.6f}")
        typer.echo(f"false positive area (integral of P over [0, t]): {false_positive:.6f}")
        typer.echo(f"false negative area (integral of 1-P over [t, 1]): {false_negative:.6f}")
        typer.echo("similarity  P(candidate)")
        for similarity, probability in curve:
            mark = "  <- threshold" if similarity == threshold else ""
            typer.echo(f"{similarity:10.3f}  {probability:12.6f}{mark}")
    if plot is not None:
        stderr.print(f"S-curve drawn to {plot}", markup=False)


def draw(path: Path, threshold: float, bands: int, rows: int) -> None:
    """The S-curve drawn to `path` (a format of dedup.formats.PLOT_FORMATS, whose names are
    matplotlib's), written as every output is."""
    from ..output import replacing

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise DedupError(
            "--plot needs matplotlib: pip install '.[plot]' from a clone of dedup, or pip install matplotlib"
        ) from None
    from ..banding import s_curve

    points = s_curve(bands, rows, [i / 200 for i in range(201)])
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.plot([s for s, _ in points], [p for _, p in points], label=f"{bands} bands x {rows} rows")
    axes.axvline(threshold, color="grey", linestyle="--", label=f"threshold {threshold}")
    axes.set_xlabel("Jaccard similarity")
    axes.set_ylabel("P(candidate)")
    axes.legend()
    try:
        with replacing(path) as target:  # a temporary file renamed over `path` once complete
            figure.savefig(target, format=PLOT_FORMATS[path.suffix.lower()], dpi=100)
    finally:
        plt.close(figure)
