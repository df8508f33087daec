-- query:  retained_tables
-- reads:  duckdb_tables()
-- params: (none)
-- The tables the run holds (retained_attach.sql), by name.
select table_name from duckdb_tables() where database_name = 'dedup_retained' order by table_name
