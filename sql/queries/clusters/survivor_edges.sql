-- query:  survivor_edges
-- reads:  pairs(doc_id_a, doc_id_b, jaccard), survivor_ranks(doc_id, rep), survivor_nodes(node, rank)
-- writes: survivor_edges(a, b, rank_a, jaccard)
-- params: (none)
-- The verified pairs between two nodes, once per two nodes, from the earlier node (a, by rank) to
-- the later (b), with their exact Jaccard: every pair across two groups of copies has the same.
-- The pairs inside a group join nothing here.
with ends as (
    select least(ra.rep, rb.rep) as x, greatest(ra.rep, rb.rep) as y, p.jaccard
    from pairs as p
    join survivor_ranks as ra on ra.doc_id = p.doc_id_a
    join survivor_ranks as rb on rb.doc_id = p.doc_id_b
    where ra.rep <> rb.rep
),
node_pairs as (
    select x, y, min(jaccard) as jaccard from ends group by x, y
)
select
    if(nx.rank < ny.rank, p.x, p.y) as a,
    if(nx.rank < ny.rank, p.y, p.x) as b,
    least(nx.rank, ny.rank) as rank_a,
    p.jaccard
from node_pairs as p
join survivor_nodes as nx on nx.node = p.x
join survivor_nodes as ny on ny.node = p.y
