-- query:  staging_leave
-- params: (none)
-- Back to main, of the database the connection uses (DuckDB's default search path, which `reset`
-- gives, is that of the connection's in-memory database, not of the file it attached).
set search_path = 'main'
