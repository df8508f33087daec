-- fragment: tokens (word shingles: a token is a word)
-- reads:    {{ documents }}(doc_id, norm): documents, or the documents an explain looks at
-- params:   (none)
-- One row per document with words: (doc_id, texts, fps), its words and their fingerprints
-- (sql/fragments/padded_tokens.sql pads them to k).
-- A word k-shingle is k consecutive tokens. A token is a maximal run of Unicode letters, digits
-- and '_' (Python's \w+). A document with fewer than k tokens is one shingle (all its tokens); a
-- document without tokens has none. Its text (for explain) is its tokens joined by one space.
-- Hash scheme v4 (as v3 for words): a token's fingerprint f(t) is the first 8 bytes of MD5(UTF-8 t)
-- read little-endian, one MD5 per token, and a shingle's fingerprint is the cyclic polynomial of
-- its tokens' fingerprints (sql/02_shingles.sql).
-- How: `joined` is the document's tokens joined by one space (every run of other characters
-- becomes one space; the regex replaces only the runs that are not already one space), `words`
-- their list (a plain split).
with joined as (
    select doc_id, trim(regexp_replace(norm, '[^\p{L}\p{N}_]{2,}|[^\p{L}\p{N}_ ]', ' ', 'g')) as joined
    from {{ documents }}
),
split as (
    select doc_id, string_split(joined, ' ') as words
    from joined
    where joined <> ''
)
select
    doc_id,
    words as texts,
    list_transform(words, lambda w: (md5_number(w) & 18446744073709551615::uhugeint)::ubigint) as fps
from split
