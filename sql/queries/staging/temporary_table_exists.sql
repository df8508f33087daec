-- query:  temporary_table_exists
-- reads:  duckdb_tables()
-- params: $name
-- Whether the connection has a temporary table of this name: a table the run keeps until it ends
-- (retained_start.sql), which a statement then reads rather than one made again (dedup/runner.py).
select count(*) > 0 from duckdb_tables() where temporary and table_name = $name
