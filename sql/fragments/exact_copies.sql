-- fragment: exact_copies
-- reads:    documents(doc_id, id, norm), involved(doc_id)
-- params:   (none)
-- One row per document of `involved` (a CTE of the statement): (doc_id, id, rep), rep being the
-- smallest doc_id among those documents with the same normalized text, the group's
-- representative. Copies have the same shingles, signature and buckets, so the pair stages
-- (sql/05_candidates.sql, 06_verified.sql, 07_pairs.sql, and Spark's) work once per group of the
-- copies stage (sql/04_copies.sql, and `dedup add`'s add_copies.sql, which group with this) and
-- expand: one definition of an exact copy for all of them. The texts themselves are compared,
-- not a hash of them.
select d.doc_id, d.id, min(d.doc_id) over (partition by d.norm) as rep
from documents as d
where d.doc_id in (select doc_id from involved)
