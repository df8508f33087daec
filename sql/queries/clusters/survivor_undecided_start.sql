-- query:  survivor_undecided
-- reads:  survivor_edges(a, b)
-- writes: survivor_undecided(node)
-- params: (none)
-- The nodes not yet decided: at the start, every node with an edge (a node without one is kept).
select a as node from survivor_edges
union
select b as node from survivor_edges
