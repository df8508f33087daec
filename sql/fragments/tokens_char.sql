-- fragment: tokens (character shingles: a token is a code point)
-- reads:    {{ documents }}(doc_id, norm): documents, or the documents an explain looks at
-- params:   (none)
-- One row per non-empty document: (doc_id, texts, fps), its code points and their fingerprints
-- (sql/fragments/padded_tokens.sql pads them to k).
-- A character k-shingle is k consecutive code points of norm; a non-empty text of fewer than k
-- code points is one shingle (all of it); an empty text has none.
-- Hash scheme v4: a code point c has the fingerprint f(c) = the first output of SplitMix64
-- (Steele, Lea and Flood, 2014) seeded with c:
--     z = c + 0x9E3779B97F4A7C15;  z = (z xor z >> 30) * 0xBF58476D1CE4E5B9;
--     z = (z xor z >> 27) * 0x94D049BB133111EB;  f(c) = z xor z >> 31     (all mod 2^64)
-- and a shingle's fingerprint is the cyclic polynomial of its tokens' fingerprints, as for word
-- shingles (sql/02_shingles.sql; docs/reference.md lists test vectors; tests/reference.py).
-- One arithmetic hash per code point instead of one MD5 per shingle, and the text is split once
-- (string_split(norm, '') gives its code points, linear in the text): the shingles stage of 200k
-- documents of ~200 characters took 5.4 s instead of 9.9 s (benchmarks/results/results.md).
-- Each step of the hash is its own list_transform (a lambda that named z twice per step would
-- repeat its argument's expression); the products go through uhugeint, masked to 64 bits,
-- because DuckDB raises on an unsigned 64-bit overflow.
with split as (
    select doc_id, string_split(norm, '') as chars
    from {{ documents }}
    where norm <> ''
)
select
    doc_id,
    chars as texts,
    list_transform(list_transform(list_transform(list_transform(list_transform(list_transform(
        chars, lambda c: unicode(c)::ubigint + 11400714819323198485::ubigint),
        lambda z: xor(z, z >> 30)),
        lambda z: ((z::uhugeint * 13787848793156543929::uhugeint) & 18446744073709551615::uhugeint)::ubigint),
        lambda z: xor(z, z >> 27)),
        lambda z: ((z::uhugeint * 10723151780598845931::uhugeint) & 18446744073709551615::uhugeint)::ubigint),
        lambda z: xor(z, z >> 31)) as fps
from split
