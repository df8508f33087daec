-- query:  clusters_dropped
-- reads:  clusters(id, is_survivor)
-- params: (none)
-- The ids of the documents that --keep drops: every document of a cluster but its survivor.
select id from clusters where not is_survivor
