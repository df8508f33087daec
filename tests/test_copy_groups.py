"""Groups of exact copies stored once (dedup.stages.Layout.stored): a lean index keeps the pair
tables' rows between groups (`<table>_between`) and one row per member of a group (`copies`), and
its views `candidates`, `verified` and `pairs` list every row the stages made, as the tables of an
index that keeps every table do."""

from __future__ import annotations

import duckdb
import pytest
from corpora import planted_corpus
from helpers import sketch_for
from indexing import invoke, make_index, rows, write_jsonl

from dedup.stages import compile_run

PAIR_TABLES = ("candidates", "verified", "pairs")


def copy_heavy(seed: int = 2) -> dict[str, str]:
    """Near-duplicates, a group of 12 copies of one text, groups of 2 and 3, and an empty text."""
    docs = planted_corpus(12, 2, seed=seed)
    docs.update({f"many{n:02d}": docs["d0000"] for n in range(12)})
    docs.update({"twin": docs["d0001v0"], "trio1": docs["d0002"], "trio2": docs["d0002"]})
    docs.update({"empty1": "", "empty2": ""})  # no shingles: copies, never a pair
    return docs


def expected_groups(docs: dict[str, str]) -> list[list[str]]:
    """The groups of two or more documents of one text with shingles (the texts are normalized)."""
    by_text: dict[str, list[str]] = {}
    for doc_id, text in docs.items():
        by_text.setdefault(text, []).append(doc_id)
    return [sorted(ids) for text, ids in by_text.items() if text and len(ids) > 1]


def listed(db, table: str) -> list[tuple]:
    """Every row of a pair table by ids, sorted, with its column types: duplicates count."""
    columns = [r[0] for r in rows(db, f"select column_name from (describe {table})")]
    kinds = [r[1] for r in rows(db, f"describe {table}")]
    named = ", ".join(f"t.{c}" for c in columns if c not in ("doc_id_a", "doc_id_b"))
    found = rows(
        db,
        f"""select a.id, b.id, {named} from {table} as t
            join documents as a on a.doc_id = t.doc_id_a join documents as b on b.doc_id = t.doc_id_b""",
    )
    return [tuple(kinds), *sorted(found)]


@pytest.mark.parametrize("method", ["lsh", "exact", "signature"])
def test_the_views_list_every_row_the_stages_made(tmp_path, method):
    docs = copy_heavy()
    options = ("--threshold", "0.5", "--method", method)
    lean = make_index(tmp_path, docs, "lean", *options)
    full = make_index(tmp_path, docs, "full", *options, "--keep-all-tables")
    for table in PAIR_TABLES:
        assert listed(lean, table) == listed(full, table), table
    # stored once: no row of two members of one group in the stored tables; 12 + 2 + 3 members
    for table in PAIR_TABLES:
        within = f"""select count(*) from {table}_between as p join copies as a on a.doc_id = p.doc_id_a
                     join copies as b on b.doc_id = p.doc_id_b where a.rep = b.rep"""
        assert rows(lean, within) == [(0,)], table
    groups = expected_groups(docs)
    assert rows(lean, "select count(*), count(distinct rep) from copies") == [(sum(map(len, groups)), len(groups))]
    assert rows(lean, "select count(*) from pairs where id_a like 'many%' and id_b like 'many%'") == [(66,)]
    # the counts recorded are the views' rows, as the full index's tables have them
    assert rows(lean, "select stage, rows from stages order by stage") == rows(
        full, "select stage, rows from stages order by stage"
    )


@pytest.mark.parametrize(
    ("dialect", "lean", "read"),
    [("duckdb", True, {"verified": "verified_between"}), ("duckdb", False, {}), ("spark", True, {})],
)
def test_the_pairs_stage_of_a_lean_run_reads_the_rows_stored_between_texts(dialect, lean, read):
    """Plan.reads_between: after the verification of the candidates between texts, the pairs stage
    of a lean DuckDB run reads the verified rows stored between texts (5,369 of 12.6M pairs on 794k
    Debian package summaries), not the view that lists them for every member; a full database's run
    and Spark's, which make every row and cut them after (dedup.runner.keep_lean), read the tables."""
    plan = compile_run(sketch_for(), {}, None, dialect, lean=lean)
    found = {n: plan.reads_between(n) for n in range(len(plan.groups))}
    [pairs] = [n for n, group in enumerate(plan.groups) if "pairs" in {stage.name for stage, _ in group}]
    assert found == {n: (read if n == pairs else {}) for n in found}


def test_a_view_read_twice_in_one_query_gives_each_side(tmp_path):
    """DuckDB 2.0.1's common_subplan optimizer listed doc_id_a twice for this query when the view
    joined `copies` with itself (duckdb/duckdb#25819): the views pair a group's members by position."""
    db = make_index(tmp_path, {"a": "the same text here", "b": "the same text here", "c": "something else"})
    ends = "select doc_id_a as doc_id from pairs union all select doc_id_b from pairs"
    assert sorted(rows(db, ends)) == [(1,), (2,)]
    assert sorted(rows(db, f"select d.id from ({ends}) as e join documents as d using (doc_id)")) == [("a",), ("b",)]


def test_a_group_of_copies_takes_its_rows_not_its_pairs(tmp_path):
    text = " ".join(f"word{n}" for n in range(60))
    docs = {f"c{n:03d}": text for n in range(300)}
    docs["other"] = "something else entirely and nothing like the rest of them at all"
    db = make_index(tmp_path, docs, "index", "--threshold", "0.8")
    assert rows(db, "select count(*) from pairs") == [(300 * 299 // 2,)]
    for table in PAIR_TABLES:
        assert rows(db, f"select count(*) from {table}_between") == [(0,)], table
    assert rows(db, "select count(*) from copies") == [(300,)]


def test_add_and_remove_keep_the_groups_as_a_rebuild_makes_them(tmp_path):
    docs = copy_heavy(seed=5)
    first = {k: v for k, v in docs.items() if k not in ("twin", "trio2", "many11")}
    lean = make_index(tmp_path, first, "lean", "--threshold", "0.5")
    full = make_index(tmp_path, first, "full", "--threshold", "0.5", "--keep-all-tables")
    added = {
        "twin": docs["twin"],  # the first copy of an indexed document
        "trio2": docs["trio2"],  # a third member of a group of two
        "many11": docs["many11"],  # one more of the large group
        "new1": "a text that only the added documents hold, twice over",
        "new2": "a text that only the added documents hold, twice over",
    }
    more = write_jsonl(tmp_path / "more.jsonl", added)
    removed = ("d0000", "many03", "d0002")  # a group's representative, a member, a trio's first
    for db in (lean, full):
        invoke("add", db, more, "-q")
        invoke("remove", db, *removed, "-q")
    union = {**first, **added}
    rebuilt = make_index(
        tmp_path, {k: v for k, v in union.items() if k not in removed}, "rebuilt", "--threshold", "0.5"
    )
    for table in PAIR_TABLES:
        assert listed(lean, table)[1:] == listed(full, table)[1:] == listed(rebuilt, table)[1:], table
    by_id = """select m.id, r.id from copies as c join documents as m on m.doc_id = c.doc_id
               join documents as r on r.doc_id = c.rep order by m.id"""
    assert rows(lean, by_id) == rows(full, by_id)
    groups = "select list(d.id order by d.id) from copies as c join documents as d using (doc_id) group by c.rep"
    kept = {k: v for k, v in union.items() if k not in removed}
    assert sorted(r[0] for r in rows(lean, groups)) == sorted(expected_groups(kept))


def test_an_index_that_stores_every_pair_is_added_to_as_before(tmp_path):
    """A lean index of a dedup before the groups were stored once: pair tables, no `copies`."""
    docs = copy_heavy(seed=7)
    first = {k: v for k, v in docs.items() if k != "twin"}
    db = make_index(tmp_path, first, "old", "--threshold", "0.5")
    con = duckdb.connect(str(db))
    for table in PAIR_TABLES:
        con.execute(f"create table {table}_whole as select * from {table}")
        con.execute(f"drop view {table}")
        con.execute(f"drop table {table}_between")
        con.execute(f"alter table {table}_whole rename to {table}")
    con.execute("drop table copies")
    con.close()
    invoke("add", db, write_jsonl(tmp_path / "more.jsonl", {"twin": docs["twin"]}), "-q")
    invoke("remove", db, "d0004", "-q")
    rebuilt = make_index(tmp_path, {k: v for k, v in docs.items() if k != "d0004"}, "rebuilt", "--threshold", "0.5")
    for table in PAIR_TABLES:
        assert listed(db, table)[1:] == listed(rebuilt, table)[1:], table
    assert rows(db, "select count(*) from duckdb_views() where not internal") == [(0,)]


def near_groups() -> dict[str, str]:
    """A group of 12 copies of a text, a group of 3 of a text near it and a document near both."""
    text = " ".join(f"word{n}" for n in range(60))
    near = text.replace("word30", "other30")
    return {f"a{n:02d}": text for n in range(12)} | {f"b{n}": near for n in range(3)} | {"c": near + " tail"}


def test_the_stored_rows_are_between_distinct_texts_by_their_representatives(tmp_path):
    """The group of 12 and the group of 3 are one stored row a table, not 36: a row's two ends are
    their groups' representatives (or in no group); the views list the 36."""
    db = make_index(tmp_path, near_groups(), "index", "--threshold", "0.5")
    for table in PAIR_TABLES:
        ends = f"""select count(*) from {table}_between as p
                   left join copies as a on a.doc_id = p.doc_id_a left join copies as b on b.doc_id = p.doc_id_b
                   where coalesce(a.rep, p.doc_id_a) <> p.doc_id_a or coalesce(b.rep, p.doc_id_b) <> p.doc_id_b"""
        assert rows(db, ends) == [(0,)], table
        assert rows(db, f"select count(*) from {table}_between") == [(3,)], table  # a-b, a-c, b-c
    assert rows(db, "select count(*) from pairs") == [(66 + 3 + 36 + 12 + 3,)]
    ends = "select doc_id_a as doc_id from pairs union all select doc_id_b from pairs"  # read twice
    assert rows(db, f"select count(*), count(distinct doc_id) from ({ends})") == [(2 * 120, 16)]


def test_an_index_that_stores_every_member_between_groups_is_brought_to_the_texts(tmp_path):
    """A lean index of a dedup before the rows between groups were stored once per pair of texts:
    `add` and `remove` keep its tables as a rebuild makes them."""
    docs = near_groups()
    db = make_index(tmp_path, docs, "old", "--threshold", "0.5")
    con = duckdb.connect(str(db))
    for table in PAIR_TABLES:  # every row the stage made between two groups, as the views list them
        con.execute(f"create temp table every_{table} as select * from {table}")
        con.execute(f"delete from {table}_between")
        con.execute(
            f"""insert into {table}_between by name select t.* from every_{table} as t
                left join copies as a on a.doc_id = t.doc_id_a left join copies as b on b.doc_id = t.doc_id_b
                where a.rep is null or b.rep is null or a.rep <> b.rep"""
        )
    assert con.execute("select count(*) from pairs_between").fetchall() == [(36 + 12 + 3,)]
    con.close()
    full = make_index(tmp_path, docs, "full", "--threshold", "0.5", "--keep-all-tables")
    more = write_jsonl(tmp_path / "more.jsonl", {"a12": docs["a00"], "d": docs["c"] + " more"})
    for index in (db, full):
        invoke("add", index, more, "-q")
        invoke("remove", index, "a00", "b0", "-q")  # two representatives
    for table in PAIR_TABLES:
        assert listed(db, table) == listed(full, table), table
    assert rows(db, "select count(*) from pairs_between") == [(6,)]  # one row a pair of the four texts
