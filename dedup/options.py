"""A run's options, built and checked once for every caller (`dedup run`, `dedup eval`, `dedup.run`):
`Settings` puts each value in its form and checks it alone; here they are checked against the
engine (dedup.engines.kinds) and against the files they name, before any work is done."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from .corpus import check_column_options, check_target
from .engines import engine_kind
from .errors import UsageError
from .formats import EXPORT_FORMATS, OUTPUT_FORMATS, named_format
from .index.export import export_format
from .names import check_not_a_loop
from .output import (
    check_file_target,
    check_kept_outside,
    check_not_an_input,
    check_outside_work_dir,
    check_targets,
    check_writable,
    format_for,
)
from .settings import Settings


def run_options(*, in_memory: bool = False, **given: Any) -> Settings:
    """The settings of a run from its options as a user gives them (Settings' fields, as strings,
    paths, mappings or KEY=VALUE strings; None for a default), refused with a one-line error before
    anything is read when the inputs lack the columns or separator the options name, when an
    output's format or folder is wrong, or when an output would replace an input, the database or
    another output. in_memory: the documents are given in memory (`dedup.run(documents=...)`)."""
    settings = Settings.of(**{name: value for name, value in given.items() if value is not None})
    reading, run_on, outputs = settings.reading, settings.engine_options, settings.outputs
    for option, path in _paths_given(settings):
        check_not_a_loop(path, option)
    kind = engine_kind(run_on.engine)
    for refused in kind.refusals(settings.value):  # another engine's, or lacking
        raise UsageError(refused)
    if kind.check_more is not None:
        kind.check_more(run_on)
    if not kind.reads_paths and not in_memory:  # an engine that reads paths checks them as it reads them
        id_column, text_column = given.get("id_column"), given.get("text_column")
        check_column_options(reading.inputs, reading.lines, id_column, text_column, reading.delimiter)
    if outputs.output is not None and outputs.output_kind is None:  # no suffix dedup knows, no --format
        try:
            check_writable(outputs.output)
        except UsageError as error:
            raise UsageError(f"{error}, or give --format csv or jsonl") from None
    elif outputs.output is not None and named_format(outputs.output, OUTPUT_FORMATS) is not None:
        format_for(outputs.output)  # a format its name says and a compression it is not written in
    if outputs.output is not None:
        check_file_target(outputs.output)
    for what, path in outputs.exports:
        check_writable(path, EXPORT_FORMATS, "export")
        export_format(path, what)
    if outputs.write_deduplicated is not None and in_memory:  # there is no input file to copy
        raise UsageError(
            "write_deduplicated copies an input file: with documents in memory, take the kept ids "
            "from exports={'survivors': FILE} (or the duplicates from exports={'duplicates': FILE})"
        )
    if outputs.write_deduplicated is not None and not kind.writes_deduplicated:
        raise UsageError(f"--write-deduplicated is not supported with --engine {run_on.engine.value} yet")
    targets = [("--output", outputs.output)] if outputs.output is not None else []
    targets += [("--export", path) for _, path in outputs.exports]
    for option, path in targets:
        check_not_an_input(reading.files_read, path, option)
    for option, kept in (("--db", run_on.db), ("--temp-dir", run_on.temp_dir)):
        if kept is not None:
            check_kept_outside(reading.inputs, kept, option)
    if outputs.write_deduplicated is not None:
        targets.append(("--write-deduplicated", outputs.write_deduplicated))
    work_dir = _local_folder(run_on.work_dir)
    if work_dir is not None:
        check_not_an_input(reading.files_read, work_dir, "--work-dir")
        for option, path in targets:
            check_outside_work_dir(work_dir, path, option)
    check_targets(targets, run_on.db)
    if outputs.write_deduplicated is not None:
        check_target(reading, outputs.write_deduplicated)
    return settings


def _paths_given(settings: Settings) -> list[tuple[str, Path]]:
    """Every path a run's options name, with its option: inputs, outputs, database, spill folder."""
    reading, run_on, outputs = settings.reading, settings.engine_options, settings.outputs
    paths = [("the input", path) for path in reading.inputs if str(path) != "-"]
    named: list[tuple[str, Path | None]] = [("--output", outputs.output), ("--db", run_on.db)]
    named += [
        ("--temp-dir", run_on.temp_dir),
        ("--write-deduplicated", outputs.write_deduplicated),
    ]
    named += [("--ids", reading.ids_file)]
    paths += [(option, path) for option, path in named if path is not None and str(path) != "-"]
    return paths + [("--export", path) for _, path in outputs.exports]


def _local_folder(work_dir: str | None) -> Path | None:
    """Spark's work folder when it is on this machine (a path, or a file: URL), else None (hdfs://, s3a://)."""
    if work_dir is None:
        return None
    if work_dir.startswith("file:"):
        return Path(urlparse(work_dir).path)
    return Path(work_dir) if ":" not in work_dir else None
