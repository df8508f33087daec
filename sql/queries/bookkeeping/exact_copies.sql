-- query:  exact_copies
-- reads:  documents(doc_id, norm), signatures(doc_id)
-- params: (none)
-- The exact copies among the documents with shingles (the same normalized text, which the pair
-- stages compare once per group): groups of two or more, the documents in them, how many
-- distinct texts there are, and the pairs inside the groups (each is a pair: Jaccard 1). For the
-- summary of a run.
with groups as (
    select count(*) as size
    from documents
    where doc_id in (select doc_id from signatures)
    group by norm
)
select
    count(*) filter (where size > 1) as copy_groups,
    cast(coalesce(sum(size) filter (where size > 1), 0) as bigint) as copies,
    count(*) as distinct_texts,
    cast(coalesce(sum(size * (size - 1)) filter (where size > 1), 0) / 2 as bigint) as copy_pairs
from groups
