-- query:  clusters_dropped_count
-- reads:  clusters(is_survivor)
-- params: (none)
-- How many documents --keep drops (counted where the table is, not fetched).
select count(*) from clusters where not is_survivor
