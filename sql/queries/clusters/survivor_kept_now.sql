-- query:  survivor_kept_now
-- reads:  survivor_in(node, n_in), survivor_links(node, ptr, odd)
-- writes: survivor_kept_now(node)
-- params: (none)
-- The nodes kept in this round: those with no undecided earlier neighbour, and the links an even
-- number of steps from such a root (a root that waits on two or more neighbours decides nothing yet).
select node from survivor_in where n_in = 0
union all
select l.node
from survivor_links as l
join survivor_in as r on r.node = l.ptr
where r.n_in = 0 and l.odd = 0
