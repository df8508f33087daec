-- query:  keep_new_candidates
-- reads:  (none: a DELETE)
-- writes: staging.candidates(doc_id_b)   (only the pairs with an added document are left)
-- params: $first_new
-- An index built with --method signature or exact finds its candidates without bands: `dedup add`
-- runs that method's candidates stage on the union, then keeps the pairs with at least one added
-- document (doc_id >= $first_new, so always doc_id_b); the pairs of two indexed documents exist.
delete from staging.candidates where doc_id_b < $first_new
