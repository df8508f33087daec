"""Connected components of the similarity graph, and the one document kept in each."""

from __future__ import annotations

import duckdb

from .choices import Keep
from .errors import DedupError
from .queries import run_query

# Our own fixed list of ORDER BY expressions: the only SQL text a rule contributes.
KEEP_ORDER = {
    Keep.first: "d.position",
    Keep.min_id: "d.id",
    Keep.longest: "length(d.text) desc",
    Keep.shortest: "length(d.text)",
}
MAX_ROUNDS = 10_000


def build_clusters(con: duckdb.DuckDBPyConnection, keep: Keep | str = Keep.first) -> int:
    """Create `clusters` from `pairs` (and exact duplicates); return the number of label rounds."""
    keep = Keep(keep)
    for table in ("documents", "signatures", "pairs"):
        if not has_table(con, table):
            raise DedupError(f"the database has no {table} table: is it a database left by `dedup run --db`?")
    run_query(con, "cluster_edges")
    run_query(con, "cluster_labels_start")
    rounds = 0
    while True:
        rounds += 1
        run_query(con, "cluster_labels_step")
        changed = con.execute("select count(*) from cluster_labels_next where changed").fetchall()[0][0]
        con.execute("drop table cluster_labels").fetchall()
        con.execute("alter table cluster_labels_next rename to cluster_labels").fetchall()
        if not changed:
            break
        if rounds >= MAX_ROUNDS:  # labels strictly decrease, so this cannot happen; guard anyway
            raise DedupError("cluster labels did not converge")
    run_query(con, "clusters", fragments={"keep_order": KEEP_ORDER[keep]})
    con.execute("drop table cluster_labels").fetchall()
    con.execute("drop table cluster_edges").fetchall()
    return rounds


def has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    found = con.execute(
        "select count(*) from duckdb_tables() where table_name = $name and schema_name = 'main'", {"name": name}
    ).fetchall()
    return bool(found[0][0])
