"""dedup add and remove label again only the clusters they change: the table equals a whole rebuild.

Documents are windows of ten words over one sequence, so neighbours overlap (word 1-shingles,
Jaccard 8/12 for a shift of 2, 6/14 for a shift of 4: at 0.5 a chain of shifts is a cluster whose
middle holds it together), with exact copies and empty texts among them. After every change the
clusters table is compared with the one build_clusters makes from scratch on a copy of the index.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from indexing import invoke, make_index, rows, write_jsonl

from dedup import Index
from dedup.index.clusters import build_clusters
from dedup.index.documents import open_index

OPTIONS = ("--shingle-type", "word", "-k", "1", "--threshold", "0.5", "--method", "exact")
ALL = "select * from clusters order by all"


def window(start: int | None) -> str:
    return "" if start is None else " ".join(f"w{i}" for i in range(start, start + 10))


def rebuilt(db: Path, keep: str) -> list[tuple]:
    """The clusters a whole rebuild makes, on a copy of the index."""
    copy = db.with_name(db.stem + "-rebuilt.duckdb")
    shutil.copyfile(db, copy)
    with open_index(copy) as engine:
        build_clusters(engine, keep)
    found = rows(copy, ALL)
    copy.unlink()
    return found


starts = st.one_of(st.none(), st.integers(0, 24).map(lambda s: s * 2))
changes = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.lists(starts, min_size=1, max_size=4)),
        st.tuples(st.just("remove"), st.lists(st.integers(0, 40), min_size=1, max_size=3, unique=True)),
        st.tuples(st.just("replace"), st.lists(st.tuples(st.integers(0, 40), starts), min_size=1, max_size=2)),
    ),
    min_size=1,
    max_size=4,
)


@hypothesis_settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=st.lists(starts, min_size=2, max_size=14), changes=changes, keep=st.sampled_from(["first", "longest"]))
def test_clusters_after_changes_equal_a_rebuild(tmp_path_factory, first, changes, keep):
    tmp_path = tmp_path_factory.mktemp("upkeep")
    docs = {f"d{n:03d}": window(s) for n, s in enumerate(first)}
    db = make_index(tmp_path, docs, "index", *OPTIONS, "--keep", keep)
    index = Index(db)
    number = len(first)
    for kind, values in changes:
        ids = sorted(docs)
        if not ids:  # an empty clusters table records no rule: a change then builds by the default
            keep = "first"
        if kind == "add":
            new = {f"d{number + n:03d}": window(s) for n, s in enumerate(values)}
            number += len(values)
            index.add(documents=list(new.items()))
            docs.update(new)
        elif kind == "remove":
            gone = sorted({ids[v % len(ids)] for v in values}) if ids else []
            if gone:
                index.remove(gone)
                for i in gone:
                    del docs[i]
        else:
            changed = {ids[v % len(ids)]: window(s) for v, s in values} if ids else {}
            if changed:
                index.add(documents=list(changed.items()), replace=True)
                docs.update(changed)
        assert rows(db, ALL) == rebuilt(db, keep), (kind, values)
    assert {r[0] for r in rows(db, "select keep from clusters")} <= {keep}


def test_a_removed_middle_splits_its_cluster(tmp_path):
    docs = {"a": window(0), "b": window(2), "c": window(4), "d": window(40)}
    db = make_index(tmp_path, docs, "index", *OPTIONS)
    assert rows(db, "select id, cluster_id, cluster_size from clusters order by id") == [
        ("a", 1, 3),
        ("b", 1, 3),
        ("c", 1, 3),
        ("d", 4, 1),
    ]
    invoke("remove", db, "b")
    assert rows(db, "select id, cluster_id, cluster_size from clusters order by id") == [
        ("a", 1, 1),
        ("c", 3, 1),
        ("d", 4, 1),
    ]
    invoke("add", db, write_jsonl(tmp_path / "more.jsonl", {"e": window(2)}), "-q")  # joins a and c again
    # a ~ e ~ c, but a and c are no pair: e is dropped for a, and c, which nothing kept is near, stays
    assert rows(db, "select id, cluster_id, cluster_size, is_survivor, survivor from clusters order by id") == [
        ("a", 1, 3, True, "a"),
        ("c", 1, 3, True, "c"),
        ("d", 4, 1, True, "d"),
        ("e", 1, 3, False, "a"),
    ]
    invoke("clusters", db, "--resolve", "components")  # one per component: c is dropped for a
    assert rows(db, "select id from clusters where not is_survivor order by id") == [("c",), ("e",)]


@pytest.mark.parametrize("given_keep", [None, "shortest"])
def test_add_keeps_the_rule_the_clusters_were_built_by(tmp_path, given_keep):
    """Without --keep, add and remove keep the clusters' own rule (before, they went back to first)."""
    docs = {"a": window(0), "b": window(2) + " w0 w1 w2 w3", "c": window(30)}
    db = make_index(tmp_path, docs, "index", *OPTIONS, "--keep", "longest")
    assert rows(db, "select id from clusters where is_survivor order by id") == [("b",), ("c",)]
    more = write_jsonl(tmp_path / "more.jsonl", {"d": window(31)})
    invoke("add", db, more, "-q", *(("--keep", given_keep) if given_keep else ()))
    expected = given_keep or "longest"
    assert rows(db, "select distinct keep from clusters") == [(expected,)]
    assert rows(db, ALL) == rebuilt(db, expected)


def test_clusters_without_a_recorded_rule_are_rebuilt(tmp_path):
    """An index from before the keep column: the first change builds the clusters whole."""
    db = make_index(tmp_path, {"a": window(0), "b": window(2), "c": window(30)}, "index", *OPTIONS)
    import duckdb

    con = duckdb.connect(str(db))
    con.execute("alter table clusters drop column keep")
    con.close()
    invoke("remove", db, "c")
    assert rows(db, ALL) == rebuilt(db, "first")
    assert rows(db, "select distinct keep from clusters") == [("first",)]


def test_clusters_without_a_rule_keeps_the_tables_own(tmp_path):
    """`dedup clusters DB` without --keep switched an index built with --keep longest back to
    first; it now prints the clusters by the rule they were built by, and rebuilds only for a rule
    given."""
    docs = {"a": window(0), "b": window(2) + " w0 w1 w2 w3", "c": window(4)}
    db = make_index(tmp_path, docs, "index", *OPTIONS, "--keep", "longest", "--resolve", "components")
    before = rows(db, ALL)
    invoke("clusters", db)
    assert rows(db, ALL) == before
    assert rows(db, "select distinct keep, resolve from clusters") == [("longest", "components")]
    invoke("clusters", db, "--resolve", "verified")
    assert rows(db, "select distinct keep, resolve from clusters") == [("longest", "verified")]
