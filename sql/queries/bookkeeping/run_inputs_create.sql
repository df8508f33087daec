-- query:  run_inputs_create
-- writes: run_inputs(path)
-- params: (none)
-- The files and folders that the database's runs and `dedup add` read (absolute, links resolved):
-- `dedup export` and `dedup report` refuse to write an output that is one of them or lies below one.
create table if not exists run_inputs (path varchar)
