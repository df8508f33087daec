-- query:  cluster_edges
-- reads:  pairs(doc_id_a, doc_id_b), documents(doc_id, norm), signatures(doc_id)
-- writes: cluster_edges(doc_id_a, doc_id_b)
-- params: (none)
-- The edges of the similarity graph: every pair, plus one edge from each exact duplicate (same
-- normalized text, with shingles) to the first of its group. A text repeated n times then
-- costs n - 1 edges, not n(n-1)/2, whatever the pairs table holds for it.
with texts as (
    select d.doc_id, min(d.doc_id) over (partition by d.norm) as first_doc_id
    from documents as d
    semi join signatures as s on s.doc_id = d.doc_id
)
select doc_id_a, doc_id_b from pairs
union
select first_doc_id as doc_id_a, doc_id as doc_id_b from texts where doc_id <> first_doc_id
