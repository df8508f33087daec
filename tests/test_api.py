"""The Python API: in-memory documents of every kind, the Index class, and its docstring examples."""

from __future__ import annotations

import doctest
import re

import pyarrow as pa
import pytest
from conftest import REPO

import dedup
import dedup.api
import dedup.cleanup
from dedup.errors import UsageError

TEXTS = [
    "the quick brown fox jumps over the lazy dog by the river",
    "the quick brown fox jumps over the lazy dog by the river!",
    "an entirely different sentence about query planners",
]


class ArrowStream:
    """A data frame of another library: it speaks only the Arrow PyCapsule stream interface."""

    def __init__(self, table: pa.Table) -> None:
        self._table = table

    def __arrow_c_stream__(self, requested_schema=None):
        return self._table.__arrow_c_stream__(requested_schema)


@pytest.mark.parametrize("module", [dedup, dedup.api, dedup.cleanup])
def test_docstring_examples_run(module, monkeypatch):
    monkeypatch.chdir(REPO)
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted and not failed


def test_every_kind_of_in_memory_documents_gives_the_same_pairs():
    ids = ["a", "b", "c"]
    expected = dedup.run(documents=list(zip(ids, TEXTS, strict=True)), threshold=0.5).to_pylist()
    assert [(p["id_a"], p["id_b"]) for p in expected] == [("a", "b")]
    table = pa.table({"id": ids, "text": TEXTS})
    assert dedup.run(table, threshold=0.5).to_pylist() == expected
    assert dedup.run(ArrowStream(table), threshold=0.5).to_pylist() == expected
    renamed = pa.table({"key": ids, "body": TEXTS})
    got = dedup.run(ArrowStream(renamed), threshold=0.5, id_column="key", text_column="body")
    assert got.to_pylist() == expected
    by_position = dedup.run(documents=TEXTS, threshold=0.5).to_pylist()
    assert [(p["id_a"], p["id_b"]) for p in by_position] == [(1, 2)]


def test_bad_documents_are_one_clear_error():
    with pytest.raises(dedup.api.UsageError, match="list of strings"):
        dedup.run(documents=[1, 2, 3])
    with pytest.raises(dedup.api.UsageError, match="no text column"):
        dedup.run(pa.table({"body": ["x"]}))
    with pytest.raises(dedup.api.UsageError, match="either inputs"):
        dedup.run()
    # Spark reads paths with its own readers, where the data is: refused before a session starts
    with pytest.raises(dedup.api.UsageError, match="engine='spark' reads paths .* give inputs, not documents"):
        dedup.run(documents=TEXTS, engine="spark")


def test_a_dict_of_documents_is_ids_to_texts_and_a_set_is_refused(tmp_path):
    """dedup.run(documents={"a": text, "b": same text}) returned no pairs: a dict was iterated as
    its keys, which became the texts (the documents "a" and "b"). A set of strings gave ids in the
    set's order, which changes from one Python process to the next (hash randomization)."""
    ids = ["a", "b", "c"]
    expected = dedup.run(documents=list(zip(ids, TEXTS, strict=True)), threshold=0.5).to_pylist()
    assert dedup.run(documents=dict(zip(ids, TEXTS, strict=True)), threshold=0.5).to_pylist() == expected
    assert dedup.run(dict(zip(ids, TEXTS, strict=True)), threshold=0.5).to_pylist() == expected
    db = tmp_path / "index.duckdb"
    dedup.run(documents={"a": TEXTS[0]}, db=db, threshold=0.5)
    assert dedup.Index(db).add(documents={"b": TEXTS[1]}).endswith("1 pair involves it")
    with pytest.raises(dedup.api.UsageError, match="a set has no order"):
        dedup.run(documents=set(TEXTS))
    with pytest.raises(dedup.api.UsageError, match="ids must be all integers or all strings"):
        dedup.run(documents=[(1, TEXTS[0]), ("1", TEXTS[1])])


def test_index_class_adds_queries_and_removes_in_memory(tmp_path):
    db = tmp_path / "index.duckdb"
    dedup.run(documents=[("a", TEXTS[0]), ("c", TEXTS[2])], threshold=0.5, db=db)
    index = dedup.Index(db)
    assert index.add(documents=[("b", TEXTS[1])]).startswith("added 1 document (")
    assert index.query(id="a").column("id").to_pylist() == ["b"]
    assert index.export("pairs").num_rows == 1
    assert "kept" in str(index.explain("a", "b"))
    assert index.remove(["b"]) == 1
    assert index.query(text=TEXTS[1]).column("id").to_pylist() == ["a"]
    assert sorted(index.documents().column("id").to_pylist()) == ["a", "c"]


def test_index_methods_refuse_an_unknown_choice_with_the_choices(tmp_path):
    """Index.export("nope") and Index.add(keep="bogus") raised ValueError ("'nope' is not a valid
    ExportKind"), the latter only once the documents were read and staged; now UsageError, first."""
    db = tmp_path / "index.duckdb"
    dedup.run(documents=[("a", TEXTS[0]), ("c", TEXTS[2])], threshold=0.5, db=db)
    index = dedup.Index(db)
    kinds = "pairs, clusters, duplicates, survivors, adjacency"
    with pytest.raises(dedup.api.UsageError, match=f"^what must be one of {kinds}, got 'nope'$"):
        index.export("nope")
    for call in (
        lambda: index.export("pairs", keep="bogus"),
        lambda: index.add(documents=[("b", TEXTS[1])], keep="bogus"),
    ):
        with pytest.raises(
            dedup.api.UsageError, match="^keep must be one of first, min-id, longest, shortest, got 'bogus'$"
        ):
            call()
    assert sorted(index.documents().column("id").to_pylist()) == ["a", "c"]


def test_remove_of_one_string_removes_that_id_not_its_characters(tmp_path):
    """Index.remove("12") iterated the string: it removed the documents 1 and 2 (the ids of an
    index of lines), and "a" would go for an index with ids "a" and "b"... Now it is the one id."""
    db = tmp_path / "index.duckdb"
    dedup.run(documents=[*TEXTS, "a twelfth document of its own words"] + [f"filler text {i}" for i in range(8)], db=db)
    index = dedup.Index(db)
    assert index.remove("12") == 1
    assert index.remove(3) == 1
    ids = index.documents().column("id").to_pylist()
    assert sorted(ids) == [1, 2, 4, 5, 6, 7, 8, 9, 10, 11]


def test_remove_of_bytes_or_a_numpy_integer_removes_that_one_id(tmp_path):
    """Index.remove(b"12") iterated the bytes as integers and removed the documents 49 and 50; a
    numpy integer was a TypeError. Bytes are one id as UTF-8 text, a numpy integer one id in decimal;
    what names no id (a float, bytes that are not UTF-8) is refused before anything is removed."""
    import numpy as np

    db = tmp_path / "index.duckdb"
    dedup.run(documents=[f"document number {i} of its own words" for i in range(60)], db=db)
    index = dedup.Index(db)
    assert index.remove(b"12") == 1
    assert index.remove(np.int64(13)) == 1
    assert index.remove([bytearray(b"14"), np.int32(15), "16", 17]) == 4
    for bad, message in ((1.0, "not float: 1.0"), (b"\xff", "is not UTF-8 text"), ([True], "not bool")):
        with pytest.raises(dedup.api.UsageError, match=message):
            index.remove(bad)
    ids = index.documents().column("id").to_pylist()
    assert sorted(ids) == [i for i in range(1, 61) if i not in (12, 13, 14, 15, 16, 17)]
    assert index.query(id=np.int64(20)).num_rows == 0
    assert str(index.explain(b"20", np.int64(21))).startswith("a: 20  (27 shingles)\nb: 21  (27 shingles)\n")


@pytest.mark.parametrize(
    "options,message",
    [
        ({"threshold": "0.5"}, "--threshold must be a number, got '0.5'"),
        ({"shingle_size": True}, "--shingle-size must be an integer, got True"),
        ({"num_perm": 128.0}, "--num-perm must be an integer, got 128.0"),
        ({"lines": "no"}, "--lines must be True or False, got 'no'"),
        ({"text_column": 3}, "--text-column must be a string, got 3"),
    ],
)
def test_options_of_the_wrong_type_are_one_usage_error(options, message):
    """A string threshold stopped in TypeError, a bool shingle size in DuckDB's binder error, and
    lines="no" read every input as lines; each is now a UsageError naming the option."""
    with pytest.raises(dedup.api.UsageError, match=f"^{re.escape(message)}$"):
        dedup.run(str(REPO / "data" / "clough"), **options)
    with pytest.raises(dedup.api.UsageError, match=r"^inputs must be a path or a list of paths, got 5$"):
        dedup.run(5)


def test_index_arguments_of_the_wrong_type_are_one_usage_error(tmp_path):
    """Index.query(min_jaccard="0.5") and explain(examples="3") stopped in TypeError, query(text=5)
    in pyarrow's ArrowTypeError, and add(replace="no") replaced documents."""
    db = tmp_path / "index.duckdb"
    dedup.run(documents=[("a", TEXTS[0]), ("c", TEXTS[2])], threshold=0.5, db=db)
    index = dedup.Index(db)
    calls = [
        (lambda: index.query(text=TEXTS[0], min_jaccard="0.5"), "min_jaccard must be a number, got '0.5'"),
        (lambda: index.query(text=TEXTS[0], min_bands="2"), "min_bands must be an integer, got '2'"),
        (lambda: index.query(text=5), "text must be a string, got 5"),
        (lambda: index.explain("a", "c", examples="3"), "examples must be an integer, got '3'"),
        (lambda: index.add(documents=[("a", TEXTS[1])], replace="no"), "replace must be True or False, got 'no'"),
    ]
    for call, message in calls:
        with pytest.raises(dedup.api.UsageError, match=f"^{re.escape(message)}$"):
            call()
    assert index.export("pairs").num_rows == 0 and index.query(id="a").num_rows == 0


def test_texts_given_as_paths_point_to_documents(tmp_path):
    """dedup.run(["The cat sat on the mat.", ...]) read the texts as paths and failed with "input
    not found: The cat sat on the mat."; it now says where texts go."""
    with pytest.raises(dedup.api.UsageError, match=r"^input not found: 'The cat sat on the mat\.'; to deduplicate"):
        dedup.run(["The cat sat on the mat.", "The cat sat on a mat."])
    with pytest.raises(dedup.api.UsageError, match=r"give them as documents=\[\.\.\.\]$"):
        dedup.run("a text of many words that is no file at all, longer than forty characters")


@pytest.mark.parametrize(
    ("documents", "message"),
    [
        (
            ["fine text", "abc \ud800 def"],
            r"the text of document 2 holds a lone surrogate \('\\ud800' at character 4\)",
        ),
        ([("a\udcff", "fine text")], r"the id of document 1 holds a lone surrogate \('\\udcff' at character 1\)"),
    ],
)
def test_a_lone_surrogate_in_memory_is_refused_in_one_line(documents, message):
    """A lone surrogate (what surrogateescape makes of bytes that are not UTF-8) was a raw
    UnicodeEncodeError from Arrow."""
    with pytest.raises(dedup.api.UsageError, match=message):
        dedup.run(documents=documents)


def test_write_deduplicated_of_documents_in_memory_is_refused_before_the_run(tmp_path):
    """It ran everything, then failed with "cannot write F: No such file or directory"."""
    with pytest.raises(dedup.api.UsageError, match=r"^write_deduplicated copies an input file: with documents"):
        dedup.run(documents=TEXTS, write_deduplicated=tmp_path / "copy.txt")
    assert not (tmp_path / "copy.txt").exists()


def test_skipped_documents_given_in_memory_are_counted_in_a_warning():
    """A NULL text given to dedup.run vanished from the result without a count."""
    import pyarrow as pa

    table = pa.table({"id": ["a", "b", "c"], "text": [TEXTS[0], None, TEXTS[1]]})
    with pytest.warns(
        dedup.api.SkippedWarning, match=r"^dedup skipped 1 input \(the first: source='b', reason='text is NULL'\)$"
    ):
        pairs = dedup.run(documents=table, threshold=0.5)
    assert pairs.column("id_a").to_pylist() == ["a"]


def test_two_changes_at_once_say_the_index_is_in_use(tmp_path):
    """Threads calling Index.add at once got DuckDB's "Conflict on tuple deletion"; the change that
    loses is rolled back and says the index is in use. The index holds the winners' documents."""
    import threading

    from dedup.errors import DedupError

    db = tmp_path / "index.duckdb"
    dedup.run(documents=[(f"d{i}", f"document {i} with some words of its own") for i in range(200)], db=db)
    index = dedup.Index(db)
    errors: list[str] = []
    added = 0
    for attempt in range(5):  # threads may happen to run one after the other: try until two meet

        def add(n: int, attempt: int = attempt) -> None:
            try:
                index.add(documents=[(f"n{attempt}-{n}-{i}", f"new document {n} {i} {attempt}") for i in range(50)])
            except DedupError as error:
                errors.append(str(error))

        threads = [threading.Thread(target=add, args=(n,)) for n in range(4)]
        before = len(errors)
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        added += 4 - (len(errors) - before)
        if errors:
            break
    assert errors and all(e.startswith("the index is in use: another change to it is under way") for e in errors)
    assert index.documents().num_rows == 200 + 50 * added


def test_a_data_frame_column_of_mixed_types_is_one_line(tmp_path):
    """A pandas object column of strings and integers (as keep_by, or as ids) raised pandas' own
    ArrowTypeError through dedup.run."""
    import pandas as pd

    frame = pd.DataFrame({"id": ["a", "b", "c"], "text": ["x y z w"] * 3, "split": ["train", 1, None]})
    with pytest.raises(UsageError, match=r"^cannot read the data frame as a table \(.*column split.*one type$"):
        dedup.run(documents=frame, keep_by="split=train")
    frame = pd.DataFrame({"id": ["a", "b", 3], "text": ["x y z w"] * 3})
    with pytest.raises(UsageError, match="column id"):
        dedup.run(documents=frame)
    assert dedup.run(documents=frame.astype({"id": str})).num_rows == 3  # one type: read
