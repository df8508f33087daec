-- query:  clusters_keep
-- reads:  clusters(keep)
-- params: (none)
-- The --keep rule the clusters table was built by (null: a table made before dedup recorded the
-- rule, which has no keep column; no row: an empty table). Read through the row as JSON, so the
-- statement binds with or without the column.
select to_json(c) ->> 'keep' as keep from clusters as c limit 1
