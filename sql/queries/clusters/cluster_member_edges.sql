-- query:  cluster_edges (of the members)
-- reads:  pairs(doc_id_a, doc_id_b), cluster_members(doc_id, rep)
-- writes: cluster_edges(doc_id_a, doc_id_b)
-- params: (none)
-- The similarity graph among the members, on representatives: one edge per two groups of copies
-- with a pair between them (the pairs inside a group, n(n-1)/2 of them, join nothing).
select distinct a.rep as doc_id_a, b.rep as doc_id_b
from pairs as p
join cluster_members as a on a.doc_id = p.doc_id_a
join cluster_members as b on b.doc_id = p.doc_id_b
where a.rep <> b.rep
