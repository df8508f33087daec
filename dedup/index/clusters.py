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

import pyarrow as pa

from ..choices import Keep, Resolve
from ..engines import Engine, engine_kind
from ..errors import DedupError
from ..statement import Statement

MAX_ROUNDS = 10_000
# A round of the verified rule that decides less than this share of the nodes it began with hands
# the rest to the walk on the driver (_decide); the edges it reads come in batches of this size.
WALK_BELOW = 0.5
WALK_BATCH_ROWS = 1 << 20
WORK = ("cluster_members", "survivor_keys")  # work tables that the checks of a build's tables pass over


class Rule(NamedTuple):
    """How survivors are chosen: the order of preference and which documents survive."""

    keep: Keep = Keep.first
    resolve: Resolve = Resolve.verified
    keep_by: str | None = None  # --keep-by (dedup.keep_by), preferred before keep: its keys are the index's

    def recorded(self) -> dict[str, str]:
        """The rule as the runs table and the report name it."""
        by = {"keep_by": self.keep_by} if self.keep_by is not None else {}
        return {**by, "keep": self.keep.value, "resolve": self.resolve.value}

    def options(self) -> str:
        """The rule as the options that give it."""
        by = f"--keep-by {self.keep_by}, " if self.keep_by is not None else ""
        return f"{by}--keep {self.keep.value}, --resolve {self.resolve.value}"


def build(
    engine: Engine, keep: Keep | str = Keep.first, resolve: Resolve | str = Resolve.verified, keep_by: str | None = None
) -> int:
    """Create `clusters` (see build_clusters); the number of documents that the rule drops,
    counted where the table is."""
    build_clusters(engine, keep, resolve, keep_by)
    return int(engine.fetch_rows(engine.sql.query("clusters_dropped_count"))[0][0])


def build_clusters(
    engine: Engine, keep: Keep | str = Keep.first, resolve: Resolve | str = Resolve.verified, keep_by: str | None = None
) -> int:
    """Create `clusters` from `pairs` (and exact copies); return the number of rounds of the
    survivor rule (verified; 0 under components). keep_by: the --keep-by the index's document_keys
    were read by."""
    rule = Rule(Keep(keep), Resolve(resolve), keep_by)
    for table in engine.sql.tables_needed("cluster_members_all", "cluster_member_edges", "survivor_ranks"):
        if table not in WORK and not engine.has_table(table):  # the run's tables, not the work ones
            raise DedupError(f"the database has no {table} table: is it a database left by `dedup run --db`?")
    with WorkTables(engine) as work:
        work.create("cluster_members", engine.sql.query("cluster_members_all"))
        rounds = _label_and_decide(work, rule)
        engine.create_table("clusters", _clusters(engine, rule))
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
    with WorkTables(engine) as work:
        work.create("cluster_touched", engine.sql.query("cluster_touched", {"first_new": first_new}))
        work.create("cluster_members", engine.sql.query("cluster_members", {"first_new": first_new}))
        _label_and_decide(work, rule)
        work.create("clusters_changed", _clusters(engine, rule))
        engine.execute(engine.sql.query("clusters_replace_touched"))
        engine.execute(engine.sql.query("clusters_insert_changed"))


def ensure_clusters(engine: Engine, keep: Keep | str | None = None, resolve: Resolve | str | None = None) -> None:
    """Build `clusters` when there are none, or by the rule given where it differs from theirs
    (what is not given stays as the table has it)."""
    built_by = kept_by(engine)
    rule = _chosen(built_by, keep, resolve)
    if built_by != rule or not engine.has_table("clusters"):
        # one step: an interrupted build leaves the clusters as they were and no work table behind
        with engine.atomic("interrupted; the index is unchanged"):
            build_clusters(engine, *rule)


def _chosen(built_by: Rule | None, keep: Keep | str | None, resolve: Resolve | str | None) -> Rule:
    """The rule given, completed by the table's (built_by), else by the defaults."""
    default = built_by or Rule()
    return Rule(Keep(keep or default.keep), Resolve(resolve or default.resolve), default.keep_by)


def kept_by(engine: Engine) -> Rule | None:
    """The rule of the clusters table (None: there is none, or it is empty or older)."""
    if not engine.has_table("clusters"):
        return None
    rows = engine.fetch_rows(engine.sql.query("clusters_keep"))
    if not rows or rows[0][0] is None or rows[0][1] is None:
        return None
    return Rule(Keep(rows[0][0]), Resolve(rows[0][1]), rows[0][2])


def _clusters(engine: Engine, rule: Rule) -> Statement:
    values = {"keep": rule.keep.value, "resolve": rule.resolve.value, "keep_by": rule.keep_by}
    return engine.sql.query("clusters", values)


class WorkTables:
    """The tables a build or an update makes on the way (created through it), dropped at its end:
    only those it made, without asking the engine which exist."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.made: dict[str, None] = {}
        # an engine that runs batches has temporary tables (DuckDB: in memory, never written to the
        # database file): 15 ms of a 100-document build's 80 ms, measured on data/clough
        self.temporary = engine_kind(engine.dialect).batched

    def create(self, name: str, statement: Statement) -> None:
        self.engine.create_table(name, statement, temporary=self.temporary)
        self.made[name] = None

    def replace(self, name: str, new_name: str) -> None:
        """`new_name` (made through create) becomes `name`."""
        self.engine.drop_table(name)
        self.engine.rename_table(new_name, name)
        self.made.pop(new_name, None)
        self.made[name] = None

    def __enter__(self) -> WorkTables:
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        if kind is not None:  # a failed step is rolled back whole (its transaction, the tables too)
            return
        for name in self.made:
            self.engine.drop_table(name)


def _label_and_decide(work: WorkTables, rule: Rule) -> int:
    """From `cluster_members` (doc_id, rep): `cluster_labels` (each representative's component) and
    `cluster_survivors` (each member's survivor by the rule); the rounds of the verified rule."""
    work.create("cluster_edges", work.engine.sql.query("cluster_member_edges"))
    work.create("cluster_labels", work.engine.sql.query("cluster_member_labels_start"))
    _propagate(work)
    if rule.keep_by is not None and not work.engine.has_table("document_keys"):
        raise DedupError(f"the index has no --keep-by keys for {rule.keep_by}: run it again with --keep-by")
    work.create(
        "survivor_keys", work.engine.sql.query("survivor_keys" if rule.keep_by is not None else "survivor_keys_none")
    )
    if rule.resolve == Resolve.components:
        order = work.engine.sql.fragment("keep_order")
        survivors = work.engine.sql.query("cluster_survivors_components", {"keep": rule.keep.value}, keep_order=order)
        work.create("cluster_survivors", survivors)
        return 0
    order = work.engine.sql.fragment("keep_order")
    work.create("survivor_ranks", work.engine.sql.query("survivor_ranks", {"keep": rule.keep.value}, keep_order=order))
    work.create("survivor_nodes", work.engine.sql.query("survivor_nodes"))
    work.create("survivor_edges", work.engine.sql.query("survivor_edges"))
    rounds = _decide(work)
    work.create("cluster_survivors", work.engine.sql.query("cluster_survivors"))
    return rounds


def _decide(work: WorkTables) -> int:
    """Decide every node with an edge (`survivor_decided`: node, kept) as the sequential walk does;
    return the number of rounds of SQL.

    A round decides, from the nodes still undecided and the edges between them: a node with no
    undecided earlier neighbour is kept (all its decided earlier neighbours are dropped); a chain
    of nodes each with exactly one (each kept exactly when the one before is dropped) is decided
    from its first node by pointer jumping, in about log2(length) steps; a node with a kept
    earlier neighbour is dropped. The earliest undecided node is always kept, so each round decides
    at least one node; a chain in input order (each document a near-duplicate of the previous one
    only, the worst order for the walk) is decided in one round.

    A round costs a pass over the edges still undecided, and some graphs decide few nodes a round:
    on a ladder (each document a near-duplicate of the two before it: a sliding window of text,
    versions of one page) a round decides three, and 10,000 lines took 55 s of rounds. Deciding
    the walk is P-complete (the lexicographically first maximal independent set), so no rounds
    avoid such shapes. Once a round decides less than WALK_BELOW of the nodes it began with, the
    nodes still undecided are walked in order on the driver (`_walk`), one pass over their edges."""
    engine = work.engine
    for table in ("survivor_decided", "survivor_undecided", "survivor_pending"):
        work.create(table, engine.sql.query(f"{table}_start"))
    rounds = 0
    undecided = engine.fetch_rows(engine.sql.query("survivor_undecided_count"))[0][0]
    while undecided:
        if rounds:  # the edges between the nodes still undecided (the last round needs none)
            work.create("survivor_pending_next", engine.sql.query("survivor_pending_next"))
            work.replace("survivor_pending", "survivor_pending_next")
        rounds += 1
        work.create("survivor_in", engine.sql.query("survivor_in"))
        work.create("survivor_links", engine.sql.query("survivor_links_start"))
        while engine.fetch_rows(engine.sql.query("survivor_links_moving"))[0][0]:  # pointer jumping
            work.create("survivor_links_next", engine.sql.query("survivor_links_step"))
            work.replace("survivor_links", "survivor_links_next")
        for table in ("survivor_decided_now", "survivor_decided_next", "survivor_undecided_next"):
            work.create(table, engine.sql.query(table))
        work.replace("survivor_decided", "survivor_decided_next")
        work.replace("survivor_undecided", "survivor_undecided_next")
        before, undecided = undecided, engine.fetch_rows(engine.sql.query("survivor_undecided_count"))[0][0]
        if undecided and before - undecided < WALK_BELOW * before:
            _walk(work)
            break
    return rounds


def _walk(work: WorkTables) -> None:
    """Decide the nodes still undecided by the walk itself, on the driver: in rank order, a node is
    kept unless an earlier neighbour is kept (its decided neighbours are all dropped, else a round
    would have dropped it). One pass over the edges sorted by their later node, one byte a node."""
    engine = work.engine
    nodes = engine.fetch_arrow(engine.sql.query("survivor_walk_nodes")).column(0)
    kept = bytearray(b"\x01") * len(nodes)
    edges = engine.stream_arrow(engine.sql.query("survivor_walk_edges"), WALK_BATCH_ROWS)
    for batch in edges or ():
        for later, earlier in zip(batch.column(0).to_pylist(), batch.column(1).to_pylist(), strict=True):
            if kept[earlier]:
                kept[later] = 0
    walked = pa.table({"node": nodes, "kept": pa.array(kept, pa.uint8()).cast(pa.bool_())})
    engine.register_arrow("survivor_walked", walked)
    try:
        work.create("survivor_decided_next", engine.sql.query("survivor_decided_walked"))
    finally:
        engine.unregister("survivor_walked")
    work.replace("survivor_decided", "survivor_decided_next")


def _propagate(work: WorkTables) -> int:
    """Label `cluster_labels` by the components of `cluster_edges`; return the number of rounds."""
    rounds = 0
    while True:
        rounds += 1
        work.create("cluster_labels_next", work.engine.sql.query("cluster_labels_step"))
        changed = work.engine.fetch_rows(work.engine.sql.query("cluster_labels_changed"))[0][0]
        work.replace("cluster_labels", "cluster_labels_next")
        if not changed:
            return rounds
        if rounds >= MAX_ROUNDS:  # labels strictly decrease, so this cannot happen; guard anyway
            raise DedupError("cluster labels did not converge")


def dropped_ids(engine: Engine) -> set[object]:
    """The ids of the documents that the rule of the built clusters drops."""
    return {row[0] for row in engine.fetch_rows(engine.sql.query("clusters_dropped"))}


def dropped_positions(engine: Engine) -> set[object]:
    """The input positions of the documents that the rule drops: a --lines file's line numbers,
    whatever ids --ids gave its lines."""
    return {row[0] for row in engine.fetch_rows(engine.sql.query("clusters_dropped_positions"))}
