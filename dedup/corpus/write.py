"""Writing the input back without the dropped documents, in the input's own form."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pyarrow as pa

from ..errors import InputError, UsageError
from ..formats import OUTPUT_FORMATS, PARQUET, is_delimited
from ..output import check_new_target, format_for, replacing, write_rows
from ..settings import Reading
from .columns import csv_cells_as_text, decoded_cells, decoded_column, id_strings
from .decoding import UTF8_BOM
from .folders import HIDDEN_FOLDER, walk_folder
from .lines import STDIN, line_break, read_once
from .stamp import FileStamp, changed_files, stamp_input
from .tables import is_table, load_table, table_format


def check_target(reading: Reading, out: Path) -> None:
    """Refuse, before any work is done, a copy of an input that cannot be made (one input, a file
    or folder that can be read again; a table copied as a table), or a target it cannot be written to."""
    if len(reading.inputs) != 1:
        raise UsageError("--write-deduplicated takes exactly one input (a folder, a --lines file or a table)")
    source = reading.inputs[0]
    if source == STDIN:
        raise UsageError("--write-deduplicated writes a copy of a file or folder, not of standard input")
    if read_once(source):  # the copy reads the input again
        raise UsageError(
            f"--write-deduplicated writes a copy of a file or folder, not of the named pipe {source}: "
            "write its content to a file and give that"
        )
    check_new_target(out, "--write-deduplicated", reading.inputs)
    if is_table(source, reading.lines) and out.suffix.lower() not in OUTPUT_FORMATS:
        raise UsageError(f"write the deduplicated table as .parquet, .csv or .jsonl, not {out.name}")


def _as_text(rows: pa.Table, source: Path, text_column: str) -> pa.Table:
    """A table bound for CSV or JSON lines with its texts as the run read them: strings that are not
    valid UTF-8 (and a binary text column) decoded as Latin-1 where they are not UTF-8, where
    writing them stopped with a traceback (a binary text was written as a Python bytes literal)."""
    for index, field in enumerate(rows.schema):
        kind = field.type
        if (
            pa.types.is_string(kind)
            or pa.types.is_large_string(kind)
            or (field.name == text_column and (pa.types.is_binary(kind) or pa.types.is_large_binary(kind)))
        ):
            rows = rows.set_column(
                index, field.name, decoded_cells(rows.column(index), str(source), "a", field.name)[0]
            )
    return rows


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
    check_target(reading, out)
    with replacing(out) as target:  # a file, or a folder (_write_copy makes it)
        _write_copy(reading, target, dropped)
        _check_unchanged(reading.inputs[0], read)


def _check_unchanged(source: Path, read: tuple[FileStamp, ...] | None) -> None:
    if read is None:
        return
    changed = changed_files(read, stamp_input(source))
    if changed:
        where = source if not source.is_dir() else source / changed[0]
        more = f" (and {len(changed) - 1} more files)" if len(changed) > 1 else ""
        raise InputError(
            f"{where}{more} changed while the run was going: the deduplicated copy would drop the wrong "
            "documents, so none was written; run again on an input that stays still"
        )


def _copied_as_is(path: Path) -> bool:
    """Whether a skipped input is in the deduplicated copy of its folder: a file (binary, hidden),
    a link (kept a link), a hidden folder (whole). Not a special file (a named pipe, a socket: no
    content to copy) nor a folder that could not be read."""
    return path.is_symlink() or path.is_file() or (path.is_dir() and os.access(path, os.R_OK | os.X_OK))


def _copy_regular_file(source: str, target: str) -> None:
    """copytree's copy of one file: a named pipe or socket inside a hidden folder is left out, as
    one beside it is (shutil would block reading a pipe)."""
    if os.path.isfile(source):
        shutil.copy2(source, target)


def _write_copy(reading: Reading, out: Path, dropped: set[object]) -> None:
    source = reading.inputs[0]
    table = is_table(source, reading.lines)
    if not table and source.is_dir():
        out.mkdir()
        for relative, path, reason in walk_folder(source, reading.include_hidden, reading.follow_links):
            target = out / path.relative_to(source)  # relative is the id: a name's non-UTF-8 bytes escaped
            if relative in dropped or (reason is not None and not _copied_as_is(path)):
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if reason == HIDDEN_FOLDER:  # not read, so nothing in it is a duplicate: copied whole
                shutil.copytree(path, target, symlinks=True, copy_function=_copy_regular_file)
            else:  # a document, or a skipped file; a link that was not read (out of the input,
                # to a folder, broken) stays a link
                shutil.copy2(path, target, follow_symlinks=reason is None)
    elif table:
        rows = load_table(source, reading.delimiter)
        if is_delimited(table_format(source)):
            rows = csv_cells_as_text(rows, source)  # as the run read them, not as bytes
        views = {pa.string_view(): pa.large_string(), pa.binary_view(): pa.large_binary()}  # pyarrow cannot filter them
        rows = rows.cast(pa.schema([field.with_type(views.get(field.type, field.type)) for field in rows.schema]))
        id_name = reading.id_column or ("id" if "id" in rows.column_names else None)
        if id_name is not None:
            import pyarrow.compute as pc  # ~50 ms to import: only a run that writes a deduplicated table needs it

            ids = decoded_column(rows.column(id_name), str(source), "id", id_name)  # as the run read them
            ids = id_strings(ids, str(source), id_name)
            drop = pa.array(sorted(dropped, key=str), ids.type) if dropped else pa.array([], ids.type)
            mask = pc.invert(pc.is_in(ids, value_set=drop))
        else:
            mask = pa.array([number not in dropped for number in range(1, rows.num_rows + 1)])
        rows = rows.filter(mask)
        if format_for(out, OUTPUT_FORMATS) != PARQUET:
            rows = _as_text(rows, source, reading.text_column)
        write_rows(rows, out)
    elif reading.lines:
        data = source.read_bytes()
        bom = data.startswith(UTF8_BOM)
        data = data[len(UTF8_BOM) if bom else 0 :]
        separator = line_break(data)  # as the run split them
        lines = data.split(separator)
        final_newline = bool(lines) and lines[-1] == b""
        if final_newline:
            lines.pop()
        # each kept line with its own ending: every line has the separator but an unterminated last
        # one (dropping it left the line before without its \n, a stray \r of a CRLF file)
        ends = [separator] * len(lines)
        if lines and not final_newline:
            ends[-1] = b""
        body = b"".join(
            line + end
            for number, (line, end) in enumerate(zip(lines, ends, strict=True), start=1)
            if number not in dropped
        )
        out.write_bytes((UTF8_BOM if bom else b"") + body)
    else:  # one file is one document: it has nothing to be a duplicate of
        shutil.copyfile(source, out)
