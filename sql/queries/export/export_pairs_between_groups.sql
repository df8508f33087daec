-- query:  export_pairs_between_groups
-- reads:  pairs(doc_id_a, doc_id_b, id_a, id_b, jaccard, estimate), documents(doc_id, norm)
-- params: (none)
-- `dedup run --pairs between-groups`: the pairs whose two documents are not exact copies (the same
-- normalized text), in id order and sorted as export_pairs sorts every pair. The pairs inside a
-- group of copies (Jaccard 1) are all its members two by two: on real corpora most of the pairs,
-- which clusters, survivors and duplicates already account for.
select least(p.id_a, p.id_b) as id_a, greatest(p.id_a, p.id_b) as id_b, p.jaccard, p.estimate
from pairs as p
join documents as da on da.doc_id = p.doc_id_a
join documents as db on db.doc_id = p.doc_id_b
where da.norm <> db.norm
order by p.jaccard desc, 1, 2
