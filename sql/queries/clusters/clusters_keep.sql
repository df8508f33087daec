-- query:  clusters_keep
-- reads:  clusters(keep, resolve, keep_by)
-- params: (none)
-- The --keep rule, the --resolve rule and the --keep-by column the clusters table was built by
-- (null: a table made before dedup recorded the rule, which lacks the column, or no --keep-by; no
-- row: an empty table). Read through the row as JSON, so the statement binds with or without the
-- columns.
select to_json(c) ->> 'keep' as keep, to_json(c) ->> 'resolve' as resolve, to_json(c) ->> 'keep_by' as keep_by
from clusters as c
limit 1
