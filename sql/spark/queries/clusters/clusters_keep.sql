-- query:  clusters_keep
-- reads:  clusters(keep, resolve)
-- params: (none)
-- Spark's version: the --keep and --resolve rules of the clusters table under the work folder.
-- DuckDB's reads them through the row as JSON for tables older than the columns; Spark has no such
-- table (its clusters are written by this version whenever a run asks for them).
select keep, resolve from clusters limit 1
