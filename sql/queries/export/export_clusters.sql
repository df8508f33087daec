-- query:  export_clusters
-- reads:  clusters(id, survivor, jaccard, cluster_id, cluster_size, is_survivor, doc_id), documents(doc_id, position)
-- params: (none)
-- dedup export --what clusters: every document of a cluster (connected component) of two or more,
-- with the document kept in its place (its own id when it is kept) and their exact Jaccard.
-- Under the verified rule a cluster may keep several documents: no two of them are a pair.
select c.id, c.survivor, c.cluster_size, c.is_survivor, c.jaccard
from clusters as c
join documents as d on d.doc_id = c.doc_id
where c.cluster_size > 1
order by c.cluster_id, c.is_survivor desc, d.position
