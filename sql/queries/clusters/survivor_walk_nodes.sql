-- query:  survivor_walk_nodes
-- reads:  survivor_undecided(node), survivor_nodes(node, rank)
-- writes: (none: a SELECT, the nodes the driver walks)
-- params: (none)
-- The nodes still undecided, in the order of the walk (rank): the i-th row is node i of
-- survivor_walk_edges.
select u.node
from survivor_undecided as u
join survivor_nodes as n on n.node = u.node
order by n.rank
