-- fragment: padded_tokens (a document's tokens, padded in front to k)
-- reads:    (doc_id, texts, fps) of sql/fragments/tokens_<type>.sql, filled in below
-- params:   $k
-- One row per document with tokens: (doc_id, n, fps, texts), n = the larger of its token count
-- and k, read by sql/02_shingles.sql and sql/queries/shingle_texts.sql.
-- A document of fewer than k tokens is padded in front with zero fingerprints (and NULL texts,
-- which concat_ws skips): its one window then has the fingerprint of its own tokens, since H stays
-- 0 through the padding. One path for every document: a second branch for short ones read the
-- tokens twice, which made DuckDB materialize them (3.6 s instead of 1.2 s on `long`).
select
    doc_id,
    greatest(len(fps), $k) as n,
    if(len(fps) < $k, list_concat(list_resize([]::ubigint[], $k - len(fps), 0::ubigint), fps), fps) as fps,
    if(len(texts) < $k, list_concat(list_resize([]::varchar[], $k - len(texts)), texts), texts) as texts
from (
{{ tokens_of_type }}
)
