"""Connected components of the similarity graph, and the one document kept in each."""

from __future__ import annotations

from ..choices import Keep
from ..engines import Engine
from ..errors import DedupError
from ..sqlfiles import query, tables_needed

MAX_ROUNDS = 10_000
WORK_TABLES = ("cluster_touched", "cluster_members", "cluster_edges", "cluster_labels", "clusters_changed")


def build(engine: Engine, keep: Keep | str = Keep.first) -> int:
    """Create `clusters` (see build_clusters); the number of documents that the keep rule drops,
    counted where the table is."""
    build_clusters(engine, keep)
    return int(engine.fetch_rows(query("clusters_dropped_count", dialect=engine.dialect))[0][0])


def build_clusters(engine: Engine, keep: Keep | str = Keep.first) -> int:
    """Create `clusters` from `pairs` (and exact duplicates); return the number of label rounds."""
    keep = Keep(keep)
    dialect = engine.dialect
    for table in tables_needed("cluster_edges", "cluster_labels_start", "clusters"):
        if not engine.has_table(table):
            raise DedupError(f"the database has no {table} table: is it a database left by `dedup run --db`?")
    engine.create_table("cluster_edges", query("cluster_edges", dialect=dialect))
    engine.create_table("cluster_labels", query("cluster_labels_start", dialect=dialect))
    rounds = _propagate(engine)
    engine.create_table("clusters", query("clusters", {"keep": keep.value}, dialect))
    engine.drop_table("cluster_labels")
    engine.drop_table("cluster_edges")
    return rounds


def update_clusters(engine: Engine, first_new: int, keep: Keep | str | None = None) -> None:
    """Bring `clusters` up to date after documents were removed from the tables or added to them
    (with doc_ids from first_new up), labelling again only the clusters that lost a document or
    gained a pair: the members of the others are still a component with the same survivor. The
    table is then the one build_clusters makes. keep: the survivor rule, by default the table's
    own; a table built by another rule (or none) is built again whole."""
    built_by = kept_by(engine)
    keep = Keep(keep or built_by or Keep.first)
    if built_by != keep:
        build_clusters(engine, keep)
        return
    dialect = engine.dialect
    engine.create_table("cluster_touched", query("cluster_touched", {"first_new": first_new}, dialect))
    engine.create_table("cluster_members", query("cluster_members", {"first_new": first_new}, dialect))
    engine.create_table("cluster_edges", query("cluster_member_edges", dialect=dialect))
    engine.create_table("cluster_labels", query("cluster_member_labels_start", dialect=dialect))
    _propagate(engine)
    engine.create_table("cluster_member_labels", query("cluster_member_labels", dialect=dialect))
    engine.drop_table("cluster_labels")
    engine.rename_table("cluster_member_labels", "cluster_labels")
    engine.create_table("clusters_changed", query("clusters", {"keep": keep.value}, dialect))
    engine.execute(query("clusters_replace_touched", dialect=dialect))
    engine.execute(query("clusters_insert_changed", dialect=dialect))
    for table in WORK_TABLES:
        engine.drop_table(table)


def kept_by(engine: Engine) -> Keep | None:
    """The survivor rule of the clusters table (None: there is none, or it is empty or older)."""
    if not engine.has_table("clusters"):
        return None
    rows = engine.fetch_rows(query("clusters_keep", dialect=engine.dialect))
    return Keep(rows[0][0]) if rows and rows[0][0] is not None else None


def _propagate(engine: Engine) -> int:
    """Label `cluster_labels` by the components of `cluster_edges`; return the number of rounds."""
    dialect = engine.dialect
    rounds = 0
    while True:
        rounds += 1
        engine.create_table("cluster_labels_next", query("cluster_labels_step", dialect=dialect))
        changed = engine.fetch_rows(query("cluster_labels_changed", dialect=dialect))[0][0]
        engine.drop_table("cluster_labels")
        engine.rename_table("cluster_labels_next", "cluster_labels")
        if not changed:
            return rounds
        if rounds >= MAX_ROUNDS:  # labels strictly decrease, so this cannot happen; guard anyway
            raise DedupError("cluster labels did not converge")


def dropped_ids(engine: Engine) -> set[object]:
    """The ids of the documents that the keep rule of the built clusters drops."""
    return {row[0] for row in engine.fetch_rows(query("clusters_dropped", dialect=engine.dialect))}


def dropped_positions(engine: Engine) -> set[object]:
    """The input positions of the documents that the keep rule drops: a --lines file's line
    numbers, whatever ids --ids gave its lines."""
    return {row[0] for row in engine.fetch_rows(query("clusters_dropped_positions", dialect=engine.dialect))}
