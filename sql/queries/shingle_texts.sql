-- query:  shingle_texts (the shingles of two documents, for `dedup explain`)
-- reads:  documents(doc_id, norm)
-- params: $k, $piece (char) or $k (word), $doc_id_a, $doc_id_b
-- The shingles of two documents with their texts: only fingerprints are stored, so the texts
-- are recomputed by the same fragment the shingle stage uses (sql/fragments/shingle_texts_*.sql).
-- tests/test_explain_query.py checks that the fingerprints equal the stored ones.
with chosen_documents as (
    select doc_id, norm from documents where doc_id in ($doc_id_a, $doc_id_b)
),
shingle_texts as (
{{ shingle_texts }}
)
select doc_id, (md5_number(shingle) & 18446744073709551615::uhugeint)::ubigint as fingerprint, min(shingle) as shingle
from shingle_texts
group by all
order by doc_id, fingerprint
