-- query:  shingle_texts (the shingles of two documents, for `dedup explain`)
-- reads:  documents(doc_id, norm)
-- params: $k, $doc_id_a, $doc_id_b
-- The shingles of two documents with their texts: only fingerprints are stored, so the texts
-- are recomputed from the tokens the shingle stage uses (sql/fragments/tokens_*.sql), with the
-- same fingerprint (sql/02_shingles.sql). Shingle i takes tokens i .. i+k-1: the k slices
-- fps[1 + j .. n - k + 1 + j] (j = 0 .. k-1), unnested side by side, give row i its k token
-- fingerprints as columns f0 .. f{k-1} and their texts as t0 .. t{k-1}.
-- tests/test_explain_query.py checks that the fingerprints equal the stored ones.
with chosen_documents as (
    select doc_id, norm from documents where doc_id in ($doc_id_a, $doc_id_b)
),
tokens as (
{{ tokens }}
),
windows as (
    select
        doc_id,
        {{ shingle_windows }}
    from tokens
)
select doc_id, {{ window_fingerprint }} as fingerprint, min({{ shingle_text }}) as shingle
from windows
group by all
order by doc_id, fingerprint
