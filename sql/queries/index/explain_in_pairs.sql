-- query:  explain_in_pairs
-- reads:  pairs(doc_id_a, doc_id_b)
-- params: $doc_a, $doc_b
-- dedup explain: whether two documents are a pair ($doc_a < $doc_b, the orientation of every
-- stored pair: sql/queries/index/pairs_orient.sql).
select count(*) from pairs where doc_id_a = $doc_a and doc_id_b = $doc_b
