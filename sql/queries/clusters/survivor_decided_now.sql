-- query:  survivor_decided_now
-- reads:  survivor_in(node, n_in), survivor_links(node, ptr, odd), survivor_pending(a, b)
-- writes: survivor_decided_now(node, kept)
-- params: (none)
-- The nodes decided in this round. Kept: those with no undecided earlier neighbour, and the links
-- an even number of steps from such a root (a root that waits on two or more neighbours decides
-- nothing yet). Dropped: the nodes with a pair among the nodes kept now (a link an odd number of
-- steps from a kept root is one: its parent is kept).
with kept_now as (
    select node from survivor_in where n_in = 0
    union all
    select l.node
    from survivor_links as l
    join survivor_in as r on r.node = l.ptr
    where r.n_in = 0 and l.odd = 0
),
dropped_now as (
    select distinct p.b as node
    from survivor_pending as p
    semi join kept_now as k on k.node = p.a
)
select node, true as kept from kept_now
union all
select node, false as kept from dropped_now
