"""A kept index never loses documents, and every index command works on every method's index."""

from __future__ import annotations

import pytest
from corpora import planted_corpus
from indexing import invoke, make_index, result_tables, rows, write_jsonl
from typer.testing import CliRunner

from dedup import runner
from dedup.cli import app
from dedup.index import documents as index_documents


def run_cli(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_run_on_a_grown_index_refuses_to_drop_the_added_documents(tmp_path):
    docs = planted_corpus(8, 2, seed=11)
    db = make_index(tmp_path, docs)
    added = {"added-1": "an added text about sailing boats", "added-2": "x y"}
    more = write_jsonl(tmp_path / "more.jsonl", added)
    invoke("add", db, more, "-q")
    grown = rows(db, "select count(*) from documents")[0][0]
    assert grown == len(docs) + 2
    result = run_cli("run", tmp_path / "index.jsonl", "--db", db, "-q")
    assert result.exit_code == 2, result.stderr
    message = result.stderr.strip()
    assert message.count("\n") == 0 and message.startswith("Error: ")
    assert "2 documents" in message and "'added-1'" in message and "--replace" in message
    assert rows(db, "select count(*) from documents")[0][0] == grown  # nothing was rewritten
    # the same inputs plus the added ones: nothing is dropped, the run goes ahead
    invoke("run", write_jsonl(tmp_path / "all.jsonl", {**docs, **added}), "--db", db, "-q")
    assert rows(db, "select count(*) from documents")[0][0] == grown
    # --replace rebuilds from the inputs alone, as asked
    invoke("run", tmp_path / "index.jsonl", "--db", db, "-q", "--replace")
    assert rows(db, "select count(*) from documents")[0][0] == len(docs)


def test_a_run_with_new_options_on_a_kept_index_sets_the_options_that_add_uses(tmp_path):
    docs = planted_corpus(8, 2, seed=12)
    db = make_index(tmp_path, docs)
    invoke("run", tmp_path / "index.jsonl", "--db", db, "-q", "-k", "5", "--threshold", "0.6")
    new = {"late": next(iter(docs.values())) + " and a few more words"}
    invoke("add", db, write_jsonl(tmp_path / "late.jsonl", new), "-q", "-k", "5")
    whole = make_index(tmp_path, {**docs, **new}, "whole", "-k", "5", "--threshold", "0.6")
    pairs = "select id_a, id_b, jaccard from pairs order by all"
    assert rows(db, pairs) == rows(whole, pairs) and rows(db, pairs)


def test_index_commands_refuse_the_tables_of_a_run_that_did_not_finish(tmp_path, monkeypatch):
    """A run with other options stopped after some of its stages (Ctrl-C, kill -9) leaves the
    tables of two runs: the per-document stages' of -k 5 (the band hashes included, made in each batch
    of documents), the rest and the runs table of -k 9.
    `add` then shingled the new document with -k 9 and paired it with nothing, and `query` of an
    indexed text found nothing, without a word. Every index command now refuses such a database
    in one line until a run on it finishes."""
    docs = planted_corpus(8, 2, seed=14)
    db = make_index(tmp_path, docs)
    first_id, first_text = next(iter(docs.items()))
    original = runner.run_steps

    def stopping(engine, steps, *args, **kwargs):
        if steps[0][0].name == "candidates":
            raise KeyboardInterrupt
        return original(engine, steps, *args, **kwargs)

    monkeypatch.setattr(runner, "run_steps", stopping)
    stopped = run_cli("run", tmp_path / "index.jsonl", "--db", db, "-q", "-k", "5")
    assert stopped.exit_code == 130, stopped.stderr
    monkeypatch.setattr(runner, "run_steps", original)
    late = write_jsonl(tmp_path / "late.jsonl", {"late": first_text + " and a few more words"})
    commands = [
        ("add", db, late, "-q"),
        ("query", db, "--text", first_text),
        ("query", db, "--id", first_id),
        ("explain", db, first_id, f"{first_id}v0"),
        ("list", db),
        ("export", db, "--what", "pairs", "--output", tmp_path / "pairs.csv"),
        ("clusters", db),
        ("buckets", db),
        ("remove", db, first_id),
        ("report", db, "--output", tmp_path / "report.html"),
    ]
    for command in commands:
        result = run_cli(*command)
        message = result.stderr.strip()
        assert result.exit_code == 1, (command, result.stdout, message)
        assert message.count("\n") == 0 and message.startswith("Error: "), message
        assert "did not finish" in message and "run it again" in message, message
    assert not (tmp_path / "pairs.csv").exists() and not (tmp_path / "report.html").exists()
    assert rows(db, "select count(*) from documents where id = 'late'")[0][0] == 0
    # the stopped command again finishes the run; the index then answers as a run on the union
    invoke("run", tmp_path / "index.jsonl", "--db", db, "-q", "-k", "5")
    invoke("add", db, late, "-q")
    whole = make_index(tmp_path, {**docs, "late": first_text + " and a few more words"}, "whole", "-k", "5")
    pairs = "select id_a, id_b, jaccard from pairs order by all"
    assert rows(db, pairs) == rows(whole, pairs) and any("late" in pair for pair in rows(db, pairs))
    assert first_id in invoke("query", db, "--text", first_text, "--format", "csv").stdout


@pytest.mark.parametrize("change", ["remove", "add"])
def test_add_or_remove_stopped_before_its_clusters_were_rebuilt_leaves_the_index_unchanged(
    tmp_path, monkeypatch, change
):
    """Ctrl-C (exit 130) or kill -9 after an add or remove committed its documents but before the
    clusters were rebuilt left the clusters of the index before: `export survivors` listed a
    removed document and missed an added one. The clusters are now rebuilt in the change's step."""
    docs = planted_corpus(6, 2, seed=15)
    db = make_index(tmp_path, docs)
    before = result_tables(db), rows(db, "select * from clusters order by all")

    def stopped(engine, first_new, keep, resolve):
        raise SystemExit(130)  # what dedup's SIGINT handler raises, wherever the command is

    monkeypatch.setattr(index_documents, "update_clusters", stopped)
    late = write_jsonl(tmp_path / "late.jsonl", {"late": next(iter(docs.values())) + " and more words"})
    result = run_cli(*(("remove", db, "d0000") if change == "remove" else ("add", db, late, "-q")))
    assert result.exit_code == 130, result.stderr
    assert (result_tables(db), rows(db, "select * from clusters order by all")) == before


@pytest.mark.parametrize("method", ["exact", "signature"])
def test_index_commands_work_on_an_index_of_every_method(tmp_path, method):
    docs = planted_corpus(10, 2, seed=13)
    ids = list(docs)
    first, second = dict(list(docs.items())[:20]), dict(list(docs.items())[20:])
    options = ("--method", method, "--threshold", "0.5")
    db = make_index(tmp_path, first, "index", *options)
    whole = make_index(tmp_path, docs, "whole", *options)
    invoke("add", db, write_jsonl(tmp_path / "second.jsonl", second), "-q")
    pairs = "select id_a, id_b, jaccard from pairs order by all"
    assert rows(db, pairs) == rows(whole, pairs) and rows(db, pairs)
    id_a, id_b = rows(whole, "select id_a, id_b from pairs order by jaccard desc limit 1")[0]
    explained = invoke("explain", db, id_a, id_b).stdout
    assert "kept" in explained and f"--method {method}" in explained
    invoke("buckets", db, "--top", "2")
    similar = invoke("query", db, "--id", id_a, "--format", "csv").stdout
    assert id_b in similar
    # the exact index's query is exact: it equals the pairs of the document
    if method == "exact":
        expected = {b if a == ids[0] else a for a, b in rows(whole, "select id_a, id_b from pairs") if ids[0] in (a, b)}
        got = invoke("query", db, "--id", ids[0], "--format", "csv").stdout.splitlines()[1:]
        assert {line.split(",")[0] for line in got} == expected


def test_adding_a_file_of_the_indexed_folder_names_it_as_the_index_does(tmp_path):
    """`dedup add DB corpus/a.txt` after `dedup run corpus/` indexed a.txt a second time, as
    `corpus/a.txt`; the duplicates export then said to drop a file for a survivor that is the same
    file. It is the indexed document: refused without --replace, replaced with it."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name, text in {"a.txt": "one two three four five six seven", "b.txt": "other words entirely here"}.items():
        (folder / name).write_text(text)
    db = tmp_path / "index.duckdb"
    invoke("run", folder, "--db", db, "-q")
    result = run_cli("add", db, folder / "a.txt")
    assert result.exit_code == 1 and "1 id is in the index already ('a.txt'...)" in result.stderr
    (folder / "a.txt").write_text("one two three four five six seven eight")
    invoke("add", db, folder / "a.txt", "--replace", "-q")
    assert rows(db, "select id, text from documents order by id") == [
        ("a.txt", "one two three four five six seven eight"),
        ("b.txt", "other words entirely here"),
    ]


def test_an_interrupted_clusters_command_leaves_the_index_as_it_was(tmp_path, monkeypatch):
    """A Ctrl-C in `dedup clusters DB --keep longest` left its work tables in the index (and a
    clusters table half built); the rebuild is now one step, rolled back whole."""
    from dedup.index import clusters

    docs = planted_corpus(6, 2, seed=15)
    db = make_index(tmp_path, docs)
    before = rows(db, "select table_name from information_schema.tables order by 1")
    table = rows(db, "select * from clusters order by all")

    def stopped(work):
        raise KeyboardInterrupt

    monkeypatch.setattr(clusters, "_decide", stopped)
    result = run_cli("clusters", db, "--keep", "longest")
    assert result.exit_code == 130 and "the index is unchanged" in result.stderr
    assert rows(db, "select table_name from information_schema.tables order by 1") == before
    assert rows(db, "select * from clusters order by all") == table


def test_adding_another_folder_of_the_same_names_says_both_ways(tmp_path):
    """A second folder whose files have the indexed folder's relative names was only advised
    --replace, which would replace other documents: the message gives the other way too."""
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.txt").write_text(f"the text of folder {name} with words")
    db = tmp_path / "index.duckdb"
    invoke("run", tmp_path / "one", "--db", db, "-q")
    result = run_cli("add", db, tmp_path / "two")
    assert result.exit_code == 1
    assert "use --replace to replace them if they are the same documents" in result.stderr
    assert "run again on all the folders together (their ids become FOLDER/NAME)" in result.stderr


def test_adding_a_parquet_dataset_of_indexed_ids_is_not_advised_as_a_folder(tmp_path):
    """A Parquet dataset is a folder on disk but a table to dedup: its ids are its id column's, so
    the advice for a second folder of the same file names (FOLDER/NAME ids) does not apply."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"id": ["x"], "text": ["the first table's text, with its words"]}), tmp_path / "t.parquet")
    (tmp_path / "more").mkdir()
    pq.write_table(pa.table({"id": ["x"], "text": ["another text under the same id"]}), tmp_path / "more" / "p.parquet")
    db = tmp_path / "index.duckdb"
    invoke("run", tmp_path / "t.parquet", "--db", db, "-q")
    result = run_cli("add", db, tmp_path / "more")
    assert result.exit_code == 1
    assert "1 id is in the index already ('x'...): use --replace to replace them" in result.stderr
    assert "FOLDER/NAME" not in result.stderr
