-- query:  info_tables
-- reads:  duckdb_tables()
-- params: (none)
-- The tables of the database, with their rows (`dedup info`).
select table_name as "table", estimated_size as "rows"
from duckdb_tables()
where database_name = current_database() and schema_name = 'main' and not temporary
order by table_name
