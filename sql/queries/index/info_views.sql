-- query:  info_views
-- reads:  duckdb_views()
-- writes: (none)
-- params: (none)
-- `dedup info`: the database's own views, by name: a lean index's pair tables, which list the pairs
-- stored between groups of exact copies and those within each group (dedup.stages.Layout.stored).
select view_name as "view"
from duckdb_views()
where database_name = current_database() and schema_name = 'main' and not temporary and not internal
order by view_name
