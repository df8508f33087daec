-- query:  explain_signatures
-- reads:  signatures(doc_id, n_shingles, mh_*)
-- params: $doc_a, $doc_b
-- dedup explain: the MinHash values of two documents (none for a document without shingles).
select * exclude (doc_id, n_shingles) from signatures where doc_id in ($doc_a, $doc_b)
