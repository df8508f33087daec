-- query:  cluster_survivors (verified)
-- reads:  survivor_ranks(doc_id, rep), survivor_nodes(node, best_doc), survivor_edges(a, b, rank_a, jaccard),
--         survivor_decided(node, kept)
-- writes: cluster_survivors(doc_id, survivor_doc_id, jaccard)
-- params: (none)
-- Each ranked member's survivor under the verified rule. Walking the nodes in rank order, a node
-- is kept unless a node already kept is one of its verified pairs; the rounds above decide exactly
-- that set. A dropped node's survivor is the first kept node among its earlier neighbours, with
-- their exact Jaccard. A member of a kept node is kept if it is the node's first member, else
-- dropped for that member (an exact copy, Jaccard 1); a member of a dropped node is dropped for
-- the node's survivor. A document in no pair is kept for itself and has no row here.
with dropped as (
    select node from survivor_decided where not kept
),
firsts as (
    select
        e.b as node,
        e.a as survivor_node,
        e.jaccard,
        row_number() over (partition by e.b order by e.rank_a) as n
    from survivor_edges as e
    semi join dropped as d on d.node = e.b
    anti join dropped as k on k.node = e.a
),
node_survivors as (
    select n.node, coalesce(s.best_doc, n.best_doc) as survivor_doc_id, f.jaccard, f.node is not null as is_dropped
    from survivor_nodes as n
    left join firsts as f on f.node = n.node and f.n = 1
    left join survivor_nodes as s on s.node = f.survivor_node
)
select
    r.doc_id,
    s.survivor_doc_id,
    case
        when s.is_dropped then s.jaccard
        when r.doc_id <> s.survivor_doc_id then cast(1 as double)
    end as jaccard
from survivor_ranks as r
join node_survivors as s on s.node = r.rep
