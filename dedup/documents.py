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


def as_table(documents: Any, id_column: str | None = None, text_column: str | None = None) -> pa.Table:
    """The documents as an Arrow table with the columns `id` (optional) and `text`.

    - a list of strings: one document each, ids 1, 2, ... (as the lines of a --lines file);
    - a list of (id, text) pairs, or a dict {id: text};
    - a pyarrow Table/RecordBatch/RecordBatchReader or any object with `__arrow_c_stream__`
      (pandas, polars): its `text_column` (default `text`) and `id_column` (default `id`, else
      the 1-based row number).
    """
    if isinstance(documents, str):
        raise UsageError("give documents as a list of strings, not one string")
    if isinstance(documents, pa.RecordBatchReader):
        return _columns(documents.read_all(), id_column, text_column)
    if isinstance(documents, pa.RecordBatch):
        return _columns(pa.Table.from_batches([documents]), id_column, text_column)
    if isinstance(documents, pa.Table):
        return _columns(documents, id_column, text_column)
    if hasattr(documents, "__arrow_c_stream__"):
        return _columns(pa.table(documents), id_column, text_column)
    if isinstance(documents, Mapping):  # iterated, a dict gives its keys: they would be the texts
        documents = list(documents.items())
    if isinstance(documents, Set):  # the ids 1, 2, ... would follow an order that changes between processes
        raise UsageError("give documents as a list, not a set: a set has no order, so the ids 1, 2, ... would change")
    if isinstance(documents, Iterable):
        items = list(documents)
        if id_column is not None or text_column is not None:
            raise UsageError("id_column and text_column apply to tables, not to a list of documents")
        if all(isinstance(item, str) for item in items):
            return pa.table({"text": pa.array(items, pa.string())})
        if all(isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], str) for item in items):
            try:
                ids = pa.array([item[0] for item in items])
            except (pa.ArrowInvalid, pa.ArrowTypeError) as error:
                raise UsageError(f"the documents' ids must be all integers or all strings: {error}") from None
            return pa.table({"id": ids, "text": pa.array([item[1] for item in items], pa.string())})
    raise UsageError(
        "documents must be a list of strings, a list of (id, text) pairs, a pyarrow Table, "
        f"or a data frame with the Arrow PyCapsule interface, not {type(documents).__name__}"
    )


def _columns(table: pa.Table, id_column: str | None, text_column: str | None) -> pa.Table:
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
    return pa.table(kept)
