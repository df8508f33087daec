-- query:  clusters_keep
-- reads:  clusters(keep, resolve)
-- params: (none)
-- The --keep rule and the --resolve rule the clusters table was built by (null: a table made before
-- dedup recorded the rule, which lacks the column; no row: an empty table). Read through the row
-- as JSON, so the statement binds with or without the columns.
select to_json(c) ->> 'keep' as keep, to_json(c) ->> 'resolve' as resolve from clusters as c limit 1
