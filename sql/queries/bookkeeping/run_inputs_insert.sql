-- query:  run_inputs_insert
-- reads:  run_inputs(path)
-- writes: run_inputs(path)
-- params: $paths
-- Add the paths a run or `dedup add` read, each once.
insert into run_inputs
select distinct path from unnest($paths::varchar[]) as read(path)
where path not in (select path from run_inputs)
