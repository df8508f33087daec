-- query:  export_duplicates
-- reads:  clusters(id, survivor, jaccard, is_survivor, doc_id), documents(doc_id, position)
-- params: (none)
-- dedup export --what duplicates: the documents to drop, in input order, each with the document
-- kept in its place and their exact Jaccard: the similarity that justifies the drop (under the
-- verified rule always >= the threshold; under the components rule null when the two are no pair).
select c.id, c.survivor, c.jaccard
from clusters as c
join documents as d on d.doc_id = c.doc_id
where not c.is_survivor
order by d.position
