-- query:  survivor_decided_next
-- reads:  survivor_decided(node, kept), survivor_decided_now(node, kept)
-- writes: survivor_decided_next(node, kept)
-- params: (none)
-- The decided nodes after this round.
select node, kept from survivor_decided
union all
select node, kept from survivor_decided_now
