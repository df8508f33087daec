-- query:  clusters_keep
-- reads:  clusters(keep, resolve, keep_by)
-- params: (none)
-- Spark's version: the --keep, --resolve and --keep-by rules of the clusters table under the work folder.
-- DuckDB's reads them through the row as JSON for tables older than the columns; Spark has no such
-- table (its clusters are written by this version whenever a run asks for them).
select keep, resolve, keep_by from clusters limit 1
