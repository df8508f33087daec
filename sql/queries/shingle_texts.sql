-- query:  shingle_texts (the shingles of two documents, for `dedup explain`)
-- reads:  documents(doc_id, norm)
-- params: $k, $piece (char) or $k (word), $doc_id_a, $doc_id_b
-- The shingles of two documents with their texts: only fingerprints are stored, so the texts
-- are recomputed by the same fragment the shingle stage uses (sql/fragments/shingles_*.sql).
-- tests/test_explain_query.py checks that the fingerprints equal the stored ones.
with chosen_documents as (
    select doc_id, norm from documents where doc_id in ($doc_id_a, $doc_id_b)
),
shingles as (
{{ shingles }}
)
select doc_id, fingerprint, min(shingle) as shingle
from shingles
group by all
order by doc_id, fingerprint
