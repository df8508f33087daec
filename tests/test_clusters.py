"""Clusters: connected components equal a union-find; survivors follow each --keep rule."""

from __future__ import annotations

import duckdb
import pyarrow as pa
import pytest
from corpora import planted_corpus
from indexing import make_index, rows

from dedup.choices import Keep, Resolve
from dedup.engines.duckdb import DuckDBEngine
from dedup.index.clusters import build_clusters


def union_find(ids: list[object], edges: list[tuple[object, object]]) -> set[frozenset]:
    parent = {i: i for i in ids}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in edges:
        parent[find(a)] = find(b)
    groups: dict[object, set] = {}
    for i in ids:
        groups.setdefault(find(i), set()).add(i)
    return {frozenset(g) for g in groups.values()}


def components(db_rows: list[tuple]) -> set[frozenset]:
    groups: dict[object, set] = {}
    for doc, cluster in db_rows:
        groups.setdefault(cluster, set()).add(doc)
    return {frozenset(g) for g in groups.values()}


def test_clusters_equal_union_find_on_the_pairs(tmp_path):
    docs = planted_corpus(40, 4, seed=11)
    db = make_index(tmp_path, docs, "index", "--threshold", "0.5")
    con = duckdb.connect(str(db))
    build_clusters(DuckDBEngine(con), Keep.first)
    pairs = con.execute("select id_a, id_b from pairs").fetchall()
    got = components(con.execute("select id, cluster_id from clusters").fetchall())
    survivors = con.execute("select cluster_id, count(*) from clusters where is_survivor group by all").fetchall()
    con.close()
    assert len(pairs) > 40
    assert got == union_find(sorted(docs), pairs)
    assert all(count == 1 for _, count in survivors) and len(survivors) == len(got)


def hand_built(con, texts: dict[int, str], edges: list[tuple[int, int]], ids: dict[int, str] | None = None) -> None:
    """documents/signatures/pairs built by hand: doc_id = key, position = reverse doc_id order."""
    ids = ids or {d: f"id{d:05d}" for d in texts}
    n = len(texts)
    con.register(
        "hand_documents",
        pa.table(
            {
                "doc_id": list(texts),
                "id": [ids[d] for d in texts],
                "position": [n - i for i in range(n)],
                "text": list(texts.values()),
                "norm": list(texts.values()),
            }
        ),
    )
    con.execute("create table documents as select * from hand_documents").fetchall()
    con.execute("create table signatures as select doc_id, 1 as n_shingles from documents").fetchall()
    pairs = {"doc_id_a": [a for a, _ in edges], "doc_id_b": [b for _, b in edges], "jaccard": [0.9] * len(edges)}
    con.register(
        "hand_pairs", pa.table(pairs, pa.schema([("doc_id_a", "int64"), ("doc_id_b", "int64"), ("jaccard", "double")]))
    )
    con.execute("create table pairs as select * from hand_pairs").fetchall()


def test_a_long_path_converges_in_few_rounds(con):
    n = 2000
    hand_built(con, {d: f"text {d}" for d in range(1, n + 1)}, [(d, d + 1) for d in range(1, n)])
    rounds = build_clusters(DuckDBEngine(con))
    assert con.execute("select count(distinct cluster_id), min(cluster_id) from clusters").fetchall() == [(1, 1)]
    assert rounds <= 40  # pointer jumping: logarithmic, not 2000 rounds


def test_exact_duplicates_cluster_without_pairs(con):
    """A text repeated many times clusters through its normalized text even if pairs lack its couples."""
    texts = {d: "the same boilerplate" for d in range(1, 3001)}
    texts[3001] = "something else"
    hand_built(con, texts, [])
    build_clusters(DuckDBEngine(con))
    sizes = con.execute("select cluster_size, count(*) from clusters group by all order by 1").fetchall()
    assert sizes == [(1, 1), (3000, 3000)]


@pytest.mark.parametrize(
    ("keep", "survivor"),
    [
        (Keep.first, "e"),  # positions run in reverse doc_id order: doc 5 ('e') comes first
        (Keep.min_id, "a"),
        # b and d are longest (6 characters): the tie goes to input position, d before b, as under
        # the verified rule (one order for both: sql/fragments/keep_order.sql; it went to the id b)
        (Keep.longest, "d"),
        (Keep.shortest, "c"),
    ],
)
def test_survivor_of_the_components_rule_follows_each_order(con, keep, survivor):
    texts = {1: "xxxx", 2: "xxxxxx", 3: "xx", 4: "yyyyyy", 5: "yyy"}
    ids = {1: "a", 2: "b", 3: "c", 4: "d", 5: "e"}
    hand_built(con, texts, [(1, 2), (2, 3), (3, 4), (4, 5)], ids)
    build_clusters(DuckDBEngine(con), keep, Resolve.components)
    assert con.execute("select id from clusters where is_survivor").fetchall() == [(survivor,)]


def test_run_with_db_builds_clusters_with_the_keep_rule(tmp_path):
    docs = {"b": "one two three four five six", "a": "one two three four five six!", "c": "unrelated words"}
    db = make_index(tmp_path, docs, "index", "--keep", "min-id", "--threshold", "0.5")
    assert rows(db, "select id from clusters where is_survivor order by id") == [("a",), ("c",)]


def copies_corpus(folder):
    """4 groups of exact copies (sizes 2, 3, 5, 8: 1 + 3 + 10 + 28 = 42 pairs inside them) and one
    near copy of the first text: its pairs with the group of 2 are between different texts."""
    import random

    rng = random.Random(4)
    words = [f"w{i}" for i in range(300)]
    folder.mkdir()
    texts = [" ".join(rng.choice(words) for _ in range(60)) for _ in range(4)]
    for group, (text, size) in enumerate(zip(texts, (2, 3, 5, 8), strict=True)):
        for copy in range(size):
            (folder / f"g{group}-{copy}.txt").write_text(text + ("\n" if copy % 2 else ""), encoding="utf-8")
    (folder / "near.txt").write_text(texts[0] + " and one more", encoding="utf-8")
    return folder


def test_a_listing_mostly_of_exact_copies_says_so(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from dedup import pipeline
    from dedup.cli import app

    monkeypatch.setattr(pipeline, "MANY_PAIRS", 10)
    corpus = copies_corpus(tmp_path / "in")
    listed = CliRunner().invoke(app, ["run", str(corpus), "-o", str(tmp_path / "p.csv")])
    assert listed.exit_code == 0, listed.stderr
    # near.txt pairs with both copies of group 0: 44 pairs, 42 of them inside the groups
    assert "note: 42 of the 44 pairs (95%) are exact copies of one another" in listed.stderr
    assert "--pairs between-groups lists the pairs between different texts only" in listed.stderr
    between = CliRunner().invoke(app, ["run", str(corpus), "-o", str(tmp_path / "b.csv"), "--pairs", "between-groups"])
    assert "are exact copies of one another" not in between.stderr and "wrote 2 pairs" in between.stderr
    monkeypatch.setattr(pipeline, "MANY_PAIRS", 45)  # fewer pairs than that: no note
    assert "exact copies of one another" not in CliRunner().invoke(app, ["run", str(corpus)]).stderr


def test_clusters_prints_a_limited_table_and_says_so(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from dedup.cli import app, index

    monkeypatch.setattr(index, "SHOWN_CLUSTER_ROWS", 5)
    db = tmp_path / "run.duckdb"
    assert CliRunner().invoke(app, ["run", str(copies_corpus(tmp_path / "in")), "--db", str(db)]).exit_code == 0
    table = CliRunner().invoke(app, ["clusters", str(db)], env={"COLUMNS": "200"})
    assert table.exit_code == 0, table.stderr
    assert len(table.stdout.strip().splitlines()) == 2 + 5  # the header, its rule and 5 rows
    assert f"showing 5 of 19 rows (--limit 0 prints them all; dedup export {db} --what clusters" in table.stderr
    every = CliRunner().invoke(app, ["clusters", str(db), "--limit", "0"], env={"COLUMNS": "200"})
    assert len(every.stdout.strip().splitlines()) == 2 + 19 and "showing" not in every.stderr
    csv = CliRunner().invoke(app, ["clusters", str(db), "--format", "csv"])
    assert len(csv.stdout.strip().splitlines()) == 1 + 19 and "showing" not in csv.stderr
    two = CliRunner().invoke(app, ["clusters", str(db), "--format", "csv", "--limit", "2"])
    assert len(two.stdout.strip().splitlines()) == 1 + 2 and "showing 2 of 19 rows" in two.stderr
