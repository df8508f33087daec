"""The verified survivor rule against its definition (tests/reference.py: greedy_survivors): walking
the documents in the --keep order, a document is kept unless a kept document is one of its pairs.

Graphs are built by hand (documents, signatures and pairs tables, as a run leaves them): exact
copies (one normalized text) come with the pairs a run lists for them, Jaccard 1 inside a group
and one Jaccard for every pair across two groups.
"""

from __future__ import annotations

import itertools
from unittest.mock import patch

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import greedy_survivors

from dedup.choices import Keep, Resolve
from dedup.engines.duckdb import DuckDBEngine
from dedup.index import clusters
from dedup.index.clusters import build_clusters


def graph_tables(con, texts: list[str], positions: list[int], group_edges: dict[tuple[int, int], float]) -> dict:
    """documents (doc_id 1..n, id "d<doc_id>", the text as its normalized text), signatures (every
    document with a text), pairs: every pair of copies (Jaccard 1) and every pair across two groups
    joined by group_edges ((first doc_id of group a, of group b) -> Jaccard). Returns the pairs by id."""
    n = len(texts)
    doc_ids = list(range(1, n + 1))
    groups: dict[str, list[int]] = {}
    for doc_id, text in zip(doc_ids, texts, strict=True):
        if text:
            groups.setdefault(text, []).append(doc_id)
    group_of = {doc_id: members[0] for members in groups.values() for doc_id in members}
    members_of = {members[0]: members for members in groups.values()}
    pairs: dict[tuple[int, int], float] = {}
    for members in groups.values():
        for a, b in itertools.combinations(members, 2):
            pairs[(a, b)] = 1.0
    for (ga, gb), value in group_edges.items():
        for a in members_of[ga]:
            for b in members_of[gb]:
                pairs[(min(a, b), max(a, b))] = value
    con.register(
        "hand_documents",
        pa.table(
            {
                "doc_id": doc_ids,
                "id": [f"d{d}" for d in doc_ids],
                "position": positions,
                "text": texts,
                "norm": texts,
            }
        ),
    )
    con.execute("create table documents as select * from hand_documents")
    con.execute("create table signatures as select doc_id, 1 as n_shingles from documents where norm <> ''")
    hand_pairs = pa.table(
        {
            "doc_id_a": pa.array([a for a, _ in pairs], pa.int64()),
            "doc_id_b": pa.array([b for _, b in pairs], pa.int64()),
            "jaccard": pa.array(list(pairs.values()), pa.float64()),
        }
    )
    con.register("hand_pairs", hand_pairs)
    con.execute("create table pairs as select * from hand_pairs")
    assert all(a in group_of and b in group_of for a, b in pairs)
    return {(f"d{a}", f"d{b}"): value for (a, b), value in pairs.items()}


def walk_order(keep: Keep, texts: list[str], positions: list[int]) -> list[str]:
    """The documents in the order of the --keep rule, ties by input position."""
    keys = {
        Keep.first: lambda d: (positions[d - 1],),
        Keep.min_id: lambda d: (f"d{d}", positions[d - 1]),
        Keep.longest: lambda d: (-len(texts[d - 1]), positions[d - 1]),
        Keep.shortest: lambda d: (len(texts[d - 1]), positions[d - 1]),
    }
    return [f"d{d}" for d in sorted(range(1, len(texts) + 1), key=keys[keep])]


def survivors(con) -> dict[str, tuple[str, float | None]]:
    rows = con.execute("select id, survivor, jaccard from clusters").fetchall()
    return {doc: (survivor, jaccard) for doc, survivor, jaccard in rows}


@st.composite
def graphs(draw):
    """Up to 24 documents over up to 12 texts ("" stands alone), a random input order, random
    pairs between the groups (each with a Jaccard)."""
    n = draw(st.integers(1, 24))
    texts = draw(st.lists(st.sampled_from(["", *(f"text {i}" + "x" * i for i in range(12))]), min_size=n, max_size=n))
    positions = draw(st.permutations(list(range(n))))
    firsts = sorted({texts.index(t) + 1 for t in texts if t})
    possible = list(itertools.combinations(firsts, 2))
    chosen = draw(st.lists(st.sampled_from(possible), unique=True, max_size=30)) if possible else []
    values = draw(st.lists(st.sampled_from([0.8, 0.85, 0.9, 0.95]), min_size=len(chosen), max_size=len(chosen)))
    return texts, list(positions), dict(zip(chosen, values, strict=True))


@pytest.mark.parametrize("walk_below", [0.0, clusters.WALK_BELOW, 1.0])  # rounds alone, as shipped, a walk after one
@given(graph=graphs(), keep=st.sampled_from(list(Keep)))
def test_survivors_are_the_sequential_walk(tmp_path_factory, walk_below, graph, keep):
    import duckdb

    texts, positions, group_edges = graph
    con = duckdb.connect(str(tmp_path_factory.mktemp("walk") / "graph.duckdb"))
    pairs = graph_tables(con, texts, positions, group_edges)
    with patch.object(clusters, "WALK_BELOW", walk_below):
        build_clusters(DuckDBEngine(con), keep, Resolve.verified)
    got = survivors(con)
    con.close()
    assert got == greedy_survivors(walk_order(keep, texts, positions), pairs)
    kept = {doc for doc, (survivor, _) in got.items() if survivor == doc}
    assert not any(a in kept and b in kept for a, b in pairs)  # no two kept documents are a pair
    for doc, (survivor, value) in got.items():  # every dropped document has a kept pair: its survivor
        if survivor != doc:
            assert survivor in kept and pairs[tuple(sorted((doc, survivor), key=lambda i: int(i[1:])))] == value


def chain(con, n: int) -> None:
    graph_tables(con, [f"t{i}" for i in range(n)], list(range(n)), {(i, i + 1): 0.8 for i in range(1, n)})


def test_a_chain_in_input_order_is_decided_in_one_round(con):
    """The walk's worst order: document i is a pair of i - 1 and i + 1 only, in input order, so each
    decision waits on the one before. Every other document is kept, in one round of pointer jumping."""
    chain(con, 2001)
    rounds = build_clusters(DuckDBEngine(con), Keep.first)
    kept = [row[0] for row in con.execute("select doc_id from clusters where is_survivor order by doc_id").fetchall()]
    assert kept == list(range(1, 2002, 2))
    assert rounds == 1


def test_a_ladder_is_walked_after_one_round(con):
    """Each document a pair of the two before it (a sliding window of text): a round decides three
    nodes, and 10,000 lines took 55 s of rounds. The rest is walked on the driver after one round;
    the survivors are the walk's: 1, 4, 7, ..."""
    n = 3000
    edges = {(i, j): 0.8 for i in range(1, n + 1) for j in (i + 1, i + 2) if j <= n}
    pairs = graph_tables(con, [f"t{i}" for i in range(n)], list(range(n)), edges)
    rounds = build_clusters(DuckDBEngine(con), Keep.first)
    got = survivors(con)
    assert got == greedy_survivors([f"d{d}" for d in range(1, n + 1)], pairs)
    assert sorted(int(d[1:]) for d, (s, _) in got.items() if s == d) == list(range(1, n + 1, 3))
    assert rounds == 1


def test_the_components_rule_keeps_one_document_per_component(con):
    chain(con, 5)
    build_clusters(DuckDBEngine(con), Keep.first, Resolve.components)
    assert survivors(con) == {
        "d1": ("d1", None),
        "d2": ("d1", 0.8),
        "d3": ("d1", None),  # dropped for a document it is no pair of: no Jaccard justifies it
        "d4": ("d1", None),
        "d5": ("d1", None),
    }
    assert con.execute("select distinct keep, resolve from clusters").fetchall() == [("first", "components")]


@pytest.mark.parametrize("keep", list(Keep))
def test_a_star_keeps_its_center_or_its_leaves(con, keep):
    """A center similar to four leaves that are not similar to each other: kept first, the center
    drops the four; kept after a leaf, it is dropped and the other leaves stay."""
    texts = ["center text", "a", "bb", "ccc", "dddd"]
    graph_tables(con, texts, [0, 1, 2, 3, 4], {(1, leaf): 0.9 for leaf in range(2, 6)})
    build_clusters(DuckDBEngine(con), keep)
    kept = {doc for doc, (survivor, _) in survivors(con).items() if survivor == doc}
    assert kept == ({"d1"} if keep in (Keep.first, Keep.min_id, Keep.longest) else {"d2", "d3", "d4", "d5"})


def check_survivor_guarantee(folder, tmp_path, threshold: float, *options: str) -> tuple[int, int]:
    """A real run, read back through the documented exports only (pairs, survivors, duplicates):
    every document is kept or dropped once; every dropped one names a kept survivor that is one of
    its pairs, with that pair's Jaccard; no two kept documents are a pair. Returns (kept, dropped)."""
    import csv

    from typer.testing import CliRunner

    from dedup.cli import app

    pairs_file, kept_file, dropped_file = tmp_path / "pairs.csv", tmp_path / "kept.csv", tmp_path / "dropped.csv"
    args = ["run", str(folder), "-q", "--threshold", str(threshold), "-o", str(pairs_file), *options]
    args += ["--export", f"survivors={kept_file}", "--export", f"duplicates={dropped_file}"]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    pairs = {frozenset((r["id_a"], r["id_b"])): float(r["jaccard"]) for r in csv.DictReader(pairs_file.open())}
    kept = [r["id"] for r in csv.DictReader(kept_file.open())]
    dropped = list(csv.DictReader(dropped_file.open()))
    assert len(set(kept)) == len(kept) and not set(kept) & {r["id"] for r in dropped}
    for row in dropped:
        assert row["survivor"] in set(kept)
        assert pairs[frozenset((row["id"], row["survivor"]))] == float(row["jaccard"]) >= threshold
    kept_set = set(kept)
    assert not [pair for pair in pairs if pair <= kept_set]
    return len(kept), len(dropped)


@pytest.mark.parametrize("keep", ["first", "longest"])
def test_the_guarantee_holds_on_the_bundled_sample(tmp_path, keep):
    from conftest import REPO

    kept, dropped = check_survivor_guarantee(REPO / "data" / "clough", tmp_path, 0.5, "--keep", keep)
    assert kept + dropped == 100 and dropped >= 9


@pytest.mark.parametrize(
    ("corpus", "threshold", "options"),
    [
        ("textreuse/legal", 0.2, ("--shingle-type", "word", "-k", "3")),
        ("textreuse/ats", 0.1, ("--shingle-type", "word", "-k", "5")),
        ("clough-stevenson-plagiarism/documents.parquet", 0.3, ("--id-column", "id", "--text-column", "text")),
    ],
)
def test_the_guarantee_holds_on_the_shared_corpora(shared_corpora, tmp_path, corpus, threshold, options):
    kept, dropped = check_survivor_guarantee(shared_corpora / corpus, tmp_path, threshold, *options)
    assert dropped > 0


def test_a_generated_chain_keeps_every_other_line(tmp_path):
    """Document i is a pair of i - 1 and i + 1 only (word 5-shingles: 15 of 17 shared with a shift
    of one word, 14 of 18 with two): every other line is kept, each dropped line for the one before."""
    import random

    rng = random.Random(7)
    words = [f"w{rng.randrange(10**9):09d}" for _ in range(520)]
    chain_file = tmp_path / "chain.txt"
    chain_file.write_text("".join(" ".join(words[i : i + 20]) + "\n" for i in range(500)))
    kept, dropped = check_survivor_guarantee(
        chain_file, tmp_path, 0.8, "--lines", "--shingle-type", "word", "-k", "5", "--keep", "first"
    )
    assert (kept, dropped) == (250, 250)
    assert (tmp_path / "kept.csv").read_text().split() == ["id", *(str(i) for i in range(1, 501, 2))]


def test_explain_of_one_id_says_whether_it_is_kept_and_for_what(tmp_path):
    from indexing import invoke, make_index

    docs = {
        "a": "w0 w1 w2 w3 w4 w5 w6 w7 w8 w9",
        "b": "w2 w3 w4 w5 w6 w7 w8 w9 w10 w11",
        "c": "w4 w5 w6 w7 w8 w9 w10 w11 w12 w13",
    }
    db = make_index(tmp_path, docs, "index", "--shingle-type", "word", "-k", "1", "--threshold", "0.5")
    assert invoke("explain", db, "c").stdout.splitlines() == [
        "c: kept (no document kept before it is one of its pairs; cluster of 3; --keep first, --resolve verified)"
    ]
    lines = invoke("explain", db, "b").stdout.splitlines()
    assert lines[0] == "b: dropped for a (exact Jaccard 0.666667 >= 0.5; --keep first, --resolve verified)"
    assert lines[1:3] == ["a: a  (10 shingles)", "b: b  (10 shingles)"]
    invoke("clusters", db, "--resolve", "components")
    assert invoke("explain", db, "c").stdout.splitlines()[0] == (
        "c: dropped for a (the survivor of its cluster of 3, which is no pair of it (Jaccard < 0.5); "
        "--keep first, --resolve components)"
    )
