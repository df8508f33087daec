-- query:  query_jaccard
-- reads:  shingles(doc_id, fingerprint), documents(doc_id, id)
-- params: $query
-- dedup query, in a scratch database holding the query and its candidates: the exact Jaccard
-- of the query with each candidate. There documents.id holds the index's doc_id, and $query
-- marks the query document.
with query_shingles as (
    select s.fingerprint
    from shingles as s
    join documents as d on d.doc_id = s.doc_id
    where d.id = $query
),
counts as (
    select s.doc_id, count(*) as n, count(q.fingerprint) as shared
    from shingles as s
    left join query_shingles as q on q.fingerprint = s.fingerprint
    group by s.doc_id
)
select d.id as doc_id, c.shared / (c.n + (select count(*) from query_shingles) - c.shared) as jaccard
from counts as c
join documents as d on d.doc_id = c.doc_id
where d.id <> $query
