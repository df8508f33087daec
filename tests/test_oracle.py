"""SQL results against the pure-Python reference: shingle sets, signatures bit for bit, Jaccard."""

from __future__ import annotations

import duckdb
import pytest
import reference
from helpers import load_documents, rows, run_stages, shingle_sets, sketch_for
from hypothesis import given
from hypothesis import strategies as st

# Text from every assigned code point (Python 3.11's Unicode tables), weighted towards the
# cases that break tokenizers: whitespace of all kinds, case pairs, marks, digits, punctuation.
unicode_text = st.text(
    alphabet=st.one_of(
        st.characters(exclude_categories=("Cs", "Cn")),
        st.sampled_from(list(" \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u2029\u3000_İΣσςẞß")),
        st.sampled_from(list("abcAB")),
    ),
    max_size=40,
)

HAND_MADE = [
    "",
    "   ",
    "a",
    "Hello World",
    "hello   world",
    "ÉCOLE école",
    "İstanbul ΣΑΣ",
    "tab\tand\u2028line\u0085sep",
    "x" * 30,
    "word_with_underscore and 123 numbers ١٢٣",
    "combining: cafe\u0301 naïve",
]


def sql_shingle_sets(texts: list[str], kind: str, k: int) -> dict[int, set[int]]:
    con = duckdb.connect()
    sets = shingle_sets(con, texts, sketch_for(shingle_type=kind, shingle_size=k, num_perm=4, bands=4, rows=1))
    con.close()
    return sets


@pytest.mark.parametrize("kind", ["char", "word"])
@pytest.mark.parametrize("k", [1, 3, 5])
def test_hand_made_shingle_sets_equal_reference(kind, k):
    got = sql_shingle_sets(HAND_MADE, kind, k)
    for i, text in enumerate(HAND_MADE, start=1):
        assert got[i] == reference.fingerprints(reference.shingles(text, k, kind), kind), text


@given(
    texts=st.lists(unicode_text, min_size=1, max_size=6), k=st.integers(1, 6), kind=st.sampled_from(["char", "word"])
)
def test_property_shingle_sets_equal_reference(texts, k, kind):
    got = sql_shingle_sets(texts, kind, k)
    for i, text in enumerate(texts, start=1):
        assert got[i] == reference.fingerprints(reference.shingles(text, k, kind), kind)


@given(
    texts=st.lists(unicode_text.filter(lambda t: t.strip()), min_size=1, max_size=5),
    seed=st.integers(0, 2**63 - 1),
    k=st.integers(1, 5),
)
def test_property_signatures_equal_reference_bit_for_bit(texts, seed, k):
    num_perm = 16
    con = duckdb.connect()
    settings = sketch_for(shingle_size=k, num_perm=num_perm, bands=4, rows=4, seed=seed)
    load_documents(con, texts, settings)
    run_stages(con, settings, until="signatures", start="shingles")
    columns = ", ".join(f"mh_{i}" for i in range(num_perm))
    got = {
        doc_id: list(sig)
        for doc_id, *sig in rows(con, f"select d.id, {columns} from signatures join documents d using (doc_id)")
    }
    con.close()
    for i, text in enumerate(texts, start=1):
        shingle_set = reference.shingles(text, k, "char")
        if shingle_set:
            assert got[i] == reference.signature(shingle_set, seed, num_perm)
        else:
            assert i not in got


@given(
    a=unicode_text,
    b=unicode_text,
    k=st.integers(1, 4),
    kind=st.sampled_from(["char", "word"]),
)
def test_property_verified_jaccard_equals_reference(a, b, k, kind):
    # r = 1 and many bands: any pair sharing a shingle is almost surely a candidate; we compare
    # the Jaccard of every candidate that is produced with the reference value.
    con = duckdb.connect()
    settings = sketch_for(shingle_type=kind, shingle_size=k, num_perm=32, bands=32, rows=1, threshold=0.0)
    load_documents(con, [a, b], settings)
    run_stages(con, settings, until="verified", start="shingles")
    got = rows(con, "select jaccard from verified")
    con.close()
    sa = reference.fingerprints(reference.shingles(a, k, kind), kind)
    sb = reference.fingerprints(reference.shingles(b, k, kind), kind)
    for (jaccard,) in got:
        assert jaccard == reference.jaccard(sa, sb)
    if sa and sa == sb:
        assert got == [(1.0,)]  # identical shingle sets always collide in every band


long_text = st.lists(
    st.sampled_from(["a", "b", "ab", "é", "ß", "Σ", "x y", " ", "  ", "\u2028", "İ", "日本", "z_1", ".", "9"]),
    min_size=300,
    max_size=1200,
).map("".join)


@pytest.mark.slow  # many hypothesis examples, each a full pipeline: the second phase
@given(texts=st.lists(long_text, min_size=1, max_size=3), k=st.integers(1, 12), kind=st.sampled_from(["char", "word"]))
def test_property_long_texts_across_chunk_boundaries(texts, k, kind):
    # texts of 300-2400 code points and 100+ tokens are shingled in several pieces
    got = sql_shingle_sets(texts, kind, k)
    for i, text in enumerate(texts, start=1):
        assert got[i] == reference.fingerprints(reference.shingles(text, k, kind), kind)


@pytest.mark.parametrize("kind", ["char", "word"])
@pytest.mark.parametrize("length", [63, 64, 65, 129, 255, 256, 257, 511, 512, 513, 2000])
def test_lengths_around_piece_size(kind, length):
    text = (
        " ".join(f"w{i % 97}" for i in range(length))
        if kind == "word"
        else "".join(chr(0x61 + i % 23) + ("é" if i % 50 == 0 else "") for i in range(length))
    )
    for k in (1, 5, 9):
        assert sql_shingle_sets([text], kind, k)[1] == reference.fingerprints(reference.shingles(text, k, kind), kind)


@pytest.mark.parametrize("kind,k", [("char", 300), ("char", 257), ("word", 65), ("word", 300)])
def test_shingles_longer_than_a_piece(kind, k):
    # a piece is extended by k - 1 units of the next one, so pieces are never shorter than k
    text = " ".join(f"w{i % 89}x{i % 7}" for i in range(700))
    assert sql_shingle_sets([text], kind, k)[1] == reference.fingerprints(reference.shingles(text, k, kind), kind)
