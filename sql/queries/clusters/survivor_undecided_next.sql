-- query:  survivor_undecided_next
-- reads:  survivor_undecided(node), survivor_decided_now(node)
-- writes: survivor_undecided_next(node)
-- params: (none)
-- The nodes still undecided after this round.
select u.node
from survivor_undecided as u
anti join survivor_decided_now as d on d.node = u.node
