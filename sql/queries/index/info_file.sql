-- query:  info_file
-- reads:  pragma_database_size(), duckdb_databases()
-- params: (none)
-- The database file's size in blocks, used and free, and its storage format (`dedup info`).
select
    s.block_size,
    s.total_blocks,
    s.used_blocks,
    s.free_blocks,
    d.tags['storage_version'] as storage_version
from pragma_database_size() as s
join duckdb_databases() as d on d.database_name = s.database_name
where s.database_name = current_database()
