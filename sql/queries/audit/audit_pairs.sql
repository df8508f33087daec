-- query:  audit_pairs
-- reads:  audit_true_pairs(doc_id_a, doc_id_b, jaccard), pairs(doc_id_a, doc_id_b), documents(doc_id, id, norm)
-- writes: (none: a SELECT for dedup audit)
-- params: (none)
-- Each true pair of the sample, by its ids, whether the index found it (its pairs table), and
-- whether its two documents are exact copies (the same normalized text, as
-- sql/fragments/exact_copies.sql groups them): on a corpus of many copies nearly every true pair
-- is such a pair, which LSH cannot miss, and the recall that says something is the other pairs'.
select a.id as id_a, b.id as id_b, t.jaccard, p.doc_id_a is not null as found, a.norm = b.norm as copies
from audit_true_pairs as t
join documents as a on a.doc_id = t.doc_id_a
join documents as b on b.doc_id = t.doc_id_b
left join pairs as p on p.doc_id_a = t.doc_id_a and p.doc_id_b = t.doc_id_b
order by found, t.jaccard desc, t.doc_id_a, t.doc_id_b
