-- query:  survivor_undecided_count
-- reads:  survivor_undecided
-- params: (none)
-- How many nodes are still undecided (0: the rule is done).
select count(*) from survivor_undecided
