"""The dedup command line: one Typer app joined from one module per group of commands.

common.py holds what the commands share (options, failures, printing); run.py the commands of
a run (run, sql, show-sql), evaluate.py `eval`, params.py `params`, index.py the commands on a
run's database (clusters, export, explain, buckets, query, add, remove, list), audit.py `audit`, report.py
`report`. Each group is added without a name, so every command stays top-level (`dedup add`,
not `dedup index add`). The groups import common, never this module: no import circle.
"""

from typing import Annotated, Optional

import typer

from ..version import __version__
from . import audit, evaluate, index, params, report, run
from .common import writing_stdout

try:  # typer >= 0.20 vendors click
    from typer._click.exceptions import UsageError as ClickUsageError
except ImportError:  # pragma: no cover - older typer depends on click
    from click.exceptions import UsageError as ClickUsageError  # type: ignore[no-redef,assignment,unused-ignore]
from typer.core import TyperArgument, TyperGroup

_typer_metavar = TyperArgument.make_metavar


def _plain_metavar(self, ctx, *, usage=False):  # type: ignore[no-untyped-def]
    """Typer (0.2x) writes a required argument {name} in usage lines, which read as a literal
    (`dedup run [OPTIONS] {inputs}...`); dedup writes them as Unix manuals do: INPUT..., DB."""
    return _typer_metavar(self, ctx, usage=usage).replace("{", "").replace("}", "").upper()


TyperArgument.make_metavar = _plain_metavar  # type: ignore[method-assign]


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


app = typer.Typer(
    cls=OneLineErrors,
    rich_markup_mode=None,  # plain help: flags without <bool>, every default shown, choices unbroken
    help="Find near-duplicate documents: shingles -> MinHash -> LSH -> exact Jaccard, in SQL (DuckDB).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def version_callback(value: bool) -> None:
    if value:
        with writing_stdout():
            typer.echo(f"dedup {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        Optional[bool], typer.Option("--version", callback=version_callback, is_eager=True, help="Show the version.")
    ] = None,
) -> None:
    """Find near-duplicate documents with MinHash LSH, verified by exact Jaccard, all in DuckDB SQL."""


for group in (run.app, evaluate.app, index.app, audit.app, params.app, report.app):
    app.add_typer(group)
