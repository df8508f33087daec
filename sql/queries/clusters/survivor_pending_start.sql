-- query:  survivor_pending
-- reads:  survivor_edges(a, b)
-- writes: survivor_pending(a, b)
-- params: (none)
-- The edges between undecided nodes: at the start, every edge.
select a, b from survivor_edges
