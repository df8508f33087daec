"""Connected components of the similarity graph, and the one document kept in each."""

from __future__ import annotations

from ..choices import Keep
from ..engine import Engine
from ..errors import DedupError
from ..sqlfiles import query

MAX_ROUNDS = 10_000


def build(engine: Engine, keep: Keep | str = Keep.first) -> int:
    """Create `clusters` (see build_clusters); the number of documents that the keep rule drops,
    counted where the table is."""
    build_clusters(engine, keep)
    return int(engine.fetch_rows(query("clusters_dropped_count", dialect=engine.dialect))[0][0])


def build_clusters(engine: Engine, keep: Keep | str = Keep.first) -> int:
    """Create `clusters` from `pairs` (and exact duplicates); return the number of label rounds."""
    keep = Keep(keep)
    dialect = engine.dialect
    for table in ("documents", "signatures", "pairs"):
        if not engine.has_table(table):
            raise DedupError(f"the database has no {table} table: is it a database left by `dedup run --db`?")
    engine.create_table("cluster_edges", query("cluster_edges", dialect=dialect))
    engine.create_table("cluster_labels", query("cluster_labels_start", dialect=dialect))
    rounds = 0
    while True:
        rounds += 1
        engine.create_table("cluster_labels_next", query("cluster_labels_step", dialect=dialect))
        changed = engine.fetch_rows(query("cluster_labels_changed", dialect=dialect))[0][0]
        engine.drop_table("cluster_labels")
        engine.rename_table("cluster_labels_next", "cluster_labels")
        if not changed:
            break
        if rounds >= MAX_ROUNDS:  # labels strictly decrease, so this cannot happen; guard anyway
            raise DedupError("cluster labels did not converge")
    engine.create_table("clusters", query("clusters", {"keep": keep.value}, dialect))
    engine.drop_table("cluster_labels")
    engine.drop_table("cluster_edges")
    return rounds


def dropped_ids(engine: Engine) -> set[object]:
    """The ids of the documents that the keep rule of the built clusters drops."""
    return {row[0] for row in engine.fetch_rows(query("clusters_dropped", dialect=engine.dialect))}
