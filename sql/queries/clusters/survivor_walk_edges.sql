-- query:  survivor_walk_edges
-- reads:  survivor_undecided(node), survivor_nodes(node, rank), survivor_pending(a, b)
-- writes: (none: a SELECT, the edges the driver walks)
-- params: (none)
-- The edges between the nodes still undecided, each from the later node (b) to the earlier (a),
-- both named by their place in the walk (0, 1, ... as survivor_walk_nodes lists them), sorted by
-- the later one: when the walk reaches an edge, the fate of its earlier node is final (every edge
-- into it came before). survivor_pending may hold edges of nodes decided in the last round.
with walked as (
    select u.node, row_number() over (order by n.rank) - 1 as i
    from survivor_undecided as u
    join survivor_nodes as n on n.node = u.node
)
select wb.i as b, wa.i as a
from survivor_pending as p
join walked as wa on wa.node = p.a
join walked as wb on wb.node = p.b
order by wb.i, wa.i
