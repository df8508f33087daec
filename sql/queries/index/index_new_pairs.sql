-- query:  index_new_pairs
-- reads:  pairs(doc_id_a, doc_id_b)
-- params: $first_new
-- How many pairs involve an added document (doc_id >= $first_new).
select count(*) from pairs where doc_id_a >= $first_new or doc_id_b >= $first_new
