-- query:  batch_ranges_documents
-- reads:  documents(doc_id, norm)
-- params: $characters, $documents
-- The batches in which a run computes the per-document stages (dedup/runner.py): ranges of
-- consecutive doc_ids with at most $documents documents and about $characters characters of
-- normalized text each (a range ends where either count passes a multiple of its bound).
with sizes as (
    select doc_id, sum(length(norm)) over (order by doc_id) as characters
    from documents
)
select min(doc_id) as first_doc_id, max(doc_id) as last_doc_id
from sizes
group by (characters - 1) // $characters, (doc_id - 1) // $documents
order by first_doc_id
