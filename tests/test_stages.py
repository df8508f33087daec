"""Each SQL stage on hand-built documents, with exact expected rows."""

from __future__ import annotations

import hashlib

import pytest
import reference
from helpers import load_documents, rows, run_stages, sketch_for

from dedup.hashing import bucket_constants, permutation_coefficients


def md5_u64(text: str) -> int:
    return int.from_bytes(hashlib.md5(text.encode()).digest()[:8], "little")


def test_documents_normalizes_and_numbers_by_id(con):
    settings = sketch_for()
    load_documents(con, {"b": "  Hello\u2028\tWORLD \u00a0 x ", "a": "ÀB\u0085c", "c": ""}, settings)
    assert rows(con, "select doc_id, id, position, norm from documents order by doc_id") == [
        (1, "a", 2, "àb c"),
        (2, "b", 1, "hello world x"),
        (3, "c", 3, ""),
    ]


def test_char_shingles_are_distinct_k_windows_with_v4_fingerprints(con):
    settings = sketch_for(shingle_size=3)
    load_documents(con, {"a": "ababa", "b": "xy", "c": " "}, settings)
    run_stages(con, settings, until="shingles", start="shingles")
    got = rows(con, "select d.id, s.fingerprint, s.h from shingles s join documents d using (doc_id) order by all")
    fp = reference.char_fingerprint
    expected = sorted(
        [("a", fp("aba"), fp("aba") >> 32), ("a", fp("bab"), fp("bab") >> 32)] + [("b", fp("xy"), fp("xy") >> 32)]
    )
    assert got == expected


def test_splitmix64_is_the_published_generator():
    # Vigna's splitmix64.c from the state 0: its first output
    assert reference.splitmix64(0) == 0xE220A8397B1DCDAF


def test_char_fingerprints_are_the_published_vectors(con):
    """The test vectors of docs/reference.md: f(c) = splitmix64(code point); H = rotl64(H, 1) xor f(c)."""
    settings = sketch_for(shingle_size=3)
    load_documents(con, {"a": "abc", "b": "a", "c": "\U0001f600 \u00e9"}, settings)
    run_stages(con, settings, until="shingles", start="shingles")
    got = rows(con, "select d.id, s.fingerprint, s.h from shingles s join documents d using (doc_id) order by all")
    assert got == [
        ("a", 0x9E585D46D12DE70D, 0x9E585D46),
        ("b", 0x4F5DA978776A9DB1, 0x4F5DA978),
        ("c", 0xFBDC4EED95512FA9, 0xFBDC4EED),
    ]
    assert reference.splitmix64(ord("a")) == 0x4F5DA978776A9DB1
    f = [reference.splitmix64(ord(c)) for c in "abc"]
    assert reference.rotl64(f[0], 2) ^ reference.rotl64(f[1], 1) ^ f[2] == 0x9E585D46D12DE70D


def test_word_shingles_are_k_token_windows_with_v4_fingerprints(con):
    """The test vectors of docs/reference.md: H = 0; H = rotl64(H, 1) xor md5_u64(token) for each token."""
    settings = sketch_for(shingle_type="word", shingle_size=2)
    load_documents(con, {"a": "Hello, world! Hello world", "b": "one", "c": "!!! ..."}, settings)
    run_stages(con, settings, until="shingles", start="shingles")
    got = rows(con, "select d.id, s.fingerprint from shingles s join documents d using (doc_id) order by all")
    expected = sorted([("a", 0x6A55E1D863B0FBC7), ("a", 0x7A28A6FC4420B3A6), ("b", md5_u64("one"))])
    assert got == expected
    assert md5_u64("hello") == 0x762A4BBC2A40415D and md5_u64("world") == 0x860176A03730797D
    rotl1 = ((md5_u64("hello") << 1) | (md5_u64("hello") >> 63)) & (2**64 - 1)
    assert rotl1 ^ md5_u64("world") == 0x6A55E1D863B0FBC7


def test_word_fingerprint_of_five_tokens_is_the_published_vector(con):
    settings = sketch_for(shingle_type="word", shingle_size=5)
    load_documents(con, {"a": "The quick brown fox jumps", "b": "a a"}, settings)
    run_stages(con, settings, until="shingles", start="shingles")
    got = rows(con, "select d.id, s.fingerprint from shingles s join documents d using (doc_id) order by all")
    assert got == [("a", 0xA0D34A88A05BBFAA), ("b", 0xF9DB1241CB9E4315)]


def test_signatures_are_minima_of_affine_maps_mod_2_32(con):
    settings = sketch_for(shingle_size=3, num_perm=4, bands=2, rows=2)
    load_documents(con, {"a": "abcd"}, settings)
    run_stages(con, settings, until="signatures", start="shingles")
    hs = [reference.char_fingerprint(s) >> 32 for s in ("abc", "bcd")]
    expected = [min((a * h + b) % 2**32 for h in hs) for a, b in permutation_coefficients(1, 4)]
    assert rows(con, "select n_shingles, mh_0, mh_1, mh_2, mh_3 from signatures") == [(2, *expected)]


def test_band_hashes_one_row_per_band_and_equal_bands_share_buckets(con):
    settings = sketch_for(shingle_size=3, num_perm=6, bands=3, rows=2)
    load_documents(con, {"a": "same text here", "b": "same text here", "c": "other"}, settings)
    run_stages(con, settings, until="band_hashes", start="shingles")
    per_doc = rows(con, "select doc_id, count(*), count(distinct band) from band_hashes group by 1 order by 1")
    assert per_doc == [(1, 3, 3), (2, 3, 3), (3, 3, 3)]
    assert rows(
        con,
        "select count(*) from band_hashes a join band_hashes b using (band, bucket)"
        " where a.doc_id = 1 and b.doc_id = 2",
    ) == [(3,)]


@pytest.mark.parametrize("kind,k", [("char", 5), ("word", 2)])
def test_band_buckets_equal_the_reference_bit_for_bit(con, kind, k):
    """Every stored bucket is the documented xor of mh_j * c_j mod 2^48 (hash scheme v5), for short
    texts (large MinHash values, whose products fill the high bits) and long ones (small values)."""
    texts = {
        "short": "ab",
        "line": "Debian package summary: tools for the command line",
        "long": " ".join(f"word{i % 97} w{i % 13}" for i in range(3000)),
    }
    settings = sketch_for(shingle_size=k, shingle_type=kind, num_perm=128, bands=16, rows=8)
    load_documents(con, texts, settings)
    run_stages(con, settings, until="band_hashes", start="shingles")
    stored = rows(
        con,
        "select d.id, list(bucket order by band) from band_hashes join documents d using (doc_id)"
        " group by all order by 1",
    )
    expected = sorted(
        (name, reference.buckets(reference.signature(reference.shingles(text, k, kind), 1, 128, kind), 16, 8))
        for name, text in texts.items()
    )
    assert stored == expected
    assert all(0 <= bucket < 2**48 for _, values in stored for bucket in values)
    assert max(bucket for _, values in stored for bucket in values) >= 2**47  # the 48 bits are used


def test_band_bucket_test_vector():
    """docs/reference.md's test vectors: the constants c_j of 6 rows, and a band of 6 MinHash values
    whose xor of products has bits above 2^48 (0x405063040121aef8), which the bucket leaves out."""
    assert bucket_constants(6) == reference.bucket_constants(6)
    assert [f"{c:#x}" for c in bucket_constants(6)][:2] == ["0x96da6927", "0x695b554b"]
    band = [0xFFFFFFFF, 0x80000000, 12345, 0xDEADBEEF, 7, 0xFFFFFFFE]
    assert reference.buckets(band, 1, 6) == [0x63040121AEF8]


def test_candidates_verified_and_pairs(con):
    settings = sketch_for(shingle_size=2, num_perm=8, bands=8, rows=1, threshold=0.5)
    texts = {"a": "abcdef", "b": "abcdeg", "c": "zzzzzz", "d": "abcdef"}
    load_documents(con, texts, settings)
    run_stages(con, settings, until="pairs", start="shingles")
    verified = {
        (a, b): (i, u, j)
        for a, b, i, u, j in rows(con, "select doc_id_a, doc_id_b, intersection, union_size, jaccard from verified")
    }
    # a: ab bc cd de ef ; b: ab bc cd de eg ; d = a
    assert verified[(1, 4)] == (5, 5, 1.0)
    assert verified[(1, 2)] == (4, 6, pytest.approx(4 / 6))
    assert (1, 3) not in verified  # 'zz' shares nothing with the others, so no band collides
    pairs = rows(con, "select id_a, id_b, jaccard from pairs order by jaccard desc, id_a, id_b")
    assert pairs == [("a", "d", 1.0), ("a", "b", 4 / 6), ("b", "d", 4 / 6)]


def test_pairs_keep_jaccard_exactly_at_threshold(con):
    # 4 shared of 5 in the union: J = 0.8 exactly must be kept at threshold 0.8
    settings = sketch_for(shingle_size=1, num_perm=4, bands=4, rows=1, threshold=0.8)
    load_documents(con, {"a": "abcde", "b": "abcd"}, settings)
    run_stages(con, settings, until="pairs", start="shingles")
    assert rows(con, "select jaccard from pairs") == [(0.8,)]
    assert reference.jaccard(set("abcde"), set("abcd")) == 0.8
