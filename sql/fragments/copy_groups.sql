-- fragment: copy_groups
-- reads:    copies(doc_id, rep)   (a CTE of the statement: sql/fragments/exact_copies.sql)
-- params:   (none)
-- The groups of two or more exact copies among `copies`: one row per member, representative
-- included, with its group's representative. A document in no such group is its own group of one
-- and has no row (sql/05_candidates.sql and Spark's).
select doc_id, rep from copies where doc_id <> rep
union
select rep, rep from copies where doc_id <> rep
