-- fragment: shingles (word shingles)
-- reads:    {{ documents }}(doc_id, norm): documents, or the documents an explain looks at
-- params:   $k
-- One row per shingle occurrence: (doc_id, fingerprint, shingle). Shared by sql/02_shingles.sql,
-- which keeps the distinct fingerprints, and sql/queries/shingle_texts.sql (dedup explain), which
-- shows the texts: one definition of a shingle for both.
-- A word k-shingle is k consecutive tokens. A token is a maximal run of Unicode letters, digits
-- and '_' (Python's \w+). A document with fewer than k tokens is one shingle (all its tokens); a
-- document without tokens has none. Its text (for explain) is its tokens joined by one space.
-- Hash scheme v3: each token is hashed once, f(t) = the first 8 bytes of MD5(UTF-8 t) read
-- little-endian, and a shingle of tokens t_1 .. t_m has the fingerprint
--     H = 0;  for each token t in order:  H = rotl64(H, 1) xor f(t)
-- i.e. the xor of f(t_i) rotated left by m - i bits (mod 64): a cyclic polynomial ("BuzHash")
-- hash of the token fingerprints (Lemire and Kaser, "Recursive n-gram hashing is pairwise
-- independent, at best", 2010). docs/reference.md lists test vectors; tests/reference.py computes it.
-- How: `tokens` is the document's tokens joined by one space (every run of other characters
-- becomes one space; the regex replaces only the runs that are not already one space), `words`
-- their list (`token_list`, a plain split) and `fps` their fingerprints (one MD5 per token). Shingle i takes
-- fps[i .. i+k-1]: the k lists fps[1 + j .. n - k + 1 + j] (j = 0 .. k-1), unnested side by side,
-- give row i its k token fingerprints as columns f0 .. f{k-1}, combined by a generated
-- expression with constant rotations (dedup/sqltext.py, word_fingerprint). Each list is sliced
-- once per document, so the work stays linear in its length. ubigint << raises on overflow: each
-- rotation masks off the bits it shifts out first.
-- A document of fewer than k tokens is padded in front with zero fingerprints (and NULL words,
-- which concat_ws skips) to k: its one window then has the fingerprint of its own tokens, since
-- H stays 0 through the padding. One path for every document: a second branch for short ones
-- read `hashed` twice, which made DuckDB materialize it (3.6 s instead of 1.2 s on `long`).
with joined as (
    select doc_id, trim(regexp_replace(norm, '[^\p{L}\p{N}_]{2,}|[^\p{L}\p{N}_ ]', ' ', 'g')) as tokens
    from {{ documents }}
),
split as (
    select doc_id, string_split(tokens, ' ') as token_list
    from joined
    where tokens <> ''
),
hashed as (
    select
        doc_id,
        greatest(len(token_list), $k) as n,
        if(len(token_list) < $k, list_concat(list_resize([]::varchar[], $k - len(token_list)), token_list), token_list) as words,
        list_transform(token_list, lambda w: (md5_number(w) & 18446744073709551615::uhugeint)::ubigint) as token_fps
    from split
),
windows as (
    select
        doc_id,
        {{ word_windows }}
    from (
        select
            doc_id,
            n,
            words,
            if(n > len(token_fps), list_concat(list_resize([]::ubigint[], n - len(token_fps), 0::ubigint), token_fps), token_fps) as fps
        from hashed
    )
)
select doc_id, {{ word_fingerprint }} as fingerprint, {{ word_text }} as shingle
from windows
