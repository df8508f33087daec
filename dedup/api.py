"""The Python API: `dedup.run` on paths or documents in memory, and `dedup.Index` for a kept index.

Every function here is what a CLI command does, with Arrow tables instead of printed text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from numbers import Integral, Real
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import UsageError

if TYPE_CHECKING:
    import pyarrow as pa

    from .choices import Keep, Resolve
    from .index.explain import Explanation
    from .recall import Audit

Inputs = Any  # a path, a list of paths, or documents (see dedup.documents.as_table)


def run(
    inputs: Inputs = None,
    threshold: float = 0.8,
    *,
    documents: Any = None,
    shingle_type: str = "char",
    shingle_size: int = 9,
    num_perm: int = 128,
    seed: int | None = None,
    bands: int | None = None,
    rows: int | None = None,
    method: str = "lsh",
    max_shingle_df: int | float | str | None = None,
    lines: bool = False,
    id_column: str | None = None,
    text_column: str | None = None,
    delimiter: str | None = None,
    include_hidden: bool = False,
    follow_links: bool = False,
    ids_file: str | Path | None = None,
    pairs: str = "all",
    strip_html: bool = False,
    db: str | Path | None = None,
    keep_all_tables: bool = False,
    replace: bool = False,
    threads: int | None = None,
    memory_limit: str | None = None,
    temp_dir: str | Path | None = None,
    keep: str | None = None,
    resolve: str | None = None,
    keep_by: str | None = None,
    write_deduplicated: str | Path | None = None,
    exports: Mapping[str, str | Path] | None = None,
    audit: int | None = None,
    engine: str = "duckdb",
    spark: Any = None,
    work_dir: str | Path | None = None,
    master: str | None = None,
    spark_conf: dict[str, str] | None = None,
) -> pa.Table:
    """Pairs of documents with exact Jaccard >= threshold: an Arrow table (id_a, id_b, jaccard, estimate).

    The same run as `dedup run` with the same options (one library function,
    dedup.pipeline.execute): with `db`, the database keeps the run (its lean layout: documents,
    band hashes, pairs, clusters; `keep_all_tables` keeps every stage's table, the shingles and
    signatures too) and the clusters (survivors by `keep`, default first); `write_deduplicated`
    writes the input minus the dropped duplicates; `exports` maps what `dedup export` writes
    (pairs, clusters, duplicates, survivors, adjacency) to a file each (.csv, .parquet, .jsonl,
    .json), as `--export WHAT=FILE`. `keep_by` prefers survivors by a column of a table input (as
    `--keep-by`); `audit` measures recall on that many sampled documents at the end (as
    `--audit`), recorded in `db`'s runs table (`Index(db).audit()` measures it again and returns it).

    `inputs` are paths (a folder, a text file, a table, or a list of them) read as `dedup run`
    reads them; `documents` are documents in memory: a list of strings (ids 1, 2, ...), a list of
    (id, text) pairs, a dict {id: text}, a pyarrow Table, or any data frame with the Arrow
    PyCapsule interface (pandas, polars) with a `text` column and an optional `id` column. A
    pyarrow Table, a data frame, a dict or a list of (id, text) pairs may also be given as
    `inputs`. Keyword arguments mirror
    the options of `dedup run`.

    engine="spark" runs the same stages on Spark (paths only): on `spark`, an existing
    SparkSession (a spark-submit job's, a notebook's), or on a new session (`master`,
    `spark_conf`), with the stage tables as Parquet under `work_dir` (a temporary folder if None,
    for local masters only). The clusters are built there (table `clusters`) when `keep` is given
    or an export needs them.

    >>> import dedup
    >>> texts = ["the cat sat on the mat today", "the cat sat on the mat today!", "something else"]
    >>> dedup.run(documents=texts, threshold=0.5).to_pylist()
    [{'id_a': 1, 'id_b': 2, 'jaccard': 0.9523809523809523, 'estimate': 0.9453125}]
    >>> pairs = dedup.run("data/clough", threshold=0.8)
    >>> pairs.num_rows
    4
    """
    given = dict(locals())  # the options, named as Settings' fields but for those below
    from .corpus import IN_MEMORY
    from .documents import as_table, is_in_memory
    from .keep_by import KeepBy
    from .options import run_options
    from .pipeline import execute

    documents, session = given.pop("documents"), given.pop("spark")
    given["replace_documents"] = given.pop("replace")
    if documents is None and is_in_memory(inputs):
        inputs, documents = None, inputs
    if (inputs is None) == (documents is None):
        raise UsageError("give either inputs (paths) or documents (in memory)")
    if inputs is not None:
        _check_not_texts(inputs)
    given["inputs"] = inputs if inputs is not None else IN_MEMORY
    kept_by = KeepBy.parse(keep_by).column if isinstance(keep_by, str) else None
    table = as_table(documents, id_column, text_column, kept_by) if documents is not None else None
    settings = run_options(in_memory=table is not None, **given)
    result = execute(settings, documents=table, session=session)
    assert result.pairs is not None, "a table is returned when no stream is asked for"
    _warn_skipped(result.skipped)
    return result.pairs


class SkippedWarning(UserWarning):
    """Inputs dedup.run skipped (a NULL text, a binary file, ...): counted, never dropped in silence."""


def _warn_skipped(skipped: pa.Table) -> None:
    """The skipped inputs as one warning, as the command's summary counts them (a NULL text given in
    memory vanished from the result without a word)."""
    if skipped.num_rows == 0:
        return
    import warnings

    from .wording import counted

    first = skipped.slice(0, 1).to_pylist()[0]
    shown = ", ".join(f"{key}={value!r}" for key, value in first.items())
    warnings.warn(f"dedup skipped {counted(skipped.num_rows, 'input')} (the first: {shown})", SkippedWarning, 3)


def _check_not_texts(inputs: Inputs) -> None:
    """Refuse texts given as paths (`dedup.run(["The cat sat on the mat.", ...])`, the first thing a
    notebook user types) in one line that points to documents=: a path that does not exist and
    holds whitespace is taken for a text."""
    given = [inputs] if isinstance(inputs, str) else inputs if isinstance(inputs, (list, tuple)) else []
    for item in given:
        if isinstance(item, str) and any(c.isspace() for c in item) and not Path(item).exists():
            shown = item if len(item) <= 40 else item[:40] + "..."
            raise UsageError(
                f"input not found: {shown!r}; to deduplicate texts in memory, give them as documents=[...]"
            )


def _paths(inputs: Inputs) -> tuple[Path, ...]:
    if isinstance(inputs, (str, Path)):
        return (Path(inputs),)
    return tuple(Path(p) for p in inputs)


class Index:
    """A database left by `dedup run --db` (or `dedup.run(..., db=...)`), used as a living index.

    Each call opens the database and closes it again, so other processes can use it in between.

    >>> import dedup, tempfile, pathlib
    >>> db = pathlib.Path(tempfile.mkdtemp()) / "index.duckdb"
    >>> _ = dedup.run(documents=[("a", "the cat sat on the mat"), ("b", "the cat sat on a mat")], db=db, threshold=0.5)
    >>> index = dedup.Index(db)
    >>> index.add(documents=[("c", "the cat sat on the mat!")])
    'added 1 document (0 replaced, 0 skipped); 1 pair involves it'
    >>> index.query(text="the cat sat on the mat").to_pylist()[0]["id"]
    'a'
    >>> index.explain("a", "c").jaccard > 0.5
    True
    >>> index.remove(["b"])
    1
    >>> index.export("survivors").column("id").to_pylist()
    ['a']
    >>> index.documents().num_rows
    2
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise UsageError(f"no database at {self.path} (create one with dedup.run(..., db=...))")

    def __repr__(self) -> str:
        return f"dedup.Index({str(self.path)!r})"

    def add(
        self,
        inputs: Inputs = None,
        *,
        documents: Any = None,
        replace: bool = False,
        keep: str | None = None,
        resolve: str | None = None,
    ) -> str:
        """Add documents (paths as `dedup add` reads them, or documents in memory); returns the summary.
        keep, resolve: the survivor rule of the clusters, by default the rule they were built by."""
        from .corpus import IN_MEMORY
        from .documents import as_table, is_in_memory
        from .index.documents import add_documents, open_index, recorded_options
        from .settings import Reading, check_type

        order, rule = _rule(keep, resolve)
        check_type("replace", replace, bool)
        if documents is None and is_in_memory(inputs):
            inputs, documents = None, inputs
        if (inputs is None) == (documents is None):
            raise UsageError("give either inputs (paths) or documents (in memory)")
        paths = _paths(inputs) if inputs is not None else (IN_MEMORY,)
        with open_index(self.path) as con:
            keep_by = Reading.recorded(recorded_options(con), paths).keep_by_column  # read from the added ones too
            table = as_table(documents, keep_by=keep_by and keep_by.column) if documents is not None else None
            report = add_documents(con, paths, replace=replace, keep=order, resolve=rule, documents=table)
        return report.rsplit(";", 1)[0]  # without the seconds, so the result is reproducible

    def query(
        self,
        text: str | None = None,
        *,
        id: str | int | None = None,
        min_jaccard: float | None = None,
        min_bands: int = 1,
        exact: bool = False,
    ) -> pa.Table:
        """The indexed documents similar to `text` (or to the indexed document `id`): id, jaccard,
        shared_bands; exact: every document sharing a shingle is compared, not only those sharing a
        band bucket."""
        from .index.documents import open_index
        from .index.similar import query_index
        from .settings import check_type

        if (text is None) == (id is None):
            raise UsageError("give exactly one of text or id")
        for name, value, kind in (
            ("text", text, str),
            ("min_jaccard", min_jaccard, Real),
            ("min_bands", min_bands, Integral),
            ("exact", exact, bool),
        ):
            check_type(name, value, kind)
        with open_index(self.path, read_only=True) as con:
            # an id as dedup.run returned it (a line number is an int) or as typed: compared as text
            doc_id = None if id is None else id_text(id)
            return query_index(con, text=text, doc_id=doc_id, min_jaccard=min_jaccard, min_bands=min_bands, exact=exact)

    def explain(self, id_a: str | int, id_b: str | int, examples: int = 3) -> Explanation:
        """Why two documents were (or were not) paired; str() of the result is what `dedup explain` prints."""
        from .index.documents import open_index
        from .index.explain import explain_pair
        from .settings import check_type

        check_type("examples", examples, Integral)
        with open_index(self.path, read_only=True) as con:
            return explain_pair(con, id_text(id_a), id_text(id_b), examples)

    def remove(
        self, ids: str | int | bytes | Iterable[str | int | bytes], keep: str | None = None, resolve: str | None = None
    ) -> int:
        """Remove documents (one id, or a list of ids) and their pairs; returns how many were removed.
        One string or bytes value is one id, never its characters (`remove("12")` is not
        `remove(["1", "2"])`, and `remove(b"12")` not the ids 49 and 50)."""
        from .index.documents import open_index, remove_documents

        given = list(ids) if isinstance(ids, Iterable) and not isinstance(ids, (str, bytes, bytearray)) else [ids]
        texts = [id_text(i) for i in given]
        order, rule = _rule(keep, resolve)
        with open_index(self.path) as con:
            return remove_documents(con, texts, keep=order, resolve=rule)

    def audit(self, sample: int = 1000, seed: int = 0) -> Audit:
        """The recall measured on `sample` documents drawn with `seed` (as `dedup audit`): `recall`,
        `interval` (Wilson, 95 %), `true_pairs`, `found_pairs`, `missed` pairs; `as_dict()` its JSON."""
        from .index.audit import audit
        from .index.documents import index_sketch, open_index
        from .settings import check_type

        check_type("sample", sample, Integral)
        check_type("seed", seed, Integral)
        with open_index(self.path, read_only=True) as con:
            return audit(con, index_sketch(con), int(sample), int(seed))

    def clusters(self, keep: str | None = None, resolve: str | None = None) -> pa.Table:
        """The clusters of two or more, rebuilt first by the rule given where it differs from theirs."""
        return self.export("clusters", keep=keep, resolve=resolve)

    def export(
        self,
        what: str = "pairs",
        output: str | Path | None = None,
        keep: str | None = None,
        resolve: str | None = None,
    ) -> pa.Table:
        """pairs, clusters, duplicates, survivors or adjacency as a table; also written to `output` if given.
        keep, resolve: the survivor rule (by default the clusters' own, else first and verified)."""
        from .choices import ExportKind, choose
        from .index.documents import open_index
        from .index.export import export_format, export_table, write_export

        kind = choose(ExportKind, what, "what")
        order, rule = _rule(keep, resolve)

        if output is not None:
            from .output import check_targets

            export_format(Path(output), kind)
            check_targets([("output", Path(output))], self.path)
        with open_index(self.path) as con:
            if output is not None:
                from .records import check_not_run_input

                check_not_run_input(con, Path(output), "output")
            table = export_table(con, kind, order, rule)
        if output is not None:
            write_export(table, Path(output), kind)
        return table

    def documents(self) -> pa.Table:
        """Every document with its shingle, similar-document and cluster counts (`dedup list`)."""
        from .index.documents import document_list, open_index

        with open_index(self.path, read_only=True) as con:
            return document_list(con)


def _rule(keep: str | None, resolve: str | None) -> tuple[Keep | None, Resolve | None]:
    """keep= and resolve= as given to the API: checked choices, None when not given."""
    from .choices import Keep, Resolve, choose

    return (
        choose(Keep, keep, "keep") if keep is not None else None,
        choose(Resolve, resolve, "resolve") if resolve is not None else None,
    )


def id_text(value: object) -> str:
    """A document id given to the API as the index names it: text as it is, an integer (Python's or
    numpy's) in decimal, bytes as UTF-8 text (as a binary id column is read). Anything else is
    refused: str() of a float or a tuple names no document."""
    if isinstance(value, str):
        return value
    if isinstance(value, Integral) and not isinstance(value, bool):
        return str(int(value))
    if isinstance(value, (bytes, bytearray)):
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError(f"the id {bytes(value)!r} is not UTF-8 text; ids are text or integers") from None
    raise UsageError(f"an id is text or an integer, not {type(value).__name__}: {value!r}")
