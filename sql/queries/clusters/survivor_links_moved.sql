-- query:  survivor_links_moved
-- reads:  survivor_links_next(moved)
-- params: (none)
-- How many links jumped in the last step (0: every pointer is a chain's root).
select count(*) from survivor_links_next where moved
