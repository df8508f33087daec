-- query:  survivor_pending_next
-- reads:  survivor_pending(a, b), survivor_undecided(node)
-- writes: survivor_pending_next(a, b)
-- params: (none)
-- At the start of a round after the first: the edges between the nodes still undecided (the
-- last round's survivor_undecided_next). A dropped neighbour no longer counts, and a node with a
-- kept earlier neighbour is decided.
select p.a, p.b
from survivor_pending as p
semi join survivor_undecided as ua on ua.node = p.a
semi join survivor_undecided as ub on ub.node = p.b
