-- query:  query_result
-- reads:  query_jaccard(doc_id, jaccard), query_candidates(doc_id, shared_bands)   (Arrow), documents(doc_id, id)
-- params: $min_jaccard
-- dedup query: the candidates with exact Jaccard >= $min_jaccard, most similar first.
select d.id, j.jaccard, c.shared_bands
from query_jaccard as j
join query_candidates as c on c.doc_id = j.doc_id
join documents as d on d.doc_id = j.doc_id
where j.jaccard >= $min_jaccard
order by j.jaccard desc, d.id
