"""A table's columns as documents: the text and id columns found and checked, decoded (UTF-8,
else Latin-1 where a format allows it), ids as the run names them, NULL texts skipped."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from ..errors import InputError
from .collected import Corpus, Skipped


def read_arrow(
    corpus: Corpus,
    table: pa.Table,
    path: str,
    id_column: str | None,
    text_column: str,
    prefix: str | None,
    latin1: tuple[str, ...] = (),
    rows_before: int = 0,
) -> None:
    columns = table.column_names
    if text_column not in columns:
        raise InputError(
            f"{path}: no text column {text_column!r}; columns are {', '.join(map(repr, columns)) or 'none'}"
        )
    if id_column is not None and id_column not in columns:
        raise InputError(f"{path}: no id column {id_column!r}; columns are {', '.join(map(repr, columns)) or 'none'}")
    id_name = id_column if id_column is not None else ("id" if "id" in columns else None)
    key_name = corpus.keep_by.column if corpus.keep_by is not None else None
    if key_name is not None and key_name not in columns:
        raise InputError(f"{path}: no --keep-by column {key_name!r}; columns are {', '.join(map(repr, columns))}")
    for name in (text_column, id_name, key_name):
        if name is not None and columns.count(name) > 1:
            raise InputError(f"{path}: {columns.count(name)} columns are named {name!r}; which one is meant?")
    if "text" in latin1:
        texts, encodings = decoded_cells(table.column(text_column), path, "text", text_column)
    else:
        texts, encodings = decoded_column(table.column(text_column), path, "text", text_column), None
    if not (pa.types.is_string(texts.type) or pa.types.is_large_string(texts.type) or pa.types.is_null(texts.type)):
        raise InputError(f"{path}: text column {text_column!r} has type {texts.type}, expected strings")
    if id_name is not None:
        if "id" in latin1:
            ids = decoded_cells(table.column(id_name), path, "id", id_name)[0]
        else:
            ids = decoded_column(table.column(id_name), path, "id", id_name)
        if ids.null_count:
            raise InputError(f"{path}: id column {id_name!r} has {ids.null_count} empty (NULL) values")
        if pa.types.is_nested(ids.type):
            raise InputError(f"{path}: id column {id_name!r} has type {ids.type}; ids are numbers or strings")
        if pa.types.is_floating(ids.type):
            nans = sum(1 for value in ids.to_pylist() if value != value)
            if nans:
                raise nan_ids(path, id_name, nans)
        id_values = id_strings(ids, path, id_name).to_pylist()
    else:
        id_values = list(range(rows_before + 1, rows_before + table.num_rows + 1))
    if prefix is not None:
        id_values = [f"{prefix}:{doc_id}" for doc_id in id_values]
    keys = None
    if corpus.keep_by is not None and key_name is not None:
        cells = table.column(key_name)
        if pa.types.is_binary(cells.type) or pa.types.is_large_binary(cells.type):  # a CSV's cells, or bytes
            # as the text of its row is read: a CSV's cell as UTF-8, else Latin-1; other bytes as UTF-8
            role = "--keep-by"
            cells = (
                decoded_cells(cells, path, role, key_name)[0] if latin1 else decoded_column(cells, path, role, key_name)
            )
        keys = corpus.keep_by.keys(cells, path)
    if texts.null_count:
        present = texts.is_valid()
        kept = present.to_pylist()
        corpus.skipped.extend(Skipped(str(d), "text is NULL") for d, k in zip(id_values, kept, strict=True) if not k)
        id_values = [doc_id for doc_id, k in zip(id_values, kept, strict=True) if k]
        if encodings is not None:
            encodings = [encoding for encoding, k in zip(encodings, kept, strict=True) if k]
        if keys is not None:
            keys = (keys[0].filter(present.combine_chunks()), keys[1].filter(present.combine_chunks()))
        texts = texts.filter(present)
    corpus.add_texts(id_values, texts, encodings, keys)


def nan_ids(path: str, name: str, count: int) -> InputError:
    """The error for NaN ids (both engines): NaN equals nothing, not even NaN, so two NaN ids passed
    the uniqueness check and gave two documents named "nan"."""
    return InputError(f"{path}: id column {name!r} has {count} NaN (not a number) values; NaN cannot name a document")


def decoded_column(column: pa.ChunkedArray, path: str, role: str, name: str) -> pa.ChunkedArray:
    """A column's values as plain arrays: dictionary-encoded columns (a pandas category) decoded,
    string views as strings, bytes as UTF-8 text; text that is not valid UTF-8 is an error that
    names the column (Parquet and JSON readers do not check it)."""
    kind = column.type
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if pa.types.is_string_view(kind) or pa.types.is_binary_view(kind) or pa.types.is_large_binary(kind):
        kind = pa.large_string()
    elif pa.types.is_binary(kind):
        kind = pa.string()
    try:
        column = column.cast(kind) if kind != column.type else column
        if pa.types.is_string(kind) or pa.types.is_large_string(kind):
            column.validate(full=True)
    except pa.ArrowInvalid:
        raise InputError(f"{path}: {role} column {name!r} holds text that is not valid UTF-8") from None
    return column


def id_strings(ids: pa.ChunkedArray, path: str, name: str) -> pa.ChunkedArray:
    """Ids that are neither integers nor strings (floats, decimals, dates, times, durations,
    booleans) as Arrow writes them as text, as the run names them. Through Python values they
    changed: a float32 0.1 became "0.10000000149011612", a duration of 1 s "1000000"."""
    kind = ids.type
    if pa.types.is_integer(kind) or pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return ids
    try:
        return ids.cast(pa.string())
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid):
        raise InputError(f"{path}: id column {name!r} has type {kind}; ids are numbers or strings") from None


def decoded_cells(column: pa.ChunkedArray, path: str, role: str, name: str) -> tuple[pa.ChunkedArray, list[str] | None]:
    """A column as decoded_column reads it, except that a cell that is not valid UTF-8 is read as
    Latin-1, as a text file or a line is (see decode); with each cell's encoding when one was."""
    try:
        return decoded_column(column, path, role, name), None
    except InputError:
        pass
    if pa.types.is_dictionary(column.type):
        column = pa.chunked_array([chunk.dictionary_decode() for chunk in column.chunks], column.type.value_type)
    texts: list[str | None] = []
    encodings: list[str] = []
    for value in column.cast(pa.large_binary()).to_pylist():
        try:
            texts.append(None if value is None else value.decode("utf-8"))
            encodings.append("utf-8")
        except UnicodeDecodeError:
            texts.append(value.decode("latin-1"))
            encodings.append("latin-1")
    array = pa.array(texts, pa.string())  # a ChunkedArray past 2 GiB of text
    return (array if isinstance(array, pa.ChunkedArray) else pa.chunked_array([array])), encodings


def csv_cells_as_text(table: pa.Table, path: Path) -> pa.Table:
    """A CSV read with cells that are not UTF-8 (read as bytes, see _csv_parts) with every cell as
    the run reads it: UTF-8, else Latin-1."""
    columns = [
        decoded_cells(column, str(path), "a", name)[0] if pa.types.is_binary(column.type) else column
        for name, column in zip(table.column_names, table.columns, strict=True)
    ]
    return pa.table(columns, names=table.column_names)
