-- query:  temporary_table_exists
-- reads:  duckdb_tables(), duckdb_views()
-- params: $name
-- Whether the connection has a temporary table or view of this name: what the run holds until it
-- ends (retained_view.sql), which a statement then reads rather than one made again (dedup/runner.py).
select count(*) > 0
from (
    select table_name as name from duckdb_tables() where temporary
    union all
    select view_name from duckdb_views() where temporary
)
where name = $name
