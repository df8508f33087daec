-- query:  export_duplicates
-- reads:  clusters(id, cluster_id, is_survivor, doc_id), documents(doc_id, position)
-- params: (none)
-- dedup export --what duplicates: the documents to drop, each with the document kept in its place.
select c.id, k.id as survivor
from clusters as c
join clusters as k on k.cluster_id = c.cluster_id and k.is_survivor
join documents as d on d.doc_id = c.doc_id
where not c.is_survivor
order by d.position
