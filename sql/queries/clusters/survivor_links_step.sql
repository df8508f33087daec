-- query:  survivor_links_next
-- reads:  survivor_links(node, ptr, odd)
-- writes: survivor_links_next(node, ptr, odd)
-- params: (none)
-- One jump: a link whose pointer is itself a link takes that link's pointer and adds its parity.
-- Edges go from earlier to later nodes, so chains end; a chain of n links needs about log2(n) jumps.
select
    l.node,
    coalesce(p.ptr, l.ptr) as ptr,
    (l.odd + coalesce(p.odd, 0)) % 2 as odd
from survivor_links as l
left join survivor_links as p on p.node = l.ptr
