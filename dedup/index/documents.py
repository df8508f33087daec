"""The database of a run as a living index: open it, read its options, add and remove documents."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa

from ..bindings import bound_fragment, parameter_values
from ..choices import Keep, Resolve
from ..corpus import Folder, input_kind, read_inputs
from ..engines import Engine, open_engine
from ..errors import DedupError, UsageError
from ..hashing import SCHEME
from ..interrupts import committing
from ..records import check_finished, forget_stages, latest_run, record_change, record_inputs
from ..runner import between_view, is_lean, run_staged, staging
from ..settings import EngineOptions, Reading, Sketch
from ..sqlfiles import quote_identifier
from ..stages import Stage, all_stages, between_table, compile_stages, layout_of, not_kept, optional_stages, stage_names
from ..wording import counted
from .clusters import update_clusters

# The tables every index has: the stages' but those a lean index does not keep (dedup.stages.Layout)
# and the groups of copies, which an index of a dedup before them does not have
INDEX_TABLES = (
    *(name for name in stage_names() if name not in not_kept() + stage_names("groups") + optional_stages()),
    "runs",
)
UNCHANGED = "interrupted; the index is unchanged"
# The table of the groups of exact copies (sql/04_copies.sql), which `add` and `remove` keep up
[GROUPS] = stage_names("groups")


@contextmanager
def open_index(db: Path, read_only: bool = False, limits: EngineOptions | None = None) -> Iterator[Engine]:
    if not db.exists():
        raise UsageError(f"no database at {db} (create one with `dedup run ... --db {db}`)")
    engine = open_engine(db, limits, read_only=read_only)
    try:
        missing = [table for table in INDEX_TABLES if not engine.has_table(table)]
        if missing:
            raise DedupError(f"{db} is not a dedup index: it has no {', '.join(missing)} table")
        check_finished(engine, db)  # a stopped run's tables mix two runs: no answer from them
        if not read_only:  # the --keep-by keys of an earlier dedup, before a change rebuilds the clusters
            engine.execute(engine.sql.query("document_keys_upgrade"))
        yield engine
    finally:
        engine.close()


def recorded_options(engine: Engine) -> Mapping[str, Any]:
    """The options of the index's latest run, as its runs table records them (Settings.options): every
    later change must match them."""
    latest = latest_run(engine)
    if latest is None:
        raise DedupError("the index has no run recorded in its runs table")
    scheme, options = latest
    if scheme != SCHEME:
        raise DedupError(f"the index uses hash scheme {scheme}, this dedup uses {SCHEME}: run it again from scratch")
    return options


def index_sketch(engine: Engine) -> Sketch:
    """What defines the index's pairs, as its latest run made them (an add keeps it)."""
    return Sketch.recorded(recorded_options(engine))


def check_changeable(sketch: Sketch, change: str) -> None:
    """Refuse to add or remove documents of an index built with --max-shingle-df: a change moves the
    document frequencies, and so which shingles are boilerplate in every document, old ones too."""
    if sketch.max_df is not None:
        raise DedupError(
            f"cannot {change} documents: the index was built with --max-shingle-df {sketch.max_shingle_df}, and "
            "a change of documents changes which shingles every document leaves out; run `dedup run` on the "
            "new set of documents instead"
        )


def check_requested(sketch: Sketch, requested: Mapping[str, object]) -> None:
    """Refuse options that differ from the index's: mixing them would make pairs meaningless."""
    actual = {
        "shingle_type": sketch.shingle_type,
        "shingle_size": sketch.shingle_size,
        "num_perm": sketch.num_perm,
        "seed": sketch.seed,
        "bands": sketch.banding.bands,
        "threshold": sketch.threshold,
    }
    for name, value in requested.items():
        if value is not None and value != actual[name]:
            option = "--" + name.replace("_", "-")
            raise UsageError(
                f"the index was built with {option} {actual[name]}, not {value}: "
                "an index's options are fixed when it is created"
            )


def doc_ids_of(engine: Engine, ids: list[str]) -> dict[str, int]:
    """doc_id of each given id (ids compared as text, so line numbers can be typed)."""
    engine.register_arrow("wanted_ids", pa.table({"id": pa.array([str(i) for i in ids], pa.string())}))
    try:
        rows = engine.fetch_rows(engine.sql.query("index_doc_ids"))
    finally:
        engine.unregister("wanted_ids")
    return {row[0]: row[1] for row in rows}


def add_documents(
    engine: Engine,
    inputs: tuple[Path, ...],
    *,
    replace: bool = False,
    keep: Keep | str | None = None,
    resolve: Resolve | str | None = None,
    requested: Mapping[str, object] | None = None,
    documents: pa.Table | None = None,
) -> str:
    """Add documents: the per-document stages run on the new ones only, the pair stages on pairs
    with at least one new document; the tables then equal those of a run on the union (up to
    doc_id numbering: added documents are numbered after the indexed ones)."""
    clock = time.perf_counter()
    options = recorded_options(engine)
    sketch, reading = Sketch.recorded(options), Reading.recorded(options, inputs)  # the index's, for the inputs
    check_changeable(sketch, "add")
    check_requested(sketch, requested or {})
    corpus = read_inputs(reading, documents=documents)
    raw = corpus.to_arrow()
    if documents is None and not reading.lines:
        raw = _named_as_indexed(engine, reading.inputs, raw)
    _check_id_type(engine, raw)
    existing = doc_ids_of(engine, [str(i) for i in raw.column("id").to_pylist()])
    if existing and not replace:
        shown = ", ".join(repr(i) for i in sorted(existing)[:5])
        indexed = f"{counted(len(existing), 'id is', 'ids are')} in the index already ({shown}...)"
        kinds = [input_kind(path, reading.lines) for path in inputs] if documents is None else []
        if len(kinds) == 1 and kinds[0].numbered_lines:  # the advice below would replace other lines
            raise DedupError(
                f"{indexed}: they are line numbers, as the index's "
                "own lines are, so --replace would replace those documents; to index both files, run again on "
                "both (their ids become FILE:LINE)"
            )
        if any(isinstance(kind, Folder) for kind in kinds):  # a second folder of the same names
            raise DedupError(
                f"{indexed}: use --replace to replace them if they are the same documents; if another "
                "folder holds other documents under the same names, run again on all the folders "
                "together (their ids become FOLDER/NAME)"
            )
        raise DedupError(f"{indexed}: use --replace to replace them")
    with engine.atomic(UNCHANGED):
        forget_stages(engine)  # the tables no longer match any run's inputs: a later run recomputes
        if not stored_between(engine):  # an index of an earlier add (sql/queries/index)
            engine.execute(engine.sql.query("pairs_orient"))
        else:
            _between_distinct(engine)
        if existing:
            _delete(engine, list(existing.values()))
        first_new, positions = engine.fetch_rows(engine.sql.query("index_next_numbers"))[0]
        if reading.keep_by is not None:  # the new documents' keys, read as the index's were
            engine.register_arrow("raw_documents", raw)
            engine.execute(engine.sql.query("document_keys_add", {"positions": positions}))
            engine.unregister("raw_documents")
        _stage_new_documents(engine, sketch, raw, first_new, positions)
        engine.register_arrow("raw_skipped", corpus.skipped_arrow())
        engine.execute(engine.sql.query("index_add_skipped"))
        engine.unregister("raw_skipped")
        counts = engine.fetch_rows(engine.sql.query("index_counts", {"added": len(raw)}))[0][0]
        record_change(engine, counts, {"add": round(time.perf_counter() - clock, 4)})
        if documents is None:
            record_inputs(engine, reading.files_read)
        update_clusters(engine, first_new, keep, resolve)  # in the same step: never the clusters of the index before
        committing()  # from here the change is saved: a Ctrl-C now must not say it was not
    new_pairs = engine.fetch_rows(engine.sql.query("index_new_pairs", {"first_new": first_new}))[0][0]
    latin1 = f", {corpus.latin1} decoded as Latin-1" if corpus.latin1 else ""  # counted, as a run's summary does
    involved = f"{counted(new_pairs, 'pair involves', 'pairs involve')} {'it' if raw.num_rows == 1 else 'them'}"
    return (
        f"added {counted(raw.num_rows, 'document')} ({len(existing)} replaced, {len(corpus.skipped)} skipped{latin1}); "
        f"{involved}; {time.perf_counter() - clock:.3f} s" + "".join(f"\nnote: {note}" for note in corpus.notes)
    )


def _named_as_indexed(engine: Engine, inputs: tuple[Path, ...], raw: pa.Table) -> pa.Table:
    """Files that lie inside a folder the index read, named as the index names them. `dedup add DB
    corpus/a.txt` after `dedup run corpus/` read a.txt as the id `corpus/a.txt` and indexed it a
    second time beside `a.txt`. A file's id becomes its path relative to such a folder when the
    index holds that id (it is the same document: the usual "already indexed, --replace" follows)."""
    from ..corpus import path_id
    from ..records import run_inputs

    folders = [folder for folder in run_inputs(engine) if folder.is_dir()]
    if not folders or raw.num_rows == 0:
        return raw
    prefixed = len(inputs) > 1
    renamed: dict[str, str] = {}
    for given in inputs:
        real = Path(os.path.realpath(given))
        inside = [folder for folder in folders if real != folder and real.is_relative_to(folder)]
        if not inside:
            continue
        relative = real.relative_to(inside[0]).as_posix()
        if given.is_dir():
            head = path_id(given) + "/" if prefixed else ""
            for doc_id in raw.column("id").to_pylist():
                if isinstance(doc_id, str) and doc_id.startswith(head):
                    renamed[doc_id] = path_id(Path(relative) / doc_id[len(head) :])
        else:
            renamed[path_id(given)] = path_id(Path(relative))
    indexed = doc_ids_of(engine, list(renamed.values()))
    names = [renamed[i] if i in renamed and renamed[i] in indexed else i for i in raw.column("id").to_pylist()]
    return raw.set_column(raw.schema.get_field_index("id"), "id", pa.array(names, raw.schema.field("id").type))


def _check_id_type(engine: Engine, raw: pa.Table) -> None:
    if raw.num_rows == 0:
        return
    indexed = engine.fetch_rows(engine.sql.query("index_id_type"))
    new = "BIGINT" if pa.types.is_integer(raw.schema.field("id").type) else "VARCHAR"
    if indexed and indexed[0][0] != new:
        raise DedupError(f"the new documents have {new.lower()} ids, the index has {indexed[0][0].lower()} ids")


def _stage_new_documents(engine: Engine, sketch: Sketch, raw: pa.Table, first_new: int, positions: int) -> None:
    """Run the stages in the staging schema, which shadows main, and append their rows to main
    (dedup.runner.run_staged): the stages of one document's rows (`scope: documents`) on the new
    documents alone; then the pair stages (`scope: pairs`) on the pairs with a new document, the
    first of them (the candidates) made by the index's own method on the union and the rest
    unchanged, reading the appended main tables through the search path."""
    dialect = engine.dialect
    steps = compile_stages(sketch, dialect)
    per_document = [step for step in steps if step[0].scope == "documents"]
    [(_, groups_statement)] = [step for step in steps if step[0].scope == "groups"]
    (candidates, statement), *verification = [step for step in steps if step[0].scope == "pairs"]
    if not engine.has_table(GROUPS):  # an index of a dedup before the groups: the pair stages read them
        engine.create_table(GROUPS, groups_statement)
    if sketch.method == "lsh":  # the new documents' buckets against every document's
        statement = engine.sql.query("add_candidates", {"first_new": first_new})

    def renumber(stage: Stage) -> None:
        if stage.reads_inputs:  # numbered after the indexed documents
            engine.execute(engine.sql.query("staging_renumber", {"offset": first_new - 1, "positions": positions}))

    def keep_new(stage: Stage) -> None:
        if stage is candidates and sketch.method != "lsh":
            engine.execute(engine.sql.query("keep_new_candidates", {"first_new": first_new}))

    # what the index keeps, and how to make the rest
    layout = layout_of(sketch, is_lean(engine), dialect, stored_between(engine))
    with staging(engine):
        engine.register_arrow("raw_documents", raw)
        run_staged(engine, per_document, after=renumber, layout=layout)
        # the groups the new documents join, before their pairs are made (they read them) and stored
        values = {**parameter_values(sketch, dialect), "first_new": first_new}
        copy_rows = bound_fragment(sketch, dialect, "copy_rows")
        engine.execute(engine.sql.query("add_copies", values, copy_rows=copy_rows))
        run_staged(engine, [(candidates, statement), *verification], after=keep_new, layout=layout)


def stored_between(engine: Engine) -> bool:
    """Whether the index's pair tables hold the pairs between groups of exact copies, views listing
    the rest (dedup.stages.Layout.stored), as a lean index does since it has them."""
    return any(engine.has_table(between_table(stage.name)) for stage in all_stages() if stage.between)


def _delete(engine: Engine, doc_ids: list[int]) -> None:
    engine.register_arrow("removed_doc_ids", pa.table({"doc_id": pa.array(doc_ids, pa.int64())}))
    try:
        for name in stage_names("documents"):
            if engine.has_table(name):  # a lean index keeps no shingles
                engine.execute(engine.sql.query("index_delete_documents", table=quote_identifier(name)))
        between = stored_between(engine)
        pair_stages = {stage.name: stage for stage in all_stages() if stage.scope == "pairs"}
        for name, stage in pair_stages.items():
            table = between_table(name) if between and stage.between else name
            if table != name and engine.has_table(GROUPS):
                _rekey(engine, stage, quote_identifier(table))
            engine.execute(engine.sql.query("index_delete_pairs", table=quote_identifier(table)))
        if engine.has_table(GROUPS):
            for name in ("copies_remove", "copies_regroup", "copies_alone"):
                engine.execute(engine.sql.query(name))
    finally:
        engine.unregister("removed_doc_ids")
    if engine.has_table("document_keys"):
        engine.execute(engine.sql.query("document_keys_removed"))


def _between_distinct(engine: Engine) -> None:
    """A lean index's pair tables as this dedup stores them, between distinct texts, with the views
    that list every row from them (sql/queries/index/between_distinct.sql): what an index of a dedup
    before that stored of the groups' other members goes. Once per change, before `_delete` rekeys
    the rows of removed representatives; nothing on an index without such tables."""
    if not engine.has_table(GROUPS):
        return
    [(database,)] = engine.fetch_rows(engine.sql.query("database_name"))
    for stage in all_stages():
        if stage.between and engine.has_table(between_table(stage.name)):
            stored = quote_identifier(between_table(stage.name))
            engine.execute(engine.sql.query("between_distinct", table=stored))
            engine.execute(between_view(engine, stage.name, quote_identifier(database)))


def _rekey(engine: Engine, stage: Stage, table: str) -> None:
    """The rows that a lean pair table stores by a removed representative become its successor's
    (sql/queries/index/between_rekey.sql), and stay (smaller, larger) (between_orient.sql)."""
    for side in ("a", "b"):
        assigned = f"doc_id_{side} = m.successor" + (f", id_{side} = m.id" if stage.pair_ids else "")
        engine.execute(engine.sql.query("between_rekey", table=table, side=f"doc_id_{side}", assigned=assigned))
    swapped = "doc_id_a = doc_id_b, doc_id_b = doc_id_a" + (", id_a = id_b, id_b = id_a" if stage.pair_ids else "")
    engine.execute(engine.sql.query("between_orient", table=table, swapped=swapped))


def remove_documents(
    engine: Engine, ids: list[str], keep: Keep | str | None = None, resolve: Resolve | str | None = None
) -> int:
    check_changeable(index_sketch(engine), "remove")
    found = doc_ids_of(engine, ids)
    missing = [i for i in ids if i not in found]
    if missing:
        raise DedupError(f"no document with id {missing[0]!r} in the index")
    with engine.atomic(UNCHANGED):
        forget_stages(engine)
        _between_distinct(engine)
        _delete(engine, list(found.values()))
        first_new = engine.fetch_rows(engine.sql.query("index_next_numbers"))[0][0]
        update_clusters(engine, first_new, keep, resolve)  # in the same step: never the clusters of the index before
        committing()
    return len(found)


def document_list(engine: Engine) -> pa.Table:
    """Every document: id, shingles, similar documents, and its cluster when clusters were built."""
    name = "document_list_clusters" if engine.has_table("clusters") else "document_list"
    return engine.fetch_arrow(engine.sql.query(name))
