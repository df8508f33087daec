"""The living index: add in batches equals one run; remove; mixed options refused; list."""

from __future__ import annotations

import json
import random

import duckdb
import pytest
from corpora import planted_corpus
from indexing import invoke, make_index, result_tables, rows, write_jsonl
from typer.testing import CliRunner

from dedup.cli import app


def split(docs: dict[str, str], seed: int, parts: int) -> list[dict[str, str]]:
    """Random split, so added ids sort before, between and after the indexed ones."""
    rng = random.Random(seed)
    batches: list[dict[str, str]] = [{} for _ in range(parts)]
    for doc_id, text in docs.items():
        batches[rng.randrange(parts)][doc_id] = text
    return batches


@pytest.mark.parametrize("options", [(), ("--threshold", "0.5", "--shingle-type", "word", "-k", "3")])
def test_add_in_batches_equals_one_run_on_the_union(tmp_path, options):
    docs = planted_corpus(30, 3, seed=7)
    docs["empty"] = ""
    first, second, third = split(docs, seed=1, parts=3)
    # the union in the order the batches arrive, so input positions (and --keep first) agree too
    whole = make_index(tmp_path, {**first, **second, **third}, "whole", *options)
    db = make_index(tmp_path, first, "batches", *options)
    invoke("add", db, write_jsonl(tmp_path / "second.jsonl", second), "-q")
    invoke("add", db, write_jsonl(tmp_path / "third.jsonl", third), "-q")
    expected, got = result_tables(whole), result_tables(db)
    assert expected["pairs"], "the corpus must have pairs for this test to mean anything"
    for table in expected:
        assert got[table] == expected[table], table
    # clusters are rebuilt after each add, and equal those of the one run
    assert rows(db, "select id, cluster_size, is_survivor from clusters order by id") == rows(
        whole, "select id, cluster_size, is_survivor from clusters order by id"
    )


def test_add_refuses_existing_ids_and_other_options(tmp_path):
    docs = planted_corpus(5, 1, seed=3)
    db = make_index(tmp_path, docs)
    again = write_jsonl(tmp_path / "again.jsonl", dict(list(docs.items())[:2]))
    result = CliRunner().invoke(app, ["add", str(db), str(again)])
    assert result.exit_code == 1 and "already" in result.stderr and "--replace" in result.stderr
    new = write_jsonl(tmp_path / "new.jsonl", {"zzz": "some new text"})
    result = CliRunner().invoke(app, ["add", str(db), str(new), "--shingle-size", "5"])
    assert result.exit_code == 2 and "--shingle-size 9, not 5" in result.stderr
    result = CliRunner().invoke(app, ["add", str(db), str(new), "--num-perm", "64"])
    assert result.exit_code == 2 and "--num-perm 128, not 64" in result.stderr
    assert rows(db, "select count(*) from documents") == [(len(docs),)]  # nothing was added


def test_add_to_an_index_of_lines_says_that_the_ids_are_line_numbers(tmp_path):
    """Another --lines file added to an index of one: its line numbers are the index's ids, and
    the error's advice (--replace) replaced the index's lines 1..n with the new file's. The error
    now says so, and how to index both."""
    first, second, db = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "lines.duckdb"
    first.write_text("alpha beta gamma delta\nepsilon zeta eta theta\n")
    second.write_text("iota kappa lambda mu\n")
    invoke("run", first, "--lines", "--db", db, "-q")
    result = CliRunner().invoke(app, ["add", str(db), str(second)])
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: 1 id is in the index already ('1'...): they are line numbers, as the index's own lines are, so "
        "--replace would replace those documents; to index both files, run again on both (their ids become "
        "FILE:LINE)\n"
    )
    assert rows(db, "select id, text from documents order by id") == [
        (1, "alpha beta gamma delta"),
        (2, "epsilon zeta eta theta"),
    ]


def test_add_counts_latin1_documents_and_says_its_notes(tmp_path):
    """A run's summary counts the documents decoded as Latin-1 and gives its notes; add said neither."""
    db = make_index(tmp_path, planted_corpus(5, 1, seed=3))
    new = tmp_path / "new.csv"
    new.write_bytes(b"id,text\nzzz,caf\xe9 cr\xe8me br\xfbl\xe9e\nyyy,cafe creme brulee\n")
    result = CliRunner().invoke(app, ["add", str(db), str(new)])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("added 2 documents (0 replaced, 0 skipped, 1 decoded as Latin-1); ")
    old = tmp_path / "old.txt"
    old.write_bytes(b"".join(b"line %d of an old Mac file\r" % i for i in range(12)))
    result = CliRunner().invoke(app, ["add", str(db), str(old)])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("\n") == 2 and "\nnote: 1 document from " in result.stderr


def test_replace_and_remove_equal_a_run_on_the_changed_corpus(tmp_path):
    docs = planted_corpus(12, 2, seed=5)
    db = make_index(tmp_path, docs, "index", "--threshold", "0.6")
    ids = sorted(docs)
    changed = {ids[0]: docs[ids[1]], ids[5]: "a brand new text about something else entirely"}
    invoke("add", db, write_jsonl(tmp_path / "changed.jsonl", changed), "--replace", "-q")
    invoke("remove", db, ids[7], ids[8])
    final = {**docs, **changed}
    del final[ids[7]], final[ids[8]]
    fresh = make_index(tmp_path, final, "fresh", "--threshold", "0.6")
    expected, got = result_tables(fresh), result_tables(db)
    for table in ("signatures", "shingles", "band_hashes", "candidates", "verified", "pairs"):
        assert got[table] == expected[table], table
    assert any(ids[0] in pair[:2] for pair in got["pairs"])  # the replaced text now pairs


def test_remove_unknown_id_is_an_error_and_list_shows_counts(tmp_path):
    docs = {"a": "the same text here", "b": "the same text here", "c": "something different"}
    db = make_index(tmp_path, docs)
    result = CliRunner().invoke(app, ["remove", str(db), "nope"])
    assert result.exit_code == 1 and "nope" in result.stderr
    listed = invoke("list", db, "--format", "csv").stdout.splitlines()
    assert listed[0] == "id,shingles,similar_documents,cluster_size,is_survivor"
    assert listed[1:] == ["a,10,1,2,True", "b,10,1,2,False", "c,11,0,1,True"]


def test_commands_on_a_missing_or_foreign_database(tmp_path):
    result = CliRunner().invoke(app, ["list", str(tmp_path / "none.duckdb")])
    assert result.exit_code == 2 and "no database" in result.stderr
    import duckdb

    duckdb.connect(str(tmp_path / "other.duckdb")).execute("create table t as select 1").fetchall()
    result = CliRunner().invoke(app, ["list", str(tmp_path / "other.duckdb")])
    assert result.exit_code == 1 and "not a dedup index" in result.stderr


def test_index_commands_in_a_real_process(tmp_path):
    import subprocess
    import sys

    db = make_index(tmp_path, {"a": "same words here", "b": "same words here", "c": "other"})
    done = subprocess.run(
        [sys.executable, "-m", "dedup", "query", str(db), "--id", "a", "--format", "csv"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.splitlines() == ["id,jaccard,shared_bands", "b,1.0,21"]
    done = subprocess.run([sys.executable, "-m", "dedup", "remove", str(db), "zz"], capture_output=True, text=True)
    assert done.returncode == 1 and done.stderr.startswith("Error: ") and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "scheme",
    [
        "md5-le64/affine-mod-p/v1",
        "md5-le64/affine-mod-2^32/v2",
        "md5-le64+cyclic-words/affine-mod-2^32/v3",
        "cyclic(md5-le64-words,splitmix64-chars)/affine-mod-2^32/v4",
    ],
)
def test_an_index_of_another_hash_scheme_is_refused(tmp_path, scheme):
    """v2 fingerprinted word shingles otherwise: its index would silently miss the pairs of new documents."""
    import duckdb

    db = make_index(tmp_path, {"a": "some text", "b": "more text"}, "index", "--shingle-type", "word", "-k", "1")
    con = duckdb.connect(str(db))
    con.execute("update runs set hash_scheme = $scheme", {"scheme": scheme}).fetchall()
    con.close()
    new = write_jsonl(tmp_path / "new.jsonl", {"c": "new text"})
    for command in (["add", str(db), str(new)], ["query", str(db), "--text", "some text"]):
        result = CliRunner().invoke(app, command)
        assert result.exit_code == 1 and f"hash scheme {scheme}" in result.stderr, command
        assert "run it again" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_remove_takes_ids_from_a_file_or_standard_input(tmp_path):
    """An id too long for a command line (a 1 MB id) could not be removed from the CLI; --ids-from
    reads ids one per line, from a file or standard input."""
    from typer.testing import CliRunner

    import dedup
    from dedup.cli import app

    long_id = "x" * 300_000
    ids = [long_id, "b", "c", "d"]
    db = tmp_path / "index.duckdb"
    dedup.run(documents=[(i, f"document {n} with words of its own") for n, i in enumerate(ids)], db=db)
    listed = tmp_path / "ids.txt"
    listed.write_text(long_id + "\r\nb\n\n")
    runner = CliRunner()
    result = runner.invoke(app, ["remove", str(db), "--ids-from", str(listed)])
    assert result.exit_code == 0 and "removed 2 documents" in result.stderr, result.output
    result = runner.invoke(app, ["remove", str(db), "c", "--ids-from", "-"], input="d\n")
    assert result.exit_code == 0 and "removed 2 documents" in result.stderr, result.output
    assert dedup.Index(db).documents().num_rows == 0
    result = runner.invoke(app, ["remove", str(db)])
    assert result.exit_code == 2 and "give the ids to remove" in result.stderr


def test_every_pair_table_keeps_one_orientation_after_add_and_the_audit_relies_on_it(tmp_path):
    """A stored pair is (smaller doc_id, larger doc_id) on every path. An added document is numbered
    after the indexed ones whatever its id, so its pair with an older document of a larger id was
    stored the other way round, and the audit, which joins on ordered doc_ids, called it missed and
    extra (recall 0 on a correct index)."""
    text = "the quick brown fox jumps over the lazy dog near the river bank today"
    db = make_index(tmp_path, {"b": "something else entirely", "c": text}, "index", "--keep-all-tables")
    invoke("add", db, write_jsonl(tmp_path / "new.jsonl", {"a": text + " !"}), "-q")
    for table in ("candidates", "verified", "pairs"):
        assert rows(db, f"select count(*), count(*) filter (where doc_id_a < doc_id_b) from {table}") == [(1, 1)]
    assert rows(db, "select id_a, id_b from pairs") == [("c", "a")]  # the ids of doc_id_a and doc_id_b
    done = CliRunner().invoke(app, ["audit", str(db), "--format", "json", "--sample", "10"])
    assert done.exit_code == 0, done.output
    audit = json.loads(done.stdout)
    assert (audit["true_pairs"], audit["found_pairs"], audit["extra"], audit["missed"]) == (1, 1, 0, [])
    invoke("export", db, "--what", "pairs", "-o", tmp_path / "pairs.csv")
    assert (tmp_path / "pairs.csv").read_text().splitlines()[1].startswith("a,c,")  # id order, as a rebuild


def test_add_turns_round_the_pairs_an_earlier_add_stored_in_id_order(tmp_path):
    """An index whose pairs an earlier dedup's `add` stored in id order (larger doc_id first) is
    turned to the one orientation by its next add (sql/queries/index/pairs_orient.sql)."""
    text = "the quick brown fox jumps over the lazy dog near the river bank today"
    db = make_index(tmp_path, {"c": text, "d": text + " again"}, "index", "--threshold", "0.5", "--keep-all-tables")
    con = duckdb.connect(str(db))  # its pairs a table, as every index's were then
    con.execute("update pairs set doc_id_a = doc_id_b, doc_id_b = doc_id_a, id_a = id_b, id_b = id_a")
    con.close()
    assert rows(db, "select count(*) from pairs where doc_id_a > doc_id_b") == [(1,)]
    invoke("add", db, write_jsonl(tmp_path / "new.jsonl", {"e": "nothing like the others"}), "-q")
    assert rows(db, "select doc_id_a, doc_id_b, id_a, id_b from pairs") == [(1, 2, "c", "d")]


def test_remove_takes_quiet_as_add_does(tmp_path):
    db = make_index(tmp_path, planted_corpus(5, 1, seed=3))
    done = CliRunner().invoke(app, ["remove", str(db), "d0000", "-q"])
    assert done.exit_code == 0 and done.stderr == "", done.output
    done = CliRunner().invoke(app, ["remove", str(db), "d0001"])
    assert done.exit_code == 0 and done.stderr == "removed 1 document\n"


def test_a_database_given_as_documents_is_refused_in_one_line(tmp_path):
    """`dedup add DB other.duckdb` said "added 0 documents" and `dedup run x.duckdb` found no pairs,
    both exit 0: the database was read as one binary file and skipped."""
    db = make_index(tmp_path, planted_corpus(5, 1, seed=3))
    other = make_index(tmp_path, planted_corpus(4, 1, seed=4), "other")
    message = f"Error: input {other} is a DuckDB database, not documents: an index is given as DB "
    for command in (["add", str(db), str(other)], ["run", str(other)]):
        done = CliRunner().invoke(app, command)
        assert done.exit_code == 2 and done.stderr.startswith(message) and done.stderr.count("\n") == 1, done.output
    assert rows(db, "select count(*) from documents") == [(10,)]
