-- query:  database_name
-- reads:  (none)
-- params: (none)
-- The name of the database a run writes (its file's stem), which a batch's appends name
-- (batch_append.sql) while a temporary table of the same name shadows the database's.
select current_database()
