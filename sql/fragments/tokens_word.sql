-- fragment: tokens (word shingles: a token is a word)
-- reads:    {{ documents }}(doc_id, norm): documents, or the documents an explain looks at
-- params:   $k
-- One row per document with words: (doc_id, n, fps, texts), its words padded in front to k.
-- A word k-shingle is k consecutive tokens. A token is a maximal run of Unicode letters, digits
-- and '_' (Python's \w+). A document with fewer than k tokens is one shingle (all its tokens); a
-- document without tokens has none. Its text (for explain) is its tokens joined by one space.
-- Hash scheme v4 (as v3 for words): a token's fingerprint f(t) is the first 8 bytes of MD5(UTF-8 t)
-- read little-endian, one MD5 per token, and a shingle's fingerprint is the cyclic polynomial of
-- its tokens' fingerprints (sql/02_shingles.sql).
-- How: `joined` is the document's tokens joined by one space (every run of other characters
-- becomes one space; the regex replaces only the runs that are not already one space), `words`
-- their list (a plain split).
-- A document of fewer than k tokens is padded in front with zero fingerprints (and NULL texts,
-- which concat_ws skips): its one window has the fingerprint of its own tokens, since H stays 0
-- through the padding. One path for every document: a second branch for short ones read the
-- tokens twice, which made DuckDB materialize them (3.6 s instead of 1.2 s on `long`).
with joined as (
    select doc_id, trim(regexp_replace(norm, '[^\p{L}\p{N}_]{2,}|[^\p{L}\p{N}_ ]', ' ', 'g')) as joined
    from {{ documents }}
),
split as (
    select doc_id, string_split(joined, ' ') as words
    from joined
    where joined <> ''
),
hashed as (
    select
        doc_id,
        words,
        list_transform(words, lambda w: (md5_number(w) & 18446744073709551615::uhugeint)::ubigint) as token_fps
    from split
)
select
    doc_id,
    greatest(len(words), $k) as n,
    if(len(token_fps) < $k, list_concat(list_resize([]::ubigint[], $k - len(token_fps), 0::ubigint), token_fps), token_fps) as fps,
    if(len(words) < $k, list_concat(list_resize([]::varchar[], $k - len(words)), words), words) as texts
from hashed
