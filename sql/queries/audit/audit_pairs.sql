-- query:  audit_pairs
-- reads:  audit_true_pairs(doc_id_a, doc_id_b, jaccard), pairs(doc_id_a, doc_id_b), documents(doc_id, id)
-- writes: (none: a SELECT for dedup audit)
-- params: (none)
-- Each true pair of the sample, by its ids, and whether the index found it (its pairs table).
select a.id as id_a, b.id as id_b, t.jaccard, p.doc_id_a is not null as found
from audit_true_pairs as t
join documents as a on a.doc_id = t.doc_id_a
join documents as b on b.doc_id = t.doc_id_b
left join pairs as p on p.doc_id_a = t.doc_id_a and p.doc_id_b = t.doc_id_b
order by found, t.jaccard desc, t.doc_id_a, t.doc_id_b
