-- query:  shingle_texts (the shingles of two documents, for `dedup explain`)
-- reads:  documents(doc_id, norm)
-- params: $k, $doc_id_a, $doc_id_b
-- The shingles of two documents with their texts (sql/fragments/shingle_texts.sql).
-- tests/test_explain_query.py checks that the fingerprints equal the stored ones.
with chosen_documents as (
    select doc_id, norm from documents where doc_id in ($doc_id_a, $doc_id_b)
),
{{ shingle_texts }}
select doc_id, fingerprint, shingle
from shingle_texts
order by doc_id, fingerprint
