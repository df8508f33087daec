-- query:  survivor_links_moving
-- reads:  survivor_links(node, ptr)
-- params: (none)
-- How many links point to a link (0: every pointer is its chain's root, nothing to jump).
select count(*) from survivor_links as l semi join survivor_links as p on p.node = l.ptr
