-- query:  pairs_orient
-- writes: pairs(doc_id_a, doc_id_b, id_a, id_b)
-- params: (none)
-- Every stored pair is (smaller doc_id, larger doc_id), on every path, as the stages make it and
-- as the audit and explain read it. `dedup add` of dedup 0.1.0 before 2026-11-29 stored a pair of an
-- added document in id order instead: `dedup add` turns such rows of an older index round first
-- (none on an index this dedup wrote).
update pairs
set doc_id_a = doc_id_b, doc_id_b = doc_id_a, id_a = id_b, id_b = id_a
where doc_id_a > doc_id_b
