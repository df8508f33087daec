-- query:  cluster_touched
-- reads:  clusters(doc_id, cluster_id), documents(doc_id), pairs(doc_id_a, doc_id_b)
-- writes: cluster_touched(cluster_id)
-- params: $first_new
-- The clusters that dedup add or remove may have changed: those that lost a document (its row in
-- clusters has no document any more, or has a doc_id from $first_new up, which added documents
-- are numbered from: a replaced document's number can be given again) and those with a pair to
-- an added document. Every other cluster is still a component. A pair with an added document has
-- it as doc_id_b (doc_id_a < doc_id_b), so the one condition reaches both arms of a lean index's
-- view (its pairs of copies filtered before they are listed): 2 ms instead of 30 ms with an `or`
-- on 100k documents in groups of 1,000 copies.
with ends as (  -- the documents of the pairs with an added document
    select doc_id_a as doc_id from pairs where doc_id_b >= $first_new
    union all
    select doc_id_b as doc_id from pairs where doc_id_b >= $first_new
)
select c.cluster_id from clusters as c anti join documents as d on d.doc_id = c.doc_id
union
select cluster_id from clusters where doc_id >= $first_new
union
select c.cluster_id from clusters as c semi join ends as e on e.doc_id = c.doc_id
