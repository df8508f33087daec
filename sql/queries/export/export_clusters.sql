-- query:  export_clusters
-- reads:  clusters(id, cluster_id, cluster_size, is_survivor, doc_id), documents(doc_id, position)
-- params: (none)
-- dedup export --what clusters: every document of a cluster of two or more, with the id of the document kept for it.
select c.id, k.id as survivor, c.cluster_size, c.is_survivor
from clusters as c
join clusters as k on k.cluster_id = c.cluster_id and k.is_survivor
join documents as d on d.doc_id = c.doc_id
where c.cluster_size > 1
order by c.cluster_id, c.is_survivor desc, d.position
