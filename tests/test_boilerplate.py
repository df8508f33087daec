"""--max-shingle-df against the reference: the shingles a cap leaves out (the boilerplate stage), each
document's set, and the pairs of both methods, on hand-made texts and hypothesis inputs."""

from __future__ import annotations

import duckdb
import pytest
import reference
from helpers import load_documents, rows, run_stages, sketch_for
from hypothesis import given
from hypothesis import strategies as st

import dedup
from dedup.errors import UsageError
from dedup.frequency_cap import FrequencyCap

# Few words, so that shingles are shared by many texts, and copies among them.
WORDS = ["the", "licence", "mit", "copyright", "holder", "fox", "dog", "Fox", "a"]
texts = st.lists(st.lists(st.sampled_from(WORDS), min_size=0, max_size=9).map(" ".join), min_size=1, max_size=9)
caps = st.one_of(st.integers(1, 4).map(str), st.sampled_from(["0.1", "0.25", "0.5", "0.75"]))


def cap_of(cap: str) -> dict[str, object]:
    parsed = FrequencyCap.parse(cap)
    return {"count": parsed.count, "fraction": parsed.fraction}


def sql_sets(texts: list[str], kind: str, k: int, cap: str) -> dict[int, set[int]]:
    con = duckdb.connect()
    sketch = sketch_for(shingle_type=kind, shingle_size=k, num_perm=4, bands=4, rows=1, max_shingle_df=cap)
    load_documents(con, texts, sketch)
    run_stages(con, sketch, until="shingles", start="boilerplate")
    result: dict[int, set[int]] = {i: set() for i in range(1, len(texts) + 1)}
    for doc_id, fp in rows(con, "select d.id, s.fingerprint from shingles s join documents d using (doc_id)"):
        result[doc_id].add(fp)
    con.close()
    return result


HAND_MADE = [
    "The MIT licence: the copyright holder",
    "the mit licence the copyright holder",  # the same normalized text but the colon: not a copy
    "The MIT licence: the copyright holder",  # a copy of the first
    "the quick fox and the dog",
    "the MIT licence",
    "the MIT licence",  # two copies of a text every shingle of which is boilerplate
    "",
]


@pytest.mark.parametrize("kind, k", [("word", 2), ("word", 1), ("char", 4)])
@pytest.mark.parametrize("cap", ["1", "2", "0.5"])
def test_hand_made_capped_sets_equal_reference(kind, k, cap):
    expected = reference.capped_sets(dict(enumerate(HAND_MADE, 1)), k, kind, **cap_of(cap))
    assert sql_sets(HAND_MADE, kind, k, cap) == expected


@given(texts=texts, k=st.integers(1, 3), kind=st.sampled_from(["char", "word"]), cap=caps)
def test_property_capped_sets_equal_reference(texts, k, kind, cap):
    expected = reference.capped_sets(dict(enumerate(texts, 1)), k, kind, **cap_of(cap))
    assert sql_sets(texts, kind, k, cap) == expected


def test_the_boilerplate_table_holds_each_left_out_shingle_with_its_document_frequency():
    con = duckdb.connect()
    sketch = sketch_for(shingle_type="word", shingle_size=2, max_shingle_df="2")
    docs = ["a b c", "a b d", "a b e", "a b c", "x y"]  # "a b" in 3 distinct texts: the copy counts once
    load_documents(con, docs, sketch)
    run_stages(con, sketch, until="boilerplate", start="boilerplate")
    expected = reference.fingerprints({"a b"}, "word")
    assert rows(con, "select fingerprint, df from boilerplate") == [(fp, 3) for fp in expected]


@given(
    texts=texts,
    k=st.integers(1, 3),
    kind=st.sampled_from(["char", "word"]),
    cap=caps,
    method=st.sampled_from(["exact", "lsh"]),
)
def test_property_pairs_of_a_run_equal_the_reference(texts, k, kind, cap, method):
    docs = dict(enumerate(texts, 1))
    expected = reference.set_pairs(reference.capped_sets(docs, k, kind, **cap_of(cap)), 0.5)
    got = dedup.run(
        documents=texts, threshold=0.5, shingle_type=kind, shingle_size=k, max_shingle_df=cap, method=method,
        num_perm=64, bands=64, rows=1,
    )  # fmt: skip
    assert {(r["id_a"], r["id_b"]): r["jaccard"] for r in got.to_pylist()} == expected


def test_identical_texts_stay_a_pair_and_an_emptied_text_pairs_with_nothing_else():
    texts = ["the mit licence", "the mit licence", "the MIT licence!", "the mit licence here"] + [
        f"the mit licence of project {n}" for n in range(5)
    ]
    got = dedup.run(documents=texts, threshold=0.1, shingle_type="word", shingle_size=2, max_shingle_df=3)
    pairs = {(r["id_a"], r["id_b"]): r["jaccard"] for r in got.to_pylist()}
    assert pairs[(1, 2)] == 1.0  # every shingle left out, and still copies
    assert (1, 3) not in pairs and (2, 3) not in pairs  # another text with the same (empty) set: not a pair


@pytest.mark.parametrize(
    "value, message",
    [
        ("0", "at least 1"),
        ("1.5", "between 0 and 1"),
        ("20.0", "between 0 and 1"),
        ("lots", "a count of texts"),
        ("-3", "at least 1"),
    ],
)
def test_a_cap_that_is_no_count_nor_fraction_is_a_usage_error(value, message):
    with pytest.raises(UsageError, match=message):
        sketch_for(max_shingle_df=value)


def test_a_cap_has_one_spelling():
    assert sketch_for(max_shingle_df=20).max_shingle_df == "20"
    assert sketch_for(max_shingle_df=" 0.010 ").max_shingle_df == "0.01"
    assert sketch_for().max_df is None
