-- query:  survivor_in
-- reads:  survivor_undecided(node), survivor_pending(a, b)
-- writes: survivor_in(node, n_in, parent)
-- params: (none)
-- A round of the verified rule, for each undecided node: how many undecided earlier neighbours it
-- has (n_in; its decided earlier neighbours are all dropped, else it would be dropped too) and,
-- when it has one, which (parent). With none it is kept; with one it is kept exactly when its
-- parent is dropped.
select u.node, count(p.a) as n_in, min(p.a) as parent
from survivor_undecided as u
left join survivor_pending as p on p.b = u.node
group by u.node
