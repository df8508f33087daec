-- query:  cluster_members
-- reads:  cluster_touched(cluster_id), clusters(doc_id, cluster_id), documents(doc_id, norm),
--         signatures(doc_id)
-- writes: cluster_members(doc_id, rep)
-- params: $first_new
-- The documents to label again: the members left in the touched clusters and the added documents.
-- Each with its representative (rep): the first member with the same normalized text among those
-- with shingles, as cluster_members_all.sql has it; a document without shingles stands alone.
-- A group of copies lies inside one cluster, so it is whole here and rep is the group's first.
with members as (
    select c.doc_id from clusters as c semi join cluster_touched as t on t.cluster_id = c.cluster_id
    union  -- a replaced document's doc_id may be an added one's
    select doc_id from documents where doc_id >= $first_new
),
documents_left as (
    select d.doc_id, d.norm, s.doc_id is not null as has_shingles
    from documents as d
    semi join members as m on m.doc_id = d.doc_id
    left join signatures as s on s.doc_id = d.doc_id
)
select doc_id, if(has_shingles, min(doc_id) over (partition by norm, has_shingles), doc_id) as rep
from documents_left
