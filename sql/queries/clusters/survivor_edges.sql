-- query:  survivor_edges
-- reads:  cluster_edges(doc_id_a, doc_id_b, jaccard), survivor_nodes(node, rank)
-- writes: survivor_edges(a, b, rank_a, jaccard)
-- params: (none)
-- The edges between nodes (groups of copies, named by their representatives) from the earlier
-- node (a, by rank) to the later (b), with their exact Jaccard.
select
    if(nx.rank < ny.rank, e.doc_id_a, e.doc_id_b) as a,
    if(nx.rank < ny.rank, e.doc_id_b, e.doc_id_a) as b,
    least(nx.rank, ny.rank) as rank_a,
    e.jaccard
from cluster_edges as e
join survivor_nodes as nx on nx.node = e.doc_id_a
join survivor_nodes as ny on ny.node = e.doc_id_b
