-- query:  survivor_decided_walked
-- reads:  survivor_decided(node, kept), survivor_walked(node, kept)
-- writes: survivor_decided_next(node, kept)
-- params: (none)
-- The decided nodes once the driver walked the rest (survivor_walked, registered by
-- dedup.index.clusters._walk): every node with an edge.
select node, kept from survivor_decided
union all
select node, kept from survivor_walked
