-- query:  cluster_edges (of the members)
-- reads:  pairs(doc_id_a, doc_id_b, jaccard), cluster_members(doc_id, rep)
-- writes: cluster_edges(doc_id_a, doc_id_b, jaccard)
-- params: (none)
-- The similarity graph among the members, on representatives: one edge per two groups of copies
-- with a pair between them (the pairs inside a group, n(n-1)/2 of them, join nothing), the smaller
-- representative first, with the pairs' exact Jaccard (every pair across two groups of copies has
-- the same). The one statement of a build that reads the pairs (the components rule's survivors
-- read them again, for the Jaccard of a drop).
select least(a.rep, b.rep) as doc_id_a, greatest(a.rep, b.rep) as doc_id_b, min(p.jaccard) as jaccard
from pairs as p
join cluster_members as a on a.doc_id = p.doc_id_a
join cluster_members as b on b.doc_id = p.doc_id_b
where a.rep <> b.rep
group by least(a.rep, b.rep), greatest(a.rep, b.rep)
