-- query:  explain_verified
-- reads:  verified(doc_id_a, doc_id_b, jaccard)
-- params: $doc_a, $doc_b
-- dedup explain: the exact Jaccard of two documents if they were a candidate.
select jaccard from verified where doc_id_a = $doc_a and doc_id_b = $doc_b
