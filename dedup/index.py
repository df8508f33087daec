"""The database of a run as a living index: open it, read its options, add and remove documents."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pyarrow as pa

from . import __version__
from .checkpoint import forget_stages, transaction
from .choices import Keep
from .clusters import build_clusters, has_table
from .corpus import read_documents, read_inputs
from .database import connect, first_line
from .errors import DedupError, UsageError
from .hashing import SCHEME
from .params import choose_banding
from .queries import run_query
from .settings import Settings
from .sqltext import quote_identifier
from .stages import run_stage, stage_named

INDEX_TABLES = ("documents", "shingles", "signatures", "band_hashes", "candidates", "verified", "pairs", "runs")
PER_DOCUMENT_STAGES = ("documents", "shingles", "signatures", "band_hashes")
PAIR_TABLES = ("candidates", "verified")
UNCHANGED = "interrupted; the index is unchanged"


@contextmanager
def open_index(db: Path, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
    if not db.exists():
        raise UsageError(f"no database at {db} (create one with `dedup run ... --db {db}`)")
    con = connect(db, read_only=read_only)
    try:
        missing = [table for table in INDEX_TABLES if not has_table(con, table)]
        if missing:
            raise DedupError(f"{db} is not a dedup index: it has no {', '.join(missing)} table")
        yield con
    except duckdb.Error as error:
        raise DedupError(first_line(error)) from None
    finally:
        con.close()


def index_settings(con: duckdb.DuckDBPyConnection) -> Settings:
    """The options of the index's latest run (an add keeps them); every later change must match them."""
    row = con.execute("select hash_scheme, options from runs order by run_id desc limit 1").fetchall()
    if not row:
        raise DedupError("the index has no run recorded in its runs table")
    scheme, options_json = row[0]
    if scheme != SCHEME:
        raise DedupError(f"the index uses hash scheme {scheme}, this dedup uses {SCHEME}: run it again from scratch")
    options = json.loads(options_json)
    threshold, num_perm = options["threshold"], options["num_perm"]
    bands, rows = options["bands"], options["rows"]
    automatic = choose_banding(threshold, num_perm)
    if (automatic.bands, automatic.rows) == (bands, rows):
        bands = rows = None
    return Settings(
        inputs=(Path("."),),
        threshold=threshold,
        shingle_type=options["shingle_type"],
        shingle_size=options["shingle_size"],
        num_perm=num_perm,
        seed=options["seed"],
        bands=bands,
        rows=rows,
        lines=options["lines"],
        id_column=options["id_column"],
        text_column=options["text_column"],
        include_hidden=options["include_hidden"],
        strip_html=options.get("strip_html", False),
        delimiter=options.get("delimiter"),
        method=options.get("method", "lsh"),
    )


def check_requested(settings: Settings, requested: Mapping[str, object]) -> None:
    """Refuse options that differ from the index's: mixing them would make pairs meaningless."""
    actual = {
        "shingle_type": settings.shingle_type,
        "shingle_size": settings.shingle_size,
        "num_perm": settings.num_perm,
        "seed": settings.seed,
        "bands": settings.banding.bands,
        "threshold": settings.threshold,
    }
    for name, value in requested.items():
        if value is not None and value != actual[name]:
            option = "--" + name.replace("_", "-")
            raise UsageError(
                f"the index was built with {option} {actual[name]}, not {value}: "
                "an index's options are fixed when it is created"
            )


def doc_ids_of(con: duckdb.DuckDBPyConnection, ids: list[str]) -> dict[str, int]:
    """doc_id of each given id (ids compared as text, so line numbers can be typed)."""
    con.register("wanted_ids", pa.table({"id": pa.array([str(i) for i in ids], pa.string())}))
    try:
        rows = con.execute(
            "select w.id, d.doc_id from wanted_ids as w join documents as d on d.id::varchar = w.id"
        ).fetchall()
    finally:
        con.unregister("wanted_ids")
    return {row[0]: row[1] for row in rows}


def add_documents(
    con: duckdb.DuckDBPyConnection,
    inputs: tuple[Path, ...],
    *,
    replace: bool = False,
    keep: Keep | str = Keep.first,
    requested: Mapping[str, object] | None = None,
    documents: pa.Table | None = None,
) -> str:
    """Add documents: the per-document stages run on the new ones only, the pair stages on pairs
    with at least one new document; the tables then equal those of a run on the union (up to
    doc_id numbering: added documents are numbered after the indexed ones)."""
    clock = time.perf_counter()
    settings = index_settings(con).replace(inputs=inputs)
    check_requested(settings, requested or {})
    corpus = read_inputs(settings) if documents is None else read_documents(documents, settings.strip_html)
    raw = corpus.to_arrow()
    _check_id_type(con, raw)
    existing = doc_ids_of(con, [str(i) for i in raw.column("id").to_pylist()])
    if existing and not replace:
        shown = ", ".join(repr(i) for i in sorted(existing)[:5])
        raise DedupError(f"{len(existing)} ids are in the index already ({shown}...): use --replace to replace them")
    with transaction(con, UNCHANGED):
        forget_stages(con)  # the tables no longer match any run's inputs: a later run recomputes
        if existing:
            _delete(con, list(existing.values()))
        first_new, positions = con.execute(
            "select coalesce(max(doc_id), 0) + 1, coalesce(max(position), 0) from documents"
        ).fetchall()[0]
        _stage_new_documents(con, settings, raw, first_new, positions)
        con.register("raw_skipped", corpus.skipped_arrow())
        con.execute("insert into skipped select * from raw_skipped").fetchall()
        con.unregister("raw_skipped")
        _record_add(con, len(raw), clock)
    build_clusters(con, keep)
    pairs = con.execute("select count(*) from pairs where doc_id_a >= $f or doc_id_b >= $f", {"f": first_new})
    new_pairs = pairs.fetchall()[0][0]
    return (
        f"added {raw.num_rows} documents ({len(existing)} replaced, {len(corpus.skipped)} skipped); "
        f"{new_pairs} pairs involve them; {time.perf_counter() - clock:.3f} s"
    )


def _check_id_type(con: duckdb.DuckDBPyConnection, raw: pa.Table) -> None:
    if raw.num_rows == 0:
        return
    indexed = con.execute("select typeof(id) from documents limit 1").fetchall()
    new = "BIGINT" if pa.types.is_integer(raw.schema.field("id").type) else "VARCHAR"
    if indexed and indexed[0][0] != new:
        raise DedupError(f"the new documents have {new.lower()} ids, the index has {indexed[0][0].lower()} ids")


def _stage_new_documents(
    con: duckdb.DuckDBPyConnection, settings: Settings, raw: pa.Table, first_new: int, positions: int
) -> None:
    """Run the stages in a staging schema that shadows main, then append their rows to main."""
    con.execute("create schema if not exists staging").fetchall()
    con.execute("set search_path = 'staging,main'").fetchall()
    try:
        con.register("raw_documents", raw)
        for name in PER_DOCUMENT_STAGES:
            run_stage(con, stage_named(name, settings), settings)
            if name == "documents":
                con.unregister("raw_documents")
                con.execute(
                    "update staging.documents set doc_id = doc_id + $offset, position = position + $positions",
                    {"offset": first_new - 1, "positions": positions},
                ).fetchall()
        _append_staged(con, PER_DOCUMENT_STAGES)
        # Pair stages: candidates among pairs with a new document, then the unchanged
        # verified and pairs stages, reading the appended main tables through the search path.
        if settings.method == "lsh":
            run_query(con, "add_candidates", {"first_new": first_new})
        else:  # the index's own method on the union, keeping the pairs with a new document
            run_stage(con, stage_named("candidates", settings), settings)
            run_query(con, "keep_new_candidates", {"first_new": first_new})
        for name in ("verified", "pairs"):
            run_stage(con, stage_named(name, settings), settings)
        _append_staged(con, PAIR_TABLES)
        # A run numbers documents in id order, so its pairs have id_a < id_b; keep that.
        con.execute(
            """
            insert into main.pairs by name
            select
                if(id_a < id_b, doc_id_a, doc_id_b) as doc_id_a,
                if(id_a < id_b, doc_id_b, doc_id_a) as doc_id_b,
                least(id_a, id_b) as id_a,
                greatest(id_a, id_b) as id_b,
                jaccard,
                estimate
            from staging.pairs
            """
        ).fetchall()
        con.execute("drop table staging.pairs").fetchall()
    finally:
        con.execute("reset search_path").fetchall()


def _append_staged(con: duckdb.DuckDBPyConnection, names: tuple[str, ...]) -> None:
    """Append each staging table's rows to the main table of the same name, then drop it."""
    for name in names:
        con.execute(
            f"insert into main.{quote_identifier(name)} by name select * from staging.{quote_identifier(name)}"
        ).fetchall()
        con.execute(f"drop table staging.{quote_identifier(name)}").fetchall()


def _record_add(con: duckdb.DuckDBPyConnection, added: int, clock: float) -> None:
    counts = con.execute(
        """
        select json_object(
            'added', $added,
            'processed', (select count(*) from signatures),
            'documents', (select count(*) from documents),
            'shingles', (select count(*) from shingles),
            'candidates', (select count(*) from candidates),
            'pairs', (select count(*) from pairs))
        """,
        {"added": added},
    ).fetchall()[0][0]
    con.execute(
        """
        insert into runs
        select max(run_id) + 1, now(), now(), $dedup, $duckdb, $scheme,
            (select options from runs order by run_id desc limit 1), $counts, $seconds
        from runs
        """,
        {
            "dedup": __version__,
            "duckdb": duckdb.__version__,
            "scheme": SCHEME,
            "counts": counts,
            "seconds": json.dumps({"add": round(time.perf_counter() - clock, 4)}),
        },
    ).fetchall()


def _delete(con: duckdb.DuckDBPyConnection, doc_ids: list[int]) -> None:
    con.register("removed_doc_ids", pa.table({"doc_id": pa.array(doc_ids, pa.int64())}))
    try:
        for name in PER_DOCUMENT_STAGES:
            con.execute(
                f"delete from {quote_identifier(name)} where doc_id in (select doc_id from removed_doc_ids)"
            ).fetchall()
        for name in ("candidates", "verified", "pairs"):
            con.execute(
                f"delete from {quote_identifier(name)} where doc_id_a in (select doc_id from removed_doc_ids)"
                f" or doc_id_b in (select doc_id from removed_doc_ids)"
            ).fetchall()
    finally:
        con.unregister("removed_doc_ids")


def remove_documents(con: duckdb.DuckDBPyConnection, ids: list[str], keep: Keep | str = Keep.first) -> int:
    found = doc_ids_of(con, ids)
    missing = [i for i in ids if i not in found]
    if missing:
        raise DedupError(f"no document with id {missing[0]!r} in the index")
    with transaction(con, UNCHANGED):
        forget_stages(con)
        _delete(con, list(found.values()))
    build_clusters(con, keep)
    return len(found)


def document_list(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Every document: id, shingles, similar documents, and its cluster when clusters were built."""
    cluster_columns = ", c.cluster_size, c.is_survivor" if has_table(con, "clusters") else ""
    cluster_join = "left join clusters as c on c.doc_id = d.doc_id" if cluster_columns else ""
    return con.sql(
        f"""
        with ends as (
            select doc_id_a as doc_id from pairs union all select doc_id_b from pairs
        ),
        neighbours as (select doc_id, count(*) as n from ends group by doc_id)
        select d.id, coalesce(s.n_shingles, 0) as shingles, coalesce(m.n, 0) as similar_documents{cluster_columns}
        from documents as d
        left join signatures as s on s.doc_id = d.doc_id
        left join neighbours as m on m.doc_id = d.doc_id
        {cluster_join}
        order by d.position
        """
    ).to_arrow_table()
