-- query:  batch_ranges_documents
-- reads:  documents(doc_id, norm)
-- params: $characters, $documents
-- The batches in which a run computes the per-document stages (dedup/runner.py): ranges of
-- consecutive doc_ids with at most about $documents documents and $characters characters of
-- normalized text each. A document costs the larger of its share of either bound
-- (max(characters / $characters, 1 / $documents), in integers scaled by both bounds), and a range
-- ends where the running cost passes a whole number. (Cutting where either running count passed a
-- multiple of its own bound made a small range wherever the two cuts fell apart: 20 batches at 1M
-- documents where 13 do.)
with costs as (
    select doc_id, greatest(length(norm) * $documents::bigint, $characters::bigint) as cost
    from documents
),
running as (
    select doc_id, sum(cost) over (order by doc_id) as cost
    from costs
)
select min(doc_id) as first_doc_id, max(doc_id) as last_doc_id
from running
group by (cost - 1) // ($characters::bigint * $documents::bigint)
order by first_doc_id
