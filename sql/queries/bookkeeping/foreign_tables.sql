-- query:  foreign_tables
-- reads:  duckdb_tables()
-- params: (none)
-- How many tables a --db holds, and whether one is `stages` (every dedup database has it once a
-- run starts): a database with tables but no `stages` was made by another application.
select count(*) as tables, count(*) filter (where table_name = 'stages') as stages
from duckdb_tables()
where database_name = current_database() and schema_name = 'main'
