-- query:  document_list_clusters
-- reads:  documents(doc_id, id, position), signatures(doc_id, n_shingles), pairs(doc_id_a, doc_id_b), clusters(doc_id, cluster_size, is_survivor)
-- params: (none)
-- dedup list once clusters are built: document_list.sql with each document's cluster size and
-- whether it is kept.
with ends as (
    select doc_id_a as doc_id from pairs union all select doc_id_b from pairs
),
neighbours as (select doc_id, count(*) as n from ends group by doc_id)
select
    d.id, coalesce(s.n_shingles, 0) as shingles, coalesce(m.n, 0) as similar_documents, c.cluster_size, c.is_survivor
from documents as d
left join signatures as s on s.doc_id = d.doc_id
left join neighbours as m on m.doc_id = d.doc_id
left join clusters as c on c.doc_id = d.doc_id
order by d.position
