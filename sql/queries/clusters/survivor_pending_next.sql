-- query:  survivor_pending_next
-- reads:  survivor_pending(a, b), survivor_undecided_next(node)
-- writes: survivor_pending_next(a, b)
-- params: (none)
-- The edges between nodes still undecided: a dropped neighbour no longer counts, and a node with
-- a kept earlier neighbour is decided.
select p.a, p.b
from survivor_pending as p
semi join survivor_undecided_next as ua on ua.node = p.a
semi join survivor_undecided_next as ub on ub.node = p.b
