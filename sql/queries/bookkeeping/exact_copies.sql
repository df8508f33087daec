-- query:  exact_copies
-- reads:  documents(doc_id, norm), signatures(doc_id)
-- params: (none)
-- The exact copies among the documents with shingles (the same normalized text, which the pair
-- stages compare once per group): groups of two or more, the documents in them, and how many
-- distinct texts there are. For the summary of a run.
with groups as (
    select count(*) as size
    from documents
    where doc_id in (select doc_id from signatures)
    group by norm
)
select
    count(*) filter (where size > 1) as copy_groups,
    cast(coalesce(sum(size) filter (where size > 1), 0) as bigint) as copies,
    count(*) as distinct_texts
from groups
