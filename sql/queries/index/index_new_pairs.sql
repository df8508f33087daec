-- query:  index_new_pairs
-- reads:  pairs(doc_id_b)
-- params: $first_new
-- How many pairs involve an added document (doc_id >= $first_new): its doc_id_b, as doc_id_a <
-- doc_id_b (sql/queries/clusters/cluster_touched.sql).
select count(*) from pairs where doc_id_b >= $first_new
