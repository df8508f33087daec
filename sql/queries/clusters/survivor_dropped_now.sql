-- query:  survivor_dropped_now
-- reads:  survivor_pending(a, b), survivor_kept_now(node)
-- writes: survivor_dropped_now(node)
-- params: (none)
-- The nodes dropped in this round: an earlier neighbour of theirs is kept.
select distinct p.b as node
from survivor_pending as p
semi join survivor_kept_now as k on k.node = p.a
