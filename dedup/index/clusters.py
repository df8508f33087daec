"""Connected components of the similarity graph, and the documents kept (survivors).

A component is what the pairs join, through chains: A ~ B and B ~ C put A and C in one component
whatever J(A, C) is. The survivors are decided by a rule (`Resolve`):

- verified (the default): walk the documents in the --keep order; a document is kept unless a
  document already kept is one of its verified pairs (J >= threshold). Every dropped document then
  has a kept near-duplicate (its survivor, the first kept one of its pairs), and no two kept
  documents are a pair. The walk is sequential; it is computed in rounds of SQL that give exactly
  its set (`_decide`), whatever the engine or thread count.
- components: one document per component, the first by --keep; a member may be dropped for a
  survivor it is no pair of.

Exact copies (the same normalized text, with shingles) are one node under both rules.
"""

from __future__ import annotations

from typing import NamedTuple

from ..choices import Keep, Resolve
from ..engines import Engine
from ..errors import DedupError
from ..sqlfiles import query, tables_needed

MAX_ROUNDS = 10_000
# the tables a build or an update makes on the way, dropped at its end
WORK_TABLES: tuple[str, ...] = (
    *("cluster_touched", "cluster_members", "cluster_edges", "cluster_labels", "clusters_changed"),
    *("survivor_ranks", "survivor_nodes", "survivor_edges", "survivor_decided", "cluster_survivors"),
    *("survivor_pending", "survivor_undecided", "survivor_in", "survivor_links", "survivor_kept_now"),
    "survivor_dropped_now",
)


class Rule(NamedTuple):
    """How survivors are chosen: the order of preference and which documents survive."""

    keep: Keep = Keep.first
    resolve: Resolve = Resolve.verified

    def recorded(self) -> dict[str, str]:
        """The rule as the runs table and the report name it."""
        return {"keep": self.keep.value, "resolve": self.resolve.value}


def build(engine: Engine, keep: Keep | str = Keep.first, resolve: Resolve | str = Resolve.verified) -> int:
    """Create `clusters` (see build_clusters); the number of documents that the rule drops,
    counted where the table is."""
    build_clusters(engine, keep, resolve)
    return int(engine.fetch_rows(query("clusters_dropped_count", dialect=engine.dialect))[0][0])


def build_clusters(engine: Engine, keep: Keep | str = Keep.first, resolve: Resolve | str = Resolve.verified) -> int:
    """Create `clusters` from `pairs` (and exact copies); return the number of rounds of the
    survivor rule (verified; 0 under components)."""
    rule = Rule(Keep(keep), Resolve(resolve))
    for table in tables_needed("cluster_members_all", "cluster_member_edges", "survivor_ranks"):
        if table != "cluster_members" and not engine.has_table(table):  # the run's tables, not the work ones
            raise DedupError(f"the database has no {table} table: is it a database left by `dedup run --db`?")
    engine.create_table("cluster_members", query("cluster_members_all", dialect=engine.dialect))
    rounds = _label_and_decide(engine, rule)
    engine.create_table("clusters", _clusters(engine, rule))
    _drop(engine, WORK_TABLES)
    return rounds


def update_clusters(
    engine: Engine, first_new: int, keep: Keep | str | None = None, resolve: Resolve | str | None = None
) -> None:
    """Bring `clusters` up to date after documents were removed from the tables or added to them
    (with doc_ids from first_new up), labelling and deciding again only the clusters that lost a
    document or gained a pair: under either rule, whether a document survives depends on its own
    component alone. The table is then the one build_clusters makes. keep, resolve: the rule, by
    default the table's own; a table built by another rule (or none) is built again whole."""
    built_by = kept_by(engine)
    rule = _chosen(built_by, keep, resolve)
    if built_by != rule:
        build_clusters(engine, *rule)
        return
    dialect = engine.dialect
    engine.create_table("cluster_touched", query("cluster_touched", {"first_new": first_new}, dialect))
    engine.create_table("cluster_members", query("cluster_members", {"first_new": first_new}, dialect))
    _label_and_decide(engine, rule)
    engine.create_table("clusters_changed", _clusters(engine, rule))
    engine.execute(query("clusters_replace_touched", dialect=dialect))
    engine.execute(query("clusters_insert_changed", dialect=dialect))
    _drop(engine, WORK_TABLES)


def ensure_clusters(engine: Engine, keep: Keep | str | None = None, resolve: Resolve | str | None = None) -> None:
    """Build `clusters` when there are none, or by the rule given where it differs from theirs
    (what is not given stays as the table has it)."""
    built_by = kept_by(engine)
    rule = _chosen(built_by, keep, resolve)
    if built_by != rule or not engine.has_table("clusters"):
        build_clusters(engine, *rule)


def _chosen(built_by: Rule | None, keep: Keep | str | None, resolve: Resolve | str | None) -> Rule:
    """The rule given, completed by the table's (built_by), else by the defaults."""
    default = built_by or Rule()
    return Rule(Keep(keep or default.keep), Resolve(resolve or default.resolve))


def kept_by(engine: Engine) -> Rule | None:
    """The rule of the clusters table (None: there is none, or it is empty or older)."""
    if not engine.has_table("clusters"):
        return None
    rows = engine.fetch_rows(query("clusters_keep", dialect=engine.dialect))
    if not rows or rows[0][0] is None or rows[0][1] is None:
        return None
    return Rule(Keep(rows[0][0]), Resolve(rows[0][1]))


def _clusters(engine: Engine, rule: Rule):  # type: ignore[no-untyped-def]
    return query("clusters", {"keep": rule.keep.value, "resolve": rule.resolve.value}, engine.dialect)


def _label_and_decide(engine: Engine, rule: Rule) -> int:
    """From `cluster_members` (doc_id, rep): `cluster_labels` (each member's component) and
    `cluster_survivors` (each member's survivor by the rule); the rounds of the verified rule."""
    dialect = engine.dialect
    engine.create_table("cluster_edges", query("cluster_member_edges", dialect=dialect))
    engine.create_table("cluster_labels", query("cluster_member_labels_start", dialect=dialect))
    _propagate(engine)
    engine.create_table("cluster_member_labels", query("cluster_member_labels", dialect=dialect))
    engine.drop_table("cluster_labels")
    engine.rename_table("cluster_member_labels", "cluster_labels")
    if rule.resolve == Resolve.components:
        survivors = query("cluster_survivors_components", {"keep": rule.keep.value}, dialect)
        engine.create_table("cluster_survivors", survivors)
        return 0
    engine.create_table("survivor_ranks", query("survivor_ranks", {"keep": rule.keep.value}, dialect))
    engine.create_table("survivor_nodes", query("survivor_nodes", dialect=dialect))
    engine.create_table("survivor_edges", query("survivor_edges", dialect=dialect))
    rounds = _decide(engine)
    engine.create_table("cluster_survivors", query("cluster_survivors", dialect=dialect))
    return rounds


def _decide(engine: Engine) -> int:
    """Decide every node with an edge (`survivor_decided`: node, kept) as the sequential walk does;
    return the number of rounds.

    A round decides, from the nodes still undecided and the edges between them: a node with no
    undecided earlier neighbour is kept (all its decided earlier neighbours are dropped); a chain
    of nodes each with exactly one (each kept exactly when the one before is dropped) is decided
    from its first node by pointer jumping, in about log2(length) steps; a node with a kept
    earlier neighbour is dropped. The earliest undecided node is always kept, so each round decides
    at least one node; a chain in input order (each document a near-duplicate of the previous one
    only, the worst order for the walk) is decided in one round."""
    dialect = engine.dialect
    for table in ("survivor_pending", "survivor_undecided", "survivor_decided"):
        engine.create_table(table, query(f"{table}_start", dialect=dialect))
    rounds = 0
    while engine.fetch_rows(query("survivor_undecided_count", dialect=dialect))[0][0]:
        rounds += 1
        engine.create_table("survivor_in", query("survivor_in", dialect=dialect))
        engine.create_table("survivor_links", query("survivor_links_start", dialect=dialect))
        _jump(engine)
        for table in ("survivor_kept_now", "survivor_dropped_now"):
            engine.create_table(table, query(table, dialect=dialect))
        for table in ("survivor_decided", "survivor_undecided", "survivor_pending"):
            engine.create_table(f"{table}_next", query(f"{table}_next", dialect=dialect))
        for table in ("survivor_decided", "survivor_undecided", "survivor_pending"):
            engine.drop_table(table)
            engine.rename_table(f"{table}_next", table)
    return rounds


def _jump(engine: Engine) -> None:
    """Pointer jumping on `survivor_links` until every pointer is its chain's root."""
    dialect = engine.dialect
    while True:
        engine.create_table("survivor_links_next", query("survivor_links_step", dialect=dialect))
        moved = engine.fetch_rows(query("survivor_links_moved", dialect=dialect))[0][0]
        engine.drop_table("survivor_links")
        engine.rename_table("survivor_links_next", "survivor_links")
        if not moved:
            return


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


def _drop(engine: Engine, tables: tuple[str, ...]) -> None:
    for table in tables:
        if engine.has_table(table):
            engine.drop_table(table)


def dropped_ids(engine: Engine) -> set[object]:
    """The ids of the documents that the rule of the built clusters drops."""
    return {row[0] for row in engine.fetch_rows(query("clusters_dropped", dialect=engine.dialect))}


def dropped_positions(engine: Engine) -> set[object]:
    """The input positions of the documents that the rule drops: a --lines file's line numbers,
    whatever ids --ids gave its lines."""
    return {row[0] for row in engine.fetch_rows(query("clusters_dropped_positions", dialect=engine.dialect))}
