-- query:  survivor_decided_next
-- reads:  survivor_decided(node, kept), survivor_kept_now(node), survivor_dropped_now(node)
-- writes: survivor_decided_next(node, kept)
-- params: (none)
-- The decided nodes after this round.
select node, kept from survivor_decided
union all
select node, true as kept from survivor_kept_now
union all
select node, false as kept from survivor_dropped_now
