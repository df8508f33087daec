-- query:  explain_in_pairs
-- reads:  pairs(doc_id_a, doc_id_b)
-- params: $doc_a, $doc_b
-- dedup explain: whether two documents are a pair (in either order).
select count(*) from pairs where (doc_id_a, doc_id_b) in (($doc_a, $doc_b), ($doc_b, $doc_a))
