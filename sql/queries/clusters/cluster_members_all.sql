-- query:  cluster_members (of every document)
-- reads:  documents(doc_id, norm), signatures(doc_id)
-- writes: cluster_members(doc_id, rep)
-- params: (none)
-- Every document with its representative (rep): the first document with the same normalized text
-- among those with shingles (its group of exact copies, one node of the similarity graph); a
-- document without shingles stands alone. sql/queries/clusters/cluster_members.sql is the same
-- for the documents of the clusters that dedup add or remove touched.
with documents_left as (
    select d.doc_id, d.norm, s.doc_id is not null as has_shingles
    from documents as d
    left join signatures as s on s.doc_id = d.doc_id
)
select doc_id, if(has_shingles, min(doc_id) over (partition by norm, has_shingles), doc_id) as rep
from documents_left
