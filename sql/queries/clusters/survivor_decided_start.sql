-- query:  survivor_decided
-- reads:  survivor_edges(a)
-- writes: survivor_decided(node, kept)
-- params: (none)
-- The nodes decided so far, kept or dropped: none at the start (the typed empty table).
select a as node, true as kept from survivor_edges where false
