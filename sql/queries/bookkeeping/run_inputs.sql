-- query:  run_inputs
-- reads:  run_inputs(path)
-- params: (none)
-- The paths every run and `dedup add` on the database read.
select path from run_inputs order by path
