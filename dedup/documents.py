"""Documents given in memory (the Python API): strings, (id, text) pairs, Arrow tables and data frames.

Any object that speaks the Arrow PyCapsule interface (`__arrow_c_stream__`: pandas >= 2.2, polars,
DuckDB relations, pyarrow itself) is read through pyarrow, so neither pandas nor polars is imported.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set
from typing import Any

import pyarrow as pa

from .errors import UsageError


def is_in_memory(inputs: object) -> bool:
    """Whether `inputs` are documents rather than paths: an Arrow-speaking object or a list of texts/pairs."""
    if isinstance(inputs, (pa.Table, pa.RecordBatch, pa.RecordBatchReader)) or hasattr(inputs, "__arrow_c_stream__"):
        return True
    if isinstance(inputs, Mapping):  # {id: text}; a mapping of paths means nothing
        return True
    if isinstance(inputs, (list, tuple)) and inputs:
        return all(isinstance(item, tuple) and len(item) == 2 for item in inputs)
    return False


def as_table(
    documents: Any, id_column: str | None = None, text_column: str | None = None, keep_by: str | None = None
) -> pa.Table:
    """The documents as an Arrow table with the columns `id` (optional) and `text`, and the
    column `keep_by` of a table when it is given (dedup.keep_by).

    - a list of strings: one document each, ids 1, 2, ... (as the lines of a --lines file);
    - a list of (id, text) pairs, or a dict {id: text};
    - a pyarrow Table/RecordBatch/RecordBatchReader or any object with `__arrow_c_stream__`
      (pandas, polars): its `text_column` (default `text`) and `id_column` (default `id`, else
      the 1-based row number).
    """
    if isinstance(documents, str):
        raise UsageError("give documents as a list of strings, not one string")
    if isinstance(documents, pa.RecordBatchReader):
        return _columns(documents.read_all(), id_column, text_column, keep_by)
    if isinstance(documents, pa.RecordBatch):
        return _columns(pa.Table.from_batches([documents]), id_column, text_column, keep_by)
    if isinstance(documents, pa.Table):
        return _columns(documents, id_column, text_column, keep_by)
    if hasattr(documents, "__arrow_c_stream__"):
        try:
            table = pa.table(documents)
        except (pa.ArrowInvalid, pa.ArrowTypeError) as error:  # a pandas object column of mixed types
            problem = ", ".join(str(part) for part in error.args) if error.args else str(error)
            raise UsageError(f"cannot read the data frame as a table ({problem}): give each column one type") from None
        return _columns(table, id_column, text_column, keep_by)
    if isinstance(documents, Mapping):  # iterated, a dict gives its keys: they would be the texts
        documents = list(documents.items())
    if isinstance(documents, Set):  # the ids 1, 2, ... would follow an order that changes between processes
        raise UsageError("give documents as a list, not a set: a set has no order, so the ids 1, 2, ... would change")
    if isinstance(documents, Iterable):
        items = list(documents)
        if id_column is not None or text_column is not None:
            raise UsageError("id_column and text_column apply to tables, not to a list of documents")
        if all(isinstance(item, str) for item in items):
            return pa.table({"text": _texts(items, "text")})
        if all(isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], str) for item in items):
            keys = [item[0] for item in items]
            _texts([key for key in keys if isinstance(key, str)], "id")
            try:
                ids = pa.array(keys)
            except (pa.ArrowInvalid, pa.ArrowTypeError) as error:
                raise UsageError(f"the documents' ids must be all integers or all strings: {error}") from None
            return pa.table({"id": ids, "text": _texts([item[1] for item in items], "text")})
    raise UsageError(
        "documents must be a list of strings, a list of (id, text) pairs, a pyarrow Table, "
        f"or a data frame with the Arrow PyCapsule interface, not {type(documents).__name__}"
    )


def _texts(values: list[str], what: str) -> pa.Array:
    """Strings as an Arrow array; one with a lone surrogate (`'\\ud800'`, what surrogateescape makes
    of bytes that are not UTF-8) is refused in one line, naming it: UTF-8 cannot hold it."""
    try:
        return pa.array(values, pa.string())
    except UnicodeEncodeError:
        pass
    for number, value in enumerate(values, 1):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            raise UsageError(
                f"the {what} of document {number} holds a lone surrogate ({value[error.start]!r} at character "
                f"{error.start}), which is not text: decode its bytes with errors='replace' (or as Latin-1)"
            ) from None
    raise AssertionError("a string that UTF-8 cannot encode was not found")


def _columns(table: pa.Table, id_column: str | None, text_column: str | None, keep_by: str | None) -> pa.Table:
    text = text_column or "text"
    columns = table.column_names
    if text not in columns:
        raise UsageError(f"the documents have no text column {text!r}; columns are {', '.join(map(repr, columns))}")
    if id_column is not None and id_column not in columns:
        raise UsageError(f"the documents have no id column {id_column!r}; columns are {', '.join(map(repr, columns))}")
    ids = id_column or ("id" if "id" in columns else None)
    kept = {"text": table.column(text)}
    if ids is not None:
        kept = {"id": table.column(ids), **kept}
    if keep_by is not None and keep_by in columns and keep_by not in kept:  # a missing one: read_arrow's error
        kept[keep_by] = table.column(keep_by)
    return pa.table(kept)
