"""Writing the input back without the dropped documents, in the input's own form (each kind's
`write_copy`, dedup.corpus.kinds), kept only if the input did not change meanwhile."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from ..errors import InputError, UsageError
from ..formats import COPY_FORMATS, named_format
from ..output import check_new_target, format_for, replacing, write_rows
from ..settings import Reading
from .kinds import Input, Table, input_kind
from .stamp import FileStamp, changed_files


def copied_input(reading: Reading) -> Input:
    """The one input a deduplicated copy is made of."""
    if len(reading.inputs) != 1:
        raise UsageError("--write-deduplicated takes exactly one input (a folder, a --lines file or a table)")
    return input_kind(reading.inputs[0], reading.lines)


def check_target(reading: Reading, out: Path) -> Input:
    """Refuse, before any work is done, a copy of an input that cannot be made (one input, a file
    or folder that can be read again; a table copied as a table), or a target it cannot be written
    to; the input copied."""
    source = copied_input(reading)
    source.check_copy(out)
    is_table_copy(reading, out)  # a compressed table's name for a folder's copy: refused
    check_new_target(out, "--write-deduplicated", reading.inputs)
    return source


def write_deduplicated_input(
    reading: Reading, out: Path, dropped: set[object], read: tuple[FileStamp, ...] | None = None
) -> None:
    """Write the input minus the dropped documents to `out`: `dropped` holds their ids, or for a
    `--lines` file their line numbers (what the lines are called with or without --ids).

    A table (any form: .tsv, .csv.gz, a Parquet dataset, ...) becomes a table with all its
    columns; a folder becomes a folder with the same relative paths (files that were skipped,
    e.g. binary ones, are copied too: only dropped documents are left out); a `--lines` file
    becomes a file of the kept lines, byte for byte, each with its own line ending.

    `read`: the input's stamp taken before the run read it (dedup.corpus.stamp). The copy is
    written under a temporary name and kept only if the input is still what the run read.
    """
    source = check_target(reading, out)
    with replacing(out) as target:  # a file, or a folder (a folder's write_copy makes it)
        source.write_copy(target, dropped, reading)
        _check_unchanged(source, read)


def is_table_copy(reading: Reading, out: Path) -> bool:
    """Whether the copy of a folder or a --lines file is a table (`id`, `text`): its name's suffix
    names a table format (a copy named out.parquet was a folder of text files of that name),
    compressed or not (`out.jsonl.zst`)."""
    if isinstance(copied_input(reading), Table):
        return False
    if named_format(out, COPY_FORMATS) is None:
        return False
    format_for(out, COPY_FORMATS, "deduplicated table")  # out.parquet.gz: refused
    return True


def write_kept_documents(
    reading: Reading, out: Path, rows: pa.RecordBatchReader, read: tuple[FileStamp, ...] | None = None
) -> None:
    """Write the kept documents (`rows`: id, text, in input order) to `out` as the table its suffix
    names, kept only if the input is still what the run read (as write_deduplicated_input)."""
    source = check_target(reading, out)
    with replacing(out) as target:
        write_rows(rows, target, format_for(out))
        _check_unchanged(source, read)


def _check_unchanged(source: Input, read: tuple[FileStamp, ...] | None) -> None:
    if read is None:
        return
    changed = changed_files(read, source.stamp())
    if changed:
        path = source.path
        where = path if not path.is_dir() else path / changed[0]
        more = f" (and {len(changed) - 1} more files)" if len(changed) > 1 else ""
        raise InputError(
            f"{where}{more} changed while the run was going: the deduplicated copy would drop the wrong "
            "documents, so none was written; run again on an input that stays still"
        )
